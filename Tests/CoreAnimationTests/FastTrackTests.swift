import Testing
@testable import CoreAnimation

/// The frame step's typed tracks (`FastTrack`) must give exactly what the general evaluators
/// give for the same animations (E1, F2–F5, G1, C3–C7): each case is evaluated both ways at
/// many times, including before the start, across repeats and reversals and after the end.
extension PinnedClock {
    @Suite struct FastTrackTests {
        /// Commits `anims` on a fresh layer and returns it with its plan.
        private func planned(_ anims: [CAAnimation], make: () -> CALayer = { CALayer() },
                             setup: (CALayer) -> Void = { _ in }) -> (CALayer, EvaluationPlan) {
            let l = TT.animatedLayer(anims, make: make, setup: setup)
            return (l, TimingEngine.evaluationPlan(of: l))
        }

        /// The general path, run by hand on a second copy.
        private func general(_ l: CALayer, _ plan: EvaluationPlan, _ tl: Double) -> CALayer {
            let out = TimingEngine.makeCopy(of: l.committedCopy!)
            for b in plan.resets { b.reset(out, l.committedCopy!) }
            for e in plan.evaluators { e.apply(to: out, parentTime: tl, additivePass: false) }
            return out
        }

        private func expectSame(_ anims: [CAAnimation], make: () -> CALayer = { CALayer() }, setup: (CALayer) -> Void = { _ in },
                                sourceLocation: SourceLocation = #_sourceLocation) {
            let (l, plan) = planned(anims, make: make, setup: setup)
            #expect(plan.tracks != nil, "expected typed tracks", sourceLocation: sourceLocation)
            for i in -10...80 {
                let tl = 100 + Double(i) * 0.0625
                let fast = TimingEngine.evaluatePresentation(of: l, base: l.committedCopy!, localTime: tl)
                let slow = general(l, plan, tl)
                #expect(fast.opacity == slow.opacity, "opacity at \(tl)", sourceLocation: sourceLocation)
                #expect(fast.position == slow.position, "position at \(tl)", sourceLocation: sourceLocation)
                #expect(fast.anchorPoint == slow.anchorPoint, "anchorPoint at \(tl)", sourceLocation: sourceLocation)
                #expect(fast.zPosition == slow.zPosition && fast.cornerRadius == slow.cornerRadius
                        && fast.borderWidth == slow.borderWidth && fast.shadowOpacity == slow.shadowOpacity
                        && fast.shadowRadius == slow.shadowRadius, "scalars at \(tl)", sourceLocation: sourceLocation)
                #expect(fast.transform == slow.transform, "transform at \(tl)", sourceLocation: sourceLocation)
                #expect(fast.sublayerTransform == slow.sublayerTransform, "sublayerTransform at \(tl)", sourceLocation: sourceLocation)
                #expect(fast.backgroundColor == slow.backgroundColor && fast.borderColor == slow.borderColor
                        && fast.shadowColor == slow.shadowColor, "colours at \(tl)", sourceLocation: sourceLocation)
                if let f = fast as? CAShapeLayer, let s = slow as? CAShapeLayer {
                    #expect(f.fillColor == s.fillColor && f.strokeColor == s.strokeColor && f.lineWidth == s.lineWidth
                            && f.miterLimit == s.miterLimit && f.strokeStart == s.strokeStart && f.strokeEnd == s.strokeEnd
                            && f.lineDashPhase == s.lineDashPhase, "shape state at \(tl)", sourceLocation: sourceLocation)
                }
            }
        }

        private func basic(_ key: String, _ from: Any, _ to: Any, _ configure: (CABasicAnimation) -> Void = { _ in }) -> CABasicAnimation {
            let a = CABasicAnimation(keyPath: key)
            a.fromValue = from; a.toValue = to; a.duration = 1.5
            configure(a)
            return a
        }

        @Test func typedTracks_basicNumbersAndPoints_E1() {
            expectSame([basic("opacity", 0.0, 1.0) { $0.timingFunction = CAMediaTimingFunction(name: .easeInEaseOut) }])
            expectSame([basic("position", CGPoint(x: 1, y: 2), CGPoint(x: 50, y: -20))])
            expectSame([basic("position.x", 3.0, 90.0), basic("position.y", -4.0, 8.0) { $0.beginTime = 100.5 }])
            expectSame([basic("cornerRadius", 0.0, 12.0), basic("borderWidth", 1.0, 4.0), basic("shadowRadius", 2.0, 9.0),
                        basic("shadowOpacity", 0.0, 0.8), basic("zPosition", -5.0, 5.0), basic("anchorPoint", CGPoint.zero, CGPoint(x: 1, y: 1))])
        }

        @Test func typedTracks_timing_C3toC7() {
            expectSame([basic("opacity", 0.2, 0.9) { $0.repeatCount = 2.5; $0.autoreverses = true; $0.fillMode = .both; $0.beginTime = 100.7 }])
            expectSame([basic("opacity", 0.2, 0.9) { $0.speed = -1; $0.fillMode = .forwards }])
            expectSame([basic("position.x", 0.0, 100.0) { $0.timeOffset = 0.5; $0.repeatDuration = 3; $0.isRemovedOnCompletion = false; $0.fillMode = .forwards }])
            expectSame([basic("opacity", 0.0, 1.0) { $0.speed = 2; $0.timingFunction = CAMediaTimingFunction(controlPoints: 0.3, -0.5, 0.6, 1.6) }])
        }

        @Test func typedTracks_transformComponents_E6() {
            expectSame([basic("transform.scale", 0.5, 2.0), basic("transform.rotation.z", 0.0, 3.0)])
            expectSame([basic("transform.translation.x", 0.0, 30.0), basic("transform.scale.y", 1.0, 0.25),
                        basic("sublayerTransform.rotation.y", 0.0, 1.0)])
        }

        @Test func typedTracks_keyframes_F2toF7() {
            let lin = CAKeyframeAnimation(keyPath: "position")
            lin.values = [CGPoint(x: 0, y: 0), CGPoint(x: 100, y: 50), CGPoint(x: 200, y: 0)]
            lin.keyTimes = [0, 0.25, 1]
            lin.timingFunctions = [CAMediaTimingFunction(name: .easeIn), CAMediaTimingFunction(name: .easeOut)]
            lin.duration = 3; lin.repeatCount = .infinity
            expectSame([lin])
            let discrete = CAKeyframeAnimation(keyPath: "opacity")
            discrete.values = [0.1, 0.5, 0.9]
            discrete.calculationMode = .discrete
            discrete.duration = 2
            expectSame([discrete])
            let paced = CAKeyframeAnimation(keyPath: "cornerRadius")
            paced.values = [0.0, 10.0, 12.0, 40.0]
            paced.calculationMode = .paced
            paced.duration = 2; paced.autoreverses = true
            expectSame([paced])
            let path = CGMutablePath()
            path.move(to: CGPoint(x: 0, y: 0))
            path.addCurve(to: CGPoint(x: 80, y: 10), control1: CGPoint(x: 10, y: 60), control2: CGPoint(x: 70, y: -40))
            path.addLine(to: CGPoint(x: 5, y: 5))
            let along = CAKeyframeAnimation(keyPath: "position")
            along.path = path; along.duration = 4
            expectSame([along])
        }

        @Test func typedTracks_springs_G1() {
            let s = CASpringAnimation(keyPath: "transform.scale")
            s.fromValue = 0.5; s.toValue = 1.0; s.damping = 5; s.duration = s.settlingDuration
            let p = CASpringAnimation(keyPath: "position")
            p.fromValue = CGPoint(x: 0, y: 0); p.toValue = CGPoint(x: 60, y: 30); p.duration = 2; p.initialVelocity = 3
            expectSame([s, p])
        }

        /// Endpoints that depend on the underlying value (E1's rows with P): by, from only,
        /// to only, on numbers, points, transform components and springs.
        @Test func typedTracks_endpointsFromTheUnderlyingValue_E1() {
            func partial(_ key: String, from: Any? = nil, to: Any? = nil, by: Any? = nil) -> CABasicAnimation {
                let a = CABasicAnimation(keyPath: key)
                a.fromValue = from; a.toValue = to; a.byValue = by; a.duration = 1.5
                return a
            }
            expectSame([partial("position.x", by: 12.0), partial("opacity", from: 0.25), partial("cornerRadius", to: 9.0)])
            expectSame([partial("position", by: CGPoint(x: 5, y: -7)), partial("anchorPoint", to: CGPoint(x: 0, y: 1))])
            expectSame([partial("transform.rotation.z", by: 1.0), partial("transform.scale", from: 2.0)])
            let spring = CASpringAnimation(keyPath: "position")
            spring.byValue = CGPoint(x: 30, y: 0); spring.duration = 2
            expectSame([spring])
        }

        /// Implied animations (E7: a property set in a transaction) run as typed tracks too, from
        /// the old presentation value to the new model value.
        @Test func typedTracks_implicitAnimations_E7() {
            let l = TT.layer(at: 100) { $0.position = CGPoint(x: 10, y: 10); $0.opacity = 1 }
            CATransaction.begin()
            CATransaction.setAnimationDuration(2)
            l.position = CGPoint(x: 50, y: 30)
            l.opacity = 0.2
            CATransaction.commit()
            let plan = TimingEngine.evaluationPlan(of: l)
            #expect(plan.tracks != nil)
            for i in 0...40 {
                let tl = 100 + Double(i) * 0.0625
                let fast = TimingEngine.evaluatePresentation(of: l, base: l.committedCopy!, localTime: tl)
                let slow = general(l, plan, tl)
                #expect(fast.position == slow.position && fast.opacity == slow.opacity, "at \(tl)")
            }
            let mid = TimingEngine.evaluatePresentation(of: l, base: l.committedCopy!, localTime: 101)
            #expect(mid.position.x > 10 && mid.position.x < 50)
        }

        /// A non-finite value is refused as the public setter refuses it: the property keeps its
        /// committed value on both paths (bad input, issue 3).
        @Test func typedTracks_nonFiniteValuesAreIgnored() {
            expectSame([basic("opacity", Double.nan, 1.0), basic("position.x", Double.infinity, 3.0),
                        basic("transform.rotation.z", 0.0, Double.nan)])
            let (l, _) = planned([basic("cornerRadius", Double.nan, Double.nan)], setup: { $0.cornerRadius = 4 })
            #expect(TimingEngine.evaluatePresentation(of: l, base: l.committedCopy!, localTime: 100.5).cornerRadius == 4)
        }

        /// Later animations of the same property replace earlier ones (E3), in both paths.
        @Test func typedTracks_orderOfReplacement_E3() {
            expectSame([basic("position", CGPoint.zero, CGPoint(x: 10, y: 10)), basic("position.x", 0.0, 99.0) { $0.beginTime = 100.6 }])
        }

        /// Colours of `CALayer` and `CAShapeLayer`, basic and spring, with every endpoint
        /// combination (E1), gray and nil colours (a nil colour animates as transparent black),
        /// and the implied animation of a colour set in a transaction (E7).
        @Test func typedTracks_colours_E1() {
            func partial(_ key: String, from: Any? = nil, to: Any? = nil) -> CABasicAnimation {
                let a = CABasicAnimation(keyPath: key)
                a.fromValue = from; a.toValue = to; a.duration = 1.5
                return a
            }
            let red = CGColor(red: 1, green: 0, blue: 0, alpha: 1), grey = CGColor(gray: 0.4, alpha: 0.5)
            let blue = CGColor(red: 0.1, green: 0.2, blue: 0.9, alpha: 0.75)
            expectSame([basic("backgroundColor", red, blue) { $0.timingFunction = CAMediaTimingFunction(name: .easeIn) },
                        basic("borderColor", grey, red), basic("shadowColor", blue, grey) { $0.autoreverses = true; $0.repeatCount = 2 }])
            // From the underlying value: nil (the default background), a gray model value.
            expectSame([partial("backgroundColor", to: red), partial("borderColor", from: blue)], setup: { $0.borderColor = grey })
            let spring = CASpringAnimation(keyPath: "shadowColor")
            spring.fromValue = red; spring.toValue = blue; spring.damping = 4; spring.duration = 2
            expectSame([spring])
            let shape: () -> CALayer = { CAShapeLayer() }
            expectSame([basic("fillColor", red, blue), partial("strokeColor", to: grey)], make: shape)
            expectSame([partial("fillColor", from: blue)], make: shape, setup: { ($0 as! CAShapeLayer).fillColor = nil })
            // Implied: a colour set in a transaction animates from the old presentation value.
            let l = TT.layer(at: 100) { $0.backgroundColor = red }
            CATransaction.begin(); CATransaction.setAnimationDuration(2)
            l.backgroundColor = blue
            CATransaction.commit()
            let plan = TimingEngine.evaluationPlan(of: l)
            #expect(plan.tracks != nil)
            for i in 0...40 {
                let tl = 100 + Double(i) * 0.0625
                #expect(TimingEngine.evaluatePresentation(of: l, base: l.committedCopy!, localTime: tl).backgroundColor
                        == general(l, plan, tl).backgroundColor, "at \(tl)")
            }
        }

        /// `CAShapeLayer`'s numbers (strokeStart, strokeEnd, lineWidth, miterLimit,
        /// lineDashPhase), basic, keyframed and spring, with endpoints from the model value,
        /// and non-finite values refused as the setters refuse them.
        @Test func typedTracks_shapeNumbers() {
            let shape: () -> CALayer = { CAShapeLayer() }
            let keys = CAKeyframeAnimation(keyPath: "strokeStart")
            keys.values = [0.0, 0.3, 0.1]; keys.keyTimes = [0, 0.4, 1]; keys.duration = 2
            let spring = CASpringAnimation(keyPath: "lineDashPhase")
            spring.fromValue = 0.0; spring.toValue = 12.0; spring.duration = 2
            let by = CABasicAnimation(keyPath: "lineWidth")
            by.byValue = 3.0; by.duration = 1.5
            expectSame([basic("strokeEnd", 0.0, 1.0) { $0.timingFunction = CAMediaTimingFunction(name: .easeOut) },
                        keys, spring, by, basic("miterLimit", 2.0, 20.0)], make: shape, setup: { ($0 as! CAShapeLayer).lineWidth = 2.5 })
            expectSame([basic("strokeEnd", Double.nan, 0.5), basic("lineWidth", 1.0, Double.infinity)], make: shape)
            // With position and opacity on the same layer: one block, both states.
            expectSame([basic("position.x", 0.0, 40.0), basic("strokeEnd", 0.2, 0.9), basic("fillColor", CGColor(gray: 1, alpha: 1),
                        CGColor(red: 0, green: 0.5, blue: 0, alpha: 1))], make: shape)
        }

        /// What stays on the general path: additive, cumulative, value functions, colours by
        /// `byValue` or keyframes, paths, cubic keyframes, rotation modes.
        @Test func generalPathCases_haveNoTracks() {
            let additive = basic("position.x", 0.0, 10.0) { $0.isAdditive = true }
            #expect(planned([additive]).1.tracks == nil)
            let cumulative = basic("opacity", 0.0, 0.5) { $0.isCumulative = true; $0.repeatCount = 2 }
            #expect(planned([cumulative]).1.tracks == nil)
            let colour = basic("backgroundColor", CGColor(gray: 0, alpha: 1), CGColor(gray: 1, alpha: 1)) { $0.isAdditive = true }
            #expect(planned([colour]).1.tracks == nil)
            let byColour = CABasicAnimation(keyPath: "borderColor")
            byColour.byValue = CGColor(red: 0.1, green: 0, blue: 0, alpha: 0); byColour.duration = 1
            #expect(planned([byColour]).1.tracks == nil)
            let keyColours = CAKeyframeAnimation(keyPath: "backgroundColor")
            keyColours.values = [CGColor(gray: 0, alpha: 1), CGColor(gray: 1, alpha: 1)]; keyColours.duration = 1
            #expect(planned([keyColours]).1.tracks == nil)
            let morph = CABasicAnimation(keyPath: "path")
            morph.fromValue = CGPath(rect: CGRect(x: 0, y: 0, width: 5, height: 5), transform: nil)
            morph.toValue = CGPath(rect: CGRect(x: 0, y: 0, width: 9, height: 9), transform: nil); morph.duration = 1
            #expect(planned([morph], make: { CAShapeLayer() }).1.tracks == nil)
            let cubic = CAKeyframeAnimation(keyPath: "opacity")
            cubic.values = [0.0, 1.0, 0.5]; cubic.calculationMode = .cubic; cubic.duration = 1
            #expect(planned([cubic]).1.tracks == nil)
            let vf = CABasicAnimation(keyPath: "transform")
            vf.valueFunction = CAValueFunction(name: .rotateZ); vf.fromValue = 0.0; vf.toValue = 1.0; vf.duration = 1
            #expect(planned([vf]).1.tracks == nil)
            // One general case puts the whole layer on the general path (order must hold).
            #expect(planned([basic("opacity", 0.0, 1.0), colour]).1.tracks == nil)
        }
    }
}
