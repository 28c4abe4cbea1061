import Testing
import Foundation

/// Core Image filters on layers (issue 24, docs/FILTERS.md): every colour filter on known
/// colours against its formula worked by hand (Core Image works in linear light: sRGB decoded,
/// filtered, encoded), a blurred step edge against the Gaussian integral, vignette, pixellate and
/// bloom, and bad input (huge and NaN radii, a 10,000-filter chain, things that are not filters).
@Suite struct FilterTests {
    static let size = CGSize(width: 60, height: 60)

    /// sRGB → linear and back (IEC 61966-2-1).
    static func lin(_ c: Double) -> Double { c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4) }
    static func srgb(_ c: Double) -> Double {
        let x = min(max(c, 0), 1)
        return x <= 0.0031308 ? x * 12.92 : 1.055 * pow(x, 1 / 2.4) - 0.055
    }
    static func byte(_ c: Double) -> Int { Int((min(max(c, 0), 1) * 255).rounded()) }
    static func expect(_ rgb: (Double, Double, Double)) -> RGBA { RGBA(byte(rgb.0), byte(rgb.1), byte(rgb.2)) }

    /// A 40×40 layer of colour `c` at (10, 10) over white, with `filters`; the pixel at its centre.
    func centre(_ c: CGColor, _ filters: [Any]) throws -> RGBA {
        let root = CALayer()
        root.frame = CGRect(origin: .zero, size: Self.size)
        let l = CALayer()
        l.frame = CGRect(x: 10, y: 10, width: 40, height: 40)
        l.backgroundColor = c
        l.filters = filters
        root.addSublayer(l)
        return try RenderHarness.render(root, size: Self.size).rgba(30, 30)
    }

    func filter(_ name: String, _ values: [String: Any] = [:]) throws -> CIFilter {
        try #require(CIFilter(name: name, parameters: values))
    }

    @Test func colorMatrixSwapsChannelsAndAddsBiasInLinearLight() throws {
        let f = try filter("CIColorMatrix", ["inputRVector": CIVector(x: 0, y: 1, z: 0, w: 0),
                                             "inputGVector": CIVector(x: 1, y: 0, z: 0, w: 0),
                                             "inputBiasVector": CIVector(x: 0, y: 0, z: 0.5, w: 0)])
        // (1, 0.5, 0): linear (1, 0.214, 0) → r = g = 0.214, g = r = 1, b = 0 + 0.5 (linear).
        let px = try centre(solid(1, 0.5, 0), [f])
        #expect(px.isClose(to: Self.expect((0.5, 1, Self.srgb(0.5)))), "\(px)")
    }

    @Test func colorControlsSaturationZeroIsRec709Luminance() throws {
        let px = try centre(solid(1, 0.5, 0), [try filter("CIColorControls", [kCIInputSaturationKey: 0])])
        let y = Self.srgb(0.2126 * 1 + 0.7152 * Self.lin(0.5))
        #expect(px.isClose(to: Self.expect((y, y, y))), "\(px)")
    }

    @Test func colorControlsBrightnessThenContrastAboutAHalf() throws {
        let px = try centre(solid(0.5, 0.5, 0.5), [try filter("CIColorControls", [kCIInputBrightnessKey: 0.1, kCIInputContrastKey: 1.5])])
        let v = Self.srgb((Self.lin(0.5) + 0.1 - 0.5) * 1.5 + 0.5)
        #expect(px.isClose(to: Self.expect((v, v, v))), "\(px)")
    }

    /// A turn of 2π/3 about the grey axis takes red to green exactly.
    @Test func hueAdjustTurnsRedToGreen() throws {
        let px = try centre(solid(1, 0, 0), [try filter("CIHueAdjust", [kCIInputAngleKey: 2 * Double.pi / 3])])
        #expect(px.isClose(to: RGBA(0, 255, 0)), "\(px)")
    }

    @Test func exposureDoublesLinearLightPerStop() throws {
        let px = try centre(solid(0.5, 0.5, 0.5), [try filter("CIExposureAdjust", [kCIInputEVKey: 1])])
        let v = Self.srgb(2 * Self.lin(0.5))
        #expect(px.isClose(to: Self.expect((v, v, v))), "\(px)")
    }

    @Test func gammaRaisesToThePower() throws {
        let px = try centre(solid(0.5, 0.5, 0.5), [try filter("CIGammaAdjust", ["inputPower": 2])])
        let v = Self.srgb(pow(Self.lin(0.5), 2))
        #expect(px.isClose(to: Self.expect((v, v, v))), "\(px)")
    }

    @Test func sepiaToneAppliesTheSepiaMatrix() throws {
        let px = try centre(solid(0.5, 0.5, 0.5), [try filter("CISepiaTone")])
        let l = Self.lin(0.5)
        let rgb = (Self.srgb(l * (0.393 + 0.769 + 0.189)), Self.srgb(l * (0.349 + 0.686 + 0.168)), Self.srgb(l * (0.272 + 0.534 + 0.131)))
        #expect(px.isClose(to: Self.expect(rgb)), "\(px)")
        let half = try centre(solid(0.5, 0.5, 0.5), [try filter("CISepiaTone", [kCIInputIntensityKey: 0.5])])
        let mixed = (Self.srgb(0.5 * l + 0.5 * l * 1.351), Self.srgb(0.5 * l + 0.5 * l * 1.203), Self.srgb(0.5 * l + 0.5 * l * 0.937))
        #expect(half.isClose(to: Self.expect(mixed)), "\(half)")
    }

    @Test func colorInvertIsOneMinusInLinearLight() throws {
        let px = try centre(solid(1, 0.5, 0), [try filter("CIColorInvert")])
        #expect(px.isClose(to: Self.expect((0, Self.srgb(1 - Self.lin(0.5)), 1))), "\(px)")
    }

    /// White has luminance 1: monochrome gives the colour itself, false colour its second colour.
    @Test func monochromeAndFalseColorOnBlackAndWhite() throws {
        let mono = try centre(solid(1, 1, 1), [try filter("CIColorMonochrome")])
        #expect(mono.isClose(to: Self.expect((0.6, 0.45, 0.3))), "\(mono)")
        let tint = try centre(solid(1, 1, 1), [try filter("CIColorMonochrome", [kCIInputColorKey: CIColor(red: 0, green: 0, blue: 1)])])
        #expect(tint.isClose(to: RGBA(0, 0, 255)), "\(tint)")
        let white = try centre(solid(1, 1, 1), [try filter("CIFalseColor")])
        #expect(white.isClose(to: Self.expect((1, 0.9, 0.8))), "\(white)")
        let black = try centre(solid(0, 0, 0), [try filter("CIFalseColor")])
        #expect(black.isClose(to: Self.expect((0.3, 0, 0))), "\(black)")
    }

    @Test func filtersApplyInOrder() throws {
        // Invert then saturation 0: grey of the inverted colour.
        let px = try centre(solid(1, 0, 0), [try filter("CIColorInvert"), try filter("CIColorControls", [kCIInputSaturationKey: 0])])
        let y = Self.srgb(0.7152 + 0.0722)
        #expect(px.isClose(to: Self.expect((y, y, y))), "\(px)")
    }

    /// A white field whose left half is black, blurred with σ = inputRadius = 4 px: across the
    /// edge each pixel is the Gaussian integral Φ(t / σ), t its centre's distance past the edge.
    @Test func gaussianBlurOfAStepEdgeMatchesTheGaussianIntegral() throws {
        let size = CGSize(width: 200, height: 100)
        let root = CALayer()
        root.frame = CGRect(origin: .zero, size: size)
        let l = CALayer()
        l.frame = root.frame
        l.backgroundColor = solid(1, 1, 1)
        let dark = CALayer()
        dark.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
        dark.backgroundColor = solid(0, 0, 0)
        l.addSublayer(dark)
        l.filters = [try filter("CIGaussianBlur", [kCIInputRadiusKey: 4])]
        root.addSublayer(l)
        let img = try RenderHarness.render(root, size: size)
        func phi(_ x: Double) -> Double { 0.5 * (1 + erf(x / 2.0.squareRoot())) }
        var worst = 0
        for x in 84..<116 {
            let expected = Int((255 * phi((Double(x) + 0.5 - 100) / 4)).rounded())
            worst = max(worst, abs(img.rgba(x, 50).g - expected))
        }
        #expect(worst <= 2, "largest difference \(worst)/255")
        #expect(img.rgba(60, 50) == RGBA(0, 0, 0))
        #expect(img.rgba(140, 50) == RGBA(255, 255, 255))
    }

    /// The same blur at scale 2 reaches twice as many pixels (radius in points).
    @Test func blurRadiusIsInPoints() throws {
        let size = CGSize(width: 100, height: 50)
        func edge(_ scale: CGFloat) throws -> Int {
            let root = CALayer()
            root.frame = CGRect(origin: .zero, size: size)
            let l = CALayer()
            l.frame = root.frame
            l.backgroundColor = solid(1, 1, 1)
            let dark = CALayer()
            dark.frame = CGRect(x: 0, y: 0, width: 50, height: 50)
            dark.backgroundColor = solid(0, 0, 0)
            l.addSublayer(dark)
            l.filters = [try filter("CIGaussianBlur", [kCIInputRadiusKey: 3])]
            root.addSublayer(l)
            let img = try RenderHarness.render(root, size: size, scale: scale)
            // Point 52.5 (σ = 3 pt): Φ(2.5 / 3) whatever the scale (at scale 2 the pixels
            // whose centres are 52.25 and 52.75 points, averaged).
            if scale == 1 { return img.rgba(52, 25).g }
            return (img.rgba(104, 50).g + img.rgba(105, 50).g + 1) / 2
        }
        let one = try edge(1), two = try edge(2)
        #expect(abs(one - two) <= 3, "\(one) vs \(two)")
    }

    @Test func vignetteDarkensAwayFromTheCentre() throws {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
        let l = CALayer()
        l.frame = root.frame
        l.backgroundColor = solid(1, 1, 1)
        l.filters = [try filter("CIVignette", [kCIInputIntensityKey: 1, kCIInputRadiusKey: 1])]
        root.addSublayer(l)
        let img = try RenderHarness.render(root, size: CGSize(width: 100, height: 100))
        #expect(img.rgba(50, 50).isClose(to: RGBA(255, 255, 255)))
        // (95.5, 50.5): d = 45.5, r = half the diagonal = 70.71; 1 − smoothstep((d/r)²).
        let x = pow(45.5 / (0.5 * 100 * 2.0.squareRoot()), 2)
        let f = 1 - (3 * x * x - 2 * x * x * x)
        let v = Self.byte(Self.srgb(f))
        #expect(img.rgba(95, 50).isClose(to: RGBA(v, v, v)), "\(img.rgba(95, 50)) vs \(v)")
    }

    @Test func pixellateFillsEachCellWithItsCentreColour() throws {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 40, height: 40)
        let l = CALayer()
        l.frame = root.frame
        let red = CALayer(), blue = CALayer()
        red.frame = CGRect(x: 0, y: 0, width: 13, height: 40)
        red.backgroundColor = solid(1, 0, 0)
        blue.frame = CGRect(x: 13, y: 0, width: 27, height: 40)
        blue.backgroundColor = solid(0, 0, 1)
        l.addSublayer(red); l.addSublayer(blue)
        l.filters = [try filter("CIPixellate", [kCIInputScaleKey: 10, kCIInputCenterKey: CIVector(x: 0, y: 0)])]
        root.addSublayer(l)
        let img = try RenderHarness.render(root, size: CGSize(width: 40, height: 40))
        #expect(img.rgba(5, 20) == RGBA(255, 0, 0))
        // Pixel 11 was red; its cell [10, 20) samples x = 15, blue.
        #expect(img.rgba(11, 20) == RGBA(0, 0, 255))
    }

    @Test func bloomAddsAGlowAndIntensityZeroChangesNothing() throws {
        func render(_ intensity: Double) throws -> CGImage {
            let root = CALayer()
            root.frame = CGRect(x: 0, y: 0, width: 60, height: 60)
            let l = CALayer()
            l.frame = root.frame
            l.backgroundColor = solid(0, 0, 0)
            let dot = CALayer()
            dot.frame = CGRect(x: 20, y: 20, width: 20, height: 20)
            dot.backgroundColor = solid(1, 1, 1)
            l.addSublayer(dot)
            l.filters = [try filter("CIBloom", [kCIInputRadiusKey: 5, kCIInputIntensityKey: intensity])]
            root.addSublayer(l)
            return try RenderHarness.render(root, size: CGSize(width: 60, height: 60))
        }
        let none = try render(0), glow = try render(1)
        #expect(none.rgba(17, 30) == RGBA(0, 0, 0))
        #expect(glow.rgba(17, 30).r > 40, "\(glow.rgba(17, 30))")
        #expect(glow.rgba(30, 30) == RGBA(255, 255, 255))
    }

    // MARK: Key-path animation

    /// A white layer whose left half is black, with a blur named "blur" of radius 0.
    func edgeScene() throws -> (CALayer, CALayer) {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 60, height: 20)
        let l = CALayer()
        l.frame = root.frame
        l.backgroundColor = solid(1, 1, 1)
        let dark = CALayer()
        dark.frame = CGRect(x: 0, y: 0, width: 30, height: 20)
        dark.backgroundColor = solid(0, 0, 0)
        l.addSublayer(dark)
        let blur = try filter("CIGaussianBlur", [kCIInputRadiusKey: 0])
        blur.name = "blur"
        l.filters = [blur]
        root.addSublayer(l)
        return (root, l)
    }

    /// CALayer `filters` doc: a filter's parameters animate by key path through its name.
    @Test func animatingFiltersBlurInputRadiusChangesPixelsOverTime() throws {
        let (root, l) = try edgeScene()
        l.add(basic("filters.blur.inputRadius", from: 0, to: 6), forKey: "blur")
        let frames = try RenderHarness.renderFrames(root, size: CGSize(width: 60, height: 20), times: [0, 0.5, 0.999])
        // Pixel 32 (2.5 px past the edge): white while sharp, greyer as the blur widens.
        let v = frames.map { $0.rgba(32, 10).g }
        #expect(v[0] == 255, "\(v)")
        #expect(v[1] < v[0] && v[2] < v[1], "\(v)")
        // σ = 3 halfway: Φ(2.5 / 3).
        let expected = Int((255 * 0.5 * (1 + erf(2.5 / 3 / 2.0.squareRoot()))).rounded())
        #expect(abs(v[1] - expected) <= 3, "\(v[1]) vs \(expected)")
        // The model's filter is untouched by the animation.
        #expect((l.filters?.first as? CIFilter)?.number(kCIInputRadiusKey) == 0)
        #expect(l.value(forKeyPath: "filters.blur.inputRadius") as? CGFloat == 0)
    }

    /// setValue(_:forKeyPath:) on a committed layer animates implicitly (J4) to the new value.
    @Test func settingFiltersBlurInputRadiusAnimatesImplicitly() throws {
        let (root, l) = try edgeScene()
        let r = try CARenderer(offscreenSize: CGSize(width: 60, height: 20), options: .init(backend: .openGL))
        r.layer = root
        let before = try RenderHarness.frame(r, at: 0).rgba(32, 10).g
        l.setValue(6, forKeyPath: "filters.blur.inputRadius")
        #expect(l.value(forKeyPath: "filters.blur.inputRadius") as? CGFloat == 6)
        let start = try RenderHarness.frame(r, at: 1).rgba(32, 10).g
        let mid = try RenderHarness.frame(r, at: 1.125).rgba(32, 10).g
        let end = try RenderHarness.frame(r, at: 2).rgba(32, 10).g
        #expect(before == 255 && start == 255, "\(before) \(start)")
        #expect(mid < 255 && end < mid, "\(mid) \(end)")
    }

    // MARK: Bad input

    @Test func hugeAndNaNRadiiAreClampedWithAWarning() throws {
        for r in [1e9, Double.nan, Double.infinity] {
            let (px, warnings) = try RenderDiagnostics.capture { try centre(solid(0, 0, 1), [try filter("CIGaussianBlur", [kCIInputRadiusKey: r])]) }
            #expect(warnings.contains { $0.contains("inputRadius") }, "\(r): \(warnings)")
            if r.isNaN || r.isInfinite { #expect(px == RGBA(0, 0, 255)) } else { #expect(px.b > 0) }
        }
    }

    /// 10,000 inverts: the first 16 apply (an even number: the colour comes back), with a warning.
    @Test func tenThousandFilterChainIsCut() throws {
        let list: [Any] = try (0..<10_000).map { _ in try filter("CIColorInvert") }
        let (px, warnings) = try RenderDiagnostics.capture { try centre(solid(1, 0.5, 0), list) }
        #expect(px.isClose(to: RGBA(255, 128, 0)), "\(px)")
        #expect(warnings.contains { $0.contains("10000 filters") })
    }

    @Test func nonFiltersAndUnknownCompositingFiltersWarnAndAreSkipped() throws {
        let (px, warnings) = try RenderDiagnostics.capture { try centre(solid(0, 1, 0), ["CIGaussianBlur", 42]) }
        #expect(px == RGBA(0, 255, 0))
        #expect(warnings.contains { $0.contains("String") && $0.contains("not a CIFilter") })
        let root = CALayer()
        root.frame = CGRect(origin: .zero, size: Self.size)
        let l = CALayer()
        l.frame = root.frame
        l.backgroundColor = solid(0, 1, 0)
        l.compositingFilter = "bogusBlendMode"
        root.addSublayer(l)
        let (img, w2) = try RenderDiagnostics.capture { try RenderHarness.render(root, size: Self.size) }
        #expect(img.rgba(5, 5) == RGBA(0, 255, 0))
        #expect(w2.contains { $0.contains("bogusBlendMode") })
    }
}
