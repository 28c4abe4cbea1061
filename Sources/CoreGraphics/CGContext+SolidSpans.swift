// Solid fills and strokes composited straight from the rasteriser's accumulation rows (issue 19's
// drawing speed): no coverage mask is materialised, and a row is walked as runs of equal
// coverage — a cell whose accumulated area is 0 leaves the running winding sum, and so the
// coverage, unchanged — so the inside of a shape is a run of full coverage (plain stores for an
// opaque colour, four table reads a pixel for a translucent one) and the hole of a ring a run of
// zero coverage that costs one comparison a pixel. Every pixel gets exactly the bytes
// `compositeSolidOver` (CGContext+Compositing.swift) gives it: the same coverage values (the
// same running sum, in the same order), the same float operations.

extension CGContext {
    /// Fills a device-space path with a premultiplied colour through the span path when the
    /// state allows it: normal blend mode, no shadow, antialiasing on, a 32-bit RGB(A) target.
    /// Returns false (nothing drawn) otherwise, for the general path to draw it.
    package func fillSolidSpans(_ path: CGPath, evenOdd: Bool, color: SIMD4<Float>) -> Bool {
        let s = gstate
        guard s.blendMode == .normal, s.shadow == nil || s.shadow!.color.w <= 0,
              s.shouldAntialias, s.allowsAntialiasing,
              case .rgba32(let ro, let go, let bo, let ao) = target.layout else { return false }
        guard let (rast, box) = rasterized(devicePath: path) else { return true }
        let surface = target
        let clipped = box.intersection(PixelBox(x0: 0, y0: 0, x1: surface.width, y1: surface.height))
        guard !clipped.isEmpty else { return true }
        var spans = SolidSpanWriter(color: color * s.alpha, offsets: SIMD4(ro, go, bo, ao ?? -1),
                                    area: (box.x1 - box.x0) * (box.y1 - box.y0))
        let clip = s.clip
        let stride = rast.stride, w = rast.width
        rast.acc.withUnsafeBufferPointer { acc in
            for y in clipped.y0..<clipped.y1 {
                let row = (surface.base + y * surface.bytesPerRow).assumingMemoryBound(to: UInt8.self)
                let a = acc.baseAddress! + (y - box.y0) * stride
                var sum: Float = 0
                var i = 0
                // Cells left of the bitmap still add to the sum.
                let firstI = clipped.x0 - box.x0, endI = clipped.x1 - box.x0
                while i < w {
                    sum += a[i]
                    let e = nextNonZero(a, from: i + 1, end: w)
                    let c = CoverageRasterizer.coverage(winding: sum, evenOdd: evenOdd)
                    let lo = max(i, firstI), hi = min(e, endI)
                    if c > 0, lo < hi {
                        if let clip {
                            for k in lo..<hi {
                                let x = box.x0 + k
                                spans.blend(row + x * 4, coverage: c * clip.value(x, y))
                            }
                        } else {
                            spans.fill(row + (box.x0 + lo) * 4, count: hi - lo, coverage: c)
                        }
                    }
                    i = e
                }
            }
        }
        return true
    }

    /// The first index in `from..<end` whose cell is not 0 (`end` if none).
    @inline(__always)
    private func nextNonZero(_ a: UnsafePointer<Float>, from: Int, end: Int) -> Int {
        var e = from
        while e < end, a[e] == 0 { e += 1 }
        return e
    }
}

/// One solid colour's compositing onto 32-bit pixels: D' = D·(1 − Sα·c) + S·c in the 0…255
/// domain, the arithmetic of `compositeSolidOver`.
struct SolidSpanWriter {
    let s255: SIMD4<Float>
    let sa: Float
    let ro: Int, go: Int, bo: Int, ao: Int
    let opaque: Bool
    let solid: (UInt8, UInt8, UInt8)
    /// The opaque colour as one 32-bit word in memory order (only with an alpha byte).
    let word: UInt32
    /// Per channel, D' for every D at full coverage (translucent colours over many pixels).
    let table: [UInt8]?

    init(color: SIMD4<Float>, offsets: SIMD4<Int>, area: Int) {
        let s = color * 255, a = color.w
        s255 = s
        sa = a
        (ro, go, bo, ao) = (offsets.x, offsets.y, offsets.z, offsets.w)
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
        table = a >= 1 || area < 2048 ? nil : (0..<4).flatMap { ch -> [UInt8] in
            (0..<256).map { d in UInt8(Float(d) * (1 - a * 1) + s[ch] * 1 + 0.5) }
        }
    }

    /// `count` pixels from `p`, all at coverage `c` (> 0).
    @inline(__always)
    func fill(_ p: UnsafeMutablePointer<UInt8>, count: Int, coverage c: Float) {
        if c >= 1, opaque, ao >= 0 {
            UnsafeMutableRawPointer(p).withMemoryRebound(to: UInt32.self, capacity: count) { q in
                q.update(repeating: word, count: count)
            }
            return
        }
        fillEach(p, count: count, coverage: c)
    }

    /// The table and pixel-at-a-time loops behind `fill(_:count:coverage:)`.
    @inline(__always)
    private func fillEach(_ p: UnsafeMutablePointer<UInt8>, count: Int, coverage c: Float) {
        if c >= 1, let table {
            table.withUnsafeBufferPointer { t in
                var q = p
                for _ in 0..<count {
                    q[ro] = t[Int(q[ro])]; q[go] = t[256 + Int(q[go])]; q[bo] = t[512 + Int(q[bo])]
                    if ao >= 0 { q[ao] = t[768 + Int(q[ao])] }
                    q += 4
                }
            }
            return
        }
        var q = p
        for _ in 0..<count { blend(q, coverage: c); q += 4 }
    }

    /// One pixel at coverage `c` (≤ 0: untouched).
    @inline(__always)
    func blend(_ p: UnsafeMutablePointer<UInt8>, coverage c: Float) {
        guard c > 0 else { return }
        if c >= 1, opaque {
            p[ro] = solid.0; p[go] = solid.1; p[bo] = solid.2
            if ao >= 0 { p[ao] = 255 }
            return
        }
        if c >= 1, let table {
            p[ro] = table[Int(p[ro])]; p[go] = table[256 + Int(p[go])]; p[bo] = table[512 + Int(p[bo])]
            if ao >= 0 { p[ao] = table[768 + Int(p[ao])] }
            return
        }
        let k = c < 1 ? c : 1
        let d = SIMD4<Float>(Float(p[ro]), Float(p[go]), Float(p[bo]), ao >= 0 ? Float(p[ao]) : 255)
        let o = d * (1 - sa * k) + s255 * k + 0.5
        p[ro] = UInt8(o.x); p[go] = UInt8(o.y); p[bo] = UInt8(o.z)
        if ao >= 0 { p[ao] = UInt8(o.w) }
    }
}
