import Testing
import Foundation
import CAFrame
@testable import CASoftware

/// Texels hidden by a batch's later opaque instances (issue 22: `SoftwareOcclusion`): the
/// interval sets against a model, the gradient pipeline's opaque intervals, and whole frames
/// with occlusion on and off, which must be the same bytes.
@Suite struct SoftwareOcclusionTests {
    typealias Images = SoftwareImageGradientRowTests

    @Test("hidden spans: the union of what was inserted (exactly, up to four intervals), visible pieces its complement")
    func hiddenSpansModel() {
        var seed: UInt32 = 7
        func next(_ n: Int) -> Int { seed ^= seed << 13; seed ^= seed >> 17; seed ^= seed << 5; return Int(seed % UInt32(n)) }
        for round in 0..<2_000 {
            var spans = SoftwareHiddenSpans()
            var inserted = [Bool](repeating: false, count: 140)
            for _ in 0..<(1 + next(7)) {
                let a = next(80), b = a + next(25)
                spans.insert(a, b)
                for x in a..<b { inserted[x] = true }
            }
            // Every interval lies inside what was inserted, ascending, disjoint, not touching.
            var last = Int.min
            var hidden = [Bool](repeating: false, count: 140)
            for k in 0..<spans.count {
                let l = Int(spans.lo[k]), h = Int(spans.hi[k])
                #expect(l < h && l > last, "round \(round): interval \(k) is \(l)..<\(h) after \(last)")
                last = h
                for x in l..<h {
                    if !inserted[x] { Issue.record("round \(round): texel \(x) hidden but never inserted"); return }
                    hidden[x] = true
                }
            }
            #expect(spans.count <= SoftwareHiddenSpans.capacity)
            // The union of what was inserted has at most `capacity` pieces: nothing dropped.
            let pieces = zip(inserted, [false] + inserted).filter { $0.0 && !$0.1 }.count
            if pieces <= SoftwareHiddenSpans.capacity, spans.count == pieces {
                #expect(hidden == inserted, "round \(round): the union is not exact")
            }
            // The visible pieces of every query range are exactly its unhidden texels.
            let a = next(60), b = a + next(40)
            var seen = [Bool](repeating: false, count: 140)
            var prev = a
            spans.forEachVisible(a, b) { x0, x1 in
                #expect(x0 >= prev && x0 < x1 && x1 <= b)
                prev = x1
                for x in x0..<x1 { seen[x] = true }
            }
            for x in a..<b where seen[x] == hidden[x] {
                Issue.record("round \(round): texel \(x) of \(a)..<\(b) visible \(seen[x]), hidden \(hidden[x])")
                return
            }
        }
    }

    @Test("occlusion: each instance's rows hide exactly the opaque intervals of the instances after it")
    func occlusionOfABand() {
        // Three instances over rows 0..<10: 0 is under 1 (opaque on 20..<60) and 2 (opaque on
        // 50..<90 in rows 5 and up); 2 hides 1's 50..<60 there; nothing hides 2.
        let rows: [Range<Int>] = [0..<10, 0..<8, 3..<10]
        let occ = SoftwareOcclusion(candidates: [0, 1, 2], band: 0..<10, rows: { rows[$0] }) { k, y in
            switch k {
            case 1: return (20, 60)
            case 2: return y >= 5 ? (50, 90) : nil
            default: return (0, 100)
            }
        }
        func pieces(_ p: Int, _ y: Int, _ a: Int, _ b: Int) -> [Range<Int>] {
            var out: [Range<Int>] = []
            occ.hidden(position: p, row: y).forEachVisible(a, b) { out.append($0..<$1) }
            return out
        }
        #expect(pieces(0, 2, 0, 100) == [0..<20, 60..<100])
        #expect(pieces(0, 6, 0, 100) == [0..<20, 90..<100])
        #expect(pieces(0, 9, 0, 100) == [0..<50, 90..<100])
        #expect(pieces(1, 4, 0, 100) == [0..<100])
        #expect(pieces(1, 7, 10, 70) == [10..<50])
        #expect(pieces(2, 7, 0, 100) == [0..<100])
        // A row outside the instance's rows hides nothing.
        #expect(occ.hidden(position: 1, row: 9).isEmpty)
    }

    /// Overlapping gradients of every kind the interior loop meets: opaque and translucent ramp
    /// rows, opacity below 1, rounded, scaled, turned, one clipped.
    static func overlapping() -> [GradientInstance] {
        var set: [GradientInstance] = []
        var seed: UInt32 = 5
        func unit() -> Float { seed ^= seed << 13; seed ^= seed >> 17; seed ^= seed << 5; return Float(seed % 10_000) / 10_000 }
        for k in 0..<24 {
            let w = 30 + unit() * 70, h = 20 + unit() * 50
            let deg = k % 5 == 3 ? unit() * 360 : 0, scale = k % 4 == 1 ? 1.3 + unit() : 1
            let (h0, h1) = SoftwareInteriorLoopTests.turn(deg, scale)
            var g = Images.gradient(SIMD4(0, 0, w, h), points: SIMD4(w * unit(), h * unit(), w * unit(), h * unit()),
                                    row: k % 6 == 2 ? 1 : 0, opacity: k % 7 == 4 ? 0.6 : 1, radius: unit() * 12,
                                    h0: h0, h1: h1, offset: SIMD2(unit() * 180, unit() * 130))
            if k == 9 { g.h1.w = 1 }
            set.append(g)
        }
        return set
    }

    static func render(_ f: RenderFrame, occlusion: Bool, threads: Int = 1) throws -> [UInt8] {
        let r = SoftwareRenderer(threads: threads)
        r.usesRowPaths = true
        r.usesInteriorLoops = true
        r.usesOcclusion = occlusion
        var stats = RenderStats()
        try r.render(f, stats: &stats)
        return r.readPixels()
    }

    @Test("overlapping gradients: occlusion on draws the bytes of occlusion off, on one thread and on several")
    func sameBytes() throws {
        var f = Images.gradientFrame(240, 180, Self.overlapping(), variant: [.clip])
        f.clips = [.none, ClipShape(inverse: .identity, rect: SIMD4(30, 20, 120, 90), radii: SIMD4(repeating: 10), continuous: false)]
        let off = try Self.render(f, occlusion: false)
        #expect(try Self.render(f, occlusion: true) == off)
        #expect(try Self.render(f, occlusion: true, threads: 3) == off)
        // The radial form has no interior loop and hides nothing: the same bytes too.
        let radial = Images.gradientFrame(240, 180, Self.overlapping(), variant: [.radial])
        #expect(try Self.render(radial, occlusion: true) == Self.render(radial, occlusion: false))
    }

    @Test("the gradient pipeline's opaque intervals: an opaque ramp at opacity 1 hides its interior; translucent ones, lower opacity, clip and the switch hide nothing")
    func gradientOpaqueIntervals() {
        let set = [Images.gradient(SIMD4(0, 0, 80, 50), points: SIMD4(0, 0, 80, 50), row: 0, radius: 8, offset: SIMD2(10.5, 10)),
                   Images.gradient(SIMD4(0, 0, 80, 50), points: SIMD4(0, 0, 80, 50), row: 1, offset: SIMD2(10.5, 10)),
                   Images.gradient(SIMD4(0, 0, 80, 50), points: SIMD4(0, 0, 80, 50), row: 0, opacity: 0.99, offset: SIMD2(10.5, 10))]
        let f = Images.gradientFrame(120, 80, set)
        let target = SoftwareTarget(width: 120, height: 80)
        let vp = SoftwareViewport(viewport: SIMD4(0, 0, 120, 80), texels: SIMD2(120, 80))
        let ctx = SoftwarePassContext(frame: f, target: target, viewport: SIMD4(0, 0, 120, 80), clips: [], ramps: SoftwareRamps(f),
                                      shapeAtlas: SoftwareShapeAtlas())
        let batch = Batch(pipeline: .gradient, variant: [], range: 0..<3)
        let p = SoftwareGradientPipeline(f.gradients, batch, vp, target)
        // Row 35 (plane y 25): the interior runs from past the left edge's fringe to before the
        // right one's, x 10.5…90.5 less a texel and a half each side.
        let interval = p.opaqueInterval(0, 35, ctx)
        #expect(interval != nil)
        if let (a, b) = interval { #expect(a >= 11 && a <= 13 && b >= 88 && b <= 90, "\(a)..<\(b)") }
        // The corner rows (plane y 1) are inside the radius: the interior is narrower there.
        if let (a, b) = p.opaqueInterval(0, 11, ctx) { #expect(a >= 18 && b <= 83, "\(a)..<\(b)") }
        #expect(p.opaqueInterval(1, 35, ctx) == nil)
        #expect(p.opaqueInterval(2, 35, ctx) == nil)
        #expect(p.opaqueInterval(0, 70, ctx) == nil)
        let off = SoftwareGradientPipeline(f.gradients, batch, vp, target, occlusion: false)
        #expect(off.opaqueInterval(0, 35, ctx) == nil)
    }

    @Test("a pass whose first box is an opaque background clears only around it: over a previous frame's pixels, the bytes of a fresh target")
    func firstCoverSkipsTheClear() throws {
        let w = 160, h = 120
        let r = SoftwareRenderer(threads: 2)
        var stats = RenderStats()
        // A first frame leaves colour everywhere.
        var noise: [BoxInstance] = []
        for k in 0..<12 {
            let x = Float(k % 4) * 40, y = Float(k / 4) * 40
            let fill = SIMD4<Float>(Float(k % 3) / 2, Float(k % 5) / 4, 0.7, 1)
            noise.append(SoftwareRowPathTests.box(SIMD4(x, y, 44, 44), fill: fill))
        }
        try r.render(SoftwareRowPathTests.frame(w, h, boxes: noise, clear: SIMD4(1, 0, 1, 1)), stats: &stats)
        // Then an opaque background (a root layer's, its edges half a texel past the target's
        // and a rounded one inset) under two boxes.
        for background in [SoftwareRowPathTests.box(SIMD4(0, 0, Float(w), Float(h)), fill: SIMD4(0.9, 0.9, 0.9, 1)),
                           SoftwareRowPathTests.box(SIMD4(10.3, 6.6, 130, 100), fill: SIMD4(0.2, 0.6, 0.3, 1),
                                                    radii: SIMD4(repeating: 14))] {
            let f = SoftwareRowPathTests.frame(w, h, boxes: [background,
                                                             SoftwareRowPathTests.box(SIMD4(20, 20, 50, 40), fill: SIMD4(0.5, 0.1, 0.1, 0.5)),
                                                             SoftwareRowPathTests.box(SIMD4(90, 50, 50, 60), fill: SIMD4(0, 0, 0.8, 1), radii: SIMD4(repeating: 9))],
                                               clear: SIMD4(0.1, 0.2, 0.3, 1))
            let map = SoftwareViewport(viewport: SIMD4(0, 0, Float(w), Float(h)), texels: SIMD2(Float(w), Float(h)))
            let cover = SoftwareBoxPipeline.opaqueCover(background, SoftwareVariant([.border]), map, SoftwareTarget(width: w, height: h))
            #expect(!cover.isEmpty && (cover.x1 - cover.x0) * (cover.y1 - cover.y0) > w * h / 2, "\(cover)")
            try r.render(f, stats: &stats)
            let reused = r.readPixels()
            #expect(reused == (try SoftwareRowPathTests.render(f, rowPaths: true, threads: 2)))
        }
    }
}
