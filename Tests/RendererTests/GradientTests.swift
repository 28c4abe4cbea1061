import Testing
import Foundation

/// CAGradientLayer: axial, radial and conic geometry (CAGradientLayerType docs), colours and
/// locations, unpremultiplied interpolation of translucent colours, sRGB-encoded interpolation,
/// dithering to 8 bits, and clipping by a rounded `masksToBounds`.
///
/// Most checks compare every pixel with the exact gradient value at the pixel's centre: the
/// dither may round either way, so each channel must lie within one level of it.
@Suite struct GradientTests {
    typealias Color = (r: Double, g: Double, b: Double, a: Double)

    static func gradient(_ colors: [CGColor], size: CGSize = CGSize(width: 100, height: 100),
                         _ configure: (CAGradientLayer) -> Void = { _ in }) -> CALayer {
        let root = CALayer()
        root.frame = CGRect(origin: .zero, size: size)
        let g = CAGradientLayer()
        g.frame = root.bounds
        g.colors = colors
        configure(g)
        root.addSublayer(g)
        return root
    }

    static func render(_ root: CALayer, clear: CGColor? = solid(1, 1, 1)) throws -> CGImage {
        try RenderHarness.render(root, size: root.bounds.size, clear: clear)
    }

    /// Two-colour interpolation of straight colours at `t` (clamped), premultiplied, in 0…255.
    static func mix(_ a: Color, _ b: Color, _ t: Double) -> Color {
        let f = min(max(t, 0), 1)
        let alpha = a.a + (b.a - a.a) * f
        func ch(_ x: Double, _ y: Double) -> Double { (x + (y - x) * f) * alpha * 255 }
        return (ch(a.r, b.r), ch(a.g, b.g), ch(a.b, b.b), alpha * 255)
    }

    static let red: Color = (1, 0, 0, 1), blue: Color = (0, 0, 1, 1)

    /// Every pixel within `tolerance` levels of `ideal(pixel centre)` composited over white.
    static func expectMatches(_ img: CGImage, tolerance: Double = 1.05, over background: Double = 255,
                              sourceLocation: SourceLocation = #_sourceLocation, _ ideal: (Double, Double) -> Color) {
        var worst = 0.0, worstAt = (0, 0), bad = 0
        for y in 0..<img.height {
            for x in 0..<img.width {
                let c = ideal(Double(x) + 0.5, Double(y) + 0.5)
                let k = 1 - c.a / 255
                let want = [c.r + background * k, c.g + background * k, c.b + background * k]
                let p = img.rgba(x, y)
                let got = [Double(p.r), Double(p.g), Double(p.b)]
                let d = zip(want, got).map { abs($0 - $1) }.max()!
                if d > tolerance { bad += 1 }
                if d > worst { worst = d; worstAt = (x, y) }
            }
        }
        #expect(bad == 0, "\(bad) pixels off by more than \(tolerance); worst \(worst) at \(worstAt)", sourceLocation: sourceLocation)
    }

    // MARK: Axial

    @Test func axialDefaultRunsTopToBottomThroughExactValues() throws {
        let img = try Self.render(Self.gradient([solid(1, 0, 0), solid(0, 0, 1)]))
        Self.expectMatches(img) { _, y in Self.mix(Self.red, Self.blue, y / 100) }
        // Endpoints and midpoint, and the dither is unbiased: a row's mean is the true value.
        func mean(_ y: Int, _ ch: KeyPath<RGBA, Int>) -> Double { (0..<100).map { Double(img.rgba($0, y)[keyPath: ch]) }.reduce(0, +) / 100 }
        #expect(abs(mean(0, \.r) - 255 * 0.995) < 0.3)
        #expect(abs(mean(49, \.r) - 255 * 0.505) < 0.3)
        #expect(abs(mean(50, \.b) - 255 * 0.505) < 0.3)
        #expect(abs(mean(99, \.b) - 255 * 0.995) < 0.3)
    }

    @Test func locationsMoveTheMidpoint() throws {
        let img = try Self.render(Self.gradient([solid(1, 0, 0), solid(0, 0, 1)]) { $0.locations = [0.2, 0.6] })
        Self.expectMatches(img) { _, y in Self.mix(Self.red, Self.blue, (y / 100 - 0.2) / 0.4) }
        #expect(img.rgba(50, 10).isClose(to: RGBA(255, 0, 0), tolerance: 1))    // before the first stop
        #expect(img.rgba(50, 39).isClose(to: RGBA(131, 0, 124), tolerance: 1))  // t = 0.395: about half-way
        #expect(img.rgba(50, 80).isClose(to: RGBA(0, 0, 255), tolerance: 1))    // after the last stop
    }

    @Test func threeColoursWithLocationsAndAHardStop() throws {
        let colors = [solid(1, 0, 0), solid(0, 1, 0), solid(0, 0, 1)]
        let img = try Self.render(Self.gradient(colors, size: CGSize(width: 200, height: 20)) {
            $0.startPoint = CGPoint(x: 0, y: 0.5)
            $0.endPoint = CGPoint(x: 1, y: 0.5)
            $0.locations = [0, 0.5, 0.5]
        })
        // Red to green over the first half, then blue: the stop at 0.5 is hard.
        #expect(img.rgba(99, 10).g > 245)
        #expect(img.rgba(99, 10).b < 3)
        #expect(img.rgba(101, 10).isClose(to: RGBA(0, 0, 255), tolerance: 1))
        #expect(img.rgba(50, 10).isClose(to: RGBA(127, 128, 0), tolerance: 2))
        Golden.expectMatches(img, named: "gradient-hard-stop")
    }

    @Test func startAndEndPointsMakeItHorizontal() throws {
        let img = try Self.render(Self.gradient([solid(1, 0, 0), solid(0, 0, 1)]) {
            $0.startPoint = CGPoint(x: 0, y: 0.5)
            $0.endPoint = CGPoint(x: 1, y: 0.5)
        })
        Self.expectMatches(img) { x, _ in Self.mix(Self.red, Self.blue, x / 100) }
        // Reversed points reverse it; a diagonal runs corner to corner.
        let back = try Self.render(Self.gradient([solid(1, 0, 0), solid(0, 0, 1)]) {
            $0.startPoint = CGPoint(x: 1, y: 0.5)
            $0.endPoint = CGPoint(x: 0, y: 0.5)
        })
        Self.expectMatches(back) { x, _ in Self.mix(Self.red, Self.blue, 1 - x / 100) }
        let diagonal = try Self.render(Self.gradient([solid(1, 0, 0), solid(0, 0, 1)]) {
            $0.startPoint = .zero
            $0.endPoint = CGPoint(x: 1, y: 1)
        })
        Self.expectMatches(diagonal) { x, y in Self.mix(Self.red, Self.blue, (x + y) / 200) }
    }

    @Test func interpolatesSRGBEncodedValues() throws {
        // Black to white is 50 % grey in the middle (sRGB-encoded 128, not linear-light 188).
        let img = try Self.render(Self.gradient([solid(0, 0, 0), solid(1, 1, 1)]))
        Self.expectMatches(img) { _, y in Self.mix((0, 0, 0, 1), (1, 1, 1, 1), y / 100) }
        #expect(abs(img.rgba(50, 49).g - 128) <= 1)
    }

    @Test func oneColourFillsSolidAndNoColoursDrawNothing() throws {
        let one = try Self.render(Self.gradient([solid(0, 0.5, 1)]))
        for (x, y) in [(0, 0), (50, 50), (99, 99), (0, 99)] {
            #expect(one.rgba(x, y).isClose(to: RGBA(0, 128, 255), tolerance: 1))
        }
        let none = try Self.render(Self.gradient([]))
        #expect(none.rgba(50, 50) == RGBA(255, 255, 255))
        let nilColors = try Self.render(Self.gradient([]) { $0.colors = nil; $0.backgroundColor = solid(0, 1, 0) })
        #expect(nilColors.rgba(50, 50) == RGBA(0, 255, 0))
    }

    @Test func identicalGradientsShareOneRampRow() throws {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 60, height: 20)
        for i in 0..<3 {
            let g = CAGradientLayer()
            g.frame = CGRect(x: 20 * i, y: 0, width: 20, height: 20)
            g.colors = [solid(1, 0, 0), i == 2 ? solid(0, 1, 0) : solid(0, 0, 1)]
            root.addSublayer(g)
        }
        let r = try CARenderer(offscreenSize: CGSize(width: 60, height: 20), options: .init(backend: .openGL))
        r.layer = root
        r.beginFrame(atTime: 0)
        try r.renderChecked()
        r.endFrame()
        let frame = try #require(r.lastFrame)
        #expect(frame.gradientRampRows == 2)
        #expect(frame.gradients.map { $0.params.y } == [0, 0, 1])
        let img = try r.makeImage()
        #expect(img.rgba(30, 19).isClose(to: RGBA(6, 0, 249), tolerance: 1))   // t = 0.975
        #expect(img.rgba(50, 19).isClose(to: RGBA(6, 249, 0), tolerance: 1))
    }

    // MARK: Radial and conic

    @Test func radialIsAnEllipseFromStartPointReachingEndPoint() throws {
        let img = try Self.render(Self.gradient([solid(1, 0, 0), solid(0, 0, 1)]) {
            $0.type = .radial
            $0.startPoint = CGPoint(x: 0.5, y: 0.5)
            $0.endPoint = CGPoint(x: 1, y: 1)
        })
        Self.expectMatches(img) { x, y in
            Self.mix(Self.red, Self.blue, ((x - 50) * (x - 50) + (y - 50) * (y - 50)).squareRoot() / 50)
        }
        #expect(img.rgba(50, 50).isClose(to: RGBA(252, 0, 3), tolerance: 1))   // centre: the first colour
        #expect(img.rgba(0, 0) == RGBA(0, 0, 255))                              // beyond the ellipse: the last
        // An ellipse on a wide layer: the radii follow the bounds (2:1 here).
        let wide = try Self.render(Self.gradient([solid(1, 0, 0), solid(0, 0, 1)], size: CGSize(width: 200, height: 100)) {
            $0.type = .radial
            $0.startPoint = CGPoint(x: 0.5, y: 0.5)
            $0.endPoint = CGPoint(x: 1, y: 1)
        })
        Self.expectMatches(wide) { x, y in
            let dx = (x - 100) / 100, dy = (y - 50) / 50
            return Self.mix(Self.red, Self.blue, (dx * dx + dy * dy).squareRoot())
        }
        Golden.expectMatches(img, named: "gradient-radial")
    }

    @Test func conicAngleNinetyDegreesIsAQuarterOfTheWay() throws {
        let img = try Self.render(Self.gradient([solid(1, 0, 0), solid(0, 0, 1)]) {
            $0.type = .conic
            $0.startPoint = CGPoint(x: 0.5, y: 0.5)
            $0.endPoint = CGPoint(x: 1, y: 0.5)
        })
        // Angle from the direction of endPoint (+x), growing toward +y (clockwise on screen).
        Self.expectMatches(img) { x, y in
            var a = atan2(y - 50, x - 50) / (2 * Double.pi)
            if a < 0 { a += 1 }
            return Self.mix(Self.red, Self.blue, a)
        }
        #expect(img.rgba(50, 95).isClose(to: RGBA(191, 0, 64), tolerance: 2))  // 90°: 1/4
        #expect(img.rgba(5, 50).isClose(to: RGBA(127, 0, 128), tolerance: 2))  // 180°: 1/2
        #expect(img.rgba(50, 5).isClose(to: RGBA(64, 0, 191), tolerance: 2))   // 270°: 3/4
        // endPoint straight up moves 0° there; equal points start at 0° (+x).
        let up = try Self.render(Self.gradient([solid(1, 0, 0), solid(0, 0, 1)]) {
            $0.type = .conic
            $0.startPoint = CGPoint(x: 0.5, y: 0.5)
            $0.endPoint = CGPoint(x: 0.5, y: 0)
        })
        #expect(up.rgba(95, 50).isClose(to: RGBA(191, 0, 64), tolerance: 2))
        let same = try Self.render(Self.gradient([solid(1, 0, 0), solid(0, 0, 1)]) {
            $0.type = .conic
            $0.startPoint = CGPoint(x: 0.5, y: 0.5)
            $0.endPoint = CGPoint(x: 0.5, y: 0.5)
        })
        #expect(same.rgba(50, 95).isClose(to: RGBA(191, 0, 64), tolerance: 2))
        let wheel = try Self.render(Self.gradient([solid(1, 0, 0), solid(1, 1, 0), solid(0, 1, 0), solid(0, 1, 1),
                                                   solid(0, 0, 1), solid(1, 0, 1), solid(1, 0, 0)]) {
            $0.type = .conic
            $0.startPoint = CGPoint(x: 0.5, y: 0.5)
            $0.endPoint = CGPoint(x: 0.5, y: 0)
            $0.cornerRadius = 50
            $0.masksToBounds = true
        })
        Golden.expectMatches(wheel, named: "gradient-conic")
    }

    // MARK: Translucent colours

    @Test func translucentColoursInterpolateUnpremultiplied() throws {
        // Red to clear (transparent black): colour and alpha interpolate separately, then
        // premultiply, so the middle is dark red at half alpha — still pure red in hue.
        let clear = CGColor(red: 0, green: 0, blue: 0, alpha: 0)
        let layer = Self.gradient([solid(1, 0, 0), clear])
        let overWhite = try Self.render(layer)
        Self.expectMatches(overWhite, tolerance: 1.6) { _, y in Self.mix(Self.red, (0, 0, 0, 0), y / 100) }
        #expect(overWhite.rgba(50, 49).isClose(to: RGBA(191, 126, 126), tolerance: 2))
        let overNothing = try Self.render(layer, clear: nil)
        for y in stride(from: 0, to: 100, by: 7) {
            let p = overNothing.rgba(50, y)
            #expect(p.g == 0 && p.b == 0, "row \(y): \(p)")
            #expect(p.r <= p.a)
        }
        // The same rule is why white to clear passes through grey on Core Animation.
        let white = try Self.render(Self.gradient([solid(1, 1, 1), clear]), clear: solid(0, 0, 0))
        #expect(white.rgba(50, 49).isClose(to: RGBA(65, 65, 65), tolerance: 2))
        // Red to red at alpha 0 keeps full red over black: (1 − t)·red.
        let redFade = try Self.render(Self.gradient([solid(1, 0, 0), solid(1, 0, 0, 0)]), clear: solid(0, 0, 0))
        #expect(redFade.rgba(50, 49).isClose(to: RGBA(129, 0, 0), tolerance: 2))
    }

    // MARK: Dithering

    /// A 1920-pixel black → 10 % grey ramp has 25.5 levels: about 75 px per level. Rounded
    /// without dither it shows bands that wide; dithered, no run of equal pixels along a row
    /// comes near that, and the average still follows the ramp.
    @Test func longShallowRampIsDitheredNotBanded() throws {
        let width = 1920
        let img = try Self.render(Self.gradient([solid(0, 0, 0), solid(0.1, 0.1, 0.1)], size: CGSize(width: width, height: 4)) {
            $0.startPoint = CGPoint(x: 0, y: 0.5)
            $0.endPoint = CGPoint(x: 1, y: 0.5)
        })
        let ideal = (0..<width).map { 25.5 * (Double($0) + 0.5) / Double(width) }
        func longestRun(_ v: [Int]) -> Int {
            var best = 1, run = 1
            for i in 1..<v.count { run = v[i] == v[i - 1] ? run + 1 : 1; best = max(best, run) }
            return best
        }
        let idealStep = Double(width) / 25.5
        let banded = longestRun(ideal.map { Int($0.rounded()) })
        #expect(Double(banded) > 0.9 * idealStep)   // what an undithered 8-bit ramp shows
        for y in 0..<4 {
            let row = (0..<width).map { img.rgba($0, y).r }
            let run = longestRun(row)
            #expect(Double(run) < 0.5 * idealStep, "row \(y): a run of \(run) equal pixels")
            // Unbiased: 64-pixel windows average to the ramp within a third of a level.
            for w in stride(from: 0, to: width, by: 64) {
                let got = row[w..<(w + 64)].reduce(0, +), want = ideal[w..<(w + 64)].reduce(0, +)
                #expect(abs(Double(got) - want) / 64 < 0.34, "row \(y) window \(w)")
            }
        }
        // Grey stays grey: the same noise on every channel.
        for x in stride(from: 0, to: width, by: 37) {
            let p = img.rgba(x, 2)
            #expect(p.r == p.g && p.g == p.b)
        }
    }

    // MARK: Clipping

    @Test func roundedMasksToBoundsCutsTheGradient() throws {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 100, height: 80)
        let g = CAGradientLayer()
        g.frame = CGRect(x: 10, y: 10, width: 80, height: 60)
        g.colors = [solid(1, 0, 0), solid(0, 0, 1)]
        g.cornerRadius = 20
        g.masksToBounds = true
        root.addSublayer(g)
        let img = try Self.render(root)
        #expect(img.rgba(11, 11) == RGBA(255, 255, 255))
        #expect(img.rgba(88, 68) == RGBA(255, 255, 255))
        #expect(img.rgba(50, 10).isClose(to: RGBA(253, 0, 2), tolerance: 1))
        #expect(img.rgba(50, 69).isClose(to: RGBA(2, 0, 253), tolerance: 1))
        #expect(img.rgba(10, 40).isClose(to: RGBA(125, 0, 130), tolerance: 2))
        // Antialiased arc: partial pixels between gradient and white.
        var partial = 0
        for y in 10..<30 { for x in 10..<30 { let p = img.rgba(x, y); if p.g > 20 && p.g < 235 { partial += 1 } } }
        #expect(partial >= 15)
        Golden.expectMatches(img, named: "gradient-rounded")
    }

    /// Issue 4: "an animation must not re-create textures or buffers". An animated gradient
    /// position reaches the GPU as instance data: after the first frame the ramp texture is not
    /// written again; new colours write it once.
    @Test func rampsAreUploadedOnlyWhenTheColoursChange() throws {
        let root = Self.gradient([CGColor(red: 1, green: 0, blue: 0, alpha: 1), CGColor(red: 0, green: 0, blue: 1, alpha: 1)])
        let g = root.sublayers![0] as! CAGradientLayer
        let move = CABasicAnimation(keyPath: "endPoint")
        move.fromValue = CGPoint(x: 0.5, y: 1); move.toValue = CGPoint(x: 1, y: 0.5); move.duration = 1
        g.add(move, forKey: "move")
        let r = try CARenderer(offscreenSize: root.bounds.size, options: .init(backend: .openGL))
        r.layer = root
        var uploads: [Int] = [], images: [CGImage] = []
        for t in [0.1, 0.5, 0.9] {
            images.append(try RenderHarness.frame(r, at: t))
            uploads.append(r.statistics.textureUploads)
        }
        #expect(uploads == [1, 0, 0], "\(uploads)")
        #expect(images[1].rgba(90, 10) != images[2].rgba(90, 10), "the gradient moved")
        // New colours (a commit) write the ramps once; the next frame with them writes nothing.
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        g.colors = [CGColor(red: 0, green: 1, blue: 0, alpha: 1), CGColor(red: 0, green: 0, blue: 1, alpha: 1)]
        CATransaction.commit()
        g.add(move, forKey: "again")
        uploads = []
        for t in [1.1, 1.5] {
            _ = try RenderHarness.frame(r, at: t)
            uploads.append(r.statistics.textureUploads)
        }
        #expect(uploads == [1, 0], "\(uploads)")
    }
}
