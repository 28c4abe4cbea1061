import Testing
import CAFrame
@testable import CASoftware

/// The box rows' four-lane corner texels (`SoftwareBoxShader.circularSources4`) against
/// `circularColor` one texel at a time: the same bytes, for fills, borders, group opacity, a
/// border-only box and unequal radii, at points inside, on and outside the quad.
@Suite struct SoftwareBoxCornerLaneTests {
    @Test("four corner texels at a time give the bytes of one at a time")
    func lanesMatchTheScalarColour() {
        var seed: UInt32 = 5
        func unit() -> Float { seed ^= seed << 13; seed ^= seed >> 17; seed ^= seed << 5; return Float(seed % 100_000) / 100_000 }
        var compared = 0, painted = 0
        for k in 0..<300 {
            let w = 10 + unit() * 120, h = 10 + unit() * 90
            let rect = SIMD4(unit() * 30, unit() * 30, w, h)
            let r = min(w, h) / 2
            let radii = k % 3 == 0 ? SIMD4(repeating: unit() * r) : SIMD4(unit() * r, unit() * r, unit() * r, unit() * r)
            let fill = SIMD4<Float>(0.7, 0.4, 0.2, 1) * (k % 4 == 0 ? 0.6 : 1)
            let border = SIMD4<Float>(0.1, 0.3, 0.5, 1) * (k % 5 == 0 ? 0.5 : 1)
            let flags = Float(InstanceFlags.edgeMask) + (k % 7 == 0 ? Float(InstanceFlags.borderOnly) : 0)
            let s = Float(1 + (k % 3))
            let i = BoxInstance(h0: SIMD4(s, 0, 0, 0), h1: SIMD4(0, s, 0, 0), h2: SIMD4(0.25, 0.5, 1, flags),
                                rect: rect, radii: radii, fill: fill, border: k % 2 == 0 ? border : .zero,
                                params: SIMD4(k % 2 == 0 ? 1 + unit() * 4 : 0, 0, k % 6 == 0 ? 0.6 : 0, 0))
            let shader = SoftwareBoxShader(i, SoftwareVariant([.border, .edgeMask]))
            #expect(shader.isCircular)
            let lo = SIMD2(rect.x, rect.y) - 0.7, hi = SIMD2(rect.x + rect.z, rect.y + rect.w) + 0.7
            for _ in 0..<40 {
                let py = rect.y - 2 + unit() * (rect.w + 4)
                let x0 = rect.x - 3 + unit() * (rect.z + 6), step = 0.25 + unit()
                let px = SIMD4(x0, x0 + step, x0 + 2 * step, x0 + 3 * step)
                let lanes = shader.circularSources4(px, py, lo: lo, hi: hi)
                for l in 0..<4 {
                    let p = SIMD2(px[l], py)
                    let inside = p.x >= lo.x && p.y >= lo.y && p.x < hi.x && p.y < hi.y
                    let want = inside ? SoftwareSpanBlend.source(shader.color(p, SIMD2(1 / s, 0), SIMD2(0, 1 / s))) : 0
                    if lanes[l] != want { Issue.record("box \(k) at \(p): \(String(lanes[l], radix: 16)) != \(String(want, radix: 16))"); return }
                    compared += 1
                    if want != 0 { painted += 1 }
                }
            }
        }
        #expect(compared == 300 * 40 * 4 && painted > compared / 3, "\(painted) of \(compared) painted")
    }
}
