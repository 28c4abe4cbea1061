import Testing

struct CGPathStrokeDashTests {
    func line(from a: CGPoint, to b: CGPoint) -> CGPath {
        let p = CGMutablePath()
        p.move(to: a)
        p.addLine(to: b)
        return p
    }

    /// (start, end) x coordinates of the dashes of a dashed horizontal line.
    func dashes(_ p: CGPath) -> [(CGFloat, CGFloat)] {
        var out: [(CGFloat, CGFloat)] = []
        for e in elements(of: p) {
            switch e.type {
            case .moveToPoint: out.append((e.points[0].x, e.points[0].x))
            case .addLineToPoint: out[out.count - 1].1 = e.points[0].x
            default: Issue.record("unexpected element \(e)")
            }
        }
        return out
    }

    // MARK: Dashing

    @Test("dashing a 100-long line with [10, 5] gives 7 dashes of length 10, 15 apart")
    func dashStraightLine() {
        let d = line(from: .zero, to: CGPoint(x: 100, y: 0)).copy(dashingWithPhase: 0, lengths: [10, 5])
        let got = dashes(d)
        #expect(got.count == 7)
        for (i, dash) in got.enumerated() {
            #expect(close(dash.0, CGFloat(i) * 15, 1e-9))
            #expect(close(dash.1 - dash.0, 10, 1e-9))
        }
        #expect(types(of: d).count == 14)
    }

    @Test("phase shifts into the pattern: phase 5 makes the first dash 5 long")
    func dashPhase() {
        let got = dashes(line(from: .zero, to: CGPoint(x: 100, y: 0)).copy(dashingWithPhase: 5, lengths: [10, 5]))
        #expect(got.count == 7)
        #expect(close(got[0].0, 0) && close(got[0].1, 5))
        #expect(close(got[1].0, 10) && close(got[1].1, 20))
        #expect(close(got[6].0, 85) && close(got[6].1, 95))
        // A negative phase is taken modulo the pattern: −10 ≡ 5.
        let neg = dashes(line(from: .zero, to: CGPoint(x: 100, y: 0)).copy(dashingWithPhase: -10, lengths: [10, 5]))
        #expect(neg.count == got.count && close(neg[1].0, 10))
    }

    @Test("an odd pattern is used twice over: [10] is 10 painted, 10 unpainted")
    func dashOddCount() {
        let got = dashes(line(from: .zero, to: CGPoint(x: 100, y: 0)).copy(dashingWithPhase: 0, lengths: [10]))
        #expect(got.map(\.0) == [0, 20, 40, 60, 80])
        #expect(got.allSatisfy { close($0.1 - $0.0, 10) })
        // [10, 5, 2] runs as painted 10, gap 5, painted 2, gap 10, painted 5, gap 2 (period 34).
        let three = dashes(line(from: .zero, to: CGPoint(x: 100, y: 0)).copy(dashingWithPhase: 0, lengths: [10, 5, 2]))
        let expected: [(CGFloat, CGFloat)] = [(0, 10), (15, 17), (27, 32), (34, 44), (49, 51), (61, 66),
                                              (68, 78), (83, 85), (95, 100)]
        #expect(three.count == expected.count)
        for (g, e) in zip(three, expected) {
            #expect(close(g.0, e.0, 1e-9) && close(g.1, e.1, 1e-9))
        }
    }

    @Test("a dash crossing a corner stays one subpath; transform maps the result")
    func dashAcrossCorner() {
        let p = CGMutablePath()
        p.addLines(between: [.zero, CGPoint(x: 10, y: 0), CGPoint(x: 10, y: 10)])
        let d = p.copy(dashingWithPhase: 0, lengths: [15, 100], transform: CGAffineTransform(scaleX: 2, y: 2))
        #expect(elements(of: d) == [.move(0, 0), .line(20, 0), .line(20, 10)])
    }

    @Test("zero-length painted entries leave zero-length dashes (dots for round caps)")
    func dashDots() {
        let d = line(from: .zero, to: CGPoint(x: 30, y: 0)).copy(dashingWithPhase: 0, lengths: [0, 10])
        let e = elements(of: d)
        #expect(Array(e.prefix(4)) == [.move(0, 0), .line(0, 0), .move(10, 0), .line(10, 0)])
        #expect(e.count >= 6 && e.count % 2 == 0)
    }

    @Test("degenerate patterns return the path undashed")
    func dashDegenerate() {
        let p = line(from: .zero, to: CGPoint(x: 100, y: 0))
        #expect(p.copy(dashingWithPhase: 0, lengths: []) == p)
        #expect(p.copy(dashingWithPhase: 0, lengths: [0, 0]) == p)
        #expect(p.copy(dashingWithPhase: 0, lengths: [10, -5]) == p)
        #expect(p.copy(dashingWithPhase: 0, lengths: [10, .nan]) == p)
        #expect(p.copy(dashingWithPhase: .nan, lengths: [10, 5]) == p.copy(dashingWithPhase: 0, lengths: [10, 5]))
        // More than a million dashes: refused rather than built.
        #expect(p.copy(dashingWithPhase: 0, lengths: [1e-6, 1e-6]) == p)
    }

    @Test("a closed rect painted all round stays closed; a gap breaks it open")
    func dashClosedSubpath() {
        let r = CGPath(rect: CGRect(x: 0, y: 0, width: 10, height: 10), transform: nil)
        #expect(r.copy(dashingWithPhase: 0, lengths: [100, 1]) == r)
        let broken = r.copy(dashingWithPhase: 0, lengths: [35, 5])
        #expect(!types(of: broken).contains(.closeSubpath))
        // Painted 0–35 of the 40-long outline: three sides and half the closing side.
        #expect(elements(of: broken) == [.move(0, 0), .line(10, 0), .line(10, 10), .line(0, 10), .line(0, 5)])
    }

    @Test("dashing a curve keeps curves: half a quarter circle ends at 45°")
    func dashCurve() {
        let p = CGMutablePath()
        p.addArc(center: .zero, radius: 100, startAngle: 0, endAngle: .pi / 2, clockwise: false)
        let quarter = CGFloat.pi / 2 * 100
        let d = p.copy(dashingWithPhase: 0, lengths: [quarter / 2, quarter])
        let e = elements(of: d)
        #expect(e.map(\.type) == [.moveToPoint, .addCurveToPoint])
        let h = 100 / 2.0.squareRoot()
        #expect(close(e[1].points[2], CGPoint(x: h, y: h), 0.05))
    }

    // MARK: Stroking

    @Test("stroking a horizontal line with butt caps gives exactly the expected rectangle")
    func strokeButt() {
        let s = line(from: .zero, to: CGPoint(x: 100, y: 0))
            .copy(strokingWithWidth: 10, lineCap: .butt, lineJoin: .miter, miterLimit: 10)
        var r = CGRect.null
        #expect(s.isRect(&r))
        #expect(r == CGRect(x: 0, y: -5, width: 100, height: 10))
        #expect(s.boundingBox == CGRect(x: 0, y: -5, width: 100, height: 10))
        #expect(s.contains(CGPoint(x: 50, y: 4)))
        #expect(!s.contains(CGPoint(x: 50, y: 6)))
        #expect(!s.contains(CGPoint(x: -2, y: 0)))
    }

    @Test("square caps extend by half the width; round caps add half discs")
    func strokeCaps() {
        let l = line(from: .zero, to: CGPoint(x: 100, y: 0))
        let square = l.copy(strokingWithWidth: 10, lineCap: .square, lineJoin: .miter, miterLimit: 10)
        #expect(square.boundingBox == CGRect(x: -5, y: -5, width: 110, height: 10))
        #expect(square.contains(CGPoint(x: -4, y: 4)))
        #expect(square.isRect(nil))

        let round = l.copy(strokingWithWidth: 10, lineCap: .round, lineJoin: .miter, miterLimit: 10)
        #expect(close(round.boundingBoxOfPath, CGRect(x: -5, y: -5, width: 110, height: 10), 1e-9))
        #expect(round.contains(CGPoint(x: -4, y: 0)))
        #expect(!round.contains(CGPoint(x: -4, y: 4)))       // 5.66 from the end point
        #expect(round.contains(CGPoint(x: 103, y: 3)))
    }

    @Test("joins: miter fills the outer corner, bevel cuts it, round rounds it")
    func strokeJoins() {
        let p = CGMutablePath()
        p.addLines(between: [.zero, CGPoint(x: 100, y: 0), CGPoint(x: 100, y: 100)])
        func stroke(_ j: CGLineJoin) -> CGPath {
            p.copy(strokingWithWidth: 10, lineCap: .butt, lineJoin: j, miterLimit: 10)
        }
        let corner = CGPoint(x: 104, y: -4), near = CGPoint(x: 103, y: -3)
        #expect(stroke(.miter).contains(corner))
        #expect(close(stroke(.miter).boundingBox, CGRect(x: 0, y: -5, width: 105, height: 105), 1e-9))
        #expect(!stroke(.bevel).contains(corner))
        #expect(!stroke(.bevel).contains(near))
        #expect(!stroke(.round).contains(corner))
        #expect(stroke(.round).contains(near))
        #expect(!stroke(.miter).contains(CGPoint(x: 50, y: 50)))
    }

    @Test("miter limit: a sharp turn gets its spike only when 1/sin(φ/2) is within the limit")
    func strokeMiterLimit() {
        let p = CGMutablePath()
        p.addLines(between: [.zero, CGPoint(x: 100, y: 0), CGPoint(x: 0, y: 20)])
        // Angle between the segments φ = atan(20/100); 1/sin(φ/2) ≈ 10.15.
        let spikePoint = CGPoint(x: 130, y: -2)
        let limited = p.copy(strokingWithWidth: 10, lineCap: .butt, lineJoin: .miter, miterLimit: 10)
        let allowed = p.copy(strokingWithWidth: 10, lineCap: .butt, lineJoin: .miter, miterLimit: 11)
        #expect(!limited.contains(spikePoint))
        #expect(allowed.contains(spikePoint))
        #expect(close(allowed.boundingBox.maxX, 150.5, 0.1))
    }

    @Test("a stroked closed rect is a frame: in on the border, out in the middle")
    func strokeClosedRect() {
        let r = CGPath(rect: CGRect(x: 0, y: 0, width: 100, height: 100), transform: nil)
        let s = r.copy(strokingWithWidth: 10, lineCap: .butt, lineJoin: .miter, miterLimit: 10)
        #expect(s.contains(CGPoint(x: 50, y: -4)))
        #expect(s.contains(CGPoint(x: -4, y: -4)))
        #expect(s.contains(CGPoint(x: 104, y: 104)))
        #expect(!s.contains(CGPoint(x: 50, y: 6)))
        #expect(!s.contains(CGPoint(x: 50, y: 50)))
        #expect(close(s.boundingBox, CGRect(x: -5, y: -5, width: 110, height: 110), 1e-9))
    }

    @Test("a stroked circle is a ring of the right width")
    func strokeCircle() {
        let c = CGPath(ellipseIn: CGRect(x: 0, y: 0, width: 100, height: 100), transform: nil)
        let s = c.copy(strokingWithWidth: 4, lineCap: .butt, lineJoin: .miter, miterLimit: 10)
        #expect(s.contains(CGPoint(x: 50, y: 1)))
        #expect(s.contains(CGPoint(x: 50 + 51 / 2.0.squareRoot(), y: 50 + 51 / 2.0.squareRoot())))
        #expect(!s.contains(CGPoint(x: 50, y: 50)))
        #expect(!s.contains(CGPoint(x: 50, y: 5)))
        #expect(close(s.boundingBoxOfPath, CGRect(x: -2, y: -2, width: 104, height: 104), 0.05))
    }

    @Test("zero-length subpaths: round caps draw a dot, butt caps nothing; bad widths give empty paths")
    func strokeDegenerate() {
        let dot = line(from: CGPoint(x: 10, y: 10), to: CGPoint(x: 10, y: 10))
        let round = dot.copy(strokingWithWidth: 4, lineCap: .round, lineJoin: .miter, miterLimit: 10)
        #expect(round.contains(CGPoint(x: 10, y: 11.5)))
        #expect(!round.contains(CGPoint(x: 10, y: 12.5)))
        #expect(dot.copy(strokingWithWidth: 4, lineCap: .butt, lineJoin: .miter, miterLimit: 10).isEmpty)
        let l = line(from: .zero, to: CGPoint(x: 10, y: 0))
        #expect(l.copy(strokingWithWidth: 0, lineCap: .butt, lineJoin: .miter, miterLimit: 10).isEmpty)
        #expect(l.copy(strokingWithWidth: -1, lineCap: .butt, lineJoin: .miter, miterLimit: 10).isEmpty)
        #expect(l.copy(strokingWithWidth: .nan, lineCap: .butt, lineJoin: .miter, miterLimit: 10).isEmpty)
        let lone = CGMutablePath()
        lone.move(to: .zero)
        #expect(lone.copy(strokingWithWidth: 4, lineCap: .round, lineJoin: .round, miterLimit: 10).isEmpty)
    }

    @Test("the transform applies to the outline after stroking")
    func strokeTransform() {
        let s = line(from: .zero, to: CGPoint(x: 10, y: 0))
            .copy(strokingWithWidth: 2, lineCap: .butt, lineJoin: .miter, miterLimit: 10,
                  transform: CGAffineTransform(scaleX: 3, y: 5))
        #expect(s.boundingBox == CGRect(x: 0, y: -5, width: 30, height: 10))
    }

    @Test("a dashed then stroked line contains the dashes and not the gaps")
    func dashThenStroke() {
        let s = line(from: .zero, to: CGPoint(x: 100, y: 0))
            .copy(dashingWithPhase: 0, lengths: [10, 10])
            .copy(strokingWithWidth: 4, lineCap: .butt, lineJoin: .miter, miterLimit: 10)
        #expect(s.contains(CGPoint(x: 5, y: 1)))
        #expect(!s.contains(CGPoint(x: 15, y: 1)))
        #expect(s.contains(CGPoint(x: 85, y: -1)))
    }

    @Test("huge coordinates stay bounded: queries, stroking and dashing return promptly")
    func hugeCoordinates() {
        let p = CGMutablePath()
        p.move(to: CGPoint(x: -1e300, y: 0))
        p.addCurve(to: CGPoint(x: 1e300, y: 0), control1: CGPoint(x: 0, y: 1e300), control2: CGPoint(x: 0, y: -1e300))
        p.closeSubpath()
        #expect(p.boundingBox == CGRect(x: -1e300, y: -1e300, width: 2e300, height: 2e300))
        #expect(!p.contains(CGPoint(x: 0, y: 2e300)))
        #expect(p.copy(dashingWithPhase: 0, lengths: [1, 1]) == p)     // ~10³⁰⁰ dashes refused
        let stroked = p.copy(strokingWithWidth: 1, lineCap: .round, lineJoin: .round, miterLimit: 10)
        #expect(elements(of: stroked).allSatisfy { $0.points.allSatisfy { $0.x.isFinite && $0.y.isFinite } })
        #expect(elements(of: p.copy(strokingWithWidth: 1e300, lineCap: .square, lineJoin: .miter, miterLimit: 1e300))
            .allSatisfy { $0.points.allSatisfy { $0.x.isFinite && $0.y.isFinite } })
    }
}
