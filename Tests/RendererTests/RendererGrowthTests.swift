import Testing
import Foundation

/// Issue 17 item 7: a long-lived `CARenderer` drawing tree after tree grew about 4 MB per tree
/// (1.8 GB after 400 trees of one new 32×32 image each, measured here). Two causes: every change
/// of an image-atlas page made a new 4 MiB page image whose texture the backend kept until its
/// own eviction (256 MiB of outdated pages), and frames that were never read back stayed queued
/// in the driver, which frees deleted textures only once the frames using them have run. Pages
/// a newer version replaced are now handed to the backend as `RenderFrame.retiredTextures` and
/// dropped at once, and each frame is flushed to the driver.
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

    func residentBytes() -> Int? {
        guard let s = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in s.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            return line.split(separator: " ").dropFirst().first.flatMap { Int($0) }.map { $0 * 1024 }
        }
        return nil
    }

    @Test func replacedAtlasPagesLeaveTheTextureCacheAtOnce() throws {
        let r = try CARenderer(offscreenSize: CGSize(width: 64, height: 64))
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
        #expect(img.rgba(32, 32).r == 79, "\(img.rgba(32, 32)) \(img.rgba(20, 20)) \(img.rgba(5, 5))")
    }

    @Test func aRendererMeetingNewImagesEveryFrameStaysBounded() throws {
        // Never read back: the case that queued frames in the driver.
        let r = try CARenderer(offscreenSize: CGSize(width: 64, height: 64))
        func render(_ range: Range<Int>) throws {
            for i in range {
                r.layer = tree(i)
                r.beginFrame(atTime: Double(i))
                try r.renderChecked()
                r.endFrame()
            }
        }
        try render(0..<100)
        guard let before = residentBytes() else { return }
        try render(100..<500)
        guard let after = residentBytes() else { return }
        // Before the fix these 400 trees added about 1.7 GB. The margin is wide because other
        // tests run in the same process at the same time.
        #expect(after - before < 700 << 20, "resident memory grew \((after - before) >> 20) MiB over 400 trees")
    }
}
