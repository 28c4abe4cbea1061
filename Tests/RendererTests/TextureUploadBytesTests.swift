import Testing
import Foundation

/// `RenderStats.textureUploadBytes` (extension beyond Apple's API): the bytes a frame sends to
/// the GPU, what issue 19's drawn-layers benchmark reports. A drawn layer's backing store is
/// `bounds × contentsScale` RGBA8 pixels, uploaded once per display (docs/CONTENT-LAYERS.md).
@Suite struct TextureUploadBytesTests {
    final class Gauge: CALayer {
        var level: CGFloat = 0.5
        override func draw(in ctx: CGContext) {
            ctx.setFillColor(CGColor(red: 0, green: 0.5, blue: 1, alpha: 1))
            ctx.fill(CGRect(x: 0, y: 0, width: bounds.width * level, height: bounds.height))
        }
    }

    @Test("One 100×60 layer at scale 1 redrawing uploads 100×60×4 = 24,000 bytes; an unchanged frame uploads 0")
    func bytesPerDisplay() throws {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 200, height: 100)
        let g = Gauge()
        g.frame = CGRect(x: 10, y: 10, width: 100, height: 60)
        root.addSublayer(g)
        g.setNeedsDisplay()
        let r = try CARenderer(offscreenSize: CGSize(width: 200, height: 100), scale: 1, options: .init(backend: .openGL))
        r.layer = root
        _ = try RenderHarness.frame(r, at: 0)
        #expect(r.statistics.textureUploadBytes == 24_000, "\(r.statistics)")
        _ = try RenderHarness.frame(r, at: 0.1)
        #expect(r.statistics.textureUploadBytes == 0, "\(r.statistics)")
        g.level = 0.8
        g.setNeedsDisplay()
        _ = try RenderHarness.frame(r, at: 0.2)
        #expect(r.statistics.textureUploadBytes == 24_000, "\(r.statistics)")
        #expect(r.statistics.textureUploads == 1)
    }

    @Test("At contentsScale 2 the same layer's backing store is 200×120 pixels: 96,000 bytes")
    func bytesAtScale2() throws {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 200, height: 100)
        let g = Gauge()
        g.frame = CGRect(x: 10, y: 10, width: 100, height: 60)
        g.contentsScale = 2
        root.addSublayer(g)
        g.setNeedsDisplay()
        let r = try CARenderer(offscreenSize: CGSize(width: 200, height: 100), scale: 2, options: .init(backend: .openGL))
        r.layer = root
        _ = try RenderHarness.frame(r, at: 0)
        #expect(r.statistics.textureUploadBytes == 96_000, "\(r.statistics)")
    }
}
