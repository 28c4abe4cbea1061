import Testing
@testable import CoreAnimation

extension PinnedClock { @Suite struct SmokeTests {
    @Test("smoke: basic animation through engine") func smoke() {
        CAMediaClock.freeze(at: 100)
        defer { CAMediaClock.unfreeze() }
        let l = CALayer()
        #expect(l.presentation() == nil)
        CATransaction.flush()
        #expect(l.presentation() != nil)
        let a = CABasicAnimation(keyPath: "opacity")
        a.fromValue = 0; a.toValue = 1; a.duration = 1
        l.add(a, forKey: "fade")
        CATransaction.flush()
        CAMediaClock.advance(by: 0.5)
        #expect(abs(Double(l.presentation()!.opacity) - 0.5) < 1e-9)
        l.position = CGPoint(x: 100, y: 0)
        CATransaction.flush()
        #expect(l.animationKeys() == ["fade", "position"])
        CAMediaClock.advance(by: 0.125)
        print(l.presentation()!.position, l.presentation()!.opacity)
        CAMediaClock.advance(by: 2)
        #expect(l.animationKeys() == nil)
        #expect(l.presentation()!.position.x == 100)
        l.setValue(1.0, forKeyPath: "transform.rotation.z")
        #expect(abs((l.value(forKeyPath: "transform.rotation.z") as! CGFloat) - 1) < 1e-9)
    }
}
}
