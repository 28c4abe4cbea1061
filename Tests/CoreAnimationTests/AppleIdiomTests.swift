import Testing
@testable import CoreAnimation

/// Issue 18: what real iOS animation code writes, in its own idioms, animates here as on Apple
/// platforms. Each test is named for the cause it covers (18.1 … 18.5; 18.3 and 18.6 are path and
/// stroke geometry, in CoreGraphicsTests and RendererTests).
extension PinnedClock { @Suite struct AppleIdiomTests {
    static func near(_ a: CGPoint, _ b: CGPoint, _ tol: Double = 1e-6) -> Bool {
        abs(a.x - b.x) <= tol && abs(a.y - b.y) <= tol
    }

    @Test("18.1: repeatCount = HUGE (Darwin's math.h constant, FLT_MAX) repeats for as long as .infinity does")
    func hugeRepeatsForever() {
        defer { CAMediaClock.unfreeze() }
        #expect(HUGE == Float.greatestFiniteMagnitude && MAXFLOAT == HUGE)
        #expect(CGFLOAT_MAX == Double.greatestFiniteMagnitude && CGFLOAT_IS_DOUBLE == 1)
        #expect(CGFLOAT_MIN == Double.leastNormalMagnitude && CGFLOAT_EPSILON == Double.ulpOfOne)
        let l = TT.layer(at: 0) { $0.zPosition = -1 }
        let a = TT.clockAnim(1)
        a.repeatCount = HUGE
        TT.run(a, on: l)
        #expect(TT.near(TT.z(l, at: 0.5), 0.5))
        #expect(TT.near(TT.z(l, at: 1_000_000.25), 0.25, 1e-3))
        #expect(l.animationKeys() == ["a"])
    }

    @Test("18.2: NSValue(caTransform3D:) keyframes animate transform; NSValue(cgSize:) keyframes animate bounds.size")
    func nsValueKeyframes() {
        defer { CAMediaClock.unfreeze() }
        let l = TT.layer(at: 0) { $0.bounds = CGRect(x: 0, y: 0, width: 10, height: 10) }
        let k = CAKeyframeAnimation(keyPath: "transform")
        k.values = [NSValue(caTransform3D: CATransform3DIdentity),
                    NSValue(caTransform3D: CATransform3DMakeScale(3, 3, 1)),
                    NSValue(caTransform3D: CATransform3DIdentity)]
        k.duration = 2
        l.add(k, forKey: "scale")
        let s = CAKeyframeAnimation(keyPath: "bounds.size")
        s.values = [NSValue(cgSize: CGSize(width: 10, height: 10)), NSValue(cgSize: CGSize(width: 50, height: 30))]
        s.duration = 2
        l.add(s, forKey: "size")
        CATransaction.flush()
        CAMediaClock.freeze(at: 1)
        let p = l.presentation()!
        #expect(TT.near(p.transform.m11, 3) && TT.near(p.transform.m22, 3))
        #expect(TT.near(p.bounds.width, 30) && TT.near(p.bounds.height, 20))
    }

    @Test("18.2: NSValue and NSNumber in fromValue/toValue/byValue, setValue(_:forKey(Path):) and actions")
    func nsValueEverywhere() {
        defer { CAMediaClock.unfreeze() }
        let l = TT.layer(at: 0) { $0.position = .zero }
        let move = CABasicAnimation(keyPath: "position")
        move.fromValue = NSValue(cgPoint: CGPoint(x: 0, y: 0))
        move.toValue = NSValue(cgPoint: CGPoint(x: 100, y: 40))
        move.duration = 1
        l.add(move, forKey: "move")
        let grow = CABasicAnimation(keyPath: "bounds")
        grow.fromValue = NSValue(cgRect: CGRect(x: 0, y: 0, width: 10, height: 10))
        grow.byValue = NSValue(cgRect: CGRect(x: 0, y: 0, width: 10, height: 20))
        grow.duration = 1
        l.add(grow, forKey: "grow")
        let fade = CABasicAnimation(keyPath: "opacity")
        fade.fromValue = NSNumber(value: 1); fade.toValue = NSNumber(value: 0.0)
        fade.duration = 1
        l.add(fade, forKey: "fade")
        let tilt = CABasicAnimation(keyPath: "transform")
        tilt.toValue = NSValue(cgAffineTransform: CGAffineTransform(scaleX: 3, y: 1))
        tilt.duration = 1
        l.add(tilt, forKey: "tilt")
        let shift = CABasicAnimation(keyPath: "transform.translation")
        shift.toValue = NSValue(cgSize: CGSize(width: 8, height: 4))
        shift.duration = 1
        l.add(shift, forKey: "shift")
        CATransaction.flush()
        CAMediaClock.freeze(at: 0.5)
        let p = l.presentation()!
        #expect(Self.near(p.position, CGPoint(x: 50, y: 20)))
        #expect(TT.near(p.bounds.width, 15) && TT.near(p.bounds.height, 20))
        #expect(TT.near(p.opacity, 0.5))
        #expect(TT.near(p.transform.m11, 2))
        #expect(TT.near(p.transform.m41, 4) && TT.near(p.transform.m42, 2))

        // Key-value coding unwraps them too, by key and by key path.
        let m = CALayer()
        m.setValue(NSValue(cgRect: CGRect(x: 1, y: 1, width: 4, height: 4)), forKey: "frame")
        #expect(m.position == CGPoint(x: 3, y: 3) && m.bounds.size == CGSize(width: 4, height: 4))
        m.setValue(NSValue(cgPoint: CGPoint(x: 3, y: 4)), forKey: "position")
        m.setValue(NSValue(cgRect: CGRect(x: 0, y: 0, width: 6, height: 8)), forKey: "bounds")
        m.setValue(NSValue(caTransform3D: CATransform3DMakeTranslation(1, 2, 3)), forKey: "transform")
        m.setValue(NSValue(cgSize: CGSize(width: 2, height: 5)), forKey: "shadowOffset")
        m.setValue(NSNumber(value: 0.25), forKeyPath: "opacity")
        m.setValue(NSValue(cgSize: CGSize(width: 7, height: 9)), forKeyPath: "transform.translation")
        #expect(m.position == CGPoint(x: 3, y: 4) && m.bounds.size == CGSize(width: 6, height: 8))
        #expect(m.transform.m41 == 7 && m.transform.m42 == 9 && m.transform.m43 == 3)
        #expect(m.shadowOffset == CGSize(width: 2, height: 5) && m.opacity == 0.25)

        // An action (the layer's actions dictionary) whose animation carries NSValue end values.
        let a = TT.layer(at: 10) { $0.position = .zero }
        let action = CABasicAnimation(keyPath: "position")
        action.fromValue = NSValue(cgPoint: CGPoint(x: -20, y: 0))
        action.duration = 1
        a.actions = ["position": action]
        a.position = CGPoint(x: 20, y: 0)
        CATransaction.flush()
        CAMediaClock.freeze(at: 10.5)
        #expect(Self.near(a.presentation()!.position, CGPoint(x: 0, y: 0)))
    }

    @Test("18.2: NSValue round trip: each boxed type reads back, others read as Apple's defaults")
    func nsValueRoundTrip() {
        let t = CATransform3DRotate(CATransform3DMakeTranslation(1, 2, 3), 0.5, 0, 0, 1)
        #expect(NSValue(caTransform3D: t).caTransform3DValue == t)
        #expect(NSValue(cgPoint: CGPoint(x: 1, y: 2)).cgPointValue == CGPoint(x: 1, y: 2))
        #expect(NSValue(cgSize: CGSize(width: 3, height: 4)).cgSizeValue == CGSize(width: 3, height: 4))
        #expect(NSValue(cgRect: CGRect(x: 1, y: 2, width: 3, height: 4)).cgRectValue == CGRect(x: 1, y: 2, width: 3, height: 4))
        #expect(NSValue(cgVector: CGVector(dx: 5, dy: 6)).cgVectorValue == CGVector(dx: 5, dy: 6))
        let a = CGAffineTransform(a: 1, b: 2, c: 3, d: 4, tx: 5, ty: 6)
        #expect(NSValue(cgAffineTransform: a).cgAffineTransformValue == a)
        #expect(NSValue(caTransform3D: t) == NSValue(caTransform3D: t))
        #expect(NSValue(cgPoint: .zero).caTransform3DValue == CATransform3DIdentity)
        #expect(NSValue(caTransform3D: t).cgPointValue == .zero)
        #expect(NSNumber(value: 3).cgSizeValue == .zero)
    }

    @Test("18.4: a group's children without a duration run over the group's duration (nested groups too)")
    func groupChildrenWithoutDuration() {
        defer { CAMediaClock.unfreeze() }
        let l = TT.layer(at: 0) { $0.zPosition = -1; $0.opacity = 1 }
        let z = CABasicAnimation(keyPath: "zPosition")
        z.fromValue = 0; z.toValue = 10
        let fade = CAKeyframeAnimation(keyPath: "opacity")
        fade.values = [1, 0]
        let inner = CAAnimationGroup()
        inner.animations = [fade]
        let g = CAAnimationGroup()
        g.animations = [z, inner]
        g.duration = 2
        g.repeatCount = HUGE
        TT.run(g, on: l)
        #expect(TT.near(TT.z(l, at: 1), 5))
        #expect(TT.near(TT.z(l, at: 1.9), 9.5))
        #expect(TT.near(TT.opacity(l, at: 1.5), 0.25))
        #expect(TT.near(TT.z(l, at: 3), 5), "the second repeat")
        // A child with a duration of its own keeps it.
        let own = TT.layer(at: 10) { $0.zPosition = -1 }
        let g2 = CAAnimationGroup(); g2.animations = [TT.clockAnim(1)]; g2.duration = 2
        TT.run(g2, on: own)
        #expect(TT.z(own, at: 11.5) == -1)
    }

    @Test("18.5: keyTimes ending early ([0, 0.7]) reach the last value at 70 % and hold it; starting late holds the first")
    func keyTimesEndingEarly() {
        defer { CAMediaClock.unfreeze() }
        let l = TT.layer(at: 0) { $0.zPosition = -1 }
        let k = CAKeyframeAnimation(keyPath: "zPosition")
        k.values = [0, 7]
        k.keyTimes = [0, 0.7]
        k.duration = 1
        TT.run(k, on: l)
        #expect(TT.near(TT.z(l, at: 0.35), 3.5))
        #expect(TT.near(TT.z(l, at: 0.7), 7))
        #expect(TT.near(TT.z(l, at: 0.9), 7))
        let late = TT.layer(at: 10) { $0.zPosition = -1 }
        let k2 = CAKeyframeAnimation(keyPath: "zPosition")
        k2.values = [0, 10, 20]
        k2.keyTimes = [0.2, 0.6, 0.8]
        k2.duration = 1
        TT.run(k2, on: late)
        #expect(TT.near(TT.z(late, at: 10.1), 0))
        #expect(TT.near(TT.z(late, at: 10.4), 5))
        #expect(TT.near(TT.z(late, at: 10.7), 15))
        #expect(TT.near(TT.z(late, at: 10.95), 20))
    }

    @Test("iOS idioms: beginTime = CACurrentMediaTime() + delay, control-point timing, cumulative rotation, forwards fill, timeOffset staggering")
    func everydayIdioms() {
        defer { CAMediaClock.unfreeze() }
        let l = TT.layer(at: 50) { $0.zPosition = -1 }
        let delayed = CABasicAnimation(keyPath: "zPosition")
        delayed.fromValue = 0; delayed.toValue = 1
        delayed.duration = 1
        delayed.beginTime = CACurrentMediaTime() + 0.5
        delayed.timingFunction = CAMediaTimingFunction(controlPoints: 0.25, 0.1, 0.25, 1)
        delayed.isRemovedOnCompletion = false
        delayed.fillMode = .forwards
        TT.run(delayed, on: l)
        #expect(TT.z(l, at: 50.25) == -1)
        let mid = Double(CAMediaTimingFunction(controlPoints: 0.25, 0.1, 0.25, 1).evaluate(at: 0.5))
        #expect(TT.near(TT.z(l, at: 51), mid, 1e-5))
        #expect(TT.near(TT.z(l, at: 60), 1), "held by fillMode .forwards, not removed")
        #expect(l.animationKeys() == ["a"])

        let spinner = TT.layer(at: 70)
        let spin = CABasicAnimation(keyPath: "transform.rotation.z")
        spin.byValue = CGFloat.pi / 2
        spin.duration = 1
        spin.isCumulative = true
        spin.repeatCount = HUGE
        TT.run(spin, on: spinner)
        CAMediaClock.freeze(at: 72.5)
        let angle = atan2(Double(spinner.presentation()!.transform.m12), Double(spinner.presentation()!.transform.m11))
        #expect(TT.near(angle, -3 * Double.pi / 4 , 1e-6), "2.5 turns of π/2 accumulate to 5π/4 ≡ −3π/4")

        // Three dots pulsing out of phase with timeOffset.
        let dots = (0..<3).map { i in TT.layer(at: 80) { $0.zPosition = -1; $0.name = "\(i)" } }
        for (i, d) in dots.enumerated() {
            let a = TT.clockAnim(1); a.repeatCount = .infinity; a.timeOffset = Double(i) * 0.25
            TT.run(a, on: d)
        }
        CAMediaClock.freeze(at: 80.5)
        let zs = dots.map { Double($0.presentation()!.zPosition) }
        #expect(TT.near(zs[0], 0.5) && TT.near(zs[1], 0.75) && TT.near(zs[2], 0.0), "\(zs)")
    }
} }
