import Testing
import Foundation

/// CAShapeLayer rendering (issue 6). Expected values come from the geometry: a pixel's value is
/// its covered area (exact-area antialiasing), black paint over white gives 255·(1 − coverage).
/// Layer space is y down, one point per pixel unless a test scales.
@Suite struct ShapeLayerTests {
    static let black = CGColor(red: 0, green: 0, blue: 0, alpha: 1)

    /// A `w × h` root holding one shape layer covering it, configured by `configure`.
    static func scene(_ w: CGFloat = 100, _ h: CGFloat = 100, _ configure: (CAShapeLayer) -> Void) -> CALayer {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: w, height: h)
        let s = CAShapeLayer()
        s.frame = root.bounds
        configure(s)
        root.addSublayer(s)
        return root
    }

    static func render(_ root: CALayer, scale: CGFloat = 1) throws -> CGImage {
        try RenderHarness.render(root, size: root.bounds.size, scale: scale)
    }

    /// Red channel: 255 white … 0 black.
    static func v(_ img: CGImage, _ x: Int, _ y: Int) -> Int { img.rgba(x, y).r }

    static func polygon(_ pts: [(CGFloat, CGFloat)], close: Bool = true) -> CGPath {
        let p = CGMutablePath()
        p.move(to: CGPoint(x: pts[0].0, y: pts[0].1))
        for q in pts.dropFirst() { p.addLine(to: CGPoint(x: q.0, y: q.1)) }
        if close { p.closeSubpath() }
        return p
    }

    static func line(_ x0: CGFloat, _ y0: CGFloat, _ x1: CGFloat, _ y1: CGFloat) -> CGPath {
        polygon([(x0, y0), (x1, y1)], close: false)
    }

    /// A stroke-only layer: black, `width` wide.
    static func stroked(_ path: CGPath, width: CGFloat, _ more: @escaping (CAShapeLayer) -> Void = { _ in }) -> CALayer {
        scene { s in
            s.path = path
            s.fillColor = nil
            s.strokeColor = black
            s.lineWidth = width
            more(s)
        }
    }

    static func pentagram(center c: CGPoint, radius r: CGFloat) -> CGPath {
        let p = CGMutablePath()
        for i in 0..<5 {
            let a = Double(i) * 4 * Double.pi / 5 - Double.pi / 2
            let q = CGPoint(x: c.x + r * cos(a), y: c.y + r * sin(a))
            if i == 0 { p.move(to: q) } else { p.addLine(to: q) }
        }
        p.closeSubpath()
        return p
    }

    // MARK: Fills

    @Test func fillCoverageIsTheCoveredArea() throws {
        // Left edge at x = 10.25: pixel 10 is 3/4 covered → 255·(1 − 0.75) ≈ 64; the right edge at
        // 30.75 leaves pixel 30 3/4 covered too.
        let img = try Self.render(Self.scene { $0.path = Self.polygon([(10.25, 10), (30.75, 10), (30.75, 30), (10.25, 30)]) })
        #expect(abs(Self.v(img, 10, 20) - 64) <= 2)
        #expect(abs(Self.v(img, 30, 20) - 64) <= 2)
        #expect(Self.v(img, 20, 20) == 0)
        #expect(Self.v(img, 9, 20) == 255)
        #expect(Self.v(img, 31, 20) == 255)
        // A 45° edge through a pixel's diagonal covers half of it.
        let tri = try Self.render(Self.scene { $0.path = Self.polygon([(0, 0), (40, 0), (0, 40)]) })
        #expect(abs(Self.v(tri, 19, 20) - 128) <= 2)
        #expect(Self.v(tri, 10, 10) == 0)
        #expect(Self.v(tri, 30, 30) == 255)
    }

    @Test func evenOddLeavesTheHoleEmptyNonZeroFillsIt() throws {
        // Two squares wound the same way: winding 2 inside the inner one.
        let p = CGMutablePath()
        p.addPath(Self.polygon([(10, 10), (90, 10), (90, 90), (10, 90)]))
        p.addPath(Self.polygon([(30, 30), (70, 30), (70, 70), (30, 70)]))
        let nonZero = try Self.render(Self.scene { $0.path = p })
        let evenOdd = try Self.render(Self.scene { $0.path = p; $0.fillRule = .evenOdd })
        #expect(Self.v(nonZero, 50, 50) == 0)
        #expect(Self.v(evenOdd, 50, 50) == 255)
        #expect(Self.v(nonZero, 20, 20) == 0 && Self.v(evenOdd, 20, 20) == 0)
        // An inner square wound the other way is a hole under both rules.
        let q = CGMutablePath()
        q.addPath(Self.polygon([(10, 10), (90, 10), (90, 90), (10, 90)]))
        q.addPath(Self.polygon([(30, 30), (30, 70), (70, 70), (70, 30)]))
        #expect(Self.v(try Self.render(Self.scene { $0.path = q }), 50, 50) == 255)
    }

    @Test func selfIntersectingStarFollowsTheFillRule() throws {
        let star = Self.pentagram(center: CGPoint(x: 50, y: 50), radius: 45)
        let nonZero = try Self.render(Self.scene { $0.path = star })
        let evenOdd = try Self.render(Self.scene { $0.path = star; $0.fillRule = .evenOdd })
        #expect(Self.v(nonZero, 50, 52) == 0)      // the inner pentagon has winding 2
        #expect(Self.v(evenOdd, 50, 52) == 255)
        #expect(Self.v(nonZero, 50, 12) == 0 && Self.v(evenOdd, 50, 12) == 0)   // the top arm
        #expect(Self.v(nonZero, 5, 5) == 255)
    }

    @Test func manySubpathsFillInOneRaster() throws {
        let p = CGMutablePath()
        for j in 0..<20 { for i in 0..<20 { p.addRect(CGRect(x: i * 5, y: j * 5, width: 3, height: 3)) } }
        let img = try Self.render(Self.scene { $0.path = p })
        var wrong = 0
        for j in 0..<20 {
            for i in 0..<20 {
                if Self.v(img, i * 5 + 1, j * 5 + 1) != 0 { wrong += 1 }
                if Self.v(img, i * 5 + 3, j * 5 + 1) != 255 { wrong += 1 }
            }
        }
        #expect(wrong == 0)
    }

    // MARK: Strokes

    @Test func capsExtendByHalfTheLineWidth() throws {
        let l = Self.line(20, 50, 80, 50)
        let butt = try Self.render(Self.stroked(l, width: 10))
        let square = try Self.render(Self.stroked(l, width: 10) { $0.lineCap = .square })
        let round = try Self.render(Self.stroked(l, width: 10) { $0.lineCap = .round })
        // Butt: flush with the end point; the sides at y = 45 and 55.
        #expect(Self.v(butt, 19, 50) == 255 && Self.v(butt, 20, 50) == 0)
        #expect(Self.v(butt, 50, 44) == 255 && Self.v(butt, 50, 45) == 0 && Self.v(butt, 50, 54) == 0 && Self.v(butt, 50, 55) == 255)
        // Square: lineWidth/2 = 5 further, corners included.
        #expect(Self.v(square, 15, 50) == 0 && Self.v(square, 14, 50) == 255)
        #expect(Self.v(square, 15, 45) == 0)
        // Round: a half disc of radius 5 about (20, 50): pixel 16 lies within 4.2, the corner
        // pixel (15, 45) beyond 5.6.
        #expect(Self.v(round, 16, 50) <= 3 && Self.v(round, 14, 50) == 255)
        #expect(Self.v(round, 15, 45) == 255)
    }

    @Test func miterBecomesBevelPastTheMiterLimit() throws {
        // Apex angle φ with cos φ = 0.6: miter length / width = 1/sin(φ/2) = √5 ≈ 2.236, so
        // the tip reaches 5·2.236 = 11.2 above the apex at (50, 20), i.e. to y = 8.8.
        let v = Self.polygon([(20, 80), (50, 20), (80, 80)], close: false)
        let miter = try Self.render(Self.stroked(v, width: 10) { $0.miterLimit = 3 })
        let bevel = try Self.render(Self.stroked(v, width: 10) { $0.miterLimit = 2 })
        let round = try Self.render(Self.stroked(v, width: 10) { $0.lineJoin = .round })
        #expect(Self.v(miter, 49, 11) == 0 && Self.v(miter, 50, 11) == 0)
        #expect(Self.v(miter, 50, 7) == 255)
        // Bevel: cut straight between the outer corners at y = 17.76.
        #expect(Self.v(bevel, 49, 15) == 255 && Self.v(bevel, 49, 19) == 0)
        // Round: a disc of radius 5 about the apex: y = 15.5 is within it, 13.5 is not.
        #expect(Self.v(round, 49, 15) <= 40 && Self.v(round, 49, 13) == 255)
    }

    @Test func dashesAlternateByThePatternAndShiftByThePhase() throws {
        let l = Self.line(0, 50, 100, 50)
        let dashed = try Self.render(Self.stroked(l, width: 4) { $0.lineDashPattern = [10, 10] })
        // On [0,10), off [10,20), on [20,30) …
        #expect(Self.v(dashed, 5, 50) == 0 && Self.v(dashed, 9, 50) == 0)
        #expect(Self.v(dashed, 10, 50) == 255 && Self.v(dashed, 15, 50) == 255)
        #expect(Self.v(dashed, 25, 50) == 0 && Self.v(dashed, 95, 50) == 255)
        // Phase 5 starts 5 into the pattern: on [0,5), off [5,15), on [15,25).
        let phased = try Self.render(Self.stroked(l, width: 4) { $0.lineDashPattern = [10, 10]; $0.lineDashPhase = 5 })
        #expect(Self.v(phased, 2, 50) == 0 && Self.v(phased, 7, 50) == 255 && Self.v(phased, 17, 50) == 0)
        // An odd pattern repeats: [10, 5, 5] paints 10, gaps 5, paints 5, gaps 10, paints 5 …
        let odd = try Self.render(Self.stroked(l, width: 4) { $0.lineDashPattern = [10, 5, 5] })
        #expect(Self.v(odd, 5, 50) == 0 && Self.v(odd, 12, 50) == 255 && Self.v(odd, 17, 50) == 0 && Self.v(odd, 25, 50) == 255)
    }

    @Test func strokeEndOneHalfCoversHalfTheArcLength() throws {
        let l = Self.line(0, 50, 100, 50)
        let half = try Self.render(Self.stroked(l, width: 10) { $0.strokeEnd = 0.5 })
        #expect(Self.v(half, 49, 50) == 0 && Self.v(half, 50, 50) == 255)
        // The cut takes the line cap: round reaches 5 further.
        let rounded = try Self.render(Self.stroked(l, width: 10) { $0.strokeEnd = 0.5; $0.lineCap = .round })
        #expect(Self.v(rounded, 53, 50) <= 3 && Self.v(rounded, 56, 50) == 255)
        let start = try Self.render(Self.stroked(l, width: 10) { $0.strokeStart = 0.25; $0.strokeEnd = 0.75 })
        #expect(Self.v(start, 24, 50) == 255 && Self.v(start, 25, 50) == 0 && Self.v(start, 74, 50) == 0 && Self.v(start, 75, 50) == 255)
        // strokeStart > strokeEnd draws nothing (N3).
        let none = try Self.render(Self.stroked(l, width: 10) { $0.strokeStart = 0.8; $0.strokeEnd = 0.2 })
        #expect(Self.v(none, 50, 50) == 255 && Self.v(none, 10, 50) == 255)
        // A closed circle: CGPath(ellipseIn:) starts at its rightmost point and runs clockwise on
        // screen (y down), so the first half is the lower half.
        let circle = CGPath(ellipseIn: CGRect(x: 20, y: 20, width: 60, height: 60), transform: nil)
        let lower = try Self.render(Self.stroked(circle, width: 6) { $0.strokeEnd = 0.5 })
        #expect(Self.v(lower, 50, 80) == 0 && Self.v(lower, 50, 20) == 255)
        let upper = try Self.render(Self.stroked(circle, width: 6) { $0.strokeStart = 0.5 })
        #expect(Self.v(upper, 50, 80) == 255 && Self.v(upper, 50, 20) == 0)
    }

    @Test func trimsAndDashesCombine() throws {
        // Dashes stay where the pattern puts them along the path; strokeEnd only hides.
        let l = Self.line(0, 50, 100, 50)
        let img = try Self.render(Self.stroked(l, width: 4) { $0.lineDashPattern = [10, 10]; $0.strokeEnd = 0.45 })
        #expect(Self.v(img, 25, 50) == 0 && Self.v(img, 42, 50) == 0 && Self.v(img, 46, 50) == 255 && Self.v(img, 65, 50) == 255)
    }

    @Test func translucentStrokeOverlappingItselfIsBlendedOnce() throws {
        let path = Self.polygon([(10, 10), (90, 90), (90, 10), (10, 90)], close: false)
        let img = try Self.render(Self.stroked(path, width: 10) { $0.strokeColor = CGColor(red: 0, green: 0, blue: 0, alpha: 0.5) })
        // Half-transparent black over white is 127.5 where it crosses itself and on a single pass.
        #expect(abs(Self.v(img, 50, 50) - 128) <= 1)
        #expect(abs(Self.v(img, 30, 30) - 128) <= 1)
        // The joins at (90, 90) and (90, 10) too.
        #expect(abs(Self.v(img, 88, 88) - 128) <= 1)
        // Fill and stroke in one shape composite once as well: stroke over fill.
        let both = try Self.render(Self.scene { s in
            s.path = Self.polygon([(20, 20), (80, 20), (80, 80), (20, 80)])
            s.fillColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
            s.strokeColor = CGColor(red: 0, green: 0, blue: 1, alpha: 0.5)
            s.lineWidth = 10
        })
        #expect(both.rgba(20, 50).isClose(to: RGBA(128, 0, 127), tolerance: 2))   // inside the edge: over red
        #expect(both.rgba(17, 50).isClose(to: RGBA(128, 128, 255), tolerance: 2)) // outside: over white
    }

    @Test func zoomedCircleIsReflattenedNotFaceted() throws {
        // A circle of radius 5 scaled 30× (radius 150 px): every edge pixel must match the true
        // circle's coverage; flattening at the layer's own scale would be off by pixels.
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 320, height: 320)
        let s = CAShapeLayer()
        s.bounds = CGRect(x: 0, y: 0, width: 10, height: 10)
        s.position = CGPoint(x: 160, y: 160)
        s.path = CGPath(ellipseIn: s.bounds, transform: nil)
        s.fillColor = Self.black
        s.transform = CATransform3DMakeScale(30, 30, 1)
        root.addSublayer(s)
        let img = try Self.render(root)
        var worst = 0.0
        for a in stride(from: 0.0, to: 360.0, by: 1.0) {
            let t = a * Double.pi / 180
            for dr in [-1.0, 0.0, 1.0] {
                let x = Int((160 + (150 + dr) * cos(t)).rounded(.down)), y = Int((160 + (150 + dr) * sin(t)).rounded(.down))
                let d = ((Double(x) + 0.5 - 160) * (Double(x) + 0.5 - 160) + (Double(y) + 0.5 - 160) * (Double(y) + 0.5 - 160)).squareRoot()
                let ideal = min(max(150 - d + 0.5, 0), 1)
                let got = 1 - Double(Self.v(img, x, y)) / 255
                worst = max(worst, abs(got - ideal))
            }
        }
        #expect(worst < 0.12, "largest coverage error on the circle's edge: \(worst)")
    }

    @Test func hairlineIsOneDevicePixelWide() throws {
        for scale in [1.0, 3.0] {
            let root = Self.stroked(Self.line(10, 50.5, 90, 50.5), width: 0)
            let img = try Self.render(root, scale: scale)
            let row = Int(50.5 * scale)
            #expect(Self.v(img, Int(50 * scale), row) <= 2)
            #expect(Self.v(img, Int(50 * scale), row - 1) >= 253 && Self.v(img, Int(50 * scale), row + 1) >= 253)
        }
    }

    @Test func zeroLengthSegmentDrawsTheCap() throws {
        let dot = Self.line(50, 50, 50, 50)
        let round = try Self.render(Self.stroked(dot, width: 20) { $0.lineCap = .round })
        #expect(Self.v(round, 50, 50) == 0 && Self.v(round, 57, 50) == 0 && Self.v(round, 62, 50) == 255 && Self.v(round, 58, 58) == 255)
        let square = try Self.render(Self.stroked(dot, width: 20) { $0.lineCap = .square })
        #expect(Self.v(square, 57, 57) == 0 && Self.v(square, 61, 50) == 255)
        let butt = try Self.render(Self.stroked(dot, width: 20))
        #expect(Self.v(butt, 50, 50) == 255)
    }

    @Test func nonUniformScaleStretchesTheStroke() throws {
        // lineWidth is in layer units: scaled 3× in y, a horizontal line 2 wide is 6 px tall.
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
        let s = CAShapeLayer()
        s.anchorPoint = .zero
        s.bounds = CGRect(x: 0, y: 0, width: 100, height: 30)
        s.position = .zero
        s.transform = CATransform3DMakeScale(1, 3, 1)
        s.path = Self.line(10, 10, 90, 10)
        s.fillColor = nil
        s.strokeColor = Self.black
        s.lineWidth = 2
        root.addSublayer(s)
        let img = try Self.render(root)
        #expect(Self.v(img, 50, 27) == 0 && Self.v(img, 50, 32) == 0 && Self.v(img, 50, 26) == 255 && Self.v(img, 50, 33) == 255)
    }

    // MARK: Animation without re-rasterising

    /// Renders `root` at `times` with one renderer, returning images and the shape rasters each
    /// frame made.
    static func frames(_ root: CALayer, at times: [Double]) throws -> [(CGImage, Int)] {
        let r = try CARenderer(offscreenSize: root.bounds.size, scale: 1, options: .init(backend: .openGL))
        r.clearColor = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
        r.layer = root
        return try times.map { t in
            r.beginFrame(atTime: t)
            try r.renderChecked()
            r.endFrame()
            return (try r.makeImage(), r.statistics.shapeRasters)
        }
    }

    @Test func strokeEndFillColorAndDashPhaseAnimateWithoutNewRasters() throws {
        var layer: CAShapeLayer!
        let root = Self.scene { s in
            s.path = Self.polygon([(10, 40), (90, 40), (90, 60), (10, 60)], close: false)
            s.fillColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
            s.strokeColor = Self.black
            s.lineWidth = 4
            s.strokeEnd = 0.99
            layer = s
        }
        let end = CABasicAnimation(keyPath: "strokeEnd")
        end.fromValue = 0.0
        end.toValue = 1.0
        end.duration = 1
        layer.add(end, forKey: "end")
        let fill = CABasicAnimation(keyPath: "fillColor")
        fill.fromValue = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        fill.toValue = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
        fill.duration = 1
        layer.add(fill, forKey: "fill")
        let out = try Self.frames(root, at: [0, 0.25, 0.5, 0.75])
        #expect(out[0].1 >= 1)
        #expect(out[1].1 == 0 && out[2].1 == 0 && out[3].1 == 0, "rasters per frame: \(out.map(\.1))")
        // Path length 80 + 20 + 80 = 180: at t = 0.25 the stroke reaches 45 along the top edge.
        #expect(Self.v(out[1].0, 40, 38) == 0 && Self.v(out[1].0, 60, 38) == 255)
        // Fill colour halfway at t = 0.5: (0.5, 0, 0.5).
        #expect(out[2].0.rgba(50, 50).isClose(to: RGBA(128, 0, 128), tolerance: 2))
    }

    @Test func pathAnimatesPointwise() throws {
        var layer: CAShapeLayer!
        let root = Self.scene { s in
            s.path = Self.polygon([(10, 10), (30, 10), (30, 30), (10, 30)])
            layer = s
        }
        let anim = CABasicAnimation(keyPath: "path")
        anim.fromValue = Self.polygon([(10, 10), (30, 10), (30, 30), (10, 30)])
        anim.toValue = Self.polygon([(60, 60), (80, 60), (80, 80), (60, 80)])
        anim.duration = 1
        layer.add(anim, forKey: "p")
        let out = try Self.frames(root, at: [0, 0.5])
        // Halfway: the square spans 35…55.
        #expect(Self.v(out[1].0, 45, 45) == 0 && Self.v(out[1].0, 20, 20) == 255 && Self.v(out[1].0, 70, 70) == 255)
        #expect(out[1].1 >= 1)
    }

    // MARK: Masks and shadows

    @Test func shapeLayerAsMask() throws {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
        let red = CALayer()
        red.frame = root.bounds
        red.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        let m = CAShapeLayer()
        m.frame = red.bounds
        m.path = CGPath(ellipseIn: CGRect(x: 10, y: 10, width: 80, height: 80), transform: nil)
        red.mask = m
        root.addSublayer(red)
        let img = try Self.render(root)
        #expect(img.rgba(50, 50).isClose(to: RGBA(255, 0, 0)))
        #expect(img.rgba(12, 12).isClose(to: RGBA(255, 255, 255)))
        #expect(img.rgba(50, 11).isClose(to: RGBA(255, 0, 0), tolerance: 3))
    }

    @Test func gradientMaskedByAShape() throws {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
        let g = CAGradientLayer()
        g.frame = root.bounds
        g.colors = [CGColor(red: 1, green: 0, blue: 0, alpha: 1), CGColor(red: 0, green: 0, blue: 1, alpha: 1)]
        let m = CAShapeLayer()
        m.frame = g.bounds
        m.path = Self.polygon([(50, 5), (95, 95), (5, 95)])
        g.mask = m
        root.addSublayer(g)
        let img = try Self.render(root)
        let mid = img.rgba(50, 60)
        #expect(mid.g <= 2 && mid.r > 60 && mid.b > 60)      // gradient colour inside
        #expect(img.rgba(10, 20).isClose(to: RGBA(255, 255, 255)))   // outside the triangle
    }

    @Test func shadowPathOfAnyShapeCastsThatShape() throws {
        // A triangle shadow path: inside the triangle dark, the rest of its bounding box clear
        // (the old fallback painted the whole box).
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
        let l = CALayer()
        l.frame = CGRect(x: 20, y: 20, width: 60, height: 60)
        l.shadowPath = Self.polygon([(0, 0), (60, 0), (0, 60)])
        l.shadowOpacity = 1
        l.shadowRadius = 0
        l.shadowOffset = .zero
        root.addSublayer(l)
        let img = try Self.render(root)
        #expect(Self.v(img, 30, 30) <= 2)
        #expect(Self.v(img, 70, 70) == 255)
        // Blurred (radius 4): soft across the diagonal edge, still clear far from it.
        l.shadowRadius = 4
        let soft = try Self.render(root)
        #expect(Self.v(soft, 25, 25) <= 3 && Self.v(soft, 75, 75) == 255)
        let edge = Self.v(soft, 49, 50)
        #expect(edge > 40 && edge < 215)
    }

    @Test func shapeLayerCastsTheShadowOfItsShape() throws {
        let root = Self.scene { s in
            s.path = Self.polygon([(10, 10), (50, 10), (10, 50)])
            s.fillColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
            s.shadowOpacity = 1
            s.shadowRadius = 0
            s.shadowOffset = CGSize(width: 40, height: 40)
        }
        let img = try Self.render(root)
        #expect(img.rgba(60, 60).isClose(to: RGBA(0, 0, 0)))     // the offset triangle
        #expect(img.rgba(85, 85).isClose(to: RGBA(255, 255, 255))) // outside it
    }

    @Test func groupOpacityFadesFillAndStrokeTogether() throws {
        let root = Self.scene { s in
            s.path = Self.polygon([(20, 20), (80, 20), (80, 80), (20, 80)])
            s.fillColor = Self.black
            s.strokeColor = Self.black
            s.lineWidth = 10
            s.opacity = 0.5
        }
        let img = try Self.render(root)
        // Where stroke covers fill, black at 0.5 once: 128 (not 64 from fading each).
        #expect(abs(Self.v(img, 22, 50) - 128) <= 1)
        #expect(abs(Self.v(img, 50, 50) - 128) <= 1)
    }

    // MARK: Golden images

    @Test func goldenFillsAndStrokes() throws {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 320, height: 200)
        func add(_ c: (CAShapeLayer) -> Void) {
            let s = CAShapeLayer()
            s.frame = root.bounds
            c(s)
            root.addSublayer(s)
        }
        let star = Self.pentagram(center: CGPoint(x: 55, y: 55), radius: 45)
        add { $0.path = star; $0.fillColor = CGColor(red: 0.2, green: 0.4, blue: 0.9, alpha: 1)
              $0.strokeColor = CGColor(red: 0, green: 0, blue: 0, alpha: 0.5); $0.lineWidth = 6; $0.lineJoin = .round }
        add { $0.path = Self.pentagram(center: CGPoint(x: 160, y: 55), radius: 45); $0.fillRule = .evenOdd }
        let ring = CGMutablePath()
        ring.addEllipse(in: CGRect(x: 220, y: 10, width: 90, height: 90))
        ring.addEllipse(in: CGRect(x: 245, y: 35, width: 40, height: 40))
        add { $0.path = ring; $0.fillRule = .evenOdd; $0.fillColor = CGColor(red: 0.9, green: 0.5, blue: 0.1, alpha: 1) }
        // Caps (butt, square, round) and joins (miter, bevel, round).
        for (i, cap) in [CAShapeLayerLineCap.butt, .square, .round].enumerated() {
            let join: CAShapeLayerLineJoin = [.miter, .bevel, .round][i]
            add { s in
                let x = CGFloat(30 + i * 100)
                s.path = Self.polygon([(x, 180), (x + 25, 125), (x + 50, 180), (x + 70, 140)], close: false)
                s.fillColor = nil
                s.strokeColor = CGColor(red: 0.1, green: 0.5, blue: 0.2, alpha: 1)
                s.lineWidth = 12
                s.lineCap = cap
                s.lineJoin = join
            }
        }
        let img = try Self.render(root)
        Golden.expectMatches(img, named: "shape-fills-strokes")
    }

    @Test func goldenDashesTrimsMasksShadows() throws {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 320, height: 200)
        let curve = CGMutablePath()
        curve.move(to: CGPoint(x: 20, y: 60))
        curve.addCurve(to: CGPoint(x: 300, y: 60), control1: CGPoint(x: 100, y: -10), control2: CGPoint(x: 220, y: 130))
        let dashed = CAShapeLayer()
        dashed.frame = root.bounds
        dashed.path = curve
        dashed.fillColor = nil
        dashed.strokeColor = CGColor(red: 0, green: 0.6, blue: 0, alpha: 1)
        dashed.lineWidth = 8
        dashed.lineCap = .round
        dashed.lineDashPattern = [20, 12]
        dashed.lineDashPhase = 6
        dashed.strokeEnd = 0.8
        root.addSublayer(dashed)
        let ring = CAShapeLayer()
        ring.frame = root.bounds
        ring.path = CGPath(ellipseIn: CGRect(x: 20, y: 100, width: 80, height: 80), transform: nil)
        ring.fillColor = nil
        ring.strokeColor = CGColor(red: 0.9, green: 0.2, blue: 0.2, alpha: 1)
        ring.lineWidth = 10
        ring.lineCap = .round
        ring.strokeStart = 0.1
        ring.strokeEnd = 0.7
        root.addSublayer(ring)
        let g = CAGradientLayer()
        g.frame = CGRect(x: 120, y: 100, width: 80, height: 80)
        g.colors = [CGColor(red: 1, green: 0.8, blue: 0, alpha: 1), CGColor(red: 0.6, green: 0, blue: 0.8, alpha: 1)]
        let m = CAShapeLayer()
        m.frame = g.bounds
        m.path = Self.pentagram(center: CGPoint(x: 40, y: 40), radius: 40)
        g.mask = m
        root.addSublayer(g)
        let shadowed = CALayer()
        shadowed.frame = CGRect(x: 220, y: 100, width: 80, height: 80)
        shadowed.shadowPath = Self.pentagram(center: CGPoint(x: 40, y: 40), radius: 36)
        shadowed.shadowOpacity = 0.8
        shadowed.shadowRadius = 3
        shadowed.shadowOffset = CGSize(width: 4, height: 4)
        root.addSublayer(shadowed)
        let img = try Self.render(root)
        Golden.expectMatches(img, named: "shape-dashes-trims-masks")
    }
}
