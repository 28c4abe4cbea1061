import Testing
@testable import CoreAnimation

extension PinnedClock { @Suite struct EBasicAnimationTests {
    /// opacity over 2 s, linear, held at the end.
    func opacityAnim(from: Double? = nil, to: Double? = nil, by: Double? = nil) -> CABasicAnimation {
        let a = CABasicAnimation(keyPath: "opacity")
        a.fromValue = from; a.toValue = to; a.byValue = by
        a.duration = 2; a.fillMode = .forwards; a.isRemovedOnCompletion = false
        return a
    }

    func run(_ a: CABasicAnimation, model: Float = 1) -> CALayer {
        let l = TT.layer(at: 0) { $0.opacity = model }
        TT.run(a, on: l)
        return l
    }

    @Test("E1: from+to, from+by (0.25 by 0.5 → 0.25, 0.5, 0.75), by+to (starts at to − by)")
    func e1TwoValues() {
        defer { CAMediaClock.unfreeze() }
        let ft = run(opacityAnim(from: 0.2, to: 0.6))
        #expect(TT.near(TT.opacity(ft, at: 1), 0.4))
        let fb = run(opacityAnim(from: 0.25, by: 0.5))
        #expect(TT.near(TT.opacity(fb, at: 0), 0.25))
        #expect(TT.near(TT.opacity(fb, at: 1), 0.5))
        #expect(TT.near(TT.opacity(fb, at: 2), 0.75))
        let bt = run(opacityAnim(to: 0.75, by: 0.5))
        #expect(TT.near(TT.opacity(bt, at: 0), 0.25))
        #expect(TT.near(TT.opacity(bt, at: 1), 0.5))
        #expect(TT.near(TT.opacity(bt, at: 2), 0.75))
    }

    @Test("E1: from only → P, to only → from P, by only → P + by (model 0.25 by 0.5 → 0.25 → 0.75)")
    func e1OneValue() {
        defer { CAMediaClock.unfreeze() }
        let f = run(opacityAnim(from: 0.2), model: 0.8)
        #expect(TT.near(TT.opacity(f, at: 0), 0.2))
        #expect(TT.near(TT.opacity(f, at: 1), 0.5))
        let t = run(opacityAnim(to: 1), model: 0.2)
        #expect(TT.near(TT.opacity(t, at: 0), 0.2))
        #expect(TT.near(TT.opacity(t, at: 1), 0.6))
        let b = run(opacityAnim(by: 0.5), model: 0.25)
        #expect(TT.near(TT.opacity(b, at: 0), 0.25))
        #expect(TT.near(TT.opacity(b, at: 1), 0.5))
        #expect(TT.near(TT.opacity(b, at: 2), 0.75))
    }

    @Test("E1: none set → from the previous presentation value to the current one (implicit case)")
    func e1None() {
        defer { CAMediaClock.unfreeze() }
        let l = TT.layer(at: 0) { $0.opacity = 0.2 }
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        l.opacity = 0.6
        l.add(opacityAnim(), forKey: "a")
        CATransaction.commit()
        #expect(TT.near(TT.opacity(l, at: 0), 0.2))
        #expect(TT.near(TT.opacity(l, at: 1), 0.4))
        #expect(TT.near(TT.opacity(l, at: 2), 0.6))
    }

    @Test("E1: all three set → from/to win; P is re-read every frame")
    func e1AllThreeAndLiveP() {
        defer { CAMediaClock.unfreeze() }
        let all = run(opacityAnim(from: 0, to: 1, by: 0.1))
        #expect(TT.near(TT.opacity(all, at: 1), 0.5))
        let l = run(opacityAnim(to: 1), model: 0)
        #expect(TT.near(TT.opacity(l, at: 1), 0.5))
        CATransaction.begin(); CATransaction.setDisableActions(true)
        l.opacity = 0.5
        CATransaction.commit()
        #expect(TT.near(TT.opacity(l, at: 1), 0.75))
    }

    @Test("E1: point by (4,8) from (10,20) → (14,28); rect by (3,4,5,6) from (1,2,10,20) → (4,6,15,26)")
    func e1StructBy() {
        defer { CAMediaClock.unfreeze() }
        let l = TT.layer(at: 0)
        let p = CABasicAnimation(keyPath: "position")
        p.fromValue = CGPoint(x: 10, y: 20); p.byValue = CGPoint(x: 4, y: 8)
        p.duration = 1; p.fillMode = .forwards; p.isRemovedOnCompletion = false
        let r = CABasicAnimation(keyPath: "bounds")
        r.fromValue = CGRect(x: 1, y: 2, width: 10, height: 20); r.byValue = CGRect(x: 3, y: 4, width: 5, height: 6)
        r.duration = 1; r.fillMode = .forwards; r.isRemovedOnCompletion = false
        l.add(p, forKey: "p"); l.add(r, forKey: "r")
        CATransaction.flush()
        CAMediaClock.freeze(at: 5)
        let pr = l.presentation()!
        #expect(pr.position == CGPoint(x: 14, y: 28))
        #expect(pr.bounds == CGRect(x: 4, y: 6, width: 15, height: 26))
        CAMediaClock.freeze(at: 5)
    }

    @Test("B6: worked presentation values — easeInEaseOut, default, position, easeIn/easeOut")
    func b6WorkedValues() {
        defer { CAMediaClock.unfreeze() }
        func opacity(_ name: CAMediaTimingFunctionName, _ ts: [Double]) -> [Double] {
            let l = TT.layer(at: 0) { $0.opacity = 0 }
            let a = CABasicAnimation(keyPath: "opacity")
            a.fromValue = 0.0; a.toValue = 1.0; a.duration = 1
            a.timingFunction = CAMediaTimingFunction(name: name)
            TT.run(a, on: l)
            return ts.map { TT.opacity(l, at: $0) }
        }
        let eie = opacity(.easeInEaseOut, [0.25, 0.5, 0.75])
        #expect(TT.near(eie[0], 0.129162) && TT.near(eie[1], 0.5) && TT.near(eie[2], 0.870838))
        let def = opacity(.default, [0.25, 0.5, 0.75])
        #expect(TT.near(def[0], 0.408511) && TT.near(def[1], 0.802403) && TT.near(def[2], 0.960459))
        #expect(TT.near(opacity(.easeIn, [0.5])[0], 0.315357))
        #expect(TT.near(opacity(.easeOut, [0.5])[0], 0.684643))
        let l = TT.layer(at: 0)
        let p = CABasicAnimation(keyPath: "position")
        p.fromValue = CGPoint.zero; p.toValue = CGPoint(x: 100, y: 200); p.duration = 2
        p.timingFunction = CAMediaTimingFunction(name: .default)
        TT.run(p, on: l)
        CAMediaClock.freeze(at: 1)
        let pos = l.presentation()!.position
        #expect(TT.near(pos.x, 80.2403, 1e-4) && TT.near(pos.y, 160.4806, 1e-4))
    }

    @Test("E3: additive shake — model x 100, values [0, −10, 10, 0] → 100, 90, 110, 100")
    func e3Shake() {
        defer { CAMediaClock.unfreeze() }
        let l = TT.layer(at: 0) { $0.position = CGPoint(x: 100, y: 50) }
        let k = CAKeyframeAnimation(keyPath: "position.x")
        k.values = [0.0, -10.0, 10.0, 0.0]; k.duration = 3; k.isAdditive = true
        k.fillMode = .forwards; k.isRemovedOnCompletion = false
        TT.run(k, on: l)
        for (t, x) in [(0.0, 100.0), (1, 90), (2, 110), (3, 100), (1.5, 100), (0.5, 95)] {
            CAMediaClock.freeze(at: t)
            #expect(TT.near(l.presentation()!.position.x, x), "t = \(t)")
            #expect(l.presentation()!.position.y == 50)
        }
        #expect(l.position.x == 100)
    }

    @Test("E3: additive animations add on top of non-additive ones regardless of order; transforms concatenate")
    func e3Order() {
        defer { CAMediaClock.unfreeze() }
        let l = TT.layer(at: 0) { $0.transform = CATransform3DMakeTranslation(10, 0, 0) }
        let add = TT.clockAnim(10); add.isAdditive = true
        let base = CABasicAnimation(keyPath: "zPosition")
        base.fromValue = 100.0; base.toValue = 100.0; base.duration = 10
        l.add(add, forKey: "add"); l.add(base, forKey: "base")
        let t = CABasicAnimation(keyPath: "transform")
        t.fromValue = CATransform3DIdentity; t.toValue = CATransform3DMakeTranslation(0, 20, 0)
        t.duration = 10; t.isAdditive = true
        l.add(t, forKey: "t")
        CATransaction.flush()
        CAMediaClock.freeze(at: 5)
        let p = l.presentation()!
        #expect(TT.near(p.zPosition, 105))
        #expect(TT.near(p.transform.m41, 10) && TT.near(p.transform.m42, 10))
    }

    @Test("E4: cumulative — 0→10 ×3 gives 10·k + 10·f and ends at 30; non-cumulative repeats 0→10")
    func e4Cumulative() {
        defer { CAMediaClock.unfreeze() }
        func run(_ cumulative: Bool) -> CALayer {
            let l = TT.layer(at: 0)
            let a = CABasicAnimation(keyPath: "zPosition")
            a.fromValue = 0.0; a.toValue = 10.0; a.duration = 1; a.repeatCount = 3
            a.isCumulative = cumulative; a.fillMode = .forwards; a.isRemovedOnCompletion = false
            TT.run(a, on: l)
            return l
        }
        let c = run(true)
        #expect(TT.near(TT.z(c, at: 0.5), 5))
        #expect(TT.near(TT.z(c, at: 1.5), 15))
        #expect(TT.near(TT.z(c, at: 2.25), 22.5))
        #expect(TT.near(TT.z(c, at: 3), 30))
        #expect(TT.near(TT.z(c, at: 9), 30))
        let n = run(false)
        #expect(TT.near(TT.z(n, at: 1.5), 5))
        #expect(TT.near(TT.z(n, at: 3), 10))
    }

    @Test("E5: value functions on \"transform\" — rotateZ 0 → 2π spins once; scale; translateX")
    func e5ValueFunctions() {
        defer { CAMediaClock.unfreeze() }
        let l = TT.layer(at: 0)
        let r = CABasicAnimation(keyPath: "transform")
        r.valueFunction = CAValueFunction(name: .rotateZ)
        r.fromValue = 0.0; r.toValue = 2 * Double.pi; r.duration = 1
        TT.run(r, on: l, key: "r")
        CAMediaClock.freeze(at: 0.25)
        var m = l.presentation()!.transform
        #expect(TT.near(m.m11, 0, 1e-9) && TT.near(m.m12, 1, 1e-9) && TT.near(m.m21, -1, 1e-9))
        CAMediaClock.freeze(at: 0.5)
        m = l.presentation()!.transform
        #expect(TT.near(m.m11, -1, 1e-9) && TT.near(m.m12, 0, 1e-9))
        l.removeAllAnimations()
        let s = CABasicAnimation(keyPath: "transform")
        s.valueFunction = CAValueFunction(name: .scale)
        s.fromValue = [1.0, 1.0, 1.0]; s.toValue = [2.0, 4.0, 1.0]; s.duration = 1
        let x = CABasicAnimation(keyPath: "transform")
        x.valueFunction = CAValueFunction(name: .translateX)
        x.fromValue = 0.0; x.toValue = 100.0; x.duration = 1; x.isAdditive = true
        l.add(s, forKey: "s"); l.add(x, forKey: "x")
        CATransaction.flush()
        CAMediaClock.freeze(at: 1)
        m = l.presentation()!.transform
        #expect(TT.near(m.m11, 1.5) && TT.near(m.m22, 2.5) && TT.near(m.m33, 1))
        #expect(TT.near(m.m41, 50) || TT.near(m.m41, 75))
        #expect(l.transform == CATransform3DIdentity)
    }

    @Test("E7: implied animations — CABasicAnimation 0.25 s keyed by property, from old to new value")
    func e7Implicit() {
        defer { CAMediaClock.unfreeze() }
        let l = TT.layer(at: 0)
        l.opacity = 0.5
        CATransaction.flush()
        let a = l.animation(forKey: "opacity") as? CABasicAnimation
        #expect(a != nil && a?.keyPath == "opacity" && a?.duration == 0.25)
        #expect(TT.near(TT.opacity(l, at: 0.125), 0.75))
        #expect(TT.near(TT.opacity(l, at: 0.3), 0.5))
        #expect(l.animationKeys() == nil)
        CATransaction.begin()
        CATransaction.setAnimationDuration(1)
        l.position = CGPoint(x: 100, y: 0)
        CATransaction.commit()
        #expect(l.animation(forKey: "position")?.duration == 1)
        CAMediaClock.freeze(at: 0.8)
        #expect(TT.near(l.presentation()!.position.x, 50))
        for key in ["anchorPoint", "backgroundColor", "borderWidth", "bounds", "cornerRadius", "opacity",
                    "position", "shadowOpacity", "shadowRadius", "sublayerTransform", "transform", "zPosition"] {
            #expect(l.action(forKey: key) is CABasicAnimation, "\(key)")
        }
        #expect(l.action(forKey: "doubleSided") == nil)
        #expect(l.action(forKey: "frame") == nil)
        #expect(l.action(forKey: "hidden") is CATransition)
        l.isDoubleSided = false
        #expect(l.animation(forKey: "doubleSided") == nil)
        CATransaction.flush()
    }
}
}
