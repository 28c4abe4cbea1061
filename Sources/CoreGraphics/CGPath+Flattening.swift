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
    /// The true direction of travel where the subpath starts and where it ends (the first and
    /// last elements' tangents, not their first and last flattened chords); `.zero` where the
    /// subpath has no element of non-zero length. An open subpath's caps are cut across these:
    /// Core Graphics caps a stroke perpendicular to the curve's own end tangent, and a chord's
    /// direction differs from it by half the chord's turn — a visible wedge on wide strokes.
    package var startTangent: CGPoint = .zero
    package var endTangent: CGPoint = .zero

    package init(points: [CGPoint], isCorner: [Bool], isClosed: Bool, hasSegments: Bool,
                 startTangent: CGPoint = .zero, endTangent: CGPoint = .zero) {
        self.points = points; self.isCorner = isCorner
        self.isClosed = isClosed; self.hasSegments = hasSegments
        self.startTangent = startTangent; self.endTangent = endTangent
    }
}

extension CGPath {
    /// How many segments `flattenedSubpaths(tolerance:)` would make, counted without making
    /// them and given up as soon as the count passes `limit` (then some number above it): a
    /// caller checks its segment limit before the work, so a path of 200,000 curves that would
    /// flatten into 100 million segments is refused in the time it takes to read it.
    package func flattenedSegmentCount(tolerance: CGFloat, limit: Int) -> Int {
        let tol = tolerance > 1e-9 ? tolerance : 1e-9
        var n = 0
        forEachSegment { seg in
            guard n <= limit else { return }
            switch seg {
            case .move: break
            case .line, .close: n += 1
            case .quad(let a, let c, let b):
                n += flatteningSegmentCount(degree: 2, secondDifference: (a - c * 2 + b).vectorLength, tolerance: tol)
            case .cubic(let a, let c1, let c2, let b):
                let m = max((a - c1 * 2 + c2).vectorLength, (c1 - c2 * 2 + b).vectorLength)
                n += flatteningSegmentCount(degree: 3, secondDifference: m, tolerance: tol)
            }
        }
        return n
    }

    /// The path as polylines whose distance from the true curves is at most about
    /// `tolerance` (Wang's bound, at most 512 pieces per curve). Consecutive duplicate
    /// vertices are kept out, so a zero-length segment adds no vertex.
    package func flattenedSubpaths(tolerance: CGFloat) -> [FlattenedSubpath] {
        let tol = tolerance > 1e-9 ? tolerance : 1e-9
        var result: [FlattenedSubpath] = []
        // The open subpath is mutated in place through `open!`: copying it out, changing the
        // copy and storing it back (as this once did) copies its arrays on every point, which made
        // flattening quadratic (400k segments: 20 s).
        var open: FlattenedSubpath? = nil

        func add(_ p: CGPoint, corner: Bool) {
            guard open != nil else { return }
            open!.hasSegments = true
            if let last = open!.points.last, last == p {
                if corner { open!.isCorner[open!.isCorner.count - 1] = true }
            } else {
                open!.points.append(p); open!.isCorner.append(corner)
            }
        }
        /// Records an element's tangents at its start (`t0`, kept only for the subpath's first
        /// element that has one) and end (`t1`, the latest wins).
        func tangents(_ t0: CGPoint, _ t1: CGPoint) {
            guard open != nil else { return }
            if open!.startTangent == .zero, t0 != .zero { open!.startTangent = t0 }
            if t1 != .zero { open!.endTangent = t1 }
        }
        /// The first non-zero difference: a curve whose control point sits on its end point
        /// leaves along the next control point.
        func firstNonZero(_ a: CGPoint, _ b: CGPoint, _ c: CGPoint = .zero) -> CGPoint {
            a != .zero ? a : b != .zero ? b : c
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
                tangents(b - a, b - a)
            case .quad(let a, let c, let b):
                if open == nil { begin(a) }
                let m = (a - c * 2 + b).vectorLength
                let n = flatteningSegmentCount(degree: 2, secondDifference: m, tolerance: tol)
                for i in 1...n {
                    add(i == n ? b : quadPoint(a, c, b, CGFloat(i) / CGFloat(n)), corner: i == n)
                }
                tangents(firstNonZero(c - a, b - a), firstNonZero(b - c, b - a))
            case .cubic(let a, let c1, let c2, let b):
                if open == nil { begin(a) }
                let m = max((a - c1 * 2 + c2).vectorLength, (c1 - c2 * 2 + b).vectorLength)
                let n = flatteningSegmentCount(degree: 3, secondDifference: m, tolerance: tol)
                for i in 1...n {
                    add(i == n ? b : cubicPoint(a, c1, c2, b, CGFloat(i) / CGFloat(n)), corner: i == n)
                }
                tangents(firstNonZero(c1 - a, c2 - a, b - a), firstNonZero(b - c2, b - c1, b - a))
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
