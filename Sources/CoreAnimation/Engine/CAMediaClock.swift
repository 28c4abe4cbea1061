#if canImport(Glibc)
import Glibc
#endif

/// Seconds of the system's monotonic clock (docs/BEHAVIOUR.md C12: positive, monotonic, counts
/// suspend), or the pinned time while `CAMediaClock` is frozen.
public func CACurrentMediaTime() -> CFTimeInterval {
    if let t = CAMediaClock.frameTime { return t }
    if let t = CAMediaClock.frozenTime { return t }
    var ts = timespec()
    clock_gettime(CLOCK_BOOTTIME, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
}

/// A deterministic clock for tests, offline rendering and benchmarks. Not in Apple's API.
/// While frozen, `CACurrentMediaTime()` returns the pinned time, and every `freeze`/`advance`
/// runs the calling thread's frame step, so delegate callbacks, removals and completion blocks
/// arrive as they would during playback.
public enum CAMediaClock {
    private static let pinned = Locked<Double?>(nil)

    package static var frozenTime: Double? { pinned.withLock { $0 } }

    /// Whether the clock is pinned.
    public static var isFrozen: Bool { frozenTime != nil }

    /// Pins `CACurrentMediaTime()` at `time` and steps the engine to it.
    public static func freeze(at time: CFTimeInterval) {
        guard time.isFinite else { return Diagnostics.warnOnce("CAMediaClock.freeze(at:): non-finite time ignored") }
        pinned.withLock { $0 = time }
        TimingEngine.step(to: time)
    }

    /// Moves the pinned clock forward by `delta` seconds (pinning it first if it runs free)
    /// and steps the engine. Negative or non-finite deltas are ignored with a warning.
    public static func advance(by delta: CFTimeInterval) {
        guard delta.isFinite, delta >= 0 else {
            return Diagnostics.warnOnce("CAMediaClock.advance(by:): delta must be finite and ≥ 0; ignored")
        }
        let now = CACurrentMediaTime()
        pinned.withLock { $0 = now + delta }
        TimingEngine.step(to: now + delta)
    }

    /// Back to the system clock.
    public static func unfreeze() { pinned.withLock { $0 = nil } }

    /// The time a renderer is drawing, seen only by the code it runs (task-local, so other
    /// threads and tests keep their own clock): `CARenderer.beginFrame(atTime:)` commits and
    /// steps the engine as if `CACurrentMediaTime()` were `t`.
    @TaskLocal package static var frameTime: Double? = nil

    /// Runs `body` with `CACurrentMediaTime()` reading `t` on this task.
    package static func withFrameTime<R>(_ t: Double, _ body: () throws -> R) rethrows -> R {
        try $frameTime.withValue(t, operation: body)
    }
}
