import CoreGraphics
import CoreAnimation

/// The case of `CATransformLayer` this renderer does not reproduce, named rather than drawn
/// wrong in silence: sublayers whose planes cut through each other.
///
/// A transform layer's sublayers keep their 3D positions and are drawn far to near by the depth
/// of their centres (`orderedSublayers`). That painter's order is right while the planes do not
/// intersect; where two do, each should cover the other on its own side of the line where they
/// meet (browsers split such planes for `transform-style: preserve-3d`, CSS Transforms 2 §
/// "Rendering Model"; Core Animation shows the same), and a whole-plane order cannot. Splitting
/// is not implemented, so a frame that meets two intersecting sibling planes warns once.
extension RenderTreeBuilder {
    /// Sibling planes checked pairwise at most (the check is quadratic; larger transform layers
    /// are checked among their first this-many sublayers).
    static let maxPlanesChecked = 48

    /// Warns when two of a transform layer's sublayers (flattened planes: not themselves
    /// transform layers) intersect within their bounds. `depthBasis` and `parent` are what
    /// `orderedSublayers` measures depth with.
    func warnIfPlanesIntersect(_ sublayers: [CALayer], depthBasis: CATransform3D, parent: LayerState) {
        guard sublayers.count >= 2 else { return }
        var quads: [[SIMD3<Double>]] = []
        for l in sublayers.prefix(Self.maxPlanesChecked) where !(l is CATransformLayer) {
            let s = l.renderCopy.state
            guard !s.isHidden else { continue }
            let m = CATransform3DConcat(LayerGeometry.localToParent(s, parent: parent, isMask: false), depthBasis)
            if let q = Self.planeCorners(s.bounds.standardized, m) { quads.append(q) }
        }
        guard quads.count >= 2 else { return }
        for i in 0..<quads.count - 1 {
            for j in (i + 1)..<quads.count where Self.quadsIntersect(quads[i], quads[j]) {
                RenderDiagnostics.warn("CATransformLayer: two sublayers' planes intersect; intersecting planes are not split, so each is drawn whole in the order of its centre's depth and the nearer part of the farther plane is hidden (docs/BEHAVIOUR.md N8)")
                return
            }
        }
    }

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
