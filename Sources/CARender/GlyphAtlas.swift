import CoreGraphics
import CoreText

/// Glyph coverage rendered by FreeType at the device pixel size, packed into shared pages
/// (issue 20 "Rendering": a GPU glyph atlas). A page is an ordinary premultiplied RGBA8
/// `CGImage` in `RenderFrame.textures` holding white at each texel's coverage (r = g = b = a),
/// so a glyph is an image instance whose tint is its premultiplied colour: the image pipeline of
/// both backends draws it, and a frame of text on one page is one instanced draw. A colour glyph
/// (emoji from a CBDT/sbix font) puts its own premultiplied colours in its cell of the same
/// pages and is drawn with a grey tint of the text colour's alpha, so it keeps its colours.
///
/// - **Keys.** Face, glyph, pixel size (26.6 fixed point, FreeType's own precision) and the pen's
///   sub-pixel x position quantised to quarters (`subpixelSteps`); y positions are whole pixels.
/// - **Cells** carry a one-texel transparent margin on every side, so a bilinear sample at a
///   glyph's edge fades to nothing and never reads a neighbour.
/// - **Limits.** At most `maxPages` pages of `pageSide`² texels (16 MiB in all). When the pages
///   are full, a glyph met later in the frame gets a texture of its own, and the next full
///   build starts the atlas afresh (`beginFrame`: every page retired at once, as glyph caches
///   commonly flush). A glyph larger than `maxCellSide` is never placed (text that large is
///   drawn by the layer's backing store: `GlyphEmitter.maxPixelSize`).
package final class GlyphAtlas {
    static let pageSide = 1024
    static let maxPages = 4
    static let maxCellSide = 300
    /// Sub-pixel x positions per pixel (1/4 px).
    package static let subpixelSteps = 4
    /// The largest pixel size a colour glyph's cell is made at; larger ones are that cell
    /// magnified (colour glyphs have no outlines to draw as paths, and their strikes are
    /// rarely larger: Noto Color Emoji's is 109 px per em).
    static let maxColorPixelSize = 192.0

    package struct Key: Hashable {
        var face: ObjectIdentifier
        var glyph: CGGlyph
        /// Pixels per em × 64.
        var size: Int32
        var subpixel: UInt8
    }

    /// Where a glyph's cell lies and how it sits on the pen: the cell's top-left corner is
    /// `left` pixels right of the pen and `top` pixels above the baseline (margin included).
    package struct Entry {
        /// nil: the glyph is empty (a space) or could not be rendered; nothing to draw.
        var page: Int?
        var x = 0, y = 0, width = 0, height = 0
        var left = 0, top = 0
        /// A glyph that found no room: drawn from an image of its own this frame.
        var ownImage: CGImage?
        /// A colour glyph (emoji): its cell holds its own premultiplied colours, drawn untinted
        /// (only the text colour's alpha applies).
        var isColor = false
        /// Device pixels per cell texel: 1, except for a colour glyph shown larger than
        /// `maxColorPixelSize`, whose cell is magnified to the size shown.
        var magnification = 1.0

        /// Origin and size of the cell in the page's texture coordinates.
        var transform: SIMD4<Float> {
            let s = Float(GlyphAtlas.pageSide)
            return SIMD4(Float(x) / s, Float(y) / s, Float(width) / s, Float(height) / s)
        }
    }

    private final class Page {
        var bytes = [UInt8](repeating: 0, count: GlyphAtlas.pageSide * GlyphAtlas.pageSide * 4)
        var image: CGImage?
        var shelfY = 0, shelfHeight = 0, cursorX = 0

        func allocate(_ w: Int, _ h: Int) -> (Int, Int)? {
            let side = GlyphAtlas.pageSide
            if cursorX + w > side { shelfY += shelfHeight; shelfHeight = 0; cursorX = 0 }
            guard shelfY + h <= side, w <= side else { return nil }
            defer { cursorX += w; shelfHeight = max(shelfHeight, h) }
            return (cursorX, shelfY)
        }
    }

    private var pages: [Page] = []
    /// Entries hold their faces so an identifier is not reused while its glyphs are cached.
    private var entries: [Key: (face: FontFace, entry: Entry)] = [:]
    private var retired: [CGImage] = []
    /// Set when a glyph found no room: the next full build starts afresh.
    private(set) var isFull = false
    /// Glyphs rendered by FreeType since the builder was made (tests: a second frame of the
    /// same text renders none).
    package private(set) var renderedGlyphs = 0

    package var pageCount: Int { pages.count }
    package var glyphCount: Int { entries.count }

    /// At the start of a full build: a full atlas is emptied (its pages retired).
    func beginFrame() {
        guard isFull else { return }
        for p in pages { if let img = p.image { retired.append(img) } }
        pages.removeAll()
        entries.removeAll()
        isFull = false
    }

    func takeRetired() -> [CGImage] {
        defer { retired.removeAll() }
        return retired
    }

    /// The glyph's entry, rendered and placed on first use.
    func entry(face: FontFace, glyph: CGGlyph, pixelSize: Double, subpixel: Int) -> Entry {
        if face.isColorBitmap { return colorEntry(face: face, glyph: glyph, pixelSize: pixelSize) }
        let key = Key(face: ObjectIdentifier(face), glyph: glyph, size: Int32(clamping: Int((pixelSize * 64).rounded())),
                      subpixel: UInt8(clamping: subpixel))
        if let e = entries[key] { return e.entry }
        let size = Double(key.size) / 64
        var e = Entry()
        renderedGlyphs += 1
        if let cov = face.coverage(of: glyph, pixelSize: size, subpixelX: Double(key.subpixel) / Double(Self.subpixelSteps)),
           cov.width + 2 <= Self.maxCellSide, cov.height + 2 <= Self.maxCellSide {
            let w = cov.width + 2, h = cov.height + 2
            e.width = w; e.height = h; e.left = cov.left - 1; e.top = cov.top + 1
            if let (page, x, y) = allocate(w, h) {
                e.page = page; e.x = x; e.y = y
                write(cov, into: pages[page], x: x, y: y)
            } else {
                // No room this frame: an image of its own (whole cell, margin included).
                isFull = true
                var bytes = [UInt8](repeating: 0, count: w * h * 4)
                for row in 0..<cov.height {
                    for col in 0..<cov.width {
                        let c = cov.coverage[row * cov.width + col], i = ((row + 1) * w + col + 1) * 4
                        bytes[i] = c; bytes[i + 1] = c; bytes[i + 2] = c; bytes[i + 3] = c
                    }
                }
                e.ownImage = CGImage(width: w, height: h, rgba8Bytes: bytes, premultiplied: true)
                e.width = w; e.height = h
                return e   // not cached: next frame tries the (emptied) atlas again
            }
        }
        entries[key] = (face, e)
        return e
    }

    /// A colour glyph's entry: its bitmap at the pixel size (at most `maxColorPixelSize`, then
    /// magnified), premultiplied colours in its cell, on whole-pixel pen positions.
    private func colorEntry(face: FontFace, glyph: CGGlyph, pixelSize: Double) -> Entry {
        let made = min(pixelSize, Self.maxColorPixelSize)
        let key = Key(face: ObjectIdentifier(face), glyph: glyph, size: Int32(clamping: Int((made * 64).rounded())), subpixel: 0)
        var e: Entry
        if let hit = entries[key] { e = hit.entry } else {
            e = Entry()
            e.isColor = true
            renderedGlyphs += 1
            if let bm = face.colorGlyph(glyph, pixelSize: Double(key.size) / 64),
               bm.width + 2 <= Self.maxCellSide, bm.height + 2 <= Self.maxCellSide {
                let w = bm.width + 2, h = bm.height + 2
                e.width = w; e.height = h; e.left = bm.left - 1; e.top = bm.top + 1
                if let (page, x, y) = allocate(w, h) {
                    e.page = page; e.x = x; e.y = y
                    writeColor(bm, into: pages[page], x: x, y: y)
                } else {
                    isFull = true
                    var bytes = [UInt8](repeating: 0, count: w * h * 4)
                    for row in 0..<bm.height {
                        let src = row * bm.width * 4, dst = ((row + 1) * w + 1) * 4
                        bytes.replaceSubrange(dst..<(dst + bm.width * 4), with: bm.rgba[src..<(src + bm.width * 4)])
                    }
                    e.ownImage = CGImage(width: w, height: h, rgba8Bytes: bytes, premultiplied: true)
                    e.magnification = pixelSize / made
                    return e   // not cached, as for coverage
                }
            }
            entries[key] = (face, e)
        }
        e.magnification = pixelSize / made
        return e
    }

    /// A colour bitmap into the cell inside its margin (premultiplied RGBA as it is).
    private func writeColor(_ bm: ColorGlyphBitmap, into page: Page, x: Int, y: Int) {
        if let old = page.image { retired.append(old) }
        page.image = nil
        let side = Self.pageSide
        page.bytes.withUnsafeMutableBufferPointer { dst in
            for row in 0..<bm.height {
                let d = ((y + 1 + row) * side + x + 1) * 4, src = row * bm.width * 4
                for i in 0..<(bm.width * 4) { dst[d + i] = bm.rgba[src + i] }
            }
        }
    }

    private func allocate(_ w: Int, _ h: Int) -> (Int, Int, Int)? {
        if let last = pages.last, let (x, y) = last.allocate(w, h) { return (pages.count - 1, x, y) }
        guard pages.count < Self.maxPages else { return nil }
        let page = Page()
        pages.append(page)
        guard let (x, y) = page.allocate(w, h) else { return nil }
        return (pages.count - 1, x, y)
    }

    /// Coverage into the cell inside its margin, as premultiplied white.
    private func write(_ cov: GlyphCoverage, into page: Page, x: Int, y: Int) {
        if let old = page.image { retired.append(old) }
        page.image = nil
        let side = Self.pageSide
        page.bytes.withUnsafeMutableBufferPointer { dst in
            for row in 0..<cov.height {
                var i = ((y + 1 + row) * side + x + 1) * 4
                for col in 0..<cov.width {
                    let c = cov.coverage[row * cov.width + col]
                    dst[i] = c; dst[i + 1] = c; dst[i + 2] = c; dst[i + 3] = c
                    i += 4
                }
            }
        }
    }

    /// The page as an image, made again after glyphs were added to it (the backend uploads a
    /// page once per change; the version it replaces is retired).
    func pageImage(_ i: Int) -> CGImage {
        let page = pages[i]
        if let img = page.image { return img }
        let img = CGImage(width: Self.pageSide, height: Self.pageSide, rgba8Bytes: page.bytes, premultiplied: true)!
        page.image = img
        return img
    }
}
