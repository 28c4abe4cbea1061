import Synchronization

/// Where Core Graphics reports input it ignores or clamps, and calls it does not reproduce
/// ("no silent gaps"): each distinct message is written to standard error once per process
/// (Core Graphics on Apple platforms logs such problems to the console too, e.g.
/// "CGContextRestoreGState: invalid context"), and every message, repeats included, goes to
/// the collector of `capture` so tests can prove it was given. CoreGraphics sits below the
/// logging setup of CoreAnimation, hence its own small reporter with the same shape as
/// CoreAnimation's `Diagnostics`.
package enum CGDiagnostics {
    private static let seen = Mutex<Set<String>>([])

    /// Reports `message` (prefixed "CoreGraphics: ") the first time it is given.
    package static func warnOnce(_ message: String) {
        let text = "CoreGraphics: " + message
        collector?.messages.withLock { $0.append(text) }
        let isNew = seen.withLock { $0.insert(text).inserted }
        if isNew {
            var err = StandardErrorStream()
            print("warning: \(text)", to: &err)
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

private struct StandardErrorStream: TextOutputStream {
    mutating func write(_ string: String) {
        FileHandle.standardError.write(Data(string.utf8))
    }
}
