import Foundation
import CAFrame

/// CAGradientLayer: Shaders/gradient.vert and gradient.frag on the CPU (axial, radial, conic
/// ramps, the 8-bit dither, the layer's rounded shape). Instances without perspective are drawn
/// by their row plan (`SoftwareGradientRows.swift`) unless `SoftwareRenderer.usesRowPaths` is off.
struct SoftwareGradientPipeline: SoftwareQuadBatch {
    let instances: ArraySlice<GradientInstance>
    let quads: [SoftwareQuad]
    /// The instances by the rows they touch (`SoftwareRowIndex`).
    let rowIndex: SoftwareRowIndex
    let variant: SoftwareVariant
    let radial: Bool
    let conic: Bool
    /// The focal radial form (both variant bits, as gradient.frag's CA_RADIAL && CA_CONIC).
    let focal: Bool
    let additive: Bool
    /// Whether interiors skip the coverage field (`SoftwareRenderer.usesRowPaths`).
    let rowPaths: Bool
    /// Per instance, its row plan where it is drawn without perspective
    /// (`SoftwareGradientRows.swift`; none when `rowPaths` is off).
    let plans: [SoftwareGradientRowPlan?]
    /// Whether row plans draw their axial interiors with the specialised loop
    /// (`SoftwareRenderer.usesInteriorLoops`).
    let interiorLoops: Bool
    /// Per instance, whether its interior loop may paint opaque texels (a row plan, the axial
    /// form, no clip, opacity 1; its ramp row's alpha is checked per pass), which hide what the
    /// batch's earlier instances paint there (`SoftwareOcclusion`).
    let mayOcclude: [Bool]
    let anyMayOcclude: Bool

    init(_ all: [GradientInstance], _ b: Batch, _ map: SoftwareViewport, _ target: SoftwareTarget, rowPaths: Bool = true,
         interiorLoops: Bool = true, occlusion: Bool = true) {
        instances = all[b.range]
        self.interiorLoops = interiorLoops
        variant = SoftwareVariant(b.variant)
        focal = b.variant.contains(.radial) && b.variant.contains(.conic)
        radial = b.variant.contains(.radial) && !focal
        conic = b.variant.contains(.conic) && !radial && !focal
        additive = b.variant.contains(.additive)
        self.rowPaths = rowPaths
        quads = instances.map { i in
            let m = 1.5 / max(softwarePlaneScale(i.h0, i.h1, i.h2), 1e-6)
            let lo = SIMD2(i.rect.x, i.rect.y) - m, hi = SIMD2(i.rect.x + i.rect.z, i.rect.y + i.rect.w) + m
            return SoftwareQuad(map: map.planeToTexel(i.h0, i.h1, i.h2), lo: lo, hi: hi, width: target.width, height: target.height)
        }
        let pixelRows = quads.map { q in q.y0 < q.y1 ? q.y0..<q.y1 : 0..<0 }
        rowIndex = SoftwareRowIndex(count: pixelRows.count, height: target.height) { pixelRows[$0] }
        let v = variant, add = additive
        plans = rowPaths ? zip(instances, quads).map { i, q in SoftwareGradientRowPlan(i, q, v, additive: add) }
            : Array(repeating: nil, count: quads.count)
        let usesLoop = interiorLoops && !focal && !radial && !conic
        mayOcclude = zip(instances, plans).map { i, plan in
            occlusion && plan != nil && usesLoop && !Self.isClipped(i, v) && i.params.z == 1
        }
        anyMayOcclude = mayOcclude.contains(true)
    }

    /// Whether instance `i` is clipped by a clip shape (not only by its own bounds).
    @inline(__always) static func isClipped(_ i: GradientInstance, _ v: SoftwareVariant) -> Bool {
        v.clip && SoftwareClamp.int(i.h1.w + 0.5) > 0
    }

    /// Instance `i`'s row of the frame's ramps (`rows` of them, at least one).
    @inline(__always) static func rampRow(_ i: GradientInstance, rows: Int) -> Int {
        min(max(SoftwareClamp.int(i.params.y.softwareFloor), 0), rows - 1)
    }

    /// The texels of row `y` that instance `k` paints opaquely: its interior interval, where
    /// its ramp row is opaque and `mayOcclude[k]` (the interior loop's opaque case: every texel
    /// there gets alpha 255, the vector and the per-texel loop alike), nil for none.
    func opaqueInterval(_ k: Int, _ y: Int, _ ctx: SoftwarePassContext) -> (Int, Int)? {
        guard mayOcclude[k], let plan = plans[k] else { return nil }
        let i = instances[instances.startIndex + k]
        guard ctx.ramps.rows > 0, ctx.ramps.opaqueRows[Self.rampRow(i, rows: ctx.ramps.rows)] else { return nil }
        let q = quads[k]
        guard y >= q.y0, y < q.y1 else { return nil }
        let r = plan.row(y, q)
        guard r.m0 < r.m1,
              SoftwareGradientInteriorSpan.contains(r.base + Float(r.m0) * plan.map.dx, q.lo, q.hi),
              SoftwareGradientInteriorSpan.contains(r.base + Float(r.m1 &- 1) * plan.map.dx, q.lo, q.hi) else { return nil }
        return (r.m0, r.m1)
    }

    /// Interleaved gradient noise of gradient.frag (`ign`), at a fragment's window position.
    @inline(__always) static func ign(_ p: SIMD2<Float>) -> Float {
        func fract(_ x: Float) -> Float { x - x.softwareFloor }
        return fract(52.9829189 * fract(p.x * 0.06711056 + p.y * 0.00583715))
    }

    func draw(_ ctx: SoftwarePassContext, _ rows: Range<Int>) {
        // The occlusion keeps a hidden set per instance and row: bands of one stripe at most
        // (one thread draws the whole target as one band), so it stays within
        // candidates × 32 rows.
        if anyMayOcclude, rows.count > SoftwareRowIndex.stripeRows {
            var y = rows.lowerBound
            while y < rows.upperBound {
                let end = min(y + SoftwareRowIndex.stripeRows, rows.upperBound)
                draw(ctx, y..<end)
                y = end
            }
            return
        }
        let v = variant
        let target = ctx.target
        let scratch = UnsafeMutablePointer<UInt32>.allocate(capacity: target.width)
        defer { scratch.deallocate() }
        // With instances that may paint opaquely, the band's instances in a list and the texels
        // each one's successors hide (the list only then: small batches walk a range).
        var listed: [Int] = []
        var occlusion: SoftwareOcclusion?
        if anyMayOcclude {
            listed = rowIndex.candidates(rows).filter { k in quads[k].y1 > rows.lowerBound && quads[k].y0 < rows.upperBound }
            if listed.contains(where: { mayOcclude[$0] }), listed.count <= SoftwareOcclusion.maximumCandidates {
                occlusion = SoftwareOcclusion(candidates: listed, band: rows, rows: { quads[$0].y0..<quads[$0].y1 }) { k, y in
                    opaqueInterval(k, y, ctx)
                }
            }
        }
        ctx.ramps.data.withUnsafeBufferPointer { ramps in
            var position = -1
            for k in anyMayOcclude ? SoftwareRowIndex.Candidates(listed: listed) : rowIndex.candidates(rows) {
                position += 1
                let q = quads[k]
                if q.y1 <= rows.lowerBound || q.y0 >= rows.upperBound { continue }
                let i = instances[instances.startIndex + k]
                if let plan = plans[k] {
                    drawRows(i, plan, q, ctx, rows, ramps: ramps, scratch,
                             hiding: SoftwareRowHiding(occlusion: occlusion, position: position))
                    continue
                }
                let flags = Int(SoftwareClamp.int(i.h2.w + 0.5))
                let aa = flags & Int(InstanceFlags.edgeMask)
                let continuous = flags & Int(InstanceFlags.continuousCorners) != 0
                let ppu = softwarePlaneScale(i.h0, i.h1, i.h2)
                let s = SIMD2(i.points.x, i.points.y), axis = SIMD2(i.points.z, i.points.w) - s
                let axisLen2 = (axis * axis).sum()
                let r = SIMD2(max(abs(axis.x), 1e-6), max(abs(axis.y), 1e-6))
                let a0: Float = axisLen2 > 1e-12 ? atan2f(axis.y, axis.x) : 0
                // Farther than the largest corner extent + 1 pixel inside every edge, the shape's
                // field is ≤ −1 pixel: coverage 1 without evaluating it (not under CA_PROJECTIVE,
                // whose coverage follows the per-texel derivatives).
                let half = SIMD2(i.rect.z, i.rect.w) * 0.5, centre = SIMD2(i.rect.x, i.rect.y) + half
                let extent = max(max(i.radii.x, i.radii.y), max(i.radii.z, i.radii.w)) * (continuous && v.continuous ? 1.528665 : 1)
                let reach = v.projective || !rowPaths ? SIMD2<Float>(repeating: -1) : half - (max(extent, 0) + 1 / max(ppu, 1e-6) + 0.01)
                q.forEachTexel(rows: rows) { x, y, p, px, py in
                    let d = p - s
                    var t: Float
                    if focal {
                        // gradient.frag's focal form: the positive root of
                        // t²(e·e − r²) − 2t(d·e) + d·d = 0, d = p − f, e = c − f.
                        let f = SIMD2(i.points.z, i.points.w)
                        let dd = p - f, ee = s - f
                        let rr = max(i.params.w, 1e-6)
                        let a = min((ee * ee).sum() - rr * rr, -1e-6 * rr * rr)
                        let bb = (dd * ee).sum()
                        t = (bb - max(bb * bb - a * (dd * dd).sum(), 0).squareRoot()) / a
                    } else if radial {
                        let u = d / r
                        t = (u * u).sum().squareRoot()
                    } else if conic {
                        let a = (d * d).sum() > 1e-12 ? atan2f(d.y, d.x) : a0
                        let f = (a - a0) / 6.28318531 + 1
                        t = f - f.softwareFloor
                    } else {
                        t = (d * axis).sum() / max(axisLen2, 1e-12)
                    }
                    t = SoftwareField.clamp01(t)
                    var c = ctx.ramps.sample(row: i.params.y, t: t)
                    let n = (Self.ign(SIMD2(Float(x) + 0.5, Float(y) + 0.5)) - 0.5) / 255
                    if c.w > 0 { c += SIMD4(n, n, n, c.w < 1 ? n : 0) }
                    c = c.replacing(with: 0, where: c .< 0).replacing(with: 1, where: c .> 1)
                    c = SIMD4(min(c.x, c.w), min(c.y, c.w), min(c.z, c.w), c.w)
                    let dc = vabs(p - centre)
                    let cov = dc.x <= reach.x && dc.y <= reach.y ? 1 : SoftwareField.shapeCoverage(p, px, py, pxPerUnit: ppu, rect: i.rect, radii: i.radii, continuous: continuous,
                                                          aaMask: aa, v)
                    target.blend(x, y, c * (i.params.z * cov * ctx.clip(i.h1.w, x, y, v)), additive: additive)
                }
            }
        }
    }
}
