import CoreAnimation
import Synchronization

/// Where UIKitCompat says what it does not reproduce. Every gap logs one warning naming the
/// API (through Core Animation's `Diagnostics.warnOnce`, so a gap hit every frame logs once):
/// "no silent gaps". `capture` lets a test collect the warnings its own code gave, whatever
/// other suites log meanwhile (the process-wide `Diagnostics.recentWarnings` is shared).
package enum CompatDiagnostics {
    static func warnOnce(_ api: String, _ why: String) {
        let message = "UIKitCompat: \(api) \(why)"
        collector?.messages.withLock { $0.append(message) }
        Diagnostics.warnOnce(message)
    }

    /// Runs `body` and returns, with its result, every warning it gave (repeats included).
    package static func capture<T>(_ body: () throws -> T) rethrows -> (T, [String]) {
        let c = Collector()
        let result = try $collector.withValue(c) { try body() }
        return (result, c.messages.withLock { $0 })
    }

    package final class Collector: Sendable {
        let messages = Mutex<[String]>([])
    }

    @TaskLocal package static var collector: Collector?
}
