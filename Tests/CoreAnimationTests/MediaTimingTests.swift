import Testing
@testable import CoreAnimation

extension PinnedClock { @Suite struct CTimingTests {
    @Test("C1: t = (tp − beginTime)·speed + timeOffset for an animation")
    func c1ActiveLocalTime() {
        defer { CAMediaClock.unfreeze() }
        let l = TT.layer(at: 0) { $0.zPosition = -1 }
        let a = TT.clockAnim(10)
        a.beginTime = 1; a.speed = 2; a.timeOffset = 0.5
        TT.run(a, on: l)
        #expect(TT.near(TT.z(l, at: 2), 2.5))
        #expect(TT.near(TT.z(l, at: 3), 4.5))
        #expect(TT.near(TT.z(l, at: 5), 8.5))
    }

    @Test("C1: speed 0 freezes local time at timeOffset")
    func c1SpeedZeroFreezes() {
        defer { CAMediaClock.unfreeze() }
        let l = TT.layer(at: 0)
        let a = TT.clockAnim(10)
        a.speed = 0; a.timeOffset = 3
        TT.run(a, on: l)
        #expect(TT.near(TT.z(l, at: 1), 3))
        #expect(TT.near(TT.z(l, at: 50), 3))
        #expect(l.animationKeys() == ["a"])
    }

    @Test("C1: the layer's time composes with the animation's (layer → animation)")
    func c1LayerComposes() {
        defer { CAMediaClock.unfreeze() }
        let l = TT.layer(at: 0) { $0.speed = 2; $0.timeOffset = 1 }   // local = 2·tp + 1
        let a = TT.clockAnim(10)
        a.beginTime = 3                    // layer time
        TT.run(a, on: l)
        #expect(TT.near(TT.z(l, at: 2), 2))   // local 5 → a = 2
        let sub = CALayer()
        l.addSublayer(sub)
        sub.speed = 0.5
        CATransaction.flush()
        let b = TT.clockAnim(10)
        b.beginTime = 2                    // sub time = 0.5·(2·tp + 1)
        TT.run(b, on: sub)
        #expect(TT.near(TT.z(sub, at: 2.5), 1))  // sub local 3 → 1
    }

    @Test("C3: active duration from repeatCount, repeatDuration, autoreverses")
    func c3ActiveDuration() {
        var t = MediaTimingValues.animationDefaults
        t.duration = 2
        #expect(t.activeDuration == 2)
        t.repeatCount = 2.5
        #expect(t.activeDuration == 5)
        t.autoreverses = true
        #expect(t.activeDuration == 10)
        t.repeatDuration = 3
        #expect(t.activeDuration == 3)
        t.repeatDuration = 0; t.repeatCount = 0
        #expect(t.activeDuration == 4)       // repeatCount 0 = one cycle
        t.repeatCount = .infinity
        #expect(t.activeDuration == .infinity)
    }

    @Test("C3: fractional and infinite repeats through a real animation")
    func c3RealRepeats() {
        defer { CAMediaClock.unfreeze() }
        let l = TT.layer(at: 0) { $0.zPosition = -1 }
        let a = TT.clockAnim(2)
        a.repeatCount = 2.5
        TT.run(a, on: l)
        #expect(TT.near(TT.z(l, at: 4.9), 0.9))
        #expect(TT.z(l, at: 5) == -1)
        #expect(l.animationKeys() == nil)
        let b = TT.clockAnim(1)
        b.repeatCount = .infinity
        TT.run(b, on: l, key: "b")
        #expect(TT.near(TT.z(l, at: 1005.25), 0.25))
        #expect(l.animationKeys() == ["b"])
        let c = TT.clockAnim(1)
        c.repeatDuration = 3
        TT.run(c, on: l, key: "c")
        #expect(TT.near(TT.z(l, at: 1007.75), 0.5))
        CAMediaClock.freeze(at: 1008.5)
        #expect(l.animationKeys() == ["b"])
    }

    @Test("C4: basic time, iteration index and the exact end of the active interval")
    func c4BasicTime() {
        var t = MediaTimingValues.animationDefaults
        t.duration = 2; t.repeatCount = 3
        let s = t.sample(2.5)!
        #expect(TT.near(s.basicTime, 0.5)); #expect(s.iteration == 1); #expect(TT.near(s.fraction, 0.25))
        t.autoreverses = true
        let r = t.sample(3)!                        // p = 3 > d → 2d − p = 1
        #expect(TT.near(r.basicTime, 1)); #expect(r.iteration == 0)
        t.fillMode = .forwards; t.repeatCount = 0
        #expect(TT.near(t.sample(4)!.basicTime, 0))  // finished autoreversing → fromValue
        t.autoreverses = false
        #expect(TT.near(t.sample(2)!.basicTime, 2))  // finished forward → toValue
        #expect(t.sample(-1) == nil)                 // before: forwards fill shows nothing
    }

    @Test("C5: fill modes — beginTime 2, speed 2, duration 1")
    func c5FillModes() {
        defer { CAMediaClock.unfreeze() }
        func run(_ fill: CAMediaTimingFillMode) -> (Double, Double, Double) {
            let l = TT.layer(at: 0) { $0.zPosition = -1 }
            let a = CABasicAnimation(keyPath: "zPosition")
            a.fromValue = 0.0; a.toValue = 1.0; a.duration = 1
            a.beginTime = 2; a.speed = 2; a.fillMode = fill; a.isRemovedOnCompletion = false
            TT.run(a, on: l)
            return (TT.z(l, at: 1), TT.z(l, at: 2.25), TT.z(l, at: 2.5))
        }
        let removed = run(.removed), backwards = run(.backwards), forwards = run(.forwards), both = run(.both)
        #expect(removed.0 == -1 && TT.near(removed.1, 0.5) && removed.2 == -1)
        #expect(backwards.0 == 0 && TT.near(backwards.1, 0.5) && backwards.2 == -1)
        #expect(forwards.0 == -1 && TT.near(forwards.1, 0.5) && forwards.2 == 1)
        #expect(both.0 == 0 && TT.near(both.1, 0.5) && both.2 == 1)
        let unknown = run(CAMediaTimingFillMode(rawValue: "sideways"))
        #expect(unknown.0 == -1 && unknown.2 == -1)
    }

    @Test("C5: forwards has no visible effect while removedOnCompletion is true")
    func c5ForwardsNeedsRemovedOnCompletionFalse() {
        defer { CAMediaClock.unfreeze() }
        let l = TT.layer(at: 0) { $0.zPosition = -1 }
        let a = TT.clockAnim(1)
        a.fillMode = .forwards
        TT.run(a, on: l)
        #expect(TT.z(l, at: 2) == -1)
        #expect(l.animationKeys() == nil)
    }

    @Test("C7: fractional repeat holds the half-way value; repeatDuration 2.5 holds 0.5")
    func c7FractionalRepeat() {
        defer { CAMediaClock.unfreeze() }
        let l = TT.layer(at: 0) { $0.zPosition = -1 }
        let a = TT.clockAnim(2)
        a.repeatCount = 1.5; a.fillMode = .forwards; a.isRemovedOnCompletion = false
        TT.run(a, on: l)
        #expect(TT.near(TT.z(l, at: 0), 0))
        #expect(TT.near(TT.z(l, at: 1), 1))
        #expect(TT.near(TT.z(l, at: 2), 0))
        #expect(TT.near(TT.z(l, at: 2.5), 0.5))
        #expect(TT.near(TT.z(l, at: 3), 1))
        #expect(TT.near(TT.z(l, at: 10), 1))
        let l2 = TT.layer(at: 20) { $0.zPosition = -1 }
        let b = TT.clockAnim(1)
        b.repeatDuration = 2.5; b.fillMode = .forwards; b.isRemovedOnCompletion = false
        TT.run(b, on: l2)
        #expect(TT.near(TT.z(l2, at: 22.5), 0.5))
        #expect(TT.near(TT.z(l2, at: 30), 0.5))
    }

    @Test("C8: autoreverse — tp 0.25 → 0.25, 1 → 1, 1.5 → 0.5, ≥ 2 → 0; return trip mirrors the curve")
    func c8Autoreverse() {
        defer { CAMediaClock.unfreeze() }
        let l = TT.layer(at: 0) { $0.zPosition = -1 }
        let a = TT.clockAnim(1)
        a.autoreverses = true; a.fillMode = .forwards; a.isRemovedOnCompletion = false
        TT.run(a, on: l)
        #expect(TT.near(TT.z(l, at: 0.25), 0.25))
        #expect(TT.near(TT.z(l, at: 1), 1))
        #expect(TT.near(TT.z(l, at: 1.5), 0.5))
        #expect(TT.near(TT.z(l, at: 2), 0))
        #expect(TT.near(TT.z(l, at: 5), 0))
        let l2 = TT.layer(at: 10)
        let b = TT.clockAnim(1)
        b.autoreverses = true; b.timingFunction = CAMediaTimingFunction(name: .easeIn)
        TT.run(b, on: l2)
        let fwd = TT.z(l2, at: 10.3), back = TT.z(l2, at: 11.7)
        #expect(TT.near(fwd, back))
        #expect(TT.near(TT.z(l2, at: 10.5), 0.315357, 1e-6))
        #expect(TT.near(TT.z(l2, at: 11.5), 0.315357, 1e-6))
    }

    @Test("C9: beginTime 0 is stamped with the commit time; non-zero beginTime is literal")
    func c9BeginTime() {
        defer { CAMediaClock.unfreeze() }
        let l = TT.layer(at: 100)
        l.add(TT.clockAnim(1), forKey: "a")
        CAMediaClock.freeze(at: 101)           // added at 100, committed at 101
        CATransaction.flush()
        #expect(l.animation(forKey: "a")!.beginTime == 101)
        #expect(TT.near(TT.z(l, at: 101.5), 0.5))
        let d = TT.clockAnim(1)
        d.beginTime = l.convertTime(CACurrentMediaTime(), from: nil) + 1
        d.fillMode = .backwards
        TT.run(d, on: l, key: "d")
        #expect(l.animation(forKey: "d")!.beginTime == 102.5)
        #expect(TT.near(TT.z(l, at: 102), 0))
        #expect(TT.near(TT.z(l, at: 102.75), 0.25))
    }

    @Test("C10: pause/resume recipe holds the 0.8-s value, then continues from 0.8 s")
    func c10PauseResume() {
        defer { CAMediaClock.unfreeze() }
        let l = TT.layer(at: 50)
        TT.run(TT.clockAnim(2), on: l)
        CAMediaClock.freeze(at: 50.8)
        let p = l.convertTime(CACurrentMediaTime(), from: nil)
        l.speed = 0; l.timeOffset = p
        CATransaction.flush()
        #expect(TT.near(TT.z(l, at: 50.8), 0.8))
        #expect(TT.near(TT.z(l, at: 53), 0.8))
        #expect(TT.near(TT.z(l, at: 500), 0.8))
        #expect(l.animationKeys() == ["a"])
        let paused = l.timeOffset
        l.speed = 1; l.timeOffset = 0; l.beginTime = 0
        l.beginTime = l.convertTime(CACurrentMediaTime(), from: nil) - paused
        CATransaction.flush()
        #expect(TT.near(TT.z(l, at: 500), 0.8))
        #expect(TT.near(TT.z(l, at: 500.5), 1.3))
        CAMediaClock.freeze(at: 501.3)
        #expect(l.animationKeys() == nil)
    }

    @Test("C11: layer speed 2 × animation speed 2 finishes a 1-s animation in 0.25 s; negative speed plays backwards")
    func c11SpeedComposition() {
        defer { CAMediaClock.unfreeze() }
        let l = TT.layer(at: 10) { $0.speed = 2; $0.zPosition = -1 }
        let a = TT.clockAnim(1)
        a.speed = 2
        let d = RecordingDelegate()
        a.delegate = d
        TT.run(a, on: l)
        #expect(TT.near(TT.z(l, at: 10.125), 0.5))
        #expect(TT.near(TT.z(l, at: 10.2), 0.8))
        #expect(d.events == ["start"])
        #expect(TT.z(l, at: 10.25) == -1)
        #expect(d.events == ["start", "stop:true"])
        let l2 = TT.layer(at: 20)
        let b = TT.clockAnim(1)
        b.speed = -1
        TT.run(b, on: l2)
        #expect(TT.near(TT.z(l2, at: 20.25), 0.75))
        #expect(TT.near(TT.z(l2, at: 20.75), 0.25))
    }
}
}
