import Testing
import Foundation
import CATestSupport

/// Issue 23: the CPU backend clears its main target only where the last frame drew, when it
/// clears to the colour that frame cleared to (elsewhere the texels still hold it). Every frame
/// of a moving scene must then be the frame a fresh renderer draws at that time.
@Suite struct DirtyClearTests {
    /// Layers that move, shrink, appear and disappear: a shadowed box, a shape, a gradient, a
    /// masked group (an offscreen pass composited in) and one layer shown only early on.
    static func scene() -> CALayer {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 160, height: 120)
        func move(_ l: CALayer, _ key: String, _ from: Any, _ to: Any) {
            let a = CABasicAnimation(keyPath: key)
            a.fromValue = from
            a.toValue = to
            a.duration = 1
            l.add(a, forKey: key)
        }
        let box = CALayer()
        box.frame = CGRect(x: 10, y: 10, width: 40, height: 30)
        box.backgroundColor = solid(0.9, 0.2, 0.2, 0.8)
        box.cornerRadius = 6
        box.shadowOpacity = 0.6
        box.shadowRadius = 4
        box.shadowOffset = CGSize(width: 3, height: 3)
        move(box, "position", CGPoint(x: 30, y: 25), CGPoint(x: 120, y: 90))
        root.addSublayer(box)
        let shape = CAShapeLayer()
        shape.frame = CGRect(x: 60, y: 20, width: 80, height: 80)
        shape.path = CGPath(ellipseIn: CGRect(x: 5, y: 5, width: 70, height: 70), transform: nil)
        shape.fillColor = solid(0.1, 0.6, 0.9, 0.7)
        shape.strokeColor = solid(0, 0, 0, 1)
        shape.lineWidth = 3
        move(shape, "transform.scale", 1.2, 0.3)
        root.addSublayer(shape)
        let gradient = CAGradientLayer()
        gradient.frame = CGRect(x: 0, y: 80, width: 70, height: 40)
        gradient.colors = [solid(1, 1, 0, 1), solid(0, 1, 0, 0.5)]
        move(gradient, "bounds.size.width", 70, 10)
        root.addSublayer(gradient)
        let group = CALayer()
        group.frame = CGRect(x: 90, y: 0, width: 70, height: 60)
        group.backgroundColor = solid(0.5, 0.2, 0.8, 1)
        let mask = CALayer()
        mask.frame = CGRect(x: 10, y: 10, width: 40, height: 30)
        mask.backgroundColor = solid(0, 0, 0, 1)
        mask.cornerRadius = 10
        group.mask = mask
        move(group, "position", CGPoint(x: 125, y: 30), CGPoint(x: 40, y: 60))
        root.addSublayer(group)
        let early = CALayer()
        early.frame = CGRect(x: 0, y: 0, width: 50, height: 50)
        early.backgroundColor = solid(0.2, 0.9, 0.3, 1)
        move(early, "opacity", 1, -1)
        root.addSublayer(early)
        return root
    }

    @Test("each frame drawn after the last equals the frame drawn alone", arguments: [CGColor?.none, CGColor(red: 1, green: 1, blue: 1, alpha: 1)])
    func framesEqualFreshFrames(_ clear: CGColor?) throws {
        let root = Self.scene()
        let size = CGSize(width: 160, height: 120)
        let r = try CARenderer(offscreenSize: size, scale: 1, options: .init(backend: .software))
        r.clearColor = clear
        r.layer = root
        for t in [0.0, 0.2, 0.45, 0.7, 0.95, 0.3] {
            let drawn = try RenderHarness.frame(r, at: t)
            let fresh = try CARenderer(offscreenSize: size, scale: 1, options: .init(backend: .software))
            fresh.clearColor = clear
            fresh.layer = root
            let alone = try RenderHarness.frame(fresh, at: t)
            let a = drawn.rgba8Bytes, b = alone.rgba8Bytes
            let differing = a.count == b.count ? zip(a, b).filter { $0 != $1 }.count : -1
            #expect(differing == 0, "t = \(t): \(differing) bytes differ from the frame drawn alone")
        }
    }
}
