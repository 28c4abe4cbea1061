/// One lock for the whole test process between tests that pin `CAMediaClock` (process-wide:
/// `freeze(at:)` changes `CACurrentMediaTime()` for every thread) and tests that need real time
/// (a window's display-driven loop paces itself by it). Swift Testing runs suites of different
/// targets in parallel in one process; without this, a real-time window test that ran while a
/// long clock-pinning test froze the clock saw time stand still or jump back seconds.
/// An actor with continuations, so waiting never blocks a cooperative thread.
package actor ClockLock {
    package static let shared = ClockLock()
    private var held = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    package func acquire() async {
        guard held else { held = true; return }
        await withCheckedContinuation { waiters.append($0) }
    }

    package func release() {
        if waiters.isEmpty { held = false } else { waiters.removeFirst().resume() }
    }
}
