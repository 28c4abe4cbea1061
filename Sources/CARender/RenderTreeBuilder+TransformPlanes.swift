import CoreGraphics
import CoreAnimation

/// Geometry of a `CATransformLayer`'s sublayer planes: where they are in depth space and
/// whether two of them intersect (`RenderTreeBuilder+PlaneSplitting.swift` splits those).
extension RenderTreeBuilder {
    /// Sublayers of one transform layer that are split at most (the intersection test is
    /// quadratic); past it they are drawn whole with a warning.
    static let maxPlanesChecked = 48

    /// The rectangle's corners through `m` (homogeneous divide); nil when a corner is at or
    /// behind w = 0 or not finite.
    static func planeCorners(_ b: CGRect, _ m: CATransform3D) -> [SIMD3<Double>]? {
        guard b.width > 0, b.height > 0 else { return nil }
        var out: [SIMD3<Double>] = []
        for (x, y) in [(b.minX, b.minY), (b.maxX, b.minY), (b.maxX, b.maxY), (b.minX, b.maxY)] {
            let X = x * m.m11 + y * m.m21 + m.m41, Y = x * m.m12 + y * m.m22 + m.m42
            let Z = x * m.m13 + y * m.m23 + m.m43, W = x * m.m14 + y * m.m24 + m.m44
            guard W > 1e-9 else { return nil }
            let p = SIMD3(Double(X / W), Double(Y / W), Double(Z / W))
            guard p.x.isFinite, p.y.isFinite, p.z.isFinite else { return nil }
            out.append(p)
        }
        return out
    }

    /// Whether two planar convex quadrilaterals cross: each straddles the other's plane and the
    /// two pieces of the line where the planes meet overlap. Touching or coplanar quads do not
    /// count (the depth order draws those right).
    static func quadsIntersect(_ a: [SIMD3<Double>], _ b: [SIMD3<Double>]) -> Bool {
        func normal(_ q: [SIMD3<Double>]) -> SIMD3<Double> { cross(q[1] - q[0], q[3] - q[0]) }
        func cross(_ u: SIMD3<Double>, _ v: SIMD3<Double>) -> SIMD3<Double> {
            SIMD3(u.y * v.z - u.z * v.y, u.z * v.x - u.x * v.z, u.x * v.y - u.y * v.x)
        }
        func dot(_ u: SIMD3<Double>, _ v: SIMD3<Double>) -> Double { (u * v).sum() }
        let na = normal(a), nb = normal(b)
        let la = dot(na, na).squareRoot(), lb = dot(nb, nb).squareRoot()
        guard la > 1e-12, lb > 1e-12 else { return false }
        let dir = cross(na, nb)
        guard dot(dir, dir).squareRoot() > 1e-9 * la * lb else { return false }   // parallel planes
        /// Where `q`'s edges cross the plane through `p0` with normal `n`, as positions along `dir`.
        func span(_ q: [SIMD3<Double>], n: SIMD3<Double>, p0: SIMD3<Double>, scale: Double) -> ClosedRange<Double>? {
            let eps = 1e-6 * scale
            let d = q.map { dot(n, $0 - p0) }
            guard d.contains(where: { $0 > eps }), d.contains(where: { $0 < -eps }) else { return nil }
            var ts: [Double] = []
            for k in 0..<4 {
                let p = q[k], r = q[(k + 1) % 4], dp = d[k], dr = d[(k + 1) % 4]
                if (dp > 0) != (dr > 0), dp != dr { ts.append(dot(dir, p + (r - p) * (dp / (dp - dr)))) }
            }
            guard let lo = ts.min(), let hi = ts.max() else { return nil }
            return lo...hi
        }
        guard let sa = span(a, n: nb, p0: b[0], scale: lb), let sb = span(b, n: na, p0: a[0], scale: la) else { return false }
        let overlap = min(sa.upperBound, sb.upperBound) - max(sa.lowerBound, sb.lowerBound)
        return overlap > 1e-6 * max(1, abs(sa.upperBound) + abs(sb.upperBound))
    }
}
