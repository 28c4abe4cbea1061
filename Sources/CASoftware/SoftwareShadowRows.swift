import CAFrame

/// Analytic shadows (box.frag's blur branch, `SoftwareBlurredShape`) drawn row by row, for an
/// axis-aligned, affine instance (a layer's implied shadow or a `shadowPath` rounded rect that is
/// not rotated or in perspective).
///
/// The per-texel path evaluates box.frag's sum as written: per texel, the kernel's mass over the
/// row's straight part and over 16 corner slices, each mass two `erf`s (an `exp` each): 34 `exp`
/// a texel, which made the 100-shadow stress scene the CPU backend's slowest (3.9 s a frame on the
/// loaded VM, 25× the GL backend on llvmpipe). Here the same sum is computed with the same slices
/// and in the same order, but:
/// - everything that depends on the row alone (the kernel window, the corner slices' insets and
///   their masses along y) is worked out once per row;
/// - the straight part's mass along x depends on the column alone: once per column;
/// - the kernel's CDF is read from a table of 32 entries per σ with linear interpolation instead
///   of `erf`: for the CDF of a Gaussian the interpolation error is ≤ h²/8 · max|f″| ≈ 2.3e-4 / 4
///   at h = σ/32, so a texel's coverage moves by less than 0.02 of an 8-bit level;
/// - between the columns where all of a row's masses along x saturate (farther than the reach
///   from both ends of the straight part and of every corner slice) the coverage is one value,
///   computed once a row: the middle of a shadow's corner rows is no longer 16 slices a texel.
struct SoftwareShadowRowPlan {
    /// Plane x of texel column x's centre = ax·x + bx; plane y of row y's centre = ay·y + by.
    let ax: Float, bx: Float, ay: Float, by: Float
    let lo: SIMD2<Float>, hi: SIMD2<Float>, corner: SIMD2<Float>
    let sigma: Float, reach: Float
    /// cdf2 (box.frag's `kernelCDF2`) at t = −reach + k·step, k = 0…count.
    let table: [Float]
    let step: Float

    /// The plan of shadow instance `i` drawn through `q`, or nil where the rows do not hold
    /// (not a shadow, rotation, perspective): those take the per-texel path.
    init?(_ i: BoxInstance, _ q: SoftwareQuad, _ v: SoftwareVariant) {
        guard v.blur, i.params.y > 0, i.params.y.isFinite, q.x0 < q.x1, q.y0 < q.y1 else { return nil }
        guard q.i0.y == 0, q.i1.x == 0, q.i0.z == 0, q.i1.z == 0, q.i2.z != 0 else { return nil }
        ax = q.i0.x / q.i2.z; bx = (0.5 * q.i0.x + q.i2.x) / q.i2.z
        ay = q.i1.y / q.i2.z; by = (0.5 * q.i1.y + q.i2.y) / q.i2.z
        guard ax.isFinite, bx.isFinite, ay.isFinite, by.isFinite else { return nil }
        sigma = i.params.y
        reach = SoftwareBlurredShape.cut * sigma
        guard reach.isFinite, reach > 0 else { return nil }
        lo = SIMD2(i.rect.x, i.rect.y); hi = lo + SIMD2(i.rect.z, i.rect.w)
        corner = SIMD2(i.radii.x, i.radii.y)
        let count = 160   // 2.5σ each side at σ/32
        step = 2 * reach / Float(count)
        let (r, s) = (reach, sigma)
        table = (0...count).map { k in SoftwareBlurredShape.cdf2(-r + Float(k) * (2 * r / Float(count)), s) }
    }

    /// `SoftwareBlurredShape.mass` through the table.
    @inline(__always) static func mass(_ a: Float, _ b: Float, _ t: UnsafeBufferPointer<Float>, _ r: Float, _ inv: Float) -> Float {
        0.5 * (cdf(b, t, r, inv) - cdf(a, t, r, inv))
    }

    @inline(__always) static func cdf(_ x: Float, _ t: UnsafeBufferPointer<Float>, _ r: Float, _ inv: Float) -> Float {
        let u = (min(max(x, -r), r) + r) * inv
        let k = min(Int(u), t.count - 2)
        let f = u - Float(k)
        return t[k] + (t[k + 1] - t[k]) * f
    }

    /// Draws the instance's texels in `rows` (those whose centre lies in the quad `q`), colour
    /// `fill` times coverage times the clip, as the per-texel path does.
    func draw(_ fill: SIMD4<Float>, clipIndex: Float, _ q: SoftwareQuad, _ v: SoftwareVariant, _ ctx: SoftwarePassContext,
              _ rows: Range<Int>, additive: Bool) {
        let ya = max(q.y0, rows.lowerBound), yb = min(q.y1, rows.upperBound)
        guard ya < yb else { return }
        // Columns whose centre is inside the quad and within the kernel's reach of the shape.
        var xa = q.x1, xb = q.x0
        for x in q.x0..<q.x1 {
            let px = ax * Float(x) + bx
            if px >= q.lo.x, px < q.hi.x, px >= lo.x - reach, px <= hi.x + reach { xa = min(xa, x); xb = max(xb, x + 1) }
        }
        guard xa < xb else { return }
        let target = ctx.target
        let r = reach, inv = 1 / step
        let c = corner
        let rounded = c.x > 0 && c.y > 0
        table.withUnsafeBufferPointer { t in
            // The straight rows' mass along x, per column.
            var full = [Float](repeating: 0, count: xb - xa)
            for x in xa..<xb {
                let px = ax * Float(x) + bx
                full[x - xa] = Self.mass(lo.x - px, hi.x - px, t, r, inv)
            }
            // Per row: the middle's mass along y, and each corner slice's inset and mass.
            var insets = [Float](repeating: 0, count: 16), weights = [Float](repeating: 0, count: 16)
            for y in ya..<yb {
                let py = ay * Float(y) + by
                guard py >= q.lo.y, py < q.hi.y else { continue }
                let y0 = max(lo.y, py - r), y1 = min(hi.y, py + r)
                if y0 >= y1 { continue }
                var middle: Float = 0
                var slices = 0
                if !rounded {
                    middle = SoftwareBlurredShape.mass(y0 - py, y1 - py, sigma)
                } else {
                    let m0 = max(y0, lo.y + c.y), m1 = min(y1, hi.y - c.y)
                    if m1 > m0 { middle = SoftwareBlurredShape.mass(m0 - py, m1 - py, sigma) }
                    SoftwareBlurredShape.cornerSlices(y0: y0, y1: y1, lo: lo, hi: hi, c: c) { inset, s0, s1 in
                        insets[slices] = inset
                        weights[slices] = SoftwareBlurredShape.mass(s0 - py, s1 - py, sigma)
                        slices += 1
                    }
                }
                // Where every mass along x of the row (the straight part's and each slice's) has
                // both ends beyond the kernel's reach, each is the table's full mass: the
                // coverage is one float across those columns, computed at the first of them by
                // the same operations. Half a plane unit of margin keeps the float comparisons
                // of the masses' ends on the saturated side.
                var maxInset: Float = 0
                for k in 0..<slices { maxInset = max(maxInset, insets[k]) }
                let flatLo = lo.x + maxInset + r + 0.5, flatHi = hi.x - maxInset - r - 0.5
                var flatCov: Float? = nil
                for x in xa..<xb {
                    let px = ax * Float(x) + bx
                    let flat = px >= flatLo && px <= flatHi
                    var cov: Float
                    if flat, let f = flatCov {
                        cov = f
                    } else {
                        cov = full[x - xa] * middle
                        for k in 0..<slices {
                            let inset = insets[k]
                            cov += Self.mass(lo.x + inset - px, hi.x - inset - px, t, r, inv) * weights[k]
                        }
                        if flat { flatCov = cov }
                    }
                    if cov <= 0 { continue }
                    let clip = ctx.clip(clipIndex, x, y, v)
                    target.blend(x, y, fill * (cov * clip), additive: additive)
                }
            }
        }
    }
}
