import Testing
import Foundation

/// A tiled layer that fills each tile it is asked for with a colour chosen by the tile's
/// position (its clip box, in layer coordinates) and records the tiles and CTM scales.
final class ColourTiledLayer: CATiledLayer {
    var clipBoxes: [CGRect] = []
    var scales: [CGFloat] = []
    /// Colour of the tile whose clip box starts at (x, y).
    var colour: (CGFloat, CGFloat) -> CGColor = { x, y in
        CGColor(red: x == 0 ? 1 : 0, green: y == 0 ? 1 : 0, blue: x > 0 && y > 0 ? 1 : 0, alpha: 1)
    }
    override init() { super.init() }
    required init(layer: Any) { super.init(layer: layer) }
    required init?(coder: NSCoder) { nil }
    override func draw(in ctx: CGContext) {
        let box = ctx.boundingBoxOfClipPath
        clipBoxes.append(box)
        scales.append(ctx.ctm.a)
        ctx.setFillColor(colour(box.minX, box.minY))
        ctx.fill(box)
    }
}

/// CATiledLayer through `CARenderer` (docs/BEHAVIOUR.md P8–P11): the tiles a frame shows are
/// drawn before it renders, only those inside the target and clipping ancestors, at the level
/// of detail of the on-screen scale, cached across frames, and redrawn where invalidated.
/// Colours by hand: tile (0,0) is yellow (x = 0 and y = 0), (1,0) green, (0,1) red, (1,1) blue.
@Suite struct TiledLayerRenderTests {
    static let yellow = RGBA(255, 255, 0), green = RGBA(0, 255, 0), red = RGBA(255, 0, 0), blue = RGBA(0, 0, 255)

    func scene(_ w: CGFloat, _ h: CGFloat) -> (CALayer, ColourTiledLayer) {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 300, height: 300)
        let t = ColourTiledLayer()
        t.frame = CGRect(x: 0, y: 0, width: w, height: h)
        root.addSublayer(t)
        return (root, t)
    }

    @Test("P9: the four 256-point tiles a 300×300 target shows of a 2000×2000 layer, each with its own colour")
    func tilePixels() throws {
        let (root, t) = scene(2000, 2000)
        let img = try RenderHarness.render(root, size: CGSize(width: 300, height: 300))
        #expect(t.clipBoxes.count == 4)
        #expect(Set(t.clipBoxes.map { "\($0)" }) == Set([CGRect(x: 0, y: 0, width: 256, height: 256), CGRect(x: 256, y: 0, width: 256, height: 256),
                                                          CGRect(x: 0, y: 256, width: 256, height: 256), CGRect(x: 256, y: 256, width: 256, height: 256)].map { "\($0)" }))
        #expect(img.rgba(100, 100) == Self.yellow)
        #expect(img.rgba(255, 0) == Self.yellow)
        #expect(img.rgba(256, 0) == Self.green)
        #expect(img.rgba(280, 100) == Self.green)
        #expect(img.rgba(100, 280) == Self.red)
        #expect(img.rgba(299, 299) == Self.blue)
    }

    @Test("P9: a clipping ancestor (masksToBounds, 100×100) limits the tiles drawn to the one it shows")
    func clippingAncestor() throws {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 300, height: 300)
        let clip = CALayer()
        clip.frame = CGRect(x: 10, y: 10, width: 100, height: 100)
        clip.masksToBounds = true
        let t = ColourTiledLayer()
        t.frame = CGRect(x: 0, y: 0, width: 2000, height: 2000)
        clip.addSublayer(t)
        root.addSublayer(clip)
        let img = try RenderHarness.render(root, size: CGSize(width: 300, height: 300))
        #expect(t.clipBoxes == [CGRect(x: 0, y: 0, width: 256, height: 256)])
        #expect(img.rgba(50, 50) == Self.yellow)
        #expect(img.rgba(150, 150) == RGBA(255, 255, 255))
    }

    @Test("P8: at 0.5× (the layer scaled by half) with two levels, tiles cover 512 points and the CTM scales by 0.5")
    func halfScaleLevel() throws {
        let (root, t) = scene(1024, 1024)
        t.levelsOfDetail = 2
        t.anchorPoint = .zero
        t.position = .zero
        t.transform = CATransform3DMakeScale(0.5, 0.5, 1)
        let img = try RenderHarness.render(root, size: CGSize(width: 300, height: 300))
        #expect(t.clipBoxes.count == 4)
        #expect(t.clipBoxes.contains(CGRect(x: 512, y: 512, width: 512, height: 512)))
        #expect(t.scales.allSatisfy { $0 == 0.5 })
        // Tile (1,0) starts at 512 points: 256 pixels on screen.
        #expect(img.rgba(255, 10) == Self.yellow)
        #expect(img.rgba(257, 10) == Self.green)
        #expect(img.rgba(270, 270) == Self.blue)
    }

    @Test("P8: on a 2× target a bias of 1 draws 128-point tiles at 2×; without it, 256-point tiles at 1×")
    func doubleScaleLevel() throws {
        let (root, t) = scene(256, 256)
        t.levelsOfDetailBias = 1
        let img = try RenderHarness.render(root, size: CGSize(width: 300, height: 300), scale: 2)
        #expect(t.clipBoxes.count == 4)
        #expect(t.scales.allSatisfy { $0 == 2 })
        #expect(t.clipBoxes.contains(CGRect(x: 128, y: 128, width: 128, height: 128)))
        // Tile (1,1) starts at 128 points: pixel 256 on the 2× target.
        #expect(img.rgba(255, 255) == Self.yellow)
        #expect(img.rgba(258, 258) == Self.blue)

        let (root2, t2) = scene(256, 256)
        _ = try RenderHarness.render(root2, size: CGSize(width: 300, height: 300), scale: 2)
        #expect(t2.clipBoxes == [CGRect(x: 0, y: 0, width: 256, height: 256)])
        #expect(t2.scales == [1])
    }

    @Test("P10: tiles are reused across frames; setNeedsDisplay(_:) redraws only the tile it meets, and the frame shows it")
    func invalidationRedrawsDirtyTiles() throws {
        let (root, t) = scene(512, 512)
        let r = try CARenderer(offscreenSize: CGSize(width: 300, height: 300), scale: 1, options: .init(backend: .openGL))
        r.clearColor = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
        r.layer = root
        _ = try RenderHarness.frame(r, at: 0)
        #expect(t.tilesDrawn == 4)
        // A moved sibling rebuilds the frame: the tiles come from the cache.
        let other = CALayer()
        other.frame = CGRect(x: 290, y: 290, width: 5, height: 5)
        root.addSublayer(other)
        CATransaction.flush()
        _ = try RenderHarness.frame(r, at: 1)
        #expect(t.tilesDrawn == 4)
        // Tile (1,0) turns grey: only it is drawn again.
        t.colour = { x, y in x == 256 && y == 0 ? CGColor(red: 0.5, green: 0.5, blue: 0.5, alpha: 1)
                                                : CGColor(red: 0, green: 0, blue: 0, alpha: 1) }
        t.clipBoxes.removeAll()
        t.setNeedsDisplay(CGRect(x: 260, y: 20, width: 10, height: 10))
        CATransaction.flush()
        let img = try RenderHarness.frame(r, at: 2)
        #expect(t.tilesDrawn == 5)
        #expect(t.clipBoxes == [CGRect(x: 256, y: 0, width: 256, height: 256)])
        #expect(img.rgba(280, 100).isClose(to: RGBA(128, 128, 128), tolerance: 1))
        #expect(img.rgba(100, 100) == Self.yellow)  // kept from the cache
    }
}
