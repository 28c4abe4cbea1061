import Foundation

/// One place that reports problems the libraries ignore, clamp or do not reproduce ("no silent
/// gaps"): each distinct message once per process to its output, and every message, repeats
/// included, to the collector of `capture`, so a test proves that its own input was warned
/// about however many other threads warn meanwhile. Core Graphics, Core Text and the Core
/// Animation model each own a channel (`CGDiagnostics`, `TextDiagnostics`, `Diagnostics`) with
/// their own prefix, output and collector; this is the mechanism they share.
package final class WarningChannel: Sendable {
    package final class Collector: Sendable {
        package let messages = Locked<[String]>([])
        package init() {}
    }

    private let seen = Locked<Set<String>>([])
    /// Distinct messages remembered at most. Messages can carry input-derived values (a size, a
    /// name), so a long-running process (`carender serve`) fed endless bad inputs would otherwise
    /// grow this set without bound; past the cap it starts over, so a message may be written
    /// again after this many others.
    package static let seenCapacity = 4096
    private let collector: TaskLocal<Collector?>
    private let emit: @Sendable (String) -> Void

    /// `emit` receives each distinct message once.
    package init(emit: @escaping @Sendable (String) -> Void) {
        collector = TaskLocal(wrappedValue: nil)
        self.emit = emit
    }

    /// Reports `message`; true the first time this channel is given it.
    @discardableResult
    package func warnOnce(_ message: String) -> Bool {
        collector.get()?.messages.withLock { $0.append(message) }
        let isNew = seen.withLock { set in
            if set.count >= Self.seenCapacity, !set.contains(message) { set.removeAll(keepingCapacity: true) }
            return set.insert(message).inserted
        }
        if isNew { emit(message) }
        return isNew
    }

    /// Runs `body` and returns, with its result, every warning this channel gave on this task.
    package func capture<T>(_ body: () throws -> T) rethrows -> (T, [String]) {
        let c = Collector()
        let result = try collector.withValue(c) { try body() }
        return (result, c.messages.withLock { $0 })
    }

    /// Writes a warning line to standard error (the channels below CoreAnimation's logging).
    package static func standardError(_ message: String) {
        FileHandle.standardError.write(Data("warning: \(message)\n".utf8))
    }
}
