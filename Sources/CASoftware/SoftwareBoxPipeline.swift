import Foundation
import CAFrame

/// Backgrounds, borders and analytic shadows: Shaders/box.vert and box.frag on the CPU.
struct SoftwareBoxPipeline: SoftwareQuadBatch {
    let instances: ArraySlice<BoxInstance>
    let quads: [SoftwareQuad]
    /// The instances by the rows they touch (`SoftwareRowIndex`).
    let rowIndex: SoftwareRowIndex
    /// Per instance, the texels where the box is its fill colour exactly (coverage 1, no
    /// border, no clip): filled as spans, opaque ones without reading the target.
    let interiors: [SoftwareSpan]
    let variant: SoftwareVariant
    let additive: Bool
    /// Per instance, its row plan where the box is axis-aligned and affine (`SoftwareBoxRows`).
    let plans: [SoftwareBoxRowPlan?]
    /// Per instance, its row plan where it is an axis-aligned, affine shadow (`SoftwareShadowRows`).
    let shadowPlans: [SoftwareShadowRowPlan?]
    /// Per shadow plan, texels the next instance paints with an opaque colour
    /// (`opaqueCover`): whatever the shadow leaves there is replaced, so it skips them. A
    /// layer's implied shadow is followed by the layer's own box, which hides most of it
    /// (issue 22: about two thirds of the shadows scene's shadow texels).
    let shadowHoles: [SoftwareSpan]
    /// The first instance's `opaqueCover` (`SoftwareBatchWork.firstCover`).
    let firstCover: SoftwareSpan

    /// `shadowKernels`: the renderer's shared shadow kernels (`SoftwareShadowKernel`), `frame`
    /// its frame number.
    init(_ all: [BoxInstance], _ b: Batch, _ map: SoftwareViewport, _ target: SoftwareTarget, rowPaths: Bool = true,
         shadowKernels: SoftwareShadowKernels, frame: Int) {
        instances = all[b.range]
        variant = SoftwareVariant(b.variant)
        additive = b.variant.contains(.additive)
        let fringe: Float = b.variant.contains(.projective) ? 1.5 : 0.5
        quads = instances.map { i in
            // box.vert: the quad grows by the AA fringe (or the blur's reach) in plane units;
            // under a similarity no texel centre farther than 0.5 px from the shape is painted.
            let margin = fringe / max(softwarePlaneScale(i.h0, i.h1, i.h2), 1e-6) + 3 * i.params.y
            let lo = SIMD2(i.rect.x, i.rect.y) - margin
            let hi = SIMD2(i.rect.x + i.rect.z, i.rect.y + i.rect.w) + margin
            return SoftwareQuad(map: map.planeToTexel(i.h0, i.h1, i.h2), lo: lo, hi: hi, width: target.width, height: target.height)
        }
        let pixelRows = quads.map { q in q.y0 < q.y1 ? q.y0..<q.y1 : 0..<0 }
        rowIndex = SoftwareRowIndex(count: pixelRows.count, height: target.height) { pixelRows[$0] }
        let v = variant
        interiors = instances.map { i in Self.interior(i, v, map, target) }
        let add = additive
        plans = rowPaths ? zip(instances, quads).map { i, q in SoftwareBoxRowPlan(i, q, v, additive: add) } : Array(repeating: nil, count: quads.count)
        shadowPlans = rowPaths && v.blur
            ? zip(instances, quads).map { i, q in SoftwareShadowRowPlan(i, q, v, kernels: shadowKernels, frame: frame) }
            : Array(repeating: nil, count: quads.count)
        let boxes = instances, shadows = shadowPlans
        shadowHoles = shadows.indices.map { k in
            guard shadows[k] != nil, !add, k + 1 < shadows.count else { return .none }
            return Self.opaqueCover(boxes[boxes.startIndex + k + 1], v, map, target)
        }
        firstCover = add || boxes.isEmpty ? .none : Self.opaqueCover(boxes[boxes.startIndex], v, map, target)
    }

    /// The texels whose centres lie in the part of an axis-aligned, affine box that is its
    /// fill colour exactly: inset from every edge by the largest radius, the border and one
    /// pixel of AA fringe (the fields there are ≤ −0.5 px: coverage 1, ring 0).
    static func interior(_ i: BoxInstance, _ v: SoftwareVariant, _ map: SoftwareViewport, _ target: SoftwareTarget) -> SoftwareSpan {
        let flags = Int(SoftwareClamp.int(i.h2.w + 0.5))
        guard i.params.y <= 0, flags & Int(InstanceFlags.borderOnly) == 0,
              i.h1.w < 0.5 || !v.clip,
              i.h0.y == 0, i.h1.x == 0, i.h0.z == 0, i.h1.z == 0, i.h2.z > 0 else { return .none }
        let ppu = softwarePlaneScale(i.h0, i.h1, i.h2)
        guard ppu > 1e-6 else { return .none }
        let r = max(max(i.radii.x, i.radii.y), max(i.radii.z, i.radii.w)) * (v.continuous ? 1.6 : 1)
        let inset = r + max(i.params.x, 0) + 1.5 / ppu
        return span(lo: SIMD2(i.rect.x, i.rect.y) + inset, hi: SIMD2(i.rect.x + i.rect.z, i.rect.y + i.rect.w) - inset,
                    i, map, target)
    }

    /// Texels that box `i` paints with an opaque colour, whatever lies under them: its fill
    /// is opaque, and their centres lie inside the rectangle whose corners sit on the corner
    /// arcs (inset r·(1 − 1/√2) from each side) by more than a pixel and a half, so its
    /// coverage there is 1 (a border over the opaque fill is opaque too: box.frag's border
    /// hides the fill by its own alpha). Source-over of an opaque colour does not read the
    /// target, in the span kernel (`SoftwareSpanBlend`: D·0 added) and in floats
    /// (`SoftwarePixel.blend` stores it). Continuous corners, which reach farther along the
    /// sides, are inset by `interior`'s 1.6·r. Empty where that does not hold (blur,
    /// border only, clip, perspective or rotation, additive blending is the caller's check).
    static func opaqueCover(_ i: BoxInstance, _ v: SoftwareVariant, _ map: SoftwareViewport, _ target: SoftwareTarget) -> SoftwareSpan {
        let flags = Int(SoftwareClamp.int(i.h2.w + 0.5))
        guard i.fill.w >= 1, i.params.y <= 0, flags & Int(InstanceFlags.borderOnly) == 0,
              i.h1.w < 0.5 || !v.clip,
              i.h0.y == 0, i.h1.x == 0, i.h0.z == 0, i.h1.z == 0, i.h2.z > 0 else { return .none }
        let ppu = softwarePlaneScale(i.h0, i.h1, i.h2)
        guard ppu > 1e-6 else { return .none }
        let r = max(max(i.radii.x, i.radii.y), max(i.radii.z, i.radii.w), 0)
        let continuous = v.continuous && flags & Int(InstanceFlags.continuousCorners) != 0
        let arc: Float = continuous ? 1.6 * r : r * (1 - Float(0.5).squareRoot())
        let inset: Float = arc + 1.5 / ppu
        let lo = SIMD2<Float>(i.rect.x, i.rect.y) + inset
        let hi = SIMD2<Float>(i.rect.x + i.rect.z, i.rect.y + i.rect.w) - inset
        return span(lo: lo, hi: hi, i, map, target)
    }

    /// The texels whose centres lie in the plane rectangle lo…hi of affine, axis-aligned box `i`.
    static func span(lo: SIMD2<Float>, hi: SIMD2<Float>, _ i: BoxInstance, _ map: SoftwareViewport, _ target: SoftwareTarget) -> SoftwareSpan {
        guard lo.x < hi.x, lo.y < hi.y else { return .none }
        let g = map.planeToTexel(i.h0, i.h1, i.h2)
        guard let a = g.map(Double(lo.x), Double(lo.y)), let b = g.map(Double(hi.x), Double(hi.y)) else { return .none }
        let minX = min(a.x, b.x), maxX = max(a.x, b.x), minY = min(a.y, b.y), maxY = max(a.y, b.y)
        func c(_ v: Double, _ limit: Int) -> Int { v.isNaN ? 0 : Int(max(0, min(Double(limit), v))) }
        // Texel t's centre t + 0.5 within [min, max].
        return SoftwareSpan(x0: c((minX - 0.5).rounded(.up), target.width), y0: c((minY - 0.5).rounded(.up), target.height),
                            x1: c((maxX - 0.5).rounded(.down) + 1, target.width), y1: c((maxY - 0.5).rounded(.down) + 1, target.height))
    }

    func draw(_ ctx: SoftwarePassContext, _ rows: Range<Int>) {
        let v = variant
        let target = ctx.target
        let scratch = UnsafeMutablePointer<UInt32>.allocate(capacity: target.width)
        defer { scratch.deallocate() }
        for k in rowIndex.candidates(rows) {
            let q = quads[k]
            if q.y1 <= rows.lowerBound || q.y0 >= rows.upperBound { continue }
            let i = instances[instances.startIndex + k]
            if let plan = plans[k] {
                Self.drawRows(i, plan, q, v, target, rows, scratch)
                continue
            }
            if let shadow = shadowPlans[k] {
                shadow.draw(i.fill, clipIndex: i.h1.w, q, v, ctx, rows, additive: additive, hidden: shadowHoles[k])
                continue
            }
            let flags = Int(SoftwareClamp.int(i.h2.w + 0.5))
            let aa = flags & Int(InstanceFlags.edgeMask)
            let continuous = flags & Int(InstanceFlags.continuousCorners) != 0
            let borderOnly = flags & Int(InstanceFlags.borderOnly) != 0
            let fillOnly = flags & Int(InstanceFlags.fillOnly) != 0
            let ppu = softwarePlaneScale(i.h0, i.h1, i.h2)
            let rect = i.rect
            let half = SIMD2(rect.z, rect.w) * 0.5
            let c = SIMD2(rect.x, rect.y) + half
            let bw = i.params.x
            let innerHalf = SIMD2(max(half.x - bw, 0), max(half.y - bw, 0))
            let innerRadii = SIMD4(max(i.radii.x - bw, 0), max(i.radii.y - bw, 0), max(i.radii.z - bw, 0), max(i.radii.w - bw, 0))
            let sigma = i.params.y
            let hole = interiors[k]
            if !hole.isEmpty { Self.fillSpan(hole, rows: rows, i.fill, target, additive: additive) }
            q.forEachTexel(rows: rows, skipping: hole) { x, y, p, px, py in
                let clip = ctx.clip(i.h1.w, x, y, v)
                // box.frag: the blur branch is per instance (a batch of the blur variant also
                // holds the plain boxes between shadows, FrameWriter.appendBatch).
                if v.blur && sigma > 0 {
                    let cov = SoftwareBlurredShape.coverage(p, SIMD2(rect.x, rect.y), SIMD2(rect.x + rect.z, rect.y + rect.w),
                                                            SIMD2(i.radii.x, i.radii.y), sigma)
                    target.blend(x, y, i.fill * (cov * clip), additive: additive)
                    return
                }
                let fo = SoftwareField.shape(p, c, half, i.radii, continuous: continuous, v)
                let outer = SoftwareField.edgeCoverage(fo, p, px, py, pxPerUnit: ppu, rect: rect, aaMask: aa, v)
                let fill = borderOnly ? SIMD4<Float>.zero : i.fill * outer
                var color = fill
                if v.border && !fillOnly {
                    let fi = SoftwareField.shape(p, c, innerHalf, innerRadii, continuous: continuous, v)
                    let inner = innerHalf.x > 0 && innerHalf.y > 0 ? SoftwareField.coverage(fi, px, py, pxPerUnit: ppu, v) : 0
                    let ring = SoftwareField.clamp01(outer - inner)
                    let b = i.border * ring
                    // Border over background; with group opacity the border hides the
                    // background by its alpha before the fade (N4), as box.frag.
                    let hides = i.params.z > 0 ? min(b.w / i.params.z, 1) : b.w
                    color = b + fill * (1 - hides)
                }
                target.blend(x, y, color * clip, additive: additive)
            }
        }
    }
}

extension SoftwareBoxPipeline {
    /// Fills the rows of `span` in `rows` with `color`: an opaque colour is written without
    /// reading the target; a translucent one blends one constant colour.
    static func fillSpan(_ span: SoftwareSpan, rows: Range<Int>, _ color: SIMD4<Float>, _ t: SoftwareTarget, additive: Bool) {
        let ya = max(span.y0, rows.lowerBound), yb = min(span.y1, rows.upperBound)
        guard ya < yb else { return }
        let n = span.x1 - span.x0
        if !additive && color.w >= 1 {
            let v = SoftwarePixel.pack(color)
            for y in ya..<yb { (t.pixels + y * t.width + span.x0).update(repeating: v, count: n) }
            return
        }
        if color == .zero && !additive { return }
        for y in ya..<yb {
            let row = t.pixels + y * t.width
            var last: UInt32 = 0, lastOut = SoftwarePixel.blend(color, over: 0, additive: additive)
            for x in span.x0..<span.x1 {
                let d = row[x]
                if d != last { last = d; lastOut = SoftwarePixel.blend(color, over: d, additive: additive) }
                row[x] = lastOut
            }
        }
    }
}

/// box.frag's blurred shape: a rectangle with quarter-ellipse corners convolved with the shadow
/// kernel (a Gaussian cut at 2.5σ, renormalised).
enum SoftwareBlurredShape {
    static let cut: Float = 2.5
    static let erfCut: Float = 0.98758067

    /// erf by Abramowitz–Stegun 7.1.26, as the shader.
    @inline(__always) static func erfApprox(_ x0: Float) -> Float {
        let s: Float = x0 > 0 ? 1 : (x0 < 0 ? -1 : 0)
        let x = abs(x0)
        let t = 1 / (1 + 0.3275911 * x)
        let poly = ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t
        return s * (1 - poly * expf(-x * x))
    }

    @inline(__always) static func cdf2(_ t: Float, _ sigma: Float) -> Float {
        let r = cut * sigma
        return min(max(erfApprox(min(max(t, -r), r) / (sigma * 1.41421356)) / erfCut, -1), 1)
    }

    @inline(__always) static func mass(_ a: Float, _ b: Float, _ sigma: Float) -> Float {
        0.5 * (cdf2(b, sigma) - cdf2(a, sigma))
    }

    /// The rows [y0, y1) of a rounded box's corner zones (the top c.y and the bottom c.y of
    /// lo…hi), each zone cut into 8 horizontal slices: `body(inset, s0, s1)` for each slice,
    /// with the slice's rows s0…s1 and how far the elliptical corner (radii c) pulls its sides in
    /// at the slice's middle. The box's blurred coverage and the shadow rows both integrate
    /// over these slices.
    @inline(__always)
    static func cornerSlices(y0: Float, y1: Float, lo: SIMD2<Float>, hi: SIMD2<Float>, c: SIMD2<Float>,
                             _ body: (_ inset: Float, _ s0: Float, _ s1: Float) -> Void) {
        for zone in 0..<2 {
            let z0 = zone == 0 ? lo.y : hi.y - c.y
            let z1 = zone == 0 ? lo.y + c.y : hi.y
            let a = max(y0, z0), b = min(y1, z1)
            if b <= a { continue }
            let step = (b - a) / 8
            for k in 0..<8 {
                let s0 = a + step * Float(k)
                let ym = s0 + 0.5 * step
                let e = zone == 0 ? (lo.y + c.y - ym) / c.y : (ym - (hi.y - c.y)) / c.y
                body(c.x * (1 - max(1 - e * e, 0).squareRoot()), s0, s0 + step)
            }
        }
    }

    static func coverage(_ p: SIMD2<Float>, _ lo: SIMD2<Float>, _ hi: SIMD2<Float>, _ c: SIMD2<Float>, _ sigma: Float) -> Float {
        let r = cut * sigma
        let y0 = max(lo.y, p.y - r), y1 = min(hi.y, p.y + r)
        if y0 >= y1 || p.x < lo.x - r || p.x > hi.x + r { return 0 }
        let full = mass(lo.x - p.x, hi.x - p.x, sigma)
        if c.x <= 0 || c.y <= 0 { return full * mass(y0 - p.y, y1 - p.y, sigma) }
        var sum: Float = 0
        let m0 = max(y0, lo.y + c.y), m1 = min(y1, hi.y - c.y)
        if m1 > m0 { sum += full * mass(m0 - p.y, m1 - p.y, sigma) }
        cornerSlices(y0: y0, y1: y1, lo: lo, hi: hi, c: c) { inset, s0, s1 in
            let row = mass(lo.x + inset - p.x, hi.x - inset - p.x, sigma)
            sum += row * mass(s0 - p.y, s1 - p.y, sigma)
        }
        return sum
    }
}
