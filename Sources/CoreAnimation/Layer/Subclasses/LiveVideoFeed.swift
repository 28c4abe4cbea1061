import Foundation
import CoreGraphics
import CVideoDecode

/// A live source being captured (`CAVideoLiveSource`, issue 19): a background thread reads and
/// decodes frames (FFmpeg's libavdevice, through `CVideoDecode`'s `cavl_*`) into a small bounded
/// queue; the renderer takes the newest frame each rendered frame and never waits for one. When
/// the queue is full the oldest frame is dropped (latest frame wins), so memory stays at
/// `queueCapacity` frames plus the one on screen however slowly frames are taken. Frames are
/// paced by their timestamps (a `lavfi` graph would otherwise produce them as fast as they are
/// read; a camera delivers them in real time anyway). Shared by a layer and its copies; the
/// capture stops when the last of them lets it go.
package final class LiveVideoFeed: @unchecked Sendable {
    /// Frames held for the renderer at most.
    package static let queueCapacity = 3

    package let source: CAVideoLiveSource
    package let width: Int
    package let height: Int
    package let fps: Double
    private let worker: LiveVideoWorker

    /// Opens `source`; throws `CAVideoLiveSourceError` naming it when it cannot be captured.
    package init(source: CAVideoLiveSource) throws {
        var info = cavd_info()
        var err = [CChar](repeating: 0, count: 256)
        let errCount = err.count
        let pairs = source.options.sorted { $0.key < $1.key }
        let keys = pairs.map { strdup($0.key) }, values = pairs.map { strdup($0.value) }
        defer { (keys + values).forEach { free($0) } }
        let handle: OpaquePointer? = keys.map { UnsafePointer($0) }.withUnsafeBufferPointer { k in
            values.map { UnsafePointer($0) }.withUnsafeBufferPointer { v in
                cavl_open(source.format, source.device, k.baseAddress, v.baseAddress, Int32(pairs.count),
                          VideoDecoder.maxPixels, &info, &err, errCount)
            }
        }
        guard let handle else {
            let reason = String(decoding: err.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            throw CAVideoLiveSourceError(source: source, reason: reason.isEmpty ? "cannot be opened" : reason)
        }
        self.source = source
        width = Int(info.width)
        height = Int(info.height)
        fps = info.fps
        worker = LiveVideoWorker(handle: handle, source: source, width: width, height: height)
        let w = worker
        let thread = Thread { w.run() }
        thread.name = "CAVideoLayer live capture"
        thread.start()
    }

    deinit { worker.stop() }

    /// The newest frame captured, or the one taken before when none came since (nil until the
    /// first frame arrives). Never waits. Older queued frames are dropped.
    package func newestFrame() -> CGImage? { worker.takeNewest() }

    /// Frames captured, queued and dropped, read at one instant (captured = queued + dropped +
    /// taken by the renderer).
    package var counts: (captured: Int, queued: Int, dropped: Int) {
        let c = worker.counters
        return (c.captured, c.queued, c.dropped)
    }
    /// Frames waiting in the queue now (at most `queueCapacity`).
    package var queuedFrames: Int { worker.counters.queued }
    /// Frames captured so far.
    package var framesCaptured: Int { worker.counters.captured }
    /// Frames dropped unseen (the queue was full, or a newer frame was taken).
    package var framesDropped: Int { worker.counters.dropped }
    /// Why capture stopped (the input failed or ended); nil while it runs.
    package var failure: CAVideoLiveSourceError? { worker.counters.failure }

    /// Waits until `count` frames have been captured or capture stopped, at most `timeout`
    /// seconds (tests, and offscreen renders that need a first frame); true when they were.
    package func waitForFrames(_ count: Int, timeout: TimeInterval) -> Bool { worker.wait(frames: count, timeout: timeout) }
}

/// The capture thread's side of a `LiveVideoFeed`; its state is guarded by `condition`.
private final class LiveVideoWorker: @unchecked Sendable {
    struct Counters { var queued = 0, captured = 0, dropped = 0; var failure: CAVideoLiveSourceError? }

    private let handle: OpaquePointer
    private let source: CAVideoLiveSource
    private let width: Int, height: Int
    private let condition = NSCondition()
    private var queue: [CGImage] = []
    private var current: CGImage?
    private var state = Counters()
    private var stopped = false
    private var closed = false

    init(handle: OpaquePointer, source: CAVideoLiveSource, width: Int, height: Int) {
        self.handle = handle
        self.source = source
        self.width = width
        self.height = height
    }

    var counters: Counters { condition.lock(); defer { condition.unlock() }; return state }

    func stop() {
        condition.lock()
        stopped = true
        if !closed { cavl_interrupt(handle) }
        condition.broadcast()
        condition.unlock()
    }

    func takeNewest() -> CGImage? {
        condition.lock(); defer { condition.unlock() }
        if let newest = queue.last {
            state.dropped += queue.count - 1
            queue.removeAll(keepingCapacity: true)
            state.queued = 0
            current = newest
        }
        return current
    }

    func wait(frames count: Int, timeout: TimeInterval) -> Bool {
        let deadline = Date(timeIntervalSinceNow: max(0, min(timeout, 3600)))
        condition.lock(); defer { condition.unlock() }
        while state.captured < count && !closed {
            if !condition.wait(until: deadline) { break }
        }
        return state.captured >= count
    }

    /// The capture loop: read, pace, queue; closes the input when it ends.
    func run() {
        var buffer = [UInt8](repeating: 0, count: width * height * 4)
        var err = [CChar](repeating: 0, count: 256)
        let errCount = err.count
        var clock: (wall: TimeInterval, media: Double)?
        var failure: String?
        while true {
            var seconds = Double.nan
            let h = handle
            let r = buffer.withUnsafeMutableBufferPointer { b in cavl_read(h, b.baseAddress, &seconds, &err, errCount) }
            if r == -2 { break }
            if r == 0 { failure = "the input ended"; break }
            if r < 0 {
                failure = String(decoding: err.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                break
            }
            if seconds.isFinite { clock = pace(seconds, clock) }
            let image = CGImage(width: width, height: height, premultipliedRGBA: buffer, alphaInfo: .noneSkipLast,
                                shouldInterpolate: true, intent: .defaultIntent)
            condition.lock()
            if stopped { condition.unlock(); break }
            if queue.count >= LiveVideoFeed.queueCapacity {
                queue.removeFirst()
                state.dropped += 1
            }
            queue.append(image)
            state.queued = queue.count
            state.captured += 1
            condition.broadcast()
            condition.unlock()
        }
        condition.lock()
        cavl_close(handle)
        closed = true
        if let failure, !stopped { state.failure = CAVideoLiveSourceError(source: source, reason: failure) }
        condition.broadcast()
        condition.unlock()
    }

    /// Waits until the frame stamped `seconds` is due: its offset from the first frame's stamp,
    /// on the monotonic clock from when that frame came. A stamp that jumps (more than a second
    /// early or late) restarts the clock at it. Returns the clock.
    private func pace(_ seconds: Double, _ clock: (wall: TimeInterval, media: Double)?) -> (wall: TimeInterval, media: Double) {
        let now = ProcessInfo.processInfo.systemUptime
        guard let clock else { return (now, seconds) }
        let due = clock.wall + (seconds - clock.media)
        if due - now > 1 || now - due > 1 { return (now, seconds) }
        if due > now {
            condition.lock()
            let until = Date(timeIntervalSinceNow: due - now)
            while !stopped, condition.wait(until: until) {}
            condition.unlock()
        }
        return clock
    }
}
