/// A range of frame rates (Apple's `CAFrameRateRange`).
public struct CAFrameRateRange: Hashable, Sendable {
    public var minimum: Float
    public var maximum: Float
    public var preferred: Float?

    public init(minimum: Float, maximum: Float, preferred: Float? = nil) {
        self.minimum = minimum; self.maximum = maximum; self.preferred = preferred
    }

    /// No preference: the display's native rate.
    public static let `default` = CAFrameRateRange(minimum: 0, maximum: 0, preferred: 0)
}

/// A timer synchronised to frames (Apple's `CADisplayLink`). Apple's target/selector
/// initializer needs Objective-C; here the callback is a Swift closure:
/// `CADisplayLink { link in … }` (extension beyond Apple's API). Without a display (headless)
/// it is driven by a run-loop timer at its preferred rate (60 Hz by default); the window module
/// drives it from the display instead. Each tick flushes the implicit transaction and runs the
/// frame step before the callback, as Core Animation's display cycle does.
public final class CADisplayLink {
    /// When the current frame was shown (media time).
    public private(set) var timestamp: CFTimeInterval = 0
    /// When the next frame will be shown; render for this time.
    public private(set) var targetTimestamp: CFTimeInterval = 0
    /// The interval between frames.
    public private(set) var duration: CFTimeInterval = 1.0 / 60
    public var isPaused = false
    /// 0 means the display's native rate.
    public var preferredFramesPerSecond: Int = 0 {
        didSet { if preferredFramesPerSecond < 0 { preferredFramesPerSecond = 0 }; reschedule() }
    }
    public var preferredFrameRateRange = CAFrameRateRange.default {
        didSet { reschedule() }
    }

    private let handler: (CADisplayLink) -> Void
    private var timers: [(RunLoop, RunLoop.Mode, Timer)] = []
    private var invalidated = false
    /// The display's refresh rate the link runs against when headless.
    package var nativeFramesPerSecond: Double = 60

    public init(_ handler: @escaping (CADisplayLink) -> Void) {
        self.handler = handler
    }

    /// The rate the link ticks at: the preferred rate clamped to the native one.
    package var effectiveFramesPerSecond: Double {
        let preferred = preferredFrameRateRange.preferred.map(Double.init) ?? 0
        let fps = preferred > 0 ? preferred : (preferredFramesPerSecond > 0 ? Double(preferredFramesPerSecond) : nativeFramesPerSecond)
        return min(max(fps, 1), nativeFramesPerSecond)
    }

    /// Schedules the link on a run loop (Apple: `add(to:forMode:)`). A link made by a window
    /// follows that window's frames; a plain link added to the main run loop (Apple's idiom,
    /// `add(to: .main, forMode: .common)`) follows the first open window's frames
    /// (`CADisplayLinkSources.main`); on any other run loop, or with no window open, a timer
    /// on that run loop drives it, so a thread's own links never depend on a window elsewhere.
    public func add(to runloop: RunLoop, forMode mode: RunLoop.Mode) {
        guard !invalidated else { return }
        if let source = displaySource ?? (runloop === RunLoop.main ? CADisplayLinkSources.main : nil) {
            displaySource = source
            source.attach(self)
            return
        }
        let box = UncheckedBox(self)
        let timer = Timer(timeInterval: 1 / effectiveFramesPerSecond, repeats: true) { _ in
            box.value.tick(at: CACurrentMediaTime())
        }
        runloop.add(timer, forMode: mode)
        timers.append((runloop, mode, timer))
    }

    public func remove(from runloop: RunLoop, forMode mode: RunLoop.Mode) {
        displaySource?.detach(self)
        timers.removeAll { entry in
            guard entry.0 === runloop, entry.1 == mode else { return false }
            entry.2.invalidate()
            return true
        }
    }

    /// Removes the link from every run loop; it never fires again.
    public func invalidate() {
        invalidated = true
        displaySource?.detach(self)
        for t in timers { t.2.invalidate() }
        timers = []
    }

    /// One frame at media time `now`: flush, frame step, then the callback. The window's
    /// display-driven loop calls this; headless, the timer does. Extension beyond Apple's API.
    package func tick(at now: CFTimeInterval) {
        guard !invalidated, !isPaused else { return }
        duration = 1 / effectiveFramesPerSecond
        timestamp = now
        targetTimestamp = now + duration
        CATransaction.flush()
        TimingEngine.step(to: now)
        handler(self)
    }

    /// One display frame from a window: sets the times and calls the handler. The window has
    /// already flushed the implicit transaction and run the frame step for this frame. Apple:
    /// `timestamp` is when the last frame was shown, `targetTimestamp` when the next one this
    /// link renders will be, and `duration` the display's refresh interval whatever the
    /// preferred rate (a 30-fps link on a 60-Hz display fires every other frame, with
    /// `targetTimestamp − timestamp` = 2 × `duration`). Extension beyond Apple's API.
    package func fire(timestamp: CFTimeInterval, targetTimestamp: CFTimeInterval, duration: CFTimeInterval) {
        guard !invalidated, !isPaused else { return }
        self.timestamp = timestamp
        self.targetTimestamp = targetTimestamp
        self.duration = duration
        handler(self)
    }

    /// Whether `invalidate()` was called.
    package var isInvalidated: Bool { invalidated }

    /// The window whose frames drive this link (nil: a run-loop timer). Package API.
    package weak var displaySource: (any CADisplayLinkSource)?

    private func reschedule() {
        let current = timers.map { ($0.0, $0.1) }
        for t in timers { t.2.invalidate() }
        timers = []
        for (rl, mode) in current { add(to: rl, forMode: mode) }
    }
}

/// Something that drives display links from a display's frames: a window's frame loop.
/// Package API (the window module implements it; the model knows no windows).
package protocol CADisplayLinkSource: AnyObject {
    func attach(_ link: CADisplayLink)
    func detach(_ link: CADisplayLink)
}

/// The display source links added to a run loop attach to: the first open window. Main
/// thread only, as windows and display links are. Package API.
package enum CADisplayLinkSources {
    nonisolated(unsafe) private static weak var current: (any CADisplayLinkSource)?
    package static var main: (any CADisplayLinkSource)? {
        get { current }
        set { current = newValue }
    }
}

/// Lets a run-loop timer's `@Sendable` block reach the link on the thread that scheduled it.
private struct UncheckedBox<T: AnyObject>: @unchecked Sendable {
    let value: T
    init(_ v: T) { value = v }
}
