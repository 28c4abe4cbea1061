// Solid fills and strokes composited straight from the rasteriser's accumulation rows (issue 19's
// drawing speed): no coverage mask is materialised, and a row is walked as runs of equal
// coverage — a cell whose accumulated area is 0 leaves the running winding sum, and so the
// coverage, unchanged — so the inside of a shape is a run of full coverage (plain stores for an
// opaque colour, `FullCoverageBlend`'s integer lanes or the table for a translucent one) and the
// hole of a ring a run of zero coverage, skipped whole. Every pixel gets exactly the bytes
// `compositeSolidOver` (CGContext+Compositing.swift) gives it: the same coverage values (the
// same running sum, in the same order), the same float operations. The walk itself is C
// (`CPixelKernels`' SolidSpanWalk.h): in Swift it spent ~500 instructions a row of the
// 10,000-rounded-rect frame around ~40 of pixel work; this file builds what it paints with.
import CPixelKernels

extension CGContext {
    /// Fills a device-space path with a premultiplied colour through the span path when the
    /// state allows it: normal blend mode, no shadow, antialiasing on, a 32-bit RGB(A) target.
    /// Returns false (nothing drawn) otherwise, for the general path to draw it.
    package func fillSolidSpans(_ path: CGPath, evenOdd: Bool, color: SIMD4<Float>) -> Bool {
        fillSolidSpans(evenOdd: evenOdd, color: color) { rasterize(devicePath: path, into: &$0) }
    }

    /// `fillSolidSpans(_:evenOdd:color:)` for geometry that `rasterize` accumulates into a clear
    /// rasteriser (returning its box, nil for nothing): strokes hand their raster polygons here.
    package func fillSolidSpans(evenOdd: Bool, color: SIMD4<Float>,
                                rasterize: (inout CoverageRasterizer) -> PixelBox?) -> Bool {
        let s = gstate
        guard usesSpanLoops, s.blendMode == .normal, s.shadow == nil || s.shadow!.color.w <= 0,
              s.shouldAntialias, s.allowsAntialiasing,
              case .rgba32(let ro, let go, let bo, let ao) = target.layout else { return false }
        // The context's rasteriser, put back clear (every row is taken) for the next path.
        return withScratchRasterizer { rast in
            // Vertical edges' whole rows held back: the walk paints the rows they alone cover from
            // their spans, worked out once for all such rows (CCoverage.h, `ca_edge_sink`).
            rast.holdsVerticalRunsAfterReset = true
            guard let box = rasterize(&rast) else { return true }
            let surface = target
            let clipped = box.intersection(PixelBox(x0: 0, y0: 0, x1: surface.width, y1: surface.height))
            let spans = SolidSpanWriter(color: color * s.alpha, offsets: SIMD4(ro, go, bo, ao ?? -1),
                                        area: (box.x1 - box.x0) * (box.y1 - box.y0), wide: widePixelLoops,
                                        storage: &solidTableScratch)
            let clip = s.clip
            let (w, h, stride, words) = (rast.width, rast.height, rast.stride, rast.wordsPerRow)
            // The walk is C (SolidSpanWalk.h): the rasteriser's rows as runs, painted under the clip
            // if any, every byte what this writer's arithmetic gives.
            spans.withPaint { paint in
                rast.clearingRows(holding: { cells, bits, written, runs, count in
                    var rows = ca_raster_rows(cells: cells, bits: bits, stride: stride, words: words, width: w, height: h,
                                              evenOdd: evenOdd ? 1 : 0, written: written, verticals: runs, verticalCount: count)
                    let pixels = surface.base.assumingMemoryBound(to: UInt8.self)
                    guard let clip else {
                        ca_solid_walk(&rows, pixels, surface.bytesPerRow, box.x0, box.y0,
                                      clipped.x0, clipped.y0, clipped.x1, clipped.y1, paint, nil)
                        return
                    }
                    clip.values.withUnsafeBufferPointer { values in
                        func walk(_ fullRuns: UnsafePointer<Int32>?) {
                            var mask = ca_clip_mask(values: values.baseAddress, x0: clip.box.x0, y0: clip.box.y0,
                                                    x1: clip.box.x1, y1: clip.box.y1, fullRuns: fullRuns)
                            ca_solid_walk(&rows, pixels, surface.bytesPerRow, box.x0, box.y0,
                                          clipped.x0, clipped.y0, clipped.x1, clipped.y1, paint, &mask)
                        }
                        guard let runs = clip.fullRuns else { return walk(nil) }
                        runs.withUnsafeBufferPointer { walk($0.baseAddress) }
                    }
                })
            }
            return true
        }
    }

    /// Coverage the solid walk leaves unpainted because no byte would change
    /// (`CA_NEGLIGIBLE_COVERAGE`: the rasteriser's float noise past an edge).
    package static let negligibleSpanCoverage: Float = CA_NEGLIGIBLE_COVERAGE

    /// The scratch rasteriser is kept between paths up to this many cells (16 MB of `Float`s);
    /// a bigger one is dropped after its path, so one huge fill does not pin its buffer.
    static let maxScratchCells = 4 << 20
}

/// One solid colour's compositing onto 32-bit pixels: D' = D·(1 − Sα·c) + S·c in the 0…255
/// domain, the arithmetic of `compositeSolidOver`.
struct SolidSpanWriter {
    let s255: SIMD4<Float>
    /// `s255` in the pixel's memory order (byte 0 first), for pixels with an alpha byte.
    let s255Bytes: SIMD4<Float>
    let sa: Float
    let ro: Int, go: Int, bo: Int, ao: Int
    let opaque: Bool
    let solid: (UInt8, UInt8, UInt8)
    /// Fills whose box has at least this many pixels get the full-coverage table (and its
    /// integer kernel); smaller ones blend each pixel in floats.
    static let tableArea = 256
    /// The opaque colour as one 32-bit word in memory order (only with an alpha byte).
    let word: UInt32
    /// Per channel, D' for every D at full coverage (translucent colours over many pixels).
    let table: [UInt8]?
    /// The same table as integer maths on whole pixels, when it reproduces every entry:
    /// D' = (D·m + b[byte]) >> 16 (see `FullCoverageBlend`). Held unwrapped, with `hasKernel`,
    /// so that a run reads it in place (an optional's `if let` copied its 100-odd bytes per run).
    let kernel: FullCoverageBlend
    let hasKernel: Bool
    /// Whether the walk may read rows eight cells at a time (the context's wide loops).
    let wideRows: Bool

    /// `wide`: the table and the full-coverage runs through `CPixelKernels`' eight-lane loops
    /// (only where `PixelKernels.available`).
    init(color: SIMD4<Float>, offsets: SIMD4<Int>, area: Int, wide: Bool = false, storage: inout [UInt8]) {
        let s = color * 255, a = color.w
        wideRows = wide
        s255 = s
        sa = a
        (ro, go, bo, ao) = (offsets.x, offsets.y, offsets.z, offsets.w)
        var inBytes = SIMD4<Float>()
        if offsets.w >= 0 { for ch in 0..<4 { inBytes[offsets[ch]] = s[ch] } }
        s255Bytes = inBytes
        opaque = a >= 1
        let rounded = s + 0.5
        let px = (UInt8(Swift.min(rounded.x, 255)), UInt8(Swift.min(rounded.y, 255)), UInt8(Swift.min(rounded.z, 255)))
        solid = px
        var bytes: (UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0)
        withUnsafeMutableBytes(of: &bytes) { b in
            b[offsets.x] = px.0; b[offsets.y] = px.1; b[offsets.z] = px.2
            if offsets.w >= 0 { b[offsets.w] = 255 }
        }
        word = withUnsafeBytes(of: bytes) { $0.load(as: UInt32.self) }
        // One buffer, filled in place, four entries at a time: the float expression
        // D·(1 − Sα) + S + 0.5 of each entry, truncated (the value lies in 0.5 … 255.5, where
        // the 2^23 floor is exact; `UInt8(_:)` of it checked its range per entry and kept the
        // loop scalar). Built for any fill of more than a few runs' pixels: a small star's
        // interior at full coverage took the float loop a pixel at a time before.
        // The table is written into `storage` (a context's, fill after fill: a fresh 1 KB array
        // was an allocation and a free a translucent fill, 1 % of the 10,000-rect frame) and
        // held from there; `storage` is only rewritten once this writer is gone.
        let needsTable = !(a >= 1 || area < Self.tableArea)
        if needsTable {
            if storage.count != 1024 { storage = [UInt8](repeating: 0, count: 1024) }
            storage.withUnsafeMutableBufferPointer { buf in
                if wide, s.x.isFinite, s.y.isFinite, s.z.isFinite, s.w.isFinite, a.isFinite {
                    // The same expressions eight entries at a time (CPixelKernels).
                    withUnsafeBytes(of: s) { ca_solid_table($0.baseAddress!.assumingMemoryBound(to: Float.self), 1 - a * 1, buf.baseAddress!) }
                    return
                }
                let out = UnsafeMutableRawPointer(buf.baseAddress!)
                let keep = 1 - a * 1
                let ramp = SIMD4<Float>(0, 1, 2, 3)
                for ch in 0..<4 {
                    let sc = s[ch] * 1
                    var d: Float = 0
                    while d < 256 {
                        let v = ((ramp + d) * keep + sc + 0.5).flooredWholeNumbers
                        let bytes = (v[0] | v[1] << 8 | v[2] << 16 | v[3] << 24)
                        out.storeBytes(of: bytes.littleEndian, toByteOffset: ch << 8 + Int(d), as: UInt32.self)
                        d += 4
                    }
                }
            }
        }
        let table: [UInt8]? = needsTable ? storage : nil
        self.table = table
        let k = table.flatMap { FullCoverageBlend(table: $0, offsets: offsets, wide: wide) }
        kernel = k ?? FullCoverageBlend.identity
        hasKernel = k != nil
    }

    /// This writer as `ca_solid_walk` reads it, for `body`'s call.
    func withPaint<R>(_ body: (UnsafePointer<ca_solid_paint>) -> R) -> R {
        withUnsafePointer(to: kernel.lanes) { lanes in
            func run(_ table: UnsafePointer<UInt8>?) -> R {
                var paint = ca_solid_paint(s255: (s255Bytes.x, s255Bytes.y, s255Bytes.z, s255Bytes.w), sa: sa, word: word,
                                           opaque: opaque ? 1 : 0, hasKernel: hasKernel ? 1 : 0, wide: kernel.wide ? 1 : 0,
                                           wideRows: wideRows ? 1 : 0, lanes: lanes, m: kernel.m, even: kernel.even, odd: kernel.odd, table: table,
                                           ro: Int32(ro), go: Int32(go), bo: Int32(bo), ao: Int32(ao),
                                           s255Channels: (s255.x, s255.y, s255.z, s255.w), solid: solid)
                return body(&paint)
            }
            guard let table else { return run(nil) }
            return table.withUnsafeBufferPointer { run($0.baseAddress) }
        }
    }
}

/// A translucent colour's full-coverage blend, D' = D·(1 − Sα) + S (per channel, rounded, the
/// 256-entry tables of `SolidSpanWriter`), as integer maths on whole 32-bit pixels: every byte
/// is ⌊(D·m + b[byte]) / 65536⌋ (16.16 fixed point), no table reads and no byte stores. `m` and
/// the `b`s are chosen so that every one of the 4 × 256 results equals the table's (the float
/// maths), so the bytes are the table's; the initialiser fails (the table is used) when no such
/// integers are found.
///
/// Four pixels at a time in 16-bit lanes (SSE2's `pmullw`, no target flag; issue 19: each pixel
/// of the 10k-rect frame is blended ~60 times): with m = mh·256 + ml and b = bh·256 + bl,
/// ⌊(D·m + b) / 65536⌋ = ⌊(D·mh + bh + ⌊(D·ml + bl) / 256⌋) / 256⌋ exactly, and no partial
/// result passes 16 bits (D·ml + bl ≤ 255·255 + 255, and the outer sum is ⌊(D·m + b) / 256⌋,
/// below 65536 because the result is a byte). A pixel's bytes 0 and 2 share one 32-bit lane
/// (two 16-bit lanes), bytes 1 and 3 another, as in CASoftware's span blend.
package struct FullCoverageBlend {
    let m: UInt64
    /// b of memory bytes 0 and 2 (low and high halves), and of bytes 1 and 3.
    let even: UInt64, odd: UInt64
    /// The vector form: m's high and low bytes in every lane (`mh`, `ml`), and bh / bl of bytes
    /// 0 and 2 (`bhEven`, `blEven`) and 1 and 3 (`bhOdd`, `blOdd`), alternating lane by lane;
    /// a C struct, so that `CPixelKernels`' eight-pixel loop reads the same constants.
    let lanes: ca_full_blend
    /// Runs of eight or more through `CPixelKernels`' AVX2 loop (same bytes).
    let wide: Bool
    /// Whether the AVX2 loop blends with one multiply a lane (`ca_full_blend.oneMultiply`).
    package var usesOneMultiply: Bool { lanes.oneMultiply != 0 }

    /// D' = D: the placeholder a writer without a kernel holds (never applied).
    static let identity = FullCoverageBlend(m: 65536, bytes: SIMD4<Int>(), wide: false)

    /// `table`: 256 entries per channel in the order r, g, b, a; `offsets`: each channel's byte
    /// in the pixel (all four present); `wide`: search and blend through `CPixelKernels`' AVX2
    /// loops (only where `PixelKernels.available`).
    package init?(table: [UInt8], offsets: SIMD4<Int>, wide: Bool = false) {
        guard table.count == 1024, offsets.w >= 0 else { return nil }
        // The byte → channel map; every byte must belong to exactly one channel. (SIMD values,
        // not arrays: this runs once a translucent fill, and its arrays were heap allocations.)
        var channelOfByte = SIMD4<Int>(repeating: -1)
        for ch in 0..<4 {
            let o = offsets[ch]
            guard o >= 0, o < 4, channelOfByte[o] < 0 else { return nil }
            channelOfByte[o] = ch
        }
        func inByteOrder(_ bs: SIMD4<Int>) -> SIMD4<Int> {
            SIMD4(bs[channelOfByte[0]], bs[channelOfByte[1]], bs[channelOfByte[2]], bs[channelOfByte[3]])
        }
        // D' ≈ D·(1 − Sα) + S, and the slope is the same for every channel: the table's own
        // (its ends differ by 255·(1 − Sα), within rounding).
        let slope = Double(Int(table[255]) - Int(table[0])) / 255
        let m0 = Int((slope * 65536).rounded())
        var found: (m: Int, bs: SIMD4<Int>)?
        if wide {
            // The same search eight entries at a time (CPixelKernels).
            var m = 0, b = (0, 0, 0, 0), b256 = (0, 0, 0, 0)
            let ok = table.withUnsafeBufferPointer { t in
                withUnsafeMutableBytes(of: &b) { b in
                    withUnsafeMutableBytes(of: &b256) { b256 in
                        ca_full_blend_search(t.baseAddress!, m0, &m, b.baseAddress!.assumingMemoryBound(to: Int.self),
                                             b256.baseAddress!.assumingMemoryBound(to: Int.self))
                    }
                }
            }
            guard ok != 0 else { return nil }
            self.init(m: m, bytes: inByteOrder(SIMD4(b.0, b.1, b.2, b.3)), wide: true,
                      bytesOver256: inByteOrder(SIMD4(b256.0, b256.1, b256.2, b256.3)))
            return
        }
        table.withUnsafeBufferPointer { t in
            for k in 0..<9 {
                // m0, then one either side, two either side, … (0, −1, 1, −2, 2, …).
                let m = m0 + (k & 1 == 1 ? -(k + 1) / 2 : k / 2)
                guard m >= 0, m <= 65536 else { continue }
                var bs = SIMD4<Int>()
                var ok = true
                for ch in 0..<4 where ok {
                    // b must put every D·m + b in [T·65536, (T + 1)·65536): with
                    // v = T·65536 − D·m, b ≥ max v and b ≤ min v + 65535. |v| < 2^25, so the
                    // wrapping operations are exact (and let the loop run in vector lanes:
                    // this search, once a fill, was 4 % of the 10k-rect frame).
                    let row = t.baseAddress! + ch << 8
                    var vmax = 0, vmin = Int.max
                    for d in 0..<256 {
                        let v = Int(row[d]) &* 65536 &- d &* m
                        vmax = max(vmax, v)
                        vmin = min(vmin, v)
                    }
                    let lo = vmax, hi = vmin &+ 65535
                    if lo <= hi { bs[ch] = lo } else { ok = false }
                }
                if ok { found = (m, bs); return }
            }
        }
        guard let (m, bs) = found else { return nil }
        self.init(m: m, bytes: inByteOrder(bs), wide: false)
    }

    /// The kernel of slope `m` (16.16) and offsets `b` of memory bytes 0…3, each D·m + b below
    /// 2^24 for D in 0…255; `bytesOver256`: offsets that are multiples of 256 and give the same
    /// results, over 256 (−1 where a byte has none), for the eight-pixel loop's one-multiply form.
    private init(m: Int, bytes b: SIMD4<Int>, wide: Bool, bytesOver256 b1: SIMD4<Int> = SIMD4(repeating: -1)) {
        self.wide = wide
        self.m = UInt64(m)
        even = UInt64(b[0]) | UInt64(b[2]) << 32
        odd = UInt64(b[1]) | UInt64(b[3]) << 32
        // Every D·m + b < 2^24 (each result is a byte), so m ≤ 65536 (mh ≤ 256) and
        // b >> 8 < 65536.
        func pairs(_ x: Int, _ y: Int) -> SIMD8<UInt16> {
            let (a, c) = (UInt16(x), UInt16(y))
            return SIMD8(a, c, a, c, a, c, a, c)
        }
        // One multiply a lane needs m below 65536 (a 16-bit lane) and every offset a multiple of
        // 256 (b1 ≤ b / 256 < 65536).
        let one = m < 65536 && b1.x >= 0 && b1.y >= 0 && b1.z >= 0 && b1.w >= 0
        lanes = ca_full_blend(mh: SIMD8(repeating: UInt16(m >> 8)), ml: SIMD8(repeating: UInt16(m & 255)),
                              bhEven: pairs(b[0] >> 8, b[2] >> 8), blEven: pairs(b[0] & 255, b[2] & 255),
                              bhOdd: pairs(b[1] >> 8, b[3] >> 8), blOdd: pairs(b[1] & 255, b[3] & 255),
                              m1: SIMD8(repeating: one ? UInt16(m) : 0),
                              b1Even: one ? pairs(b1[0], b1[2]) : SIMD8(), b1Odd: one ? pairs(b1[1], b1[3]) : SIMD8(),
                              oneMultiply: one ? 1 : 0)
    }

    /// Blends `count` pixels from `p` (32-bit, any alignment) through `CPixelKernels`'
    /// `ca_full_blend_apply`, the loop the solid walk's full-coverage runs take: eight pixels a
    /// step where `wide` (and the CPU has AVX2), four in 16-bit lanes from four (a run whose
    /// length is not a multiple of four ending with one more step over its last four, from
    /// their bytes before the run), one or two in 64-bit words below four; the same bytes every
    /// way.
    package func apply(_ p: UnsafeMutableRawPointer, count: Int) {
        withUnsafePointer(to: lanes) { ca_full_blend_apply(p, count, $0, m, even, odd, wide ? 1 : 0) }
    }
}
