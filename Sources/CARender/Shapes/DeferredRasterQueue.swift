import CoreGraphics
import Dispatch
import Foundation
import Synchronization

/// The deferred rasters of the frame being walked (`DeferredRaster`), made by background
/// threads while the walk goes on, and by the walk's thread too once it has finished.
///
/// Up to `helpers` drains run on the global queue: one starts when a raster is submitted and
/// fewer are running, and each takes rasters in submission order until none is left. `finish`
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
        let start = running < helpers
        if start { running += 1 }
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

    /// Makes rasters until none is left to take.
    private func drain(background: Bool) {
        condition.lock()
        var rast = idle.popLast() ?? CoverageRasterizer(width: 0, height: 0)
        condition.unlock()
        var bytes: [UInt8] = [], pool = RasterBytePool()
        while true {
            condition.lock()
            guard next < pending.count else {
                if background { running -= 1 }
                idle.append(rast)
                condition.unlock()
                return
            }
            let k = pending[next]
            next += 1
            let request = jobs[k].request
            condition.unlock()
            let r = ShapeRasterizer.rasterize(request, scratch: &rast, resolveBuffer: &bytes, pool: &pool)
            condition.lock()
            results[k] = r
            if outstanding.subtract(1, ordering: .releasing).newValue == 0 { condition.broadcast() }
            condition.unlock()
        }
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
