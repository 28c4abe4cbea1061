import Foundation

extension CGPath {
    /// How far the path is from its own half turn about the origin (p ↦ −p): the largest
    /// |p + q| over the pairs of points that must be each other's negation, or nil when the
    /// path cannot be one (an open subpath, whose stroke has caps at its ends; an odd count of
    /// points; no segments). 0 for an ellipse or a rectangle centred at the origin, closed by
    /// `closeSubpath`, drawn from any of their vertices; nil for an outline that starts halfway
    /// along a side (`CGPath(roundedRect:)`'s), whose start has no point across the origin to
    /// pair with (a miss, not an error: the path is then keyed as any other).
    ///
    /// Filled or stroked (joins, no caps), a path within ε of its half turn covers, under a
    /// linear map M, the points it covers under −M to within ε·|M|: a shape raster keyed by the
    /// map can serve the negation too (issue 23: half of 9squares' rings are the other half
    /// turned by 180°). A subpath's points after its start (control points included, the
    /// closing line's end added when the last segment does not return to the start) pair with
    /// those half the subpath later.
    package var pointSymmetryError: CGFloat? {
        var points: [CGPoint] = []
        var start: CGPoint? = nil
        var worst: CGFloat = 0
        var any = false
        /// The subpath just closed: false when it cannot be symmetric.
        func closed() -> Bool {
            defer { points.removeAll(keepingCapacity: true) }
            guard let s = start, let last = points.last else { return true }
            if last != s { points.append(s) }
            let n = points.count
            guard n % 2 == 0 else { return false }
            let half = n / 2
            for i in 0..<half {
                let p = points[i], q = points[i + half]
                worst = max(worst, abs(p.x + q.x), abs(p.y + q.y))
            }
            any = true
            return true
        }
        for e in elements {
            switch e {
            case .move(let p):
                // (Points after the last close, with no close of their own: an open subpath.)
                guard points.isEmpty else { return nil }
                start = p
            case .line(let p): points.append(p)
            case .quad(let c, let p): points.append(c); points.append(p)
            case .cubic(let c1, let c2, let p): points.append(c1); points.append(c2); points.append(p)
            case .close:
                // (A segment after a close starts at the closed subpath's start, kept.)
                guard closed() else { return nil }
            }
        }
        guard points.isEmpty, any, worst.isFinite else { return nil }
        return worst
    }
}
