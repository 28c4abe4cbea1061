import Testing

// Issue 19's drawing speed: `strokePath()` builds the stroke outline straight into raster
// polygons (`CGContext.strokePolygons(of:)`, StrokeOutliner.swift) instead of making the
// outline `CGPath` that `replacePathWithStrokedPath()` returns (Apple's CGContext "Painting" and
// CGPathCreateCopyByStrokingPath: "a new path equivalent to the results of drawing the path
// with a solid stroke") and flattening that. These tests pin that the two sinks carry the same
// geometry: the raster sink's polygons equal, vertex for vertex, those the outline path gives
// when rasterised as a fill, and so stroking paints the same bytes as filling the stroked path.
@Suite struct CGContextStrokeSinkTests {
    /// One stroke set-up: the path (in user space), the line state, the CTM.
    struct Case: CustomStringConvertible, Sendable {
        var name: String
        var path: CGPath
        var width: CGFloat = 6
        var cap: CGLineCap = .butt
        var join: CGLineJoin = .miter
        var miterLimit: CGFloat = 10
        var dashes: [CGFloat] = []
        var ctm: CGAffineTransform = .identity
        var description: String { name }
    }

    static func zigzag(closed: Bool = false) -> CGPath {
        let p = CGMutablePath()
        p.move(to: CGPoint(x: 10, y: 10))
        p.addLine(to: CGPoint(x: 40, y: 50))
        p.addLine(to: CGPoint(x: 70, y: 12))      // sharp turn
        p.addLine(to: CGPoint(x: 95, y: 30))
        p.addLine(to: CGPoint(x: 100, y: 70))     // gentle turn
        if closed { p.closeSubpath() }
        return p
    }

    /// A 90° corner (miter ratio √2 ≈ 1.414) and a 20° one (ratio 1/sin(10°) ≈ 5.76).
    static func corners() -> CGPath {
        let p = CGMutablePath()
        p.move(to: CGPoint(x: 10, y: 10))
        p.addLine(to: CGPoint(x: 60, y: 10))
        p.addLine(to: CGPoint(x: 60, y: 60))
        p.addLine(to: CGPoint(x: 10, y: 60 - 50 * tan(20 * CGFloat.pi / 180)))
        return p
    }

    static func star() -> CGPath {
        let p = CGMutablePath()
        let c = CGPoint(x: 60, y: 60)
        for i in 0..<10 {
            let a = CGFloat(i) * .pi / 5, r: CGFloat = i % 2 == 0 ? 45 : 18
            let q = CGPoint(x: c.x + r * cos(a), y: c.y + r * sin(a))
            if i == 0 { p.move(to: q) } else {
                p.addCurve(to: q, control1: CGPoint(x: q.x + 6, y: q.y - 4), control2: CGPoint(x: q.x - 3, y: q.y + 5))
            }
        }
        p.closeSubpath()
        return p
    }

    /// Zero-length pieces: a lone dot, a segment that goes nowhere inside a line, a closed
    /// subpath of one point.
    static func degenerate() -> CGPath {
        let p = CGMutablePath()
        p.move(to: CGPoint(x: 20, y: 20)); p.addLine(to: CGPoint(x: 20, y: 20))
        p.move(to: CGPoint(x: 30, y: 40)); p.addLine(to: CGPoint(x: 60, y: 40))
        p.addLine(to: CGPoint(x: 60, y: 40)); p.addLine(to: CGPoint(x: 60, y: 80))
        p.move(to: CGPoint(x: 90, y: 90)); p.closeSubpath()
        p.move(to: CGPoint(x: 100, y: 10))       // a lone move: nothing
        return p
    }

    /// A line that turns straight back on itself: with round joins the cusp is a whole circle.
    static func cusp() -> CGPath {
        let p = CGMutablePath()
        p.move(to: CGPoint(x: 20, y: 30)); p.addLine(to: CGPoint(x: 90, y: 30)); p.addLine(to: CGPoint(x: 40, y: 30))
        return p
    }

    static let cases: [Case] = {
        var c: [Case] = []
        for join in [CGLineJoin.miter, .round, .bevel] {
            for cap in [CGLineCap.butt, .round, .square] {
                c.append(Case(name: "zigzag open \(join) \(cap)", path: zigzag(), cap: cap, join: join))
            }
            c.append(Case(name: "zigzag closed \(join)", path: zigzag(closed: true), join: join))
        }
        // Miter limit 3: the 90° corner is mitred, the 20° one bevelled; 6: both mitred.
        c.append(Case(name: "miter limit reached", path: corners(), width: 8, miterLimit: 3))
        c.append(Case(name: "miter limit not reached", path: corners(), width: 8, miterLimit: 6))
        c.append(Case(name: "dashes", path: zigzag(), width: 4, cap: .round, join: .round, dashes: [9, 5, 2, 5]))
        for cap in [CGLineCap.butt, .round, .square] {
            c.append(Case(name: "degenerate \(cap)", path: degenerate(), cap: cap))
        }
        c.append(Case(name: "star round joins", path: star(), width: 3, join: .round))
        c.append(Case(name: "star non-uniform CTM", path: star(), width: 3, join: .round,
                      ctm: CGAffineTransform(a: 1.5, b: 0.4, c: -0.2, d: 0.6, tx: 7.25, ty: 3.5)))
        c.append(Case(name: "zigzag non-uniform CTM", path: zigzag(), width: 5, cap: .round, join: .miter,
                      ctm: CGAffineTransform(scaleX: 2, y: 0.5).translatedBy(x: 0.3, y: 40)))
        c.append(Case(name: "flipped CTM dashed", path: star(), width: 2, cap: .square, join: .bevel, dashes: [7, 3],
                      ctm: CGAffineTransform(a: 1, b: 0, c: 0, d: -1, tx: 0, ty: 140)))
        c.append(Case(name: "hairline", path: zigzag(), width: 0, ctm: CGAffineTransform(scaleX: 1.3, y: 0.8)))
        c.append(Case(name: "cusp round join", path: cusp(), width: 8, join: .round,
                      ctm: CGAffineTransform(a: 1.2, b: 0.3, c: -0.1, d: 0.9, tx: 4.5, ty: 2.25)))
        return c
    }()

    func context(_ k: Case) -> CGContext {
        let ctx = rgbaContext(240, 160)
        ctx.concatenate(k.ctm)
        ctx.setLineWidth(k.width); ctx.setLineCap(k.cap); ctx.setLineJoin(k.join)
        ctx.setMiterLimit(k.miterLimit)
        if !k.dashes.isEmpty { ctx.setLineDash(phase: 1.5, lengths: k.dashes) }
        ctx.setStrokeColor(red: 0.2, green: 0.4, blue: 0.9, alpha: 0.8)
        ctx.setFillColor(red: 0.2, green: 0.4, blue: 0.9, alpha: 0.8)
        return ctx
    }

    /// The raster sink's polygons are exactly the outline path's, as the fill route makes them.
    @Test(arguments: cases) func rasterSinkEqualsPathSink(_ k: Case) throws {
        let ctx = context(k)
        ctx.addPath(k.path)
        let device = ctx.currentPath
        let outline = try #require(ctx.strokeOutline(of: device))
        let viaPath = try #require(ctx.rasterPolygons(ofDevicePath: outline))
        let direct = try #require(ctx.strokePolygons(of: device))
        #expect(direct.ends == viaPath.ends)
        #expect(direct.points == viaPath.points)
        #expect(direct.lo == viaPath.lo && direct.hi == viaPath.hi)
        #expect(!direct.ends.isEmpty)
    }

    /// `strokePath()` paints the bytes that filling `replacePathWithStrokedPath()`'s path paints,
    /// stroke after stroke on one context (the reused buffers leave nothing behind).
    @Test func strokeBytesEqualFilledStrokedPath() {
        let a = context(Case(name: "", path: Self.star())), b = context(Case(name: "", path: Self.star()))
        for k in Self.cases {
            for ctx in [a, b] {
                ctx.saveGState()
                ctx.setLineWidth(k.width); ctx.setLineCap(k.cap); ctx.setLineJoin(k.join)
                ctx.setMiterLimit(k.miterLimit)
                ctx.setLineDash(phase: 1.5, lengths: k.dashes)
                ctx.concatenate(k.ctm)
                ctx.addPath(k.path)
            }
            a.strokePath()
            b.replacePathWithStrokedPath()
            b.fillPath()
            a.restoreGState(); b.restoreGState()
        }
        let n = 240 * 160 * 4
        let pa = Array(UnsafeBufferPointer(start: a.data!.assumingMemoryBound(to: UInt8.self), count: n))
        let pb = Array(UnsafeBufferPointer(start: b.data!.assumingMemoryBound(to: UInt8.self), count: n))
        #expect(pa == pb)
        #expect(pa.contains { $0 != 0 })
    }

    /// Hand-derived: a 10-wide butt-capped horizontal line from x 10 to 30 at y 20 (identity
    /// CTM, 40 px tall bitmap) is one rectangle, 10…30 × 15…25 in user space, 15…25 in raster
    /// rows (y down: 40 − 25 … 40 − 15).
    @Test func straightLineIsOneRasterRectangle() throws {
        let ctx = rgbaContext(40, 40)
        ctx.setLineWidth(10); ctx.setLineCap(.butt)
        ctx.move(to: CGPoint(x: 10, y: 20)); ctx.addLine(to: CGPoint(x: 30, y: 20))
        let s = try #require(ctx.strokePolygons(of: ctx.currentPath))
        #expect(s.ends == [4])
        #expect(Set(s.points.map { [$0.x, $0.y] }) == [[10, 15], [30, 15], [30, 25], [10, 25]])
        #expect(s.lo == SIMD2(10, 15) && s.hi == SIMD2(30, 25))
    }

    /// A singular CTM strokes nothing (no polygons), as the path route gives no outline.
    @Test func singularCTMGivesNoPolygons() {
        let ctx = rgbaContext(40, 40)
        ctx.move(to: CGPoint(x: 10, y: 20)); ctx.addLine(to: CGPoint(x: 30, y: 20))
        ctx.scaleBy(x: 0, y: 1)
        #expect(ctx.strokePolygons(of: ctx.currentPath) == nil)
        #expect(ctx.strokeOutline(of: ctx.currentPath) == nil)
    }

    /// A cusp with round joins is drawn as a whole pen circle: in the outline path, a subpath of
    /// a move, `addEllipse(in:)`'s four quarter cubics and a close, centred on the cusp.
    @Test func cuspCircleIsAnEllipseSubpath() throws {
        let outline = Self.cusp().copy(strokingWithWidth: 8, lineCap: .butt, lineJoin: .round, miterLimit: 10)
        var cubics: [CGPoint] = []
        for e in outline.elements { if case .cubic(_, _, let end) = e { cubics.append(end) } }
        try #require(cubics.count == 4)
        // The quarter ends: bottom, left, top and right of the circle of radius 4 around (90, 30).
        #expect(cubics == [CGPoint(x: 90, y: 34), CGPoint(x: 86, y: 30), CGPoint(x: 90, y: 26), CGPoint(x: 94, y: 30)])
    }

    /// Past its vertex bound the stroker abandons the outline (nothing drawn, as for a path of too
    /// many segments), and the same stroker strokes normally again afterwards.
    @Test func outlinerAbandonsAnOutlinePastItsBound() throws {
        let outliner = StrokeOutliner()
        var sink = RasterPolygonSink()
        func stroke(_ maxPoints: Int) {
            outliner.rasterPolygons(of: Self.zigzag(), tolerance: 0.01, halfWidth: 4, cap: .round, join: .round,
                                    miterLimit: 10, arcTolerance: 0.01, transform: .identity, height: 160,
                                    circleTolerance: 0.025, maxPoints: maxPoints, into: &sink)
        }
        stroke(.max)
        let whole = sink
        #expect(!whole.overflowed && !whole.ends.isEmpty)
        stroke(12)
        #expect(sink.overflowed)
        #expect(sink.ends.isEmpty && sink.points.isEmpty)
        stroke(.max)
        #expect(!sink.overflowed)
        #expect(sink.points == whole.points && sink.ends == whole.ends)
    }
}
