// Axial gradients painted four pixels at a time (issue 19's drawing speed); the lanes that
// composite and store them (`GradientLanes`) serve radial gradients too
// (CGContext+RadialGradientSpans.swift). The general painter
// builds a full-coverage mask of the clip's box and calls two closures a pixel (the shader, and
// in it the raster-to-user map). In the common case — normal blend mode, no shadow, a 32-bit
// target with an alpha byte — the rows are painted by `CPixelKernels`' `ca_axial_rows`
// (AxialGradientRows.h), which does the same arithmetic in vector lanes, one lane a pixel: along
// a row the gradient parameter t is affine in x, so four consecutive pixels usually lie in one
// stop segment (or all before the first stop, or all after the last), and their colours are one
// multiply and a multiply-add per channel. Groups that straddle a stop, and a row's last pixels,
// take the general per-pixel expression; groups past an end the options leave unpainted are
// skipped (a clear source gives every pixel back its bytes). The rows were Swift until the
// 200-gradient-rect frame showed 40 % of its time in their per-row closures and retains.
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
        // The rows are C (AxialGradientRows.h): the four-pixel groups this file's Swift lanes
        // painted, operation for operation, without their per-row closures and retains; any
        // byte order (the channels' shifts are values there).
        let shifts = (UInt32(ro * 8), UInt32(go * 8), UInt32(bo * 8), UInt32(ao * 8))
        var axis = ca_axial_axis(a: a, b: b, c: c, d: d, tx: tx, ty: ty, height: H, sx: sx, sy: sy, dx: dx, dy: dy,
                                 len2: len2, dt: dt)
        let colors = ramp.colors.flatMap { [$0.x, $0.y, $0.z, $0.w] }
        let pixels = surface.base.assumingMemoryBound(to: UInt8.self)
        ramp.locations.withUnsafeBufferPointer { locations in
            colors.withUnsafeBufferPointer { colors in
                var stops = ca_axial_ramp(locations: locations.baseAddress, colors: colors.baseAddress, count: locations.count,
                                          alpha: ramp.alpha, before: ramp.before ? 1 : 0, after: ramp.after ? 1 : 0,
                                          shiftR: shifts.0, shiftG: shifts.1, shiftB: shifts.2, shiftA: shifts.3,
                                          wide: widePixelLoops ? 1 : 0)
                guard let clip else {
                    ca_axial_rows(pixels, surface.bytesPerRow, box.x0, box.y0, box.x1, box.y1, &stops, &axis, nil)
                    return
                }
                clip.values.withUnsafeBufferPointer { values in
                    func rows(_ fullRuns: UnsafePointer<Int32>?) {
                        var mask = ca_clip_mask(values: values.baseAddress, x0: clip.box.x0, y0: clip.box.y0,
                                                x1: clip.box.x1, y1: clip.box.y1, fullRuns: fullRuns)
                        ca_axial_rows(pixels, surface.bytesPerRow, box.x0, box.y0, box.x1, box.y1, &stops, &axis, &mask)
                    }
                    guard let runs = clip.fullRuns else { return rows(nil) }
                    runs.withUnsafeBufferPointer { rows($0.baseAddress) }
                }
            }
        }
        return true
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
        // Lanes built and taken apart by constant index: a loop's variable lane index went
        // through the stack, a store-forwarding stall a lane (as in AxialGradientRows.c).
        let w0 = p.loadUnaligned(as: UInt32.self)
        let w1 = m > 1 ? (p + 4).loadUnaligned(as: UInt32.self) : 0
        let w2 = m > 2 ? (p + 8).loadUnaligned(as: UInt32.self) : 0
        let c0 = clip?[k] ?? 1
        let c1: Float = m > 1 ? clip?[k + 1] ?? 1 : 0
        let c2: Float = m > 2 ? clip?[k + 2] ?? 1 : 0
        let out = blend(SIMD4(w0, w1, w2, 0), r: r, g: g, b: b, a: a, coverage: SIMD4(c0, c1, c2, 0))
        p.storeBytes(of: out.x, as: UInt32.self)
        if m > 1 { (p + 4).storeBytes(of: out.y, as: UInt32.self) }
        if m > 2 { (p + 8).storeBytes(of: out.z, as: UInt32.self) }
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
