import Testing
import Foundation
@testable import CARender

/// Issue 23: a closed convex stroke joined smoothly all round is rasterised as the ring between
/// its outer and inner miter loops (`PieceStroker`, `CoverageRasterizer.addRing`), and segments
/// inside a curve share their miter lines. Held to the geometry: the coverage of a stroked
/// circle against the annulus |d − R| ≤ w/2 sampled 16 × 16 per texel, for thin, wide and
/// wider-than-the-radius strokes (where the pieces fold and the wedges return), straight on
/// and rotated.
@Suite struct RingStrokeCoverageTests {
    @Test("a stroked circle covers the annulus", arguments: [(30.0, 2.8), (30.0, 12.0), (9.0, 17.0), (55.5, 1.0), (4.0, 3.0)])
    func circleCoversAnnulus(_ radius: Double, _ width: Double) throws {
        let c = CGPoint(x: 70, y: 66)
        let path = ShapeRasterSpanResolveTests.ring(radius: radius, center: c)
        for angle in [0.0, 0.7] {
            let map = TexelMap(a: cos(angle), b: sin(angle), c: -sin(angle), d: cos(angle), tx: 0.3, ty: 0.45)
            let style = ShapeStrokeStyle(halfWidth: width / 2, cap: .round, join: .round, miterLimit: 10)
            var req = ShapeRasterizer.Request(path: path, fill: false, evenOdd: false, stroke: style, field: false, map: map,
                                              limit: ShapeRasterSpanResolveTests.noLimit)
            req.denseResolve = true
            guard case .success(let r) = ShapeRasterizer.rasterize(req) else { Issue.record("no raster"); return }
            // The circle's centre in texels (the rotation turns it about the origin).
            let cx = map.a * c.x + map.c * c.y + map.tx, cy = map.b * c.x + map.d * c.y + map.ty
            var worst = 0.0, sum = 0.0, expectedSum = 0.0
            for y in 0..<r.height {
                for x in 0..<r.width {
                    var inside = 0
                    for sy in 0..<16 {
                        for sx in 0..<16 {
                            let px = Double(r.originX + x) + (Double(sx) + 0.5) / 16 - cx
                            let py = Double(r.originY + y) + (Double(sy) + 0.5) / 16 - cy
                            if abs((px * px + py * py).squareRoot() - radius) <= width / 2 { inside += 1 }
                        }
                    }
                    let expected = Double(inside) / 256
                    let got = Double(r.coverage[(y * r.width + x) * 4 + 1]) / 255
                    worst = max(worst, abs(got - expected))
                    sum += got; expectedSum += expected
                }
            }
            // Flattening (0.1 texel) and the 16 × 16 sampling bound the per-texel difference; the
            // total area is the annulus's within 1 %.
            #expect(worst <= 0.16, "r \(radius) w \(width) angle \(angle): a texel off by \(worst)")
            #expect(abs(sum - expectedSum) <= 0.01 * expectedSum, "r \(radius) w \(width) angle \(angle): area \(sum) against \(expectedSum)")
        }
    }
}
