import Testing
@testable import CoreAnimation

extension PinnedClock { @Suite struct HGroupAndITransitionTests {
    @Test("H1: a 10-s child in a 5-s group shows only its first 5 s")
    func h1Clipping() {
        defer { CAMediaClock.unfreeze() }
        let l = TT.layer(at: 0) { $0.zPosition = -1 }
        let g = CAAnimationGroup()
        g.animations = [TT.clockAnim(10)]; g.duration = 5
        TT.run(g, on: l)
        #expect(TT.near(TT.z(l, at: 4), 4))
        #expect(TT.z(l, at: 5) == -1)
        #expect(TT.z(l, at: 8) == -1)
        #expect(l.animationKeys() == nil)
    }

    @Test("H2: children's delegate and removedOnCompletion are ignored; the group's delegate hears")
    func h2Delegates() {
        defer { CAMediaClock.unfreeze() }
        let l = TT.layer(at: 0) { $0.zPosition = -1 }
        let gd = RecordingDelegate("g"), cd = RecordingDelegate("c")
        let child = TT.clockAnim(1); child.delegate = cd; child.isRemovedOnCompletion = false; child.fillMode = .forwards
        let g = CAAnimationGroup(); g.animations = [child]; g.duration = 1; g.delegate = gd
        TT.run(g, on: l)
        CAMediaClock.freeze(at: 2)
        #expect(gd.events == ["gstart", "gstop:true"])
        #expect(cd.events.isEmpty)
        #expect(l.animationKeys() == nil)
        #expect(l.presentation()!.zPosition == -1)
    }

    @Test("H3: child beginTime is relative to the group; child fill modes apply inside the group window")
    func h3ChildWindows() {
        defer { CAMediaClock.unfreeze() }
        func run(_ fillA: CAMediaTimingFillMode, _ fillB: CAMediaTimingFillMode) -> [(Float, CGFloat)] {
            let l = TT.layer(at: 10) { $0.opacity = 0.25; $0.position = CGPoint(x: -5, y: 0) }
            let a = CABasicAnimation(keyPath: "opacity"); a.fromValue = 0.0; a.toValue = 1.0; a.duration = 1; a.fillMode = fillA
            let b = CABasicAnimation(keyPath: "position"); b.fromValue = CGPoint.zero; b.toValue = CGPoint(x: 100, y: 0)
            b.beginTime = 1; b.duration = 1; b.fillMode = fillB
            let g = CAAnimationGroup(); g.animations = [a, b]; g.duration = 2
            TT.run(g, on: l)
            return [10.5, 11.5, 12].map { CAMediaClock.freeze(at: $0); let p = l.presentation()!; return (p.opacity, p.position.x) }
        }
        let removed = run(.removed, .removed)
        #expect(TT.near(removed[0].0, 0.5) && removed[0].1 == -5)
        #expect(removed[1].0 == 0.25 && TT.near(removed[1].1, 50))
        #expect(removed[2].0 == 0.25 && removed[2].1 == -5)
        let filled = run(.forwards, .backwards)
        #expect(TT.near(filled[0].0, 0.5) && filled[0].1 == 0)
        #expect(filled[1].0 == 1 && TT.near(filled[1].1, 50))
        #expect(filled[2].0 == 0.25 && filled[2].1 == -5)
    }

    @Test("H4: a group left at duration 0 gets 0.25 s and clips every child to it")
    func h4ZeroDurationGroup() {
        defer { CAMediaClock.unfreeze() }
        let l = TT.layer(at: 0) { $0.zPosition = -1 }
        let g = CAAnimationGroup(); g.animations = [TT.clockAnim(1)]
        TT.run(g, on: l)
        #expect(l.animation(forKey: "a")!.duration == 0.25)
        #expect(TT.near(TT.z(l, at: 0.2), 0.2))
        #expect(TT.z(l, at: 0.3) == -1)
    }

    @Test("H5: the group's timing function remaps group time and composes with the child's")
    func h5GroupTimingFunction() {
        defer { CAMediaClock.unfreeze() }
        let l = TT.layer(at: 0)
        let g = CAAnimationGroup(); g.animations = [TT.clockAnim(1)]; g.duration = 1
        g.timingFunction = CAMediaTimingFunction(name: .easeIn)
        TT.run(g, on: l)
        #expect(TT.near(TT.z(l, at: 0.5), 0.315357))
        let l2 = TT.layer(at: 10)
        let c = TT.clockAnim(1); c.timingFunction = CAMediaTimingFunction(name: .easeOut)
        let g2 = CAAnimationGroup(); g2.animations = [c]; g2.duration = 1
        g2.timingFunction = CAMediaTimingFunction(name: .easeIn)
        TT.run(g2, on: l2)
        let expected = CAMediaTimingFunction(name: .easeOut).evaluate(at: CAMediaTimingFunction(name: .easeIn).evaluate(at: 0.5))
        #expect(TT.near(TT.z(l2, at: 10.5), expected, 1e-5))
        #expect(!TT.near(expected, 0.315357, 1e-3))
    }

    @Test("H6: animations nil initially, ordered, settable to nil; a copy keeps animations and timing")
    func h6ValueSemantics() {
        let g = CAAnimationGroup()
        #expect(g.animations == nil)
        let a = CABasicAnimation(keyPath: "opacity"), b = CABasicAnimation(keyPath: "position")
        g.animations = [a, b]
        #expect(g.animations!.count == 2 && g.animations![0] === a && g.animations![1] === b)
        g.duration = 3; g.speed = 2
        let c = g.copy() as! CAAnimationGroup
        #expect(c.animations?.count == 2 && c.duration == 3 && c.speed == 2)
        #expect((c.animations![0] as! CABasicAnimation).keyPath == "opacity")
        #expect((c.animations![1] as! CABasicAnimation).keyPath == "position")
        g.animations = nil
        #expect(g.animations == nil && c.animations?.count == 2)
    }

    @Test("I1/A6: CATransition defaults; stored under \"transition\" with 0.25 s; progress clamped")
    func i1Transition() {
        defer { CAMediaClock.unfreeze() }
        let t = CATransition()
        #expect(t.type == .fade && t.subtype == nil && t.startProgress == 0 && t.endProgress == 1 && t.duration == 0)
        let l = TT.layer(at: 0)
        t.startProgress = -1; t.endProgress = 2
        l.add(t, forKey: "whatever")
        CATransaction.flush()
        #expect(l.animationKeys() == ["transition"])
        #expect(l.animation(forKey: "transition")!.duration == 0.25)
        #expect(t.startProgress == -1)   // stored unchecked
        let ev = l.animationRecords.first!.evaluator as! TransitionEvaluator
        #expect(TT.near(ev.progress(at: 0)!, 0) && TT.near(ev.progress(at: 0.125)!, 0.5) && TT.near(ev.progress(at: 0.2499)!, 0.9996, 1e-9))
        let u = CATransition(); u.startProgress = 0.8; u.endProgress = 0.2; u.duration = 1
        l.add(u, forKey: nil)
        CATransaction.flush()
        let ev2 = l.animationRecords.first!.evaluator as! TransitionEvaluator
        #expect(TT.near(ev2.progress(at: 0)!, 0.8) && TT.near(ev2.progress(at: 0.5)!, 0.8))
        let h = CATransition(); h.startProgress = 0.25; h.endProgress = 0.75; h.duration = 1
        l.add(h, forKey: nil)
        CATransaction.flush()
        let ev3 = l.animationRecords.first!.evaluator as! TransitionEvaluator
        #expect(TT.near(ev3.progress(at: 0.5)!, 0.5) && TT.near(ev3.progress(at: 0)!, 0.25))
        #expect(l.animationKeys() == ["transition"])
    }
}
}
