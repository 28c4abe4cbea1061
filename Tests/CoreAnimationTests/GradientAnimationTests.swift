import Testing
@testable import CoreAnimation

/// `CAGradientLayer.colors`, `locations`, `startPoint` and `endPoint` animate, explicitly and
/// implicitly (CAGradientLayer.h marks all four "Animatable"; docs/BEHAVIOUR.md E8).
extension PinnedClock { @Suite struct GradientAnimationTests {
    static let red = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
    static let blue = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
    static let green = CGColor(red: 0, green: 1, blue: 0, alpha: 1)
    static let clear = CGColor(red: 0, green: 0, blue: 0, alpha: 0)

    func gradient(_ setup: (CAGradientLayer) -> Void = { _ in }) -> CAGradientLayer {
        TT.layer(at: 100, make: { CAGradientLayer() }) { setup($0 as! CAGradientLayer) } as! CAGradientLayer
    }

    func anim(_ key: String, from: Any?, to: Any?) -> CABasicAnimation {
        let a = CABasicAnimation(keyPath: key)
        a.fromValue = from; a.toValue = to
        a.duration = 2; a.fillMode = .forwards; a.isRemovedOnCompletion = false
        return a
    }

    func colors(_ l: CAGradientLayer, at t: Double) -> [CGColor] {
        CAMediaClock.freeze(at: t)
        return ((l.presentation()?.colors) ?? []).compactMap { $0 as? CGColor }
    }

    func rgba(_ c: CGColor) -> [Double] { let v = c.rgba; return [v.red, v.green, v.blue, v.alpha].map(Double.init) }

    @Test("E8: colors interpolate stop by stop (red→blue, blue→green: half-way (0.5,0,0.5,1), (0,0.5,0.5,1))")
    func colorsPerStop() {
        defer { CAMediaClock.unfreeze() }
        let l = gradient { $0.colors = [Self.red, Self.blue] }
        TT.run(anim("colors", from: [Self.red, Self.blue], to: [Self.blue, Self.green]), on: l)
        let half = colors(l, at: 101)
        #expect(half.count == 2)
        #expect(zip(rgba(half[0]), [0.5, 0, 0.5, 1]).allSatisfy { TT.near($0, $1) })
        #expect(zip(rgba(half[1]), [0, 0.5, 0.5, 1]).allSatisfy { TT.near($0, $1) })
        let quarter = colors(l, at: 100.5)
        #expect(zip(rgba(quarter[0]), [0.75, 0, 0.25, 1]).allSatisfy { TT.near($0, $1) })
        // Straight components: red to clear passes through half-alpha dark red, not grey.
        let f = gradient { $0.colors = [Self.red] }
        TT.run(anim("colors", from: [Self.red], to: [Self.clear]), on: f)
        #expect(zip(rgba(colors(f, at: 101)[0]), [0.5, 0, 0, 0.5]).allSatisfy { TT.near($0, $1) })
    }

    @Test("E8: stop counts that differ switch at the half-way point, nothing is blended")
    func differingCountsSwitch() {
        defer { CAMediaClock.unfreeze() }
        let l = gradient()
        TT.run(anim("colors", from: [Self.red, Self.blue], to: [Self.green, Self.green, Self.blue]), on: l)
        let before = colors(l, at: 100.9)
        #expect(before.count == 2 && rgba(before[0]) == [1, 0, 0, 1])
        let after = colors(l, at: 101.1)
        #expect(after.count == 3 && rgba(after[0]) == [0, 1, 0, 1])
    }

    @Test("E8: locations interpolate number by number; nil ↔ set switches at the half-way point")
    func locations() {
        defer { CAMediaClock.unfreeze() }
        let l = gradient { $0.colors = [Self.red, Self.blue] }
        TT.run(anim("locations", from: [0.0, 1.0] as [NSNumber], to: [0.4, 0.6] as [NSNumber]), on: l)
        CAMediaClock.freeze(at: 101)
        let mid = l.presentation()?.locations?.map(\.doubleValue) ?? []
        #expect(mid.count == 2 && TT.near(mid[0], 0.2) && TT.near(mid[1], 0.8))
        let n = gradient { $0.colors = [Self.red, Self.blue] }
        TT.run(anim("locations", from: nil, to: [0.4, 0.6] as [NSNumber]), on: n)
        CAMediaClock.freeze(at: 100.9)
        #expect(n.presentation()?.locations == nil)
        CAMediaClock.freeze(at: 101.1)
        #expect(n.presentation()?.locations?.map(\.doubleValue) == [0.4, 0.6])
    }

    @Test("E8/E7: changing colors, locations and points animates implicitly (transaction duration, linear)")
    func implicit() {
        defer { CAMediaClock.unfreeze() }
        let l = gradient {
            $0.colors = [Self.red, Self.blue]; $0.locations = [0, 1]
            $0.startPoint = CGPoint(x: 0, y: 0); $0.endPoint = CGPoint(x: 1, y: 0)
        }
        CATransaction.begin()
        CATransaction.setAnimationDuration(2)
        CATransaction.setAnimationTimingFunction(CAMediaTimingFunction(name: .linear))
        l.colors = [Self.blue, Self.red]
        l.locations = [0.5, 1]
        l.startPoint = CGPoint(x: 0, y: 1)
        l.endPoint = CGPoint(x: 1, y: 1)
        CATransaction.commit()
        CATransaction.flush()
        let c = colors(l, at: 101)
        #expect(c.count == 2 && zip(rgba(c[0]), [0.5, 0, 0.5, 1]).allSatisfy { TT.near($0, $1) })
        let p = l.presentation()!
        #expect(TT.near(p.locations?[0].doubleValue ?? -1, 0.25))
        #expect(TT.near(p.startPoint.y, 0.5) && TT.near(p.endPoint.y, 0.5))
        // The model has the new values at once (L3).
        #expect(l.startPoint == CGPoint(x: 0, y: 1))
    }

    @Test("E8: arrays that are not all colours or all numbers switch discretely (no crash on mixed input)")
    func mixedArrays() {
        defer { CAMediaClock.unfreeze() }
        let l = gradient()
        TT.run(anim("colors", from: [Self.red, "not a colour"], to: [Self.blue, Self.green]), on: l)
        CAMediaClock.freeze(at: 100.5)
        #expect((l.presentation()?.colors?.count ?? 0) == 2)
        #expect((l.presentation()?.colors?[1] as? String) == "not a colour")
        #expect(AnimValue.lerpArrays([Double.nan, 1.0], [0.0, 1.0], 0.5) == nil)
    }

    @Test("E8/F4: a keyframe animation of colors blends between keyframes stop by stop; paced keyframes space by colour distance")
    func keyframes() {
        defer { CAMediaClock.unfreeze() }
        let l = gradient()
        let k = CAKeyframeAnimation(keyPath: "colors")
        k.values = [[Self.red, Self.red], [Self.blue, Self.green], [Self.green, Self.blue]]
        k.duration = 2; k.fillMode = .forwards; k.isRemovedOnCompletion = false
        TT.run(k, on: l)
        let c = colors(l, at: 100.5)   // half-way through the first segment
        #expect(c.count == 2 && zip(rgba(c[0]), [0.5, 0, 0.5, 1]).allSatisfy { TT.near($0, $1) })
        #expect(zip(rgba(c[1]), [0.5, 0.5, 0, 1]).allSatisfy { TT.near($0, $1) })
        // Paced locations: segment lengths 0.3 ([0, 1] → [0.3, 1]) and 0.4 (→ [0.3, 0.6]), so the
        // middle keyframe is reached at 0.3/0.7 of the 7-s duration, 3 s.
        let p = gradient()
        let pk = CAKeyframeAnimation(keyPath: "locations")
        pk.values = [[0, 1] as [NSNumber], [0.3, 1] as [NSNumber], [0.3, 0.6] as [NSNumber]]
        pk.calculationMode = .paced
        pk.duration = 7; pk.fillMode = .forwards; pk.isRemovedOnCompletion = false
        TT.run(pk, on: p)
        CAMediaClock.freeze(at: 103)   // 3/7 of the way: distance 0.3 of 0.7 is the first keyframe
        let loc = p.presentation()?.locations?.map(\.doubleValue) ?? []
        #expect(loc.count == 2 && TT.near(loc[0], 0.3, 1e-6) && TT.near(loc[1], 1, 1e-6), "\(loc)")
    }

    @Test("E3/E8: an additive locations animation adds number by number")
    func additive() {
        defer { CAMediaClock.unfreeze() }
        let l = gradient { $0.colors = [Self.red, Self.blue]; $0.locations = [0.1, 0.5] }
        let a = anim("locations", from: [0, 0] as [NSNumber], to: [0.2, 0.4] as [NSNumber])
        a.isAdditive = true
        TT.run(a, on: l)
        CAMediaClock.freeze(at: 101)
        let loc = l.presentation()?.locations?.map(\.doubleValue) ?? []
        #expect(loc.count == 2 && TT.near(loc[0], 0.2) && TT.near(loc[1], 0.7), "\(loc)")
    }
}}
