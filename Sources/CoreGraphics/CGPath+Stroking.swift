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
                                    miterLimit: miterLimit, sink: PathElementSink())
        for subpath in flattenedSubpaths(tolerance: tolerance) {
            outline.stroke(subpath)
        }
        let elements = outline.sink.elements
        let result = transform.isIdentity ? elements : elements.transformed(by: transform)
        return CGPath(elements: result)
    }
}

/// One flattened segment of a stroked subpath: its ends, unit direction, and whether its start is
/// a real corner of the path (`FlattenedSubpath.isCorner`).
struct StrokeSegment {
    var a: CGPoint, b: CGPoint, d: CGPoint
    var startIsCorner: Bool
}

/// The stroker's working arrays, emptied and refilled subpath after subpath; a context keeps one
/// between strokes (`CGContext.strokeOutlineScratch`) so that stroking stops allocating.
struct StrokeScratch {
    var segs: [StrokeSegment] = []
    var smooth: [Bool] = []
    var left: [CGPoint] = []
    var right: [CGPoint] = []
    var poly: [CGPoint] = []
}

/// Accumulates the pieces of a stroke outline into `sink` (a path, or raster polygons: see
/// StrokeOutlineSink.swift): one geometry, whichever the caller needs.
struct StrokeOutline<Sink: StrokeOutlineSink> {
    let hw: CGFloat
    let cap: CGLineCap
    let join: CGLineJoin
    let miterLimit: CGFloat
    var sink: Sink
    var scratch: StrokeScratch

    /// How far round joins may stray from the true arc (in the stroke's units).
    let arcTolerance: CGFloat

    init(halfWidth: CGFloat, cap: CGLineCap, join: CGLineJoin, miterLimit: CGFloat, arcTolerance: CGFloat? = nil,
         sink: Sink, scratch: StrokeScratch = StrokeScratch()) {
        hw = halfWidth; self.cap = cap; self.join = join; self.miterLimit = miterLimit; self.sink = sink
        self.scratch = scratch
        self.arcTolerance = arcTolerance ?? max(halfWidth * 1e-3, 1e-9)
    }

    mutating func stroke(_ s: FlattenedSubpath) {
        guard s.hasSegments, let first = s.points.first else { return }
        let pts = s.points, n = pts.count
        scratch.segs.removeAll(keepingCapacity: true)
        let segCount = s.isClosed ? n : n - 1
        if segCount > 0 {
            for i in 0..<segCount {
                let a = pts[i], b = pts[(i + 1) % n]
                guard let d = (b - a).normalizedVector else { continue }
                scratch.segs.append(StrokeSegment(a: a, b: b, d: d, startIsCorner: s.isCorner[i]))
            }
        }
        let count = scratch.segs.count
        guard count > 0 else {
            dot(at: first)
            return
        }
        let open = !s.isClosed
        // Runs of segments whose joins a band can draw exactly (`isSmooth`) become one band polygon,
        // its inner side meeting where the offset lines cross and its outer side taking the join's
        // shape, so neighbouring pieces share edges instead of overlapping: an area rasteriser
        // then covers edge pixels exactly, where overlapping pieces would count the overlap twice
        // before the non-zero clamp (a stroked rect's inner corner pixel at 100 % instead of 75 %).
        scratch.smooth.removeAll(keepingCapacity: true)
        scratch.smooth.append(contentsOf: repeatElement(false, count: count))   // smooth[j]: join after segs[j]
        let joinCount = open ? count - 1 : count
        // (A static test on copies of the two segments: calling a method of `self` while
        // `scratch` is being written copied the whole stroker, its sink's and scratch's arrays
        // retained and released, once a join: a sixth of stroking a flattened star; issue 19.)
        let halfWidth = hw
        for j in 0..<joinCount {
            let s0 = scratch.segs[j], s1 = scratch.segs[(j + 1) % count]
            scratch.smooth[j] = Self.isSmooth(s0, s1, halfWidth: halfWidth)
        }
        let firstSharp = scratch.smooth.firstIndex(of: false)
        if !open, firstSharp == nil {
            ring()
            return
        }
        // Runs are consecutive in the order that starts a closed subpath after a join that is not
        // smooth (segment `origin`); each ends at a join that is not smooth or at the last segment.
        let origin = !open ? (firstSharp! + 1) % count : 0
        var runStart = 0                                   // position in that order
        for pos in 0..<count {
            let i = (origin + pos) % count
            if pos == count - 1 || !scratch.smooth[i] {
                let firstIndex = (origin + runStart) % count
                let atStart = open && firstIndex == 0, atEnd = open && i == count - 1
                band(from: firstIndex, length: pos - runStart + 1,
                     startCap: atStart ? cap : .butt, endCap: atEnd ? cap : .butt)
                runStart = pos + 1
            }
        }
        for j in 0..<joinCount where !scratch.smooth[j] {
            let s0 = scratch.segs[j], s1 = scratch.segs[(j + 1) % count]
            joinSegments(at: s1.a, d0: s0.d, d1: s1.d, isCorner: s1.startIsCorner)
        }
    }

    /// A join that a band polygon covers exactly: the inner side's offset lines meet within half
    /// of each segment (so the inner side does not fold back), whatever the join style — the
    /// outer side then takes the join's own shape (`appendJoinPoints`). Sharper or shorter joins
    /// are drawn as separate pieces.
    private static func isSmooth(_ s0: StrokeSegment, _ s1: StrokeSegment, halfWidth hw: CGFloat) -> Bool {
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

    /// Appends to `scratch.left` and `scratch.right` the boundary points of a band at the vertex
    /// `v` joining `s0` to `s1`: the inner side is where the offset lines meet; the outer side
    /// follows the join style (a miter tip while within the miter limit, else a bevel's two
    /// corners, or an arc for round), with `joinSegments`' rule that gentle turns inside a
    /// flattened curve are mitred.
    private mutating func appendJoinPoints(_ s0: StrokeSegment, _ s1: StrokeSegment) {
        let v = s1.a, d0 = s0.d, d1 = s1.d
        let m = mitredOffset(d0, d1)
        let cross = d0.cross(d1), dot = d0.dot(d1)
        if dot > 0, abs(cross) < 1e-12 {
            scratch.left.append(v + m); scratch.right.append(v - m)
            return
        }
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
        if outerSign < 0 { scratch.left.append(inner) }
        switch style {
        case .miter:
            let p = v + m * outerSign
            if outerSign > 0 { scratch.left.append(p) } else { scratch.right.append(p) }
        case .bevel:
            let p0 = v + d0.perpendicular * (hw * outerSign), p1 = v + d1.perpendicular * (hw * outerSign)
            if outerSign > 0 { scratch.left.append(p0); scratch.left.append(p1) } else { scratch.right.append(p0); scratch.right.append(p1) }
        case .round:
            let n0 = d0.perpendicular * outerSign, n1 = d1.perpendicular * outerSign
            let sweep = atan2(n0.cross(n1), n0.dot(n1))
            let step = 2 * acos(max(1 - arcTolerance / max(hw, 1e-12), -1))
            let count = min(256, max(1, Int((abs(sweep) / max(step, 1e-3)).rounded(.up))))
            let a0 = atan2(n0.y, n0.x)
            for i in 0...count {
                let a = a0 + sweep * CGFloat(i) / CGFloat(count)
                let p = v + CGPoint(x: cos(a), y: sin(a)) * hw
                if outerSign > 0 { scratch.left.append(p) } else { scratch.right.append(p) }
            }
        }
        if outerSign > 0 { scratch.right.append(inner) }
    }

    /// One polygon for a run of `length` joined segments from `segs[start]` on, cyclically (one
    /// segment: its rectangle): left side forward, the end cap, right side back, the start cap.
    /// A square cap extends the band by half the width, a round one closes it with a half disc —
    /// inside the same polygon, so caps do not overlap the band either.
    private mutating func band(from start: Int, length: Int, startCap: CGLineCap, endCap: CGLineCap) {
        guard length > 0 else { return }
        let count = scratch.segs.count
        let first = scratch.segs[start], last = scratch.segs[(start + length - 1) % count]
        scratch.left.removeAll(keepingCapacity: true); scratch.right.removeAll(keepingCapacity: true)
        let a = startCap == .square ? first.a - first.d * hw : first.a
        let n0 = first.d.perpendicular * hw
        scratch.left.append(a + n0); scratch.right.append(a - n0)
        for k in 1..<length {
            appendJoinPoints(scratch.segs[(start + k - 1) % count], scratch.segs[(start + k) % count])
        }
        let b = endCap == .square ? last.b + last.d * hw : last.b
        let n1 = last.d.perpendicular * hw
        scratch.left.append(b + n1); scratch.right.append(b - n1)
        scratch.poly.removeAll(keepingCapacity: true)
        scratch.poly.append(contentsOf: scratch.left)
        if endCap == .round { appendHalfDisc(at: b, from: n1, ahead: last.d) }
        scratch.poly.append(contentsOf: scratch.right.reversed())
        if startCap == .round { appendHalfDisc(at: a, from: -n0, ahead: -first.d) }
        polygonFromScratch()
    }

    /// Appends to `scratch.poly` the inner points of a half circle of radius `hw` around `c`,
    /// from `c + from` through `c + ahead·hw` to `c − from` (the ends excluded: the band has them).
    private mutating func appendHalfDisc(at c: CGPoint, from n: CGPoint, ahead d: CGPoint) {
        let step = 2 * acos(max(1 - arcTolerance / max(hw, 1e-12), -1))
        let count = min(256, max(2, Int((CGFloat.pi / max(step, 1e-3)).rounded(.up))))
        for i in 1..<count {
            let t = CGFloat.pi * CGFloat(i) / CGFloat(count)
            scratch.poly.append(c + n * cos(t) + d * (hw * sin(t)))
        }
    }

    /// A closed subpath whose every join is banded: the left offset ring forward and the right
    /// one backward. Locally the band between them is wound the same way everywhere (so a path
    /// crossing itself sums, never cancels), and both rings are reversed together when that way
    /// is negative, so the non-zero rule fills exactly the stroke.
    private mutating func ring() {
        let count = scratch.segs.count
        scratch.left.removeAll(keepingCapacity: true); scratch.right.removeAll(keepingCapacity: true)
        for k in 0..<count {
            appendJoinPoints(scratch.segs[(k + count - 1) % count], scratch.segs[k])
        }
        scratch.right.reverse()
        let total = Self.signedArea(scratch.left) + Self.signedArea(scratch.right)
        guard total.isFinite, total != 0 else { return }
        sink.addPolygon(scratch.left, reversed: total < 0)
        sink.addPolygon(scratch.right, reversed: total < 0)
    }

    /// A zero-length subpath: a dot for round and square caps, nothing for butt.
    private mutating func dot(at p: CGPoint) {
        switch cap {
        case .butt: break
        case .round: circle(at: p)
        case .square:
            polygon(CGPoint(x: p.x - hw, y: p.y - hw), CGPoint(x: p.x + hw, y: p.y - hw),
                    CGPoint(x: p.x + hw, y: p.y + hw), CGPoint(x: p.x - hw, y: p.y + hw))
        }
    }

    private mutating func joinSegments(at v: CGPoint, d0: CGPoint, d1: CGPoint, isCorner: Bool) {
        let cross = d0.cross(d1), dot = d0.dot(d1)
        if dot > 0, abs(cross) < 1e-12 { return }               // straight on: nothing to fill
        // Inside a flattened curve a gentle turn (< ~30°) is just the curve bending: a miter
        // follows the true offset curve best. Sharper turns (cusps) use the requested join.
        let style: CGLineJoin = (!isCorner && dot > 0.866) ? .miter : join
        let side: CGFloat = cross > 0 ? -1 : 1                    // outer side of the turn
        if style == .round {
            // The pen's disc is needed only in the sector between the two segments' outer
            // normals (every other point near v is nearer a segment's interior, inside its
            // rectangle); a turn back on itself (a cusp) has no clear outer side: whole disc.
            if dot > -0.999 { roundWedge(at: v, d0: d0, d1: d1, side: side) } else { circle(at: v) }
            return
        }
        let o0 = v + d0.perpendicular * (hw * side)
        let o1 = v + d1.perpendicular * (hw * side)
        if style == .miter {
            let cosHalf = ((1 + dot) / 2).squareRoot()            // cos(turn/2) = sin(φ/2)
            let limit = isCorner ? miterLimit : max(miterLimit, 2)
            if cosHalf > 0, 1 / cosHalf <= limit,
               let bisector = (d0.perpendicular + d1.perpendicular).normalizedVector {
                let tip = v + bisector * (side * hw / cosHalf)
                polygon(v, o0, tip, o1)
                return
            }
        }
        polygon(v, o0, o1)                                         // bevel
    }

    /// A closed polygon through the given points (see `polygonFromScratch`).
    private mutating func polygon(_ p0: CGPoint, _ p1: CGPoint, _ p2: CGPoint, _ p3: CGPoint? = nil) {
        scratch.poly.removeAll(keepingCapacity: true)
        scratch.poly.append(p0); scratch.poly.append(p1); scratch.poly.append(p2)
        if let p3 { scratch.poly.append(p3) }
        polygonFromScratch()
    }

    /// Hands `scratch.poly` to the sink as a closed polygon wound with positive signed area;
    /// degenerate ones are skipped.
    private mutating func polygonFromScratch() {
        let pts = scratch.poly
        let area = Self.signedArea(pts)
        guard area.isFinite, area != 0 else { return }
        sink.addPolygon(pts, reversed: area < 0)
    }

    /// Twice the signed area of the closed polygon `pts`, its terms summed from the first edge to
    /// the closing one (the next index taken without a division a vertex).
    private static func signedArea(_ pts: [CGPoint]) -> CGFloat {
        var area: CGFloat = 0
        let n = pts.count
        guard n > 0 else { return 0 }
        for i in 0..<n {
            let p = pts[i], q = pts[i + 1 < n ? i + 1 : 0]
            area += p.x * q.y - q.x * p.y
        }
        return area
    }

    /// A round join as its own piece: the sector of the pen's disc at `v` from the outer normal
    /// of `d0` to that of `d1`, its arc flattened as the band's round joins are. Its straight
    /// sides lie on the two segments' ends, so it meets their rectangles without overlapping
    /// them; the whole disc it replaces (issue 19) covered both rectangles' ends again, which an
    /// area rasteriser counts twice in the edge pixels there, and took a circle's ~20 edges
    /// where a sector of a star's tip takes a few.
    private mutating func roundWedge(at v: CGPoint, d0: CGPoint, d1: CGPoint, side: CGFloat) {
        let n0 = d0.perpendicular * side, n1 = d1.perpendicular * side
        let sweep = atan2(n0.cross(n1), n0.dot(n1))
        let step = 2 * acos(max(1 - arcTolerance / max(hw, 1e-12), -1))
        let count = min(256, max(1, Int((abs(sweep) / max(step, 1e-3)).rounded(.up))))
        let a0 = atan2(n0.y, n0.x)
        scratch.poly.removeAll(keepingCapacity: true)
        scratch.poly.append(v)
        for i in 0...count {
            let a = a0 + sweep * CGFloat(i) / CGFloat(count)
            scratch.poly.append(v + CGPoint(x: cos(a), y: sin(a)) * hw)
        }
        polygonFromScratch()
    }

    /// A full circle of radius `hw` (positive winding, like `addEllipse(in:)`).
    private mutating func circle(at c: CGPoint) {
        sink.addCircle(center: c, radius: hw)
    }
}
