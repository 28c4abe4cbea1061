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
        let isNew = seen.withLock { state -> Bool in
            state.recent.append(message)
            if state.recent.count > 256 { state.recent.removeFirst(state.recent.count - 256) }
            return state.messages.insert(message).inserted
        }
        if isNew { logger.warning("\(message)") }
    }

    /// The latest warnings (also repeated ones), newest last: lets tests prove a warning was given.
    package static var recentWarnings: [String] { seen.withLock { $0.recent } }
}
