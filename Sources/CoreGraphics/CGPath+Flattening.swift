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

    /// Whether the path flattens into at most `limit` segments at `tolerance`: at once for a
    /// path of at most `limit / 512` elements (no element flattens into more than 512), else by
    /// counting (`flattenedSegmentCount`). Drawing checks this before every fill and stroke, and
    /// the count was a pass over each path's curves as long as flattening them (issue 19).
    package func flattensWithin(_ limit: Int, tolerance: CGFloat) -> Bool {
        if elements.count <= limit / 512 { return true }
        return flattenedSegmentCount(tolerance: tolerance, limit: limit) <= limit
    }

    /// The path as polylines whose distance from the true curves is at most about
    /// `tolerance` (Wang's bound, at most 512 pieces per curve). Consecutive duplicate
    /// vertices are kept out, so a zero-length segment adds no vertex.
    package func flattenedSubpaths(tolerance: CGFloat) -> [FlattenedSubpath] {
        let tol = tolerance > 1e-9 ? tolerance : 1e-9
        var b = SubpathFlattener()
        /// The first non-zero difference: a curve whose control point sits on its end point
        /// leaves along the next control point.
        func firstNonZero(_ a: CGPoint, _ b: CGPoint, _ c: CGPoint = .zero) -> CGPoint {
            a != .zero ? a : b != .zero ? b : c
        }
        forEachSegment { seg in
            switch seg {
            case .move(let p):
                b.begin(p)
            case .line(let a, let e):
                if !b.isOpen { b.begin(a) }
                b.add(e, corner: true)
                b.tangents(e - a, e - a)
            case .quad(let a, let c, let e):
                if !b.isOpen { b.begin(a) }
                let m = (a - c * 2 + e).vectorLength
                let n = flatteningSegmentCount(degree: 2, secondDifference: m, tolerance: tol)
                for i in 1...n {
                    b.add(i == n ? e : quadPoint(a, c, e, CGFloat(i) / CGFloat(n)), corner: i == n)
                }
                b.tangents(firstNonZero(c - a, e - a), firstNonZero(e - c, e - a))
            case .cubic(let a, let c1, let c2, let e):
                if !b.isOpen { b.begin(a) }
                let m = max((a - c1 * 2 + c2).vectorLength, (c1 - c2 * 2 + e).vectorLength)
                let n = flatteningSegmentCount(degree: 3, secondDifference: m, tolerance: tol)
                for i in 1...n {
                    b.add(i == n ? e : cubicPoint(a, c1, c2, e, CGFloat(i) / CGFloat(n)), corner: i == n)
                }
                b.tangents(firstNonZero(c1 - a, c2 - a, e - a), firstNonZero(e - c2, e - c1, e - a))
            case .close(let a, _):
                if !b.isOpen { b.begin(a) }
                b.close()
            }
        }
        b.end()
        return b.result
    }
}

/// The subpath being flattened, in plain stored arrays appended to in place (issue 23: kept in
/// an optional `FlattenedSubpath` captured by nested functions, each vertex cost about 900
/// instructions, a twentieth of a 9squares frame's rasters), and the finished subpaths.
private struct SubpathFlattener {
    var result: [FlattenedSubpath] = []
    private(set) var isOpen = false
    private var points: [CGPoint] = [], isCorner: [Bool] = []
    private var hasSegments = false
    private var startTangent = CGPoint.zero, endTangent = CGPoint.zero

    /// Ends the open subpath (left open) and starts one at `p`.
    mutating func begin(_ p: CGPoint) {
        end()
        points = [p]; isCorner = [true]
        hasSegments = false
        startTangent = .zero; endTangent = .zero
        isOpen = true
    }

    /// A vertex; a repeat of the last one only marks it a corner when `corner`.
    mutating func add(_ p: CGPoint, corner: Bool) {
        guard isOpen else { return }
        hasSegments = true
        if let last = points.last, last == p {
            if corner { isCorner[isCorner.count - 1] = true }
        } else {
            points.append(p); isCorner.append(corner)
        }
    }

    /// Records an element's tangents at its start (`t0`, kept only for the subpath's first
    /// element that has one) and end (`t1`, the latest wins).
    mutating func tangents(_ t0: CGPoint, _ t1: CGPoint) {
        guard isOpen else { return }
        if startTangent == .zero, t0 != .zero { startTangent = t0 }
        if t1 != .zero { endTangent = t1 }
    }

    /// Closes the open subpath. The closing segment is implicit; a repeated start point is dropped.
    mutating func close() {
        guard isOpen else { return }
        if points.count > 1, points.last == points.first {
            points.removeLast(); isCorner.removeLast()
        }
        finish(closed: true, hasSegments: true)
    }

    /// Ends the open subpath, if any, left open.
    mutating func end() {
        guard isOpen else { return }
        finish(closed: false, hasSegments: hasSegments)
    }

    private mutating func finish(closed: Bool, hasSegments: Bool) {
        result.append(FlattenedSubpath(points: points, isCorner: isCorner, isClosed: closed, hasSegments: hasSegments,
                                       startTangent: startTangent, endTangent: endTangent))
        points = []; isCorner = []
        isOpen = false
    }
}