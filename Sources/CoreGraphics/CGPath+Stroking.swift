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
    /// - The result is a union of pieces wound the same way (positive signed area in y-up
    ///   terms). A run of segments whose joins can be drawn without the inner side folding back
    ///   (the offset lines meet within half of each segment) is one band polygon: left offsets
    ///   forward, right offsets back, the outer side of each join shaped as the join (miter tip,
    ///   bevel corners, or an arc for round); a closed subpath whose every join qualifies is two
    ///   rings, the band between them. Other joins are separate wedges (bevel triangle, miter
    ///   quadrilateral, or a circle for round), round caps circles; square caps lengthen the first
    ///   and last segment by `lineWidth / 2`. Filled with the non-zero rule (the default of
    ///   `contains` and of CAShapeLayer) the union covers exactly the stroke, and bands share
    ///   edges rather than overlap, so an area rasteriser covers their edge pixels exactly; the
    ///   even-odd rule is not meaningful on it where pieces overlap. A single straight segment
    ///   with butt or square caps comes out as one rectangle subpath (move, three lines, close).
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

    /// How far round joins may stray from the true arc (in the stroke's units).
    let arcTolerance: CGFloat

    init(halfWidth: CGFloat, cap: CGLineCap, join: CGLineJoin, miterLimit: CGFloat, arcTolerance: CGFloat? = nil) {
        hw = halfWidth; self.cap = cap; self.join = join; self.miterLimit = miterLimit
        self.arcTolerance = arcTolerance ?? max(halfWidth * 1e-3, 1e-9)
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
        // Runs of segments whose joins a band can draw exactly (`isSmooth`) become one band polygon,
        // its inner side meeting where the offset lines cross and its outer side taking the join's
        // shape, so neighbouring pieces share edges instead of overlapping: an area rasteriser
        // then covers edge pixels exactly, where overlapping pieces would count the overlap twice
        // before the non-zero clamp (a stroked rect's inner corner pixel at 100 % instead of 75 %).
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
                let atStart = open && run.first == 0, atEnd = open && run.last == segs.count - 1
                band(run.map { segs[$0] }, startCap: atStart ? cap : .butt, endCap: atEnd ? cap : .butt)
                run = []
            }
        }
        for j in 0..<joinCount where !smooth[j] {
            let s0 = segs[j], s1 = segs[(j + 1) % segs.count]
            joinSegments(at: s1.a, d0: s0.d, d1: s1.d, isCorner: s1.startIsCorner)
        }
    }

    /// A join that a band polygon covers exactly: the inner side's offset lines meet within half
    /// of each segment (so the inner side does not fold back), whatever the join style — the
    /// outer side then takes the join's own shape (`joinPoints`). Sharper or shorter joins are
    /// drawn as separate pieces.
    private func isSmooth(_ s0: Segment, _ s1: Segment) -> Bool {
        let dot = s0.d.dot(s1.d), cross = s0.d.cross(s1.d)
        guard dot > -0.999 else { return false }
        let tanHalf = abs(cross) / (1 + dot)
        let reach = hw * tanHalf
        let e0 = s0.b - s0.a, e1 = s1.b - s1.a
        let l0 = e0.dot(e0).squareRoot(), l1 = e1.dot(e1).squareRoot()
        return reach.isFinite && reach < 0.5 * min(l0, l1)
    }

    /// The offset of the vertex between directions `d0` and `d1`, on the left (+) side, mitred
    /// (where the two left offset lines meet).
    private func mitredOffset(_ d0: CGPoint, _ d1: CGPoint) -> CGPoint {
        guard let bis = (d0.perpendicular + d1.perpendicular).normalizedVector else { return d0.perpendicular * hw }
        let cosHalf = ((1 + d0.dot(d1)) / 2).squareRoot()
        return bis * (hw / cosHalf)
    }

    /// The left and right boundary points of a band at the vertex `v` joining `s0` to `s1`: the
    /// inner side is where the offset lines meet; the outer side follows the join style (a miter
    /// tip while within the miter limit, else a bevel's two corners, or an arc for round), with
    /// `joinSegments`' rule that gentle turns inside a flattened curve are mitred.
    private func joinPoints(_ s0: Segment, _ s1: Segment) -> (left: [CGPoint], right: [CGPoint]) {
        let v = s1.a, d0 = s0.d, d1 = s1.d
        let m = mitredOffset(d0, d1)
        let cross = d0.cross(d1), dot = d0.dot(d1)
        if dot > 0, abs(cross) < 1e-12 { return ([v + m], [v - m]) }
        let isCorner = s1.startIsCorner
        var style: CGLineJoin = (!isCorner && dot > 0.866) ? .miter : join
        if style == .miter {
            let cosHalf = ((1 + dot) / 2).squareRoot()
            let limit = isCorner ? miterLimit : max(miterLimit, 2)
            if !(cosHalf > 0 && 1 / cosHalf <= limit) { style = .bevel }
        }
        // The outer side: left when the path turns right (cross < 0).
        let outerSign: CGFloat = cross < 0 ? 1 : -1
        let inner = v - m * outerSign
        var outer: [CGPoint]
        switch style {
        case .miter:
            outer = [v + m * outerSign]
        case .bevel:
            outer = [v + d0.perpendicular * (hw * outerSign), v + d1.perpendicular * (hw * outerSign)]
        case .round:
            let n0 = d0.perpendicular * outerSign, n1 = d1.perpendicular * outerSign
            let sweep = atan2(n0.cross(n1), n0.dot(n1))
            let step = 2 * acos(max(1 - arcTolerance / max(hw, 1e-12), -1))
            let count = min(256, max(1, Int((abs(sweep) / max(step, 1e-3)).rounded(.up))))
            outer = []
            let a0 = atan2(n0.y, n0.x)
            for i in 0...count {
                let a = a0 + sweep * CGFloat(i) / CGFloat(count)
                outer.append(v + CGPoint(x: cos(a), y: sin(a)) * hw)
            }
        }
        return outerSign > 0 ? (outer, [inner]) : ([inner], outer)
    }

    /// One polygon for a run of joined segments (one segment: its rectangle): left side
    /// forward, the end cap, right side back, the start cap. A square cap extends the band by
    /// half the width, a round one closes it with a half disc — inside the same polygon, so caps
    /// do not overlap the band either.
    private mutating func band(_ run: [Segment], startCap: CGLineCap, endCap: CGLineCap) {
        guard let first = run.first, let last = run.last else { return }
        var left: [CGPoint] = [], right: [CGPoint] = []
        let a = startCap == .square ? first.a - first.d * hw : first.a
        let n0 = first.d.perpendicular * hw
        left.append(a + n0); right.append(a - n0)
        for k in 1..<run.count {
            let j = joinPoints(run[k - 1], run[k])
            left.append(contentsOf: j.left); right.append(contentsOf: j.right)
        }
        let b = endCap == .square ? last.b + last.d * hw : last.b
        let n1 = last.d.perpendicular * hw
        left.append(b + n1); right.append(b - n1)
        var outline = left
        if endCap == .round { outline.append(contentsOf: halfDisc(at: b, from: n1, ahead: last.d)) }
        outline.append(contentsOf: right.reversed())
        if startCap == .round { outline.append(contentsOf: halfDisc(at: a, from: -n0, ahead: -first.d)) }
        polygon(outline)
    }

    /// The inner points of a half circle of radius `hw` around `c`, from `c + from` through
    /// `c + ahead·hw` to `c − from` (the ends excluded: the band has them).
    private func halfDisc(at c: CGPoint, from n: CGPoint, ahead d: CGPoint) -> [CGPoint] {
        let step = 2 * acos(max(1 - arcTolerance / max(hw, 1e-12), -1))
        let count = min(256, max(2, Int((CGFloat.pi / max(step, 1e-3)).rounded(.up))))
        var pts: [CGPoint] = []
        for i in 1..<count {
            let t = CGFloat.pi * CGFloat(i) / CGFloat(count)
            pts.append(c + n * cos(t) + d * (hw * sin(t)))
        }
        return pts
    }

    /// A closed subpath whose every join is banded: the left offset ring forward and the right
    /// one backward. Locally the band between them is wound the same way everywhere (so a path
    /// crossing itself sums, never cancels), and both rings are reversed together when that way
    /// is negative, so the non-zero rule fills exactly the stroke.
    private mutating func ring(_ segs: [Segment]) {
        var left: [CGPoint] = [], right: [CGPoint] = []
        for k in segs.indices {
            let j = joinPoints(segs[(k + segs.count - 1) % segs.count], segs[k])
            left.append(contentsOf: j.left); right.append(contentsOf: j.right)
        }
        right.reverse()
        func area(_ pts: [CGPoint]) -> CGFloat {
            var a: CGFloat = 0
            for i in pts.indices {
                let p = pts[i], q = pts[(i + 1) % pts.count]
                a += p.x * q.y - q.x * p.y
            }
            return a
        }
        let total = area(left) + area(right)
        guard total.isFinite, total != 0 else { return }
        for var ringPts in [left, right] {
            if total < 0 { ringPts.reverse() }
            elements.append(.move(ringPts[0]))
            for p in ringPts.dropFirst() { elements.append(.line(p)) }
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
