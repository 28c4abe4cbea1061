// Small point arithmetic used by the path code. Kept `internal` (not public) so that it
// does not add operators to users' `CGPoint`, which Apple's CoreGraphics does not have.

extension CGPoint {
    @inline(__always) static func + (l: CGPoint, r: CGPoint) -> CGPoint { CGPoint(x: l.x + r.x, y: l.y + r.y) }
    @inline(__always) static func - (l: CGPoint, r: CGPoint) -> CGPoint { CGPoint(x: l.x - r.x, y: l.y - r.y) }
    @inline(__always) static func * (l: CGPoint, s: CGFloat) -> CGPoint { CGPoint(x: l.x * s, y: l.y * s) }
    @inline(__always) static prefix func - (p: CGPoint) -> CGPoint { CGPoint(x: -p.x, y: -p.y) }

    @inline(__always) func dot(_ o: CGPoint) -> CGFloat { x * o.x + y * o.y }
    /// z component of the 3D cross product; > 0 when `o` is counter-clockwise from `self`
    /// in a y-up frame.
    @inline(__always) func cross(_ o: CGPoint) -> CGFloat { x * o.y - y * o.x }
    @inline(__always) var vectorLength: CGFloat { (x * x + y * y).squareRoot() }
    @inline(__always) var isFinitePoint: Bool { x.isFinite && y.isFinite }

    /// The unit vector in this direction, or nil for a zero / non-finite vector. Scaled by
    /// the larger component first, so huge vectors (|x| > 1e154) do not overflow to ∞.
    var normalizedVector: CGPoint? {
        let m = Swift.max(abs(x), abs(y))
        guard m > 0, m.isFinite else { return nil }
        let sx = x / m, sy = y / m
        let l = (sx * sx + sy * sy).squareRoot()
        return CGPoint(x: sx / l, y: sy / l)
    }

    /// The left-hand perpendicular in a y-up frame (rotated +90°).
    @inline(__always) var perpendicular: CGPoint { CGPoint(x: -y, y: x) }

    @inline(__always) func distance(to o: CGPoint) -> CGFloat { (self - o).vectorLength }
}

/// Linear interpolation between two points.
@inline(__always) func lerp(_ a: CGPoint, _ b: CGPoint, _ t: CGFloat) -> CGPoint {
    CGPoint(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t)
}

/// Point on a quadratic Bézier at parameter `t`.
func quadPoint(_ p0: CGPoint, _ p1: CGPoint, _ p2: CGPoint, _ t: CGFloat) -> CGPoint {
    let u = 1 - t
    return p0 * (u * u) + p1 * (2 * u * t) + p2 * (t * t)
}

/// Point on a cubic Bézier at parameter `t`.
func cubicPoint(_ p0: CGPoint, _ p1: CGPoint, _ p2: CGPoint, _ p3: CGPoint, _ t: CGFloat) -> CGPoint {
    let u = 1 - t
    return p0 * (u * u * u) + p1 * (3 * u * u * t) + p2 * (3 * u * t * t) + p3 * (t * t * t)
}

/// The part of a cubic between parameters `t0 < t1`, as a cubic (two de Casteljau splits).
/// `t1 ≥ 1` keeps the original end point bit for bit.
func cubicSubcurve(_ p0: CGPoint, _ p1: CGPoint, _ p2: CGPoint, _ p3: CGPoint,
                   from t0: CGFloat, to t1: CGFloat) -> (CGPoint, CGPoint, CGPoint, CGPoint) {
    // First cut at t1 and keep the left part [0, t1] (t1 ≥ 1 keeps the curve exactly).
    var (q0, q1, q2, q3) = (p0, p1, p2, p3)
    if t1 < 1 {
        let a = lerp(p0, p1, t1), b = lerp(p1, p2, t1), c = lerp(p2, p3, t1)
        let d = lerp(a, b, t1), e = lerp(b, c, t1)
        (q1, q2, q3) = (a, d, lerp(d, e, t1))
    }
    guard t0 > 0, t1 > 0 else { return (q0, q1, q2, q3) }
    // Then cut the left part at t0 / t1 and keep the right part.
    let s = t0 / t1
    let g = lerp(q0, q1, s), h = lerp(q1, q2, s), i = lerp(q2, q3, s)
    let j = lerp(g, h, s), k = lerp(h, i, s), m = lerp(j, k, s)
    return (m, k, i, q3)
}

/// The part of a quadratic between parameters `t0 < t1`, as a quadratic.
func quadSubcurve(_ p0: CGPoint, _ p1: CGPoint, _ p2: CGPoint,
                  from t0: CGFloat, to t1: CGFloat) -> (CGPoint, CGPoint, CGPoint) {
    var (q0, q1, q2) = (p0, p1, p2)
    if t1 < 1 {
        let a = lerp(p0, p1, t1), b = lerp(p1, p2, t1)
        (q1, q2) = (a, lerp(a, b, t1))
    }
    guard t0 > 0, t1 > 0 else { return (q0, q1, q2) }
    let s = t0 / t1
    let d = lerp(q0, q1, s), e = lerp(q1, q2, s), f = lerp(d, e, s)
    return (f, e, q2)
}

/// Number of line segments that approximate a Bézier of `degree` within `tolerance`
/// (Wang's formula: n = ⌈√(d(d−1)/8 · M / tol)⌉, M the largest second difference of the
/// control points), clamped to 1…`maxSegments` so huge or non-finite input stays bounded.
func flatteningSegmentCount(degree: Int, secondDifference m: CGFloat, tolerance: CGFloat,
                            maxSegments: Int = 512) -> Int {
    let d = CGFloat(degree)
    let n = (d * (d - 1) / 8 * m / tolerance).squareRoot().rounded(.up)
    guard n.isFinite, n >= 1 else { return 1 }
    return n >= CGFloat(maxSegments) ? maxSegments : Int(n)
}
