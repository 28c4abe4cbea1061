import Foundation
import CAFrame

/// feTurbulence (`FilterTurbulenceStep`; Filter Effects 1 § feTurbulence) as filter.frag's
/// CA_PRIM_TURBULENCE computes it, in single precision from the lattice as the shader's
/// 256 × 3 float texture holds it (`TurbulenceLattice.texels`), so both backends sum the same
/// numbers.
struct SoftwareTurbulenceLattice {
    /// Per lattice index: the gradients of r, g (row 0) and of b, a (row 1).
    let rg: [SIMD4<Float>], ba: [SIMD4<Float>]
    /// The permutation (row 2).
    let perm: [Float]

    init(_ l: TurbulenceLattice) {
        let t = l.texels, n = TurbulenceLattice.size
        rg = (0..<n).map { SIMD4(t[$0 * 4], t[$0 * 4 + 1], t[$0 * 4 + 2], t[$0 * 4 + 3]) }
        ba = (0..<n).map { SIMD4(t[4 * n + $0 * 4], t[4 * n + $0 * 4 + 1], t[4 * n + $0 * 4 + 2], t[4 * n + $0 * 4 + 3]) }
        perm = (0..<n).map { t[8 * n + $0 * 4] }
    }

    /// The frame → user-space rows of `step`, padded to three with zero rows (as unset
    /// uniforms read).
    static func inverseRows(_ step: FilterTurbulenceStep) -> [SIMD4<Float>] {
        Array(step.inverse.prefix(3)) + Array(repeating: SIMD4<Float>.zero, count: max(0, 3 - step.inverse.count))
    }

    /// `lat(i)`: the permutation at i mod 256.
    @inline(__always) func lat(_ i: Float) -> Float {
        perm[min(max(SoftwareClamp.int(SoftwareFilterPrimitives.mod(i, 256)), 0), 255)]
    }

    /// `corner(b, r)`: the four channels' gradients at lattice index b dotted with r.
    @inline(__always) func corner(_ b: Float, _ r: SIMD2<Float>) -> SIMD4<Float> {
        let i = min(max(SoftwareClamp.int(b), 0), 255)
        let g0 = rg[i], g1 = ba[i]
        return SIMD4(r.x * g0.x + r.y * g0.y, r.x * g0.z + r.y * g0.w, r.x * g1.x + r.y * g1.y, r.x * g1.z + r.y * g1.w)
    }

    /// `noise4`: the reference's noise2 for all four channels; `st` stitch width, height, wrapX,
    /// wrapY.
    @inline(__always) func noise(_ v: SIMD2<Float>, _ st: SIMD4<Float>, stitching: Bool) -> SIMD4<Float> {
        let t = v + 4096
        var b0 = SIMD2(t.x.rounded(.towardZero), t.y.rounded(.towardZero)), b1 = b0 + 1
        let r0 = t - b0, r1 = r0 - 1
        if stitching {
            if b0.x >= st.z { b0.x -= st.x }
            if b1.x >= st.z { b1.x -= st.x }
            if b0.y >= st.w { b0.y -= st.y }
            if b1.y >= st.w { b1.y -= st.y }
        }
        typealias P = SoftwareFilterPrimitives
        b0 = SIMD2(P.mod(b0.x, 256), P.mod(b0.y, 256)); b1 = SIMD2(P.mod(b1.x, 256), P.mod(b1.y, 256))
        let i = lat(b0.x), j = lat(b1.x)
        let s = r0 * r0 * (3 - 2 * r0)
        func mix(_ a: SIMD4<Float>, _ b: SIMD4<Float>, _ f: Float) -> SIMD4<Float> { a + (b - a) * f }
        let a = mix(corner(lat(i + b0.y), r0), corner(lat(j + b0.y), SIMD2(r1.x, r0.y)), s.x)
        let b = mix(corner(lat(i + b1.y), SIMD2(r0.x, r1.y)), corner(lat(j + b1.y), r1), s.x)
        return mix(a, b, s.y)
    }

    /// The premultiplied colour of `step` at frame pixel `p`: the noise at the user-space point
    /// of the pixel's corner (the reference samples the integer pixel grid), octaves summed.
    /// `rows`: `step.inverse`, three rows (`inverseRows`).
    func turbulence(_ step: FilterTurbulenceStep, rows: [SIMD4<Float>], at p: SIMD2<Float>) -> SIMD4<Float> {
        let fp = p - 0.5
        let q = fp.x * rows[0].xyz + fp.y * rows[1].xyz + rows[2].xyz
        var v = SIMD2(q.x, q.y) / q.z * step.frequency
        let s = step.stitch
        var st = SIMD4(Float(s?.width ?? 0), Float(s?.height ?? 0), Float(s?.wrapX ?? 0), Float(s?.wrapY ?? 0))
        var sum = SIMD4<Float>.zero
        var ratio: Float = 1
        for _ in 0..<max(step.octaves, 0) {
            let z = noise(v, st, stitching: s != nil)
            sum += (step.fractal ? z : SIMD4(abs(z.x), abs(z.y), abs(z.z), abs(z.w))) / ratio
            v *= 2; ratio *= 2
            st = SIMD4(st.x * 2, st.y * 2, 2 * st.z - 4096, 2 * st.w - 4096)
        }
        let c = SoftwareFilterMath.clamp01(step.fractal ? (sum + 1) * 0.5 : sum)
        return SoftwareFilterMath.premultiply(c)
    }
}
