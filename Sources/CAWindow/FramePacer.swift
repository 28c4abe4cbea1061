/// Decides each frame's display times for a window's frame loop. Pure arithmetic over the times
/// it is given, so it is tested without a display.
///
/// With working vsync, `glfwSwapBuffers` blocks until the display takes the frame and the time
/// after the swap is when the frame was shown. Without it (Xvfb, a driver that ignores the swap
/// interval, `vsync: false`), the swap returns at once; the pacer then has the loop sleep until
/// the next refresh on a grid of `interval` so display links still tick at the display's rate.
/// A frame counts as dropped for each whole refresh interval its presentation came late.
package struct FramePacer: Sendable {
    /// The display's refresh interval in seconds (1 / refresh rate).
    package let interval: Double
    /// When the last frame was shown (media time); nil before the first.
    package private(set) var lastPresent: Double?
    /// Refresh intervals missed since the pacer started.
    package private(set) var droppedFrames = 0

    package init(refreshRate: Double) {
        let rate = refreshRate.isFinite && refreshRate >= 1 ? refreshRate : 60
        interval = 1 / rate
    }

    /// The link times for the frame about to be built at media time `now`: `timestamp` is when
    /// the last frame was shown (`now` before the first) and `targetTimestamp` when this one
    /// will be, one refresh later (Apple's `CADisplayLink.timestamp` / `targetTimestamp`).
    package func frameTimes(now: Double) -> (timestamp: Double, targetTimestamp: Double) {
        let ts = lastPresent ?? now
        return (ts, ts + interval)
    }

    /// What the loop does after swapping at media time `now`. Returns when the frame counts as
    /// shown and, when the swap did not wait for the display, the time to sleep until.
    package mutating func frameSwapped(now: Double) -> (presentTime: Double, sleepUntil: Double?) {
        guard let last = lastPresent else {
            lastPresent = now
            return (now, nil)
        }
        let elapsed = now - last
        // The swap returned well before the next refresh was due: no vsync wait happened.
        if elapsed < interval * 0.75 {
            let due = last + interval
            lastPresent = due
            return (due, due)
        }
        // On time (vsync returned about one interval later) or late: shown now.
        let periods = Int((elapsed / interval).rounded())
        if periods > 1 { droppedFrames += periods - 1 }
        lastPresent = now
        return (now, nil)
    }
}
