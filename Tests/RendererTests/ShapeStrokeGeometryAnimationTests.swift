import Testing
import Foundation

/// An animated `lineWidth` or `miterLimit` (issue 6: they "animate without re-tessellation").
///
/// `lineWidth`: while it
/// animates, the stroke is drawn from a width-free raster — a gauge field out to the power of two
/// at or above its half width in texels (`GaugeField`: each stroke piece's distance that scales
/// with the width, joins and caps included) — so a whole width animation makes a handful of
/// rasters, not one per frame, looks like the stroke rasterised at each width, and a frame is
/// the same whatever frames were rendered before it. A placement that is not a similarity (a
/// non-uniform scale: the stroke is not equally wide in every direction) keeps a raster per
/// width.
///
/// `miterLimit`: a raster depends on it only through which corners it miters, so rasters are
/// kept under a canonical limit and an animation rasterises again only when a corner switches
/// between miter and bevel.
@Suite struct ShapeStrokeGeometryAnimationTests {
    static let size = CGSize(width: 120, height: 120)

    /// A shape layer filling the target, on white.
    static func scene(_ configure: (CAShapeLayer) -> Void) -> (CALayer, CAShapeLayer) {
        let root = CALayer()
        root.bounds = CGRect(origin: .zero, size: size)
        root.anchorPoint = .zero
        root.backgroundColor = solid(1, 1, 1)
        let s = CAShapeLayer()
        s.bounds = root.bounds
        s.anchorPoint = .zero
        s.fillColor = nil
        s.strokeColor = solid(0.1, 0.2, 0.8)
        configure(s)
        root.addSublayer(s)
        return (root, s)
    }

    static func circle() -> CGPath { CGPath(ellipseIn: CGRect(x: 25, y: 25, width: 70, height: 70), transform: nil) }

    /// An open arc (three quarters of a circle): its two ends carry the caps.
    static func arc() -> CGPath {
        let p = CGMutablePath()
        p.addArc(center: CGPoint(x: 60, y: 60), radius: 35, startAngle: 0.3, endAngle: 5.0, clockwise: false)
        return p
    }

    static func widthAnimation(from a: Double, to b: Double) -> CABasicAnimation {
        let w = CABasicAnimation(keyPath: "lineWidth")
        w.fromValue = a
        w.toValue = b
        w.duration = 1
        return w
    }

    /// Frames of `root` at `times` on one renderer: images and the rasters each frame made.
    /// `spans`: `Options.drawsAnimatedWidthsFromOneRaster` (nil: the backend's default, on for GL).
    static func frames(_ root: CALayer, _ times: [Double], spans: Bool? = false) throws -> [(image: CGImage, rasters: Int)] {
        var o = CARenderer.Options(backend: .openGL)
        o.drawsAnimatedWidthsFromOneRaster = spans
        let r = try CARenderer(offscreenSize: size, scale: 1, options: o)
        r.layer = root
        return try times.map { t in (try RenderHarness.frame(r, at: t), r.statistics.shapeRasters) }
    }

    /// The same shape with `lineWidth` set, not animated: rasterised for that width.
    static func still(_ configure: (CAShapeLayer) -> Void, lineWidth: Double) throws -> CGImage {
        let (root, s) = scene(configure)
        s.lineWidth = lineWidth
        return try RenderHarness.render(root, size: size)
    }

    @Test func aLineWidthAnimationMakesAFewRastersNotOnePerFrame() throws {
        let (root, s) = Self.scene { $0.path = Self.circle(); $0.fillColor = solid(1, 0.8, 0.2) }
        s.add(Self.widthAnimation(from: 2, to: 14), forKey: "w")
        let times = (0...30).map { Double($0) / 30 }
        let out = try Self.frames(root, times)
        let total = out.reduce(0) { $0 + $1.rasters }
        // Width 2 → 14 px: half widths 1 … 7 texels, width-free rasters for the buckets 1, 2, 4, 8.
        #expect(total <= 5, "rasters per frame: \(out.map(\.rasters))")
        #expect(out.filter { $0.rasters == 0 }.count >= 25)
    }

    /// At width 8 (the middle of a 4 → 12 animation, drawn from the width-free raster the frame
    /// at width 6 made for half widths up to 4), the stroke matches the one rasterised for width
    /// 8: closed and open paths, the three caps, miter, bevel and round joins, a trim and a dash
    /// pattern, two open subpaths, under a rotation. And a renderer that draws only that frame
    /// draws the same pixels.
    @Test(arguments: ["ring", "butt", "round", "square", "trimmedDashed", "rotated", "starMiter", "starBevel", "starRound",
                      "twoOpenSubpaths"])
    func widthFreeStrokesMatchTheStrokeRasterisedForThatWidth(_ name: String) throws {
        let configure: (CAShapeLayer) -> Void = { s in
            switch name {
            case "ring": s.path = Self.circle(); s.fillColor = solid(1, 0.8, 0.2)
            case "butt": s.path = Self.arc()
            case "round": s.path = Self.arc(); s.lineCap = .round
            case "square": s.path = Self.arc(); s.lineCap = .square
            case "trimmedDashed":
                s.path = Self.arc(); s.lineCap = .round; s.strokeStart = 0.15; s.strokeEnd = 0.8
                s.lineDashPattern = [14, 9]; s.lineDashPhase = 3
            case "rotated":
                s.path = Self.arc(); s.lineJoin = .round
                s.transform = CATransform3DMakeRotation(0.4, 0, 0, 1)
                s.position = CGPoint(x: 20, y: -15)
            case "starMiter": Self.star(s)
            case "starBevel": Self.star(s); s.miterLimit = 2   // the tips bevel, the inner corners miter
            case "starRound": Self.star(s); s.lineJoin = .round; s.fillColor = solid(1, 0.8, 0.2)
            default:
                let p = CGMutablePath()
                p.move(to: CGPoint(x: 15, y: 30)); p.addLine(to: CGPoint(x: 100, y: 45)); p.addLine(to: CGPoint(x: 30, y: 60))
                p.move(to: CGPoint(x: 20, y: 95)); p.addCurve(to: CGPoint(x: 100, y: 90), control1: CGPoint(x: 50, y: 60), control2: CGPoint(x: 70, y: 120))
                s.path = p; s.lineCap = .square
            }
        }
        let (root, s) = Self.scene(configure)
        s.add(Self.widthAnimation(from: 4, to: 12), forKey: "w")
        let out = try Self.frames(root, [0, 0.25, 0.5])
        #expect(out[2].rasters == 0, "width 8 is drawn from the width-free raster made at width 6: \(out.map(\.rasters))")
        let alone = try Self.frames(root, [0.5])[0].image
        #expect(Golden.compare(out[2].image, alone, threshold: 0).fraction == 0, "\(name): the frame depends on the frames before it")
        let exact = try Self.still(configure, lineWidth: 8)
        // Exact-area coverage against a one-texel ramp: a few edge pixels differ a little (here
        // at most 0.18 % of the pixels by more than 32 levels, 1 % by more than 8).
        let (fraction, diff) = Golden.compare(out[2].image, exact, threshold: 32)
        #expect(fraction < 0.0025, "\(name): \(fraction * 100)% of pixels differ by more than 32")
        if fraction >= 0.0025, let diff {
            try? FileManager.default.createDirectory(at: Golden.failuresDirectory, withIntermediateDirectories: true)
            try? diff.pngData()?.write(to: Golden.failuresDirectory.appendingPathComponent("linewidth-\(name)-diff.png"))
        }
        // And the stroke really is 8 wide: across the ring's right side at y = 60 (centreline
        // x = 95), texels 91.5…98.5 are stroke, 90 and 100 are not.
        if name == "ring" {
            let stroke = RGBA(26, 51, 204)
            #expect(out[2].image.rgba(92, 60).isClose(to: stroke, tolerance: 3) && out[2].image.rgba(97, 60).isClose(to: stroke, tolerance: 3))
            #expect(!out[2].image.rgba(89, 60).isClose(to: stroke, tolerance: 40) && !out[2].image.rgba(100, 60).isClose(to: stroke, tolerance: 40))
        }
    }

    /// A five-pointed star: sharp tips (miter ratio about 3.2) and blunt inner corners (about 1.2).
    static func star(_ s: CAShapeLayer) {
        let p = CGMutablePath()
        for i in 0..<10 {
            let r: CGFloat = i % 2 == 0 ? 45 : 20
            let a = CGFloat(i) * .pi / 5 - .pi / 2
            let q = CGPoint(x: 60 + r * cos(a), y: 60 + r * sin(a))
            if i == 0 { p.move(to: q) } else { p.addLine(to: q) }
        }
        p.closeSubpath()
        s.path = p
        s.miterLimit = 4
    }

    /// A renderer that drew the shape still at width 8 (an exact raster for that width in its
    /// cache) and then draws it animating through width 8 shows the same pixels as a renderer
    /// that only draws the animated frame: the choice of raster depends on the layer alone.
    @Test func aFrameDoesNotDependOnTheRastersDrawnBefore() throws {
        let (root, s) = Self.scene { $0.path = Self.arc(); $0.lineCap = .round }
        s.lineWidth = 8
        let r = try CARenderer(offscreenSize: Self.size, scale: 1, options: .init(backend: .openGL))
        r.layer = root
        _ = try RenderHarness.frame(r, at: 0)
        s.add(Self.widthAnimation(from: 4, to: 12), forKey: "w")
        _ = try RenderHarness.frame(r, at: 1.5)                 // begins now: width 4 → 12 over 1 s
        let then = try RenderHarness.frame(r, at: 2.0)          // width 8
        let alone = try Self.frames(root, [2.0])[0].image
        #expect(Golden.compare(then, alone, threshold: 0).fraction == 0)
    }

    /// Under a non-uniform scale a stroke is wider in one direction than the other in pixels:
    /// no single field serves every width, each width is rasterised, and every frame still shows
    /// the stroke of its width.
    @Test func aNonUniformScaleKeepsARasterPerWidth() throws {
        let star: (CAShapeLayer) -> Void = { s in Self.star(s); s.transform = CATransform3DMakeScale(1, 0.6, 1) }
        let (root, s) = Self.scene(star)
        s.add(Self.widthAnimation(from: 2, to: 6), forKey: "w")
        let out = try Self.frames(root, [0, 0.25, 0.5])
        #expect(out.allSatisfy { $0.rasters == 1 }, "rasters per frame: \(out.map(\.rasters))")
        let exact = try Self.still(star, lineWidth: 4)
        #expect(Golden.compare(out[2].image, exact, threshold: 2).fraction == 0)
    }

    /// A stroke whose `path` animates as well as its `lineWidth` has a path of its own every
    /// frame, so a width-free raster would serve one frame: each frame is rasterised for its
    /// width like a still stroke (issue 23: TwitterHeart's growing ring), a raster a frame, and
    /// equal to the still stroke of that path and width to the pixel.
    @Test func aStrokeWhosePathAlsoAnimatesIsRasterisedForItsWidth() throws {
        // Straight lines only, so the interpolated path at t = 0.5 is exact.
        func square(_ inset: CGFloat) -> CGPath { CGPath(rect: CGRect(x: inset, y: inset, width: 120 - 2 * inset, height: 120 - 2 * inset), transform: nil) }
        let turned: (CAShapeLayer) -> Void = { s in
            s.lineJoin = .round
            s.transform = CATransform3DMakeRotation(0.3, 0, 0, 1)
            s.position = CGPoint(x: 20, y: -15)
        }
        let (root, s) = Self.scene { turned($0); $0.path = square(30) }
        let grow = CABasicAnimation(keyPath: "path")
        grow.fromValue = square(30)
        grow.toValue = square(20)
        grow.duration = 1
        s.add(grow, forKey: "p")
        s.add(Self.widthAnimation(from: 4, to: 12), forKey: "w")
        let out = try Self.frames(root, [0, 0.25, 0.5])
        #expect(out.allSatisfy { $0.rasters == 1 }, "rasters per frame: \(out.map(\.rasters))")
        let exact = try Self.still({ turned($0); $0.path = square(25) }, lineWidth: 8)
        #expect(Golden.compare(out[2].image, exact, threshold: 0).fraction == 0)
    }

    /// miterLimit 1 → 6 over the star: the tips switch from bevel to miter once, the inner
    /// corners are mitered throughout (ratio ≈ 1.2 is passed before the first frame after 0):
    /// a raster for the first value and one when the tips switch, and every frame equals the
    /// star rasterised for its own limit, pixel for pixel.
    @Test func aMiterLimitAnimationRasterisesOnlyWhenACornerSwitches() throws {
        let star: (CAShapeLayer) -> Void = { s in Self.star(s); s.lineWidth = 5; s.strokeColor = solid(0.1, 0.2, 0.8) }
        let (root, s) = Self.scene(star)
        let anim = CABasicAnimation(keyPath: "miterLimit")
        anim.fromValue = 1.0
        anim.toValue = 6.0
        anim.duration = 1
        s.add(anim, forKey: "m")
        let times = (0...20).map { Double($0) / 20 }
        let out = try Self.frames(root, times)
        let total = out.reduce(0) { $0 + $1.rasters }
        #expect(total <= 3, "rasters per frame: \(out.map(\.rasters))")
        for i in [3, 8, 15] {
            let still = try Self.still({ star($0); $0.miterLimit = 1 + 5 * CGFloat(times[i]) }, lineWidth: 5)
            #expect(Golden.compare(out[i].image, still, threshold: 0).fraction == 0, "frame \(i)")
        }
        // The tips are mitered at the end (limit 6 > 3.2) and bevelled at the start (1 < 3.2):
        // the top tip at (60, 15) reaches 8 px higher with the miter (2.7 px wide at y = 11).
        #expect(out[20].image.rgba(60, 11).isClose(to: RGBA(26, 51, 204), tolerance: 40))
        #expect(out[0].image.rgba(60, 11) == RGBA(255, 255, 255))
    }

    /// A curve's only corners are where its Bézier elements meet, smoothly (miter ratio ≈ 1):
    /// for any limit above 1 its raster is the same.
    @Test func aCurveNeverRasterisesForItsMiterLimit() throws {
        let (root, s) = Self.scene { $0.path = Self.arc(); $0.lineWidth = 6 }
        let anim = CABasicAnimation(keyPath: "miterLimit")
        anim.fromValue = 1.5
        anim.toValue = 30.0
        anim.duration = 1
        s.add(anim, forKey: "m")
        let out = try Self.frames(root, (0...10).map { Double($0) / 10 })
        #expect(out.map(\.rasters) == [1] + Array(repeating: 0, count: 10))
    }
}
