import Foundation
import CAFrame

/// Gradient instances drawn row by row (issue 22): gradient.frag's pixels without a homography
/// per texel, with the axial parameter stepped along the row.
///
/// Without perspective the plane point of a texel is `base + x·dx` along a row
/// (`SoftwareAffineMap`). The axial parameter t = (p − start)·axis / |axis|² is affine in the
/// point, so along a row it is `t0 + x·dt`; the radial, conic and focal forms keep their
/// per-texel maths (a square root, an `atan2`, the focal root), which is what they need. The
/// colour is read from the instance's ramp row — the frame's 1,024-entry premultiplied table,
/// the very texels GL samples with linear filtering, so the interpolation space is GL's — by
/// one pointer per instance, then dithered with gradient.frag's noise at the texel, as the
/// shader does (the noise is what keeps long ramps free of bands, so it stays per texel). The
/// layer's rounded shape is evaluated only outside each row's interior interval, and the row
/// is blended with the 8-bit span kernel (opaque texels stored without reading the target).
struct SoftwareGradientRowPlan {
    let map: SoftwareAffineMap
    /// Where the shape's coverage is 1 (the field is skipped there).
    let interior: SoftwareInterior
    /// The quad on the plane, widened by a texel's step for the row intervals.
    let outerLo: SIMD2<Float>, outerHi: SIMD2<Float>

    /// The plan of instance `i` drawn through `q`, or nil where the per-texel path must draw it
    /// (perspective, additive blending).
    init?(_ i: GradientInstance, _ q: SoftwareQuad, _ v: SoftwareVariant, additive: Bool) {
        guard !additive, !v.projective, let map = SoftwareAffineMap(q) else { return nil }
        self.map = map
        let flags = Int(SoftwareClamp.int(i.h2.w + 0.5))
        let continuous = flags & Int(InstanceFlags.continuousCorners) != 0
        let ppu = softwarePlaneScale(i.h0, i.h1, i.h2)
        let extent = max(max(i.radii.x, i.radii.y), max(i.radii.z, i.radii.w)) * (continuous && v.continuous ? 1.528665 : 1)
        interior = SoftwareInterior(rect: i.rect, extent: extent, ppu: ppu)
        let step = vabs(map.dx) + vabs(map.dy)
        outerLo = q.lo - step; outerHi = q.hi + step
    }

    /// Row `y` of `q`: the plane point of its texel 0, the texels xa..<xb that may be painted
    /// and, within them, the interior m0..<m1 where the shape's coverage is 1.
    @inline(__always)
    func row(_ y: Int, _ q: SoftwareQuad) -> (base: SIMD2<Float>, xa: Int, xb: Int, m0: Int, m1: Int) {
        let base = map.rowBase(y)
        let (xa, xb) = map.interval(base, outerLo, outerHi, q.x0, q.x1)
        guard xa < xb else { return (base, xa, xa, xa, xa) }
        let (ia, ib) = interior.interval(map, base, xa, xb)
        let m0 = min(max(ia, xa), xb), m1 = min(max(ib, m0), xb)
        return (base, xa, xb, m0, m1)
    }
}

extension SoftwareGradientPipeline {
    /// Draws instance `i` by its row plan into the rows of `rows`, reading its ramp from
    /// `ramps` (the frame's rows of `GradientInstance.rampWidth` RGBA texels); `scratch` holds
    /// at least a target row of texels. Texels `hiding` names (later instances paint them
    /// opaquely: `SoftwareOcclusion`) are skipped.
    func drawRows(_ i: GradientInstance, _ plan: SoftwareGradientRowPlan, _ q: SoftwareQuad, _ ctx: SoftwarePassContext,
                  _ rows: Range<Int>, ramps: UnsafeBufferPointer<Float>, _ scratch: UnsafeMutablePointer<UInt32>,
                  hiding: SoftwareRowHiding = .none) {
        let ya = max(q.y0, rows.lowerBound), yb = min(q.y1, rows.upperBound)
        let rampRows = ctx.ramps.rows
        // No ramps: the per-texel path's colour is 0 everywhere, which blends to nothing.
        guard ya < yb, rampRows > 0, let data = ramps.baseAddress else { return }
        let v = variant
        let target = ctx.target
        let map = plan.map
        let flags = Int(SoftwareClamp.int(i.h2.w + 0.5))
        let aa = flags & Int(InstanceFlags.edgeMask)
        let continuous = flags & Int(InstanceFlags.continuousCorners) != 0
        let ppu = softwarePlaneScale(i.h0, i.h1, i.h2)
        let lo = q.lo, hi = q.hi
        let w = GradientInstance.rampWidth
        let rampRow = Self.rampRow(i, rows: rampRows)
        let ramp = UnsafeRawPointer(data + rampRow &* w &* 4)
        let last = Float(w - 1)
        let s = SIMD2(i.points.x, i.points.y), axis = SIMD2(i.points.z, i.points.w) - s
        let axisLen2 = (axis * axis).sum()
        let invLen2 = 1 / max(axisLen2, 1e-12)
        let r = SIMD2(max(abs(axis.x), 1e-6), max(abs(axis.y), 1e-6))
        let a0: Float = axisLen2 > 1e-12 ? atan2f(axis.y, axis.x) : 0
        // The focal form's constants (gradient.frag's CA_RADIAL && CA_CONIC).
        let f = SIMD2(i.points.z, i.points.w), ee = s - f
        let rr = max(i.params.w, 1e-6)
        let fa = min((ee * ee).sum() - rr * rr, -1e-6 * rr * rr)
        let clipped = Self.isClipped(i, v)
        let opacity = i.params.z
        let axialStep = (map.dx * axis).sum() * invLen2
        let focal = self.focal, radial = self.radial, conic = self.conic
        let interiorLoops = self.interiorLoops
        // The interior loop (`SoftwareGradientInteriorRows.swift`): axial, no clip.
        let span: SoftwareGradientInteriorSpan? = interiorLoops && !focal && !radial && !conic && !clipped
            ? SoftwareGradientInteriorSpan(dx: map.dx, lo: lo, hi: hi, ramp: ramp, width: w, opacity: opacity, axialStep: axialStep,
                                           opaqueRamp: ctx.ramps.opaqueRows[rampRow])
            : nil
        for y in ya..<yb {
            let (base, xa, xb, m0, m1) = plan.row(y, q)
            guard xa < xb else { continue }
            let axial0 = ((base - s) * axis).sum() * invLen2
            // gradient.frag's `ign` at (x + ½, y + ½), its y term once a row (the same float
            // operations as `SoftwareGradientPipeline.ign`, so the same noise).
            let ignY = (Float(y) + 0.5) * 0.00583715
            @inline(__always) func texels(_ from: Int, _ to: Int) {
                for x in from..<to {
                    let p = base + Float(x) * map.dx
                    guard p.x >= lo.x, p.y >= lo.y, p.x < hi.x, p.y < hi.y else { scratch[x &- xa] = 0; continue }
                    var cov: Float = 1
                    if x < m0 || x >= m1 {
                        cov = SoftwareField.shapeCoverage(p, map.dx, map.dy, pxPerUnit: ppu, rect: i.rect, radii: i.radii,
                                                          continuous: continuous, aaMask: aa, v)
                    }
                    if clipped { cov *= ctx.clip(i.h1.w, x, y, v) }
                    guard cov > 0 else { scratch[x &- xa] = 0; continue }
                    var t: Float
                    if focal {
                        let dd = p - f
                        let bb = (dd * ee).sum()
                        t = (bb - max(bb * bb - fa * (dd * dd).sum(), 0).squareRoot()) / fa
                    } else if radial {
                        let u = (p - s) / r
                        t = (u * u).sum().squareRoot()
                    } else if conic {
                        let d = p - s
                        let a = (d * d).sum() > 1e-12 ? atan2f(d.y, d.x) : a0
                        let g = (a - a0) / 6.28318531 + 1
                        t = g - g.softwareFloor
                    } else {
                        t = axial0 + Float(x) * axialStep
                    }
                    t = SoftwareField.clamp01(t)
                    // The ramp row with linear filtering (texel centres at t = 0 and 1).
                    let rx = t * last
                    let i0 = Int(rx), i1 = min(i0 &+ 1, w &- 1)
                    let ca = ramp.loadUnaligned(fromByteOffset: i0 &* 16, as: SIMD4<Float>.self)
                    let cb = ramp.loadUnaligned(fromByteOffset: i1 &* 16, as: SIMD4<Float>.self)
                    var c = ca + (cb - ca) * (rx - Float(i0))
                    let g = (Float(x) + 0.5) * 0.06711056 + ignY
                    let h = 52.9829189 * (g - g.softwareFloor)
                    let n = (h - h.softwareFloor - 0.5) / 255
                    if c.w > 0 { c += SIMD4(n, n, n, c.w < 1 ? n : 0) }
                    c = c.replacing(with: 0, where: c .< 0).replacing(with: 1, where: c .> 1)
                    c = SIMD4(min(c.x, c.w), min(c.y, c.w), min(c.z, c.w), c.w)
                    scratch[x &- xa] = SoftwareSpanBlend.source(c * (opacity * cov))
                }
            }
            // Each piece of the row that no later instance hides (scratch is indexed from xa).
            @inline(__always) func piece(_ pa: Int, _ pb: Int) {
                if let span {
                    let a = min(max(m0, pa), pb), b = min(max(m1, a), pb)
                    texels(pa, a)
                    span.draw(base, axial0: axial0, ignY: ignY, a, b, scratch + (a &- xa))
                    texels(b, pb)
                } else {
                    texels(pa, pb)
                }
                SoftwareSpanBlend.blend(target.pixels + (y &* target.width &+ pa), scratch + (pa &- xa), pb &- pa)
            }
            let hidden = hiding.at(y)
            if !hidden.isEmpty {
                hidden.forEachVisible(xa, xb, piece)
            } else {
                piece(xa, xb)
            }
        }
    }
}
