import Logging

/// Where the model reports input it ignores or clamps. Bad input never crashes; it is logged
/// once per distinct message (so a per-frame problem does not flood the log) and, for tests,
/// recorded in `recentWarnings`.
package enum Diagnostics {
    package static let logger = Logger(label: "QuartzCore")

    static let channel = WarningChannel(emit: { logger.warning("\($0)") })
    private static let recent = Locked<[String]>([])

    /// Logs `message` once; later identical messages are dropped.
    package static func warnOnce(_ message: String) {
        recent.withLock { r in
            r.append(message)
            if r.count > 256 { r.removeFirst(r.count - 256) }
        }
        channel.warnOnce(message)
    }

    /// The latest warnings (also repeated ones), newest last: lets tests prove a warning was given.
    package static var recentWarnings: [String] { recent.withLock { $0 } }

    /// Runs `body` and returns, with its result, every warning it gave (repeats included),
    /// however many other threads warn meanwhile: how a test proves that its own input was
    /// warned about, when the printed log shows each message once per process. The render path
    /// and UIKitCompat filter it to their own prefixes.
    package static func capture<T>(_ body: () throws -> T) rethrows -> (T, [String]) { try channel.capture(body) }
}
