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
            // Coverage as premultiplied white.
            let placed = place(&e, width: cov.width, height: cov.height, left: cov.left, top: cov.top) { row, dst, start in
                var i = start
                for col in 0..<cov.width {
                    let c = cov.coverage[row * cov.width + col]
                    dst[i] = c; dst[i + 1] = c; dst[i + 2] = c; dst[i + 3] = c
                    i += 4
                }
            }
            if !placed { return e }   // not cached: next frame tries the (emptied) atlas again
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
            var placed = true
            if let bm = face.colorGlyph(glyph, pixelSize: Double(key.size) / 64),
               bm.width + 2 <= Self.maxCellSide, bm.height + 2 <= Self.maxCellSide {
                // The bitmap's premultiplied RGBA as it is.
                placed = place(&e, width: bm.width, height: bm.height, left: bm.left, top: bm.top) { row, dst, start in
                    let src = row * bm.width * 4
                    for i in 0..<(bm.width * 4) { dst[start + i] = bm.rgba[src + i] }
                }
            }
            if placed { entries[key] = (face, e) }   // an image of its own is not cached, as for coverage
        }
        e.magnification = pixelSize / made
        return e
    }

    /// Puts a glyph's `width`×`height` pixels, whose RGBA rows `row(r, bytes, start)` writes
    /// from `start`, in a cell with a 1-px margin: on a page when one has room (the page's old
    /// image is retired), else in an image of the entry's own with `isFull` set. False in that
    /// case: the entry is not cached, and the next frame tries the (emptied) atlas again.
    private func place(_ e: inout Entry, width: Int, height: Int, left: Int, top: Int,
                       row: (Int, UnsafeMutableBufferPointer<UInt8>, Int) -> Void) -> Bool {
        let w = width + 2, h = height + 2
        e.width = w; e.height = h; e.left = left - 1; e.top = top + 1
        if let (p, x, y) = allocate(w, h) {
            e.page = p; e.x = x; e.y = y
            let page = pages[p]
            if let old = page.image { retired.append(old) }
            page.image = nil
            page.bytes.withUnsafeMutableBufferPointer { dst in
                for r in 0..<height { row(r, dst, ((y + 1 + r) * Self.pageSide + x + 1) * 4) }
            }
            return true
        }
        isFull = true
        var bytes = [UInt8](repeating: 0, count: w * h * 4)
        bytes.withUnsafeMutableBufferPointer { dst in
            for r in 0..<height { row(r, dst, ((r + 1) * w + 1) * 4) }
        }
        e.ownImage = CGImage(width: w, height: h, rgba8Bytes: bytes, premultiplied: true)
        return false
    }

    private func allocate(_ w: Int, _ h: Int) -> (Int, Int, Int)? {
        if let last = pages.last, let (x, y) = last.allocate(w, h) { return (pages.count - 1, x, y) }
        guard pages.count < Self.maxPages else { return nil }
        let page = Page()
        pages.append(page)
        guard let (x, y) = page.allocate(w, h) else { return nil }
        return (pages.count - 1, x, y)
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
