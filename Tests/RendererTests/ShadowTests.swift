import Testing
import Foundation

/// docs/BEHAVIOUR.md N1 (Apple-run `CALayer/shadow.m`): a 40×40 opaque layer at (80, 80) with
/// shadowOffset (20, 20) and shadowRadius 5 paints its shadow up to pixel 149 and not at 152;
/// the shadow is cast by the layer and its sublayers together; a layer that draws nothing casts
/// none. Apple measured y up; here y is down, so a positive offset height casts downward (and
/// the default (0, −3) upward, as on iOS). Plus: shadowOpacity, colours, rounded and rotated
/// casters, the Gaussian's profile, and `shadowPath` shapes drawn without an offscreen pass.
@Suite struct ShadowTests {
    static let size = CGSize(width: 200, height: 200)

    /// Apple's shadow.m scene: a 40×40 red layer at (80, 80), a blue shadow at full opacity.
    func scene(_ configure: (CALayer) -> Void = { _ in }) -> (CALayer, CALayer) {
        let root = CALayer()
        root.frame = CGRect(origin: .zero, size: Self.size)
        let l = CALayer()
        l.frame = CGRect(x: 80, y: 80, width: 40, height: 40)
        l.backgroundColor = solid(1, 0, 0)
        l.shadowColor = solid(0, 0, 1)
        l.shadowOpacity = 1
        l.shadowOffset = CGSize(width: 20, height: 20)
        l.shadowRadius = 5
        configure(l)
        root.addSublayer(l)
        return (root, l)
    }

    /// Over a transparent target, so "painted" means any non-zero byte, as shadow.m reads it.
    func renderClear(_ root: CALayer) throws -> (CGImage, RenderStats) {
        let r = try CARenderer(offscreenSize: Self.size, options: .init(backend: .openGL))
        r.layer = root
        r.beginFrame(atTime: 0)
        try r.renderChecked()
        r.endFrame()
        return (try r.makeImage(), r.statistics)
    }

    func painted(_ img: CGImage, _ x: Int, _ y: Int) -> Bool { img.rgba(x, y) != RGBA(0, 0, 0, 0) }

    /// Largest channel difference over the whole image.
    func maxDifference(_ a: CGImage, _ b: CGImage) -> Int {
        let pa = a.rgba8Bytes, pb = b.rgba8Bytes
        var m = 0
        for i in 0..<min(pa.count, pb.count) { m = max(m, abs(Int(pa[i]) - Int(pb[i]))) }
        return m
    }

    @Test func N1_shadowReachesOffsetPlusTwiceTheRadiusAndNoFurther() throws {
        let (img, stats) = try renderClear(scene().0)
        #expect(painted(img, 140, 140))
        // The far edge: 119 + 20 + 2·5, read halfway along the shadow, on both axes.
        #expect(painted(img, 149, 120))
        #expect(!painted(img, 152, 120))
        #expect(painted(img, 120, 149))
        #expect(!painted(img, 120, 152))
        // The near edge: 80 + 20 − 10 = 90. Nothing up and left of the layer.
        #expect(painted(img, 91, 130))
        #expect(!painted(img, 88, 130))
        #expect(!painted(img, 100, 78))
        #expect(stats.offscreenPasses == 0)  // a plain box casts its blurred shape analytically
        Golden.expectMatches(img, named: "shadow-N1")
    }

    @Test func defaultOffsetCastsUpwardAsOnIOS() throws {
        // shadowOffset (0, −3) by default; radius 0 keeps the edges exact.
        let (img, _) = try renderClear(scene { $0.shadowOffset = CGSize(width: 0, height: -3); $0.shadowRadius = 0 }.0)
        #expect(img.rgba(100, 77) == RGBA(0, 0, 255))
        #expect(img.rgba(100, 79) == RGBA(0, 0, 255))
        #expect(!painted(img, 100, 76))
        #expect(img.rgba(100, 119) == RGBA(255, 0, 0))
        #expect(!painted(img, 100, 120))
    }

    @Test func N1_sublayersCastOneShadowWithTheLayer() throws {
        let (root, l) = scene()
        let out = CALayer()
        out.bounds = CGRect(x: 0, y: 0, width: 20, height: 20)
        out.position = CGPoint(x: 50, y: 20)
        out.backgroundColor = solid(0, 1, 0)
        l.addSublayer(out)
        let (img, _) = try renderClear(root)
        // The sublayer reaches x = 140; its shadow 140 + 20 + 10.
        #expect(painted(img, 165, 120))
        #expect(!painted(img, 172, 120))
        Golden.expectMatches(img, named: "shadow-sublayers")
    }

    @Test func N1_aLayerThatDrawsNothingCastsNone() throws {
        let (img, stats) = try renderClear(scene { $0.backgroundColor = nil }.0)
        for y in stride(from: 0, to: 200, by: 5) { for x in stride(from: 0, to: 200, by: 5) { #expect(!painted(img, x, y)) } }
        #expect(stats.offscreenPasses == 0)
    }

    @Test func shadowOpacityScalesTheShadowsAlpha() throws {
        let (full, _) = try renderClear(scene { $0.shadowRadius = 2 }.0)
        let (half, _) = try renderClear(scene { $0.shadowRadius = 2; $0.shadowOpacity = 0.5 }.0)
        let (none, _) = try renderClear(scene { $0.shadowRadius = 2; $0.shadowOpacity = 0 }.0)
        #expect(full.rgba(130, 130) == RGBA(0, 0, 255, 255))
        #expect(half.rgba(130, 130).isClose(to: RGBA(0, 0, 128, 128), tolerance: 1))
        #expect(!painted(none, 130, 130))
        // Everywhere, half as strong (to rounding).
        for x in 120..<150 {
            let a = full.rgba(x, 125).a, b = half.rgba(x, 125).a
            #expect(abs(a - 2 * b) <= 2, "x = \(x): \(a) vs \(b)")
        }
    }

    @Test func shadowColourIsPaintedPremultipliedWithItsAlpha() throws {
        let (img, _) = try renderClear(scene { $0.shadowRadius = 2; $0.shadowColor = CGColor(red: 0, green: 1, blue: 0, alpha: 0.5) }.0)
        #expect(img.rgba(130, 130).isClose(to: RGBA(0, 128, 0, 128), tolerance: 1))
        let over = try RenderHarness.render(scene { $0.shadowRadius = 2; $0.shadowColor = solid(1, 0.5, 0) }.0, size: Self.size)
        #expect(over.rgba(130, 130).isClose(to: RGBA(255, 128, 0), tolerance: 1))
        Golden.expectMatches(over, named: "shadow-orange")
    }

    @Test func roundedLayerCastsARoundedShadow() throws {
        // A 40×40 layer with cornerRadius 20 is a disc; so is its shadow, centred at (120, 120).
        let (sharp, _) = try renderClear(scene { $0.cornerRadius = 20; $0.shadowRadius = 0 }.0)
        #expect(sharp.rgba(135, 120) == RGBA(0, 0, 255))
        #expect(sharp.rgba(120, 135) == RGBA(0, 0, 255))
        #expect(!painted(sharp, 136, 136))      // the square's corner, outside the disc
        #expect(sharp.rgba(133, 133).a > 200)   // inside the disc (r ≈ 18.4)
        let blurred = try RenderHarness.render(scene { $0.cornerRadius = 20 }.0, size: Self.size)
        // Blurred, the shadow still follows the disc: along the diagonal it fades sooner than
        // along the axis at the same distance from the centre.
        // (144, 120) and (137, 137) both lie 24 from the disc's centre: as light as each other,
        // where a square shadow would be solid at (137, 137).
        let axis = blurred.rgba(120 + 24, 120).r, diagonal = blurred.rgba(120 + 17, 120 + 17).r
        #expect(axis < 250 && axis > 150)
        #expect(abs(diagonal - axis) <= 6)
        Golden.expectMatches(blurred, named: "shadow-rounded")
    }

    @Test func shadowTurnsWithARotatedLayer() throws {
        // shadowOffset is in the layer's space: rotated 45° clockwise (y down), an offset of
        // (20, 0) lands at (14.1, 14.1) on screen.
        let (img, _) = try renderClear(scene {
            $0.transform = CATransform3DMakeRotation(.pi / 4, 0, 0, 1)
            $0.shadowOffset = CGSize(width: 20, height: 0)
            $0.shadowRadius = 0
        }.0)
        #expect(img.rgba(125, 125) == RGBA(0, 0, 255))   // inside the turned shadow only
        #expect(!painted(img, 140, 100))                 // where an unturned offset would put it
        #expect(img.rgba(100, 100) == RGBA(255, 0, 0))
        let blurred = try RenderHarness.render(scene {
            $0.transform = CATransform3DMakeRotation(.pi / 4, 0, 0, 1)
            $0.shadowOffset = CGSize(width: 20, height: 0)
        }.0, size: Self.size)
        Golden.expectMatches(blurred, named: "shadow-rotated")
    }

    @Test func masksToBoundsCutsTheShadowOff() throws {
        let (img, _) = try renderClear(scene { $0.masksToBounds = true }.0)
        #expect(img.rgba(100, 100) == RGBA(255, 0, 0))
        #expect(!painted(img, 130, 130))
        #expect(!painted(img, 121, 110))
    }

    @Test func aMaskMasksTheShadowToo() throws {
        let (root, l) = scene()
        let m = CALayer()
        m.frame = CGRect(x: 0, y: 0, width: 50, height: 50)  // the layer and a little of its shadow
        m.backgroundColor = solid(0, 0, 0)
        l.mask = m
        let (img, _) = try renderClear(root)
        #expect(img.rgba(100, 100) == RGBA(255, 0, 0))
        #expect(img.rgba(125, 125).b > 200)      // shadow inside the mask
        #expect(!painted(img, 135, 135))         // shadow outside it
    }

    @Test func aSublayersShadowIsNotCutByItsTranslucentParentsGroup() throws {
        // The parent composites its subtree as a group (opacity 0.5, allowsGroupOpacity): the
        // group's target must cover the child's shadow, which lies outside both layers.
        let root = CALayer()
        root.frame = CGRect(origin: .zero, size: Self.size)
        let parent = CALayer()
        parent.frame = CGRect(x: 80, y: 80, width: 40, height: 40)
        parent.opacity = 0.5
        let (_, child) = scene { $0.frame = parent.bounds; $0.shadowRadius = 2 }
        child.removeFromSuperlayer()
        parent.addSublayer(child)
        parent.addSublayer(CALayer())
        root.addSublayer(parent)
        let (img, stats) = try renderClear(root)
        #expect(stats.offscreenPasses >= 1)   // the group (the child casts analytically)
        #expect(img.rgba(135, 135).isClose(to: RGBA(0, 0, 128, 128), tolerance: 2))
        #expect(img.rgba(100, 100).isClose(to: RGBA(128, 0, 0, 128), tolerance: 2))
    }

    @Test func extremeShadowValuesStillRender() throws {
        // Huge radii and offsets must neither throw (no oversized targets) nor paint garbage.
        let cases: [(CGFloat, CGSize, CGRect)] = [
            (1e6, CGSize(width: 20, height: 20), CGRect(x: 80, y: 80, width: 40, height: 40)),
            (5, CGSize(width: 1e6, height: -1e6), CGRect(x: 80, y: 80, width: 40, height: 40)),
            (300, CGSize(width: 5e4, height: 0), CGRect(x: -1e5, y: 80, width: 2e5, height: 40)),
        ]
        for (radius, offset, frame) in cases {
            let (img, _) = try renderClear(scene { $0.shadowRadius = radius; $0.shadowOffset = offset; $0.frame = frame }.0)
            #expect(img.rgba(100, 100) == RGBA(255, 0, 0))
        }
    }

    // MARK: The blur itself

    /// The shadow kernel's step response at distance `d` (pixels) inside (+) or outside (−) an
    /// edge: a Gaussian of σ cut at 2.5σ and renormalised.
    static func stepResponse(_ d: Double, sigma: Double) -> Double {
        let r = 2.5 * sigma
        let c = max(-r, min(r, d))
        return 0.5 + 0.5 * erf(c / (sigma * 2.0.squareRoot())) / erf(2.5 / 2.0.squareRoot())
    }

    /// Alpha along row 130 across the left edge of a shadow whose body starts at x = 110.
    func profile(path: Bool) throws -> [Int] {
        let root = CALayer()
        root.frame = CGRect(origin: .zero, size: Self.size)
        let l = CALayer()
        l.frame = CGRect(x: 10, y: 60, width: 60, height: 140)
        l.backgroundColor = solid(1, 0, 0)
        l.shadowOpacity = 1
        l.shadowOffset = CGSize(width: 100, height: 0)
        l.shadowRadius = 8          // σ = 6.4, reach 16
        if path { l.shadowPath = CGPath(rect: l.bounds, transform: nil) }
        root.addSublayer(l)
        let (img, _) = try renderClear(root)
        return (86..<134).map { img.rgba($0, 130).a }
    }

    @Test(arguments: [false, true]) func blurIsAGaussianSymmetricAboutTheEdge(path: Bool) throws {
        let a = try profile(path: path)   // pixels 86..<134; the edge lies between 109 and 110
        func at(_ x: Int) -> Int { a[x - 86] }
        // Half strength at the edge: the two pixels beside it add up to full.
        #expect(abs(at(109) + at(110) - 255) <= 2)
        #expect(abs(at(110) - 128) <= 20)
        for k in 0..<20 {
            // Symmetric: what is missing inside equals what spills outside.
            #expect(abs(at(109 - k) + at(110 + k) - 255) <= 2, "k = \(k)")
            // The shape of a Gaussian step (erf), not of a box or tent blur.
            let d = Double(k) + 0.5
            let expected = 255 * Self.stepResponse(d, sigma: 6.4)
            #expect(abs(Double(at(110 + k)) - expected) <= 3, "inside k = \(k): \(at(110 + k)) vs \(expected)")
        }
        // Monotonic and exactly zero beyond the reach (16 px).
        for x in 87..<134 { #expect(at(x) >= at(x - 1)) }
        #expect(at(93) == 0)
        #expect(at(95) > 0)
    }

    @Test(arguments: [12, 30, 50] as [CGFloat]) func wideBlursAtReducedResolutionMatchTheExactShape(radius: CGFloat) throws {
        // σ = 9.6, 24, 40 pixels: blurred at 1/2, 1/4, 1/8 resolution; the analytic shadowPath
        // rectangle is exact at any size.
        let bounds = CGRect(x: 0, y: 0, width: 40, height: 40)
        let (cast, castStats) = try renderClear(pathScene(nil, radius: radius))
        let (exact, _) = try renderClear(pathScene(CGPath(rect: bounds, transform: nil), radius: radius))
        #expect(castStats.offscreenPasses >= 4)   // content, a downsample, two blur passes
        #expect(maxDifference(cast, exact) <= 3)
    }

    // MARK: shadowPath

    func pathScene(_ path: CGPath?, radius: CGFloat = 5, corner: CGFloat = 0, layerPaints: Bool = true) -> CALayer {
        scene {
            $0.shadowPath = path
            $0.shadowRadius = radius
            $0.cornerRadius = corner
            if !layerPaints { $0.backgroundColor = nil }
            // With no shadowPath, an empty sublayer keeps the layer off the plain-box fast path,
            // so the shadow is cast from its pixels through the offscreen blur passes.
            if path == nil { $0.addSublayer(CALayer()) }
        }.0
    }

    @Test func shadowPathRectangleNeedsNoOffscreenPassAndMatchesTheCastShadow() throws {
        let bounds = CGRect(x: 0, y: 0, width: 40, height: 40)
        let (fast, fastStats) = try renderClear(pathScene(CGPath(rect: bounds, transform: nil)))
        let (cast, castStats) = try renderClear(pathScene(nil))
        #expect(fastStats.offscreenPasses == 0)
        #expect(castStats.offscreenPasses > 0)
        #expect(maxDifference(fast, cast) <= 3)
        #expect(painted(fast, 149, 120) && !painted(fast, 152, 120))
        Golden.expectMatches(fast, named: "shadow-path-rect")
    }

    @Test("A continuous-corner box casts its blurred shadow analytically, matching the pixel-cast shadow")
    func continuousCornerBoxShadowIsAnalytic() throws {
        func box(_ forcePixels: Bool) -> CALayer {
            scene {
                $0.cornerRadius = 10   // extent 1.528665·10 ≈ 15.3 fits the 40-pt side
                $0.cornerCurve = .continuous
                $0.shadowRadius = 6
                if forcePixels { $0.addSublayer(CALayer()) }   // off the plain-box fast path
            }.0
        }
        let (fast, fastStats) = try renderClear(box(false))
        let (cast, castStats) = try renderClear(box(true))
        #expect(fastStats.offscreenPasses == 0)
        #expect(castStats.offscreenPasses > 0)
        #expect(maxDifference(fast, cast) <= 4)
        // A sharp shadow (radius below 0.125·cornerRadius), and a corner whose extent the side
        // cuts short, keep the exact continuous shape (cast from pixels).
        let (_, sharpStats) = try renderClear(scene { $0.cornerRadius = 10; $0.cornerCurve = .continuous; $0.shadowRadius = 1 }.0)
        #expect(sharpStats.offscreenPasses > 0)
        let (_, squircleStats) = try renderClear(scene { $0.cornerRadius = 16; $0.cornerCurve = .continuous; $0.shadowRadius = 6 }.0)
        #expect(squircleStats.offscreenPasses > 0)
    }

    @Test func shadowPathIsUsedEvenWhenTheLayerPaintsNothing() throws {
        let (img, stats) = try renderClear(pathScene(CGPath(rect: CGRect(x: 0, y: 0, width: 40, height: 40), transform: nil),
                                                    layerPaints: false))
        #expect(img.rgba(130, 130).b > 250)
        #expect(img.rgba(110, 110).b > 250)   // no layer on top of it this time
        #expect(stats.offscreenPasses == 0)
    }

    @Test func shadowPathRoundedRectAndEllipseTakeTheFastPathAndMatchTheCastShadow() throws {
        let bounds = CGRect(x: 0, y: 0, width: 40, height: 40)
        let (cast, _) = try renderClear(pathScene(nil, corner: 20))
        for path in [CGPath(roundedRect: bounds, cornerWidth: 20, cornerHeight: 20, transform: nil),
                     CGPath(ellipseIn: bounds, transform: nil)] {
            let (fast, stats) = try renderClear(pathScene(path, corner: 20))
            #expect(stats.offscreenPasses == 0)
            #expect(maxDifference(fast, cast) <= 4)
        }
        let (rounded, _) = try renderClear(pathScene(CGPath(roundedRect: bounds, cornerWidth: 10, cornerHeight: 10, transform: nil),
                                                     corner: 10))
        let (roundedCast, _) = try renderClear(pathScene(nil, corner: 10))
        #expect(maxDifference(rounded, roundedCast) <= 4)
        Golden.expectMatches(rounded, named: "shadow-path-rounded")
    }

    @Test func shadowPathEllipseIsAnEllipse() throws {
        // An 80×40 ellipse with radius 0: the bounding box's corners stay clear.
        let path = CGPath(ellipseIn: CGRect(x: -20, y: 0, width: 80, height: 40), transform: nil)
        let (img, stats) = try renderClear(pathScene(path, radius: 0, layerPaints: false))
        #expect(stats.offscreenPasses == 0)
        // Centre (120, 120), half-axes 40 × 20.
        #expect(img.rgba(120, 120) == RGBA(0, 0, 255))
        #expect(img.rgba(158, 120).b > 200)
        #expect(img.rgba(120, 138).b > 200)
        #expect(!painted(img, 84, 104))
        #expect(!painted(img, 155, 136))
        Golden.expectMatches(img, named: "shadow-path-ellipse")
    }

    @Test func otherShadowPathsCastTheirOwnShape() throws {
        // Any other path is filled through the shape pipeline (issue 6) and blurred like a
        // pixel-cast shadow: the triangle's far bounding-box corner stays clear.
        let triangle = CGMutablePath()
        triangle.move(to: CGPoint(x: 0, y: 0))
        triangle.addLine(to: CGPoint(x: 40, y: 0))
        triangle.addLine(to: CGPoint(x: 0, y: 40))
        triangle.closeSubpath()
        let (img, _) = try renderClear(pathScene(triangle, radius: 0, layerPaints: false))
        #expect(!painted(img, 135, 135))   // the box's far corner, outside the triangle
        #expect(img.rgba(104, 104) == RGBA(0, 0, 255))
    }
}
