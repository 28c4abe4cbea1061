import Testing
@testable import CoreAnimation

/// Counts how often it runs: stands in for any CAAction.
final class CountingAction: CAAction, @unchecked Sendable {
    var runs: [String] = []
    func run(forKey event: String, object anObject: Any, arguments dict: [AnyHashable: Any]?) { runs.append(event) }
}

/// A UIView-like delegate: NSNull outside an animation block, an action inside one (J3).
final class ViewLikeDelegate: CALayerDelegate, @unchecked Sendable {
    var insideAnimationBlock = false
    let action = CountingAction()
    func action(for layer: CALayer, forKey event: String) -> CAAction? {
        insideAnimationBlock ? action : NSNull()
    }
}

extension PinnedClock {
    @Suite struct CatalogueGapTests {
        @Test("A5: an animation retains its delegate (and the copy made by add does too)")
        func delegateRetained() {
            let a = CABasicAnimation(keyPath: "opacity")
            weak var weakDelegate: RecordingDelegate?
            do {
                let d = RecordingDelegate()
                weakDelegate = d
                a.delegate = d
            }
            #expect(weakDelegate != nil)
            let copy = a.copy() as! CAAnimation
            a.delegate = nil
            #expect(weakDelegate != nil && copy.delegate === weakDelegate)
        }

        @Test("B5: the animation's timing function spans the whole duration, per-segment functions act inside each segment, paced ignores both")
        func keyframeTimingFunctions() {
            defer { CAMediaClock.unfreeze() }
            let l = TT.layer(at: 100)
            let k = CAKeyframeAnimation(keyPath: "zPosition")
            k.values = [0, 10, 20]
            k.duration = 2
            k.timingFunctions = [CAMediaTimingFunction(name: .easeIn), CAMediaTimingFunction(name: .linear)]
            TT.run(k, on: l)
            // Segment 0 spans f ∈ [0, 0.5]: at f = 0.25, s = 0.5 → easeIn(0.5) = 0.315357 → 3.15357.
            #expect(TT.near(TT.z(l, at: 100.5), 3.15357, 1e-5))
            #expect(TT.near(TT.z(l, at: 101.5), 15, 1e-9))
            // Whole-animation function: easeInEaseOut at 0.25 → 0.129162 → 2.58324 (in segment 0).
            let l2 = TT.layer(at: 200)
            let k2 = CAKeyframeAnimation(keyPath: "zPosition")
            k2.values = [0, 10, 20]; k2.duration = 2
            k2.timingFunction = CAMediaTimingFunction(name: .easeInEaseOut)
            TT.run(k2, on: l2)
            #expect(TT.near(TT.z(l2, at: 200.5), 20 * 0.129162, 1e-4))
            // Paced ignores timing functions (and keyTimes): constant velocity.
            let l3 = TT.layer(at: 300)
            let k3 = CAKeyframeAnimation(keyPath: "zPosition")
            k3.values = [0, 10, 20]; k3.duration = 2; k3.calculationMode = .paced
            k3.timingFunctions = [CAMediaTimingFunction(name: .easeIn), CAMediaTimingFunction(name: .easeIn)]
            k3.keyTimes = [0, 0.9, 1]
            TT.run(k3, on: l3)
            #expect(TT.near(TT.z(l3, at: 300.5), 5, 1e-9))
        }

        @Test("C12: CACurrentMediaTime is positive, finite and monotonic with sub-millisecond resolution")
        func mediaTime() {
            CAMediaClock.unfreeze()
            var last = CACurrentMediaTime()
            #expect(last > 0 && last.isFinite)
            var smallestStep = Double.infinity
            for _ in 0..<10_000 {
                let t = CACurrentMediaTime()
                #expect(t >= last)
                if t > last { smallestStep = min(smallestStep, t - last) }
                last = t
            }
            #expect(smallestStep < 1e-3)
            CAMediaClock.freeze(at: 42)
            #expect(CACurrentMediaTime() == 42)
            CAMediaClock.advance(by: 0.5)
            #expect(CACurrentMediaTime() == 42.5)
            CAMediaClock.unfreeze()
            #expect(!CAMediaClock.isFrozen)
        }

        @Test("I2: progress = start + (end − start)·timing(f), clamped to 0 ≤ start ≤ end ≤ 1")
        func transitionProgress() throws {
            defer { CAMediaClock.unfreeze() }
            let l = TT.layer(at: 100)
            let t = CATransition()
            t.type = .push; t.subtype = .fromRight
            t.duration = 2; t.startProgress = 0.2; t.endProgress = 0.6
            t.timingFunction = CAMediaTimingFunction(name: .easeIn)
            TT.run(t, on: l, key: "ignored")
            let record = try #require(l.animationRecords.first { $0.key == kCATransition })
            let ev = try #require(record.evaluator as? TransitionEvaluator)
            let begin = record.animation.beginTime
            #expect(TT.near(ev.progress(at: begin + 1)!, 0.2 + 0.4 * 0.315357, 1e-5))
            #expect(TT.near(ev.progress(at: begin)!, 0.2, 1e-7))  // Float storage
            #expect(ev.progress(at: begin + 2.5) == nil, "removed after its duration (fill removed)")
            let c = CATransition()
            c.startProgress = 0.75; c.endProgress = 0.25  // stored unchecked (A6), clamped here
            #expect(c.startProgress == 0.75)
            let ce = TransitionEvaluator(c)
            #expect(ce.start == 0.75 && ce.end == 0.75)
        }

        @Test("I3: hidden and sublayers imply a fade CATransition with the transaction's duration")
        func impliedTransitions() {
            defer { CAMediaClock.unfreeze() }
            let l = TT.layer(at: 100)
            let hidden = l.action(forKey: "hidden") as? CATransition
            #expect(hidden?.type == .fade && hidden?.duration == 0.25)
            CATransaction.begin()
            CATransaction.setAnimationDuration(0.7)
            l.addSublayer(CALayer())
            CATransaction.commit()
            let added = l.animation(forKey: kCATransition) as? CATransition
            #expect(added?.type == .fade && added?.duration == 0.7)
            #expect(l.action(forKey: "sublayers") is CATransition)
        }

        @Test("J3: a view-like delegate answering NSNull disables implicit animation; inside an animation block its action runs")
        func viewBackedLayer() {
            defer { CAMediaClock.unfreeze() }
            let d = ViewLikeDelegate()
            let l = TT.layer(at: 100) { $0.delegate = d }
            #expect(l.action(forKey: "position") == nil)
            l.position = CGPoint(x: 10, y: 10)
            CATransaction.flush()
            #expect(l.animationKeys() == nil)
            d.insideAnimationBlock = true
            l.position = CGPoint(x: 20, y: 10)
            #expect(d.action.runs == ["position"])
        }

        @Test("J6: each setter posts exactly one change: the action runs once per real change, never for an equal value")
        func oneChangePerSetter() {
            defer { CAMediaClock.unfreeze() }
            let action = CountingAction()
            let keys = ["bounds", "position", "anchorPoint", "anchorPointZ", "zPosition", "transform",
                        "sublayerTransform", "opacity", "contentsScale", "masksToBounds", "shadowOffset"]
            let l = TT.layer(at: 100) { l in l.actions = Dictionary(uniqueKeysWithValues: keys.map { ($0, action as CAAction) }) }
            l.bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
            l.position = CGPoint(x: 1, y: 2)
            l.anchorPoint = CGPoint(x: 0, y: 0)
            l.anchorPointZ = 3
            l.zPosition = 4
            l.transform = CATransform3DMakeScale(2, 2, 1)
            l.sublayerTransform = CATransform3DMakeTranslation(1, 0, 0)
            l.opacity = 0.5
            l.contentsScale = 2
            l.masksToBounds = true
            l.shadowOffset = CGSize(width: 1, height: 1)
            #expect(action.runs == keys)
            action.runs = []
            l.position = CGPoint(x: 1, y: 2)
            l.opacity = 0.5
            #expect(action.runs.isEmpty)
        }
    }
}
