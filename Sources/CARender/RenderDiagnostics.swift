import Synchronization
import CoreAnimation

/// Warnings from the render path. They go through the model's `Diagnostics` (swift-log, each
/// distinct message once per process, so a frame loop does not flood the log); `capture` lets
/// a test collect its own.
package enum RenderDiagnostics {
    package static func warn(_ message: String) {
        collector?.messages.withLock { $0.append(message) }
        Diagnostics.warnOnce("CARenderer: \(message)")
    }

    /// The latest warnings of the render path (repeats included), oldest first.
    package static var warnings: [String] {
        Diagnostics.recentWarnings.compactMap { $0.hasPrefix("CARenderer: ") ? String($0.dropFirst(12)) : nil }
    }

    /// Runs `body` and returns, with its result, every warning it gave (repeats included),
    /// however many other threads warn meanwhile: how a test proves that its own input was
    /// warned about, when the printed log shows each message once per process.
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
