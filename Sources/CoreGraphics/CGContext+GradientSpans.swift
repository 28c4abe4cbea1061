// Axial gradients painted four pixels at a time (issue 19's drawing speed); the lanes that
// composite and store them (`GradientLanes`) serve radial gradients too
// (CGContext+RadialGradientSpans.swift). The general painter
// builds a full-coverage mask of the clip's box and calls two closures a pixel (the shader, and
// in it the raster-to-user map). In the common case — normal blend mode, no shadow, a 32-bit
// target with an alpha byte — this loop does the same arithmetic in vector lanes, one lane a
// pixel: along a row the gradient parameter t is affine in x, so four consecutive pixels usually
// lie in one stop segment (or all before the first stop, or all after the last), and their
// colours are one multiply and a multiply-add per channel. Groups that straddle a stop, and a
// row's last pixels, take the general per-pixel expression.
//
// The colours are the general loop's expressions lane by lane (`CGGradient.color(at:)`'s
// interpolation, premultiplication, the context alpha, source-over, the coverage mix, the store's
// rounding; its clamp changes no byte there), so the bytes are the general loop's but for t: a
// row's t is stepped from its first pixel (in `Double` to each group, in `Float` across the
// group's lanes) instead of mapped through the inverse CTM per pixel, which moves a byte by one
// only where a value sits on a rounding boundary (CGGradientSpanTests compares the two).

import CPixelKernels

extension CGContext {
    /// Paints an axial gradient over the drawable box when the state allows the direct loops;
    /// false (nothing painted) otherwise. Arguments as `drawLinearGradient` has checked them.
    package func paintLinearGradientSpans(_ gradient: CGGradient, sx: Double, sy: Double, dx: Double, dy: Double,
                                          len2: Double, before: Bool, after: Bool) -> Bool {
        let st = gstate
        guard usesSpanLoops, st.blendMode == .normal, st.shadow == nil || st.shadow!.color.w <= 0 else { return false }
        let ctm = st.ctm
        let det = ctm.a * ctm.d - ctm.b * ctm.c
        guard det.isFinite, abs(det) > 1e-12 else { return true }
        let inv = ctm.inverted()
        let (a, b, c, d, tx, ty) = (Double(inv.a), Double(inv.b), Double(inv.c), Double(inv.d), Double(inv.tx), Double(inv.ty))
        let H = Double(height)
        let surface = target
        let box = drawableBox.intersection(PixelBox(x0: 0, y0: 0, x1: surface.width, y1: surface.height))
        guard !box.isEmpty else { return true }
        // t at the first pixel centre of row y, and its step from one pixel to the next.
        let dt = (a * dx + b * dy) / len2
        let rowStart = { (y: Int) -> Double in
            let px = Double(box.x0) + 0.5, py = H - (Double(y) + 0.5)
            let ux = a * px + c * py + tx, uy = b * px + d * py + ty
            return ((ux - sx) * dx + (uy - sy) * dy) / len2
        }
        let ramp = AxialRamp(gradient, alpha: st.alpha, before: before, after: after)
        let clip = st.clip
        guard case .rgba32(let ro, let go, let bo, let ao?) = surface.layout else {
            // Gray, alpha-only and alpha-less targets: one pixel at a time.
            for y in box.y0..<box.y1 {
                let t0 = rowStart(y)
                for x in box.x0..<box.x1 {
                    let cov = clip?.value(x, y) ?? 1
                    guard cov > 0 else { continue }
                    ramp.blend(surface, x, y, t: t0 + Double(x - box.x0) * dt, coverage: cov)
                }
            }
            return true
        }
        switch (ro, go, bo, ao) {
        case (0, 1, 2, 3): paintAxialRows(RGBAOrder.self, box: box, ramp: ramp, rowStart: rowStart, dt: dt)
        case (3, 2, 1, 0): paintAxialRows(ABGROrder.self, box: box, ramp: ramp, rowStart: rowStart, dt: dt)
        case (2, 1, 0, 3): paintAxialRows(BGRAOrder.self, box: box, ramp: ramp, rowStart: rowStart, dt: dt)
        case (1, 2, 3, 0): paintAxialRows(ARGBOrder.self, box: box, ramp: ramp, rowStart: rowStart, dt: dt)
        default: return false
        }
        return true
    }
}

extension CGContext {
    /// The rows of `paintLinearGradientSpans` on a 32-bit target whose bytes are in `Order`:
    /// whole groups of four by `AxialStops`, a row's last one to three pixels as one group.
    private func paintAxialRows<Order: GradientByteOrder>(_ order: Order.Type, box: PixelBox, ramp: AxialRamp,
                                                      rowStart: (Int) -> Double, dt: Double) {
        let surface = target
        let clip = gstate.clip
        let n = box.x1 - box.x0
        let clipValues = clip?.values ?? []
        clipValues.withUnsafeBufferPointer { cv in
            ramp.locations.withUnsafeBufferPointer { locations in
                ramp.colors.withUnsafeBufferPointer { colors in
                    let stops = AxialStops<Order>(ramp: ramp, locations: locations, colors: colors, wide: widePixelLoops)
                    for y in box.y0..<box.y1 {
                        let t0 = rowStart(y)
                        let row = surface.base + y * surface.bytesPerRow + box.x0 * 4
                        // Pixels a..<b of the row, under `clip` (or none).
                        func paint(_ a: Int, _ b: Int, _ clip: UnsafePointer<Float>?) {
                            guard a < b else { return }
                            let k = stops.paintRow(row, from: a, end: b, t0: t0, dt: dt, clip: clip)
                            if k < b {
                                stops.lanes.paintPixels(row, from: k, count: b - k, clip: clip) { stops.source(t0 + Double($0) * dt) }
                            }
                        }
                        guard let clip else { paint(0, n, nil); continue }
                        // The clip row from the box's first pixel (drawableBox lies inside the
                        // clip's box); the whole groups of four where the clip is 1 are painted
                        // as unclipped (the groups stay where they were: the same bytes).
                        let clipRow = cv.baseAddress! + (y - clip.box.y0) * (clip.box.x1 - clip.box.x0) + (box.x0 - clip.box.x0)
                        let full = clip.fullColumns(row: y)
                        let lo = min((max(full.lo - box.x0, 0) + 3) & ~3, n)
                        let hi = max(lo, min(full.hi - box.x0, n) & ~3)
                        paint(0, lo, clipRow)
                        paint(lo, hi, nil)
                        paint(hi, n, clipRow)
                    }
                }
            }
        }
    }
}

/// A gradient's stops as the span loops read them, with the context alpha and the extend options.
private struct AxialRamp {
    let gradient: CGGradient
    let locations: [Float]
    let colors: [SIMD4<Float>]
    let alpha: Float
    let before: Bool, after: Bool

    init(_ gradient: CGGradient, alpha: Float, before: Bool, after: Bool) {
        self.gradient = gradient
        locations = gradient.locations
        colors = gradient.colors
        self.alpha = alpha
        self.before = before
        self.after = after
    }

    /// The premultiplied source colour (times the alpha) of one pixel: `drawLinearGradient`'s
    /// shader.
    @inline(__always) func source(_ t: Double) -> SIMD4<Float> {
        if t < 0, !before { return .zero }
        if t > 1, !after { return .zero }
        return gradient.color(at: Float(t)) * alpha
    }

    /// The general loop's pixel: source-over, mixed by the coverage, stored.
    @inline(__always) func blend(_ surface: BitmapSurface, _ x: Int, _ y: Int, t: Double, coverage cov: Float) {
        let s = source(t)
        let dst = surface.load(x, y)
        let r = s + dst * (1 - s.w)
        surface.store(cov >= 1 ? r : dst + (r - dst) * cov, x, y)
    }
}

/// The four-pixel loop over one row: runs of groups whose pixels all lie in one piece of the
/// ramp (`piece`), each run with its two stops' colours held in lanes.
private struct AxialStops<Order: GradientByteOrder> {
    let ramp: AxialRamp
    let locations: UnsafeBufferPointer<Float>
    let colors: UnsafeBufferPointer<SIMD4<Float>>
    /// Opaque pieces without a clip through `CPixelKernels`' eight-pixel loop (same bytes).
    let wide: Bool
    var lanes: GradientLanes<Order> { GradientLanes() }

    /// Which piece of `color(at:)` a parameter falls in: 0 at or before the first stop, the
    /// stop count at or after the last, i between stops i − 1 and i; −1 before the start and −2
    /// after the end where the options leave those unpainted.
    @inline(__always) func piece(_ t: Double) -> Int {
        let before = ramp.before, after = ramp.after
        if t < 0, !before { return -1 }
        if t > 1, !after { return -2 }
        let f = Float(t)
        let n = locations.count
        if f <= locations[0] { return 0 }
        if f >= locations[n - 1] { return n }
        var i = 1
        while locations[i] < f { i += 1 }
        return i
    }

    @inline(__always) func source(_ t: Double) -> SIMD4<Float> { ramp.source(t) }

    /// Paints whole groups of four of pixels `start ..< n` of `row` (t = t0 + k·dt at pixel k,
    /// the clip's coverage of pixel k at `clip[k]` when there is one); returns where it stopped.
    func paintRow(_ row: UnsafeMutableRawPointer, from start: Int, end n: Int, t0: Double, dt: Double, clip: UnsafePointer<Float>?) -> Int {
        var k = start
        let ones = SIMD4<Float>(repeating: 1)
        let steps = SIMD4<Float>(0, 1, 2, 3) * Float(dt)
        while k + 4 <= n {
            let p = piece(t0 + Double(k) * dt)
            guard p == piece(t0 + Double(k + 3) * dt) else {
                // Across a stop or an end: pixel by pixel.
                lanes.paintPixels(row, from: k, count: 4, clip: clip) { source(t0 + Double($0) * dt) }
                k += 4
                continue
            }
            if p < 0 || p == 0 || p == locations.count {
                // One colour (or none) for as long as the piece lasts.
                let s = source(t0 + Double(k) * dt)
                let r = SIMD4(repeating: s.x), g = SIMD4(repeating: s.y), b = SIMD4(repeating: s.z), a = SIMD4(repeating: s.w)
                repeat {
                    let cov = clip.map { UnsafeRawPointer($0 + k).loadUnaligned(as: SIMD4<Float>.self) } ?? ones
                    lanes.paint(row + k * 4, r: r, g: g, b: b, a: a, coverage: cov)
                    k += 4
                } while k + 4 <= n && piece(t0 + Double(k + 3) * dt) == p
                continue
            }
            // color(at:) between stops p − 1 and p, lane by lane, for as long as the piece lasts.
            let l0 = locations[p - 1], l1 = locations[p], perUnit = 1 / (l1 - l0)
            let c0 = colors[p - 1], c1 = colors[p]
            let r0 = SIMD4(repeating: c0.x), g0 = SIMD4(repeating: c0.y), b0 = SIMD4(repeating: c0.z), a0 = SIMD4(repeating: c0.w)
            let dr = SIMD4(repeating: c1.x - c0.x), dg = SIMD4(repeating: c1.y - c0.y)
            let db = SIMD4(repeating: c1.z - c0.z), da = SIMD4(repeating: c1.w - c0.w)
            let alpha = ramp.alpha
            // Both stops opaque and no context alpha: every product with the alpha is × 1, and
            // the alpha byte is 255.
            let opaque = c0.w >= 1 && c1.w >= 1 && alpha >= 1
            if opaque, clip == nil, wide {
                // Eight pixels a step where the CPU has AVX2: the same groups, the same bytes.
                var piece = ca_axial_piece(l0: l0, l1: l1, perUnit: perUnit, r0: c0.x, g0: c0.y, b0: c0.z,
                                           dr: c1.x - c0.x, dg: c1.y - c0.y, db: c1.z - c0.z,
                                           shiftR: Order.r, shiftG: Order.g, shiftB: Order.b, alphaWord: 0xFF << Order.a)
                k = ca_axial_opaque_run(row.assumingMemoryBound(to: UInt32.self), k, n, t0, dt, &piece)
                continue
            }
            repeat {
                // t of the group's first pixel, then a step a lane (in Float: within an ulp or
                // two of t0 + (k + i)·dt).
                let tf = SIMD4(repeating: Float(t0 + Double(k) * dt)) + steps
                let f = (tf - l0) * perUnit
                let cov = clip.map { UnsafeRawPointer($0 + k).loadUnaligned(as: SIMD4<Float>.self) } ?? ones
                if opaque, clip == nil || all(cov .>= 1) {
                    (row + k * 4).storeBytes(of: lanes.packOpaque(r0 + dr * f, g0 + dg * f, b0 + db * f), as: SIMD4<UInt32>.self)
                } else {
                    let sa = a0 + da * f
                    lanes.paint(row + k * 4, r: (r0 + dr * f) * sa * alpha, g: (g0 + dg * f) * sa * alpha,
                                b: (b0 + db * f) * sa * alpha, a: sa * alpha, coverage: cov)
                }
                k += 4
                guard k + 4 <= n else { break }
                // Still in the piece: strictly between its stops (then inside 0…1 as well), or
                // as `piece` finds at an end.
                let tLast = t0 + Double(k + 3) * dt, fLast = Float(tLast)
                guard fLast > l0 && fLast < l1 || piece(tLast) == p else { break }
            } while true
        }
        return k
    }
}

/// Where a 32-bit pixel's bytes sit, as bit shifts within the little-endian word: a type per
/// layout, so that the span loops' shifts are constants.
protocol GradientByteOrder {
    static var r: UInt32 { get }
    static var g: UInt32 { get }
    static var b: UInt32 { get }
    static var a: UInt32 { get }
}

/// Bytes R, G, B, A in memory (premultipliedLast, big-endian order).
enum RGBAOrder: GradientByteOrder {
    static var r: UInt32 { 0 }
    static var g: UInt32 { 8 }
    static var b: UInt32 { 16 }
    static var a: UInt32 { 24 }
}

/// Bytes A, B, G, R (premultipliedLast, little-endian).
enum ABGROrder: GradientByteOrder {
    static var r: UInt32 { 24 }
    static var g: UInt32 { 16 }
    static var b: UInt32 { 8 }
    static var a: UInt32 { 0 }
}

/// Bytes B, G, R, A (premultipliedFirst, little-endian).
enum BGRAOrder: GradientByteOrder {
    static var r: UInt32 { 16 }
    static var g: UInt32 { 8 }
    static var b: UInt32 { 0 }
    static var a: UInt32 { 24 }
}

/// Bytes A, R, G, B (premultipliedFirst, big-endian).
enum ARGBOrder: GradientByteOrder {
    static var r: UInt32 { 8 }
    static var g: UInt32 { 16 }
    static var b: UInt32 { 24 }
    static var a: UInt32 { 0 }
}

/// Source-over of four planar colours onto four 32-bit pixels, mixed by coverage, stored with
/// `BitmapSurface.store`'s rounding.
struct GradientLanes<Order: GradientByteOrder> {
    @inline(__always) func paint(_ p: UnsafeMutableRawPointer, r sr: SIMD4<Float>, g sg: SIMD4<Float>, b sb: SIMD4<Float>,
                                  a sa: SIMD4<Float>, coverage cov: SIMD4<Float>) {
        let full = cov .>= 1
        if all(full), all(sa .>= 1) {
            // Opaque over full coverage: D·(1 − 1) adds 0, so the result is the source.
            p.storeBytes(of: pack(sr, sg, sb, sa), as: SIMD4<UInt32>.self)
            return
        }
        let old = p.loadUnaligned(as: SIMD4<UInt32>.self)
        p.storeBytes(of: blend(old, r: sr, g: sg, b: sb, a: sa, coverage: cov), as: SIMD4<UInt32>.self)
    }

    /// Pixels `k ..< k + m` of a row (m from 1 to 4), pixel i's source colour `source(i)`
    /// (premultiplied, with the context alpha), the clip's coverage from `clip` when there is
    /// one: a group whose colours are found one at a time. A group of fewer than four reads
    /// and writes only its own pixels (the ones past the row may belong to another context).
    @inline(__always) func paintPixels(_ row: UnsafeMutableRawPointer, from k: Int, count m: Int, clip: UnsafePointer<Float>?,
                                       source: (Int) -> SIMD4<Float>) {
        let s0 = source(k), s1 = m > 1 ? source(k + 1) : .zero
        let s2 = m > 2 ? source(k + 2) : .zero, s3 = m > 3 ? source(k + 3) : .zero
        let r = SIMD4(s0.x, s1.x, s2.x, s3.x), g = SIMD4(s0.y, s1.y, s2.y, s3.y)
        let b = SIMD4(s0.z, s1.z, s2.z, s3.z), a = SIMD4(s0.w, s1.w, s2.w, s3.w)
        let p = row + k * 4
        if m == 4 {
            let cov = clip.map { UnsafeRawPointer($0 + k).loadUnaligned(as: SIMD4<Float>.self) } ?? SIMD4(repeating: 1)
            paint(p, r: r, g: g, b: b, a: a, coverage: cov)
            return
        }
        var old = SIMD4<UInt32>(), cov = SIMD4<Float>()
        for i in 0..<m {
            old[i] = (p + i * 4).loadUnaligned(as: UInt32.self)
            cov[i] = clip?[k + i] ?? 1
        }
        let out = blend(old, r: r, g: g, b: b, a: a, coverage: cov)
        for i in 0..<m { (p + i * 4).storeBytes(of: out[i], as: UInt32.self) }
    }

    /// Four pixels' new words from their old ones: source-over, mixed by coverage; pixels the
    /// clip leaves out keep their bytes.
    @inline(__always) func blend(_ old: SIMD4<UInt32>, r sr: SIMD4<Float>, g sg: SIMD4<Float>, b sb: SIMD4<Float>,
                                  a sa: SIMD4<Float>, coverage cov: SIMD4<Float>) -> SIMD4<UInt32> {
        let full = cov .>= 1
        let k: Float = 1 / 255
        let dr = (old &>> Order.r).lowByteAsFloat * k, dg = (old &>> Order.g).lowByteAsFloat * k
        let db = (old &>> Order.b).lowByteAsFloat * k, da = (old &>> Order.a).lowByteAsFloat * k
        let keep = 1 - sa
        let rr = sr + dr * keep, rg = sg + dg * keep, rb = sb + db * keep, ra = sa + da * keep
        @inline(__always) func mix(_ r: SIMD4<Float>, _ d: SIMD4<Float>) -> SIMD4<Float> {
            (d + (r - d) * cov).replacing(with: r, where: full)
        }
        let out = pack(mix(rr, dr), mix(rg, dg), mix(rb, db), mix(ra, da))
        return out.replacing(with: old, where: cov .<= 0)
    }

    /// `pack` of opaque colours: the alpha byte is 255.
    @inline(__always) func packOpaque(_ r: SIMD4<Float>, _ g: SIMD4<Float>, _ b: SIMD4<Float>) -> SIMD4<UInt32> {
        Self.byte(r) &<< Order.r | Self.byte(g) &<< Order.g | Self.byte(b) &<< Order.b | SIMD4(repeating: 0xFF << Order.a)
    }

    /// Four pixels' bytes: each channel × 255, + 0.5, truncated (the store's rounding), at its
    /// byte of the word. The store also clamps to 0…1 first; here every value already lies in
    /// 0 … 1 + a few ulps (colours and coverage are in 0…1, the source is premultiplied, and
    /// source-over and the coverage mix are convex), where the clamp changes no byte.
    @inline(__always) func pack(_ r: SIMD4<Float>, _ g: SIMD4<Float>, _ b: SIMD4<Float>, _ a: SIMD4<Float>) -> SIMD4<UInt32> {
        Self.byte(r) &<< Order.r | Self.byte(g) &<< Order.g | Self.byte(b) &<< Order.b | Self.byte(a) &<< Order.a
    }

    /// ⌊v·255 + 0.5⌋ for v in 0 … 1 + a few ulps (0.5 … 255.5 before the floor).
    @inline(__always) static func byte(_ v: SIMD4<Float>) -> SIMD4<UInt32> {
        (v * 255 + 0.5).flooredWholeNumbers
    }
}
