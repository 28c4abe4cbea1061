import Testing
import Foundation

/// `contents` as a CGImage: placement by `contentsGravity` (docs/BEHAVIOUR.md N5b, measured on Apple),
/// `contentsRect`, `contentsCenter`, `contentsScale`, the contents filters, premultiplied PNG
/// contents, clipping, oversized and broken images.
///
/// Gravity names follow the layer's own y axis (`top` = max y, Apple's `contentsGravity` doc);
/// in this project's y-down layer space that is the visual bottom of an unflipped layer, as on
/// iOS. N5b's rectangles are in layer coordinates, so they carry over unchanged.
@Suite struct ContentsTests {
    static let red = RGBA(255, 0, 0), blue = RGBA(0, 0, 255), white = RGBA(255, 255, 255)

    /// An image from straight (unpremultiplied) RGBA, `pixel(x, y)` with row 0 at the top.
    static func image(_ w: Int, _ h: Int, _ pixel: (Int, Int) -> RGBA) -> CGImage {
        var bytes = [UInt8]()
        bytes.reserveCapacity(w * h * 4)
        for y in 0..<h { for x in 0..<w { let p = pixel(x, y); bytes += [UInt8(p.r), UInt8(p.g), UInt8(p.b), UInt8(p.a)] } }
        return CGImage(width: w, height: h, rgba8Bytes: bytes, premultiplied: false)!
    }

    /// 20×10, top half red, bottom half blue: placement and orientation in one.
    static let redOverBlue = image(20, 10) { _, y in y < 5 ? red : blue }

    /// A 100×80 white frame with one 80×60 layer at (10, 10) showing `contents`.
    func scene(_ contents: Any?, _ configure: (CALayer) -> Void = { _ in }) -> CALayer {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 100, height: 80)
        let l = CALayer()
        l.frame = CGRect(x: 10, y: 10, width: 80, height: 60)
        l.contents = contents
        configure(l)
        root.addSublayer(l)
        return root
    }

    func render(_ root: CALayer, width: Int = 100, height: Int = 80, clear: CGColor? = solid(1, 1, 1)) throws -> CGImage {
        try RenderHarness.render(root, size: CGSize(width: width, height: height), clear: clear)
    }

    /// Pixel rectangle of everything that is not white, relative to (ox, oy).
    func paintedRect(_ img: CGImage, originX ox: Int = 10, originY oy: Int = 10) -> CGRect {
        var x0 = Int.max, y0 = Int.max, x1 = Int.min, y1 = Int.min
        for y in 0..<img.height {
            for x in 0..<img.width where img.rgba(x, y) != Self.white {
                x0 = min(x0, x); y0 = min(y0, y); x1 = max(x1, x + 1); y1 = max(y1, y + 1)
            }
        }
        guard x0 <= x1 else { return .null }
        return CGRect(x: x0 - ox, y: y0 - oy, width: x1 - x0, height: y1 - y0)
    }

    // MARK: Gravity (N5b)

    /// Every gravity for the 80×60 layer and 20×10 image, in layer coordinates (y down here;
    /// `top`/`bottom` name max-y/min-y as in N5b's y-up numbers).
    static let gravityCases: [(CALayerContentsGravity, CGRect)] = [
        (.resize, CGRect(x: 0, y: 0, width: 80, height: 60)),          // N5b
        (.resizeAspect, CGRect(x: 0, y: 10, width: 80, height: 40)),   // N5b
        (.resizeAspectFill, CGRect(x: -20, y: 0, width: 120, height: 60)),
        (.center, CGRect(x: 30, y: 25, width: 20, height: 10)),        // N5b
        (.top, CGRect(x: 30, y: 50, width: 20, height: 10)),           // N5b: the max-y edge
        (.bottom, CGRect(x: 30, y: 0, width: 20, height: 10)),
        (.left, CGRect(x: 0, y: 25, width: 20, height: 10)),
        (.right, CGRect(x: 60, y: 25, width: 20, height: 10)),
        (.topLeft, CGRect(x: 0, y: 50, width: 20, height: 10)),
        (.topRight, CGRect(x: 60, y: 50, width: 20, height: 10)),
        (.bottomLeft, CGRect(x: 0, y: 0, width: 20, height: 10)),      // N5b
        (.bottomRight, CGRect(x: 60, y: 0, width: 20, height: 10)),
    ]

    @Test(arguments: gravityCases)
    func N5b_gravityPlacesTheImageExactly(gravity: CALayerContentsGravity, expected: CGRect) throws {
        let img = try render(scene(Self.redOverBlue) { $0.contentsGravity = gravity })
        // resizeAspectFill overflows the bounds (drawn, no masksToBounds) and the frame's edge.
        let visible = expected.offsetBy(dx: 10, dy: 10).intersection(CGRect(x: 0, y: 0, width: 100, height: 80))
            .offsetBy(dx: -10, dy: -10)
        #expect(paintedRect(img) == visible, "gravity \(gravity.rawValue)")
        // Upright: the image's top rows (red) above its bottom rows (blue), whatever the edge.
        let midX = Int(visible.midX) + 10
        #expect(img.rgba(midX, Int(expected.minY) + 10 + 1) == Self.red)
        #expect(img.rgba(midX, Int(expected.maxY) + 10 - 2) == Self.blue)
    }

    @Test func N5b_unknownGravityReadsBackAsCenterAndDrawsCentred() throws {
        let root = scene(Self.redOverBlue) { $0.contentsGravity = CALayerContentsGravity(rawValue: "sideways") }
        #expect(root.sublayers![0].contentsGravity == .center)
        #expect(paintedRect(try render(root)) == CGRect(x: 30, y: 25, width: 20, height: 10))
        #expect(CALayer().contentsGravity == .resize)
    }

    @Test func gravitySheetGolden() throws {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 4 * 90, height: 3 * 70)
        for (i, (g, _)) in Self.gravityCases.enumerated() {
            let l = CALayer()
            l.frame = CGRect(x: 5 + 90 * (i % 4), y: 5 + 70 * (i / 4), width: 80, height: 60)
            l.backgroundColor = solid(0.85, 0.85, 0.85)
            l.contents = Self.redOverBlue
            l.contentsGravity = g
            l.masksToBounds = true
            root.addSublayer(l)
        }
        Golden.expectMatches(try render(root, width: 360, height: 210), named: "contents-gravity")
    }

    /// `isGeometryFlipped` on the layer turns its y axis up, so `.top` is the visual top; an
    /// ancestor's flip turns the plane over and the image is mirrored back to stay upright.
    @Test func flippedGeometryPutsTopAtTheVisualTopAndKeepsTheImageUpright() throws {
        let own = try render(scene(Self.redOverBlue) { $0.contentsGravity = .top; $0.isGeometryFlipped = true })
        #expect(paintedRect(own) == CGRect(x: 30, y: 0, width: 20, height: 10))
        #expect(own.rgba(50, 10) == Self.red)
        #expect(own.rgba(50, 19) == Self.blue)

        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 100, height: 80)
        let container = CALayer()
        container.frame = CGRect(x: 10, y: 10, width: 80, height: 60)
        container.isGeometryFlipped = true
        let l = CALayer()
        l.frame = CGRect(x: 0, y: 0, width: 80, height: 60)   // y up from the container's bottom
        l.contents = Self.redOverBlue
        l.contentsGravity = .topLeft
        container.addSublayer(l)
        root.addSublayer(container)
        let nested = try render(root)
        #expect(paintedRect(nested) == CGRect(x: 0, y: 0, width: 20, height: 10))
        #expect(nested.rgba(15, 10) == Self.red)
        #expect(nested.rgba(15, 19) == Self.blue)
    }

    // MARK: contentsRect, contentsCenter, contentsScale

    /// 20×10 in four 10×5 quadrants: red, green / blue, yellow.
    static let quadrants = image(20, 10) { x, y in
        switch (x < 10, y < 5) {
        case (true, true): return RGBA(255, 0, 0)
        case (false, true): return RGBA(0, 255, 0)
        case (true, false): return RGBA(0, 0, 255)
        case (false, false): return RGBA(255, 255, 0)
        }
    }

    @Test func contentsRectQuarterOfTheImageFillsTheLayer() throws {
        let tl = try render(scene(Self.quadrants) { $0.contentsRect = CGRect(x: 0, y: 0, width: 0.5, height: 0.5) })
        let br = try render(scene(Self.quadrants) { $0.contentsRect = CGRect(x: 0.5, y: 0.5, width: 0.5, height: 0.5) })
        // Away from the edges, where linear filtering reaches the neighbouring quadrant.
        for (x, y) in [(20, 20), (50, 40), (79, 59), (20, 59), (79, 20)] {
            #expect(tl.rgba(x, y) == RGBA(255, 0, 0), "(\(x), \(y))")
            #expect(br.rgba(x, y) == RGBA(255, 255, 0), "(\(x), \(y))")
        }
        #expect(paintedRect(tl) == CGRect(x: 0, y: 0, width: 80, height: 60))
        // The natural size follows the contentsRect: a quarter of 20×10 centred is 10×5.
        let centred = try render(scene(Self.quadrants) {
            $0.contentsRect = CGRect(x: 0.5, y: 0, width: 0.5, height: 0.5)
            $0.contentsGravity = .bottomLeft
        })
        #expect(paintedRect(centred) == CGRect(x: 0, y: 0, width: 10, height: 5))
        #expect(centred.rgba(12, 12) == RGBA(0, 255, 0))
    }

    /// 30×30: 10×10 red corners, green edges, blue centre; contentsCenter the middle third.
    static let ninePatch = image(30, 30) { x, y in
        let ex = x < 10 || x >= 20, ey = y < 10 || y >= 20
        return ex && ey ? RGBA(255, 0, 0) : (ex || ey ? RGBA(0, 255, 0) : RGBA(0, 0, 255))
    }

    @Test func contentsCenterNineSliceKeepsTheCornersTheirSize() throws {
        let img = try render(scene(Self.ninePatch) { $0.contentsCenter = CGRect(x: 1.0 / 3, y: 1.0 / 3, width: 1.0 / 3, height: 1.0 / 3) })
        // Corners: exactly 10×10 red at each corner of the 80×60 layer (drawn 1:1).
        for (cx, cy) in [(10, 10), (80, 10), (10, 60), (80, 60)] {
            for d in 0..<10 {
                #expect(img.rgba(cx + d, cy + d) == RGBA(255, 0, 0), "corner at (\(cx), \(cy)) + \(d)")
            }
        }
        // Edges stretch along their length only; the centre fills the rest.
        #expect(img.rgba(50, 15) == RGBA(0, 255, 0))
        #expect(img.rgba(50, 64) == RGBA(0, 255, 0))
        #expect(img.rgba(15, 40) == RGBA(0, 255, 0))
        #expect(img.rgba(50, 40) == RGBA(0, 0, 255))
        #expect(img.rgba(25, 25) == RGBA(0, 0, 255))
        // Without contentsCenter the whole image stretches: the red corner grows to 26×20.
        let plain = try render(scene(Self.ninePatch))
        #expect(plain.rgba(30, 22) == RGBA(255, 0, 0))
        #expect(img.rgba(30, 22) != RGBA(255, 0, 0))
        Golden.expectMatches(img, named: "contents-nine-slice")
    }

    @Test func contentsScaleTwoHalvesTheNaturalSize() throws {
        let square = Self.image(20, 20) { _, y in y < 10 ? Self.red : Self.blue }
        let one = try render(scene(square) { $0.contentsGravity = .center })
        let two = try render(scene(square) { $0.contentsGravity = .center; $0.contentsScale = 2 })
        #expect(paintedRect(one) == CGRect(x: 30, y: 20, width: 20, height: 20))
        #expect(paintedRect(two) == CGRect(x: 35, y: 25, width: 10, height: 10))
        let corner = try render(scene(square) { $0.contentsGravity = .bottomRight; $0.contentsScale = 2 })
        #expect(paintedRect(corner) == CGRect(x: 70, y: 0, width: 10, height: 10))
        // resize ignores the natural size.
        let resized = try render(scene(square) { $0.contentsScale = 2 })
        #expect(paintedRect(resized) == CGRect(x: 0, y: 0, width: 80, height: 60))
    }

    // MARK: Filters

    static let checker2 = image(2, 2) { x, y in (x + y) % 2 == 0 ? RGBA(0, 0, 0) : RGBA(255, 255, 255) }

    @Test func magnificationNearestGivesHardBlocksLinearGivesIntermediateValues() throws {
        func row(_ filter: CALayerContentsFilter) throws -> [Int] {
            let root = CALayer()
            root.frame = CGRect(x: 0, y: 0, width: 40, height: 40)
            let l = CALayer()
            l.frame = root.bounds
            l.contents = Self.checker2
            l.magnificationFilter = filter
            root.addSublayer(l)
            let img = try RenderHarness.render(root, size: CGSize(width: 40, height: 40))
            return (0..<40).map { img.rgba($0, 5).r }
        }
        let nearest = try row(.nearest)
        #expect(nearest == Array(repeating: 0, count: 20) + Array(repeating: 255, count: 20))
        let linear = try row(.linear)
        #expect(linear[0] == 0 && linear[39] == 255)           // edge texels extend
        #expect(linear.filter { $0 > 20 && $0 < 235 }.count >= 10)
        #expect(abs(linear[20] - 134) <= 3)                    // 0.525 of the way from black
        for i in 1..<40 { #expect(linear[i] >= linear[i - 1]) }
    }

    /// 1-pixel checker, `n`×`n`, shown at 32×32 with the given minification filter.
    func minified(_ n: Int, _ filter: CALayerContentsFilter) throws -> CGImage {
        let checker = Self.image(n, n) { x, y in (x + y) % 2 == 0 ? RGBA(0, 0, 0) : RGBA(255, 255, 255) }
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 32, height: 32)
        let l = CALayer()
        l.frame = root.bounds
        l.contents = checker
        l.minificationFilter = filter
        root.addSublayer(l)
        return try RenderHarness.render(root, size: CGSize(width: 32, height: 32))
    }

    @Test func trilinearMinificationAveragesAFineCheckerToGrey() throws {
        // 256 → 32 (1/8): trilinear reads the mip level where the checker has averaged out.
        let tri = try minified(256, .trilinear)
        for y in 0..<32 { for x in 0..<32 { #expect(abs(tri.rgba(x, y).r - 128) <= 3, "(\(x), \(y))") } }
        // Nearest picks single texels: pure black or white, never grey.
        let nearest = try minified(256, .nearest)
        for y in 0..<32 { for x in 0..<32 { #expect([0, 255].contains(nearest.rgba(x, y).r)) } }
        // At 240 → 32 (1/7.5) bilinear without mipmaps aliases (samples between two texels at
        // 1/4 : 3/4), trilinear stays grey.
        let linear = try minified(240, .linear)
        var far = 0
        for y in 0..<32 { for x in 0..<32 where abs(linear.rgba(x, y).r - 128) > 20 { far += 1 } }
        #expect(far > 900)
        let tri75 = try minified(240, .trilinear)
        for y in 0..<32 { for x in 0..<32 { #expect(abs(tri75.rgba(x, y).r - 128) <= 4) } }
    }

    // MARK: Premultiplied PNG contents, clipping

    @Test func translucentPNGContentsArePremultipliedOnce() throws {
        // Straight (200, 100, 50) at alpha 128, through pngData() and back.
        let source = Self.image(8, 8) { _, _ in RGBA(200, 100, 50, 128) }
        let png = try #require(source.pngData())
        let decoded = try #require(CGImage(pngData: png))
        #expect(decoded.rgba(3, 3).isClose(to: RGBA(100, 50, 25, 128), tolerance: 1))
        let img = try render(scene(decoded))
        // Over white: c + (1 − a)·255 = (100 + 127, 50 + 127, 25 + 127). Premultiplying twice
        // would give (177, 152, 140); not at all, (255, 177, 152).
        #expect(img.rgba(50, 40).isClose(to: RGBA(227, 177, 152), tolerance: 2))
        // Over a transparent target the stored pixel is premultiplied, as the image was.
        let clear = try render(scene(decoded), clear: nil)
        #expect(clear.rgba(50, 40).isClose(to: RGBA(100, 50, 25, 128), tolerance: 2))
    }

    @Test func contentsAreClippedByMasksToBoundsWithCornerRadius() throws {
        let solidRed = Self.image(4, 4) { _, _ in Self.red }
        let img = try render(scene(solidRed) { $0.cornerRadius = 20; $0.masksToBounds = true })
        #expect(img.rgba(11, 11) == Self.white)
        #expect(img.rgba(88, 68) == Self.white)
        #expect(img.rgba(50, 40) == Self.red)
        #expect(img.rgba(10, 40) == Self.red)
        #expect(img.rgba(50, 10) == Self.red)
        // Without masksToBounds cornerRadius leaves contents square (it "applies only to the
        // background color and border").
        let square = try render(scene(solidRed) { $0.cornerRadius = 20 })
        #expect(square.rgba(10, 10) == Self.red)
        // resizeAspectFill overflows the bounds; masksToBounds cuts it back to them.
        let fill = try render(scene(Self.redOverBlue) { $0.contentsGravity = .resizeAspectFill; $0.masksToBounds = true })
        #expect(paintedRect(fill) == CGRect(x: 0, y: 0, width: 80, height: 60))
        Golden.expectMatches(img, named: "contents-rounded-clip")
    }

    // MARK: Bad input

    @Test func imagesBeyondTheTextureLimitAreDownscaledWithAWarning() throws {
        // 300×150, left half red, right half blue, on a renderer limited to 64-pixel textures.
        let big = Self.image(300, 150) { x, _ in x < 150 ? Self.red : Self.blue }
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 64, height: 48)
        let l = CALayer()
        l.frame = CGRect(x: 0, y: 8, width: 64, height: 32)
        l.contents = big
        root.addSublayer(l)
        let r = try CARenderer(offscreenSize: CGSize(width: 64, height: 48), scale: 1, maxTextureSize: 64, options: .init(backend: .openGL))
        r.clearColor = solid(1, 1, 1)
        r.layer = root
        r.beginFrame(atTime: 0)
        let (_, warnings) = try RenderDiagnostics.capture { try r.renderChecked() }
        r.endFrame()
        let img = try r.makeImage()
        #expect(warnings.contains("image 300×150 exceeds the texture size limit 64: downscaled to 64×32"))
        #expect(img.rgba(5, 20) == Self.red)
        #expect(img.rgba(30, 20) == Self.red)
        #expect(img.rgba(34, 20) == Self.blue)
        #expect(img.rgba(60, 39) == Self.blue)
        #expect(img.rgba(30, 5) == Self.white)
    }

    @Test func corruptPNGGivesNoImageAndNothingIsDrawn() throws {
        let good = try #require(Self.redOverBlue.pngData())
        #expect(CGImage(pngData: good) != nil)
        #expect(CGImage(pngData: good.prefix(good.count / 2)) == nil)        // truncated
        var flipped = good
        flipped[20] ^= 0xFF                                                 // IHDR damaged (CRC fails)
        #expect(CGImage(pngData: flipped) == nil)
        #expect(CGImage(pngData: Data("not a png at all".utf8)) == nil)
        // A layer whose contents are no image draws its background only.
        for contents: Any? in [CGImage(pngData: Data([0x89, 0x50, 0x4E, 0x47])), "not an image", 42] {
            let img = try render(scene(contents) { $0.backgroundColor = solid(0, 1, 0) })
            #expect(img.rgba(50, 40) == RGBA(0, 255, 0))
        }
    }
}
