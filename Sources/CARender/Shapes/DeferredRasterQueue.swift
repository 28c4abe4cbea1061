import CoreGraphics
import Dispatch
import Foundation
import Synchronization

/// The deferred rasters of the frame being walked (`DeferredRaster`), made by background
/// threads while the walk goes on, and by the walk's thread too once it has finished.
///
/// Up to `helpers` drains run on the global queue: one starts when a raster is submitted and
/// fewer are running, and each takes rasters in submission order until none is left, then waits
/// a while for more (`lingerNanoseconds`) before its thread goes back to the pool. `finish`
/// takes what is left on the calling thread (largest first), waits for the rasters, and hands
/// every raster back in submission order. A raster is a pure function of its request, so which
/// thread made it changes nothing: the frame is the same whatever the timing.
final class DeferredRasterQueue: @unchecked Sendable {
    /// Background drains at most (the backend's threads less the walk's own).
    var helpers = 0 {
        didSet { if helpers > 0, !warmed { warm() } }
    }
    /// Whether a drain has been started ahead of the first raster (`warm`).
    private var warmed = false
    /// Guards everything below; signalled when the last outstanding raster is made.
    private let condition = NSCondition()
    private var jobs: [DeferredRaster] = []
    private var results: [Result<ShapeRaster, ShapeRasterizer.Failure>?] = []
    /// Jobs not yet taken, by index, in the order they are to be taken.
    private var pending: [Int] = []
    private var next = 0
    /// Rasters submitted and not yet made (read without the lock while `finish` polls).
    private let outstanding = Atomic<Int>(0)
    /// Rasters submitted and taken since the queue was made (a lingering drain polls them).
    private let submitted = Atomic<Int>(0), taken = Atomic<Int>(0)
    /// How long a background drain that has run out of rasters waits for more before its
    /// thread goes back to the pool (nanoseconds; read as it waits, so lowering it ends a wait).
    ///
    /// Starting a drain on a sleeping thread costs the submitting thread a wake (a futex system
    /// call: 3.5 % of the walk's thread in TwitterHeart's burst), and the drain starts only when
    /// the scheduler runs it; on this project's 2-core VM that cost about what the second
    /// thread saved (TwitterHeart's burst 4.93 ms single-threaded, 5.00 ms with a helper). The
    /// next raster is usually moments away — later in the walk, or early in the next frame
    /// (0.1 ms after `finish` in the benchmarks) — so the drain waits for it, yielding its core
    /// (`sched_yield`) to any thread that needs it: the CPU backend's band threads run then. The
    /// cost is up to this long of a core's time a frame for each of at most `maxLingering`
    /// drains when no raster follows (2 % of a core each at 60 frames a second).
    let lingerNanoseconds = Atomic<UInt64>(300_000)
    /// Drains lingering for work now (read without the lock).
    private let lingering = Atomic<Int>(0)
    /// Background drains started since the queue was made (tests).
    private(set) var drainsStarted = 0
    /// Whether a drain is waiting for work now: a raster handed over then starts at once,
    /// without a thread to wake (`ShapeEmitter` then defers even a frame's first rasters).
    var hasLingeringDrain: Bool { lingering.load(ordering: .relaxed) > 0 }
    /// Drains started and not yet returned (one may still be starting up: `finish` waits for
    /// rasters, not for drains, so a late one finds nothing to take and returns).
    private var running = 0
    /// Scratch rasterisers not in use, kept clear between rasters (`ShapeRasterizer.rasterize`).
    private var idle: [CoverageRasterizer] = []

    func submit(_ job: DeferredRaster) {
        condition.lock()
        pending.append(jobs.count)
        jobs.append(job)
        results.append(nil)
        outstanding.add(1, ordering: .relaxed)
        submitted.add(1, ordering: .releasing)
        let start = running < helpers
        if start { running += 1; drainsStarted += 1 }
        condition.unlock()
        guard start else { return }
        DispatchQueue.global(qos: .userInitiated).async { self.drain(background: true) }
    }

    /// Starts a drain that finds nothing to take, as soon as there may be helpers. The
    /// global queue makes a thread for the first drain, and that thread a malloc arena for its
    /// first raster: paid by the first frame that deferred a raster, they were most of its
    /// cost (issue 23: TwitterHeart's frame 24, 0.71 ms, 0.45 without them; four context
    /// switches and seventeen page faults). Here they are paid when the renderer is made, beside it, and its
    /// scratch rasteriser is ready for the first raster.
    private func warm() {
        warmed = true
        condition.lock()
        running += 1
        drainsStarted += 1
        condition.unlock()
        DispatchQueue.global(qos: .userInitiated).async {
            self.condition.lock()
            // (Made on this thread: its buffers are this thread's arena's.)
            var scratch = CoverageRasterizer(width: 0, height: 0)
            scratch.reset(width: 64, height: 64)
            self.idle.append(scratch)
            self.condition.unlock()
            self.drain(background: true)
        }
    }

    /// Makes rasters until none is left to take (in the background, until none has come for
    /// `lingerNanoseconds` either).
    private func drain(background: Bool) {
        condition.lock()
        var rast = idle.popLast() ?? CoverageRasterizer(width: 0, height: 0)
        condition.unlock()
        var bytes: [UInt8] = [], pool = RasterBytePool()
        var waited = false
        while true {
            condition.lock()
            if next >= pending.count, background, !waited {
                condition.unlock()
                // (Whoever takes the raster that ended the wait, this drain waits again.)
                waited = !waitForRaster()
                continue
            }
            guard next < pending.count else {
                if background { running -= 1 }
                idle.append(rast)
                condition.unlock()
                return
            }
            waited = false
            let k = pending[next]
            next += 1
            taken.add(1, ordering: .relaxed)
            let request = jobs[k].request
            condition.unlock()
            let r = ShapeRasterizer.rasterize(request, scratch: &rast, resolveBuffer: &bytes, pool: &pool)
            condition.lock()
            results[k] = r
            if outstanding.subtract(1, ordering: .releasing).newValue == 0 { condition.broadcast() }
            condition.unlock()
        }
    }

    /// Drains that wait for rasters at once at most; the others return as soon as they run out
    /// (on a machine of many cores, fifteen pollers would spend 4.5 ms of cores a frame).
    static let maxLingering = 2

    /// Waits up to `lingerNanoseconds` for a raster no drain has taken; false when none came
    /// (or `maxLingering` drains wait already).
    private func waitForRaster() -> Bool {
        let since = DispatchTime.now().uptimeNanoseconds
        guard lingering.add(1, ordering: .relaxed).newValue <= Self.maxLingering else {
            lingering.subtract(1, ordering: .relaxed)
            return false
        }
        defer { lingering.subtract(1, ordering: .relaxed) }
        var spins = 0
        while submitted.load(ordering: .acquiring) == taken.load(ordering: .relaxed) {
            spins += 1
            if spins & 7 == 0 {
                if DispatchTime.now().uptimeNanoseconds - since > lingerNanoseconds.load(ordering: .relaxed) { return false }
                sched_yield()
            }
        }
        return true
    }

    private func area(_ j: DeferredRaster) -> Int {
        guard let b = j.request.box else { return 0 }
        return (b.2 - b.0) * (b.3 - b.1)
    }

    /// Every raster submitted since the last call, made, in submission order; the queue is then
    /// empty.
    func finish() -> [(job: DeferredRaster, result: Result<ShapeRaster, ShapeRasterizer.Failure>)] {
        condition.lock()
        let none = jobs.isEmpty
        condition.unlock()
        guard !none else { return [] }
        // What is left is taken largest box first, so no large raster starts last while the
        // other threads run out of work.
        condition.lock()
        pending[next...].sort { area(jobs[$0]) > area(jobs[$1]) || (area(jobs[$0]) == area(jobs[$1]) && $0 < $1) }
        condition.unlock()
        drain(background: false)
        // The last rasters are usually moments from done: polled for a while before sleeping
        // (a sleep and a wake cost tens of µs on a VM, as much as a small raster).
        var polls = 0
        while outstanding.load(ordering: .acquiring) > 0, polls < 100_000 { polls += 1 }
        condition.lock()
        while outstanding.load(ordering: .acquiring) > 0 { condition.wait() }
        let done = zip(jobs, results).map { ($0, $1!) }
        jobs.removeAll(keepingCapacity: true)
        results.removeAll(keepingCapacity: true)
        pending.removeAll(keepingCapacity: true)
        next = 0
        condition.unlock()
        return done
    }
}
