import Testing
import Foundation

/// A rasterised layer that moves keeps its bitmap (docs/BEHAVIOUR.md N9): Apple renders it "as a
/// bitmap in its local coordinate space and then composited to the destination"
/// (CALayer.shouldRasterize), so moving the layer composites the same bitmap elsewhere.
@Suite struct RasterPlacementTests {
    /// A 40×40 white layer at (10, 10) (position (30, 30)) with black one-point stripes at even x
    /// as sublayers, in a 100×60 root.
    func stripes(rasterize: Bool, positionX: CGFloat = 30) -> (CALayer, CALayer) {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 100, height: 60)
        let l = CALayer()
        l.bounds = CGRect(x: 0, y: 0, width: 40, height: 40)
        l.position = CGPoint(x: positionX, y: 30)
        l.backgroundColor = solid(1, 1, 1)
        for k in 0..<20 {
            let s = CALayer()
            s.frame = CGRect(x: 2 * k, y: 0, width: 1, height: 40)
            s.backgroundColor = solid(0, 0, 0)
            l.addSublayer(s)
        }
        l.shouldRasterize = rasterize
        root.addSublayer(l)
        return (root, l)
    }

    func renderer(_ root: CALayer) throws -> CARenderer {
        let r = try CARenderer(offscreenSize: CGSize(width: 100, height: 60), scale: 1, options: .init(backend: .openGL))
        r.clearColor = solid(1, 1, 1)
        r.layer = root
        return r
    }

    /// The largest difference of any channel between `a` and `b` over the rectangle.
    func maxDifference(_ a: CGImage, _ b: CGImage, xs: Range<Int>, ys: Range<Int>) -> Int {
        var m = 0
        for y in ys {
            for x in xs {
                let p = a.rgba(x, y), q = b.rgba(x, y)
                m = max(m, abs(p.r - q.r), abs(p.g - q.g), abs(p.b - q.b), abs(p.a - q.a))
            }
        }
        return m
    }

    @Test("N9: a rasterised layer whose position animates is drawn once; later frames composite the kept bitmap moved (rasterCacheHits)")
    func movingLayerReusesBitmap() throws {
        let (root, l) = stripes(rasterize: true)
        // position.x 30 → 50 over 2 s, linear: 40 at t = 1 (10 px right), 32.5 at t = 0.25.
        l.add(basic("position.x", from: 30.0, to: 50.0, duration: 2), forKey: "move")
        let r = try renderer(root)
        _ = try RenderHarness.frame(r, at: 0)
        #expect(r.statistics.rasterCacheMisses == 1 && r.statistics.rasterCacheHits == 0, "\(r.statistics)")
        let moved = try RenderHarness.frame(r, at: 1)
        #expect(r.statistics.rasterCacheHits == 1 && r.statistics.rasterCacheMisses == 0, "\(r.statistics)")
        // A whole-pixel move: exactly the plain layer drawn at position.x 40 (x 20…60).
        let plain = try RenderHarness.render(stripes(rasterize: false, positionX: 40).0, size: CGSize(width: 100, height: 60))
        #expect(maxDifference(moved, plain, xs: 0..<100, ys: 0..<60) == 0)
        #expect(moved.rgba(20, 30).isClose(to: RGBA(0, 0, 0)) && moved.rgba(21, 30).isClose(to: RGBA(255, 255, 255)))
        // Half a pixel: the bitmap is resampled between its texels, so each pixel is half a
        // black stripe and half white (about 128), as the plain layer's exact coverage is.
        let half = try RenderHarness.frame(r, at: 0.25)
        #expect(r.statistics.rasterCacheHits == 1 && r.statistics.rasterCacheMisses == 0, "\(r.statistics)")
        let plainHalf = try RenderHarness.render(stripes(rasterize: false, positionX: 32.5).0, size: CGSize(width: 100, height: 60))
        for x in 14..<50 { #expect(half.rgba(x, 30).isClose(to: RGBA(128, 128, 128), tolerance: 2), "x \(x): \(half.rgba(x, 30))") }
        #expect(maxDifference(half, plainHalf, xs: 14..<50, ys: 11..<49) <= 2)
    }

    @Test("N9: a change inside a moving rasterised layer still redraws it, at the right place")
    func changeInsideMovingLayerRedraws() throws {
        let (root, l) = stripes(rasterize: true)
        l.add(basic("position.x", from: 30.0, to: 50.0, duration: 2), forKey: "move")
        let r = try renderer(root)
        _ = try RenderHarness.frame(r, at: 0)
        _ = try RenderHarness.frame(r, at: 0.5)
        #expect(r.statistics.rasterCacheHits == 1, "\(r.statistics)")
        // The first stripe turns red; at t = 1.5 the layer's left edge is at x 25.
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        l.sublayers![0].backgroundColor = solid(1, 0, 0)
        CATransaction.commit()
        let changed = try RenderHarness.frame(r, at: 1.5)
        #expect(r.statistics.rasterCacheMisses == 1 && r.statistics.rasterCacheHits == 0, "\(r.statistics)")
        #expect(changed.rgba(25, 30).isClose(to: RGBA(255, 0, 0)), "\(changed.rgba(25, 30))")
        #expect(changed.rgba(26, 30).isClose(to: RGBA(255, 255, 255)) && changed.rgba(27, 30).isClose(to: RGBA(0, 0, 0)))
        // Static again inside: the next frames reuse the new bitmap while it keeps moving.
        _ = try RenderHarness.frame(r, at: 1.6)
        let later = try RenderHarness.frame(r, at: 1.8)
        #expect(r.statistics.rasterCacheHits == 1 && r.statistics.rasterCacheMisses == 0, "\(r.statistics)")
        // position.x 48 at t = 1.8: left edge at x 28.
        #expect(later.rgba(28, 30).isClose(to: RGBA(255, 0, 0), tolerance: 3), "\(later.rgba(28, 30))")
    }

    @Test("N9: turning a rasterised layer redraws its bitmap (not reproduced: Apple reuses it; documented in DIFFERENCES.md)")
    func turningLayerRedraws() throws {
        let (root, l) = stripes(rasterize: true)
        l.add(basic("transform.rotation.z", from: 0.0, to: 1.0, duration: 2), forKey: "turn")
        let r = try renderer(root)
        _ = try RenderHarness.frame(r, at: 0)
        _ = try RenderHarness.frame(r, at: 1)
        #expect(r.statistics.rasterCacheMisses == 1 && r.statistics.rasterCacheHits == 0, "\(r.statistics)")
    }

    @Test("N9: a moving rasterised layer whose subtree was cut by the frame's edge is drawn in place (nothing missing)")
    func enteringFromOffscreenRedrawsInPlace() throws {
        let (root, l) = stripes(rasterize: true)
        // position.x −10 → 30: it starts half outside the frame (x −30…10).
        l.add(basic("position.x", from: -10.0, to: 30.0, duration: 2), forKey: "move")
        let r = try renderer(root)
        _ = try RenderHarness.frame(r, at: 0)
        let inside = try RenderHarness.frame(r, at: 2 - 1e-9)
        // Nearly at x 10…50: the whole layer shows (its last stripe at x ≈ 48).
        #expect(r.statistics.rasterCacheMisses == 1, "\(r.statistics)")
        let plain = try RenderHarness.render(stripes(rasterize: false).0, size: CGSize(width: 100, height: 60))
        #expect(maxDifference(inside, plain, xs: 0..<100, ys: 0..<60) <= 2)
    }
}
