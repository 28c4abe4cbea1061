import Logging
import Synchronization

/// Where the model reports input it ignores or clamps. Bad input never crashes; it is logged
/// once per distinct message (so a per-frame problem does not flood the log) and, for tests,
/// recorded in `recentWarnings`.
package enum Diagnostics {
    package static let logger = Logger(label: "QuartzCore")

    private static let seen = Mutex<(messages: Set<String>, recent: [String])>(([], []))

    /// Logs `message` once; later identical messages are dropped.
    package static func warnOnce(_ message: String) {
        collector?.messages.withLock { $0.append(message) }
        let isNew = seen.withLock { state -> Bool in
            state.recent.append(message)
            if state.recent.count > 256 { state.recent.removeFirst(state.recent.count - 256) }
            return state.messages.insert(message).inserted
        }
        if isNew { logger.warning("\(message)") }
    }

    /// The latest warnings (also repeated ones), newest last: lets tests prove a warning was given.
    package static var recentWarnings: [String] { seen.withLock { $0.recent } }

    /// Runs `body` and returns, with its result, every warning it gave (repeats included),
    /// however many other threads warn meanwhile: how a test proves that its own input was
    /// warned about, when the printed log shows each message once per process. The render path
    /// and UIKitCompat filter it to their own prefixes.
    package static func capture<T>(_ body: () throws -> T) rethrows -> (T, [String]) {
        let c = Collector()
        let result = try $collector.withValue(c) { try body() }
        return (result, c.messages.withLock { $0 })
    }

    package final class Collector: Sendable {
        let messages = Mutex<[String]>([])
    }

    @TaskLocal static var collector: Collector?
}
