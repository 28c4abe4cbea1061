import Testing

// The rasteriser's edge accumulation (CoverageRasterizer.swift): a vertical edge takes a fast
// path (one x for every row), and polygons are added in one batch (`addPolygons`). These pin
// the cell values by hand: an edge crossing a row adds its height within the row, split between
// the cell it lies in and the next by where it lies in the cell (area to its right).
@Suite struct CoverageRasterizerEdgeTests {
    /// The cells of row `y` (the stride's spare cells included).
    private func row(_ r: CoverageRasterizer, _ y: Int) -> [Float] {
        Array(r.acc[y * r.stride..<(y + 1) * r.stride])
    }

    /// A vertical edge at x = 2.25 going down from y = 0.5 to y = 3: row 0 gets height 0.5,
    /// rows 1 and 2 height 1, split 0.75 into cell 2 and 0.25 into cell 3; nothing below.
    /// Going up, the same with the sign flipped.
    @Test func verticalEdgeSplitsEachRowBetweenTwoCells() {
        var r = CoverageRasterizer(width: 5, height: 4)
        r.addLine(2.25, 0.5, 2.25, 3)
        #expect(row(r, 0) == [0, 0, 0.375, 0.125, 0, 0, 0])
        #expect(row(r, 1) == [0, 0, 0.75, 0.25, 0, 0, 0])
        #expect(row(r, 2) == [0, 0, 0.75, 0.25, 0, 0, 0])
        #expect(row(r, 3) == [0, 0, 0, 0, 0, 0, 0])
        #expect(r.work == 3)
        var up = CoverageRasterizer(width: 5, height: 4)
        up.addLine(2.25, 3, 2.25, 0.5)
        #expect(row(up, 1) == [0, 0, -0.75, -0.25, 0, 0, 0])
        // The touched bits mark exactly cells 2 and 3 of rows 0…2.
        #expect(Array(up.touched) == [0b1100, 0b1100, 0b1100, 0])
    }

    /// Vertical edges outside the grid are clamped to its sides, keeping their winding: left of
    /// it everything goes to cell 0 (the whole row is right of the edge); right of it to the
    /// spare cell at x = width.
    @Test func verticalEdgesOffTheGridClampToItsSides() {
        var r = CoverageRasterizer(width: 4, height: 2)
        r.addLine(-3, 0, -3, 2)
        r.addLine(9.5, 2, 9.5, 0)
        #expect(row(r, 0) == [1, 0, 0, 0, -1, 0])
        #expect(row(r, 1) == [1, 0, 0, 0, -1, 0])
    }

    /// `addPolygons` adds each polygon closed, with the origin subtracted: a 2 × 2 square at
    /// (11, 21) with origin (10, 20) covers cells 1 and 2 of rows 1 and 2 — a running sum of 1
    /// there and 0 elsewhere — the same cells as `addPolygon` of the shifted square.
    @Test func addPolygonsClosesEachPolygonRelativeToTheOrigin() {
        let square: [SIMD2<Double>] = [[11, 21], [13, 21], [13, 23], [11, 23]]
        let tri: [SIMD2<Double>] = [[10.5, 20], [14, 20.5], [12, 24]]
        var batch = CoverageRasterizer(width: 5, height: 5)
        batch.addPolygons(square + tri, ends: [4, 7], origin: [10, 20])
        var one = CoverageRasterizer(width: 5, height: 5)
        one.addPolygon(square.map { $0 - [10, 20] })
        one.addPolygon(tri.map { $0 - [10, 20] })
        #expect(batch.acc == one.acc)
        #expect(batch.touched == one.touched)
        #expect(batch.work == one.work)
        var sq = CoverageRasterizer(width: 5, height: 5)
        sq.addPolygons(square, ends: [4], origin: [10, 20])
        for y in 0..<5 {
            var sum: Float = 0
            let sums = row(sq, y).prefix(5).map { sum += $0; return abs(sum) }
            #expect(sums == (y == 1 || y == 2 ? [0, 1, 1, 0, 0] : [0, 0, 0, 0, 0]), "row \(y)")
        }
    }

    /// An edge so flat that its slope overflows (a height of 10⁻³²⁰ cells over 10 cells: the
    /// slope 10³²¹ is not a Double) adds nothing and leaves the grid usable: its x along the
    /// row would be 0 × ∞, NaN, which the Swift writer turned into an integer and trapped on.
    /// A triangle with such an edge still draws its other two edges.
    @Test func anEdgeWhoseSlopeOverflowsAddsNothing() {
        var r = CoverageRasterizer(width: 12, height: 4)
        r.addLine(0, 0, 10, 1e-320)
        #expect(r.acc.allSatisfy { $0 == 0 })
        #expect(r.touched.allSatisfy { $0 == 0 })
        r.addPolygon([SIMD2(0, 0), SIMD2(10, 1e-320), SIMD2(5, 4)])
        let coverage = r.resolvedCoverage(evenOdd: false)
        // Inside the triangle (row 2, cell 5: x 5…6, between the edges at x 2.5–3.75 and 6.25–7.5).
        #expect(coverage[2 * 12 + 5] == 1)
        #expect(coverage.allSatisfy { $0.isFinite && $0 >= 0 && $0 <= 1 })
    }

    /// Polygons added with their bounds (the fills' and strokes' route, which skips the edges'
    /// finite checks and clamps when the bounds lie within the writer's coordinate limit) give
    /// exactly the cells, bits and work of the same polygons edge by edge: random polygons of random
    /// size, some reaching far off the grid; and bounds past the limit (a vertex 10⁹ below, whose
    /// clamp matters) still give the checked route's cells.
    @Test func boundsSkipOnlyChecksThatChangeNothing() {
        var seed: UInt64 = 0x9E37_79B9_7F4A_7C15
        func unit() -> Double {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Double(seed >> 11) / Double(1 << 53)
        }
        var drawn = 0
        for trial in 0..<60 {
            var pts: [SIMD2<Double>] = [], ends: [Int] = []
            let reach = trial % 3 == 0 ? 400.0 : 30.0
            for _ in 0..<(1 + trial % 4) {
                for _ in 0..<(3 + trial % 7) { pts.append([unit() * reach - reach / 4, unit() * reach - reach / 4]) }
                ends.append(pts.count)
            }
            if trial % 10 == 9 { pts[0] = [20.5, 1e9] }
            var lo = SIMD2<Double>(repeating: .infinity), hi = SIMD2<Double>(repeating: -.infinity)
            for p in pts { lo = pointwiseMin(lo, p); hi = pointwiseMax(hi, p) }
            // The checked route: each polygon through `addPolygon` (every edge checked).
            var checked = CoverageRasterizer(width: 40, height: 36)
            var start = 0
            for e in ends {
                checked.addPolygon(pts[start..<e].map { $0 - [3, 2] })
                start = e
            }
            var bounded = CoverageRasterizer(width: 40, height: 36)
            bounded.addPolygons(pts, ends: ends[...], origin: [3, 2], bounds: (lo, hi))
            #expect(bounded.acc == checked.acc, "trial \(trial)")
            #expect(bounded.touched == checked.touched, "trial \(trial)")
            #expect(bounded.work == checked.work, "trial \(trial)")
            if checked.acc.contains(where: { $0 != 0 }) { drawn += 1 }
        }
        // Most trials touch the grid (a polygon far off it may not).
        #expect(drawn >= 40, "\(drawn) of 60 trials drew")
    }
}
