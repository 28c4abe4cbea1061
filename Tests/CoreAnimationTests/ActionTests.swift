import Testing
@testable import CoreAnimation

/// An action that records its runs.
final class RecordingAction: CAAction, @unchecked Sendable {
    var runs: [String] = []
    func run(forKey event: String, object anObject: Any, arguments dict: [AnyHashable: Any]?) {
        runs.append(event)
        #expect(anObject is CALayer)
    }
}

final class ActionDelegate: CALayerDelegate, @unchecked Sendable {
    var answer: CAAction?
    var asked: [String] = []
    init(_ a: CAAction?) { answer = a }
    func action(for layer: CALayer, forKey event: String) -> CAAction? { asked.append(event); return answer }
}

extension PinnedClock { @Suite struct JActionTests {
    @Test("J1: delegate wins over actions; delegate NSNull → nil; delegate nil → actions")
    func j1Delegate() {
        let l = CALayer()
        let fromDict = RecordingAction(), fromDelegate = RecordingAction()
        l.actions = ["opacity": fromDict]
        let d = ActionDelegate(fromDelegate)
        l.delegate = d
        #expect(l.action(forKey: "opacity") as? RecordingAction === fromDelegate)
        d.answer = NSNull()
        #expect(l.action(forKey: "opacity") == nil)
        d.answer = nil
        #expect(l.action(forKey: "opacity") as? RecordingAction === fromDict)
        #expect(d.asked.count == 3)
    }

    @Test("J1: NSNull in actions → nil; style actions after actions; NSNull in style → nil; defaultAction nil")
    func j1ActionsAndStyle() {
        let l = CALayer()
        let s = RecordingAction(), a = RecordingAction()
        l.style = ["actions": ["opacity": s, "position": NSNull()] as [String: Any]]
        #expect(l.action(forKey: "opacity") as? RecordingAction === s)
        #expect(l.action(forKey: "position") == nil)
        l.actions = ["opacity": a, "bounds": NSNull()]
        #expect(l.action(forKey: "opacity") as? RecordingAction === a)
        #expect(l.action(forKey: "bounds") == nil)
        #expect(CALayer.defaultAction(forKey: "position") == nil)
        #expect(CALayer.defaultAction(forKey: "opacity") == nil)
    }

    @Test("J1: setDisableActions does not change action(forKey:)")
    func j1DisableActionsLookup() {
        let l = CALayer()
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        #expect(l.action(forKey: "position") is CABasicAnimation)
        CATransaction.commit()
        #expect(l.action(forKey: "position") is CABasicAnimation)
    }

    @Test("J2/J4: implied CABasicAnimation — keyPath, transaction duration 0.25 (or set), timing function; hidden → CATransition")
    func j2Implied() {
        let l = CALayer()
        let a = l.action(forKey: "position") as? CABasicAnimation
        #expect(a?.keyPath == "position" && a?.duration == 0.25 && a?.fromValue == nil && a?.toValue == nil)
        CATransaction.begin()
        CATransaction.setAnimationDuration(2)
        CATransaction.setAnimationTimingFunction(CAMediaTimingFunction(name: .easeIn))
        let b = l.action(forKey: "bounds") as? CABasicAnimation
        #expect(b?.duration == 2 && b?.timingFunction != nil)
        CATransaction.commit()
        #expect(l.action(forKey: "hidden") is CATransition)
        #expect(l.action(forKey: "onOrderIn") == nil)
    }

    @Test("J4: a property change runs the found action with the property name")
    func j4RunsAction() {
        defer { CAMediaClock.unfreeze() }
        let l = TT.layer(at: 0)
        let r = RecordingAction()
        l.actions = ["opacity": r]
        l.opacity = 0.5
        CATransaction.flush()
        #expect(r.runs == ["opacity"])
        #expect(l.animationKeys() == nil)
    }

    @Test("J5: no implicit animation with disableActions (the value still changes) or before the first commit")
    func j5NoAnimation() {
        defer { CAMediaClock.unfreeze() }
        CAMediaClock.freeze(at: 0)
        let fresh = CALayer()
        fresh.opacity = 0.5
        CATransaction.flush()
        #expect(fresh.animationKeys() == nil)
        let l = TT.layer(at: 0)
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        l.opacity = 0.3
        CATransaction.commit()
        #expect(l.animationKeys() == nil)
        #expect(l.opacity == 0.3 && l.presentation()!.opacity == 0.3)
        l.isHidden = true
        CATransaction.flush()
        #expect(l.animationKeys() == ["transition"])
    }
}
}
