// `copy(strokingWithWidth:lineCap:lineJoin:miterLimit:transform:)`: the area a stroke would
// paint, as a fillable path (CGPathCreateCopyByStrokingPath).

extension CGPath {
    /// Returns the outline of the stroke of this path — a path whose *non-zero* fill paints
    /// exactly what stroking this path with these settings paints (Apple: "a new path
    /// equivalent to the results of drawing the path with a solid stroke").
    ///
    /// How the outline is built (and where it differs from Apple's merged outline):
    /// - Curves are flattened first (to 1/1000 of the path's size, at most 0.05 units), so the
    ///   sides of stroked curves are polylines; round caps and round joins are exact circles
    ///   (four cubics each).
    /// - The result is a union of pieces, each a closed subpath wound the same way (positive
    ///   signed area in y-up terms): one quadrilateral per segment, one wedge per join (bevel
    ///   triangle, miter quadrilateral, or a circle for round), a circle per round cap; square
    ///   caps lengthen the first and last segment by `lineWidth / 2`. Filled with the non-zero
    ///   rule (the default of `contains` and of CAShapeLayer) the union covers exactly the
    ///   stroke; the even-odd rule is not meaningful on it where pieces overlap. A single
    ///   straight segment with butt or square caps comes out as one rectangle subpath
    ///   (move, three lines, close).
    /// - Joins: a miter is used while miter length / `lineWidth` = 1 / sin(φ/2) (φ the angle
    ///   between the segments) is at most `miterLimit`, else a bevel — Apple's rule. Inside
    ///   flattened curves, gentle turns get miters and sharp ones (cusps) the requested join.
    /// - A subpath whose drawing elements all have zero length paints a dot with round caps
    ///   (a circle of diameter `lineWidth`) or square caps (an axis-aligned square), and
    ///   nothing with butt caps. A lone move paints nothing.
    /// - `transform` is applied to the outline, after stroking (Apple: "applies the
    ///   transformation to elements of the converted path before adding them to the new
    ///   path").
    /// - A `lineWidth` that is not positive and finite gives an empty path (Apple requires
    ///   a width greater than 0).
    public func copy(strokingWithWidth lineWidth: CGFloat, lineCap: CGLineCap, lineJoin: CGLineJoin,
                     miterLimit: CGFloat, transform: CGAffineTransform = .identity) -> CGPath {
        guard lineWidth > 0, lineWidth.isFinite else { return CGPath(elements: []) }
        let box = boundingBox
        guard !box.isNull else { return CGPath(elements: []) }
        let extent = max(box.width, box.height)
        let tolerance = min(0.05, max(extent * 1e-3, 1e-6))
        var outline = StrokeOutline(halfWidth: lineWidth / 2, cap: lineCap, join: lineJoin,
                                    miterLimit: miterLimit)
        for subpath in flattenedSubpaths(tolerance: tolerance) {
            outline.stroke(subpath)
        }
        let result = transform.isIdentity ? outline.elements : outline.elements.transformed(by: transform)
        return CGPath(elements: result)
    }
}

/// Accumulates the pieces of a stroke outline.
struct StrokeOutline {
    let hw: CGFloat
    let cap: CGLineCap
    let join: CGLineJoin
    let miterLimit: CGFloat
    var elements: [PathElement] = []

    init(halfWidth: CGFloat, cap: CGLineCap, join: CGLineJoin, miterLimit: CGFloat) {
        hw = halfWidth; self.cap = cap; self.join = join; self.miterLimit = miterLimit
    }

    private struct Segment {
        var a: CGPoint, b: CGPoint, d: CGPoint
        var startIsCorner: Bool
    }

    mutating func stroke(_ s: FlattenedSubpath) {
        guard s.hasSegments, let first = s.points.first else { return }
        let pts = s.points, n = pts.count
        var segs: [Segment] = []
        let segCount = s.isClosed ? n : n - 1
        if segCount > 0 {
            for i in 0..<segCount {
                let a = pts[i], b = pts[(i + 1) % n]
                guard let d = (b - a).normalizedVector else { continue }
                segs.append(Segment(a: a, b: b, d: d, startIsCorner: s.isCorner[i]))
            }
        }
        guard !segs.isEmpty else {
            dot(at: first)
            return
        }
        let open = !s.isClosed
        // Runs of segments joined smoothly (gentle turns inside a flattened curve) become one band
        // polygon whose sides meet at mitred offset points, so neighbouring pieces share edges
        // instead of overlapping: an area rasteriser then covers edge pixels exactly, where
        // overlapping pieces would count the overlap twice before the non-zero clamp.
        var smooth = [Bool](repeating: false, count: segs.count)   // smooth[j]: join after segs[j]
        let joinCount = open ? segs.count - 1 : segs.count
        for j in 0..<joinCount {
            smooth[j] = isSmooth(segs[j], segs[(j + 1) % segs.count])
        }
        if !open, smooth.allSatisfy({ $0 }) {
            ring(segs)
            return
        }
        // Start a closed subpath's runs after a join that is not smooth.
        var order = Array(segs.indices)
        if !open, let k = smooth.firstIndex(of: false) {
            order = Array(order[(k + 1)...] + order[...k])
        }
        var run: [Int] = []
        for (pos, i) in order.enumerated() {
            run.append(i)
            let last = pos == order.count - 1
            if last || !smooth[i] {
                band(run.map { segs[$0] }, extendStart: open && cap == .square && run.first == 0,
                     extendEnd: open && cap == .square && run.last == segs.count - 1)
                run = []
            }
        }
        if open, cap == .round, let last = segs.last {
            circle(at: segs[0].a)
            circle(at: last.b)
        }
        for j in 0..<joinCount where !smooth[j] {
            let s0 = segs[j], s1 = segs[(j + 1) % segs.count]
            joinSegments(at: s1.a, d0: s0.d, d1: s1.d, isCorner: s1.startIsCorner)
        }
    }

    /// A join that a mitred band covers exactly: inside a curve (not a corner), a turn under 30°,
    /// and the mitre's reach along each segment under half its length (so the inner side does
    /// not fold back).
    private func isSmooth(_ s0: Segment, _ s1: Segment) -> Bool {
        guard !s1.startIsCorner else { return false }
        let dot = s0.d.dot(s1.d), cross = s0.d.cross(s1.d)
        guard dot > 0.866 else { return false }
        let tanHalf = abs(cross) / (1 + dot)
        let reach = hw * tanHalf
        let e0 = s0.b - s0.a, e1 = s1.b - s1.a
        let l0 = e0.dot(e0).squareRoot(), l1 = e1.dot(e1).squareRoot()
        return reach < 0.5 * min(l0, l1)
    }

    /// The offset of the vertex between directions `d0` and `d1`, on the left (+) side, mitred.
    private func mitredOffset(_ d0: CGPoint, _ d1: CGPoint) -> CGPoint {
        guard let bis = (d0.perpendicular + d1.perpendicular).normalizedVector else { return d0.perpendicular * hw }
        let cosHalf = ((1 + d0.dot(d1)) / 2).squareRoot()
        return bis * (hw / cosHalf)
    }

    /// One polygon for a run of smoothly joined segments (one segment: its rectangle).
    private mutating func band(_ run: [Segment], extendStart: Bool, extendEnd: Bool) {
        guard let first = run.first, let last = run.last else { return }
        var left: [CGPoint] = [], right: [CGPoint] = []
        let a = extendStart ? first.a - first.d * hw : first.a
        let n0 = first.d.perpendicular * hw
        left.append(a + n0); right.append(a - n0)
        for k in 1..<run.count {
            let o = mitredOffset(run[k - 1].d, run[k].d)
            left.append(run[k].a + o); right.append(run[k].a - o)
        }
        let b = extendEnd ? last.b + last.d * hw : last.b
        let n1 = last.d.perpendicular * hw
        left.append(b + n1); right.append(b - n1)
        polygon(left + right.reversed())
    }

    /// A closed subpath joined smoothly all round (a flattened circle): the outer and inner
    /// offset rings, wound oppositely, so the non-zero rule fills exactly the band between them.
    private mutating func ring(_ segs: [Segment]) {
        var left: [CGPoint] = [], right: [CGPoint] = []
        for k in segs.indices {
            let prev = segs[(k + segs.count - 1) % segs.count]
            let o = mitredOffset(prev.d, segs[k].d)
            left.append(segs[k].a + o); right.append(segs[k].a - o)
        }
        var area: CGFloat = 0
        for i in left.indices {
            let p = left[i], q = left[(i + 1) % left.count]
            area += p.x * q.y - q.x * p.y
        }
        guard area.isFinite else { return }
        // The left ring is outside for a counter-clockwise subpath (positive area).
        let (outer, inner) = area > 0 ? (left, right) : (right, left)
        for (ringPts, positive) in [(outer, true), (inner, false)] {
            var a: CGFloat = 0
            for i in ringPts.indices {
                let p = ringPts[i], q = ringPts[(i + 1) % ringPts.count]
                a += p.x * q.y - q.x * p.y
            }
            guard a != 0 else { continue }
            let ordered = (a > 0) == positive ? ringPts : ringPts.reversed()
            elements.append(.move(ordered[0]))
            for p in ordered.dropFirst() { elements.append(.line(p)) }
            elements.append(.close)
        }
    }

    /// A zero-length subpath: a dot for round and square caps, nothing for butt.
    private mutating func dot(at p: CGPoint) {
        switch cap {
        case .butt: break
        case .round: circle(at: p)
        case .square:
            polygon([CGPoint(x: p.x - hw, y: p.y - hw), CGPoint(x: p.x + hw, y: p.y - hw),
                     CGPoint(x: p.x + hw, y: p.y + hw), CGPoint(x: p.x - hw, y: p.y + hw)])
        }
    }

    private mutating func joinSegments(at v: CGPoint, d0: CGPoint, d1: CGPoint, isCorner: Bool) {
        let cross = d0.cross(d1), dot = d0.dot(d1)
        if dot > 0, abs(cross) < 1e-12 { return }               // straight on: nothing to fill
        // Inside a flattened curve a gentle turn (< ~30°) is just the curve bending: a miter
        // follows the true offset curve best. Sharper turns (cusps) use the requested join.
        let style: CGLineJoin = (!isCorner && dot > 0.866) ? .miter : join
        if style == .round { circle(at: v); return }
        let side: CGFloat = cross > 0 ? -1 : 1                    // outer side of the turn
        let o0 = v + d0.perpendicular * (hw * side)
        let o1 = v + d1.perpendicular * (hw * side)
        if style == .miter {
            let cosHalf = ((1 + dot) / 2).squareRoot()            // cos(turn/2) = sin(φ/2)
            let limit = isCorner ? miterLimit : max(miterLimit, 2)
            if cosHalf > 0, 1 / cosHalf <= limit,
               let bisector = (d0.perpendicular + d1.perpendicular).normalizedVector {
                let tip = v + bisector * (side * hw / cosHalf)
                polygon([v, o0, tip, o1])
                return
            }
        }
        polygon([v, o0, o1])                                       // bevel
    }

    /// Appends a closed polygon wound with positive signed area; degenerate ones are skipped.
    private mutating func polygon(_ pts: [CGPoint]) {
        var area: CGFloat = 0
        for i in pts.indices {
            let p = pts[i], q = pts[(i + 1) % pts.count]
            area += p.x * q.y - q.x * p.y
        }
        guard area.isFinite, area != 0 else { return }
        let ordered = area > 0 ? pts : pts.reversed()
        elements.append(.move(ordered[0]))
        for p in ordered.dropFirst() { elements.append(.line(p)) }
        elements.append(.close)
    }

    /// A full circle of radius `hw` (positive winding, like `addEllipse(in:)`).
    private mutating func circle(at c: CGPoint) {
        elements.append(contentsOf: PathShapes.ellipse(
            CGRect(x: c.x - hw, y: c.y - hw, width: 2 * hw, height: 2 * hw), .identity))
    }
}
