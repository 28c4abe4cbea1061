import Testing

// Issue 23: shape rasters resolve their coverage over the touched cells only
// (`CoverageRasterizer.takeResolved`), not texel by texel over the whole box. The bytes must be
// the ones the dense `resolve` writes — the same running sums in the same order — and the box it
// reports must be the one a scan of the output finds; the rasteriser must be left clear, so the
// next raster can reuse it (`reset`) and get what a fresh one gives.
@Suite struct CoverageRasterizerSpanResolveTests {
    /// A deterministic generator (64-bit LCG), so a failure reproduces.
    struct LCG {
        var state: UInt64
        mutating func next() -> Double {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Double(state >> 11) / Double(1 << 53)
        }
    }

    /// Polygons with vertices in and beyond a `w` × `h` grid: random stars, a ring (two
    /// opposite circles: a hole the span walk skips), and a thin sliver.
    static func polygons(_ rng: inout LCG, w: Int, h: Int) -> [[SIMD2<Double>]] {
        var out: [[SIMD2<Double>]] = []
        for _ in 0..<3 {
            let n = 3 + Int(rng.next() * 9)
            out.append((0..<n).map { _ in SIMD2(rng.next() * Double(w + 8) - 4, rng.next() * Double(h + 8) - 4) })
        }
        let c = SIMD2(Double(w) * (0.3 + 0.4 * rng.next()), Double(h) * (0.3 + 0.4 * rng.next()))
        let r = Double(min(w, h)) * (0.2 + 0.3 * rng.next())
        func circle(_ radius: Double, _ reversed: Bool) -> [SIMD2<Double>] {
            let pts = (0..<48).map { i -> SIMD2<Double> in
                let a = 2 * Double.pi * Double(i) / 48
                return c + radius * SIMD2(cos(a), sin(a))
            }
            return reversed ? pts.reversed() : pts
        }
        out.append(circle(r, false))
        out.append(circle(r * 0.83, true))
        out.append([SIMD2(0.3, 0.2), SIMD2(Double(w) - 0.7, Double(h) * 0.5 + 0.1), SIMD2(0.9, 0.8)])
        return out
    }

    /// The dense resolve and a scan for the covered box: the reference.
    static func dense(_ r: CoverageRasterizer, evenOdd: Bool, channels: Int, channel: Int) -> ([UInt8], (Int, Int, Int, Int)?) {
        var out = [UInt8](repeating: 0, count: r.width * r.height * channels)
        r.resolve(evenOdd: evenOdd, into: &out, channels: channels, channel: channel)
        var box: (Int, Int, Int, Int)? = nil
        for y in 0..<r.height {
            for x in 0..<r.width where out[(y * r.width + x) * channels + channel] != 0 {
                box = box.map { (min($0.0, x), min($0.1, y), max($0.2, x + 1), max($0.3, y + 1)) } ?? (x, y, x + 1, y + 1)
            }
        }
        return (out, box)
    }

    @Test("the float resolve by runs gives the dense resolve's values and leaves the rasteriser clear",
          arguments: [(17, 9), (130, 77), (1, 1)], [false, true])
    func runResolvedCoverageMatchesDense(_ size: (Int, Int), _ evenOdd: Bool) {
        let (w, h) = size
        var rng = LCG(state: UInt64(w * 31 + h) &+ (evenOdd ? 3 : 0))
        var reused = CoverageRasterizer(width: 0, height: 0)
        for round in 0..<4 {
            var fresh = CoverageRasterizer(width: w, height: h)
            reused.reset(width: w, height: h)
            for p in Self.polygons(&rng, w: w, h: h) {
                fresh.addPolygon(p)
                reused.addPolygon(p)
            }
            #expect(reused.takeResolvedCoverage(evenOdd: evenOdd) == fresh.resolvedCoverage(evenOdd: evenOdd),
                    "\(w)×\(h) round \(round): coverage differs")
            #expect(reused.acc.allSatisfy { $0 == 0 } && reused.touched.allSatisfy { $0 == 0 })
        }
    }

    @Test("span resolve writes the dense resolve's bytes and reports its covered box",
          arguments: [(17, 9), (64, 64), (65, 3), (130, 77), (1, 1)], [false, true])
    func spanResolveMatchesDense(_ size: (Int, Int), _ evenOdd: Bool) {
        let (w, h) = size
        var rng = LCG(state: UInt64(w * 1000 + h) &+ (evenOdd ? 7 : 0))
        // One rasteriser reused across shapes of different sizes, as the shape cache does.
        var reused = CoverageRasterizer(width: 0, height: 0)
        for round in 0..<6 {
            let (rw, rh) = round % 2 == 0 ? (w, h) : (w + round, max(h - round, 1))
            var fresh = CoverageRasterizer(width: rw, height: rh)
            reused.reset(width: rw, height: rh)
            for p in Self.polygons(&rng, w: rw, h: rh) {
                fresh.addPolygon(p)
                reused.addPolygon(p)
            }
            // The channel layout of shape rasters: 4 bytes a texel, stroke coverage in byte 1.
            let (expected, box) = Self.dense(fresh, evenOdd: evenOdd, channels: 4, channel: 1)
            var got = [UInt8](repeating: 0, count: rw * rh * 4)
            let gotBox = reused.takeResolved(evenOdd: evenOdd, into: &got, channels: 4, channel: 1)
            #expect(got == expected, "\(rw)×\(rh) round \(round): bytes differ")
            #expect(gotBox.map { [$0.x0, $0.y0, $0.x1, $0.y1] } == box.map { [$0.0, $0.1, $0.2, $0.3] },
                    "\(rw)×\(rh) round \(round): box \(String(describing: gotBox)) vs scan \(String(describing: box))")
            // Left clear: every cell 0 and every touched bit off.
            #expect(reused.acc.allSatisfy { $0 == 0 } && reused.touched.allSatisfy { $0 == 0 })
        }
    }

    /// A 10 × 4 grid with a 2-wide vertical band at x 3…5 (fully covered) and nothing else:
    /// bytes 255 exactly at x 3 and 4 of every row, the box (3, 0, 5, 4); the other bytes of
    /// the texel (channels 0, 2, 3) are left as they were.
    @Test func spanResolveOfABandByHand() {
        var r = CoverageRasterizer(width: 10, height: 4)
        r.addPolygon([SIMD2(3, -1), SIMD2(5, -1), SIMD2(5, 5), SIMD2(3, 5)])
        var out = [UInt8](repeating: 0, count: 10 * 4 * 4)
        for i in stride(from: 0, to: out.count, by: 4) { out[i] = 9; out[i + 2] = 7; out[i + 3] = 5 }
        let box = r.takeResolved(evenOdd: false, into: &out, channels: 4, channel: 1)
        #expect(box.map { [$0.x0, $0.y0, $0.x1, $0.y1] } == [3, 0, 5, 4])
        for y in 0..<4 {
            for x in 0..<10 {
                let i = (y * 10 + x) * 4
                #expect(out[i + 1] == (x == 3 || x == 4 ? 255 : 0), "(\(x), \(y))")
                #expect(out[i] == 9 && out[i + 2] == 7 && out[i + 3] == 5)
            }
        }
        // Nothing covered: no box, nothing written.
        var empty = CoverageRasterizer(width: 5, height: 5)
        var none = [UInt8](repeating: 0, count: 25)
        let noBox = empty.takeResolved(evenOdd: false, into: &none, channels: 1, channel: 0)
        #expect(noBox == nil)
        #expect(none.allSatisfy { $0 == 0 })
    }
}

/// Float cells make a row's running sum drift: inside a shape with curved sides it came to
/// 0.99999994 as often as to 1, and such pixels were blended as edge pixels. The coverage rule
/// counts a sum within `fullCoverageSlack` (2⁻¹²) of 1 as 1 (CCoverage.h,
/// CA_FULL_COVERAGE_SLACK), so every pixel well inside is exactly 1, by both fill rules, while a
/// real edge pixel stays below 1.
@Suite struct CoverageRasterizerFullCoverageTests {
    @Test("the inside of a many-sided disc resolves to exactly 1, the edge below it", arguments: [false, true])
    func insideIsExactlyOne(evenOdd: Bool) {
        let c = SIMD2(31.37, 29.81), r = 23.6
        let disc = (0..<97).map { i -> SIMD2<Double> in
            let a = 2 * Double.pi * Double(i) / 97
            return c + r * SIMD2(cos(a), sin(a))
        }
        var rast = CoverageRasterizer(width: 64, height: 60)
        rast.addPolygon(disc)
        let cov = rast.resolvedCoverage(evenOdd: evenOdd)
        var inside = 0, notOne = 0, edge = 0, fullEdge = 0
        for y in 0..<60 {
            for x in 0..<64 {
                let d = ((Double(x) + 0.5 - c.x) * (Double(x) + 0.5 - c.x) + (Double(y) + 0.5 - c.y) * (Double(y) + 0.5 - c.y)).squareRoot()
                let v = cov[y * 64 + x]
                if d < r - 1.5 { inside += 1; if v != 1 { notOne += 1 } }
                if abs(d - r) < 0.2 { edge += 1; if v >= 1 { fullEdge += 1 } }
            }
        }
        #expect(inside > 1_400)
        #expect(notOne == 0, "\(notOne) of \(inside) pixels inside are not exactly 1")
        // Pixels the circle passes through near their centre are about half covered.
        #expect(edge > 20 && fullEdge == 0, "\(fullEdge) of \(edge) edge pixels read as full")
        #expect(CoverageRasterizer.fullCoverageSlack == 1.0 / 4096)
    }
}
