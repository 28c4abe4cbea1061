import CAFrame

/// The plane point under each texel of an instance drawn without perspective (issue 22: image
/// and gradient rows).
///
/// `SoftwareQuad.forEachTexel` divides by the homography's w at every texel. Where the map's
/// third column is (0, 0, w) with w > 0 (no perspective: the inverse map is affine), w is the
/// same at every texel, so the plane point of texel (x, y)'s centre is `origin + x·dx + y·dy`
/// and its derivatives are the constants `dx`, `dy` (what `dFdx`/`dFdy` give). Along a row the
/// point is `base + x·dx`, one multiply-add a texel with no error accumulated along the row,
/// and the texels whose point lies in a plane rectangle form one interval, found once a row.
struct SoftwareAffineMap {
    /// Plane point of texel (0, 0)'s centre, and its change per texel along x and y.
    let origin: SIMD2<Float>, dx: SIMD2<Float>, dy: SIMD2<Float>

    /// The affine map of `q`, or nil where it has perspective, points behind the eye or is not
    /// finite (those quads keep the per-texel path).
    init?(_ q: SoftwareQuad) {
        guard q.i0.z == 0, q.i1.z == 0, q.i2.z > 0, q.x0 < q.x1, q.y0 < q.y1 else { return nil }
        let w = 1 / q.i2.z
        let a0 = SIMD2(q.i0.x, q.i0.y), a1 = SIMD2(q.i1.x, q.i1.y), a2 = SIMD2(q.i2.x, q.i2.y)
        dx = a0 * w
        dy = a1 * w
        origin = (0.5 * a0 + 0.5 * a1 + a2) * w
        func finite(_ v: SIMD2<Float>) -> Bool { v.x.isFinite && v.y.isFinite }
        guard w.isFinite, finite(dx), finite(dy), finite(origin) else { return nil }
    }

    /// Plane point of the centre of texel 0 of row `y` (add `Float(x) · dx` for texel x).
    @inline(__always) func rowBase(_ y: Int) -> SIMD2<Float> { origin + Float(y) * dy }

    /// The texels x in [x0, x1) of the row starting at `base` whose plane point lies in the
    /// closed rectangle `lo`…`hi` (up to float rounding: callers either widen the rectangle and
    /// test each texel, or shrink it where a texel must surely lie inside). Empty as (x0, x0).
    @inline(__always)
    func interval(_ base: SIMD2<Float>, _ lo: SIMD2<Float>, _ hi: SIMD2<Float>, _ x0: Int, _ x1: Int) -> (Int, Int) {
        var a = Float(x0), b = Float(x1 - 1)
        for c in 0..<2 {
            let o = base[c], d = dx[c], l = lo[c], h = hi[c]
            if abs(d) < 1e-20 {
                if !(o >= l && o <= h) { return (x0, x0) }
                continue
            }
            let t0 = (l - o) / d, t1 = (h - o) / d
            a = max(a, min(t0, t1)); b = min(b, max(t0, t1))
        }
        guard a <= b, a.isFinite, b.isFinite else { return (x0, x0) }
        // x0 ≤ a ≤ b ≤ x1 − 1 here, so both are small: ⌈a⌉ and ⌊b⌋ by truncation (`rounded`
        // was a libm call each, 6 % of the particles scene).
        let ta = Float(Int32(a)), tb = Float(Int32(b))
        let ia = max(x0, Int(ta < a ? ta + 1 : ta)), ib = min(x1, Int(tb > b ? tb - 1 : tb) + 1)
        return ia < ib ? (ia, ib) : (x0, x0)
    }
}

/// Where a rounded rectangle's coverage is 1 exactly, as two plane rectangles (a plus sign):
/// the "tall" one inset by the corner extent from the left and right edges and by half a pixel
/// from the top and bottom, the "wide" one the other way round.
///
/// Inside the wide one, |y − centre| ≤ half height − extent − ½ px puts the point below every
/// corner's reach, so the field is |x − centre| − half width (≤ −½ px) or less, with a gradient
/// of length 1: coverage 1, edge mask or not (`shapeCoverage` is clamp(½ − field), saturated
/// from −½ px on); likewise for the tall one. Both keep a further 0.01 plane units, far above
/// the field's float error. Outside both (the corner blocks and a rim of one or two texels
/// along each edge) the field is evaluated. (An inset of a whole pixel, as before, left rims
/// of about 2½ texels: a quarter of the images scene's time went to them.)
struct SoftwareInterior {
    let tallLo: SIMD2<Float>, tallHi: SIMD2<Float>
    let wideLo: SIMD2<Float>, wideHi: SIMD2<Float>

    /// The interior of `rect` (origin, size) with the largest corner extent `extent` (radius,
    /// × 1.528665 for continuous corners) at `ppu` pixels per plane unit.
    init(rect: SIMD4<Float>, extent: Float, ppu: Float) {
        let half = SIMD2(rect.z, rect.w) * 0.5, centre = SIMD2(rect.x, rect.y) + half
        let pixel = 0.5 / max(ppu, 1e-6) + 0.01
        let corner = max(extent, 0) + pixel
        let tall = half - SIMD2(corner, pixel), wide = half - SIMD2(pixel, corner)
        tallLo = centre - tall; tallHi = centre + tall
        wideLo = centre - wide; wideHi = centre + wide
    }

    /// The texels in [x0, x1) of the row starting at `base` that surely lie in the interior:
    /// the union of the row's intervals in the two rectangles where they overlap, else the
    /// longer one. Empty as (x0, x0).
    @inline(__always)
    func interval(_ map: SoftwareAffineMap, _ base: SIMD2<Float>, _ x0: Int, _ x1: Int) -> (Int, Int) {
        let a = tallLo.x < tallHi.x && tallLo.y < tallHi.y ? map.interval(base, tallLo, tallHi, x0, x1) : (x0, x0)
        let b = wideLo.x < wideHi.x && wideLo.y < wideHi.y ? map.interval(base, wideLo, wideHi, x0, x1) : (x0, x0)
        if a.0 >= a.1 { return b }
        if b.0 >= b.1 { return a }
        if a.0 <= b.1 && b.0 <= a.1 { return (min(a.0, b.0), max(a.1, b.1)) }
        return a.1 - a.0 >= b.1 - b.0 ? a : b
    }
}
