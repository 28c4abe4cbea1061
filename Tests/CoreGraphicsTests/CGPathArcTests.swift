import Testing

struct CGPathArcTests {
    @Test("clockwise: false goes toward increasing angle: 0 → π/2 is one quarter cubic")
    func counterClockwiseQuarter() {
        let p = CGMutablePath()
        p.addArc(center: .zero, radius: 10, startAngle: 0, endAngle: .pi / 2, clockwise: false)
        let e = elements(of: p)
        #expect(e.map(\.type) == [.moveToPoint, .addCurveToPoint])
        #expect(e[0].points == [CGPoint(x: 10, y: 0)])
        #expect(close(e[1].points[0], CGPoint(x: 10, y: 10 * kappa), 1e-12))
        #expect(close(e[1].points[1], CGPoint(x: 10 * kappa, y: 10), 1e-12))
        #expect(close(e[1].points[2], CGPoint(x: 0, y: 10), 1e-12))
    }

    @Test("clockwise: true goes toward decreasing angle: 0 → π/2 is the long way, 270°")
    func clockwiseLongWay() {
        let p = CGMutablePath()
        p.addArc(center: .zero, radius: 10, startAngle: 0, endAngle: .pi / 2, clockwise: true)
        let e = elements(of: p)
        #expect(e.map(\.type) == [.moveToPoint, .addCurveToPoint, .addCurveToPoint, .addCurveToPoint])
        #expect(close(e[1].points[2], CGPoint(x: 0, y: -10), 1e-12))   // first passes −π/2
        #expect(close(e[2].points[2], CGPoint(x: -10, y: 0), 1e-12))
        #expect(close(e[3].points[2], CGPoint(x: 0, y: 10), 1e-12))
        #expect(close(p.currentPoint, CGPoint(x: 0, y: 10), 1e-12))
        #expect(close(p.boundingBoxOfPath, CGRect(x: -10, y: -10, width: 20, height: 20), 1e-9))
    }

    @Test("short clockwise arc: π/2 → 0 with clockwise: true is a single quarter")
    func clockwiseShort() {
        let p = CGMutablePath()
        p.addArc(center: CGPoint(x: 5, y: 5), radius: 2, startAngle: .pi / 2, endAngle: 0, clockwise: true)
        let e = elements(of: p)
        #expect(e.count == 2)
        #expect(close(e[0].points[0], CGPoint(x: 5, y: 7), 1e-12))
        #expect(close(e[1].points[2], CGPoint(x: 7, y: 5), 1e-12))
    }

    @Test("full circle from 0 to 2π is four cubics ending at the start; equal angles add only a point")
    func fullAndEmpty() {
        let p = CGMutablePath()
        p.addArc(center: .zero, radius: 1, startAngle: 0, endAngle: 2 * .pi, clockwise: false)
        #expect(types(of: p).count == 5)
        #expect(close(p.currentPoint, CGPoint(x: 1, y: 0), 1e-12))
        let q = CGMutablePath()
        q.addArc(center: .zero, radius: 1, startAngle: 1, endAngle: 1, clockwise: false)
        #expect(types(of: q) == [.moveToPoint])
    }

    @Test("an arc after a current point starts with a line to the arc's start")
    func lineToStart() {
        let p = CGMutablePath()
        p.move(to: .zero)
        p.addArc(center: CGPoint(x: 20, y: 0), radius: 5, startAngle: .pi, endAngle: 0, clockwise: true)
        let e = elements(of: p)
        #expect(e[0] == .move(0, 0))
        #expect(e[1].type == .addLineToPoint)
        #expect(close(e[1].points[0], CGPoint(x: 15, y: 0), 1e-12))
        // π → 0 decreasing passes through π/2: the top of the circle in y-up terms.
        #expect(close(e[2].points[2], CGPoint(x: 20, y: 5), 1e-12))
        #expect(close(p.currentPoint, CGPoint(x: 25, y: 0), 1e-12))
    }

    @Test("addRelativeArc: the sign of delta picks the direction")
    func relativeArc() {
        let p = CGMutablePath()
        p.addRelativeArc(center: .zero, radius: 10, startAngle: 0, delta: -.pi / 2)
        #expect(close(p.currentPoint, CGPoint(x: 0, y: -10), 1e-12))
        let q = CGMutablePath()
        q.addRelativeArc(center: .zero, radius: 10, startAngle: .pi, delta: .pi)
        #expect(types(of: q).count == 3)
        #expect(close(q.currentPoint, CGPoint(x: 10, y: 0), 1e-12))
        #expect(close(q.boundingBoxOfPath, CGRect(x: -10, y: -10, width: 20, height: 10), 1e-9))
    }

    @Test("tangent arc: line to the first tangent point, quarter arc to the second")
    func tangentArc() {
        let p = CGMutablePath()
        p.move(to: .zero)
        p.addArc(tangent1End: CGPoint(x: 10, y: 0), tangent2End: CGPoint(x: 10, y: 10), radius: 5)
        let e = elements(of: p)
        #expect(e.map(\.type) == [.moveToPoint, .addLineToPoint, .addCurveToPoint])
        #expect(close(e[1].points[0], CGPoint(x: 5, y: 0), 1e-12))
        #expect(close(e[2].points[0], CGPoint(x: 5 + 5 * kappa, y: 0), 1e-12))
        #expect(close(e[2].points[1], CGPoint(x: 10, y: 5 - 5 * kappa), 1e-12))
        #expect(e[2].points[2] == CGPoint(x: 10, y: 5))
        #expect(p.currentPoint == CGPoint(x: 10, y: 5))
    }

    @Test("tangent arc turning the other way, and degenerate cases fall back to a line")
    func tangentArcCases() {
        let p = CGMutablePath()
        p.move(to: CGPoint(x: 0, y: 10))
        p.addArc(tangent1End: .zero, tangent2End: CGPoint(x: 10, y: 0), radius: 2)
        #expect(close(p.currentPoint, CGPoint(x: 2, y: 0), 1e-12))
        #expect(close(p.boundingBoxOfPath, CGRect(x: 0, y: 0, width: 2, height: 10), 1e-9))

        let collinear = CGMutablePath()
        collinear.move(to: .zero)
        collinear.addArc(tangent1End: CGPoint(x: 5, y: 0), tangent2End: CGPoint(x: 9, y: 0), radius: 3)
        #expect(elements(of: collinear) == [.move(0, 0), .line(5, 0)])

        let zeroRadius = CGMutablePath()
        zeroRadius.move(to: .zero)
        zeroRadius.addArc(tangent1End: CGPoint(x: 5, y: 0), tangent2End: CGPoint(x: 5, y: 5), radius: 0)
        #expect(elements(of: zeroRadius) == [.move(0, 0), .line(5, 0)])

        let noCurrent = CGMutablePath()
        noCurrent.addArc(tangent1End: CGPoint(x: 5, y: 0), tangent2End: CGPoint(x: 5, y: 5), radius: 1)
        #expect(noCurrent.isEmpty)
    }

    @Test("a tangent arc with a transform is built in user space, then mapped")
    func tangentArcTransform() {
        let t = CGAffineTransform(scaleX: 2, y: 2)
        let p = CGMutablePath()
        p.move(to: .zero, transform: t)
        p.addArc(tangent1End: CGPoint(x: 10, y: 0), tangent2End: CGPoint(x: 10, y: 10), radius: 5, transform: t)
        #expect(close(p.currentPoint, CGPoint(x: 20, y: 10), 1e-12))
        #expect(close(elements(of: p)[1].points[0], CGPoint(x: 10, y: 0), 1e-12))
    }

    @Test("negative or non-finite radius adds nothing; radius 0 adds only the point")
    func badRadius() {
        let p = CGMutablePath()
        p.addArc(center: .zero, radius: -1, startAngle: 0, endAngle: 1, clockwise: false)
        p.addArc(center: .zero, radius: .infinity, startAngle: 0, endAngle: 1, clockwise: false)
        p.addRelativeArc(center: .zero, radius: -3, startAngle: 0, delta: 1)
        #expect(p.isEmpty)
        p.addArc(center: CGPoint(x: 4, y: 4), radius: 0, startAngle: 0, endAngle: 3, clockwise: false)
        #expect(elements(of: p) == [.move(4, 4)])
    }
}
