import Testing

struct CGPathConstructionTests {
    @Test("addRect: move to (minX, minY), three lines counter-clockwise (y-up), close")
    func rectElements() {
        let p = CGMutablePath()
        p.addRect(CGRect(x: 1, y: 2, width: 3, height: 4))
        #expect(elements(of: p) == [.move(1, 2), .line(4, 2), .line(4, 6), .line(1, 6), .close])
        // A rect with negative size is standardized first: same corners, same direction.
        let q = CGMutablePath()
        q.addRect(CGRect(x: 4, y: 6, width: -3, height: -4))
        #expect(q == p)
    }

    @Test("CGPath(rect:transform:) accepts nil or a pointer, like Apple's initializer")
    func immutableRect() {
        let r = CGRect(x: 0, y: 0, width: 10, height: 5)
        let m = CGMutablePath()
        m.addRect(r)
        #expect(CGPath(rect: r, transform: nil) == m)
        var t = CGAffineTransform(translationX: 100, y: 0)
        let moved = CGPath(rect: r, transform: &t)
        #expect(elements(of: moved).first == .move(100, 0))
        #expect(moved.boundingBox == CGRect(x: 100, y: 0, width: 10, height: 5))
        #expect(CGPath(rect: .null, transform: nil).isEmpty)
    }

    @Test("addEllipse(in:): move to (maxX, midY), four cubics toward increasing angle, close")
    func ellipseElements() {
        let p = CGPath(ellipseIn: CGRect(x: 0, y: 0, width: 100, height: 100), transform: nil)
        let e = elements(of: p)
        #expect(e.map(\.type) == [.moveToPoint, .addCurveToPoint, .addCurveToPoint,
                                  .addCurveToPoint, .addCurveToPoint, .closeSubpath])
        #expect(e[0].points == [CGPoint(x: 100, y: 50)])
        let k = 50 * kappa
        #expect(close(e[1].points[0], CGPoint(x: 100, y: 50 + k), 1e-12))
        #expect(close(e[1].points[1], CGPoint(x: 50 + k, y: 100), 1e-12))
        #expect(e[1].points[2] == CGPoint(x: 50, y: 100))
        #expect(e[2].points[2] == CGPoint(x: 0, y: 50))
        #expect(e[3].points[2] == CGPoint(x: 50, y: 0))
        #expect(e[4].points[2] == CGPoint(x: 100, y: 50))
        let m = CGMutablePath()
        m.addEllipse(in: CGRect(x: 0, y: 0, width: 100, height: 100))
        #expect(m == p)
    }

    @Test("rounded rect: move at (maxX, midY), line + quarter-ellipse per corner, close; clamped corners")
    func roundedRectElements() {
        let r = CGRect(x: 0, y: 0, width: 100, height: 60)
        let p = CGPath(roundedRect: r, cornerWidth: 10, cornerHeight: 20, transform: nil)
        let e = elements(of: p)
        #expect(e.map(\.type) == [.moveToPoint,
                                  .addLineToPoint, .addCurveToPoint, .addLineToPoint, .addCurveToPoint,
                                  .addLineToPoint, .addCurveToPoint, .addLineToPoint, .addCurveToPoint,
                                  .closeSubpath])
        #expect(e[0].points == [CGPoint(x: 100, y: 30)])
        #expect(e[1].points == [CGPoint(x: 100, y: 40)])
        #expect(e[2].points[2] == CGPoint(x: 90, y: 60))
        #expect(close(e[2].points[0], CGPoint(x: 100, y: 40 + 20 * kappa), 1e-12))
        #expect(e[3].points == [CGPoint(x: 10, y: 60)])
        #expect(e[4].points[2] == CGPoint(x: 0, y: 40))
        #expect(e[6].points[2] == CGPoint(x: 10, y: 0))
        #expect(e[8].points[2] == CGPoint(x: 100, y: 20))
        #expect(p.boundingBoxOfPath == r)

        // Corners larger than half the rect are clamped (Apple asserts): 80 → 50, 45 → 30.
        let big = CGMutablePath()
        big.addRoundedRect(in: r, cornerWidth: 80, cornerHeight: 45)
        let b = elements(of: big)
        #expect(b[1].points == [CGPoint(x: 100, y: 30)])
        #expect(b[2].points[2] == CGPoint(x: 50, y: 60))

        // Zero corners give the plain rectangle.
        #expect(CGPath(roundedRect: r, cornerWidth: 0, cornerHeight: 5, transform: nil)
                == CGPath(rect: r, transform: nil))
    }

    @Test("lines, curves and addLines(between:) store Apple's element types and points")
    func linesAndCurves() {
        let p = CGMutablePath()
        p.addLines(between: [CGPoint(x: 0, y: 0), CGPoint(x: 1, y: 0), CGPoint(x: 1, y: 1)])
        p.addQuadCurve(to: CGPoint(x: 2, y: 2), control: CGPoint(x: 2, y: 1))
        p.addCurve(to: CGPoint(x: 5, y: 5), control1: CGPoint(x: 3, y: 2), control2: CGPoint(x: 4, y: 4))
        p.closeSubpath()
        #expect(elements(of: p) == [
            .move(0, 0), .line(1, 0), .line(1, 1),
            Element(type: .addQuadCurveToPoint, points: [CGPoint(x: 2, y: 1), CGPoint(x: 2, y: 2)]),
            Element(type: .addCurveToPoint, points: [CGPoint(x: 3, y: 2), CGPoint(x: 4, y: 4), CGPoint(x: 5, y: 5)]),
            .close,
        ])
        let empty = CGMutablePath()
        empty.addLines(between: [])
        #expect(empty.isEmpty)
    }

    @Test("every transform: parameter maps the points it adds")
    func transformsApply() {
        let t = CGAffineTransform(translationX: 10, y: 20)
        let p = CGMutablePath()
        p.move(to: CGPoint(x: 1, y: 1), transform: t)
        p.addLine(to: CGPoint(x: 2, y: 1), transform: t)
        p.addRect(CGRect(x: 0, y: 0, width: 1, height: 1), transform: CGAffineTransform(scaleX: 3, y: 3))
        #expect(elements(of: p).prefix(3) == [.move(11, 21), .line(12, 21), .move(0, 0)])
        #expect(elements(of: p)[4] == .line(3, 3))

        let src = CGPath(rect: CGRect(x: 0, y: 0, width: 1, height: 1), transform: nil)
        let dst = CGMutablePath()
        dst.addPath(src, transform: CGAffineTransform(scaleX: 2, y: 2))
        #expect(dst.boundingBox == CGRect(x: 0, y: 0, width: 2, height: 2))
        dst.addPath(dst)
        #expect(types(of: dst).count == 10)
    }

    @Test("no current point: lines and curves are ignored; closes are not doubled")
    func currentPointRules() {
        let p = CGMutablePath()
        p.addLine(to: CGPoint(x: 5, y: 5))
        p.addCurve(to: CGPoint(x: 1, y: 1), control1: .zero, control2: .zero)
        p.closeSubpath()
        #expect(p.isEmpty)
        p.move(to: .zero)
        p.addLine(to: CGPoint(x: 1, y: 0))
        p.closeSubpath()
        p.closeSubpath()
        #expect(types(of: p) == [.moveToPoint, .addLineToPoint, .closeSubpath])
    }

    @Test("a segment after closeSubpath starts a new subpath at the closed one's start")
    func segmentAfterClose() {
        let p = CGMutablePath()
        p.move(to: CGPoint(x: 1, y: 1))
        p.addLine(to: CGPoint(x: 5, y: 1))
        p.closeSubpath()
        #expect(p.currentPoint == CGPoint(x: 1, y: 1))
        p.addLine(to: CGPoint(x: 1, y: 9))
        #expect(elements(of: p) == [.move(1, 1), .line(5, 1), .close, .move(1, 1), .line(1, 9)])
    }

    @Test("NaN and infinite input is dropped: a bad point alone, a bad shape whole")
    func nonFiniteInput() {
        let p = CGMutablePath()
        p.move(to: CGPoint(x: 0, y: 0))
        p.addLine(to: CGPoint(x: CGFloat.nan, y: 1))
        p.addLine(to: CGPoint(x: 1, y: CGFloat.infinity))
        p.addRect(CGRect(x: 0, y: 0, width: CGFloat.nan, height: 1))
        p.addEllipse(in: CGRect(x: 0, y: 0, width: CGFloat.infinity, height: 1))
        p.addArc(center: .zero, radius: 1, startAngle: .nan, endAngle: 1, clockwise: false)
        p.addLine(to: CGPoint(x: 2, y: 0), transform: CGAffineTransform(scaleX: .nan, y: 1))
        #expect(elements(of: p) == [.move(0, 0)])
        #expect(p.boundingBox == CGRect(x: 0, y: 0, width: 0, height: 0))
        #expect(!p.contains(CGPoint(x: 0, y: 0)))
    }

    @Test("copies: immutable copy() is the same object, mutable copies are independent")
    func copies() throws {
        let immutable = CGPath(rect: CGRect(x: 0, y: 0, width: 1, height: 1), transform: nil)
        #expect(immutable.copy() === immutable)
        let m = CGMutablePath()
        m.move(to: .zero)
        m.addLine(to: CGPoint(x: 3, y: 4))
        let frozen = try #require(m.copy())
        #expect(frozen !== m)
        #expect(frozen == m)
        let mc = try #require(m.mutableCopy())
        mc.addLine(to: CGPoint(x: 9, y: 9))
        #expect(types(of: m).count == 2)
        #expect(types(of: mc).count == 3)
        m.closeSubpath()
        #expect(types(of: frozen).count == 2)

        var t = CGAffineTransform(scaleX: 2, y: -1)
        let scaled = try #require(frozen.copy(using: &t))
        #expect(elements(of: scaled) == [.move(0, 0), .line(6, -4)])
        #expect(try #require(frozen.copy(using: nil)) == frozen)
        #expect(try #require(frozen.mutableCopy(using: &t)) == scaled)
    }

    @Test("apply(info:function:) hands each element to a C-style callback with its info pointer")
    func applyFunction() {
        let p = CGPath(rect: CGRect(x: 0, y: 0, width: 2, height: 2), transform: nil)
        var count = 0
        withUnsafeMutablePointer(to: &count) { ptr in
            p.apply(info: UnsafeMutableRawPointer(ptr)) { info, element in
                let c = info!.assumingMemoryBound(to: Int.self)
                c.pointee += element.pointee.type == .closeSubpath ? 100 : 1
            }
        }
        #expect(count == 104)
    }

    @Test("CGVector stores dx/dy and compares by value")
    func vector() {
        let v = CGVector(dx: 3, dy: -4)
        #expect(v.dx == 3 && v.dy == -4)
        #expect(v == CGVector(dx: 3.0, dy: -4.0))
        #expect(v != CGVector.zero)
        #expect(CGVector() == .zero)
        #expect(Set([v, CGVector(dx: 3, dy: -4), .zero]).count == 2)
    }

    @Test("enum raw values match Apple's headers")
    func rawValues() {
        #expect(CGLineCap.butt.rawValue == 0 && CGLineCap.round.rawValue == 1 && CGLineCap.square.rawValue == 2)
        #expect(CGLineJoin.miter.rawValue == 0 && CGLineJoin.round.rawValue == 1 && CGLineJoin.bevel.rawValue == 2)
        #expect(CGPathFillRule.winding.rawValue == 0 && CGPathFillRule.evenOdd.rawValue == 1)
        #expect(CGPathElementType.moveToPoint.rawValue == 0 && CGPathElementType.closeSubpath.rawValue == 4)
    }
}

/// Issue 17.6: flattening is linear in the path's size, and its segment count is known before
/// the work, so a renderer checks its limit first.
struct CGPathFlatteningScaleTests {
    @Test("a path of a million lines flattens (linear: the open subpath is changed in place, not copied per point)")
    func millionLinesFlatten() {
        let p = CGMutablePath()
        p.move(to: .zero)
        for i in 1...1_000_000 { p.addLine(to: CGPoint(x: Double(i % 1000), y: Double(i / 1000))) }
        let subs = p.flattenedSubpaths(tolerance: 0.25)
        #expect(subs.count == 1)
        #expect(subs[0].points.count == 1_000_001)
        #expect(p.flattenedSegmentCount(tolerance: 0.25, limit: .max) == 1_000_000)
    }

    @Test("the segment count before flattening equals the flattened count, and stops early past a limit")
    func countBeforeFlattening() {
        let p = CGMutablePath()
        p.move(to: .zero)
        for i in 0..<200 {
            let x = Double(i) * 10
            p.addCurve(to: CGPoint(x: x + 10, y: 0), control1: CGPoint(x: x + 3, y: 40), control2: CGPoint(x: x + 7, y: -40))
            p.addQuadCurve(to: CGPoint(x: x + 10, y: 5), control: CGPoint(x: x + 5, y: 30))
            p.addLine(to: CGPoint(x: x + 10, y: 0))
        }
        p.closeSubpath()
        let flat = p.flattenedSubpaths(tolerance: 0.1)
        // Points minus the move point, plus the implicit closing segment: one segment each.
        let made = flat.reduce(0) { $0 + $1.points.count } - flat.count + 1
        let counted = p.flattenedSegmentCount(tolerance: 0.1, limit: .max)
        #expect(abs(counted - made) <= 2, "counted \(counted), flattened \(made)")
        // 200,000 tight curves would flatten into tens of millions of segments: the count gives
        // up just past the limit instead of walking them all.
        let huge = CGMutablePath()
        huge.move(to: .zero)
        for i in 0..<200_000 {
            huge.addCurve(to: CGPoint(x: Double(i), y: 0), control1: CGPoint(x: 1e6, y: 1e6), control2: CGPoint(x: -1e6, y: -1e6))
        }
        let n = huge.flattenedSegmentCount(tolerance: 0.25, limit: 200_000)
        #expect(n > 200_000 && n <= 200_000 + 512)
    }

    /// `addPath` copies a source that the append rules would leave as it is in one piece; any
    /// other source goes element by element. Either way the result is what adding the source's
    /// elements one call at a time gives (CGPathAddPath appends the path's elements): sources
    /// that start with a line, hold a NaN, close twice, draw after a close, or are well formed,
    /// onto destinations that are empty, open or just closed.
    @Test func addPathEqualsAddingEachElement() {
        let p = CGPoint(x: 3, y: 4), q = CGPoint(x: 9, y: 1), r = CGPoint(x: 5, y: 8), nan = CGPoint(x: CGFloat.nan, y: 2)
        let sources: [[PathElement]] = [
            [.move(p), .line(q), .quad(r, p), .cubic(q, r, p), .close, .move(r), .line(p)],
            [.line(q), .line(r), .close],
            [.move(p), .line(nan), .line(q), .close],
            [.move(p), .line(q), .close, .close, .line(r)],
            [.move(p), .close, .line(q), .cubic(p, q, r)],
            [.close, .move(p), .line(q)],
            [],
        ]
        func destinations() -> [CGMutablePath] {
            let open = CGMutablePath(); open.move(to: r); open.addLine(to: q)
            let closed = CGMutablePath(); closed.move(to: q); closed.addLine(to: r); closed.closeSubpath()
            return [CGMutablePath(), open, closed]
        }
        for source in sources {
            for (dst, expected) in zip(destinations(), destinations()) {
                dst.addPath(CGPath(elements: source))
                for e in source {
                    switch e {
                    case .move(let a): expected.move(to: a)
                    case .line(let a): expected.addLine(to: a)
                    case .quad(let c, let a): expected.addQuadCurve(to: a, control: c)
                    case .cubic(let c1, let c2, let a): expected.addCurve(to: a, control1: c1, control2: c2)
                    case .close: expected.closeSubpath()
                    }
                }
                #expect(dst.elements == expected.elements, "\(source)")
            }
        }
        #expect(![PathElement.move(p), .close, .close].appendsUnchanged)
        #expect([PathElement.move(p), .line(q), .close, .move(r)].appendsUnchanged)
    }
}
