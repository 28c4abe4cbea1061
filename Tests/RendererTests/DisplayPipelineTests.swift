import Testing
import Foundation

/// A layer that draws with `draw(in:)`: `paint` does the drawing; the layer counts its draws
/// and records the clip each draw was given (Apple's `draw(in:)`: "The context may be clipped
/// to protect valid layer content … call boundingBoxOfClipPath").
final class PaintedLayer: CALayer {
    var paint: (PaintedLayer, CGContext) -> Void = { _, _ in }
    var draws = 0
    var clipBoxes: [CGRect] = []

    override init() { super.init() }
    required init(layer: Any) {
        super.init(layer: layer)
        if let l = layer as? PaintedLayer { paint = l.paint }
    }
    required init?(coder: NSCoder) { nil }

    override func draw(in ctx: CGContext) {
        draws += 1
        clipBoxes.append(ctx.boundingBoxOfClipPath)
        paint(self, ctx)
    }
}

/// Fills `rect` with an opaque colour.
func fill(_ ctx: CGContext, _ rect: CGRect, _ r: CGFloat, _ g: CGFloat, _ b: CGFloat) {
    ctx.setFillColor(CGColor(red: r, green: g, blue: b, alpha: 1))
    ctx.fill(rect)
}

/// The display pipeline end to end through `CARenderer` (docs/BEHAVIOUR.md P1–P6): layers marked
/// with `setNeedsLayout()`/`setNeedsDisplay()` are laid out and drawn at the frame's commit, and
/// what `draw(in:)` drew is on screen in that frame. Expected pixels are worked out by hand
/// from the layer geometry (y down from the top left, one pixel per point unless said).
@Suite struct DisplayPipelineTests {
    static let white = RGBA(255, 255, 255), red = RGBA(255, 0, 0), blue = RGBA(0, 0, 255), black = RGBA(0, 0, 0)

    /// A 60×50 root with one `PaintedLayer` of 40×30 at (10, 10).
    func scene(_ configure: (PaintedLayer) -> Void = { _ in }) -> (CALayer, PaintedLayer) {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 60, height: 50)
        let l = PaintedLayer()
        l.frame = CGRect(x: 10, y: 10, width: 40, height: 30)
        configure(l)
        root.addSublayer(l)
        return (root, l)
    }

    func renderer(_ root: CALayer, scale: CGFloat = 1) throws -> CARenderer {
        let r = try CARenderer(offscreenSize: CGSize(width: 60, height: 50), scale: scale, options: .init(backend: .openGL))
        r.clearColor = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
        r.layer = root
        return r
    }

    @Test("P2: setNeedsDisplay → draw(in:) once at the frame's commit, in the layer's coordinates (top left, y down); the image becomes contents")
    func drawnAtCommit() throws {
        let (root, l) = scene { l in
            l.paint = { _, ctx in fill(ctx, CGRect(x: 0, y: 0, width: 20, height: 10), 1, 0, 0) }
        }
        l.setNeedsDisplay()
        #expect(l.draws == 0, "nothing is drawn before the commit")
        let r = try renderer(root)
        let img = try RenderHarness.frame(r, at: 0)
        #expect(l.draws == 1)
        let contents = try #require(l.contents as? CGImage)
        #expect(contents.width == 40 && contents.height == 30, "bounds × contentsScale")
        // Layer (0,0)–(20,10) → pixels x 10..<30, y 10..<20.
        GeometryProbe.expectRegion(img, 10...29, 10...19, Self.red)
        GeometryProbe.expectRegion(img, 30...49, 10...39, Self.white)
        GeometryProbe.expectRegion(img, 10...29, 20...39, Self.white)
        _ = try RenderHarness.frame(r, at: 1)
        #expect(l.draws == 1, "not redrawn by later frames")
    }

    @Test("P1: setNeedsLayout → layoutSublayers once per commit, sublayer frames updated before the frame renders")
    func layoutAtCommit() throws {
        final class SplitLayer: CALayer {
            var layouts = 0
            override func layoutSublayers() {
                layouts += 1
                // The sublayer takes the right half.
                sublayers?.first?.frame = CGRect(x: bounds.width / 2, y: 0, width: bounds.width / 2, height: bounds.height)
            }
        }
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 60, height: 50)
        let split = SplitLayer()
        split.frame = CGRect(x: 0, y: 0, width: 20, height: 20)
        let child = CALayer()
        child.backgroundColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
        split.addSublayer(child)
        root.addSublayer(split)
        let r = try renderer(root)
        var img = try RenderHarness.frame(r, at: 0)
        #expect(split.layouts == 1, "the bounds set at creation asked for layout")
        GeometryProbe.expectRegion(img, 10...19, 0...19, Self.blue)
        GeometryProbe.expectRegion(img, 0...9, 0...19, Self.white)
        // Without implicit animations (the layout's own frame change joins this transaction).
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        split.bounds = CGRect(x: 0, y: 0, width: 40, height: 30)   // frame now (-10,-5)–(30,25)
        split.setNeedsLayout()
        CATransaction.commit()
        #expect(split.layouts == 2, "laid out by that commit")
        img = try RenderHarness.frame(r, at: 0.1)
        #expect(split.layouts == 2, "once for that commit, however often marked")
        // Right half of the new bounds: x 10..<30, y -5..<25 → pixels 10...29, 0...24.
        GeometryProbe.expectRegion(img, 10...29, 0...24, Self.blue)
        GeometryProbe.expectRegion(img, 30...59, 0...49, Self.white)
        _ = try RenderHarness.frame(r, at: 0.2)
        #expect(split.layouts == 2)
    }

    @Test("P3: setNeedsDisplay(_:) redraws only that rectangle: the clip's bounding box is the rectangle, pixels outside keep the last drawing")
    func dirtyRect() throws {
        var color: (CGFloat, CGFloat, CGFloat) = (1, 0, 0)
        let (root, l) = scene { l in
            l.paint = { l, ctx in fill(ctx, l.bounds, color.0, color.1, color.2) }
        }
        l.setNeedsDisplay()
        let r = try renderer(root)
        var img = try RenderHarness.frame(r, at: 0)
        GeometryProbe.expectRegion(img, 10...49, 10...39, Self.red)
        #expect(l.clipBoxes.last == l.bounds, "a whole redraw is clipped to the bounds")
        let first = try #require(l.contents as? CGImage)
        color = (0, 0, 1)
        let dirty = CGRect(x: 5, y: 8, width: 12, height: 6)
        l.setNeedsDisplay(dirty)
        img = try RenderHarness.frame(r, at: 0.1)
        #expect(l.draws == 2)
        #expect(l.clipBoxes.last == dirty)
        #expect((l.contents as? CGImage) !== first, "a new image: the old one is never written to")
        // Layer (5,8)–(17,14) → pixels 15..<27, 18..<24: blue; the rest of the layer still red.
        GeometryProbe.expectRegion(img, 15...26, 18...23, Self.blue)
        GeometryProbe.expectRegion(img, 10...14, 10...39, Self.red)
        GeometryProbe.expectRegion(img, 27...49, 10...39, Self.red)
        GeometryProbe.expectRegion(img, 15...26, 10...17, Self.red)
        GeometryProbe.expectRegion(img, 15...26, 24...39, Self.red)
        // Two rectangles before one display: their union is redrawn.
        color = (0, 1, 0)
        l.setNeedsDisplay(CGRect(x: 0, y: 0, width: 2, height: 2))
        l.setNeedsDisplay(CGRect(x: 38, y: 28, width: 2, height: 2))
        img = try RenderHarness.frame(r, at: 0.2)
        #expect(l.clipBoxes.last == CGRect(x: 0, y: 0, width: 40, height: 30))
    }

    @Test("P3: a dirty rectangle with fractional edges is rounded out to whole backing-store pixels")
    func dirtyRectRoundsOut() throws {
        let (root, l) = scene { l in l.contentsScale = 2 }
        l.setNeedsDisplay()
        let r = try renderer(root)
        _ = try RenderHarness.frame(r, at: 0)
        l.setNeedsDisplay(CGRect(x: 1.2, y: 2.3, width: 3, height: 1))
        _ = try RenderHarness.frame(r, at: 0.1)
        // At 2 pixels a point: x 2.4→2 … 8.4→9, y 4.6→4 … 6.6→7 pixels; back in points:
        #expect(l.clipBoxes.last == CGRect(x: 1, y: 2, width: 3.5, height: 1.5))
    }

    @Test("P5: needsDisplayOnBoundsChange redraws at the new size; without it the old drawing is stretched")
    func displayOnBoundsChange() throws {
        func run(_ flag: Bool) throws -> (CGImage, Int) {
            let (root, l) = scene { l in
                l.needsDisplayOnBoundsChange = flag
                // A 10-point bar at the left edge.
                l.paint = { l, ctx in fill(ctx, CGRect(x: 0, y: 0, width: 10, height: l.bounds.height), 1, 0, 0) }
            }
            l.setNeedsDisplay()
            let r = try renderer(root)
            _ = try RenderHarness.frame(r, at: 0)
            CATransaction.begin()
            CATransaction.setDisableActions(true)
            l.bounds = CGRect(x: 0, y: 0, width: 20, height: 30)
            l.position = CGPoint(x: 20, y: 25)   // frame (10, 10)–(30, 40)
            CATransaction.commit()
            return (try RenderHarness.frame(r, at: 0.1), l.draws)
        }
        let (redrawn, draws) = try run(true)
        #expect(draws == 2)
        GeometryProbe.expectRegion(redrawn, 10...19, 10...39, Self.red)
        GeometryProbe.expectRegion(redrawn, 20...29, 10...39, Self.white)
        let (stretched, kept) = try run(false)
        #expect(kept == 1)
        // The 40-point drawing squeezed into 20 points: its 10-point bar is 5 wide.
        GeometryProbe.expectRegion(stretched, 10...14, 10...39, Self.red)
        GeometryProbe.expectRegion(stretched, 15...29, 10...39, Self.white)
    }

    @Test("P2: a delegate's display(_:) takes precedence over draw(in:) and the delegate's draw(_:in:)")
    func delegatePrecedence() throws {
        final class Delegate: CALayerDelegate {
            var draws = 0, willDraws = 0
            func layerWillDraw(_ layer: CALayer) { willDraws += 1 }
            func draw(_ layer: CALayer, in ctx: CGContext) {
                draws += 1
                fill(ctx, CGRect(x: 0, y: 0, width: 40, height: 30), 0, 0, 1)
            }
        }
        final class DisplayingDelegate: CALayerDelegate {
            var displays = 0, draws = 0
            static let green = CGImage(width: 1, height: 1, rgba8Bytes: [0, 255, 0, 255], premultiplied: true)!
            func display(_ layer: CALayer) { displays += 1; layer.contents = Self.green }
            func draw(_ layer: CALayer, in ctx: CGContext) { draws += 1 }
        }
        // Delegate without display(_:): the default draw(in:) asks its draw(_:in:).
        let drawing = Delegate()
        let (root1, _) = scene()
        let plain = CALayer()
        plain.frame = CGRect(x: 10, y: 10, width: 40, height: 30)
        plain.delegate = drawing
        root1.sublayers = [plain]
        plain.setNeedsDisplay()
        let img1 = try RenderHarness.frame(try renderer(root1), at: 0)
        #expect(drawing.draws == 1 && drawing.willDraws == 1, "layerWillDraw(_:) first, then draw(_:in:)")
        GeometryProbe.expectRegion(img1, 10...49, 10...39, Self.blue)
        // Delegate with display(_:): it supplies the contents; nothing is drawn.
        let displaying = DisplayingDelegate()
        let (root2, painted) = scene { l in l.paint = { _, ctx in fill(ctx, CGRect(x: 0, y: 0, width: 40, height: 30), 1, 0, 0) } }
        painted.delegate = displaying
        painted.setNeedsDisplay()
        let img2 = try RenderHarness.frame(try renderer(root2), at: 0)
        #expect(displaying.displays == 1 && displaying.draws == 0 && painted.draws == 0)
        GeometryProbe.expectRegion(img2, 10...49, 10...39, RGBA(0, 255, 0))
    }

    @Test("P2: contentsScale 2 gives a backing store of twice the size, drawn at twice the resolution")
    func contentsScaleTwo() throws {
        let (root, l) = scene { l in
            l.contentsScale = 2
            // 10.5 points wide: 21 pixels at scale 2, a partial pixel at scale 1.
            l.paint = { _, ctx in fill(ctx, CGRect(x: 0, y: 0, width: 10.5, height: 5), 1, 0, 0) }
        }
        l.setNeedsDisplay()
        let img = try RenderHarness.frame(try renderer(root, scale: 2), at: 0)
        let contents = try #require(l.contents as? CGImage)
        #expect(contents.width == 80 && contents.height == 60)
        #expect(contents.rgba(20, 0) == Self.red && contents.rgba(21, 0) == RGBA(0, 0, 0, 0))
        #expect(contents.rgba(0, 9) == Self.red && contents.rgba(0, 10) == RGBA(0, 0, 0, 0))
        // On a 2× target the layer's pixels are the backing store's, one to one.
        GeometryProbe.expectRegion(img, 20...40, 20...29, Self.red)
        GeometryProbe.expectRegion(img, 41...60, 20...29, Self.white)
    }

    @Test("P2: an opaque layer's backing store is opaque: what draw(in:) leaves undrawn is black")
    func opaqueBackingStore() throws {
        let (root, l) = scene { l in
            l.isOpaque = true
            l.paint = { _, ctx in fill(ctx, CGRect(x: 0, y: 0, width: 10, height: 10), 1, 0, 0) }
        }
        l.setNeedsDisplay()
        let img = try RenderHarness.frame(try renderer(root), at: 0)
        GeometryProbe.expectRegion(img, 10...19, 10...19, Self.red)
        GeometryProbe.expectRegion(img, 20...49, 10...39, Self.black)
        let contents = try #require(l.contents as? CGImage)
        #expect(contents.rgba(39, 29) == Self.black)
        // Not opaque: the same drawing leaves the rest transparent (the white clear colour shows).
        let (root2, l2) = scene { l in l.paint = { _, ctx in fill(ctx, CGRect(x: 0, y: 0, width: 10, height: 10), 1, 0, 0) } }
        l2.setNeedsDisplay()
        let img2 = try RenderHarness.frame(try renderer(root2), at: 0)
        GeometryProbe.expectRegion(img2, 20...49, 10...39, Self.white)
    }

    @Test("P4: contentsAreFlipped(): the context's y axis follows the flipped geometry, so drawing lands where a sublayer at the same coordinates does")
    func flippedContents() throws {
        /// The layer draws its top half (y 0..<15 in its own coordinates) red; a sublayer with
        /// the same frame, blue, is drawn in a second scene: both must cover the same pixels.
        func render(parentFlipped: Bool, selfFlipped: Bool, drawn: Bool) throws -> CGImage {
            let (root, l) = scene { l in
                l.isGeometryFlipped = selfFlipped
                if drawn { l.paint = { _, ctx in fill(ctx, CGRect(x: 0, y: 0, width: 40, height: 15), 1, 0, 0) } }
            }
            root.isGeometryFlipped = parentFlipped
            if drawn {
                l.setNeedsDisplay()
                #expect(l.contentsAreFlipped() == (parentFlipped != selfFlipped))
            } else {
                let s = CALayer()
                s.frame = CGRect(x: 0, y: 0, width: 40, height: 15)
                s.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
                l.addSublayer(s)
            }
            return try RenderHarness.frame(try renderer(root), at: 0)
        }
        for (parent, own) in [(false, false), (true, false), (false, true)] {
            let drawn = try render(parentFlipped: parent, selfFlipped: own, drawn: true)
            let sub = try render(parentFlipped: parent, selfFlipped: own, drawn: false)
            for y in 0..<50 { for x in 0..<60 where drawn.rgba(x, y) != sub.rgba(x, y) {
                Issue.record("parent flipped \(parent), own \(own): pixel (\(x), \(y)) drawn \(drawn.rgba(x, y)), sublayer \(sub.rgba(x, y))")
                return
            } }
        }
        // By hand: unflipped, the top half of the layer (pixels y 10..<25) is red; under a
        // flipped parent the layer's y axis runs up, so it is the lower half (y 25..<40).
        let plain = try render(parentFlipped: false, selfFlipped: false, drawn: true)
        GeometryProbe.expectRegion(plain, 10...49, 10...24, Self.red)
        GeometryProbe.expectRegion(plain, 10...49, 25...39, Self.white)
        let underFlipped = try render(parentFlipped: true, selfFlipped: false, drawn: true)
        GeometryProbe.expectRegion(underFlipped, 10...49, 25...39, Self.red)
        GeometryProbe.expectRegion(underFlipped, 10...49, 10...24, Self.white)
    }

    @Test("P2: contentsFormat: gray8Uint draws into a gray store; RGBA16Float is drawn in 8-bit RGBA with a warning")
    func contentsFormats() throws {
        let (root, gray) = scene { l in
            l.contentsFormat = .gray8Uint
            l.paint = { _, ctx in fill(ctx, CGRect(x: 0, y: 0, width: 20, height: 30), 1, 0, 0) }
        }
        gray.setNeedsDisplay()
        _ = try RenderHarness.frame(try renderer(root), at: 0)
        let g = try #require(gray.contents as? CGImage)
        let drawn = g.rgba(0, 0)
        #expect(drawn.r == drawn.g && drawn.g == drawn.b && drawn.r > 0 && drawn.r < 255, "red as a gray level: \(drawn)")
        #expect(g.rgba(30, 0) == Self.black, "a gray store has no alpha: undrawn is black")
        let (root2, wide) = scene { l in
            l.contentsFormat = .RGBA16Float
            l.paint = { _, ctx in fill(ctx, CGRect(x: 0, y: 0, width: 20, height: 30), 1, 0, 0) }
        }
        wide.setNeedsDisplay()
        let (img, warnings) = try Diagnostics.capture { try RenderHarness.frame(try renderer(root2), at: 0) }
        #expect(warnings.contains { $0.contains("RGBA16Float") })
        GeometryProbe.expectRegion(img, 10...29, 10...39, Self.red)
    }

    @Test("P2: drawsAsynchronously is accepted; the drawing is still done at the commit")
    func drawsAsynchronously() throws {
        let (root, l) = scene { l in
            l.drawsAsynchronously = true
            l.paint = { _, ctx in fill(ctx, CGRect(x: 0, y: 0, width: 40, height: 30), 1, 0, 0) }
        }
        l.setNeedsDisplay()
        let img = try RenderHarness.frame(try renderer(root), at: 0)
        #expect(l.drawsAsynchronously && l.draws == 1)
        GeometryProbe.expectRegion(img, 10...49, 10...39, Self.red)
    }

    @Test("P6: a backing store beyond the limits is not allocated: a warning, no contents, no crash")
    func oversizedBackingStore() throws {
        let (root, l) = scene { l in
            l.paint = { _, ctx in fill(ctx, CGRect(x: 0, y: 0, width: 1, height: 1), 1, 0, 0) }
        }
        l.bounds = CGRect(x: 0, y: 0, width: 100_000, height: 100_000)
        l.setNeedsDisplay()
        let (_, warnings) = try Diagnostics.capture { try RenderHarness.frame(try renderer(root), at: 0) }
        #expect(l.draws == 0 && l.contents == nil)
        #expect(warnings.contains { $0.contains("exceeds the limit") })
        // A zero-sized layer has nothing to draw: no contents, no warning needed.
        let (root2, empty) = scene { l in l.bounds = .zero }
        empty.setNeedsDisplay()
        _ = try RenderHarness.frame(try renderer(root2), at: 0)
        #expect(empty.draws == 0 && empty.contents == nil)
    }

    @Test("P3 + P4: a dirty rectangle under a flipped parent is redrawn where a sublayer with that frame lies")
    func dirtyRectFlipped() throws {
        var color: (CGFloat, CGFloat, CGFloat) = (1, 0, 0)
        let (root, l) = scene { l in l.paint = { l, ctx in fill(ctx, l.bounds, color.0, color.1, color.2) } }
        root.isGeometryFlipped = true
        l.setNeedsDisplay()
        let r = try renderer(root)
        _ = try RenderHarness.frame(r, at: 0)
        color = (0, 0, 1)
        let dirty = CGRect(x: 4, y: 2, width: 10, height: 6)
        l.setNeedsDisplay(dirty)
        let img = try RenderHarness.frame(r, at: 0.1)
        #expect(l.clipBoxes.last == dirty)
        // The layer sits at pixels y 10..<40 with its y axis running up: layer y 2..<8 is
        // pixels y 32..<38; x 4..<14 is pixels 14..<24.
        GeometryProbe.expectRegion(img, 14...23, 32...37, Self.blue)
        GeometryProbe.expectRegion(img, 14...23, 10...31, Self.red)
        GeometryProbe.expectRegion(img, 14...23, 38...39, Self.red)
        GeometryProbe.expectRegion(img, 24...49, 10...39, Self.red)
    }

    @Test("A layer redrawn every frame does not pile up textures: past the budget, unused images' textures go at once")
    func perFrameRedrawTextureBudget() throws {
        final class Big: CALayer {
            @LayerProperty(key: "level") var level: CGFloat = 0
            override class func needsDisplay(forKey key: String) -> Bool { key == "level" || super.needsDisplay(forKey: key) }
            override func draw(in ctx: CGContext) { fill(ctx, CGRect(x: 0, y: 0, width: level * bounds.width, height: 10), 1, 0, 0) }
        }
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 60, height: 50)
        let big = Big()
        big.bounds = CGRect(x: 0, y: 0, width: 4096, height: 4096)   // 64 MiB a drawing
        big.anchorPoint = .zero
        root.addSublayer(big)
        big.add(basic("level", from: 0, to: 1, duration: 10), forKey: nil)
        let r = try renderer(root)
        for i in 0..<8 { _ = try RenderHarness.frame(r, at: Double(i) * 0.1) }
        // 8 drawings would be 512 MiB; the cache stays within the budget plus this frame's image.
        #expect(r.cachedImageTextureBytes <= (256 << 20) + 64 << 20)
    }

    @Test("P2: drawn contents bypass the image atlas and are uploaded once per display, not per frame")
    func uploadsPerDisplay() throws {
        let (root, l) = scene { l in l.paint = { _, ctx in fill(ctx, CGRect(x: 0, y: 0, width: 40, height: 30), 1, 0, 0) } }
        l.setNeedsDisplay()
        let r = try renderer(root)
        _ = try RenderHarness.frame(r, at: 0)
        #expect(r.statistics.textureUploads >= 1)
        // A layer that animates but does not redraw: its drawn image is not uploaded again.
        l.add(basic("opacity", from: 1, to: 0.5), forKey: "fade")
        _ = try RenderHarness.frame(r, at: 0.1)
        _ = try RenderHarness.frame(r, at: 0.2)
        #expect(r.statistics.textureUploads == 0, "same image, cached texture")
        #expect(r.builder.imageAtlas.pageCount == 0, "drawn images keep out of the atlas")
        l.setNeedsDisplay()
        _ = try RenderHarness.frame(r, at: 0.3)
        #expect(r.statistics.textureUploads == 1, "one upload for one display")
    }
}
