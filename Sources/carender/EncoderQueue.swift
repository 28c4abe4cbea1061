import Foundation

/// One rendered frame on its way to the encoders: its global index and premultiplied RGBA8
/// pixels, top row first.
struct RenderedFrame: Sendable {
    var index: Int
    var pixels: [UInt8]
}

/// Encoding off the render thread: the GL thread `submit`s frames, `workers` threads hand them
/// to `handle` (PNG encode and write, or a write into ffmpeg's pipe). The queue holds at most
/// `capacity` frames, so a slow encoder slows the renderer instead of filling memory. With one
/// worker, frames are handled in submission order (what a video needs).
final class EncoderQueue: @unchecked Sendable {
    let condition = NSCondition()
    var queue: [RenderedFrame] = []
    var closed = false
    var running = 0
    var failure: Error?
    let capacity: Int
    let handle: @Sendable (RenderedFrame) throws -> Void

    /// Encoders for an image sequence: one per core but the render thread's. Issue 22 asks
    /// export to use every core; the earlier cap of 4 held PNG export on a 16-core machine to
    /// 250 fps where rendering alone ran at 2,198 (docs/PERFORMANCE.md, "Export"). At most 32,
    /// and the queue's capacity (workers + 2 frames of 8 MiB at 1080p) bounds the memory.
    static var sequenceWorkers: Int { max(1, min(32, ProcessInfo.processInfo.activeProcessorCount - 1)) }

    init(workers: Int, capacity: Int, handle: @escaping @Sendable (RenderedFrame) throws -> Void) {
        self.capacity = max(1, capacity)
        self.handle = handle
        running = max(1, workers)
        for k in 0..<running {
            let t = Thread { [self] in work() }
            t.name = "carender-encoder-\(k)"
            t.start()
        }
    }

    /// Queues a frame, waiting while the queue is full; throws the first encoder error.
    func submit(_ frame: RenderedFrame) throws {
        condition.lock()
        defer { condition.unlock() }
        while queue.count >= capacity, failure == nil { condition.wait() }
        if let failure { throw failure }
        queue.append(frame)
        condition.broadcast()
    }

    /// Waits until every queued frame is handled and the workers ended; throws the first error.
    func finish() throws {
        condition.lock()
        closed = true
        condition.broadcast()
        while running > 0 { condition.wait() }
        let f = failure
        condition.unlock()
        if let f { throw f }
    }

    /// Drops the frames not yet handled and waits for the workers (after an interruption or a
    /// render error).
    func cancel() {
        condition.lock()
        queue.removeAll()
        closed = true
        condition.broadcast()
        while running > 0 { condition.wait() }
        condition.unlock()
    }

    func work() {
        while true {
            condition.lock()
            while queue.isEmpty, !closed, failure == nil { condition.wait() }
            if failure != nil || queue.isEmpty {
                running -= 1
                condition.broadcast()
                condition.unlock()
                return
            }
            let frame = queue.removeFirst()
            condition.broadcast()
            condition.unlock()
            do {
                try handle(frame)
            } catch {
                condition.lock()
                if failure == nil { failure = error }
                condition.broadcast()
                condition.unlock()
            }
        }
    }
}
