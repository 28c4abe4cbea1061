import Testing
@testable import CoreAnimation

/// The frame step skips an animated layer's event checks until the next time one of its
/// animations can start or end (`EvaluationPlan.nextEventTime`). These pin that the skipping
/// never delays or drops an event: each arrives at the first frame at or after its time, with
/// its exact media time (C4, D3 ordering), also when the layer's own clock changes in between.
extension PinnedClock { @Suite struct FrameStepEventTests {
    @Test("Start and stop of a delayed animation arrive at the first frame past their times, with exact times")
    func delayedStartAndStop() {
        let l = TT.layer(at: 100)
        let d = RecordingDelegate()
        let a = TT.clockAnim(1)
        a.beginTime = 100.5
        a.delegate = d
        TT.run(a, on: l)
        var frames: [Double] = []
        for i in 1...40 {   // 100.05 … 102.0 in 1/20-s frames
            let t = 100 + Double(i) / 20
            let before = d.events.count
            CAMediaClock.freeze(at: t)
            TimingEngine.step(to: t)
            if d.events.count > before { frames.append(t) }
        }
        #expect(d.events == ["start", "stop:true"])
        #expect(TT.near(d.times[0], 100.5) && TT.near(d.times[1], 101.5))
        #expect(frames.count == 2 && TT.near(frames[0], 100.5) && TT.near(frames[1], 101.5))
        #expect(l.animationKeys() == nil || l.animationKeys() == [])
    }

    @Test("A layer slowed down mid-animation still stops when its local time reaches the end")
    func layerSpeedChangeMidway() {
        let l = TT.layer(at: 200)
        let d = RecordingDelegate()
        let a = TT.clockAnim(1)
        a.delegate = d
        TT.run(a, on: l)                  // runs 200 … 201 in the layer's time
        for t in [200.1, 200.2] { CAMediaClock.freeze(at: t); TimingEngine.step(to: t) }
        #expect(d.events == ["start"])
        // Half speed from media time 200.2 (Apple's recipe: keep local time continuous).
        CAMediaClock.freeze(at: 200.2)
        let local = l.convertTime(200.2, from: nil)
        l.beginTime = 200.2
        l.timeOffset = local
        l.speed = 0.5
        CATransaction.flush()
        // Local time reaches 201 at media 200.2 + 0.8 / 0.5 = 201.8.
        var stoppedAt: Double? = nil
        for i in 1...30 {
            let t = 200.2 + Double(i) / 10
            CAMediaClock.freeze(at: t)
            TimingEngine.step(to: t)
            if stoppedAt == nil, d.events.count == 2 { stoppedAt = t }
        }
        #expect(d.events == ["start", "stop:true"])
        #expect(stoppedAt.map { TT.near($0, 201.8, 1e-6) } == true)
        #expect(TT.near(d.times[1], 201.8, 1e-6))
    }

    @Test("Fast-path scalar and point animations write exactly what the general path writes")
    func fastPathMatchesGeneralPath() {
        // `isCumulative` keeps an animation on the general path; in its first iteration it
        // changes nothing, so the two layers must show identical values.
        func animations(cumulative: Bool) -> [CAPropertyAnimation] {
            let fade = CABasicAnimation(keyPath: "opacity")
            fade.fromValue = 0.2; fade.toValue = 0.9; fade.duration = 2
            fade.timingFunction = CAMediaTimingFunction(name: .easeIn)
            let move = CABasicAnimation(keyPath: "position")
            move.fromValue = CGPoint(x: 0, y: 10); move.toValue = CGPoint(x: 100, y: 30); move.duration = 2
            let spring = CASpringAnimation(keyPath: "cornerRadius")
            spring.fromValue = 0; spring.byValue = 20; spring.damping = 5
            spring.duration = 2
            let all: [CAPropertyAnimation] = [fade, move, spring]
            for a in all { a.isCumulative = cumulative }
            return all
        }
        let fast = TT.layer(at: 300), general = TT.layer(at: 300)
        for (l, cumulative) in [(fast, false), (general, true)] {
            for (i, a) in animations(cumulative: cumulative).enumerated() { l.add(a, forKey: "a\(i)") }
        }
        CATransaction.flush()
        var springMoved = false
        for t in [300.0, 300.25, 300.7, 301.3, 301.99] {
            CAMediaClock.freeze(at: t)
            let p = fast.presentation()!, q = general.presentation()!
            #expect(p.opacity == q.opacity)
            #expect(p.position == q.position)
            #expect(p.cornerRadius == q.cornerRadius)
            springMoved = springMoved || (p.cornerRadius > 0 && p.cornerRadius != 20)
        }
        // And the values are the documented ones: linear position half way at 1 s.
        CAMediaClock.freeze(at: 301)
        #expect(fast.presentation()!.position == CGPoint(x: 50, y: 20))
        #expect(springMoved)
    }
} }
