import CoreGraphics

/// Strokes a flattened subpath into the rasteriser as a union of positive pieces: a
/// quadrilateral per segment, a wedge per join (bevel triangle, miter quadrilateral, or a
/// polygonal disc for round), a disc or a box per cap. Resolved with the non-zero rule the
/// union is exactly the stroke, whatever overlaps (joins, a path crossing itself), so a
/// translucent stroke is blended once (issue 6: "no double blending at joins").
///
/// Geometry is built in layer space (a stroke is `lineWidth` wide in the layer's units, and a
/// non-uniform transform stretches it as Core Animation does) and mapped to texels per vertex.
/// Rules (Core Graphics', as `CGPath.copy(strokingWithWidth:…)` documents them):
/// - miter joins while 1 / sin(φ/2) ≤ miterLimit (φ the angle between the segments), else bevel;
/// - vertices inside a flattened curve are joined with a miter while the turn is gentle, and
///   rounded at a cusp;
/// - a subpath whose segments all have zero length draws a dot with round caps (a disc of
///   diameter lineWidth) or square caps (an axis-aligned square), nothing with butt caps;
/// - `lineWidth` 0 is a hairline one texel (device pixel) wide.
struct PieceStroker {
    let hw: Double
    let cap: CGLineCap
    let join: CGLineJoin
    let miterLimit: Double
    let map: TexelMap
    /// Sides of a full disc at this width (within `ShapeRasterizer.tolerance` of the radius).
    let discSides: Int
    /// The disc's directions (cos, sin of 2πi / discSides), where round caps or joins need them.
    let unitCircle: [SIMD2<Double>]

    init(style: ShapeStrokeStyle, map: TexelMap, scale: Double) {
        hw = style.halfWidth > 0 ? style.halfWidth : 0.5 / scale
        cap = style.cap
        join = style.join
        miterLimit = style.miterLimit
        self.map = map
        let rpx = hw * scale
        let step = rpx > 0.2 ? 2 * acos(max(1 - ShapeRasterizer.tolerance / rpx, -1)) : Double.pi / 2
        discSides = min(256, max(8, Int((2 * Double.pi / max(step, 1e-3)).rounded(.up))))
        unitCircle = cap == .round || join == .round ? UnitCircles.directions(discSides) : []
    }

    private func p(_ x: Double, _ y: Double) -> SIMD2<Double> { map.apply(CGPoint(x: x, y: y)) }

    /// The disc's vertex directions (`unitCircle` where round caps or joins made it).
    private var discDirections: [SIMD2<Double>] { unitCircle.count == discSides ? unitCircle : UnitCircles.directions(discSides) }

    func disc(_ c: SIMD2<Double>, into rast: inout CoverageRasterizer) {
        let dirs = discDirections
        withUnsafeTemporaryAllocation(of: SIMD2<Double>.self, capacity: discSides) { pts in
            for i in 0..<discSides { pts[i] = p(c.x + hw * dirs[i].x, c.y + hw * dirs[i].y) }
            rast.addPositivePolygon(UnsafeBufferPointer(pts))
        }
    }

    typealias Segment = (a: SIMD2<Double>, b: SIMD2<Double>, u: SIMD2<Double>, corner: Bool)

    /// A subpath's segments with their unit directions (zero-length ones dropped: flattening
    /// already removed repeated points, so only a closing segment onto the start can be zero),
    /// each marked when it starts at a path element's end (a corner, which takes the join style).
    static func segments(_ s: FlattenedSubpath) -> [Segment] {
        let pts = s.points.map { SIMD2(Double($0.x), Double($0.y)) }
        let n = pts.count
        var seg: [Segment] = []
        let count = s.isClosed ? n : n - 1
        if count > 0 {
            for i in 0..<count {
                let a = pts[i], b = pts[(i + 1) % n]
                let d = b - a
                let l = (d.x * d.x + d.y * d.y).squareRoot()
                guard l > 0, l.isFinite else { continue }
                seg.append((a, b, d / l, s.isCorner[i]))
            }
        }
        return seg
    }

    /// Miter length / line width = 1 / sin(φ/2) (φ the angle between the segments) at a join of
    /// directions `u1`, `u2`; nil where they continue straight on (no join piece).
    static func miterRatio(_ u1: SIMD2<Double>, _ u2: SIMD2<Double>) -> Double? {
        let cross = u1.x * u2.y - u1.y * u2.x
        let dot = u1.x * u2.x + u1.y * u2.y
        if abs(cross) < 1e-12, dot > 0 { return nil }
        let sinHalf = ((1 + dot) / 2).squareRoot()
        return sinHalf > 1e-9 ? 1 / sinHalf : .infinity
    }

    /// The miter ratios at the corner joins of `subpaths`, the only joins `miterLimit` decides.
    static func cornerRatios(_ subpaths: [FlattenedSubpath]) -> [Double] {
        var out: [Double] = []
        for s in subpaths where s.hasSegments {
            let seg = segments(s)
            let joins = s.isClosed ? seg.count : seg.count - 1
            guard joins > 0 else { continue }
            for i in 0..<joins where seg[(i + 1) % seg.count].corner {
                if let r = miterRatio(seg[i].u, seg[(i + 1) % seg.count].u) { out.append(r) }
            }
        }
        return out
    }

    /// A miter limit that miters exactly the corners `limit` miters, the same for every limit
    /// between two of `ratios`: a raster made with it serves all of them, so an animated
    /// `miterLimit` rasterises again only when a corner changes between miter and bevel.
    static func canonicalMiterLimit(_ limit: Double, ratios: [Double]) -> Double {
        var below = -Double.infinity, above = Double.infinity
        for r in ratios {
            if r <= limit { below = max(below, r) } else { above = min(above, r) }
        }
        // Every ratio is at least 1: a limit under 1 bevels them all.
        guard below > -.infinity else { return 0.5 }
        return above.isFinite ? (below + above) / 2 : below
    }

    mutating func stroke(_ s: FlattenedSubpath, into rast: inout CoverageRasterizer) {
        guard s.hasSegments, let first = s.points.first else { return }
        let seg = Self.segments(s)
        guard !seg.isEmpty else {
            let c = SIMD2(Double(first.x), Double(first.y))
            switch cap {
            case .round: disc(c, into: &rast)
            case .square: rast.addPositiveQuad(p(c.x - hw, c.y - hw), p(c.x + hw, c.y - hw), p(c.x + hw, c.y + hw), p(c.x - hw, c.y + hw))
            case .butt: break
            }
            return
        }
        // A closed convex subpath (a circle, an ellipse, a rounded rectangle): its pieces make
        // the ring between an outer loop (the offset sides joined by each vertex's join: the
        // miter point, the bevel's two corners or the round join's arc) and an inner one (the
        // inner miter points), so the ring is those two loops, without the edges the pieces
        // share or overlap in, and exact where pieces overlapping within a pixel over-covered it.
        if s.isClosed, seg.count >= 3, Self.turnsOnceOneWay(seg), let (outer, inner) = ringLoops(seg) {
            rast.addRing(outer, inner)
            return
        }
        // One segment with round caps (a dash, a trimmed piece of a line: TwitterHeart's dots):
        // one convex outline, the caps' half discs joined by the segment's sides, in place of a
        // quad and two whole discs over it (about half the edges, none overlapping).
        if !s.isClosed, seg.count == 1, cap == .round {
            capsule(seg[0], into: &rast)
            return
        }
        // An open subpath's butt and square caps are cut across the curve's true end tangents
        // (Core Graphics' rule), not across the first and last chords.
        let trueEnds = !s.isClosed && cap != .round
        let t0 = trueEnds ? Self.unit(s.startTangent) : nil, t1 = trueEnds ? Self.unit(s.endTangent) : nil
        let joins = s.isClosed ? seg.count : seg.count - 1
        // Inside a flattened curve, consecutive segments share their end's miter line (the
        // offset along the bisector, hw / cos(turn/2)) instead of each ending square with a
        // miter wedge between: the same union (the wedge fills exactly what the shared line
        // adds on the outer side; on the inner side the squares overlapped), in half the edges
        // (issue 23: a thin ring's strokes were most of its raster). `shared[k]`: the miter
        // vector at the start of segment k, where that vertex is such a join and both pieces
        // that meet there stay convex with it; elsewhere the square end and the join piece.
        var shared = [SIMD2<Double>?](repeating: nil, count: seg.count)
        if joins > 0 {
            for i in 0..<joins {
                let s1 = seg[i], k = (i + 1) % seg.count, s2 = seg[k]
                shared[k] = s2.corner ? nil : Self.smoothMiter(s1.u, s2.u, hw: hw)
            }
        }
        /// The segment after segment i (its end vertex's other side), -1 after an open end.
        func next(_ i: Int) -> Int { i + 1 < seg.count ? i + 1 : (s.isClosed ? 0 : -1) }
        func ends(_ i: Int) -> (SIMD2<Double>, SIMD2<Double>) {
            let g = seg[i]
            let nrm = SIMD2(-g.u.y, g.u.x) * hw
            let k = next(i)
            var na = shared[i] ?? nrm, nb = k >= 0 ? shared[k] ?? nrm : nrm
            if i == 0, let t0 { na = SIMD2(-t0.y, t0.x) * hw }
            if i == seg.count - 1, let t1 { nb = SIMD2(-t1.y, t1.x) * hw }
            return (na, nb)
        }
        // A shared line that would fold either piece beside it goes back to square ends and a
        // wedge (a short segment on the inside of a tight turn); repeated until none folds.
        var changed = joins > 0
        while changed {
            changed = false
            for i in 0..<seg.count {
                let k = next(i)
                guard shared[i] != nil || (k >= 0 && shared[k] != nil) else { continue }
                let g = seg[i]
                let (na, nb) = ends(i)
                if !Self.isConvex(g.a + na, g.b + nb, g.b - nb, g.a - na) {
                    if shared[i] != nil { shared[i] = nil; changed = true }
                    if k >= 0, shared[k] != nil { shared[k] = nil; changed = true }
                }
            }
        }
        for (i, g) in seg.enumerated() {
            let nrm = SIMD2(-g.u.y, g.u.x) * hw
            let (na, nb) = ends(i)
            var (qa, qb, qc, qd) = (g.a + na, g.b + nb, g.b - nb, g.a - na)
            // Turned ends can fold a short, very wide piece over itself; keep the chord's square
            // ends there (the old cut, off by at most half the chord's turn).
            if na != nrm || nb != nrm, !Self.isConvex(qa, qb, qc, qd) {
                (qa, qb, qc, qd) = (g.a + nrm, g.b + nrm, g.b - nrm, g.a - nrm)
            }
            rast.addPositiveQuad(p(qa.x, qa.y), p(qb.x, qb.y), p(qc.x, qc.y), p(qd.x, qd.y))
        }
        // Joins between consecutive segments (and across the closing vertex) not shared.
        if joins > 0 {
            for i in 0..<joins {
                let s1 = seg[i], k = (i + 1) % seg.count, s2 = seg[k]
                if shared[k] != nil { continue }
                joinPiece(at: s2.a, s1.u, s2.u, corner: s2.corner, into: &rast)
            }
        }
        if !s.isClosed {
            capPiece(at: seg[0].a, direction: -(t0 ?? seg[0].u), into: &rast)
            capPiece(at: seg[seg.count - 1].b, direction: t1 ?? seg[seg.count - 1].u, into: &rast)
        }
    }

    /// `v` as a unit vector in double precision; nil for a zero or non-finite vector.
    static func unit(_ v: CGPoint) -> SIMD2<Double>? {
        let d = SIMD2(Double(v.x), Double(v.y))
        let l = (d.x * d.x + d.y * d.y).squareRoot()
        return l > 0 && l.isFinite ? d / l : nil
    }

    /// Whether the quadrilateral turns the same way at every corner (convex, not folded).
    static func isConvex(_ q0: SIMD2<Double>, _ q1: SIMD2<Double>, _ q2: SIMD2<Double>, _ q3: SIMD2<Double>) -> Bool {
        let q = (q0, q1, q2, q3)
        @inline(__always) func at(_ i: Int) -> SIMD2<Double> {
            switch i & 3 { case 0: q.0; case 1: q.1; case 2: q.2; default: q.3 }
        }
        var sign = 0.0
        for i in 0..<4 {
            let a = at(i + 1) - at(i), b = at(i + 2) - at(i + 1)
            let c = a.x * b.y - a.y * b.x
            if c == 0 { continue }
            if sign == 0 { sign = c } else if (c > 0) != (sign > 0) { return false }
        }
        return sign != 0
    }

    /// The outer and inner loops (texel space) of a closed convex subpath's stroke, nil where
    /// an inner side folds (a segment shorter than its inner miters take: a stroke wider than
    /// the curve is tight), for the pieces to draw.
    func ringLoops(_ seg: [Segment]) -> (outer: [SIMD2<Double>], inner: [SIMD2<Double>])? {
        let n = seg.count
        var turn = 0.0
        for k in 0..<n {
            let u1 = seg[k].u, u2 = seg[(k + 1) % n].u
            let c = u1.x * u2.y - u1.y * u2.x
            if c != 0 { turn = c; break }
        }
        // The normals (−u.y, u.x) point left; a loop turning left has its inside there.
        let out: Double = turn > 0 ? -1 : 1
        var outer: [SIMD2<Double>] = [], inner: [SIMD2<Double>] = []
        outer.reserveCapacity(n + 8); inner.reserveCapacity(n)
        for k in 0..<n {
            let s1 = seg[(k + n - 1) % n], s2 = seg[k], v = s2.a
            let n1 = SIMD2(-s1.u.y, s1.u.x) * hw, n2 = SIMD2(-s2.u.y, s2.u.x) * hw
            guard let ratio = Self.miterRatio(s1.u, s2.u) else {
                outer.append(v + out * n2); inner.append(v - out * n2)
                continue
            }
            let bis = n1 + n2
            let bl = (bis.x * bis.x + bis.y * bis.y).squareRoot()
            guard bl > 1e-12, ratio.isFinite else { return nil }
            let m = bis / bl * (hw * ratio)
            inner.append(v - out * m)
            // `joinPiece`'s choice of join.
            var kind = join
            if !s2.corner { kind = ratio <= 4 ? .miter : .round }
            if kind == .miter, ratio <= (s2.corner ? miterLimit : 4) {
                outer.append(v + out * m)
            } else if kind == .round {
                // The arc from one side's corner to the other's, at the disc's resolution.
                let a0 = atan2(out * n1.y, out * n1.x)
                var sweep = atan2(out * n2.y, out * n2.x) - a0
                if sweep > Double.pi { sweep -= 2 * Double.pi } else if sweep < -Double.pi { sweep += 2 * Double.pi }
                let steps = max(1, Int((abs(sweep) / (2 * Double.pi) * Double(discSides)).rounded(.up)))
                for j in 0...steps {
                    let a = a0 + sweep * Double(j) / Double(steps)
                    outer.append(v + SIMD2(cos(a), sin(a)) * hw)
                }
            } else {
                outer.append(v + out * n1); outer.append(v + out * n2)
            }
        }
        // Each side's inner offset runs the way the side does, or the inner loop folds.
        for k in 0..<n {
            let d = inner[(k + 1) % n] - inner[k]
            if d.x * seg[k].u.x + d.y * seg[k].u.y <= 0 { return nil }
        }
        return (outer.map { p($0.x, $0.y) }, inner.map { p($0.x, $0.y) })
    }

    /// Whether the closed polyline of `seg` turns the same way at every vertex and once round
    /// in all (a convex loop, which cannot cross itself).
    static func turnsOnceOneWay(_ seg: [Segment]) -> Bool {
        var sign = 0.0, total = 0.0
        for k in 0..<seg.count {
            let u1 = seg[k].u, u2 = seg[(k + 1) % seg.count].u
            let cross = u1.x * u2.y - u1.y * u2.x, dot = u1.x * u2.x + u1.y * u2.y
            if cross != 0 {
                if sign == 0 { sign = cross } else if (cross > 0) != (sign > 0) { return false }
            } else if dot < 0 {
                return false
            }
            total += atan2(cross, dot)
        }
        return abs(abs(total) - 2 * Double.pi) < 1e-6
    }

    /// The miter vector (from the vertex to the outer miter point) where a segment of direction
    /// `u1` meets one of `u2` inside a flattened curve, when `joinPiece` would join them with a
    /// miter (a turn with miter ratio ≤ 4, not a corner): the normal itself where they go
    /// straight on (the square ends meet); nil where they turn further.
    static func smoothMiter(_ u1: SIMD2<Double>, _ u2: SIMD2<Double>, hw: Double) -> SIMD2<Double>? {
        guard let ratio = miterRatio(u1, u2) else { return SIMD2(-u1.y, u1.x) * hw }
        guard ratio <= 4 else { return nil }
        let bis = SIMD2(-u1.y, u1.x) + SIMD2(-u2.y, u2.x)
        let bl = (bis.x * bis.x + bis.y * bis.y).squareRoot()
        guard bl > 1e-12 else { return nil }
        return bis / bl * (hw * ratio)
    }

    private func joinPiece(at v: SIMD2<Double>, _ u1: SIMD2<Double>, _ u2: SIMD2<Double>, corner: Bool,
                           into rast: inout CoverageRasterizer) {
        guard let ratio = Self.miterRatio(u1, u2) else { return }
        let cross = u1.x * u2.y - u1.y * u2.x
        var kind = join
        if !corner { kind = ratio <= 4 ? .miter : .round }
        if kind == .round { disc(v, into: &rast); return }
        let side: Double = cross > 0 ? -1 : 1
        let n1 = SIMD2(-u1.y, u1.x) * (hw * side), n2 = SIMD2(-u2.y, u2.x) * (hw * side)
        let a = v + n1, b = v + n2
        if kind == .miter, ratio <= (corner ? miterLimit : 4) {
            let bis = n1 + n2
            let bl = (bis.x * bis.x + bis.y * bis.y).squareRoot()
            if bl > 1e-12 {
                let m = v + bis / bl * (hw * ratio)
                rast.addPositiveQuad(p(v.x, v.y), p(a.x, a.y), p(m.x, m.y), p(b.x, b.y))
                return
            }
        }
        rast.addPositiveTriangle(p(v.x, v.y), p(a.x, a.y), p(b.x, b.y))
    }

    /// Segment `g` with round caps as one outline: a + n, the disc's vertices strictly behind
    /// a (from n round to −n through −u), a − n, b − n, those strictly beyond b (from −n round
    /// to n through u), b + n, for n the segment's normal times the half width. The discs are
    /// `disc`'s (the same vertices); where the union of a quad and two discs followed a disc's
    /// edge inward to the quad's corner, this goes straight to the corner, which lies on the
    /// circle (the round cap's own edge).
    private func capsule(_ g: Segment, into rast: inout CoverageRasterizer) {
        let n = discSides
        let dirs = discDirections
        let nrm = SIMD2(-g.u.y, g.u.x)
        let step = 2 * Double.pi / Double(n)
        var angle = atan2(nrm.y, nrm.x)
        if angle < 0 { angle += 2 * Double.pi }
        withUnsafeTemporaryAllocation(of: SIMD2<Double>.self, capacity: n + 4) { pts in
            var count = 0
            func add(_ v: SIMD2<Double>) { pts[count] = p(v.x, v.y); count += 1 }
            /// The vertices after angle `from` (mod 2π) whose direction lies strictly on `side`
            /// of the normal's line (−1 behind a, +1 beyond b), in order; one on the line (to
            /// rounding) is the ±n point added beside them.
            func half(_ c: SIMD2<Double>, from: Double, side: Double) {
                var k = Int((from / step).rounded(.down)) + 1
                var taken = 0
                for _ in 0..<n {
                    let d = dirs[k % n]
                    if (d.x * g.u.x + d.y * g.u.y) * side > 1e-9 {
                        add(c + d * hw)
                        taken += 1
                    } else if taken > 0 {
                        break
                    }
                    k += 1
                }
            }
            add(g.a + nrm * hw)
            half(g.a, from: angle, side: -1)
            add(g.a - nrm * hw)
            add(g.b - nrm * hw)
            half(g.b, from: angle < Double.pi ? angle + Double.pi : angle - Double.pi, side: 1)
            add(g.b + nrm * hw)
            rast.addPositivePolygon(UnsafeBufferPointer(start: pts.baseAddress, count: count))
        }
    }

    private func capPiece(at e: SIMD2<Double>, direction u: SIMD2<Double>, into rast: inout CoverageRasterizer) {
        switch cap {
        case .butt: return
        case .round: disc(e, into: &rast)
        case .square:
            let nrm = SIMD2(-u.y, u.x) * hw, f = u * hw
            rast.addPositiveQuad(p(e.x + nrm.x, e.y + nrm.y), p(e.x + nrm.x + f.x, e.y + nrm.y + f.y),
                                 p(e.x - nrm.x + f.x, e.y - nrm.y + f.y), p(e.x - nrm.x, e.y - nrm.y))
        }
    }
}

/// The directions of a disc's vertices, (cos, sin) of 2πi / n, made once per n for the process:
/// a round cap or join is a disc, and its sines and cosines were most of stroking a short
/// round-capped line (TwitterHeart's dots, issue 23). The values are those computed in place
/// before, so the discs are the same.
enum UnitCircles {
    private static let tables = Locked([Int: [SIMD2<Double>]]())

    static func directions(_ n: Int) -> [SIMD2<Double>] {
        if let t = tables.withLock({ $0[n] }) { return t }
        let t = (0..<n).map { i -> SIMD2<Double> in
            let a = 2 * Double.pi * Double(i) / Double(n)
            return SIMD2(cos(a), sin(a))
        }
        tables.withLock { $0[n] = t }
        return t
    }
}
