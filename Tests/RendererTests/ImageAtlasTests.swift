import Testing
import Foundation

/// Small images share atlas pages (`ImageAtlas`), so image layers showing different images are
/// one draw; the pixels must be those of each image drawn from a texture of its own, at every
/// edge, filter and `contentsRect` (CALayer `contents`, `contentsRect`, `contentsCenter`,
/// `minificationFilter`/`magnificationFilter` docs).
@Suite struct ImageAtlasTests {
    /// A `w`×`h` image with a distinct colour per pixel and translucent edges, so a sample that
    /// strayed into a neighbour's cell, or missed the image's own edge, shows.
    private func image(_ seed: Int, _ w: Int, _ h: Int) -> CGImage {
        var bytes: [UInt8] = []
        for y in 0..<h {
            for x in 0..<w {
                let edge = x == 0 || y == 0 || x == w - 1 || y == h - 1
                bytes += [UInt8((seed * 53 + x * 29) % 256), UInt8((seed * 97 + y * 31) % 256),
                          UInt8((seed * 11 + x * y * 7) % 256), edge ? 128 : 255]
            }
        }
        return CGImage(width: w, height: h, rgba8Bytes: bytes, premultiplied: false)!
    }

    /// Layers cycling through 12 images: plain, nearest-filtered and magnified, minified,
    /// `contentsRect` reaching past the image (edge pixels extend), nine-slice, rotated.
    private func scene() -> CALayer {
        let root = CALayer()
        root.bounds = CGRect(x: 0, y: 0, width: 240, height: 200)
        root.position = CGPoint(x: 120, y: 100)
        let images = (0..<12).map { image($0, 6 + $0, 5 + ($0 * 3) % 7) }
        for i in 0..<48 {
            let l = CALayer()
            l.contents = images[i % images.count]
            let side: CGFloat = i % 3 == 0 ? 7 : 28
            l.bounds = CGRect(x: 0, y: 0, width: side, height: side * 0.8)
            l.position = CGPoint(x: 20 + CGFloat(i % 8) * 29, y: 20 + CGFloat(i / 8) * 32)
            switch i % 6 {
            case 1: l.magnificationFilter = .nearest
            case 2: l.contentsRect = CGRect(x: -0.25, y: 0.1, width: 1.5, height: 1.2)
            case 3: l.contentsCenter = CGRect(x: 0.3, y: 0.3, width: 0.4, height: 0.4)
            case 4: l.transform = CATransform3DMakeRotation(0.4, 0, 0, 1)
            case 5: l.minificationFilter = .nearest; l.bounds.size = CGSize(width: 4, height: 3)
            default: break
            }
            root.addSublayer(l)
        }
        return root
    }

    private func render(atlas: Bool) throws -> (CGImage, RenderStats) {
        let r = try CARenderer(offscreenSize: CGSize(width: 240, height: 200), scale: 1.5, options: .init(backend: .openGL))
        r.options.usesImageAtlas = atlas
        r.clearColor = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
        r.layer = scene()
        r.beginFrame(atTime: 0)
        try r.renderChecked()
        r.endFrame()
        return (try r.makeImage(), r.statistics)
    }

    @Test func atlasedImagesDrawTheSamePixelsInOneDraw() throws {
        let (withAtlas, atlasStats) = try render(atlas: true)
        let (alone, aloneStats) = try render(atlas: false)
        #expect(atlasStats.drawCalls == 1, "one page, one variant: \(atlasStats)")
        #expect(aloneStats.drawCalls >= 12, "a texture per image breaks the batch: \(aloneStats)")
        var worst = 0, differing = 0
        for y in 0..<withAtlas.height {
            for x in 0..<withAtlas.width {
                let a = withAtlas.rgba(x, y), b = alone.rgba(x, y)
                let d = max(abs(a.r - b.r), abs(a.g - b.g), abs(a.b - b.b), abs(a.a - b.a))
                worst = max(worst, d)
                if d > 0 { differing += 1 }
            }
        }
        // Texture coordinates in a 1024-texel page round differently from those of a small
        // texture by a fraction of a texel's 1/256 steps: allow one level, nothing more.
        #expect(worst <= 1, "largest channel difference \(worst) (\(differing) pixels differ)")
    }

    /// Images that need mipmaps (trilinear) or are larger than the atlas takes keep their own
    /// texture, and later frames upload nothing new.
    @Test func largeAndTrilinearImagesKeepTheirOwnTextures() throws {
        let root = CALayer()
        root.bounds = CGRect(x: 0, y: 0, width: 64, height: 64)
        let big = CALayer(), tri = CALayer(), small = CALayer()
        big.contents = image(1, 300, 4)
        tri.contents = image(2, 8, 8); tri.minificationFilter = .trilinear
        small.contents = image(3, 8, 8)
        for (i, l) in [big, tri, small].enumerated() {
            l.bounds = CGRect(x: 0, y: 0, width: 16, height: 16)
            l.position = CGPoint(x: 10 + 20 * CGFloat(i), y: 10)
            root.addSublayer(l)
        }
        let r = try CARenderer(offscreenSize: CGSize(width: 64, height: 64), options: .init(backend: .openGL))
        r.layer = root
        r.beginFrame(atTime: 0)
        try r.renderChecked()
        r.endFrame()
        #expect(r.statistics.textureUploads == 3, "big, trilinear, one atlas page: \(r.statistics)")
        #expect(r.builder.imageAtlas.pageCount == 1)
        r.beginFrame(atTime: 1)
        try r.renderChecked()
        r.endFrame()
        #expect(r.statistics.textureUploads == 0, "\(r.statistics)")
    }
}
