import CAFrame

/// The row plan of an axis-aligned, affine box (issue 22: distance field only on the rim).
///
/// box.frag's colour at a texel depends on the plane point through the outer and inner
/// rounded-rect fields. Let T = the larger of the outer corner extent r and (border width bw +
/// the inner corner extent), each at least half a pixel. Where the point lies farther than T
/// inside both horizontal edges (a "middle row"), each field is past its corners: it is either
/// |dx| − half width (independent of y) or at most −½ pixel, where its coverage saturates; so
/// in those rows the colour depends on x alone, and symmetrically in the "middle columns" on y
/// alone. The box is therefore drawn as: middle rows = one row profile (the colour of each rim
/// column, computed once) + the fill colour as a span; rim rows = one constant colour over the
/// middle columns + the per-texel field only in the corner blocks. The shader's maths is
/// evaluated exactly where it is evaluated; only the blend is the 8-bit span kernel
/// (`SoftwareSpanBlend`, ≤ 1 level from GL's float blend).
struct SoftwareBoxRowPlan {
    /// The instance's texels (the quad's pixel bounds).
    var x0: Int, x1: Int, y0: Int, y1: Int
    /// Middle columns [mx0, mx1) and middle rows [my0, my1) (empty ranges when the box is too
    /// small to have them).
    var mx0: Int, mx1: Int, my0: Int, my1: Int
    /// Plane x of texel column x's centre = ax·x + bx; plane y of row y's centre = ay·y + by.
    var ax: Float, bx: Float, ay: Float, by: Float

    /// The plan of instance `i` drawn through `q`, or nil where the row decomposition does not
    /// hold (perspective, rotation, blur, clip, a partial AA edge mask, additive blending, a
    /// colour that is not premultiplied): those boxes take the per-texel path.
    init?(_ i: BoxInstance, _ q: SoftwareQuad, _ v: SoftwareVariant, additive: Bool) {
        guard !additive, !v.projective, !(v.blur && i.params.y > 0), q.x0 < q.x1, q.y0 < q.y1 else { return nil }
        let flags = Int(SoftwareClamp.int(i.h2.w + 0.5))
        if v.clip && SoftwareClamp.int(i.h1.w + 0.5) > 0 { return nil }
        if v.edgeMask && flags & Int(InstanceFlags.edgeMask) != 15 { return nil }
        guard q.i0.y == 0, q.i1.x == 0, q.i0.z == 0, q.i1.z == 0, q.i2.z != 0 else { return nil }
        func premultiplied(_ c: SIMD4<Float>) -> Bool { c.x <= c.w && c.y <= c.w && c.z <= c.w && c.w >= 0 }
        guard premultiplied(i.fill), premultiplied(i.border) else { return nil }
        let ppu = softwarePlaneScale(i.h0, i.h1, i.h2)
        guard ppu > 1e-6, ppu.isFinite else { return nil }
        ax = q.i0.x / q.i2.z; bx = (0.5 * q.i0.x + q.i2.x) / q.i2.z
        ay = q.i1.y / q.i2.z; by = (0.5 * q.i1.y + q.i2.y) / q.i2.z
        guard ax.isFinite, bx.isFinite, ay.isFinite, by.isFinite else { return nil }
        x0 = q.x0; x1 = q.x1; y0 = q.y0; y1 = q.y1
        let continuous = v.continuous && flags & Int(InstanceFlags.continuousCorners) != 0
        // Rows (columns) where both fields' y (x) parts are past their corners and either
        // saturate or do not depend on y (x): the outer corner extent r, the inner edge at the
        // border width bw with its own corner extent, each with half a pixel of AA fringe.
        let r = max(max(max(i.radii.x, i.radii.y), max(i.radii.z, i.radii.w)) * (continuous ? 1.528665 : 1), 0)
        let bw = max(i.params.x, 0), fringe = 0.5 / ppu
        let t = max(max(r, fringe), bw + max(r - min(bw, r), fringe)) + 0.01
        let half = SIMD2(i.rect.z, i.rect.w) * 0.5
        let c = SIMD2(i.rect.x, i.rect.y) + half
        // Texels whose centre is within e − T of the centre along one axis: an interval.
        func middle(_ lo: Int, _ hi: Int, _ a: Float, _ b: Float, _ centre: Float, _ reach: Float) -> (Int, Int) {
            guard reach > 0 else { return (lo, lo) }
            var m0 = hi, m1 = lo
            for k in lo..<hi where abs(a * Float(k) + b - centre) <= reach {
                m0 = min(m0, k); m1 = max(m1, k + 1)
            }
            return m0 < m1 ? (m0, m1) : (lo, lo)
        }
        (mx0, mx1) = middle(x0, x1, ax, bx, c.x, half.x - t)
        (my0, my1) = middle(y0, y1, ay, by, c.y, half.y - t)
    }
}

/// box.frag's colour (without the clip) for one instance, with what is constant over the
/// instance worked out once (the per-texel path recomputes it at every texel).
struct SoftwareBoxShader {
    let v: SoftwareVariant
    let aa: Int
    let continuous: Bool, borderOnly: Bool, fillOnly: Bool
    let ppu: Float
    let rect: SIMD4<Float>, radii: SIMD4<Float>
    let half: SIMD2<Float>, centre: SIMD2<Float>
    let innerHalf: SIMD2<Float>, innerRadii: SIMD4<Float>
    let fill: SIMD4<Float>, border: SIMD4<Float>
    let groupOpacity: Float

    init(_ i: BoxInstance, _ v: SoftwareVariant) {
        self.v = v
        let flags = Int(SoftwareClamp.int(i.h2.w + 0.5))
        aa = flags & Int(InstanceFlags.edgeMask)
        continuous = flags & Int(InstanceFlags.continuousCorners) != 0
        borderOnly = flags & Int(InstanceFlags.borderOnly) != 0
        fillOnly = flags & Int(InstanceFlags.fillOnly) != 0
        ppu = softwarePlaneScale(i.h0, i.h1, i.h2)
        rect = i.rect; radii = i.radii
        half = SIMD2(rect.z, rect.w) * 0.5
        centre = SIMD2(rect.x, rect.y) + half
        let bw = i.params.x
        innerHalf = SIMD2(max(half.x - bw, 0), max(half.y - bw, 0))
        innerRadii = SIMD4(max(i.radii.x - bw, 0), max(i.radii.y - bw, 0), max(i.radii.z - bw, 0), max(i.radii.w - bw, 0))
        fill = i.fill; border = i.border; groupOpacity = i.params.z
    }

    /// The colour at plane point `p` with derivatives `px`, `py`, as box.frag computes it.
    @inline(__always) func color(_ p: SIMD2<Float>, _ px: SIMD2<Float>, _ py: SIMD2<Float>) -> SIMD4<Float> {
        if !v.projective && !v.continuous && (!v.edgeMask || aa == 15) { return circularColor(p) }
        let fo = SoftwareField.shape(p, centre, half, radii, continuous: continuous, v)
        let outer = SoftwareField.edgeCoverage(fo, p, px, py, pxPerUnit: ppu, rect: rect, aaMask: aa, v)
        // Outside the outer edge (the corner blocks' outer part) nothing more to compute.
        if outer <= 0 { return .zero }
        let f = borderOnly ? SIMD4<Float>.zero : fill * outer
        guard v.border && !fillOnly else { return f }
        let fi = SoftwareField.shape(p, centre, innerHalf, innerRadii, continuous: continuous, v)
        let inner = innerHalf.x > 0 && innerHalf.y > 0 ? SoftwareField.coverage(fi, px, py, pxPerUnit: ppu, v) : 0
        let ring = SoftwareField.clamp01(outer - inner)
        let b = border * ring
        // Border over background; with group opacity the border hides the background by its
        // alpha before the fade (N4), as box.frag.
        let hides = groupOpacity > 0 ? min(b.w / groupOpacity, 1) : b.w
        return b + f * (1 - hides)
    }

    /// `shapeField`'s branch-free distance of circular corners (gradient (1, 0), so the
    /// coverage is 0.5 − distance · pixels per unit), for a rounded rectangle of half size `e`
    /// and radii `r` about the centre.
    @inline(__always) static func circularDistance(_ d: SIMD2<Float>, _ e: SIMD2<Float>, _ r: SIMD4<Float>) -> Float {
        let rad: Float = d.x < 0 ? (d.y < 0 ? r.x : r.w) : (d.y < 0 ? r.y : r.z)
        let qx = abs(d.x) - e.x + rad, qy = abs(d.y) - e.y + rad
        let mx = max(qx, 0), my = max(qy, 0)
        return (mx * mx + my * my).squareRoot() + min(max(qx, qy), 0) - rad
    }

    /// `color` for programs without CA_PROJECTIVE or CA_CONTINUOUS and every edge soft: the
    /// same formulas with the constant gradient length (1) and the edge mask folded away.
    @inline(__always) func circularColor(_ p: SIMD2<Float>) -> SIMD4<Float> {
        let d = p - centre
        let outer = SoftwareField.clamp01(0.5 - Self.circularDistance(d, half, radii) * ppu)
        if outer <= 0 { return .zero }
        let f = borderOnly ? SIMD4<Float>.zero : fill * outer
        guard v.border && !fillOnly else { return f }
        let inner = innerHalf.x > 0 && innerHalf.y > 0
            ? SoftwareField.clamp01(0.5 - Self.circularDistance(d, innerHalf, innerRadii) * ppu) : 0
        let ring = SoftwareField.clamp01(outer - inner)
        let b = border * ring
        let hides = groupOpacity > 0 ? min(b.w / groupOpacity, 1) : b.w
        return b + f * (1 - hides)
    }
}

extension SoftwareBoxShader {
    /// Whether `color` is `circularColor` for this instance (no perspective, circular corners,
    /// every edge soft): the case the four-lane rims take.
    var isCircular: Bool { !v.projective && !v.continuous && (!v.edgeMask || aa == 15) }

    /// `SoftwareSpanBlend.source(circularColor(p))` of four points on one row, plane x in `px`
    /// and y `py`, each 0 outside the quad lo…hi (the row plan's `texel`): the same operations
    /// lane by lane (a corner block's texels were a third of the 10k-rect frame on the CPU
    /// backend, one `circularColor` call each).
    @inline(__always) func circularSources4(_ px: SIMD4<Float>, _ py: Float, lo: SIMD2<Float>, hi: SIMD2<Float>) -> SIMD4<UInt32> {
        let dx = px - centre.x, dy = py - centre.y
        /// `circularDistance` of the four points.
        @inline(__always) func distance(_ e: SIMD2<Float>, _ r: SIMD4<Float>) -> SIMD4<Float> {
            // The corner's radius: minX/maxX by the sign of dx, the row's pair by dy's.
            let left = dy < 0 ? r.x : r.w, right = dy < 0 ? r.y : r.z
            let rad = SIMD4(repeating: right).replacing(with: left, where: dx .< 0)
            let adx = unsafeBitCast(unsafeBitCast(dx, to: SIMD4<UInt32>.self) & 0x7FFF_FFFF, to: SIMD4<Float>.self)
            let qx = adx - e.x + rad, qy = abs(dy) - e.y + rad
            let zero = SIMD4<Float>(repeating: 0)
            let mx = qx.lanesMax(zero), my = qy.lanesMax(zero)
            let inner = qx.lanesMax(qy).lanesMin(zero)
            let length: SIMD4<Float> = (mx * mx + my * my).squareRoot()
            return length + inner - rad
        }
        let outer = (0.5 - distance(half, radii) * ppu).clampedToUnit
        var r: SIMD4<Float>, g: SIMD4<Float>, b: SIMD4<Float>, a: SIMD4<Float>
        let keep = borderOnly ? SIMD4<Float>(repeating: 0) : outer
        if v.border && !fillOnly {
            let inner = innerHalf.x > 0 && innerHalf.y > 0 ? (0.5 - distance(innerHalf, innerRadii) * ppu).clampedToUnit
                : SIMD4<Float>(repeating: 0)
            let ring = (outer - inner).clampedToUnit
            let bw = border.w * ring
            var hides = bw
            if groupOpacity > 0 {
                hides = bw / groupOpacity
                hides = hides.replacing(with: 1, where: hides .> 1)
            }
            // b + f·(1 − hides), with f = fill·outer, as `circularColor` associates it.
            let rest = 1 - hides
            r = border.x * ring + (fill.x * keep) * rest; g = border.y * ring + (fill.y * keep) * rest
            b = border.z * ring + (fill.z * keep) * rest; a = bw + (fill.w * keep) * rest
        } else {
            r = fill.x * keep; g = fill.y * keep; b = fill.z * keep; a = fill.w * keep
        }
        let words = SoftwareSpanBlend.sources(r, g, b, a)
        let inside = (px .>= lo.x) .& (px .< hi.x)
        guard py >= lo.y, py < hi.y else { return .zero }
        return words.replacing(with: 0, where: .!inside .| (outer .<= 0))
    }
}

extension SoftwareBoxPipeline {
    /// Draws instance `i` by its row plan into the rows of `rows`; `scratch` holds at least a
    /// target row of texels.
    static func drawRows(_ i: BoxInstance, _ plan: SoftwareBoxRowPlan, _ q: SoftwareQuad, _ v: SoftwareVariant,
                         _ target: SoftwareTarget, _ rows: Range<Int>, _ scratch: UnsafeMutablePointer<UInt32>) {
        let ya = max(plan.y0, rows.lowerBound), yb = min(plan.y1, rows.upperBound)
        guard ya < yb else { return }
        let px = SIMD2(plan.ax, 0), py = SIMD2(0, plan.ay)
        let shader = SoftwareBoxShader(i, v)
        let lo = q.lo, hi = q.hi
        let hasMiddleColumns = plan.mx0 < plan.mx1
        // The columns the per-column colours cover: all of them, or the two rims.
        let leftEnd = hasMiddleColumns ? plan.mx0 : plan.x1
        let rightStart = hasMiddleColumns ? plan.mx1 : plan.x1
        @inline(__always) func texel(_ x: Int, _ planeY: Float) -> UInt32 {
            let p = SIMD2(plan.ax * Float(x) + plan.bx, planeY)
            guard p.x >= lo.x, p.y >= lo.y, p.x < hi.x, p.y < hi.y else { return 0 }
            return SoftwareSpanBlend.source(shader.color(p, px, py))
        }
        let circular = shader.isCircular
        @inline(__always) func columns(_ a: Int, _ b: Int, _ planeY: Float) {
            var x = a
            if circular {
                let step = SIMD4<Float>(0, 1, 2, 3)
                while x &+ 4 <= b {
                    let px = plan.ax * (Float(x) + step) + plan.bx
                    UnsafeMutableRawPointer(scratch + (x &- plan.x0))
                        .storeBytes(of: shader.circularSources4(px, planeY, lo: lo, hi: hi), as: SIMD4<UInt32>.self)
                    x &+= 4
                }
            }
            while x < b { scratch[x &- plan.x0] = texel(x, planeY); x &+= 1 }
        }
        @inline(__always) func rims(_ planeY: Float) {
            columns(plan.x0, leftEnd, planeY)
            columns(rightStart, plan.x1, planeY)
        }
        @inline(__always) func drawRow(_ y: Int, middle: UInt32) {
            let row = target.pixels + y &* target.width
            SoftwareSpanBlend.blend(row + plan.x0, scratch, leftEnd &- plan.x0)
            if hasMiddleColumns { SoftwareSpanBlend.fill(row + plan.mx0, plan.mx1 &- plan.mx0, middle) }
            SoftwareSpanBlend.blend(row + rightStart, scratch + (rightStart &- plan.x0), plan.x1 &- rightStart)
        }
        // Middle rows share one profile (the colour depends on x alone there).
        let ma = max(plan.my0, ya), mb = min(plan.my1, yb)
        if ma < mb {
            let planeY = plan.ay * Float(ma) + plan.by
            rims(planeY)
            let middle = hasMiddleColumns ? texel((plan.mx0 + plan.mx1) / 2, planeY) : 0
            for y in ma..<mb { drawRow(y, middle: middle) }
        }
        // Rim rows: the corner blocks per texel, the middle columns one colour a row.
        for y in ya..<yb where y < plan.my0 || y >= plan.my1 || plan.my0 >= plan.my1 {
            let planeY = plan.ay * Float(y) + plan.by
            rims(planeY)
            let middle = hasMiddleColumns ? texel((plan.mx0 + plan.mx1) / 2, planeY) : 0
            drawRow(y, middle: middle)
        }
    }
}
