import CoreGraphics

/// Small `contents` images packed into shared pages, so layers showing different images can
/// still be one instanced draw (issue 4: "an image atlas so image layers share draws"). Before
/// it, every change of image between consecutive image layers started a new batch: 1,000
/// layers cycling through 16 images were 1,000 draw calls.
///
/// A page is an ordinary `CGImage` in `RenderFrame.textures`, so the backend uploads and caches
/// it like any other texture and needs no atlas logic of its own. Each image keeps a one-texel
/// border copied from its own edge pixels: a bilinear sample at the image's edge then reads the
/// image's edge colour, which is what clamp-to-edge gives a texture of its own, and never a
/// neighbour. Images that need mipmaps (`trilinear` minification) or are larger than
/// `maxImageSide` keep a texture of their own; so do new images once `maxPages` are full.
/// Images are packed on shelves in the order they are first drawn and stay until the builder
/// goes away (the pages bound the memory: `maxPages` × `pageSide`² × 4 bytes).
package final class ImageAtlas {
    /// 1024: the smallest GL_MAX_TEXTURE_SIZE OpenGL 3.3 allows, so a page always fits.
    static let pageSide = 1024
    static let maxImageSide = 256
    static let maxPages = 16
    static let border = 1

    struct Placement {
        var page: Int
        /// The image's first texel in the page (inside its border).
        var x: Int, y: Int
        var width: Int, height: Int

        /// Origin and size of the image in the page's texture coordinates (0…1), as the image
        /// shader maps an image-space uv into the page.
        var transform: SIMD4<Float> {
            let s = Float(ImageAtlas.pageSide)
            return SIMD4(Float(x) / s, Float(y) / s, Float(width) / s, Float(height) / s)
        }
    }

    private final class Page {
        var bytes: [UInt8]
        var image: CGImage?
        /// The last image handed out before the page changed: retired when its successor is
        /// made (`retired`).
        var replaced: CGImage?
        /// Shelf packing: the shelf being filled starts at `shelfY`, is `shelfHeight` tall and
        /// full up to `cursorX`.
        var shelfY = 0, shelfHeight = 0, cursorX = 0

        init() { bytes = [UInt8](repeating: 0, count: ImageAtlas.pageSide * ImageAtlas.pageSide * 4) }

        /// Space for a `w`×`h` cell, or nil when the page is full.
        func allocate(_ w: Int, _ h: Int) -> (Int, Int)? {
            let side = ImageAtlas.pageSide
            if cursorX + w > side {
                shelfY += shelfHeight; shelfHeight = 0; cursorX = 0
            }
            guard shelfY + h <= side, w <= side else { return nil }
            let origin = (cursorX, shelfY)
            cursorX += w
            shelfHeight = max(shelfHeight, h)
            return origin
        }
    }

    private var pages: [Page] = []
    /// Each placed image with its place; the image is held so its identifier cannot be reused
    /// by another image while it is placed.
    private var placements: [ObjectIdentifier: (image: CGImage, place: Placement)] = [:]

    package var pageCount: Int { pages.count }
    /// Page images that a newer version replaced since `takeRetired()` was last asked. Every
    /// change of a page makes a new image (4 MiB), and the backend keeps a texture per image
    /// until its own eviction: one new small image per frame made a long-lived renderer hold
    /// hundreds of outdated pages (issue 17 item 7). The frame hands these to the backend
    /// (`RenderFrame.retiredTextures`), which drops their textures at once.
    private var retired: [CGImage] = []

    func takeRetired() -> [CGImage] {
        defer { retired.removeAll() }
        return retired
    }

    /// Where `image` lives in the atlas, placing it on first use; nil when it is not eligible
    /// or there is no room.
    func placement(of image: CGImage) -> Placement? {
        let id = ObjectIdentifier(image)
        if let p = placements[id] { return p.place }
        let w = image.width, h = image.height
        guard w > 0, h > 0, w <= Self.maxImageSide, h <= Self.maxImageSide else { return nil }
        let cw = w + 2 * Self.border, ch = h + 2 * Self.border
        var spot: (page: Int, x: Int, y: Int)? = nil
        if let last = pages.last, let (x, y) = last.allocate(cw, ch) {
            spot = (pages.count - 1, x, y)
        } else if pages.count < Self.maxPages {
            let page = Page()
            pages.append(page)
            if let (x, y) = page.allocate(cw, ch) { spot = (pages.count - 1, x, y) }
        }
        guard let spot else { return nil }
        let p = Placement(page: spot.page, x: spot.x + Self.border, y: spot.y + Self.border, width: w, height: h)
        copy(image, into: pages[spot.page], at: p)
        placements[id] = (image, p)
        return p
    }

    /// The page as an image, rebuilt after images were added to it (a new `CGImage`, so the
    /// backend uploads the page again; unchanged pages keep their identity and texture).
    func pageImage(_ i: Int) -> CGImage {
        let page = pages[i]
        if let img = page.image { return img }
        if let old = page.replaced { retired.append(old); page.replaced = nil }
        let side = Self.pageSide
        let img = CGImage(width: side, height: side, rgba8Bytes: page.bytes, premultiplied: true)!
        page.image = img
        return img
    }

    /// Copies the image and its one-texel border (the edge pixels repeated, corners included).
    private func copy(_ image: CGImage, into page: Page, at p: Placement) {
        if let old = page.image { page.replaced = old }
        page.image = nil
        let side = Self.pageSide, w = p.width, h = p.height, b = Self.border
        image.withUnsafeRGBA8Bytes { src in
            page.bytes.withUnsafeMutableBytes { dst in
                for row in -b..<(h + b) {
                    let sy = min(max(row, 0), h - 1)
                    let srcRow = sy * w * 4
                    let dstRow = ((p.y + row) * side + p.x) * 4
                    // The row itself, then its edge pixels repeated left and right.
                    dst.baseAddress!.advanced(by: dstRow).copyMemory(from: src.baseAddress!.advanced(by: srcRow), byteCount: w * 4)
                    for k in 1...b {
                        for c in 0..<4 {
                            dst[dstRow - k * 4 + c] = src[srcRow + c]
                            dst[dstRow + (w - 1 + k) * 4 + c] = src[srcRow + (w - 1) * 4 + c]
                        }
                    }
                }
            }
        }
    }
}
