/// The gradient row path's interior loop (issue 22): the texels of a row of an axial gradient
/// where the layer's shape covers the pixel fully and no clip applies.
///
/// The general row loop (`SoftwareGradientPipeline.drawRows`) decides per texel whether the
/// shape field is needed, whether the clip applies and which of the four gradient forms to
/// evaluate. In the interior of an axial gradient none of that changes along the row, so this
/// loop carries only what does: the axial parameter stepped along the row, the ramp texels and
/// their linear filter, gradient.frag's dither noise at the texel — the noise four texels at a
/// time in SIMD lanes, its two floors by the add-and-subtract of 2^23 instead of a conversion
/// each. Every float operation is the general loop's, in the same order, so the pixels are the
/// same bits (tested against it with `SoftwareRenderer.usesInteriorLoops` off).
struct SoftwareGradientInteriorSpan {
    let dx: SIMD2<Float>
    /// The quad on the plane (the general loop's test, kept so the same texels are drawn).
    let lo: SIMD2<Float>, hi: SIMD2<Float>
    /// The instance's ramp row: `width` premultiplied RGBA float texels.
    let ramp: UnsafeRawPointer
    let width: Int
    let opacity: Float
    let axialStep: Float

    /// Texels `a..<b` of the row at plane point `base + x·dx`, whose axial parameter at x is
    /// `axial0 + x·axialStep` and whose noise row term is `ignY`, written from `out[0]` on.
    func draw(_ base: SIMD2<Float>, axial0: Float, ignY: Float, _ a: Int, _ b: Int, _ out: UnsafeMutablePointer<UInt32>) {
        guard a < b else { return }
        var x = a
        // Four texels' noise at once where `floor0` is exact (g ≥ 0 below 2^23; h is below 53).
        if ignY >= 0, (Float(b) + 0.5) * 0.06711056 + ignY < 8_000_000 {
            while x &+ 4 <= b {
                let xs = SIMD4(Float(x), Float(x &+ 1), Float(x &+ 2), Float(x &+ 3))
                let g = (xs + 0.5) * 0.06711056 + ignY
                let h = 52.9829189 * (g - Self.floor0(g))
                let n = (h - Self.floor0(h) - 0.5) / 255
                for k in 0..<4 { texel(base, axial0, x &+ k, n[k], out + (x &+ k &- a)) }
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

    /// ⌊v⌋ of four values in 0 ..< 2^23 without a conversion: v + 2^23 − 2^23 is v rounded to
    /// the nearest integer (exact in that range), one less where that is above v. The same
    /// value as `softwareFloor` there.
    @inline(__always) static func floor0(_ v: SIMD4<Float>) -> SIMD4<Float> {
        let r = (v + 8_388_608) - 8_388_608
        return r.replacing(with: r - 1, where: r .> v)
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
