import Testing
@testable import CoreAnimation

final class Box<T>: @unchecked Sendable { var value: T; init(_ v: T) { value = v } }

extension PinnedClock { @Suite struct KTransactionTests {
    @Test("K1: defaults 0.25 / false; nested commit restores the enclosing values; arbitrary keys")
    func k1Defaults() {
        #expect(CATransaction.animationDuration() == 0.25)
        #expect(CATransaction.disableActions() == false)
        CATransaction.begin()
        CATransaction.setAnimationDuration(1)
        CATransaction.setValue("x", forKey: "myKey")
        #expect(CATransaction.value(forKey: "myKey") as? String == "x")
        CATransaction.begin()
        #expect(CATransaction.animationDuration() == 1)   // inherited (K2, code's choice)
        CATransaction.setAnimationDuration(2)
        CATransaction.setDisableActions(true)
        #expect(CATransaction.animationDuration() == 2 && CATransaction.disableActions())
        CATransaction.commit()
        #expect(CATransaction.animationDuration() == 1 && !CATransaction.disableActions())
        CATransaction.commit()
        #expect(CATransaction.animationDuration() == 0.25)
    }

    @Test("K2: nothing reaches the render tree until the outermost commit")
    func k2Nesting() {
        defer { CAMediaClock.unfreeze() }
        let l = TT.layer(at: 0)
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        CATransaction.begin()
        l.opacity = 0.5
        CATransaction.commit()
        #expect(l.presentation()!.opacity == 1)
        CATransaction.commit()
        #expect(l.presentation()!.opacity == 0.5)
    }

    @Test("K3: commit without begin, flush, lock/unlock don't crash")
    func k3NoRaise() {
        CATransaction.commit()
        CATransaction.flush()
        CATransaction.lock(); CATransaction.unlock()
        #expect(CATransaction.animationDuration() == 0.25)
    }

    @Test("K4: with no animations the block runs at the next frame step, not inside commit, once; both blocks run")
    func k4NoAnimations() {
        // An implicit transaction an earlier test left open on this thread would enclose this
        // one (its commit would then not be the outermost): commit it first.
        CATransaction.flush()
        defer { CAMediaClock.unfreeze() }
        CAMediaClock.freeze(at: 0)
        let n = Box(0), m = Box(0)
        CATransaction.begin()
        CATransaction.setCompletionBlock { n.value += 1 }
        CATransaction.setCompletionBlock { m.value += 1 }
        CATransaction.begin()
        #expect(CATransaction.completionBlock() != nil)   // nested reads the outer block
        CATransaction.commit()
        CAMediaClock.advance(by: 0)
        #expect(n.value == 0)                            // still open: never runs
        CATransaction.commit()
        #expect(n.value == 0 && m.value == 0)
        #expect(CATransaction.completionBlock() == nil)
        CAMediaClock.advance(by: 0)
        #expect(n.value == 1 && m.value == 1)
        CAMediaClock.advance(by: 1)
        #expect(n.value == 1 && m.value == 1)
    }

    @Test("K4: with 0.5-s and 1.0-s animations the block runs when the last one finishes (≈ 1.0 s)")
    func k4WithAnimations() {
        // An implicit transaction an earlier test left open on this thread would enclose this
        // one (its commit would then not be the outermost): commit it first.
        CATransaction.flush()
        defer { CAMediaClock.unfreeze() }
        let l = TT.layer(at: 0)
        let at = Box<Double?>(nil)
        CATransaction.begin()
        CATransaction.setCompletionBlock { at.value = CACurrentMediaTime() }
        l.add(TT.clockAnim(0.5), forKey: "short")
        CATransaction.begin()
        l.add(TT.clockAnim(1.0), forKey: "long")   // nested transaction counts too
        CATransaction.commit()
        CATransaction.commit()
        CAMediaClock.freeze(at: 0.6)
        #expect(at.value == nil)
        CAMediaClock.freeze(at: 0.99)
        #expect(at.value == nil)
        CAMediaClock.freeze(at: 1.01)
        #expect(at.value != nil && TT.near(at.value!, 1.01, 0.02))
    }

    @Test("K4: removing the animations counts as completion")
    func k4Removed() {
        // An implicit transaction an earlier test left open on this thread would enclose this
        // one (its commit would then not be the outermost): commit it first.
        CATransaction.flush()
        defer { CAMediaClock.unfreeze() }
        let l = TT.layer(at: 0)
        let ran = Box(0)
        CATransaction.begin()
        CATransaction.setCompletionBlock { ran.value += 1 }
        l.add(TT.clockAnim(5), forKey: "a")
        CATransaction.commit()
        CAMediaClock.advance(by: 1)
        #expect(ran.value == 0)
        l.removeAllAnimations()
        CATransaction.flush()
        CAMediaClock.advance(by: 0.01)
        #expect(ran.value == 1)
    }

    @Test("K5: the transaction stack is per thread")
    func k5PerThread() {
        CATransaction.begin()
        CATransaction.setAnimationDuration(3)
        let seen = Box<Double>(0)
        let done = DispatchSemaphore(value: 0)
        let t = Thread {
            seen.value = CATransaction.animationDuration()
            CATransaction.begin(); CATransaction.setAnimationDuration(7); CATransaction.commit()
            done.signal()
        }
        t.start()
        done.wait()
        #expect(seen.value == 0.25)
        #expect(CATransaction.animationDuration() == 3)
        CATransaction.commit()
    }
}
}
