import Testing
@testable import CoreGraphics

/// Fills flatten curves with their inner chord vertices moved outward along the bend
/// (CCoverage's PathWalk.h, `centredCurvePoint`), so that chords no longer all cut inside the
/// curve: the polygon of a circle keeps the circle's area, and its vertices stay within the
/// tolerance of it. Measured on the raster-space polygons `CGContext` fills
/// (`rasterPolygons(ofDevicePath:)`), not through coverage.
@Suite struct CGContextCentredFlatteningTests {
    /// The shoelace area of each polygon, summed (signs as wound).
    static func area(_ points: [SIMD2<Double>], _ ends: [Int]) -> Double {
        var total = 0.0, start = 0
        for end in ends {
            var a = 0.0
            for k in start..<end {
                let p = points[k], q = points[k + 1 < end ? k + 1 : start]
                a += p.x * q.y - q.x * p.y
            }
            total += a / 2
            start = end
        }
        return total
    }

    /// The area of `path` flattened by the Swift route (`flattenedSubpaths`, chords on the
    /// curve) at `tolerance`.
    static func swiftArea(_ path: CGPath, tolerance: CGFloat) -> Double {
        var total = 0.0
        for sub in path.flattenedSubpaths(tolerance: tolerance) {
            let pts = sub.points.map { SIMD2(Double($0.x), Double($0.y)) }
            total += area(pts, [pts.count])
        }
        return abs(total)
    }

    @Test("a circle's polygon keeps its area, where chords on the curve lose two thirds of the sagitta times the perimeter",
          arguments: [3.0, 10.0, 25.0, 60.0, 200.0])
    func circleAreaIsKept(radius r: Double) throws {
        let ctx = rgbaContext(500, 500)
        let centre = CGPoint(x: 250.25, y: 249.5)
        let path = CGPath(ellipseIn: CGRect(x: centre.x - r, y: centre.y - r, width: 2 * r, height: 2 * r), transform: nil)
        let polygons = try #require(ctx.rasterPolygons(ofDevicePath: path))
        let area = abs(Self.area(polygons.points, Array(polygons.ends)))
        // The path's own area (its four cubics, not quite a circle), to 10⁻⁴ px.
        let exact = Self.swiftArea(path, tolerance: 1e-4)
        // Chords through points on the curve, at the same tolerance, leave out about
        // (2/3)·s·2πr (s their sagitta, up to 0.05 px): 0.15 to 0.18 px² a unit of radius
        // (0.46 px² at r = 3, 35.6 at r = 200); centred, what is left is the first and last
        // chord of each cubic, whose outer ends stay on the curve (0.10 and 0.88 px²).
        let onCurve = Self.swiftArea(path, tolerance: CGContext.finestFlatness)
        #expect(exact - onCurve > 0.05 * r)
        #expect(abs(area - exact) < (exact - onCurve) / 3, "area \(area), the path's \(exact), chords on the curve \(onCurve)")
        // Every vertex within two thirds of the tolerance outside the circle (plus the cubics'
        // own 2.7·10⁻⁴·r outside it), none inside; where the radius leaves room for several chords
        // a quarter, some moved out by more than a sixth of the tolerance.
        let h = Double(ctx.height), cx = Double(centre.x), cy = Double(centre.y)
        var farthestOut = 0.0
        for p in polygons.points {
            let d = ((p.x - cx) * (p.x - cx) + (h - p.y - cy) * (h - p.y - cy)).squareRoot() - r
            #expect(d <= 0.05 * 2 / 3 + 3e-4 * r && d >= -1e-9 * r, "a vertex \(d) px off the circle")
            farthestOut = max(farthestOut, d)
        }
        if r >= 10 { #expect(farthestOut > 0.05 / 6) }
    }
}
