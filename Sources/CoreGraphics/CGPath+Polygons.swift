// The vertices `flattenedSubpaths(tolerance:)` gives, without what only stroking needs (corner
// flags, end tangents, one array pair per subpath): filling needs each subpath's polygon and
// nothing else, and making those per-subpath records was a third of drawing a small filled or
// stroked path (issue 19's drawing speed; the stroker's outline, all short lines, is flattened
// here again before it is rasterised).

extension CGPath {
    /// Appends every subpath's flattened vertices to `points` and each subpath's start index to
    /// `starts` (a subpath ends where the next starts, the last at `points.count`). The points
    /// are exactly `flattenedSubpaths(tolerance:)`'s, in the same order: consecutive duplicates
    /// dropped, a closed subpath's repeated start point dropped, a lone move kept as one point.
    package func appendFlattenedPolygons(tolerance: CGFloat, points: inout [CGPoint], starts: inout [Int]) {
        let tol = tolerance > 1e-9 ? tolerance : 1e-9
        var open = false
        var start = 0
        func begin(_ p: CGPoint) {
            start = points.count
            starts.append(start)
            points.append(p)
            open = true
        }
        func add(_ p: CGPoint) {
            guard open else { return }
            if points[points.count - 1] != p { points.append(p) }
        }
        forEachSegment { seg in
            switch seg {
            case .move(let p):
                begin(p)
            case .line(let a, let b):
                if !open { begin(a) }
                add(b)
            case .quad(let a, let c, let b):
                if !open { begin(a) }
                let n = flatteningSegmentCount(degree: 2, secondDifference: (a - c * 2 + b).vectorLength, tolerance: tol)
                for i in 1...n { add(i == n ? b : quadPoint(a, c, b, CGFloat(i) / CGFloat(n))) }
            case .cubic(let a, let c1, let c2, let b):
                if !open { begin(a) }
                let m = max((a - c1 * 2 + c2).vectorLength, (c1 - c2 * 2 + b).vectorLength)
                let n = flatteningSegmentCount(degree: 3, secondDifference: m, tolerance: tol)
                for i in 1...n { add(i == n ? b : cubicPoint(a, c1, c2, b, CGFloat(i) / CGFloat(n))) }
            case .close(let a, _):
                if !open { begin(a) }
                // The closing segment is implicit; drop a repeated start point.
                if points.count - start > 1, points[points.count - 1] == points[start] { points.removeLast() }
                open = false
            }
        }
    }
}
