import Testing
@testable import CoreAnimation

/// `CALayer.animatedBounds(of:model:)`: the values a scalar property can take under the layer's
/// animations, which the renderer uses to draw a `lineWidth` animation from one raster. Every
/// bound is checked two ways: its exact value where Apple's interpolation rules give it
/// (CABasicAnimation "Setting Interpolation Values"; CAKeyframeAnimation `values`), and that the
/// presentation layer never leaves it over the whole animation.
extension PinnedClock { @Suite struct AnimatedBoundsTests {
    static func shape(_ anims: [CAAnimation], lineWidth: CGFloat = 2) -> CAShapeLayer {
        TT.animatedLayer(anims, make: { CAShapeLayer() }, setup: { ($0 as! CAShapeLayer).lineWidth = lineWidth }) as! CAShapeLayer
    }

    /// The presentation's lineWidth at 201 times over [100, 100 + span] stays within `bounds`.
    static func presented(_ l: CAShapeLayer, within bounds: ClosedRange<Double>, span: Double = 2) -> Bool {
        defer { CAMediaClock.unfreeze() }
        for i in 0...200 {
            CAMediaClock.freeze(at: 100 + span * Double(i) / 200)
            let w = Double((l.presentation() as! CAShapeLayer).lineWidth)
            if w < bounds.lowerBound - 1e-9 || w > bounds.upperBound + 1e-9 { return false }
        }
        return true
    }

    static func basic(from: Any? = nil, to: Any? = nil, by: Any? = nil, curve: CAMediaTimingFunction? = nil) -> CABasicAnimation {
        let a = CABasicAnimation(keyPath: "lineWidth")
        a.fromValue = from; a.toValue = to; a.byValue = by; a.duration = 1
        a.timingFunction = curve
        return a
    }

    @Test("from/to, from/by, to/by, to alone, by alone: Apple's interpolation pairs, the model value included")
    func basicPairs() throws {
        let cases: [(CABasicAnimation, ClosedRange<Double>)] = [
            (Self.basic(from: 3.0, to: 9.0), 2...9),            // the model 2 shows before and after
            (Self.basic(from: CGFloat(4), by: 2.0), 2...6),
            (Self.basic(to: 10.0, by: 3.0), 2...10),            // from to − by = 7
            (Self.basic(to: 1.0), 1...2),                        // from the model
            (Self.basic(by: 5), 2...7),                          // an Int by value
        ]
        for (a, expected) in cases {
            let l = Self.shape([a])
            let b = try #require(l.animatedBounds(of: "lineWidth", model: 2))
            #expect(abs(b.lowerBound - expected.lowerBound) < 1e-9 && abs(b.upperBound - expected.upperBound) < 1e-9, "\(b) vs \(expected)")
            #expect(Self.presented(l, within: b))
        }
    }

    @Test("a timing curve that overshoots widens the bounds by its control points; ease in-out does not")
    func timingCurves() throws {
        let overshoot = CAMediaTimingFunction(controlPoints: 0.3, -0.4, 0.6, 1.5)
        let l = Self.shape([Self.basic(from: 4.0, to: 8.0, curve: overshoot)], lineWidth: 4)
        let b = try #require(l.animatedBounds(of: "lineWidth", model: 4))
        // 4 + f·4 for f in [−0.4, 1.5].
        #expect(abs(b.lowerBound - 2.4) < 1e-6 && abs(b.upperBound - 10) < 1e-6, "\(b)")
        #expect(Self.presented(l, within: b))
        let eased = Self.shape([Self.basic(from: 4.0, to: 8.0, curve: CAMediaTimingFunction(name: .easeInEaseOut))], lineWidth: 4)
        #expect(eased.animatedBounds(of: "lineWidth", model: 4) == 4...8)
    }

    @Test("keyframes: the least and greatest value, widened per segment by its timing function")
    func keyframes() throws {
        let k = CAKeyframeAnimation(keyPath: "lineWidth")
        k.values = [3.0, 12.0, CGFloat(1), 5]
        k.duration = 1.5
        k.timingFunctions = [CAMediaTimingFunction(name: .linear), CAMediaTimingFunction(controlPoints: 0.5, 0, 0.5, 1.25), CAMediaTimingFunction(name: .easeIn)]
        let l = Self.shape([k])
        let b = try #require(l.animatedBounds(of: "lineWidth", model: 2))
        // Segment 12 → 1 with f up to 1.25: 12 − 1.25·11 = −1.75.
        #expect(abs(b.lowerBound + 1.75) < 1e-6 && b.upperBound == 12, "\(b)")
        #expect(Self.presented(l, within: b))
    }

    @Test("asked again, the same bounds (kept on the animation's record); a new model value moves them")
    func keptUntilTheModelMoves() throws {
        let l = Self.shape([Self.basic(to: 6.0)])
        #expect(l.animatedBounds(of: "lineWidth", model: 2) == 2...6)
        #expect(l.animatedBounds(of: "lineWidth", model: 2) == 2...6)
        #expect(l.animatedBounds(of: "lineWidth", model: 9) == 6...9, "to alone interpolates from the model value")
    }

    @Test("two animations on the key: the union; removed ones no longer count")
    func union() throws {
        let l = Self.shape([Self.basic(from: 3.0, to: 5.0), Self.basic(from: 1.0, to: 4.0)])
        #expect(l.animatedBounds(of: "lineWidth", model: 2) == 1...5)
        l.removeAnimation(forKey: "k1")
        CATransaction.flush()
        #expect(l.animatedBounds(of: "lineWidth", model: 2) == 2...5)
        #expect(l.animatedBounds(of: "opacity", model: 1) == 1...1, "no animation writes it: the model value alone")
    }

    @Test("unbounded by their values: additive, cumulative, spring, cubic keyframes, no values, a time curve past [0, 1]")
    func unbounded() {
        let additive = Self.basic(from: 1.0, to: 2.0); additive.isAdditive = true
        let cumulative = Self.basic(from: 1.0, to: 2.0); cumulative.isCumulative = true; cumulative.repeatCount = 3
        let spring = CASpringAnimation(keyPath: "lineWidth"); spring.fromValue = 1.0; spring.toValue = 5.0
        let cubic = CAKeyframeAnimation(keyPath: "lineWidth"); cubic.values = [1.0, 5.0, 2.0]; cubic.calculationMode = .cubic
        let timeOvershoot = CAKeyframeAnimation(keyPath: "lineWidth"); timeOvershoot.values = [1.0, 5.0]
        timeOvershoot.timingFunction = CAMediaTimingFunction(controlPoints: 0.5, 0, 0.5, 1.4)
        let none = Self.basic()
        for a in [additive, cumulative, spring, cubic, timeOvershoot, none] as [CAAnimation] {
            #expect(Self.shape([a]).animatedBounds(of: "lineWidth", model: 2) == nil, "\(a)")
        }
    }
} }
