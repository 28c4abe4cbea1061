// Curves → polylines. Used by `contains`, stroking and dashing here, and `package` so the
// renderer's tessellator and the model's path-length code can share one implementation.

/// One subpath approximated by straight segments.
package struct FlattenedSubpath: Hashable, Sendable {
    /// The vertices, starting at the subpath's move point. For a closed subpath the closing
    /// segment (last → first) is implicit: the start point is not repeated at the end.
    package var points: [CGPoint]
    /// Parallel to `points`: true where a path element ends (a real corner, where stroking
    /// applies the line join), false for vertices sampled inside a curve.
    package var isCorner: [Bool]
    /// True when the subpath ended with `closeSubpath()`.
    package var isClosed: Bool
    /// True when the subpath has at least one drawing element (line, curve or close); a lone
    /// move has none and draws nothing.
    package var hasSegments: Bool

    package init(points: [CGPoint], isCorner: [Bool], isClosed: Bool, hasSegments: Bool) {
        self.points = points; self.isCorner = isCorner
        self.isClosed = isClosed; self.hasSegments = hasSegments
    }
}

extension CGPath {
    /// The path as polylines whose distance from the true curves is at most about
    /// `tolerance` (Wang's bound, at most 512 pieces per curve). Consecutive duplicate
    /// vertices are kept out, so a zero-length segment adds no vertex.
    package func flattenedSubpaths(tolerance: CGFloat) -> [FlattenedSubpath] {
        let tol = tolerance > 1e-9 ? tolerance : 1e-9
        var result: [FlattenedSubpath] = []
        var open: FlattenedSubpath? = nil

        func add(_ p: CGPoint, corner: Bool) {
            guard var s = open else { return }
            s.hasSegments = true
            if let last = s.points.last, last == p {
                if corner { s.isCorner[s.isCorner.count - 1] = true }
            } else {
                s.points.append(p); s.isCorner.append(corner)
            }
            open = s
        }
        func begin(_ p: CGPoint) {
            if let s = open { result.append(s) }
            open = FlattenedSubpath(points: [p], isCorner: [true], isClosed: false, hasSegments: false)
        }

        forEachSegment { seg in
            switch seg {
            case .move(let p):
                begin(p)
            case .line(let a, let b):
                if open == nil { begin(a) }
                add(b, corner: true)
            case .quad(let a, let c, let b):
                if open == nil { begin(a) }
                let m = (a - c * 2 + b).vectorLength
                let n = flatteningSegmentCount(degree: 2, secondDifference: m, tolerance: tol)
                for i in 1...n {
                    add(i == n ? b : quadPoint(a, c, b, CGFloat(i) / CGFloat(n)), corner: i == n)
                }
            case .cubic(let a, let c1, let c2, let b):
                if open == nil { begin(a) }
                let m = max((a - c1 * 2 + c2).vectorLength, (c1 - c2 * 2 + b).vectorLength)
                let n = flatteningSegmentCount(degree: 3, secondDifference: m, tolerance: tol)
                for i in 1...n {
                    add(i == n ? b : cubicPoint(a, c1, c2, b, CGFloat(i) / CGFloat(n)), corner: i == n)
                }
            case .close(let a, _):
                if open == nil { begin(a) }
                if var s = open {
                    s.hasSegments = true
                    s.isClosed = true
                    // The closing segment is implicit; drop a repeated start point.
                    if s.points.count > 1, s.points.last == s.points.first {
                        s.points.removeLast(); s.isCorner.removeLast()
                    }
                    result.append(s)
                    open = nil
                }
            }
        }
        if let s = open { result.append(s) }
        return result
    }
}
