import Testing
@testable import CoreAnimation

/// The frame step's table (`StepTable`): layers whose animations are all typed tracks are
/// evaluated into an output buffer and their presentation copies filled when read. What a
/// renderer reads after a step (`renderCopy`) must equal a fresh evaluation at the step's time
/// (`presentation()`, docs/BEHAVIOUR.md L1), frame after frame, through commits, removals, events and
/// compaction; and the table must actually carry the common cases.
extension PinnedClock {
    @Suite struct StepTableTests {
        /// Every value a typed track can write.
        private func values(_ l: CALayer) -> [Double] {
            let s = l.state
            var v = [Double(s.opacity), s.position.x, s.position.y, s.anchorPoint.x, s.anchorPoint.y, s.zPosition,
                     s.cornerRadius, s.borderWidth, Double(s.shadowOpacity), s.shadowRadius]
            for m in [s.transform, s.sublayerTransform] {
                v += [m.m11, m.m12, m.m13, m.m14, m.m21, m.m22, m.m23, m.m24, m.m31, m.m32, m.m33, m.m34, m.m41, m.m42, m.m43, m.m44]
            }
            // Colours as components, a nil colour as -1s (no colour component is negative here).
            func rgba(_ c: CGColor?) -> [Double] { c.map { [$0.rgba.red, $0.rgba.green, $0.rgba.blue, $0.rgba.alpha] } ?? [-1, -1, -1, -1] }
            v += rgba(s.backgroundColor) + rgba(s.borderColor) + rgba(s.shadowColor)
            if let shape = l as? CAShapeLayer {
                v += rgba(shape.fillColor) + rgba(shape.strokeColor)
                v += [shape.lineWidth, shape.miterLimit, shape.strokeStart, shape.strokeEnd, shape.lineDashPhase]
            }
            return v
        }

        private func same(_ a: [Double], _ b: [Double]) -> Bool {
            zip(a, b).allSatisfy { $0 == $1 || ($0.isNaN && $1.isNaN) }
        }

        /// The block of `l`, if the table carries it.
        private func block(_ l: CALayer) -> StepBlock? {
            let set = TransactionStack.current.animatedLayers
            guard l.stepIndex >= 0, l.stepIndex < set.entries.count else { return nil }
            return set.entries[l.stepIndex].block
        }

        /// Whether the last step evaluated `l` in the table (not on the per-layer path).
        private func evaluatedInTable(_ l: CALayer) -> Bool {
            block(l)?.outputsStep == TransactionStack.current.animatedLayers.table.stepCount
        }

        /// Steps `frames` frames of 1/30 s; after each, what the renderer reads must equal a
        /// fresh evaluation. Returns how many (layer, frame) pairs went through the table.
        @discardableResult
        private func expectRenderMatchesPresentation(_ layers: [CALayer], frames: Int = 90,
                                                     sourceLocation: SourceLocation = #_sourceLocation) -> Int {
            var inTable = 0
            for f in 0..<frames {
                CAMediaClock.advance(by: 1.0 / 30)
                for (i, l) in layers.enumerated() {
                    if evaluatedInTable(l) { inTable += 1 }
                    let rendered = values(l.renderCopy)
                    guard let p = l.presentation() else { continue }
                    let fresh = values(p)
                    #expect(same(rendered, fresh), "layer \(i), frame \(f): \(rendered) vs \(fresh)", sourceLocation: sourceLocation)
                }
            }
            return inTable
        }

        private func basic(_ key: String, from: Any? = nil, to: Any? = nil, by: Any? = nil,
                           _ configure: (CABasicAnimation) -> Void = { _ in }) -> CABasicAnimation {
            let a = CABasicAnimation(keyPath: key)
            a.fromValue = from; a.toValue = to; a.byValue = by; a.duration = 1.5
            configure(a)
            return a
        }

        private func animated(_ anims: [CAAnimation], _ setup: (CALayer) -> Void = { _ in }) -> CALayer {
            TT.animatedLayer(anims, setup: setup)
        }

        /// `n` layers in a row at x = 0, 1, 2 …, committed at media time 100.
        private func committedRow(_ n: Int) -> [CALayer] {
            CAMediaClock.freeze(at: 100)
            let layers = (0..<n).map { i in
                let l = CALayer()
                l.position = CGPoint(x: Double(i), y: 1)
                return l
            }
            CATransaction.flush()
            return layers
        }

        @Test func tableValuesEqualAFreshEvaluation_E1_F2toF5_G1() {
            let key = CAKeyframeAnimation(keyPath: "position")
            key.values = [CGPoint(x: 0, y: 0), CGPoint(x: 100, y: 50), CGPoint(x: 200, y: 0)]
            key.keyTimes = [0, 0.25, 1]; key.duration = 1.2; key.repeatCount = .infinity
            let discrete = CAKeyframeAnimation(keyPath: "opacity")
            discrete.values = [0.1, 0.5, 0.9]; discrete.calculationMode = .discrete; discrete.duration = 2
            discrete.repeatCount = 3; discrete.autoreverses = true
            let paced = CAKeyframeAnimation(keyPath: "cornerRadius")
            paced.values = [0.0, 10.0, 12.0, 40.0]; paced.calculationMode = .paced; paced.duration = 2
            let spring = CASpringAnimation(keyPath: "transform.scale")
            spring.fromValue = 0.5; spring.toValue = 1.0; spring.damping = 5; spring.duration = spring.settlingDuration
            let springPoint = CASpringAnimation(keyPath: "anchorPoint")
            springPoint.fromValue = CGPoint(x: 0, y: 0); springPoint.toValue = CGPoint(x: 1, y: 0.5); springPoint.duration = 2
            let layers = [
                animated([basic("opacity", from: 0.0, to: 1.0) { $0.timingFunction = CAMediaTimingFunction(name: .easeInEaseOut); $0.repeatCount = .infinity }]),
                animated([basic("position", from: CGPoint(x: 1, y: 2), to: CGPoint(x: 50, y: -20)) { $0.autoreverses = true; $0.repeatCount = 2.5 }]),
                animated([basic("position.x", by: 12.0), basic("opacity", from: 0.25), basic("cornerRadius", to: 9.0) { $0.fillMode = .forwards; $0.isRemovedOnCompletion = false }]),
                animated([basic("transform.rotation.z", by: 1.0), basic("transform.scale", from: 2.0) { $0.beginTime = 100.5; $0.fillMode = .backwards }]),
                animated([key, discrete, paced]),
                animated([spring, springPoint]),
                animated([basic("zPosition", from: -5.0, to: 5.0) { $0.speed = -1; $0.fillMode = .both; $0.repeatCount = .infinity },
                          basic("shadowRadius", from: 2.0, to: 9.0) { $0.timeOffset = 0.7; $0.repeatCount = .infinity }]),
                animated([basic("sublayerTransform.rotation.y", from: 0.0, to: 1.0) { $0.repeatCount = .infinity }]),
            ]
            let inTable = expectRenderMatchesPresentation(layers)
            // Each layer leaves the table only for the frames where an event is due.
            #expect(inTable > layers.count * 60, "only \(inTable) layer-frames went through the table")
        }

        /// Colours (`CALayer`'s and `CAShapeLayer`'s, from and to nil) and shape numbers go through
        /// the table too: a progress ring's `strokeEnd` and a `fillColor` on every layer.
        @Test func coloursAndShapeNumbersGoThroughTheTable_E1_G1() {
            let red = CGColor(red: 1, green: 0, blue: 0, alpha: 1), grey = CGColor(gray: 0.4, alpha: 0.5)
            let spring = CASpringAnimation(keyPath: "strokeColor")
            spring.fromValue = red; spring.toValue = grey; spring.damping = 4; spring.duration = 2; spring.repeatCount = .infinity
            let dash = CAKeyframeAnimation(keyPath: "lineDashPhase")
            dash.values = [0.0, 8.0, 2.0]; dash.duration = 1.1; dash.repeatCount = .infinity
            func ring(_ anims: [CAAnimation], _ setup: @escaping (CAShapeLayer) -> Void = { _ in }) -> CALayer {
                TT.animatedLayer(anims, make: { CAShapeLayer() }) { setup($0 as! CAShapeLayer) }
            }
            let layers = [
                animated([basic("backgroundColor", to: red) { $0.repeatCount = .infinity },
                          basic("borderColor", from: grey, to: red) { $0.autoreverses = true; $0.repeatCount = .infinity }]),
                ring([basic("strokeEnd", from: 0.0, to: 1.0) { $0.timingFunction = CAMediaTimingFunction(name: .easeInEaseOut); $0.repeatCount = .infinity },
                      basic("fillColor", from: red, to: grey) { $0.repeatCount = .infinity }]),
                ring([spring, dash, basic("lineWidth", by: 2.0) { $0.repeatCount = .infinity },
                      basic("fillColor", from: nil, to: red) { $0.repeatCount = .infinity }]) { $0.fillColor = nil; $0.lineWidth = 3 },
                ring([basic("strokeStart", from: 0.1, to: 0.6) { $0.fillMode = .both; $0.beginTime = 100.5 },
                      basic("miterLimit", to: 2.0) { $0.repeatCount = .infinity }, basic("position.x", by: 30.0) { $0.repeatCount = .infinity }]),
            ]
            let inTable = expectRenderMatchesPresentation(layers)
            #expect(inTable > layers.count * 60, "only \(inTable) layer-frames went through the table")
        }

        /// A block caches its parent's address; when the parent is freed while the child lives
        /// on (the parent's deinit clears the child's superlayer, which invalidates the block),
        /// the next step must not read the freed parent: the child takes the per-layer path and
        /// its values are those of a layer with no parent (a window test crashed here when the
        /// walk computed the local time before looking at the invalidation).
        @Test func aFreedParentIsNotReadByTheWalk_C1() {
            CAMediaClock.freeze(at: 100)
            var parent: CALayer? = CALayer()
            parent!.speed = 2
            parent!.timeOffset = 5
            let child = CALayer()
            parent!.addSublayer(child)
            CATransaction.flush()
            child.add(basic("opacity", from: 0.0, to: 1.0) { $0.duration = 40; $0.repeatCount = .infinity }, forKey: "fade")
            CATransaction.flush()
            expectRenderMatchesPresentation([child], frames: 3)
            #expect(evaluatedInTable(child))
            parent = nil
            #expect(child.superlayer == nil)
            expectRenderMatchesPresentation([child], frames: 3)
        }

        /// A layer whose animations would not be exact in the table keeps the per-layer path,
        /// with the same values: per-segment timing functions, keyframes along a path, and an
        /// endpoint from the underlying value after an earlier animation of that property.
        @Test func casesTheTableRefusesStayOnThePerLayerPath() {
            let timed = CAKeyframeAnimation(keyPath: "position.x")
            timed.values = [0.0, 30.0, 10.0]; timed.timingFunctions = [CAMediaTimingFunction(name: .easeIn), CAMediaTimingFunction(name: .easeOut)]
            timed.duration = 2; timed.repeatCount = .infinity
            let path = CGMutablePath()
            path.move(to: .zero); path.addCurve(to: CGPoint(x: 80, y: 10), control1: CGPoint(x: 10, y: 60), control2: CGPoint(x: 70, y: -40))
            let along = CAKeyframeAnimation(keyPath: "position"); along.path = path; along.duration = 2; along.repeatCount = .infinity
            let layers = [
                animated([timed]),
                animated([along]),
                animated([basic("position", from: CGPoint.zero, to: CGPoint(x: 9, y: 9)) { $0.repeatCount = .infinity },
                          basic("position.x", to: 40.0) { $0.repeatCount = .infinity }]),
            ]
            expectRenderMatchesPresentation(layers, frames: 30)
            for l in layers {
                #expect(block(l) == nil)
                #expect(l.evaluationPlan?.refusesBlock == true)
            }
        }

        /// A commit replaces the committed state: a block whose ends came from it (a to-only
        /// animation starts at the underlying value P, E1) is rebuilt, as is one whose layer
        /// got another animation.
        @Test func commitsAndNewAnimationsRebuildTheBlock_E1_L1() {
            let l = animated([basic("position.x", to: 100.0) { $0.duration = 4 }]) { $0.position = CGPoint(x: 10, y: 0) }
            expectRenderMatchesPresentation([l], frames: 10)
            #expect(evaluatedInTable(l))
            let before = block(l)!
            CATransaction.begin()
            CATransaction.setDisableActions(true)
            l.position = CGPoint(x: 60, y: 5)
            CATransaction.commit()
            expectRenderMatchesPresentation([l], frames: 10)
            #expect(block(l)!.base.toOpaque() != before.base.toOpaque())
            #expect(evaluatedInTable(l))
            l.add(basic("opacity", from: 0.0, to: 1.0) { $0.duration = 4 }, forKey: "fade")
            CATransaction.flush()
            expectRenderMatchesPresentation([l], frames: 10)
            #expect(block(l)!.trackCount == 2)
        }

        /// Events still come from the step for layers in the table: start, stop with
        /// `finished == true` at the end, removal (`isRemovedOnCompletion`), and the layer
        /// leaves the animated set (D1–D3, K4).
        @Test func eventsAndRemovalStillHappenForTableLayers_D3_K4() {
            let delegate = RecordingDelegate()
            var completed = false
            let l = TT.layer(at: 100)
            CATransaction.begin()
            CATransaction.setCompletionBlock { completed = true }
            let a = basic("opacity", from: 0.0, to: 1.0) { $0.duration = 1 }
            a.delegate = delegate
            l.add(a, forKey: "fade")
            CATransaction.commit()
            for _ in 0..<20 { CAMediaClock.advance(by: 1.0 / 30) }
            #expect(delegate.events == ["start"])
            #expect(evaluatedInTable(l))
            for _ in 0..<20 { CAMediaClock.advance(by: 1.0 / 30) }
            #expect(delegate.events == ["start", "stop:true"])
            #expect(completed)
            #expect(l.animationKeys() == nil)
            #expect(l.stepIndex == -1)
            #expect(l.renderCopy.opacity == 1)
        }

        /// Many layers animated alike share their timing: one group per distinct timing and
        /// easing, not one per layer; distinct durations get distinct groups and right values.
        @Test func equalTimingIsSharedAcrossLayers() {
            let groupsBefore = TransactionStack.current.animatedLayers.table.groups.count
            let layers = committedRow(200)
            for (i, l) in layers.enumerated() {
                l.add(basic("opacity", from: 0.0, to: Double(i) / 200) { $0.timingFunction = CAMediaTimingFunction(name: .easeIn); $0.repeatCount = .infinity }, forKey: "a")
                l.add(basic("position.y", from: 0.0, to: 10.0) { $0.duration = 0.5 + Double(i % 4); $0.repeatCount = .infinity }, forKey: "b")
            }
            CATransaction.flush()
            expectRenderMatchesPresentation(layers, frames: 20)
            let added = TransactionStack.current.animatedLayers.table.groups.count - groupsBefore
            #expect(added <= 5, "\(added) timing groups for 1 + 4 distinct timings")
            for l in layers { l.removeAllAnimations() }
            CAMediaClock.advance(by: 1.0 / 30)
        }

        /// Removing most animated layers leaves dead tracks; compaction rewrites the table and
        /// the remaining layers keep their values.
        @Test func compactionKeepsTheRemainingLayersRight() {
            let layers = committedRow(2_000)
            for (i, l) in layers.enumerated() {
                l.add(basic("position.x", by: Double(i % 13)) { $0.repeatCount = .infinity; $0.autoreverses = true }, forKey: "a")
                l.add(basic("opacity", from: 1.0, to: 0.0) { $0.repeatCount = .infinity }, forKey: "b")
                l.add(basic("cornerRadius", from: 0.0, to: Double(i)) { $0.repeatCount = .infinity }, forKey: "c")
            }
            CATransaction.flush()
            CAMediaClock.advance(by: 1.0 / 30)
            CAMediaClock.advance(by: 1.0 / 30)
            let table = { TransactionStack.current.animatedLayers.table }
            #expect(table().liveTracks >= 6_000)
            for l in layers.prefix(1_900) { l.removeAllAnimations() }
            CAMediaClock.advance(by: 1.0 / 30)
            #expect(table().tracks.count < 6_000, "the table was not compacted: \(table().tracks.count) tracks")
            let kept = Array(layers.suffix(100))
            let inTable = expectRenderMatchesPresentation(kept, frames: 10)
            #expect(inTable == 100 * 10)
            for l in kept { l.removeAllAnimations() }
            CAMediaClock.advance(by: 1.0 / 30)
        }

        /// The table computes a layer's local time from timing and a parent it cached: changing
        /// the layer's speed, time offset or begin time, a parent's timing, or the parent itself
        /// must show in the next frame as it does in a fresh evaluation (C1, C2, C10).
        @Test func timingAndParentChangesReachTheTable_C1_C10() {
            let slow = TT.layer(at: 100) { $0.speed = 0.5 }
            let fast = TT.layer(at: 100) { $0.speed = 2 }
            let l = animated([basic("position.x", from: 0.0, to: 100.0) { $0.duration = 4; $0.repeatCount = .infinity }])
            slow.addSublayer(l)
            CATransaction.flush()
            expectRenderMatchesPresentation([l], frames: 5)
            #expect(evaluatedInTable(l))
            // Pause (C10) and resume by the recipe, with actions off.
            CATransaction.begin()
            CATransaction.setDisableActions(true)
            l.timeOffset = l.convertTime(CACurrentMediaTime(), from: nil)
            l.speed = 0
            CATransaction.commit()
            let paused = l.renderCopy.position.x
            expectRenderMatchesPresentation([l], frames: 5)
            #expect(l.renderCopy.position.x == paused)
            CATransaction.begin()
            CATransaction.setDisableActions(true)
            let pausedAt = l.timeOffset
            l.speed = 1; l.timeOffset = 0; l.beginTime = 0
            l.beginTime = l.convertTime(CACurrentMediaTime(), from: nil) - pausedAt
            CATransaction.commit()
            expectRenderMatchesPresentation([l], frames: 5)
            // The parent's timing, then the parent itself.
            slow.speed = 3
            expectRenderMatchesPresentation([l], frames: 5)
            fast.addSublayer(l)
            expectRenderMatchesPresentation([l], frames: 5)
            l.removeFromSuperlayer()
            expectRenderMatchesPresentation([l], frames: 5)
            #expect(evaluatedInTable(l))
        }
    }
}
