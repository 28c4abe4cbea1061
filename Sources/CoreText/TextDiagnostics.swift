import Foundation
import Synchronization

/// Where Core Text reports input it ignores or clamps, and attributes it does not reproduce
/// ("no silent gaps"): each distinct message is written to standard error once per process,
/// and every message, repeats included, goes to the collector of `capture` so a test can prove
/// that its own input was warned about. Same shape as CoreGraphics' and CoreAnimation's
/// reporters; Core Text sits below CoreAnimation's logging set-up.
package enum TextDiagnostics {
    private static let seen = Mutex<Set<String>>([])

    /// Reports `message` (prefixed "CoreText: ") the first time it is given.
    package static func warnOnce(_ message: String) {
        let text = "CoreText: " + message
        collector?.messages.withLock { $0.append(text) }
        let isNew = seen.withLock { $0.insert(text).inserted }
        if isNew {
            FileHandle.standardError.write(Data("warning: \(text)\n".utf8))
        }
    }

    /// Runs `body` and returns, with its result, every warning it gave on this task.
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
