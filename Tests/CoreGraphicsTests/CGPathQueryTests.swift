import Testing

struct CGPathQueryTests {
    @Test("currentPoint: .zero when empty, last end point, subpath start after close")
    func currentPoint() {
        let p = CGMutablePath()
        #expect(p.currentPoint == .zero)
        #expect(p.isEmpty)
        p.move(to: CGPoint(x: 3, y: 4))
        #expect(!p.isEmpty)
        #expect(p.currentPoint == CGPoint(x: 3, y: 4))
        p.addQuadCurve(to: CGPoint(x: 9, y: 1), control: CGPoint(x: 6, y: 8))
        #expect(p.currentPoint == CGPoint(x: 9, y: 1))
        p.closeSubpath()
        #expect(p.currentPoint == CGPoint(x: 3, y: 4))
    }

    @Test("boundingBox includes control points; boundingBoxOfPath only the curve (cubic)")
    func cubicBounds() {
        let p = CGMutablePath()
        p.move(to: .zero)
        p.addCurve(to: CGPoint(x: 100, y: 0), control1: CGPoint(x: 0, y: 100), control2: CGPoint(x: 100, y: 100))
        #expect(p.boundingBox == CGRect(x: 0, y: 0, width: 100, height: 100))
        // y(t) = 300·t·(1 − t): peak 75 at t = ½.
        #expect(close(p.boundingBoxOfPath, CGRect(x: 0, y: 0, width: 100, height: 75), 1e-12))
    }

    @Test("boundingBoxOfPath finds quadratic extrema and x extrema of an S-curve")
    func quadAndSCurveBounds() {
        let q = CGMutablePath()
        q.move(to: .zero)
        q.addQuadCurve(to: CGPoint(x: 10, y: 0), control: CGPoint(x: 5, y: 10))
        #expect(q.boundingBox == CGRect(x: 0, y: 0, width: 10, height: 10))
        #expect(close(q.boundingBoxOfPath, CGRect(x: 0, y: 0, width: 10, height: 5), 1e-12))

        // Control points (10,0), (−10,10) bulge to both sides: x(t) = 30·t·(1−t)·(1−2t).
        let s = CGMutablePath()
        s.move(to: .zero)
        s.addCurve(to: CGPoint(x: 0, y: 10), control1: CGPoint(x: 10, y: 0), control2: CGPoint(x: -10, y: 10))
        let tight = s.boundingBoxOfPath
        // Extrema at t = ½ ∓ √3/6, where x = ±30·(¼ − 1/12)·(√3/3) = ±2.886751…
        let ext = 30 * (0.5 - 3.0.squareRoot() / 6) * (0.5 + 3.0.squareRoot() / 6) * (3.0.squareRoot() / 3)
        #expect(close(tight.maxX, ext, 1e-9))
        #expect(close(tight.minX, -ext, 1e-9))
        #expect(tight.minY == 0 && tight.maxY == 10)
        #expect(s.boundingBox.minX == -10 && s.boundingBox.maxX == 10)
    }

    @Test("empty path bounds are CGRect.null")
    func emptyBounds() {
        #expect(CGMutablePath().boundingBox.isNull)
        #expect(CGMutablePath().boundingBoxOfPath.isNull)
    }

    @Test("isRect: true for rect paths (reporting the rect), false for other shapes")
    func isRect() {
        var r = CGRect.zero
        #expect(CGPath(rect: CGRect(x: 1, y: 2, width: 30, height: 40), transform: nil).isRect(&r))
        #expect(r == CGRect(x: 1, y: 2, width: 30, height: 40))

        let hand = CGMutablePath()
        hand.addLines(between: [CGPoint(x: 5, y: 5), CGPoint(x: 5, y: 0), CGPoint(x: 0, y: 0),
                                CGPoint(x: 0, y: 5), CGPoint(x: 5, y: 5)])
        #expect(hand.isRect(&r))
        #expect(r == CGRect(x: 0, y: 0, width: 5, height: 5))

        let open = CGMutablePath()
        open.addLines(between: [.zero, CGPoint(x: 5, y: 0), CGPoint(x: 5, y: 5), CGPoint(x: 0, y: 5)])
        #expect(!open.isRect(nil))
        var rotation = CGAffineTransform(rotationAngle: .pi / 4)
        #expect(!CGPath(rect: CGRect(x: 0, y: 0, width: 5, height: 5), transform: &rotation).isRect(nil))
        #expect(!CGPath(roundedRect: CGRect(x: 0, y: 0, width: 5, height: 5), cornerWidth: 1, cornerHeight: 1,
                        transform: nil).isRect(nil))
        let two = CGMutablePath()
        two.addRects([CGRect(x: 0, y: 0, width: 1, height: 1), CGRect(x: 2, y: 0, width: 1, height: 1)])
        #expect(!two.isRect(nil))
        #expect(!CGMutablePath().isRect(nil))
    }

    /// A pentagram drawn by joining every second vertex of a regular pentagon.
    func star() -> CGPath {
        let p = CGMutablePath()
        let pts = (0..<5).map { i -> CGPoint in
            let a = CGFloat.pi / 2 + CGFloat(i) * 4 * .pi / 5
            return CGPoint(x: 100 * cos(a), y: 100 * sin(a))
        }
        p.addLines(between: pts)
        p.closeSubpath()
        return p
    }

    @Test("contains on a self-intersecting star: the centre is in for winding, out for even-odd")
    func starFillRules() {
        let s = star()
        #expect(s.contains(.zero, using: .winding))
        #expect(!s.contains(.zero, using: .evenOdd))
        #expect(s.contains(.zero))                               // default rule is winding
        #expect(s.contains(CGPoint(x: 0, y: 80), using: .winding))  // inside the top tip
        #expect(s.contains(CGPoint(x: 0, y: 80), using: .evenOdd))
        #expect(!s.contains(CGPoint(x: 0, y: -60), using: .winding)) // between the two lower tips
        #expect(!s.contains(CGPoint(x: 0, y: -60), using: .evenOdd))
    }

    @Test("contains on a ring: same-direction circles need even-odd, a reversed inner circle cuts a hole")
    func ringFillRules() {
        let sameDirection = CGMutablePath()
        sameDirection.addEllipse(in: CGRect(x: 0, y: 0, width: 100, height: 100))
        sameDirection.addEllipse(in: CGRect(x: 25, y: 25, width: 50, height: 50))
        #expect(sameDirection.contains(CGPoint(x: 50, y: 50), using: .winding))
        #expect(!sameDirection.contains(CGPoint(x: 50, y: 50), using: .evenOdd))
        #expect(sameDirection.contains(CGPoint(x: 10, y: 50), using: .evenOdd))

        let reversed = CGMutablePath()
        reversed.addEllipse(in: CGRect(x: 0, y: 0, width: 100, height: 100))
        reversed.move(to: CGPoint(x: 75, y: 50))
        reversed.addRelativeArc(center: CGPoint(x: 50, y: 50), radius: 25, startAngle: 0, delta: -2 * .pi)
        #expect(!reversed.contains(CGPoint(x: 50, y: 50), using: .winding))
        #expect(reversed.contains(CGPoint(x: 10, y: 50), using: .winding))
        #expect(reversed.contains(CGPoint(x: 50, y: 90)))
        #expect(!reversed.contains(CGPoint(x: 101, y: 50)))
    }

    @Test("contains follows curves, closes open subpaths, and honours the transform")
    func containsDetails() {
        let circle = CGPath(ellipseIn: CGRect(x: 0, y: 0, width: 100, height: 100), transform: nil)
        #expect(circle.contains(CGPoint(x: 50, y: 99)))
        #expect(!circle.contains(CGPoint(x: 50, y: 100.5)))
        #expect(!circle.contains(CGPoint(x: 5, y: 5)))        // inside the box, outside the circle
        #expect(circle.contains(CGPoint(x: 15.5, y: 15.5)))   // just inside (distance 48.8)

        let triangle = CGMutablePath()   // never closed: filled as if it were
        triangle.addLines(between: [.zero, CGPoint(x: 10, y: 0), CGPoint(x: 0, y: 10)])
        #expect(triangle.contains(CGPoint(x: 2, y: 2)))
        #expect(!triangle.contains(CGPoint(x: 6, y: 6)))

        let square = CGPath(rect: CGRect(x: 0, y: 0, width: 10, height: 10), transform: nil)
        let shift = CGAffineTransform(translationX: 100, y: 0)
        #expect(square.contains(CGPoint(x: 105, y: 5), transform: shift))
        #expect(!square.contains(CGPoint(x: 5, y: 5), transform: shift))
        #expect(!square.contains(CGPoint(x: CGFloat.nan, y: 5)))
        #expect(!CGMutablePath().contains(.zero))
    }

    @Test("applyWithBlock reports every element with Apple's point counts")
    func applyWithBlock() {
        let p = CGMutablePath()
        p.move(to: .zero)
        p.addQuadCurve(to: CGPoint(x: 2, y: 0), control: CGPoint(x: 1, y: 1))
        p.addCurve(to: CGPoint(x: 5, y: 0), control1: CGPoint(x: 3, y: 1), control2: CGPoint(x: 4, y: -1))
        p.closeSubpath()
        var seen: [CGPathElementType] = []
        var lastCurvePoints: [CGPoint] = []
        p.applyWithBlock { e in
            seen.append(e.pointee.type)
            if e.pointee.type == .addCurveToPoint {
                lastCurvePoints = [e.pointee.points[0], e.pointee.points[1], e.pointee.points[2]]
            }
        }
        #expect(seen == [.moveToPoint, .addQuadCurveToPoint, .addCurveToPoint, .closeSubpath])
        #expect(lastCurvePoints == [CGPoint(x: 3, y: 1), CGPoint(x: 4, y: -1), CGPoint(x: 5, y: 0)])
    }
}
