import Testing
import CAFrame
@testable import CASoftware

/// The CPU backend's row and span paths (issue 22: flat interiors as spans, the distance field
/// only on rims) against the per-texel port of the shaders they replace, and the 8-bit blend
/// kernel against its definition.
@Suite struct SoftwareRowPathTests {
    static func render(_ f: RenderFrame, rowPaths: Bool, threads: Int = 1) throws -> [UInt8] {
        let r = SoftwareRenderer(threads: threads)
        r.usesRowPaths = rowPaths
        var stats = RenderStats()
        try r.render(f, stats: &stats)
        return r.readPixels()
    }

    /// A box of the layer plane mapped to frame pixels by scale `s` and offset `t`.
    static func box(_ rect: SIMD4<Float>, fill: SIMD4<Float>, border: SIMD4<Float> = .zero, width: Float = 0,
                    radii: SIMD4<Float> = .zero, scale s: SIMD2<Float> = SIMD2(1, 1), offset t: SIMD2<Float> = .zero) -> BoxInstance {
        BoxInstance(h0: SIMD4(s.x, 0, 0, 0), h1: SIMD4(0, s.y, 0, 0), h2: SIMD4(t.x, t.y, 1, Float(InstanceFlags.edgeMask)),
                    rect: rect, radii: radii, fill: fill, border: border, params: SIMD4(width, 0, 0, 0))
    }

    static func frame(_ w: Int, _ h: Int, boxes: [BoxInstance], variant: ShaderVariant = [.border],
                      clear: SIMD4<Float> = .zero) -> RenderFrame {
        var f = RenderFrame(width: w, height: h)
        f.clearColor = clear
        f.boxes = boxes
        f.passes = [RenderPass(target: .main, kind: .draw([Batch(pipeline: .box, variant: variant, range: 0..<boxes.count)]))]
        return f
    }

    static func maxDifference(_ a: [UInt8], _ b: [UInt8]) -> Int {
        zip(a, b).reduce(0) { max($0, abs(Int($1.0) - Int($1.1))) }
    }

    @Test("the 8-bit scale is round(d · a / 255) for every byte and every alpha")
    func scaleIsExact() {
        for a in 0...255 {
            for d in 0...255 {
                let word = UInt32(d) | UInt32(255 - d) << 8 | UInt32(d / 2) << 16 | UInt32(d) << 24
                let got = SoftwareSpanBlend.scale(word, UInt32(a))
                let four = SoftwareSpanBlend.scale4(SIMD4(repeating: word),
                                                    SIMD8(repeating: UInt16(a)))
                for (k, byte) in [d, 255 - d, d / 2, d].enumerated() {
                    // round(x / 255) with halves up: (2x + 255) / 510.
                    let want = UInt32((2 * byte * a + 255) / 510)
                    let shift = UInt32(8 * k)
                    if (got >> shift) & 0xFF != want || (four[k % 4] >> shift) & 0xFF != want {
                        Issue.record("scale(\(byte), \(a)) gave \((got >> shift) & 0xFF), want \(want)")
                        return
                    }
                }
            }
        }
    }

    @Test("span fill and span blend agree with one texel at a time, at every length")
    func spansAgreeWithTexels() {
        var seed: UInt32 = 99
        func next() -> UInt32 { seed ^= seed << 13; seed ^= seed >> 17; seed ^= seed << 5; return seed }
        func premultiplied() -> UInt32 {
            let a = next() & 0xFF
            let c = { a == 0 ? 0 : next() % (a + 1) }
            return c() | c() << 8 | c() << 16 | a << 24
        }
        for n in 0..<19 {
            let dst = (0..<n).map { _ in premultiplied() }
            let src = (0..<n).map { _ in premultiplied() }
            let constant = premultiplied()
            var filled = dst, blended = dst
            filled.withUnsafeMutableBufferPointer { SoftwareSpanBlend.fill($0.baseAddress!, n, constant) }
            blended.withUnsafeMutableBufferPointer { b in src.withUnsafeBufferPointer { SoftwareSpanBlend.blend(b.baseAddress!, $0.baseAddress!, n) } }
            #expect(filled == dst.map { SoftwareSpanBlend.over(constant, $0) })
            #expect(blended == zip(src, dst).map { SoftwareSpanBlend.over($0, $1) })
        }
    }

    @Test("a translucent interior drawn as a span: (0.4, 0.2, 0, 0.5) over opaque blue")
    func translucentSpan() throws {
        // src + dst·(1 − 0.5): (0.4, 0.2, 0.5, 1) → 102, 51, 127.5 (GL rounds either way), 255.
        let f = Self.frame(64, 64, boxes: [Self.box(SIMD4(2.3, 3.6, 58, 57), fill: SIMD4(0.4, 0.2, 0, 0.5), radii: SIMD4(repeating: 8))],
                           clear: SIMD4(0, 0, 1, 1))
        let px = try Self.render(f, rowPaths: true)
        let i = (32 * 64 + 32) * 4
        #expect(px[i] == 102 && px[i + 1] == 51 && abs(Int(px[i + 2]) - 128) <= 1 && px[i + 3] == 255, "\(px[i..<i + 4])")
    }

    @Test("rounded boxes with borders: the row plan draws the per-texel path's pixels (±1 level a blend)")
    func boxesMatchPerTexelPath() throws {
        var boxes: [BoxInstance] = []
        var seed: UInt32 = 7
        func unit() -> Float { seed ^= seed << 13; seed ^= seed >> 17; seed ^= seed << 5; return Float(seed % 10_000) / 10_000 }
        for k in 0..<60 {
            let w = 4 + unit() * 90, h = 4 + unit() * 70
            let r = unit() * 12
            let fill = SIMD4(unit(), unit(), unit(), 1) * (k % 3 == 0 ? 1 : 0.3 + 0.6 * unit())
            let border = SIMD4(unit(), unit(), unit(), 1) * (0.2 + 0.8 * unit())
            let scale = k % 5 == 0 ? SIMD2<Float>(1.5, 0.75) : (k % 7 == 0 ? SIMD2<Float>(-1, 1) : SIMD2<Float>(1, 1))
            let offset = SIMD2(unit() * 200 - 20, unit() * 150 - 20) + (scale.x < 0 ? SIMD2(100, 0) : .zero)
            boxes.append(Self.box(SIMD4(unit() * 3, unit() * 3, w, h), fill: fill, border: border, width: unit() * 4,
                                  radii: SIMD4(r, r * unit(), r, 0), scale: scale, offset: offset))
        }
        let f = Self.frame(220, 170, boxes: boxes, clear: SIMD4(0.1, 0.2, 0.3, 1))
        let fast = try Self.render(f, rowPaths: true)
        let reference = try Self.render(f, rowPaths: false)
        #expect(fast.count == reference.count)
        // Each blend may round one level differently (the source is rounded to 8 bits first);
        // a lower layer's difference is attenuated by every translucent layer above it, so no
        // byte is more than 2 levels off (the backends' parity bound).
        #expect(Self.maxDifference(fast, reference) <= 2)
        // Some bytes do differ: the row plans drew (the per-texel path would match exactly).
        #expect(fast != reference)
        // Bands on several threads draw the same bytes.
        #expect(try Self.render(f, rowPaths: true, threads: 3) == fast)
    }

    @Test("a box too small for middle rows or columns, and one of zero size, take the row plan safely")
    func degenerateBoxes() throws {
        let boxes = [Self.box(SIMD4(10, 10, 3, 3), fill: SIMD4(0.5, 0, 0, 0.5), border: SIMD4(0, 0.5, 0, 0.5), width: 1, radii: SIMD4(repeating: 8)),
                     Self.box(SIMD4(20, 20, 0, 0), fill: SIMD4(1, 1, 1, 1)),
                     Self.box(SIMD4(-1e9, -1e9, 2e9, 2e9), fill: SIMD4(0, 0, 0.25, 0.25))]
        let f = Self.frame(40, 40, boxes: boxes)
        let fast = try Self.render(f, rowPaths: true)
        #expect(Self.maxDifference(fast, try Self.render(f, rowPaths: false)) <= 2)
    }
}

/// The runs of alike texels in shape coverage pages (`SoftwareCoverageRuns.swift`).
@Suite struct SoftwareCoverageRunTests {
    /// Writes `row` (the texels' fill and stroke bytes; the upper bytes are set to show that
    /// only these two count) at (x, 0) of `page` as one upload.
    static func upload(_ page: SoftwareTarget, x: Int, _ row: [UInt32]) {
        for (k, v) in row.enumerated() { page.pixels[x + k] = v == 0 ? 0 : 0xA500_0000 | UInt32(k) << 16 | v }
        page.updateCoverageRuns(ShapeAtlasUpload(serial: 1, page: 0, x: x, y: 0, width: row.count, height: 1,
                                                 coverage: [], field: [], aux: []))
    }

    static func runs(_ page: SoftwareTarget) -> [Int] { (0..<page.width).map { Int(page.coverageRuns![$0]) } }

    @Test("a run counts the texels with its fill and stroke bytes from a texel to the upload's right edge")
    func runsWithinUpload() {
        let page = SoftwareTarget(width: 8, height: 1, tracksCoverageRuns: true)
        Self.upload(page, x: 0, [0, 0, 0xFF, 0, 0, 0, 0x80, 0])
        #expect(Self.runs(page) == [2, 1, 1, 3, 2, 1, 1, 1])
        // An interior: texels 1…4 have full fill and no stroke; texel 5 has a stroke byte too.
        Self.upload(page, x: 0, [0, 0xFF, 0xFF, 0xFF, 0xFF, 0x10FF, 0x10FF, 0xFF])
        #expect(Self.runs(page) == [1, 4, 3, 2, 1, 2, 1, 1])
    }

    @Test("an upload into part of an earlier run shortens the runs that reached into it")
    func laterUploadShortensRuns() {
        let page = SoftwareTarget(width: 10, height: 1, tracksCoverageRuns: true)
        Self.upload(page, x: 0, [UInt32](repeating: 0, count: 10))
        #expect(Self.runs(page) == [10, 9, 8, 7, 6, 5, 4, 3, 2, 1])
        // Texel 6 becomes covered: texels 0…5 now run only up to it.
        Self.upload(page, x: 5, [0, 0xFF, 0])
        #expect(Self.runs(page) == [6, 5, 4, 3, 2, 1, 1, 1, 2, 1])
        // The same for an interior run: texel 3 gets a stroke byte.
        Self.upload(page, x: 0, [UInt32](repeating: 0xFF, count: 6))
        #expect(Self.runs(page) == [6, 5, 4, 3, 2, 1, 1, 1, 2, 1])
        Self.upload(page, x: 3, [0x20FF])
        #expect(Self.runs(page) == [3, 2, 1, 1, 2, 1, 1, 1, 2, 1])
    }
}

/// The integer source-over of 8-bit texels (`SoftwareSpanBlend.over`, the row paths' spans)
/// against the float blend of the general loop (`SoftwarePixel.blend` of the unpacked source):
/// equal for every premultiplied source, so an 8-bit source costs no level on the integer path.
@Suite struct SoftwareSpanBlendExactnessTests {
    @Test("integer source-over equals the float blend for premultiplied 8-bit sources")
    func integerOverEqualsFloatBlend() {
        var mismatches = 0, checked = 0
        for a in 0...255 {
            for c in Set([0, a / 3, a / 2, a - 1, a].filter { $0 >= 0 }) {
                for d in stride(from: 0, through: 255, by: 1) {
                    // Source (c, c/2, a−c … clamped to ≤ a, a), destination (d, 255 − d, d/2, d | 1).
                    let s = UInt32(c) | UInt32(c / 2) << 8 | UInt32(max(a - c, 0)) << 16 | UInt32(a) << 24
                    let dst = UInt32(d) | UInt32(255 - d) << 8 | UInt32(d / 2) << 16 | UInt32(d | 1) << 24
                    checked += 1
                    if SoftwareSpanBlend.over(s, dst) != SoftwarePixel.blend(SoftwarePixel.unpack(s), over: dst, additive: false) {
                        mismatches += 1
                    }
                }
            }
        }
        #expect(checked > 300_000)
        #expect(mismatches == 0)
    }
}
