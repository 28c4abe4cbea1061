import Testing
import Foundation
@testable import CARender

/// Issue 23: one straight segment with round caps (a dash, a trimmed piece of a line — the
/// dots of Lottie's TwitterHeart) is rasterised as one convex outline, the caps' half discs
/// joined by the segment's sides (`PieceStroker.capsule`), not a quad and two whole discs.
/// Held to the geometry: coverage against the capsule {p : distance(p, ab) ≤ w/2} sampled
/// 16 × 16 per texel, for thin and wide strokes, segments at several angles (so the discs'
/// vertices fall anywhere against the normal), and a segment shorter than its width.
@Suite struct CapsuleStrokeCoverageTests {
    @Test("a round-capped segment covers the capsule",
          arguments: [(CGPoint(x: 20, y: 30), CGPoint(x: 90, y: 44), 7.0), (CGPoint(x: 60, y: 20), CGPoint(x: 61, y: 70), 2.2),
                      (CGPoint(x: 40, y: 40), CGPoint(x: 43, y: 38), 16.0), (CGPoint(x: 85, y: 75), CGPoint(x: 25, y: 15), 11.0),
                      (CGPoint(x: 30, y: 50), CGPoint(x: 100, y: 50), 5.0)])
    func segmentCoversCapsule(_ a: CGPoint, _ b: CGPoint, _ width: Double) throws {
        let path = CGMutablePath()
        path.move(to: a)
        path.addLine(to: b)
        let map = TexelMap(a: 1, b: 0, c: 0, d: 1, tx: 0.3, ty: 0.45)
        let style = ShapeStrokeStyle(halfWidth: width / 2, cap: .round, join: .round, miterLimit: 10)
        var req = ShapeRasterizer.Request(path: path, fill: false, evenOdd: false, stroke: style, field: false, map: map,
                                          limit: ShapeRasterSpanResolveTests.noLimit)
        req.denseResolve = true
        guard case .success(let r) = ShapeRasterizer.rasterize(req) else { Issue.record("no raster"); return }
        let ax = a.x + 0.3, ay = a.y + 0.45, bx = b.x + 0.3, by = b.y + 0.45
        func distance(_ px: Double, _ py: Double) -> Double {
            let dx = bx - ax, dy = by - ay
            let t = max(0, min(1, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy)))
            let qx = ax + t * dx - px, qy = ay + t * dy - py
            return (qx * qx + qy * qy).squareRoot()
        }
        var worst = 0.0, sum = 0.0, expectedSum = 0.0
        for y in 0..<r.height {
            for x in 0..<r.width {
                var inside = 0
                for sy in 0..<16 {
                    for sx in 0..<16 where distance(Double(r.originX + x) + (Double(sx) + 0.5) / 16,
                                                    Double(r.originY + y) + (Double(sy) + 0.5) / 16) <= width / 2 {
                        inside += 1
                    }
                }
                let expected = Double(inside) / 256
                let got = Double(r.coverage[(y * r.width + x) * 4 + 1]) / 255
                worst = max(worst, abs(got - expected))
                sum += got
                expectedSum += expected
            }
        }
        // Flattening the caps (0.1 texel) and the sampling bound the per-texel difference; the
        // area is the capsule's within 2 % (a disc of radius 8 flattened to 20 sides within
        // 0.1 texel keeps 98.4 % of its area, and the short wide segment is mostly its caps).
        #expect(worst <= 0.12, "a texel off by \(worst)")
        #expect(abs(sum - expectedSum) <= 0.02 * expectedSum, "area \(sum) against \(expectedSum)")
    }
}
