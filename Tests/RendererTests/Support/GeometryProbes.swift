import Testing
import Foundation

/// Helpers for the geometry, clipping and masking tests: a render that also returns the
/// renderer's statistics and render frame, region checks, and the expected shape of a layer
/// computed independently of the renderer from docs/BEHAVIOUR.md M7 (a point p of a layer's bounds
/// lands at `((p − anchor·size) · transform + position)` divided by w, row vectors as
/// `CATransform3D`, M6).
enum GeometryProbe {
    /// Renders like `RenderHarness.render` and also hands back `CARenderer.statistics` and
    /// `lastFrame`, so a test can check how a scene was drawn (batches, offscreen passes).
    static func render(_ root: CALayer, size: CGSize, scale: CGFloat = 1,
                       clear: CGColor? = CGColor(red: 1, green: 1, blue: 1, alpha: 1)) throws
        -> (image: CGImage, stats: RenderStats, frame: RenderFrame) {
        let r = try CARenderer(offscreenSize: size, scale: scale, options: .init(backend: .openGL))
        r.clearColor = clear
        r.layer = root
        r.beginFrame(atTime: 0)
        try r.renderChecked()
        r.endFrame()
        return (try r.makeImage(), r.statistics, r.lastFrame!)
    }

    /// Every pixel of `xs × ys` (pixel indices) equals `color` exactly; records the first few
    /// that do not.
    static func expectRegion(_ img: CGImage, _ xs: ClosedRange<Int>, _ ys: ClosedRange<Int>, _ color: RGBA,
                             tolerance: Int = 0, sourceLocation: SourceLocation = #_sourceLocation) {
        var misses = 0
        for y in ys { for x in xs {
            let p = img.rgba(x, y)
            if !p.isClose(to: color, tolerance: tolerance) {
                misses += 1
                if misses <= 3 {
                    Issue.record("pixel (\(x), \(y)) is \(p), expected \(color)", sourceLocation: sourceLocation)
                }
            }
        } }
        if misses > 3 { Issue.record("\(misses) pixels differ in \(xs)×\(ys)", sourceLocation: sourceLocation) }
    }

    /// Maps a layer's plane to pixels: `position` and `anchor` (in bounds points, anchor·size)
    /// with `transform`, through the parent placement `parent` (a pure 2D offset and scale
    /// here: enough for tests whose parents are axis-aligned).
    struct Plane {
        var transform: CATransform3D
        var anchor: CGPoint
        var position: CGPoint
        var pixelScale: Double = 1

        /// Pixel of the bounds point (x, y); nil behind the eye.
        func map(_ x: Double, _ y: Double) -> (Double, Double)? {
            let t = transform
            let lx = x - Double(anchor.x), ly = y - Double(anchor.y)
            let X = lx * Double(t.m11) + ly * Double(t.m21) + Double(t.m41)
            let Y = lx * Double(t.m12) + ly * Double(t.m22) + Double(t.m42)
            let W = lx * Double(t.m14) + ly * Double(t.m24) + Double(t.m44)
            guard W > 1e-9 else { return nil }
            return ((X / W + Double(position.x)) * pixelScale, (Y / W + Double(position.y)) * pixelScale)
        }

        /// Bounds point seen at pixel (px, py): solves the two linear equations
        /// `(x·T11 + y·T21 + T41) = u·W`, `(x·T12 + y·T22 + T42) = v·W`.
        func unmap(_ px: Double, _ py: Double) -> (Double, Double)? {
            let t = transform
            let u = px / pixelScale - Double(position.x), v = py / pixelScale - Double(position.y)
            let a = Double(t.m11) - u * Double(t.m14), b = Double(t.m21) - u * Double(t.m24), e = u * Double(t.m44) - Double(t.m41)
            let c = Double(t.m12) - v * Double(t.m14), d = Double(t.m22) - v * Double(t.m24), f = v * Double(t.m44) - Double(t.m42)
            let det = a * d - b * c
            guard abs(det) > 1e-12 else { return nil }
            let lx = (e * d - b * f) / det, ly = (a * f - e * c) / det
            let W = lx * Double(t.m14) + ly * Double(t.m24) + Double(t.m44)
            guard W > 1e-9 else { return nil }
            return (lx + Double(anchor.x), ly + Double(anchor.y))
        }
    }

    /// Signed distance from (x, y) to the rectangle `r` with circular corners of radius
    /// `radius` (negative inside), in the rectangle's units.
    static func roundedRectDistance(_ x: Double, _ y: Double, _ r: CGRect, radius: Double) -> Double {
        let cx = Double(r.midX), cy = Double(r.midY)
        let ex = Double(r.width) / 2 - radius, ey = Double(r.height) / 2 - radius
        let qx = abs(x - cx) - ex, qy = abs(y - cy) - ey
        let outside = (max(qx, 0) * max(qx, 0) + max(qy, 0) * max(qy, 0)).squareRoot()
        return min(max(qx, qy), 0) + outside - radius
    }

    /// Checks every pixel whose centre is clearly inside (`inside(px, py)` < −margin) or
    /// clearly outside (> margin) a shape: inside ones must be `inColor`, outside ones
    /// `outColor` (within `tolerance`). Pixels on the antialiased band are skipped. Returns
    /// how many pixels were checked inside and outside, so a test can insist both were tested.
    @discardableResult
    static func expectShape(_ img: CGImage, margin: Double, inColor: RGBA, outColor: RGBA, tolerance: Int = 1,
                            sourceLocation: SourceLocation = #_sourceLocation,
                            _ distance: (Double, Double) -> Double?) -> (inside: Int, outside: Int) {
        var inside = 0, outside = 0, misses = 0
        for y in 0..<img.height { for x in 0..<img.width {
            guard let d = distance(Double(x) + 0.5, Double(y) + 0.5) else { continue }
            let expected: RGBA
            if d < -margin { expected = inColor; inside += 1 } else if d > margin { expected = outColor; outside += 1 } else { continue }
            let p = img.rgba(x, y)
            if !p.isClose(to: expected, tolerance: tolerance) {
                misses += 1
                if misses <= 3 {
                    Issue.record("pixel (\(x), \(y)) at distance \(d) is \(p), expected \(expected)", sourceLocation: sourceLocation)
                }
            }
        } }
        if misses > 3 { Issue.record("\(misses) pixels on the wrong side of the shape", sourceLocation: sourceLocation) }
        return (inside, outside)
    }
}
