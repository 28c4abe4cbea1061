import CoreGraphics

/// Where Core Image reports input it ignores or clamps ("no silent gaps"): an unknown filter
/// name, a key a filter does not have, a value of the wrong type. Each distinct message is
/// written to standard error once per process (Core Image on Apple platforms logs unknown
/// filter names to the console too); `capture` collects every message on this task, repeats
/// included, for tests. Core Image sits below CoreAnimation's logging, hence standard error.
package enum CIDiagnostics {
    static let channel = WarningChannel(emit: WarningChannel.standardError)

    /// Reports `message` (prefixed "CoreImage: ") the first time it is given.
    package static func warnOnce(_ message: String) { channel.warnOnce("CoreImage: " + message) }

    /// Runs `body` and returns, with its result, every warning it gave on this task.
    package static func capture<T>(_ body: () throws -> T) rethrows -> (T, [String]) { try channel.capture(body) }
}
