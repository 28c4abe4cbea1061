import Testing
@testable import CoreAnimation

final class TaggedLayer: CALayer {}

extension PinnedClock { @Suite struct LPresentationTests {
    @Test("L1: nil before the first commit (flush), non-nil after; shows the committed state")
    func l1NilBeforeCommit() {
        defer { CAMediaClock.unfreeze() }
        CAMediaClock.freeze(at: 0)
        let l = CALayer()
        #expect(l.presentation() == nil)
        l.opacity = 0.4
        #expect(l.presentation() == nil)
        CATransaction.flush()
        #expect(l.presentation()?.opacity == 0.4)
        CATransaction.begin(); CATransaction.setDisableActions(true)
        l.opacity = 0.9
        #expect(l.presentation()?.opacity == 0.4)      // as at the start of the transaction
        CATransaction.commit()
        #expect(l.presentation()?.opacity == 0.9)
    }

    @Test("L2: model of a model is itself; presentation().model() === layer; presentation of a presentation is itself")
    func l2Identity() {
        defer { CAMediaClock.unfreeze() }
        let l = TT.layer(at: 0)
        #expect(l.model() === l)
        let p = l.presentation()!
        #expect(p.model() === l)
        #expect(p.presentation() === p)
        TT.run(TT.clockAnim(1), on: l)
        CAMediaClock.freeze(at: 0.5)
        #expect(l.presentation()!.model() === l)
    }

    @Test("L3: model reads the final value at once; presentation advances 52.5 pt per 0.35 s at 150 pt/s")
    func l3ModelVsPresentation() {
        defer { CAMediaClock.unfreeze() }
        let l = TT.layer(at: 0)
        CATransaction.begin()
        CATransaction.setAnimationDuration(2)
        l.position = CGPoint(x: 300, y: 0)
        CATransaction.commit()
        #expect(l.position.x == 300)
        CAMediaClock.freeze(at: 0.35)
        #expect(TT.near(l.presentation()!.position.x, 52.5))
        CAMediaClock.freeze(at: 0.7)
        #expect(TT.near(l.presentation()!.position.x, 105))
    }

    @Test("L4: the presentation of a subclass has the subclass's type")
    func l4SubclassPresentation() {
        defer { CAMediaClock.unfreeze() }
        CAMediaClock.freeze(at: 0)
        let l = TaggedLayer()
        CATransaction.flush()
        #expect(type(of: l.presentation()!) == TaggedLayer.self)
        TT.run(TT.clockAnim(1), on: l)
        CAMediaClock.freeze(at: 0.5)
        #expect(type(of: l.presentation()!) == TaggedLayer.self)
    }
}
}
