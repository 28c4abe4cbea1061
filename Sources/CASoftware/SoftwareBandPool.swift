import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The threads that run a draw pass's bands beside the calling thread (issue 23).
///
/// `DispatchQueue.concurrentPerform` woke sleeping pool threads for every pass: on the 2-core VM
/// the wake (a futex system call on the caller, `sem_post` in libdispatch) and the wait for the
/// woken thread were 13 % of the render thread's time in Lottie's cactus (four offscreen passes
/// and the main pass a frame), measured with `perf`. Here each worker, once it runs out of bands,
/// waits `lingerNanoseconds` for the next pass before it sleeps, yielding its core
/// (`sched_yield`) to any thread that needs it, so passes that follow one another (a frame's
/// passes, and frames rendered back to back) start their bands at once and the caller wakes no
/// one. The cost is up to that long of a core for each of the first `lingeringWorkers` workers
/// after the last pass of a frame.
///
/// A pass is published as a generation: the band counter carries the generation in its high
/// half, so a worker that took a pass's body late can never take a band of the next pass with
/// it (its compare-and-exchange fails), and `run` returns only when every band it handed out is
/// done, so no body outlives its call.
final class SoftwareBandPool: @unchecked Sendable {
    /// Workers beside the calling thread; started the first time `run` has more than one band.
    let workers: Int
    let shared: Shared
    private var started = false

    /// How long a worker waits for the next pass before it sleeps (nanoseconds).
    static let lingerNanoseconds: UInt64 = 300_000
    /// Workers that wait so; the others sleep as soon as they run out of bands (on a machine of
    /// many cores, fifteen pollers would spend 4.5 ms of cores after every frame's last pass).
    static let lingeringWorkers = 2

    init(workers: Int) {
        self.workers = max(workers, 0)
        shared = Shared()
    }

    /// The process's pool of `workers` workers, made on first use and kept: every CPU-backend
    /// renderer of a thread count shares it, so a server with a hundred renderers has one set
    /// of band threads, not a hundred (a pass that finds the pool busy with another renderer's
    /// pass runs on its own thread: the other cores are busy then anyway).
    static func shared(workers: Int) -> SoftwareBandPool {
        registryLock.lock()
        defer { registryLock.unlock() }
        if let p = registry[workers] { return p }
        let p = SoftwareBandPool(workers: workers)
        registry[workers] = p
        return p
    }
    private static let registryLock = NSLock()
    nonisolated(unsafe) private static var registry: [Int: SoftwareBandPool] = [:]

    /// Ends the workers' threads: a pool of its own (`init`; the shared ones live as long as
    /// the process).
    deinit {
        shared.condition.lock()
        shared.stopping = true
        shared.condition.broadcast()
        shared.condition.unlock()
        shared.published.store(-1, ordering: .releasing)
    }

    /// Calls `body` with every band index in `0..<bands`, on the workers and the calling thread;
    /// returns when every call has returned.
    ///
    /// One caller at a time: a call made while another runs (from a band, or from another
    /// thread) runs its bands on its own thread instead.
    func run(bands: Int, _ body: (Int) -> Void) {
        guard bands > 1, workers > 0, !shared.busy.exchange(true, ordering: .acquiring) else {
            for b in 0..<max(bands, 0) { body(b) }
            return
        }
        defer { shared.busy.store(false, ordering: .releasing) }
        if !started { start() }
        // The workers reach the body through a pointer to this frame's copy, and call it only
        // while they hold a band of this generation, before `done` counts it: `run` waits for
        // that, so no call, and no copy of the closure, outlives it.
        withoutActuallyEscaping(body) { escapable in
            var f = escapable
            withUnsafeMutablePointer(to: &f) { p in
                let s = shared
                let raw = UnsafeRawPointer(p)
                s.condition.lock()
                s.generation += 1
                let gen = s.generation
                s.body = raw
                s.bands = bands
                s.done.store(0, ordering: .relaxed)
                s.ticket.store(Shared.ticket(gen), ordering: .releasing)
                s.published.store(gen, ordering: .releasing)
                if s.sleeping > 0 { s.condition.broadcast() }
                s.condition.unlock()
                s.takeBands(generation: gen, count: bands, raw)
                // The last bands are usually moments from done.
                var spins = 0
                while s.done.load(ordering: .acquiring) < bands {
                    spins += 1
                    if spins & 63 == 0 { sched_yield() }
                }
                s.condition.lock()
                s.body = nil
                s.condition.unlock()
            }
        }
    }

    private func start() {
        started = true
        for k in 0..<workers {
            let s = shared
            let t = Thread { s.work(lingers: k < Self.lingeringWorkers) }
            t.name = "CASoftware band \(k + 1)"
            t.stackSize = 1 << 20
            t.start()
        }
    }

    /// What the calling thread and the workers share.
    final class Shared: @unchecked Sendable {
        let condition = NSCondition()
        // Under `condition`:
        var generation = 0
        /// The current pass's body (`run`'s copy of it); nil between passes.
        var body: UnsafeRawPointer?
        var bands = 0
        var sleeping = 0
        var stopping = false
        // Read without the lock:
        /// The generation last published (−1: the pool is gone).
        let published = Atomic<Int>(0)
        /// Generation << 32 | the next band to take.
        let ticket = Atomic<UInt64>(0)
        /// Bands of the current generation done.
        let done = Atomic<Int>(0)
        /// Workers waiting for a pass now.
        let lingering = Atomic<Int>(0)
        /// A `run` is publishing or waiting for its bands.
        let busy = Atomic<Bool>(false)
        /// Workers whose threads have ended (tests).
        let ended = Atomic<Int>(0)

        /// The ticket of band 0 of generation `gen` (its low 32 bits: generations wrap after
        /// 2³² passes, long after any worker of the old one has gone).
        static func ticket(_ gen: Int) -> UInt64 { UInt64(truncatingIfNeeded: gen) << 32 }

        /// Takes bands of generation `gen` until none is left (or the generation has passed).
        func takeBands(generation gen: Int, count: Int, _ body: UnsafeRawPointer) {
            let f = body.assumingMemoryBound(to: ((Int) -> Void).self)
            let mine = Self.ticket(gen)
            while true {
                let t = ticket.load(ordering: .acquiring)
                guard t & ~0xFFFF_FFFF == mine, Int(t & 0xFFFF_FFFF) < count else { return }
                guard ticket.compareExchange(expected: t, desired: t + 1, ordering: .acquiringAndReleasing).exchanged else { continue }
                f.pointee(Int(t & 0xFFFF_FFFF))
                done.add(1, ordering: .releasing)
            }
        }

        /// A worker: waits for each new generation (lingering, then asleep) and takes its bands.
        func work(lingers: Bool) {
            var seen = 0
            while true {
                if !lingers || !waitBriefly(after: seen) {
                    condition.lock()
                    sleeping += 1
                    while generation == seen, !stopping { condition.wait() }
                    sleeping -= 1
                    condition.unlock()
                }
                condition.lock()
                if stopping {
                    condition.unlock()
                    ended.add(1, ordering: .releasing)
                    return
                }
                let gen = generation, body = self.body, count = bands
                condition.unlock()
                seen = gen
                if let body { takeBands(generation: gen, count: count, body) }
            }
        }

        /// Waits up to `lingerNanoseconds` for a generation after `seen`; false when none came.
        private func waitBriefly(after seen: Int) -> Bool {
            let since = DispatchTime.now().uptimeNanoseconds
            lingering.add(1, ordering: .relaxed)
            defer { lingering.subtract(1, ordering: .relaxed) }
            var spins = 0
            while published.load(ordering: .acquiring) == seen {
                spins += 1
                if spins & 7 == 0 {
                    if DispatchTime.now().uptimeNanoseconds - since > SoftwareBandPool.lingerNanoseconds { return false }
                    sched_yield()
                }
            }
            return true
        }
    }
}
