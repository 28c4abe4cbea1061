import Testing
import CATestSupport

func elements(_ path: UIBezierPath) -> [Element] { elements(of: path.cgPath) }
func elements(_ path: CGPath) -> [Element] { elements(of: path) }

func near(_ a: CGPoint?, _ b: CGPoint, _ eps: CGFloat = 1e-9) -> Bool {
    guard let a else { return false }
    return abs(a.x - b.x) <= eps && abs(a.y - b.y) <= eps
}

/// `UIBezierPath`: UIKit's arc direction, the shapes its initialisers build, and its methods.
@Suite struct UIBezierPathTests {
    let c = CGPoint(x: 50, y: 50)

    @Test("clockwise: true sweeps toward increasing angles (clockwise on a y-down screen)")
    func arcClockwiseTrue() {
        let p = UIBezierPath(arcCenter: c, radius: 10, startAngle: 0, endAngle: .pi / 2, clockwise: true)
        let e = elements(p)
        #expect(e.count == 2, "\(e)")
        #expect(e[0].type == .moveToPoint && near(e[0].end, CGPoint(x: 60, y: 50)))
        #expect(e[1].type == .addCurveToPoint && near(e[1].end, CGPoint(x: 50, y: 60)), "ends below the centre")
        // Same points as Core Graphics' clockwise: false.
        let cg = CGMutablePath()
        cg.addArc(center: c, radius: 10, startAngle: 0, endAngle: .pi / 2, clockwise: false)
        #expect(p.cgPath == cg)
    }

    @Test("clockwise: false sweeps toward decreasing angles: 0 → π/2 is three quarters round")
    func arcClockwiseFalse() {
        let p = UIBezierPath(arcCenter: c, radius: 10, startAngle: 0, endAngle: .pi / 2, clockwise: false)
        let e = elements(p)
        #expect(e.count == 4, "\(e)")
        #expect(near(e[0].end, CGPoint(x: 60, y: 50)))
        #expect(near(e[1].end, CGPoint(x: 50, y: 40), 1e-9), "first passes above the centre (−π/2)")
        #expect(near(e[2].end, CGPoint(x: 40, y: 50), 1e-9))
        #expect(near(e[3].end, CGPoint(x: 50, y: 60), 1e-9))
    }

    @Test("Full circle 0 → 2π, clockwise: true: four quarter cubics toward increasing angles")
    func fullCircleClockwiseTrue() {
        let p = UIBezierPath(arcCenter: c, radius: 10, startAngle: 0, endAngle: 2 * .pi, clockwise: true)
        let e = elements(p)
        #expect(e.count == 5, "\(e)")
        #expect(e.dropFirst().allSatisfy { $0.type == .addCurveToPoint })
        if e.count == 5 {
            #expect(near(e[1].end, CGPoint(x: 50, y: 60), 1e-9))
            #expect(near(e[4].end, CGPoint(x: 60, y: 50), 1e-9), "back to the start")
        }
        #expect(near(CGPoint(x: p.bounds.width, y: p.bounds.height), CGPoint(x: 20, y: 20), 1e-9))
    }

    @Test("Full circle 0 → 2π, clockwise: false (the loading-indicator idiom): a whole circle toward decreasing angles")
    func fullCircleClockwiseFalse() {
        let p = UIBezierPath(arcCenter: c, radius: 10, startAngle: 0, endAngle: 2 * .pi, clockwise: false)
        let e = elements(p)
        #expect(e.count == 5, "a whole circle, not a single point: \(e)")
        if e.count == 5 {
            #expect(near(e[1].end, CGPoint(x: 50, y: 40), 1e-9), "first quarter goes above the centre")
            #expect(near(e[4].end, CGPoint(x: 60, y: 50), 1e-9))
        }
        #expect(p.contains(c))
    }

    @Test("addArc joins the current point with a line, as UIKit")
    func arcAfterMove() {
        let p = UIBezierPath()
        p.move(to: .zero)
        p.addArc(withCenter: c, radius: 10, startAngle: .pi, endAngle: 3 * .pi / 2, clockwise: true)
        let e = elements(p)
        #expect(e.map(\.type) == [.moveToPoint, .addLineToPoint, .addCurveToPoint])
        #expect(near(e[1].end, CGPoint(x: 40, y: 50)))
        #expect(near(e[2].end, CGPoint(x: 50, y: 40), 1e-9))
        #expect(near(p.currentPoint, CGPoint(x: 50, y: 40), 1e-9))
    }

    @Test("init(rect:) and init(ovalIn:) are closed, clockwise on a y-down screen")
    func rectAndOval() {
        let r = CGRect(x: 10, y: 20, width: 30, height: 40)
        let e = elements(UIBezierPath(rect: r))
        #expect(e.map(\.type) == [.moveToPoint, .addLineToPoint, .addLineToPoint, .addLineToPoint, .closeSubpath])
        #expect(e.compactMap(\.end) == [CGPoint(x: 10, y: 20), CGPoint(x: 40, y: 20), CGPoint(x: 40, y: 60), CGPoint(x: 10, y: 60)])
        let oval = UIBezierPath(ovalIn: r)
        let o = elements(oval)
        #expect(o.map(\.type) == [.moveToPoint] + Array(repeating: .addCurveToPoint, count: 4) + [.closeSubpath])
        #expect(near(o[0].end, CGPoint(x: 40, y: 40)) && near(o[1].end, CGPoint(x: 25, y: 60)), "right, then bottom")
        #expect(oval.bounds == r)
        #expect(oval.contains(CGPoint(x: 25, y: 40)) && !oval.contains(CGPoint(x: 11, y: 21)))
    }

    @Test("init(roundedRect:cornerRadius:): quarter-circle corners, top edge first, clockwise")
    func roundedRect() {
        let r = CGRect(x: 0, y: 0, width: 100, height: 60)
        let p = UIBezierPath(roundedRect: r, cornerRadius: 10)
        let e = elements(p)
        #expect(e.map(\.type) == [.moveToPoint,
                                  .addLineToPoint, .addCurveToPoint, .addLineToPoint, .addCurveToPoint,
                                  .addLineToPoint, .addCurveToPoint, .addLineToPoint, .addCurveToPoint, .closeSubpath], "\(e)")
        let ends: [CGPoint] = [CGPoint(x: 10, y: 0), CGPoint(x: 90, y: 0), CGPoint(x: 100, y: 10), CGPoint(x: 100, y: 50),
                               CGPoint(x: 90, y: 60), CGPoint(x: 10, y: 60), CGPoint(x: 0, y: 50), CGPoint(x: 0, y: 10), CGPoint(x: 10, y: 0)]
        for (el, end) in zip(e, ends) { #expect(near(el.end, end, 1e-9), "\(el)") }
        #expect(p.bounds == r)
        #expect(p.contains(CGPoint(x: 50, y: 30)))
        #expect(!p.contains(CGPoint(x: 1, y: 1)), "the corner is cut")
        #expect(p.contains(CGPoint(x: 5, y: 5)), "inside the quarter circle")
    }

    @Test("A corner radius above half the shorter side is clamped: a capsule, no zero-length lines")
    func roundedRectClamped() {
        let r = CGRect(x: 0, y: 0, width: 100, height: 40)
        let e = elements(UIBezierPath(roundedRect: r, cornerRadius: 500))
        #expect(e.map(\.type) == [.moveToPoint,
                                  .addLineToPoint, .addCurveToPoint, .addCurveToPoint,
                                  .addLineToPoint, .addCurveToPoint, .addCurveToPoint, .closeSubpath], "\(e)")
        #expect(near(e[0].end, CGPoint(x: 20, y: 0)))
        let circle = elements(UIBezierPath(roundedRect: CGRect(x: 0, y: 0, width: 40, height: 40), cornerRadius: 20))
        #expect(circle.filter { $0.type == .addLineToPoint }.isEmpty, "a square with radius half its side is a circle")
        #expect(elements(UIBezierPath(roundedRect: r, cornerRadius: 0)).filter { $0.type == .addCurveToPoint }.isEmpty)
    }

    @Test("byRoundingCorners rounds only the named corners (y-down: top = min y)")
    func byRoundingCorners() {
        let r = CGRect(x: 0, y: 0, width: 100, height: 60)
        let p = UIBezierPath(roundedRect: r, byRoundingCorners: [.topLeft, .bottomRight], cornerRadii: CGSize(width: 20, height: 20))
        #expect(elements(p).filter { $0.type == .addCurveToPoint }.count == 2)
        #expect(!p.contains(CGPoint(x: 1, y: 1)), "top-left rounded")
        #expect(p.contains(CGPoint(x: 99, y: 1)), "top-right square")
        #expect(p.contains(CGPoint(x: 1, y: 59)), "bottom-left square")
        #expect(!p.contains(CGPoint(x: 99, y: 59)), "bottom-right rounded")
        let all = UIBezierPath(roundedRect: r, byRoundingCorners: .allCorners, cornerRadii: CGSize(width: 10, height: 10))
        #expect(all.cgPath == UIBezierPath(roundedRect: r, cornerRadius: 10).cgPath)
        let none = UIBezierPath(roundedRect: r, byRoundingCorners: [], cornerRadii: CGSize(width: 10, height: 10))
        #expect(elements(none).filter { $0.type == .addCurveToPoint }.isEmpty)
        #expect(none.contains(CGPoint(x: 0.5, y: 0.5)))
    }

    @Test("Lines, curves, close, currentPoint, isEmpty, bounds with control points")
    func building() {
        let p = UIBezierPath()
        #expect(p.isEmpty && p.currentPoint == .zero)
        p.move(to: CGPoint(x: 0, y: 0))
        #expect(!p.isEmpty, "a lone move makes the path non-empty")
        p.addLine(to: CGPoint(x: 10, y: 0))
        p.addQuadCurve(to: CGPoint(x: 20, y: 0), controlPoint: CGPoint(x: 15, y: -10))
        p.addCurve(to: CGPoint(x: 30, y: 0), controlPoint1: CGPoint(x: 22, y: 30), controlPoint2: CGPoint(x: 28, y: 5))
        #expect(p.currentPoint == CGPoint(x: 30, y: 0))
        #expect(p.bounds == CGRect(x: 0, y: -10, width: 30, height: 40), "control points count")
        p.close()
        #expect(p.currentPoint == .zero)
        #expect(elements(p).map(\.type) == [.moveToPoint, .addLineToPoint, .addQuadCurveToPoint, .addCurveToPoint, .closeSubpath])
        p.removeAllPoints()
        #expect(p.isEmpty)
    }

    @Test("reversing() reverses each subpath, swaps control points, keeps closes and attributes")
    func reversing() {
        let p = UIBezierPath()
        p.move(to: CGPoint(x: 0, y: 0))
        p.addLine(to: CGPoint(x: 10, y: 0))
        p.addCurve(to: CGPoint(x: 20, y: 10), controlPoint1: CGPoint(x: 12, y: 1), controlPoint2: CGPoint(x: 18, y: 2))
        p.move(to: CGPoint(x: 100, y: 100))
        p.addLine(to: CGPoint(x: 110, y: 100))
        p.addQuadCurve(to: CGPoint(x: 110, y: 110), controlPoint: CGPoint(x: 120, y: 105))
        p.close()
        p.lineWidth = 7
        let r = p.reversing()
        #expect(r.lineWidth == 7)
        #expect(elements(r) == [
            Element(type: .moveToPoint, points: [CGPoint(x: 20, y: 10)]),
            Element(type: .addCurveToPoint, points: [CGPoint(x: 18, y: 2), CGPoint(x: 12, y: 1), CGPoint(x: 10, y: 0)]),
            Element(type: .addLineToPoint, points: [CGPoint(x: 0, y: 0)]),
            Element(type: .moveToPoint, points: [CGPoint(x: 110, y: 110)]),
            Element(type: .addQuadCurveToPoint, points: [CGPoint(x: 120, y: 105), CGPoint(x: 110, y: 100)]),
            Element(type: .addLineToPoint, points: [CGPoint(x: 100, y: 100)]),
            Element(type: .closeSubpath, points: []),
        ])
        #expect(r.reversing().cgPath == p.cgPath, "reversing twice gives the path back")
        // A reversed circle goes the other way round.
        let circle = UIBezierPath(arcCenter: c, radius: 10, startAngle: 0, endAngle: 2 * .pi, clockwise: true)
        let back = elements(circle.reversing())
        #expect(near(back[1].end, CGPoint(x: 50, y: 40), 1e-9))
    }

    @Test("append, apply, init(cgPath:), cgPath setter copy")
    func appendApplyCopy() {
        let a = UIBezierPath(rect: CGRect(x: 0, y: 0, width: 10, height: 10))
        let b = UIBezierPath(ovalIn: CGRect(x: 20, y: 0, width: 10, height: 10))
        a.append(b)
        #expect(a.bounds == CGRect(x: 0, y: 0, width: 30, height: 10))
        a.apply(CGAffineTransform(translationX: 5, y: 7))
        #expect(a.bounds == CGRect(x: 5, y: 7, width: 30, height: 10))
        let cg = CGMutablePath()
        cg.addRect(CGRect(x: 1, y: 2, width: 3, height: 4))
        let fromCG = UIBezierPath(cgPath: cg)
        cg.addRect(CGRect(x: 100, y: 100, width: 1, height: 1))
        #expect(fromCG.bounds == CGRect(x: 1, y: 2, width: 3, height: 4), "a copy, not the caller's path")
        let d = UIBezierPath()
        d.cgPath = fromCG.cgPath
        #expect(d.cgPath == fromCG.cgPath)
        let copy = fromCG.copy() as! UIBezierPath
        copy.apply(CGAffineTransform(scaleX: 2, y: 2))
        #expect(fromCG.bounds.width == 3 && copy.bounds.width == 6)
    }

    @Test("Stroke attributes have UIKit's defaults; line dash round-trips")
    func attributes() {
        let p = UIBezierPath()
        #expect(p.lineWidth == 1 && p.lineCapStyle == .butt && p.lineJoinStyle == .miter)
        #expect(p.miterLimit == 10 && p.flatness == 0.6 && !p.usesEvenOddFillRule)
        let dashes: [CGFloat] = [4, 2, 1]
        p.setLineDash(dashes, count: 3, phase: 1.5)
        var count = 0
        p.getLineDash(nil, count: &count, phase: nil)
        #expect(count == 3)
        var back = [CGFloat](repeating: 0, count: count)
        var phase: CGFloat = 0
        p.getLineDash(&back, count: &count, phase: &phase)
        #expect(back == dashes && phase == 1.5)
        p.setLineDash(nil, count: 0, phase: 0)
        p.getLineDash(nil, count: &count, phase: nil)
        #expect(count == 0)
    }

    @Test("contains(_:) follows usesEvenOddFillRule")
    func containsFillRule() {
        let p = UIBezierPath(rect: CGRect(x: 0, y: 0, width: 100, height: 100))
        p.append(UIBezierPath(rect: CGRect(x: 25, y: 25, width: 50, height: 50)))
        #expect(p.contains(CGPoint(x: 50, y: 50)))
        p.usesEvenOddFillRule = true
        #expect(!p.contains(CGPoint(x: 50, y: 50)), "the hole")
        #expect(p.contains(CGPoint(x: 10, y: 10)))
    }

    @Test("fill() and stroke() draw nothing and say so")
    func drawingWarns() {
        let (_, w) = CompatDiagnostics.capture {
            UIBezierPath(rect: .zero).fill()
            UIBezierPath(rect: .zero).stroke()
        }
        #expect(w.contains { $0.contains("UIBezierPath.fill()") })
        #expect(w.contains { $0.contains("UIBezierPath.stroke()") })
    }
}
