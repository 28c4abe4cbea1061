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

    /// The points of a path's first arc, sampled on each cubic: where the circle is covered.
    static func coveredAngles(_ p: CGPath, center: CGPoint = .zero) -> [Double] {
        var out: [Double] = []
        var cur = CGPoint.zero
        for e in elements(of: p) {
            switch e.type {
            case .moveToPoint, .addLineToPoint: cur = e.points[0]
            case .addCurveToPoint:
                for i in 0...8 {
                    let t = Double(i) / 8, u = 1 - t
                    let a = cur, b = e.points[0], c = e.points[1], d = e.points[2]
                    let x = u * u * u * a.x + 3 * u * u * t * b.x + 3 * u * t * t * c.x + t * t * t * d.x
                    let y = u * u * u * a.y + 3 * u * u * t * b.y + 3 * u * t * t * c.y + t * t * t * d.y
                    let ang = atan2(y - center.y, x - center.x)
                    out.append(ang < 0 ? ang + 2 * .pi : ang)
                }
                cur = e.points[2]
            default: break
            }
        }
        return out
    }

    /// Whether the arc's samples (eight steps per ≤ 90° cubic) leave no gap wider than 15°.
    static func coversWholeCircle(_ p: CGPath) -> Bool {
        let a = coveredAngles(p).sorted()
        guard let first = a.first, let last = a.last else { return false }
        let gaps = zip(a, a.dropFirst()).map { $1 - $0 } + [first + 2 * .pi - last]
        return gaps.allSatisfy { $0 < 15 * .pi / 180 }
    }

    /// Issue 18, cause 3: the iOS circle idiom `UIBezierPath(arcCenter:…, startAngle: 0,
    /// endAngle: 2π, clockwise: false)` is this call in Core Graphics' y-up terms, and Apple
    /// draws the whole circle (CGPathAddArc; CGContext.addArc(center:…)).
    @Test("issue 18.3: angles a whole turn apart draw the full circle in either direction (path spelling)")
    func fullCircleBothDirections() {
        for clockwise in [false, true] {
            for (start, end) in [(0.0, 2 * Double.pi), (2 * Double.pi, 0), (-Double.pi / 2, 3 * Double.pi / 2),
                                 (3 * Double.pi / 2, -Double.pi / 2), (0, 4 * Double.pi), (0, -2 * Double.pi)] {
                let p = CGMutablePath()
                p.addArc(center: .zero, radius: 10, startAngle: start, endAngle: end, clockwise: clockwise)
                #expect(types(of: p).count == 5, "clockwise \(clockwise), \(start) → \(end)")
                #expect(close(p.currentPoint, CGPoint(x: 10 * cos(start), y: 10 * sin(start)), 1e-9))
                #expect(Self.coversWholeCircle(p), "clockwise \(clockwise), \(start) → \(end)")
                #expect(close(p.boundingBox, CGRect(x: -10, y: -10, width: 20, height: 20), 1e-9))
            }
        }
        // The direction of travel is kept: clockwise: true goes toward decreasing angles.
        let cw = CGMutablePath()
        cw.addArc(center: .zero, radius: 10, startAngle: 0, endAngle: 2 * .pi, clockwise: true)
        #expect(close(elements(of: cw)[1].points[2], CGPoint(x: 0, y: -10), 1e-9))
        let ccw = CGMutablePath()
        ccw.addArc(center: .zero, radius: 10, startAngle: 0, endAngle: 2 * .pi, clockwise: false)
        #expect(close(elements(of: ccw)[1].points[2], CGPoint(x: 0, y: 10), 1e-9))
        // Angles that are not a whole turn apart keep their partial arcs.
        let part = CGMutablePath()
        part.addArc(center: .zero, radius: 10, startAngle: 0, endAngle: 2 * .pi - 0.5, clockwise: true)
        #expect(types(of: part).count == 2)
    }

    @Test("issue 18.3: the context spelling draws the same full circles, and addRelativeArc with ±2π")
    func fullCircleContextAndRelative() {
        for clockwise in [false, true] {
            let ctx = CGContext()
            ctx.beginPath()
            ctx.addArc(center: CGPoint(x: 5, y: 5), radius: 10, startAngle: 0, endAngle: 2 * .pi, clockwise: clockwise)
            let p = CGMutablePath()
            p.addArc(center: CGPoint(x: 5, y: 5), radius: 10, startAngle: 0, endAngle: 2 * .pi, clockwise: clockwise)
            #expect(ctx.path == p)
            #expect(!ctx.isPathEmpty)
            #expect(close(ctx.boundingBoxOfPath, CGRect(x: -5, y: -5, width: 20, height: 20), 1e-9))
        }
        for delta in [2 * Double.pi, -2 * Double.pi] {
            let p = CGMutablePath()
            p.addRelativeArc(center: .zero, radius: 10, startAngle: 0, delta: delta)
            #expect(types(of: p).count == 5)
            #expect(Self.coversWholeCircle(p))
            let ctx = CGContext()
            ctx.addRelativeArc(center: .zero, radius: 10, startAngle: 0, delta: delta)
            #expect(ctx.path == p)
        }
        let empty = CGContext()
        #expect(empty.path == nil && empty.isPathEmpty)
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
