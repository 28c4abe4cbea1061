import XCTest
import QuartzCore

/// The README's "Use" section, run as written: if these fail, the README is lying to its readers.
///
/// XCTest rather than Swift Testing on purpose: `swift test` then reports a non-zero XCTest
/// count as well as Swift Testing's, so a CI that reads either summary sees tests executed.
final class ReadmeExampleTests: XCTestCase {
    override func tearDown() {
        CAMediaClock.unfreeze()
        super.tearDown()
    }

    /// README: an implicit position change is a 0.25-s animation; half way through, the
    /// presentation is half way, (100, 0) (docs/BEHAVIOUR.md E7, B6 for the default timing).
    func testImplicitAnimationHalfWay() throws {
        let layer = CALayer()
        layer.bounds = CGRect(x: 0, y: 0, width: 100, height: 100)
        CATransaction.flush()

        CAMediaClock.freeze(at: 0)
        layer.position = CGPoint(x: 200, y: 0)
        CATransaction.flush()
        CAMediaClock.advance(by: 0.125)
        let p = try XCTUnwrap(layer.presentation()).position
        XCTAssertEqual(p.x, 100, accuracy: 1e-9)
        XCTAssertEqual(p.y, 0, accuracy: 1e-9)
        XCTAssertEqual(layer.animationKeys(), ["position"])

        let spin = CABasicAnimation(keyPath: "transform.rotation.z")
        spin.byValue = CGFloat.pi * 2
        spin.duration = 1
        spin.repeatCount = .infinity
        layer.add(spin, forKey: "spin")
        XCTAssertEqual(layer.animationKeys(), ["position", "spin"])
    }

    /// README: CARenderer renders headless at `scale`, frame by frame, to PNG; the same tree at
    /// two times gives two different frames, and the same time gives the same bytes.
    func testOffscreenRendererLoop() throws {
        let root = CALayer()
        root.bounds = CGRect(x: 0, y: 0, width: 64, height: 36)
        root.backgroundColor = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
        let box = CALayer()
        box.frame = CGRect(x: 0, y: 8, width: 16, height: 16)
        box.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        root.addSublayer(box)
        let move = CABasicAnimation(keyPath: "position.x")
        move.fromValue = 8
        move.toValue = 56
        move.duration = 1
        move.beginTime = 1e-9   // not 0: keeps the pinned begin time independent of the commit time
        box.add(move, forKey: "move")

        let renderer = try CARenderer(offscreenSize: CGSize(width: 64, height: 36), scale: 2)
        renderer.layer = root
        var pngs: [Data] = []
        for t in [0.0, 0.5, 0.0] {
            renderer.beginFrame(atTime: t)
            renderer.render()
            renderer.endFrame()
            let image = try renderer.makeImage()
            XCTAssertEqual(image.width, 128)
            XCTAssertEqual(image.height, 72)
            pngs.append(try XCTUnwrap(image.pngData()))
        }
        XCTAssertNotEqual(pngs[0], pngs[1], "an animation must move between t = 0 and t = 0.5")
        XCTAssertEqual(pngs[0], pngs[2], "the same time must give the same bytes")
        XCTAssertGreaterThan(renderer.statistics.drawCalls, 0)
        let decoded = try XCTUnwrap(CGImage(pngData: pngs[1]))
        XCTAssertEqual(decoded.width, 128)
    }
}
