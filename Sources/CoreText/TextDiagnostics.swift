import CoreGraphics

/// Where Core Text reports input it ignores or clamps, and attributes it does not reproduce
/// ("no silent gaps"): each distinct message is written to standard error once per process,
/// and every message, repeats included, goes to the collector of `capture` (`WarningChannel`).
/// Core Text sits below CoreAnimation's logging set-up, hence standard error.
package enum TextDiagnostics {
    static let channel = WarningChannel(emit: WarningChannel.standardError)

    /// Reports `message` (prefixed "CoreText: ") the first time it is given.
    package static func warnOnce(_ message: String) { channel.warnOnce("CoreText: " + message) }

    /// Runs `body` and returns, with its result, every warning it gave on this task.
    package static func capture<T>(_ body: () throws -> T) rethrows -> (T, [String]) { try channel.capture(body) }
}
