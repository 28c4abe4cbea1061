import Testing
import Foundation

/// Opaque planes of a `CATransformLayer` (issue 21: "opaque ones use the depth buffer"; docs/BEHAVIOUR.md
/// N8): under perspective their opaque interiors go into the depth pre-pass like flat opaque
/// boxes, so the planes drawn behind them are not shaded there; translucent planes and the
/// antialiased edges are drawn after, in depth order. The pixels are those of the plain painter's
/// order (the pre-pass off).
@Suite struct TransformLayerDepthTests {
    /// Perspective (m34 = −1/400) over a transform layer with a red 60×60 plane at (20, 20) and,
    /// in front of it (z = +40, turned `angle` about y), a blue 40×40 plane at (30, 30).
    func stack(angle: CGFloat, blueAlpha: CGFloat = 1) -> CALayer {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
        root.sublayerTransform.m34 = -1 / 400
        let t = CATransformLayer()
        t.frame = root.bounds
        let red = CALayer()
        red.frame = CGRect(x: 20, y: 20, width: 60, height: 60)
        red.backgroundColor = solid(1, 0, 0)
        red.transform = CATransform3DMakeRotation(0.2, 0, 1, 0)
        let blue = CALayer()
        blue.frame = CGRect(x: 30, y: 30, width: 40, height: 40)
        blue.backgroundColor = solid(0, 0, 1, blueAlpha)
        blue.transform = CATransform3DConcat(CATransform3DMakeRotation(angle, 0, 1, 0), CATransform3DMakeTranslation(0, 0, 40))
        // Blue first in the array: depth, not the array, puts it in front.
        t.addSublayer(blue)
        t.addSublayer(red)
        root.addSublayer(t)
        return root
    }

    func render(_ root: CALayer, prepass: Bool) throws -> (CGImage, RenderStats) {
        var options = try CARenderer.Options(environment: [:])
        options.backend = .openGL   // the depth pre-pass is the GL backend's
        options.usesDepthPrepass = prepass
        let r = try CARenderer(offscreenSize: CGSize(width: 100, height: 100), options: options)
        r.clearColor = solid(1, 1, 1)
        r.layer = root
        let img = try RenderHarness.frame(r, at: 0)
        return (img, r.statistics)
    }

    func differing(_ a: CGImage, _ b: CGImage) -> Int {
        var n = 0
        for y in 0..<100 { for x in 0..<100 where a.rgba(x, y) != b.rgba(x, y) { n += 1 } }
        return n
    }

    @Test("N8: opaque planes under perspective go into the depth pre-pass; the pixels equal the painter's order")
    func opaquePlanesUseDepth() throws {
        let (img, stats) = try render(stack(angle: 0.3), prepass: true)
        #expect(stats.opaqueInteriors == 2, "both opaque planes' interiors drawn into depth: \(stats)")
        let (plain, plainStats) = try render(stack(angle: 0.3), prepass: false)
        #expect(plainStats.opaqueInteriors == 0)
        #expect(differing(img, plain) == 0)
        // Blue in front at the centre, red around it, white outside.
        #expect(img.rgba(50, 50).isClose(to: RGBA(0, 0, 255)), "\(img.rgba(50, 50))")
        #expect(img.rgba(50, 24).isClose(to: RGBA(255, 0, 0)), "\(img.rgba(50, 24))")
        #expect(img.rgba(5, 5) == RGBA(255, 255, 255))
    }

    @Test("N8: a translucent plane in front is drawn after the opaque one behind it, blended over it")
    func translucentPlaneBlendsOverOpaque() throws {
        let (img, stats) = try render(stack(angle: 0.3, blueAlpha: 0.5), prepass: true)
        #expect(stats.opaqueInteriors == 1, "only the opaque red plane: \(stats)")
        // Blue at 0.5 over red: (127.5, 0, 127.5).
        #expect(img.rgba(50, 50).isClose(to: RGBA(128, 0, 128)), "\(img.rgba(50, 50))")
        let (plain, _) = try render(stack(angle: 0.3, blueAlpha: 0.5), prepass: false)
        #expect(differing(img, plain) == 0)
    }

    @Test("N8: intersecting opaque planes: each in front on its own side, the same with and without the depth pre-pass")
    func intersectingOpaquePlanes() throws {
        // Red facing the viewer; blue over the same square turned 0.8 rad about y through its
        // centre: the planes cross along x = 50 (split as docs/BEHAVIOUR.md N8 says).
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
        root.sublayerTransform.m34 = -1 / 400
        let t = CATransformLayer()
        t.frame = root.bounds
        for (i, color) in [solid(1, 0, 0), solid(0, 0, 1)].enumerated() {
            let p = CALayer()
            p.frame = CGRect(x: 20, y: 20, width: 60, height: 60)
            p.backgroundColor = color
            if i == 1 { p.transform = CATransform3DMakeRotation(0.8, 0, 1, 0) }
            t.addSublayer(p)
        }
        root.addSublayer(t)
        let (img, _) = try render(root, prepass: true)
        let (plain, _) = try render(root, prepass: false)
        #expect(differing(img, plain) == 0)
        // As LayerClassRenderingTests.intersectingPlanesSplit derives: blue in front left of the
        // centre line x = 50, red right of it.
        for y in [30, 50, 70] {
            #expect(img.rgba(35, y).isClose(to: RGBA(0, 0, 255)), "y \(y): \(img.rgba(35, y))")
            #expect(img.rgba(65, y).isClose(to: RGBA(255, 0, 0)), "y \(y): \(img.rgba(65, y))")
        }
    }
}
