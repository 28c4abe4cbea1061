import XCTest
import QuartzCore

/// The documentation's Swift examples, run as written: README.md's "Example" and the DocC
/// article Sources/QuartzCore/QuartzCore.docc/GettingStarted.md. If these fail, the documents are
/// lying to their readers; when an example changes there, change it here too.
///
/// XCTest rather than Swift Testing on purpose: `swift test` then reports a non-zero XCTest
/// count as well as Swift Testing's, so a CI that reads either summary sees tests executed.
final class ReadmeExampleTests: XCTestCase {
    override func tearDown() {
        CAMediaClock.unfreeze()
        super.tearDown()
    }

    /// GettingStarted.md, "Animate it": an implicit position change is a 0.25-s animation; half
    /// way through, the presentation is half way, (100, 0) (docs/BEHAVIOUR.md E7, B6 for the
    /// default timing).
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

    /// README.md, "Example": a layer tree, an animation and 30 frames rendered headless to PNG
    /// files (here into a temporary folder instead of the current one). The frames exist, have
    /// the size asked for, and show the box sliding: at the start, half way and at the end it is
    /// where the animation puts it. The same time gives the same bytes.
    func testReadmeExampleRendersFramesToPNG() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("readme-example-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        func url(_ name: String) -> URL { dir.appendingPathComponent(name) }

        // --- as in README.md ---
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 320, height: 180)
        root.backgroundColor = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
        let box = CALayer()
        box.frame = CGRect(x: 20, y: 60, width: 60, height: 60)
        box.backgroundColor = CGColor(red: 0.9, green: 0.2, blue: 0.2, alpha: 1)
        box.cornerRadius = 12
        root.addSublayer(box)

        let slide = CABasicAnimation(keyPath: "position.x")
        slide.fromValue = 50
        slide.toValue = 270
        slide.duration = 1
        box.add(slide, forKey: "slide")

        let renderer = try CARenderer(offscreenSize: root.bounds.size, scale: 2)
        renderer.layer = root
        for frame in 0..<30 {
            renderer.beginFrame(atTime: Double(frame) / 30)   // commits, steps animations to that time
            renderer.render()
            renderer.endFrame()
            try renderer.makeImage().pngData()!.write(to: url("frame-\(frame).png"))
        }
        // --- end of the README's code ---

        XCTAssertGreaterThan(renderer.statistics.drawCalls, 0)
        var images: [CGImage] = []
        for frame in 0..<30 {
            let image = try CGImage(contentsOfPNGFile: url("frame-\(frame).png").path)
            XCTAssertEqual(image.width, 640)
            XCTAssertEqual(image.height, 360)
            images.append(image)
        }
        // The box's centre row (y = 90 points, 180 pixels): red where the box is, white elsewhere.
        func isRed(_ image: CGImage, x: Int) -> Bool {
            let bytes = image.rgba8Bytes
            let i = 180 * image.bytesPerRow + x * 4
            return bytes[i] > 200 && bytes[i + 1] < 100
        }
        // Frame 0: centre at 50 points (pixels 40…160); frame 15 (0.5 s): centre at 160
        // (pixels 260…380); frame 29: centre near 262.7 (pixels about 465…585).
        XCTAssertTrue(isRed(images[0], x: 100))
        XCTAssertFalse(isRed(images[0], x: 320))
        XCTAssertTrue(isRed(images[15], x: 320))
        XCTAssertFalse(isRed(images[15], x: 100))
        XCTAssertTrue(isRed(images[29], x: 525))
        XCTAssertFalse(isRed(images[29], x: 320))

        // Rendering frame 15's time again gives the same bytes.
        renderer.beginFrame(atTime: 15.0 / 30)
        renderer.render()
        renderer.endFrame()
        XCTAssertEqual(try renderer.makeImage().pngData(), try Data(contentsOf: url("frame-15.png")))
    }
}
