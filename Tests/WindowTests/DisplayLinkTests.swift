import Testing
import CATestSupport
import Foundation

/// CADisplayLink driven by a window's frames: tick counts over a pinned duration, Apple's
/// `timestamp` / `targetTimestamp` / `duration`, preferred rates below the display's.
@Suite("Display links in a window", .serialized, .clockExclusive, .enabled(if: TestDisplay.isAvailable, "needs a display: DISPLAY, or Xvfb on the PATH"))
@MainActor
struct DisplayLinkTests {
    @Test("simulated 60 Hz, 1 s: 60 ticks at the display rate, 30 at 30 fps, none while paused")
    func tickCounts() throws {
        let window = try WindowHarness.open(size: CGSize(width: 32, height: 32))
        defer { window.close() }
        window.layer = CALayer()
        var full: [(ts: Double, target: Double, duration: Double)] = []
        var half: [(ts: Double, target: Double, duration: Double)] = []
        var pausedTicks = 0
        let a = window.displayLink { l in full.append((l.timestamp, l.targetTimestamp, l.duration)) }
        let b = window.displayLink { l in half.append((l.timestamp, l.targetTimestamp, l.duration)) }
        b.preferredFramesPerSecond = 30
        let c = window.displayLink { _ in pausedTicks += 1 }
        c.isPaused = true
        for l in [a, b, c] { l.add(to: .main, forMode: .common) }
        try window.run(frames: 60)
        #expect(full.count == 60)
        #expect(half.count == 30)
        #expect(pausedTicks == 0)
        let interval = 1.0 / 60
        for (k, t) in full.enumerated() {
            // Frame k is shown at 1000 + k/60; it renders for the next refresh.
            #expect(abs(t.ts - (1000 + Double(k) * interval)) < 1e-9)
            #expect(abs(t.target - t.ts - interval) < 1e-9)
            #expect(abs(t.duration - interval) < 1e-12)
        }
        for (k, t) in half.enumerated() {
            #expect(abs(t.ts - (1000 + Double(2 * k) * interval)) < 1e-9)
            #expect(abs(t.target - t.ts - 2 * interval) < 1e-9)   // the link's next frame
            #expect(abs(t.duration - interval) < 1e-12)          // the display's interval
        }
        #expect(window.statistics.frames == 60)
        #expect(window.statistics.droppedFrames == 0)
    }

    @Test("a plain CADisplayLink added to the main run loop follows the open window; invalidate stops it")
    func plainLinkFollowsWindow() throws {
        let window = try WindowHarness.open(size: CGSize(width: 32, height: 32))
        defer { window.close() }
        var ticks = 0
        let link = CADisplayLink { l in
            ticks += 1
            if ticks == 5 { l.invalidate() }
        }
        link.add(to: .main, forMode: .common)
        #expect(window.displayLinks.contains { $0 === link })
        try window.run(frames: 20)
        #expect(ticks == 5)
        #expect(!window.displayLinks.contains { $0 === link })
    }

    @Test("a plain CADisplayLink on another thread's run loop keeps its own timer while a window is open")
    func otherRunLoopKeepsItsTimer() throws {
        let window = try WindowHarness.open(size: CGSize(width: 32, height: 32))
        defer { window.close() }
        final class Count: @unchecked Sendable { var ticks = 0 }
        let count = Count()
        let done = DispatchSemaphore(value: 0)
        let thread = Thread {
            let link = CADisplayLink { _ in count.ticks += 1 }
            link.add(to: .current, forMode: .default)
            RunLoop.current.run(until: Date(timeIntervalSinceNow: 0.3))
            link.invalidate()
            done.signal()
        }
        thread.start()
        done.wait()
        // ≈18 ticks at 60 Hz in 0.3 s from the thread's timer; none would come from the
        // window, whose loop is not running.
        #expect(count.ticks >= 5)
        #expect(window.displayLinks.isEmpty)
    }

    @Test("real time, no vsync (Xvfb): the loop paces itself to about the display rate")
    func realTimePacing() throws {
        let window = try WindowHarness.open(size: CGSize(width: 32, height: 32), simulated: false)
        defer { window.close() }
        window.layer = CALayer()
        var stamps: [Double] = []
        let link = window.displayLink { l in stamps.append(l.timestamp) }
        link.add(to: .main, forMode: .common)
        let start = Date()
        while Date().timeIntervalSince(start) < 0.5 { try window.runFrame() }
        // 0.5 s at 60 Hz is 30 frames. The loop must never run faster than the display (a bound
        // a slow machine cannot break); how many frames a loaded machine manages is not asserted
        // beyond the two that the interval check needs.
        #expect(stamps.count <= 32)
        #expect(stamps.count >= 2)
        for (a, b) in zip(stamps, stamps.dropFirst()) { #expect(b - a >= 1.0 / 60 * 0.74) }
        #expect(window.statistics.frames == stamps.count)
        #expect(window.statistics.description.contains("frames"))
    }

    @Test("animations in the window run on the frames' target times")
    func animationFollowsFrames() throws {
        let window = try WindowHarness.open(size: CGSize(width: 100, height: 20))
        defer { window.close() }
        let root = CALayer()
        let box = CALayer()
        box.frame = CGRect(x: 0, y: 0, width: 10, height: 20)
        box.backgroundColor = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
        root.addSublayer(box)
        window.layer = root
        try window.runFrame()   // frame 0: shown at 1000, rendered for 1000 + 1/60
        let move = CABasicAnimation(keyPath: "position.x")
        move.fromValue = 5
        move.toValue = 95
        move.duration = 1
        box.add(move, forKey: "move")
        // Committed by the next frame, rendered at target 1000 + 2/60: begins there.
        try window.run(frames: 31)   // last frame renders at 1000 + 32/60: 0.5 s in
        let shown = try window.readPixels()
        // Linear? The default timing is linear for CABasicAnimation: x = 5 + 90 × 0.5 = 50.
        #expect(WindowHarness.rgb(shown, 50, 10) == [255, 255, 255])
        #expect(WindowHarness.rgb(shown, 40, 10) == [0, 0, 0])
        #expect(WindowHarness.rgb(shown, 60, 10) == [0, 0, 0])
    }
}
