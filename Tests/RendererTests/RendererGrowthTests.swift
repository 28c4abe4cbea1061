import Testing
import Foundation

/// Issue 17 item 7: a long-lived `CARenderer` drawing tree after tree grew about 4 MB per tree
/// (1.8 GB after 400 trees of one new 32×32 image each, measured here). Two causes: every change
/// of an image-atlas page made a new 4 MiB page image whose texture the backend kept until its
/// own eviction (256 MiB of outdated pages), and frames that were never read back stayed queued
/// in the driver, which frees deleted textures only once the frames using them have run. Pages
/// a newer version replaced are now handed to the backend as `RenderFrame.retiredTextures` and
/// dropped at once, and each frame is flushed to the driver. The resident-memory check runs in
/// separate processes (`CarenderCLITests.testNewImagesEveryFrameDoNotGrowMemory`): other tests
/// share this one's.
@Suite struct RendererGrowthTests {
    /// A tree showing one new small image (`i` makes it differ from every other).
    func tree(_ i: Int) -> CALayer {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 64, height: 64)
        let l = CALayer()
        l.bounds = CGRect(x: 0, y: 0, width: 32, height: 32)
        l.position = CGPoint(x: 32, y: 32)
        l.contents = ContentsTests.image(32, 32) { x, y in RGBA(i % 256, (i / 256) % 256, x * 8, 255) }
        root.addSublayer(l)
        return root
    }

    @Test func replacedAtlasPagesLeaveTheTextureCacheAtOnce() throws {
        let r = try CARenderer(offscreenSize: CGSize(width: 64, height: 64), options: .init(backend: .openGL))
        var most = 0
        for i in 0..<80 {
            r.layer = tree(i)
            r.beginFrame(atTime: Double(i))
            try r.renderChecked()
            r.endFrame()
            most = max(most, r.cachedImageTextureBytes)
        }
        // One texture per atlas page (4 MiB each); before, every page version stayed cached:
        // 80 versions, 320 MiB, capped only by the cache's 256 MiB budget.
        let page = 1024 * 1024 * 4
        #expect(r.builder.imageAtlas.pageCount == 1)
        #expect(most <= page, "\(most / 1048576) MiB of image textures cached for one atlas page")
        // And the pixels are this tree's image, not an outdated page's.
        let img = try r.makeImage()
        #expect(img.rgba(32, 32).r == 79, "\(img.rgba(32, 32))")
    }
}
