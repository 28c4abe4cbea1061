import Synchronization
import Foundation

/// Warnings from the render path: each distinct message is printed once per process to
/// standard error (a frame loop must not flood the log) and kept for tests.
public enum RenderDiagnostics {
    private static let seen = Mutex<[String]>([])

    public static func warn(_ message: String) {
        collector?.messages.withLock { $0.append(message) }
        let first = seen.withLock { list -> Bool in
            if list.contains(message) { return false }
            list.append(message)
            return true
        }
        if first { FileHandle.standardError.write(Data("CARenderer warning: \(message)\n".utf8)) }
    }

    /// Every distinct warning so far, oldest first.
    public static var warnings: [String] { seen.withLock { $0 } }

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
