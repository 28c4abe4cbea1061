import Testing
import Foundation
@testable import CoreAnimation

/// A tiled layer that records every tile it is asked to draw: the clip box (the tile's
/// rectangle in layer coordinates) and the CTM's x scale (the level of detail).
final class RecordingTiledLayer: CATiledLayer {
    var clipBoxes: [CGRect] = []
    var scales: [CGFloat] = []
    override init() { super.init() }
    required init(layer: Any) { super.init(layer: layer) }
    required init?(coder: NSCoder) { nil }
    override func draw(in ctx: CGContext) {
        clipBoxes.append(ctx.boundingBoxOfClipPath)
        scales.append(ctx.ctm.a)
    }
}

/// Which tiles a view of a `CATiledLayer` needs and at which level (docs/BEHAVIOUR.md P8–P11;
/// Apple: CATiledLayer `tileSize`, `levelsOfDetail`, `levelsOfDetailBias`), without a renderer.
@Suite struct TiledLayerTileTests {
    func layer(_ w: CGFloat, _ h: CGFloat) -> RecordingTiledLayer {
        let l = RecordingTiledLayer()
        l.bounds = CGRect(x: 0, y: 0, width: w, height: h)
        return l
    }

    @Test("P8: a 300×300 view of a 1000×1000 layer needs the 2×2 tiles of 256 that meet it")
    func visibleTilesOnly() {
        let l = layer(1000, 1000)
        let req = l.tileRequests(visible: CGRect(x: 0, y: 0, width: 300, height: 300), onScreenScale: 1)
        #expect(req.keys.count == 4)
        #expect(req.keys.map(\.1) == [CGRect(x: 0, y: 0, width: 256, height: 256), CGRect(x: 256, y: 0, width: 256, height: 256),
                                      CGRect(x: 0, y: 256, width: 256, height: 256), CGRect(x: 256, y: 256, width: 256, height: 256)])
        #expect(req.density == 1)
    }

    @Test("P8: tiles of the last column and row are cut to the bounds; a view beside the layer needs none")
    func edgeTilesAndOffView() {
        let l = layer(300, 100)
        let req = l.tileRequests(visible: CGRect(x: 0, y: 0, width: 1000, height: 1000), onScreenScale: 1)
        #expect(req.keys.map(\.1) == [CGRect(x: 0, y: 0, width: 256, height: 100), CGRect(x: 256, y: 0, width: 44, height: 100)])
        #expect(l.tileRequests(visible: CGRect(x: 400, y: 0, width: 50, height: 50), onScreenScale: 1).keys.isEmpty)
    }

    @Test("P8: levels of detail — 1, 1/2, 1/4 … below the bias; the bias adds finer levels")
    func levelSelection() {
        // levelsOfDetail 1, no bias: always the layer's own resolution.
        #expect(CATiledLayer.level(onScreenScale: 0.5, contentsScale: 1, levelsOfDetail: 1, bias: 0) == 0)
        #expect(CATiledLayer.level(onScreenScale: 2, contentsScale: 1, levelsOfDetail: 1, bias: 0) == 0)
        // Three levels (1, 1/2, 1/4): 0.5× takes the half level, 0.3× the half (finer than the screen), 0.2× the quarter.
        #expect(CATiledLayer.level(onScreenScale: 0.5, contentsScale: 1, levelsOfDetail: 3, bias: 0) == -1)
        #expect(CATiledLayer.level(onScreenScale: 0.3, contentsScale: 1, levelsOfDetail: 3, bias: 0) == -1)
        #expect(CATiledLayer.level(onScreenScale: 0.2, contentsScale: 1, levelsOfDetail: 3, bias: 0) == -2)
        #expect(CATiledLayer.level(onScreenScale: 0.01, contentsScale: 1, levelsOfDetail: 3, bias: 0) == -2)
        // Bias 1 adds the 2× level: 2× on screen takes it, 4× stays at it.
        #expect(CATiledLayer.level(onScreenScale: 2, contentsScale: 1, levelsOfDetail: 2, bias: 1) == 1)
        #expect(CATiledLayer.level(onScreenScale: 4, contentsScale: 1, levelsOfDetail: 2, bias: 1) == 1)
        #expect(CATiledLayer.level(onScreenScale: 1, contentsScale: 1, levelsOfDetail: 2, bias: 1) == 0)
        // contentsScale 2 (a 2× screen): 2 device pixels per point is the layer's own level.
        #expect(CATiledLayer.level(onScreenScale: 2, contentsScale: 2, levelsOfDetail: 2, bias: 1) == 0)
    }

    @Test("P9: at 0.5× the half level's tiles cover 512 points and draw(in:) gets a CTM scaled by 0.5")
    func halfLevelTiles() {
        let l = layer(1024, 1024)
        l.levelsOfDetail = 2
        let tiles = l.tilesForView(visible: CGRect(x: 0, y: 0, width: 1024, height: 1024), onScreenScale: 0.5)
        #expect(tiles.count == 4)
        #expect(l.clipBoxes.count == 4)
        #expect(l.clipBoxes.first == CGRect(x: 0, y: 0, width: 512, height: 512))
        #expect(l.scales.allSatisfy { $0 == 0.5 })
        #expect(tiles.allSatisfy { $0.image.width == 256 && $0.image.height == 256 })
    }

    @Test("P9: at 2× with a bias of 1 the tiles cover 128 points, drawn with a CTM scaled by 2")
    func doubleLevelTiles() {
        let l = layer(256, 256)
        l.levelsOfDetailBias = 1
        let tiles = l.tilesForView(visible: CGRect(x: 0, y: 0, width: 256, height: 256), onScreenScale: 2)
        #expect(tiles.count == 4)
        #expect(Set(l.clipBoxes.map { "\($0)" }) == Set([CGRect(x: 0, y: 0, width: 128, height: 128), CGRect(x: 128, y: 0, width: 128, height: 128),
                                                          CGRect(x: 0, y: 128, width: 128, height: 128), CGRect(x: 128, y: 128, width: 128, height: 128)].map { "\($0)" }))
        #expect(l.scales.allSatisfy { $0 == 2 })
    }

    @Test("P10: tiles are cached per level; setNeedsDisplay(_:) redraws only the tiles it meets")
    func cacheAndInvalidation() {
        let l = layer(512, 512)
        let view = CGRect(x: 0, y: 0, width: 512, height: 512)
        _ = l.tilesForView(visible: view, onScreenScale: 1)
        #expect(l.tilesDrawn == 4)
        _ = l.tilesForView(visible: view, onScreenScale: 1)
        #expect(l.tilesDrawn == 4)  // reused
        l.setNeedsDisplay(CGRect(x: 300, y: 10, width: 5, height: 5))
        l.clipBoxes.removeAll()
        _ = l.tilesForView(visible: view, onScreenScale: 1)
        #expect(l.tilesDrawn == 5)
        #expect(l.clipBoxes == [CGRect(x: 256, y: 0, width: 256, height: 256)])
        l.setNeedsDisplay()
        _ = l.tilesForView(visible: view, onScreenScale: 1)
        #expect(l.tilesDrawn == 9)
        CATransaction.flush()
    }

    @Test("P11: a 1×1-pixel tile size over a large view draws at most maxTilesPerView tiles (doubled tiles, a warning)")
    func tinyTilesAreBounded() {
        let l = layer(100_000, 100_000)
        l.tileSize = CGSize(width: 1, height: 1)
        let (req, warnings) = Diagnostics.capture {
            l.tileRequests(visible: CGRect(x: 0, y: 0, width: 2000, height: 2000), onScreenScale: 1)
        }
        #expect(req.keys.count <= CATiledLayer.maxTilesPerView)
        #expect(req.keys.count > 0)
        #expect(warnings.contains { $0.contains("CATiledLayer: tileSize") })
    }

    @Test("P11: non-finite view rectangles and scales draw nothing and do not trap")
    func badInput() {
        let l = layer(512, 512)
        #expect(l.tileRequests(visible: .null, onScreenScale: 1).keys.isEmpty)
        #expect(l.tileRequests(visible: CGRect(x: 0, y: 0, width: 100, height: 100), onScreenScale: .nan).keys.count == 1)
        #expect(l.tileRequests(visible: CGRect(x: 0, y: 0, width: 100, height: 100), onScreenScale: .infinity).keys.count == 1)
        l.levelsOfDetail = 1_000_000
        #expect(l.tileRequests(visible: CGRect(x: 0, y: 0, width: 100, height: 100), onScreenScale: 1e-300).keys.count == 1)
    }
}
