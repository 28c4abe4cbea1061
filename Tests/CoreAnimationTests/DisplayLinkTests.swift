import Testing
@testable import CoreAnimation

extension PinnedClock {
    @Suite struct DisplayLinkTests {
        @Test("CADisplayLink fires on a run loop at its rate with consistent timestamps")
        func firesOnRunLoop() {
            CAMediaClock.unfreeze()
            var stamps: [CFTimeInterval] = []
            var targets: [CFTimeInterval] = []
            let link = CADisplayLink { l in stamps.append(l.timestamp); targets.append(l.targetTimestamp) }
            link.preferredFramesPerSecond = 100  // clamped to the native 60
            link.add(to: .current, forMode: .default)
            RunLoop.current.run(until: Date(timeIntervalSinceNow: 0.3))
            link.invalidate()
            let n = stamps.count
            RunLoop.current.run(until: Date(timeIntervalSinceNow: 0.05))
            #expect(stamps.count == n, "no tick after invalidate()")
            // ≈18 ticks at 60 Hz in 0.3 s: never more than the rate allows; a slow machine may
            // manage fewer, so only two (for the timestamp checks) are required.
            #expect(n >= 2 && n <= 20, "≈18 ticks at 60 Hz in 0.3 s, got \(n)")
            #expect(abs(link.duration - 1.0 / 60) < 1e-12)
            #expect(zip(stamps, stamps.dropFirst()).allSatisfy { $0 < $1 })
            #expect(zip(stamps, targets).allSatisfy { abs($1 - $0 - 1.0 / 60) < 1e-9 })
        }

        @Test("CADisplayLink tick flushes and steps: presentation follows the frame time, paused links don't fire")
        func tickDrivesEngine() {
            CAMediaClock.freeze(at: 10)
            defer { CAMediaClock.unfreeze() }
            let layer = CALayer()
            let a = CABasicAnimation(keyPath: "opacity")
            a.fromValue = 0; a.toValue = 1; a.duration = 2
            var seen: [Float] = []
            var fired = 0
            let link = CADisplayLink { _ in fired += 1; seen.append(layer.presentation()?.opacity ?? -1) }
            layer.add(a, forKey: "f")
            link.tick(at: 10)  // the tick's flush commits the animation at t = 10
            CAMediaClock.freeze(at: 11)
            link.tick(at: 11)
            link.isPaused = true
            link.tick(at: 11.5)
            #expect(fired == 2)
            #expect(seen.count == 2 && abs(seen[0]) < 1e-6 && abs(seen[1] - 0.5) < 1e-6)
            link.preferredFrameRateRange = CAFrameRateRange(minimum: 10, maximum: 30, preferred: 30)
            #expect(link.effectiveFramesPerSecond == 30)
        }
    }
}
