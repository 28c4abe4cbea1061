/// Where Core Graphics reports input it ignores or clamps, and calls it does not reproduce
/// ("no silent gaps"): each distinct message is written to standard error once per process
/// (Core Graphics on Apple platforms logs such problems to the console too, e.g.
/// "CGContextRestoreGState: invalid context"), and every message, repeats included, goes to
/// the collector of `capture` (`WarningChannel`). CoreGraphics sits below the logging set-up of
/// CoreAnimation, hence standard error.
package enum CGDiagnostics {
    static let channel = WarningChannel(emit: WarningChannel.standardError)

    /// Reports `message` (prefixed "CoreGraphics: ") the first time it is given.
    package static func warnOnce(_ message: String) { channel.warnOnce("CoreGraphics: " + message) }

    /// Runs `body` and returns, with its result, every warning it gave on this task.
    package static func capture<T>(_ body: () throws -> T) rethrows -> (T, [String]) { try channel.capture(body) }
}
