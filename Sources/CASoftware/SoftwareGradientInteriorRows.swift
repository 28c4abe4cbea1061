/// The gradient row path's interior loop (issue 22): the texels of a row of an axial gradient
/// where the layer's shape covers the pixel fully and no clip applies.
///
/// The general row loop (`SoftwareGradientPipeline.drawRows`) decides per texel whether the
/// shape field is needed, whether the clip applies and which of the four gradient forms to
/// evaluate. In the interior of an axial gradient none of that changes along the row, so this
/// loop carries only what does: the axial parameter stepped along the row, the ramp texels and
/// their linear filter, gradient.frag's dither noise at the texel. It works four texels at a
/// time: the parameter, the ramp index and weight, and the noise in SIMD lanes (their floors by
/// the add-and-subtract of 2^23, exact in the range they take), then each texel's colour as one
/// vector, clamped, held to its alpha and packed to bytes without a branch or a per-lane
/// conversion (baseline x86-64 has no SSE4.1 rounding). Every float operation is the general
/// loop's, in the same order, so the pixels are the same bits (tested against it with
/// `SoftwareRenderer.usesInteriorLoops` off); the selects differ only in how they are written.
struct SoftwareGradientInteriorSpan {
    let dx: SIMD2<Float>
    /// The quad on the plane (the general loop's test, kept so the same texels are drawn).
    let lo: SIMD2<Float>, hi: SIMD2<Float>
    /// The instance's ramp row: `width` premultiplied RGBA float texels.
    let ramp: UnsafeRawPointer
    let width: Int
    let opacity: Float
    let axialStep: Float
    /// Every ramp texel's alpha 1 and the opacity 1 (the common gradient): the alpha byte is
    /// 255, the noise always added, and the clamps and the hold to alpha change no byte
    /// (`SoftwareSpanBlend.bytes` clamps the same way), so the loop skips them.
    let opaque: Bool

    init(dx: SIMD2<Float>, lo: SIMD2<Float>, hi: SIMD2<Float>, ramp: UnsafeRawPointer, width: Int, opacity: Float, axialStep: Float,
         opaqueRamp: Bool) {
        self.dx = dx; self.lo = lo; self.hi = hi; self.ramp = ramp; self.width = width
        self.opacity = opacity; self.axialStep = axialStep
        opaque = opaqueRamp && opacity == 1
    }

    /// Texels `a..<b` of the row at plane point `base + x·dx`, whose axial parameter at x is
    /// `axial0 + x·axialStep` and whose noise row term is `ignY`, written from `out[0]` on.
    func draw(_ base: SIMD2<Float>, axial0: Float, ignY: Float, _ a: Int, _ b: Int, _ out: UnsafeMutablePointer<UInt32>) {
        guard a < b else { return }
        var x = a
        // The plane point is monotone in x along the row, so where both ends lie in the quad
        // every texel between does: the per-texel test is dropped there.
        let inside = Self.contains(base + Float(a) * dx, lo, hi) && Self.contains(base + Float(b &- 1) * dx, lo, hi)
        // Four texels at once where the floors are exact: g ≥ 0 and below 2^23; h is below 53;
        // the ramp position is within 0…width − 1.
        if inside, ignY >= 0, (Float(b) + 0.5) * 0.06711056 + ignY < 8_000_000, width > 1, width < 1 << 22 {
            let last = Float(width &- 1)
            let top = SIMD4<Int32>(repeating: Int32(width &- 1))
            let ramp = self.ramp
            while x &+ 4 <= b {
                let xs = Float(x) + SIMD4<Float>(0, 1, 2, 3)  // exact: x < 2^24
                let g = (xs + 0.5) * 0.06711056 + ignY
                let h = 52.9829189 * (g - g.floorOfNonNegative)
                let n = (h - h.floorOfNonNegative - 0.5) / 255
                let t = SoftwareField.clamp01(axial0 + xs * axialStep)
                let rx = t * last
                let fl = rx.floorOfNonNegative
                let i0 = fl.wholeNumbers
                let i1 = (i0 &+ 1).replacing(with: top, where: i0 &+ 1 .> top)
                let f = rx - fl
                // Each texel's filtered ramp colour, then the rest four texels at a time, one
                // channel a vector.
                let c0 = Self.filtered(ramp, i0[0], i1[0], f[0]), c1 = Self.filtered(ramp, i0[1], i1[1], f[1])
                let c2 = Self.filtered(ramp, i0[2], i1[2], f[2]), c3 = Self.filtered(ramp, i0[3], i1[3], f[3])
                var r = SIMD4(c0.x, c1.x, c2.x, c3.x), gr = SIMD4(c0.y, c1.y, c2.y, c3.y)
                var bl = SIMD4(c0.z, c1.z, c2.z, c3.z)
                if opaque {
                    // Alpha 1 exactly (1 + 0·f): the noise on every colour channel, alpha 255.
                    let words = SoftwareSpanBlend.bytes(r + n) | SoftwareSpanBlend.bytes(gr + n) &<< 8
                        | SoftwareSpanBlend.bytes(bl + n) &<< 16 | 0xFF00_0000
                    UnsafeMutableRawPointer(out + (x &- a)).storeBytes(of: words, as: SIMD4<UInt32>.self)
                    x &+= 4
                    continue
                }
                var al = SIMD4(c0.w, c1.w, c2.w, c3.w)
                // `if c.w > 0 { c += (n, n, n, c.w < 1 ? n : 0) }`
                let on = al .> 0
                r = r.replacing(with: r + n, where: on)
                gr = gr.replacing(with: gr + n, where: on)
                bl = bl.replacing(with: bl + n, where: on)
                al = al.replacing(with: al + n, where: on .& (al .< 1))
                al = Self.unit(al)
                r = Self.held(Self.unit(r), al); gr = Self.held(Self.unit(gr), al); bl = Self.held(Self.unit(bl), al)
                let words = SoftwareSpanBlend.sources(r * opacity, gr * opacity, bl * opacity, al * opacity)
                UnsafeMutableRawPointer(out + (x &- a)).storeBytes(of: words, as: SIMD4<UInt32>.self)
                x &+= 4
            }
        }
        while x < b {
            let g = (Float(x) + 0.5) * 0.06711056 + ignY
            let h = 52.9829189 * (g - g.softwareFloor)
            texel(base, axial0, x, (h - h.softwareFloor - 0.5) / 255, out + (x &- a))
            x &+= 1
        }
    }

    @inline(__always) static func contains(_ p: SIMD2<Float>, _ lo: SIMD2<Float>, _ hi: SIMD2<Float>) -> Bool {
        p.x >= lo.x && p.y >= lo.y && p.x < hi.x && p.y < hi.y
    }

    /// Ramp texels `i0` and `i1` filtered with weight `f` (the general loop's `ca + (cb − ca)·f`).
    @inline(__always) static func filtered(_ ramp: UnsafeRawPointer, _ i0: Int32, _ i1: Int32, _ f: Float) -> SIMD4<Float> {
        let ca = ramp.loadUnaligned(fromByteOffset: Int(i0) &* 16, as: SIMD4<Float>.self)
        let cb = ramp.loadUnaligned(fromByteOffset: Int(i1) &* 16, as: SIMD4<Float>.self)
        return ca + (cb - ca) * f
    }

    /// The general loop's clamp to 0…1 (below 0 to 0, above 1 to 1).
    @inline(__always) static func unit(_ v: SIMD4<Float>) -> SIMD4<Float> {
        v.replacing(with: 0, where: v .< 0).replacing(with: 1, where: v .> 1)
    }

    /// A colour channel held to alpha (`min(c, a)`, as Swift's `min`: the alpha where it is less).
    @inline(__always) static func held(_ v: SIMD4<Float>, _ a: SIMD4<Float>) -> SIMD4<Float> {
        v.replacing(with: a, where: a .< v)
    }

    /// Texel x of the row with noise `n` (gradient.frag's `(ign − ½) / 255`), written to `out`.
    @inline(__always) func texel(_ base: SIMD2<Float>, _ axial0: Float, _ x: Int, _ n: Float, _ out: UnsafeMutablePointer<UInt32>) {
        let p = base + Float(x) * dx
        guard p.x >= lo.x, p.y >= lo.y, p.x < hi.x, p.y < hi.y else { out.pointee = 0; return }
        let t = SoftwareField.clamp01(axial0 + Float(x) * axialStep)
        // The ramp row with linear filtering (texel centres at t = 0 and 1).
        let rx = t * Float(width &- 1)
        let i0 = Int(rx), i1 = min(i0 &+ 1, width &- 1)
        let ca = ramp.loadUnaligned(fromByteOffset: i0 &* 16, as: SIMD4<Float>.self)
        let cb = ramp.loadUnaligned(fromByteOffset: i1 &* 16, as: SIMD4<Float>.self)
        var c = ca + (cb - ca) * (rx - Float(i0))
        if c.w > 0 { c += SIMD4(n, n, n, c.w < 1 ? n : 0) }
        c = c.replacing(with: 0, where: c .< 0).replacing(with: 1, where: c .> 1)
        c = SIMD4(min(c.x, c.w), min(c.y, c.w), min(c.z, c.w), c.w)
        // The general loop's `opacity · coverage` with coverage 1: the same float.
        out.pointee = SoftwareSpanBlend.source(c * opacity)
    }
}
