import Synchronization

/// The render slots: at most `slots` renders run at once; up to `maxQueue` requests wait for a
/// slot, first come first served; one more is refused at once (the server answers 503 with
/// Retry-After). A waiting request whose task is cancelled (its client went away, its time ran
/// out, the server is stopping) leaves the queue.
package final class RenderQueue: Sendable {
    package struct Counts: Sendable, Equatable {
        package var running: Int
        package var waiting: Int
        package init(running: Int, waiting: Int) { self.running = running; self.waiting = waiting }
    }

    private struct Waiter {
        var id: UInt64
        var continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var running = 0
        var waiters: [Waiter] = []
        var nextID: UInt64 = 0
    }

    package let slots: Int
    package let maxQueue: Int
    private let state = Mutex(State())
    /// Called (outside the lock) after every change, with the new counts (the metrics' gauges).
    private let onChange: @Sendable (Counts) -> Void

    package struct Full: Error {}

    package init(slots: Int, maxQueue: Int, onChange: @escaping @Sendable (Counts) -> Void = { _ in }) {
        self.slots = max(1, slots)
        self.maxQueue = max(0, maxQueue)
        self.onChange = onChange
    }

    package var counts: Counts { state.withLock { Counts(running: $0.running, waiting: $0.waiters.count) } }

    /// Takes a slot, waiting for one if all are busy. Throws `Full` when the queue is full, and
    /// `CancellationError` when the task is cancelled while waiting.
    package func acquire() async throws {
        try Task.checkCancellation()
        enum Entry { case granted, full, wait(UInt64) }
        let entry: Entry = state.withLock { s in
            if s.running < slots { s.running += 1; return .granted }
            if s.waiters.count >= maxQueue { return .full }
            s.nextID += 1
            return .wait(s.nextID)
        }
        switch entry {
        case .granted: onChange(counts); return
        case .full: throw Full()
        case .wait(let id):
            try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (c: CheckedContinuation<Void, any Error>) in
                    let cancelled = state.withLock { s -> Bool in
                        if Task.isCancelled { return true }
                        s.waiters.append(Waiter(id: id, continuation: c))
                        return false
                    }
                    if cancelled { c.resume(throwing: CancellationError()) } else { onChange(counts) }
                }
            } onCancel: {
                let w = state.withLock { s -> Waiter? in
                    guard let i = s.waiters.firstIndex(where: { $0.id == id }) else { return nil }
                    return s.waiters.remove(at: i)
                }
                if let w { w.continuation.resume(throwing: CancellationError()); onChange(counts) }
            }
        }
    }

    /// Gives a slot back: the longest-waiting request takes it, else it is free.
    package func release() {
        let next = state.withLock { s -> Waiter? in
            if s.waiters.isEmpty { s.running -= 1; return nil }
            return s.waiters.removeFirst()
        }
        next?.continuation.resume()
        onChange(counts)
    }
}
