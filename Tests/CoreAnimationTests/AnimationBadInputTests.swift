import Testing
@testable import CoreAnimation

extension PinnedClock { @Suite struct BadInputTests {
    @Test("Bad input: unknown key path is ignored with a warning")
    func unknownKeyPath() {
        defer { CAMediaClock.unfreeze() }
        let l = TT.layer(at: 0)
        let a = CABasicAnimation(keyPath: "noSuchProperty.really")
        a.fromValue = 0.0; a.toValue = 1.0; a.duration = 1
        TT.run(a, on: l)
        #expect(TT.warned("unknown key path"))
        #expect(l.presentation()!.opacity == 1)
        CAMediaClock.freeze(at: 2)
    }

    @Test("Bad input: values of the wrong type are ignored with a warning")
    func wrongType() {
        defer { CAMediaClock.unfreeze() }
        let l = TT.layer(at: 0) { $0.zPosition = 3 }
        let a = CABasicAnimation(keyPath: "position")
        a.fromValue = "left"; a.toValue = 42.0; a.duration = 1
        let k = CAKeyframeAnimation(keyPath: "zPosition")
        k.values = [0.0, "x", 1.0]; k.duration = 1
        l.add(a, forKey: "a"); l.add(k, forKey: "k")
        CATransaction.flush()
        #expect(TT.warned("wrong type"))
        CAMediaClock.freeze(at: 0.5)
        #expect(l.presentation()!.position == .zero && l.presentation()!.zPosition == 3)
    }

    @Test("Bad input: empty values, mismatched keyTimes")
    func emptyAndMismatched() {
        defer { CAMediaClock.unfreeze() }
        let l = TT.layer(at: 0) { $0.zPosition = 3 }
        let e = CAKeyframeAnimation(keyPath: "zPosition"); e.values = []; e.duration = 1
        let m = CAKeyframeAnimation(keyPath: "opacity"); m.values = [0.0, 1.0]; m.keyTimes = [0, 0.5, 0.7, 1]; m.duration = 1
        let d = CAKeyframeAnimation(keyPath: "cornerRadius"); d.values = [0.0, 10.0]; d.keyTimes = []; d.duration = 1
        l.add(e, forKey: "e"); l.add(m, forKey: "m"); l.add(d, forKey: "d")
        CATransaction.flush()
        #expect(TT.warned("no values and no path"))
        #expect(TT.warned("keyTimes"))
        CAMediaClock.freeze(at: 0.25)
        let p = l.presentation()!
        #expect(p.zPosition == 3 && TT.near(p.opacity, 0.25) && TT.near(p.cornerRadius, 2.5))
    }

    @Test("Bad input: NaN/negative durations, NaN/∞ speeds, NaN/negative repeatCount are clamped with warnings")
    func badTiming() {
        defer { CAMediaClock.unfreeze() }
        let l = TT.layer(at: 0) { $0.zPosition = -1 }
        let a = TT.clockAnim(1); a.duration = .nan
        let b = TT.clockAnim(1); b.duration = -4
        let c = TT.clockAnim(1); c.speed = .nan
        let d = TT.clockAnim(1); d.repeatCount = .nan
        let e = TT.clockAnim(1); e.repeatCount = -2
        let f = TT.clockAnim(1); f.speed = .infinity
        for (k, x) in [("a", a), ("b", b), ("c", c), ("d", d), ("e", e), ("f", f)] { l.add(x, forKey: k) }
        CATransaction.flush()
        #expect(l.animation(forKey: "a")!.duration == 0.25 && l.animation(forKey: "b")!.duration == 0.25)
        #expect(l.animation(forKey: "c")!.speed == 1 && l.animation(forKey: "f")!.speed == 1)
        #expect(l.animation(forKey: "d")!.repeatCount == 0 && l.animation(forKey: "e")!.repeatCount == 0)
        #expect(TT.warned("duration is NaN") && TT.warned("speed is not finite") && TT.warned("repeatCount is NaN or negative"))
        CAMediaClock.freeze(at: 0.5)
        #expect(TT.near(l.presentation()!.zPosition, 0.5))
        CAMediaClock.freeze(at: 1.5)
        #expect(l.animationKeys() == nil && l.presentation()!.zPosition == -1)
    }

    @Test("Bad input: the media clock ignores non-finite and negative steps")
    func badClock() {
        defer { CAMediaClock.unfreeze() }
        CAMediaClock.freeze(at: 5)
        CAMediaClock.advance(by: -1)
        CAMediaClock.advance(by: .nan)
        CAMediaClock.freeze(at: .infinity)
        #expect(CACurrentMediaTime() == 5)
        #expect(TT.warned("CAMediaClock"))
    }

    @Test("Bad input: a group containing itself neither crashes nor hangs")
    func groupCycle() {
        defer { CAMediaClock.unfreeze() }
        let l = TT.layer(at: 0) { $0.zPosition = -1 }
        let g = CAAnimationGroup()
        g.duration = 1
        g.animations = [TT.clockAnim(1), g]
        TT.run(g, on: l)
        CAMediaClock.freeze(at: 0.5)
        #expect(TT.near(l.presentation()!.zPosition, 0.5))
        let h = CAAnimationGroup(), i = CAAnimationGroup()
        h.animations = [i]; i.animations = [h, TT.clockAnim(1)]; h.duration = 1; i.duration = 1
        TT.run(h, on: l, key: "h")
        CAMediaClock.freeze(at: 0.75)
        #expect(TT.near(l.presentation()!.zPosition, 0.25))
        #expect(TT.warned("CAAnimationGroup"))
        g.animations = nil; i.animations = nil   // break the retain cycles
    }
}
}
