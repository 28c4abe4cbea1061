import Testing
@testable import CoreAnimation

extension PinnedClock { @Suite struct DAddRemoveTests {
    @Test("D1: add copies the animation; mutating the original has no effect")
    func d1Copies() {
        defer { CAMediaClock.unfreeze() }
        let l = TT.layer(at: 0)
        let a = TT.clockAnim(2)
        l.add(a, forKey: "a")
        a.toValue = 100.0; a.duration = 50; a.speed = 10
        CATransaction.flush()
        #expect(l.animation(forKey: "a") !== a)
        #expect(l.animation(forKey: "a")!.duration == 2)
        #expect(TT.near(TT.z(l, at: 1), 1))
    }

    @Test("D2: duration ≤ 0 becomes the transaction's animationDuration, else 0.25")
    func d2DefaultDuration() {
        defer { CAMediaClock.unfreeze() }
        let l = TT.layer(at: 0)
        let a = CABasicAnimation(keyPath: "zPosition")
        a.fromValue = 0.0; a.toValue = 1.0
        l.add(a, forKey: "zero")
        let n = CABasicAnimation(keyPath: "zPosition")
        n.duration = -3
        l.add(n, forKey: "negative")
        CATransaction.begin()
        CATransaction.setAnimationDuration(2)
        l.add(a, forKey: "inTransaction")
        CATransaction.commit()
        CATransaction.flush()
        #expect(l.animation(forKey: "zero")!.duration == 0.25)
        #expect(l.animation(forKey: "negative")!.duration == 0.25)
        #expect(l.animation(forKey: "inTransaction")!.duration == 2)
        #expect(a.duration == 0)
    }

    @Test("D3: same key replaces; the replaced animation stops with finished false")
    func d3Replace() {
        defer { CAMediaClock.unfreeze() }
        let l = TT.layer(at: 0)
        let d1 = RecordingDelegate("1"), d2 = RecordingDelegate("2")
        let a = TT.clockAnim(2); a.delegate = d1
        TT.run(a, on: l, key: "k")
        CAMediaClock.advance(by: 0.5)
        #expect(d1.events == ["1start"])
        let b = CABasicAnimation(keyPath: "zPosition")
        b.fromValue = 10.0; b.toValue = 20.0; b.duration = 1; b.delegate = d2
        TT.run(b, on: l, key: "k")
        #expect(l.animationKeys() == ["k"])
        CAMediaClock.advance(by: 0.5)
        #expect(d1.events == ["1start", "1stop:false"])
        #expect(TT.near(Double(l.presentation()!.zPosition), 15))
        CAMediaClock.advance(by: 0.5)
        #expect(d2.events == ["2start", "2stop:true"])
        #expect(d1.events == ["1start", "1stop:false"])
    }

    @Test("D3: key nil is allowed; transitions use the key \"transition\"")
    func d3NilKeyAndTransition() {
        defer { CAMediaClock.unfreeze() }
        let l = TT.layer(at: 0)
        TT.run(TT.clockAnim(2), on: l, key: nil)
        #expect(l.animationKeys() == nil)
        #expect(TT.near(TT.z(l, at: 0.5), 0.5))
        l.add(CATransition(), forKey: "custom")
        #expect(l.animationKeys() == ["transition"])
        #expect(l.animation(forKey: "transition") is CATransition)
        #expect(l.animation(forKey: "custom") == nil)
    }

    @Test("D4: animationKeys lists explicit animations; removeAllAnimations is idempotent")
    func d4Keys() {
        defer { CAMediaClock.unfreeze() }
        let l = TT.layer(at: 0)
        l.add(TT.clockAnim(1), forKey: "one")
        l.add(TT.clockAnim(1), forKey: "two")
        #expect(l.animationKeys()?.count == 2)
        l.removeAnimation(forKey: "one")
        #expect(l.animationKeys() == ["two"])
        l.removeAllAnimations()
        #expect(l.animationKeys() == nil)
        l.removeAllAnimations()
        #expect(l.animationKeys() == nil)
        CATransaction.flush()
    }

    @Test("D5: the model is unchanged by add; after removal the presentation snaps back to the model")
    func d5JumpBack() {
        defer { CAMediaClock.unfreeze() }
        let l = TT.layer(at: 0) { $0.zPosition = 7 }
        TT.run(TT.clockAnim(2), on: l)
        #expect(l.zPosition == 7)
        #expect(TT.near(TT.z(l, at: 1.5), 1.5))
        #expect(l.zPosition == 7)
        #expect(TT.z(l, at: 2.5) == 7)
        let b = TT.clockAnim(2)
        TT.run(b, on: l, key: "b")
        #expect(TT.near(TT.z(l, at: 3.5), 1))
        l.removeAnimation(forKey: "b")
        CATransaction.flush()
        #expect(TT.z(l, at: 3.5) == 7)
    }

    @Test("Delegate callbacks arrive in time order; removedOnCompletion false keeps the animation")
    func delegateOrder() {
        defer { CAMediaClock.unfreeze() }
        // One big step: start(a) 0, start(b) 0.25, stop(b) 0.75, stop(a) 1.
        var order: [String] = []
        final class Shared: CAAnimationDelegate, @unchecked Sendable {
            var log: [String] = []
            let name: String; let sink: (String) -> Void
            init(_ n: String, _ sink: @escaping (String) -> Void) { name = n; self.sink = sink }
            func animationDidStart(_ anim: CAAnimation) { sink("\(name)start") }
            func animationDidStop(_ anim: CAAnimation, finished flag: Bool) { sink("\(name)stop:\(flag)") }
        }
        let l2 = TT.layer(at: 10) { $0.zPosition = -1 }
        let a2 = TT.clockAnim(1); a2.delegate = Shared("a") { order.append($0) }
        let b2 = TT.clockAnim(0.5); b2.beginTime = 10.25; b2.delegate = Shared("b") { order.append($0) }
        let c2 = TT.clockAnim(0.5); c2.isRemovedOnCompletion = false; c2.fillMode = .forwards
        l2.add(a2, forKey: "a"); l2.add(b2, forKey: "b"); l2.add(c2, forKey: "c")
        CATransaction.flush()
        CAMediaClock.freeze(at: 12)
        #expect(order == ["astart", "bstart", "bstop:true", "astop:true"])
        #expect(l2.animationKeys() == ["c"])
        #expect(TT.near(Double(l2.presentation()!.zPosition), 0.5))
    }
}
}
