import CoreGraphics
import CFreeType

/// A glyph's coverage as FreeType renders it at a device pixel size, for the renderer's glyph
/// atlas (issue 20 "Rendering": "glyph coverage from FreeType at the device pixel size").
/// `coverage` is one byte a pixel (0…255), rows top to bottom; the bitmap's top-left pixel
/// corner lies `left` pixels right of the pen and `top` pixels above the baseline.
package struct GlyphCoverage: Sendable, Equatable {
    package var width: Int
    package var height: Int
    package var left: Int
    package var top: Int
    package var coverage: [UInt8]
}

extension FontFace {
    /// The largest pixel size rendered as a bitmap; the renderer draws larger text another way
    /// (docs/TEXT.md "Glyph atlas"), and this bounds one bitmap's memory (a 512 px em box).
    package static let maxCoveragePixelSize = 512.0

    /// `glyph` rendered by FreeType's smooth (exact-area, unhinted) rasteriser at `pixelSize`
    /// pixels per em, its pen moved right by `subpixelX` (0 ≤ x < 1, the quantised fraction of
    /// the pen's device position). nil for an empty glyph, a face without outlines, a size out
    /// of (0, `maxCoveragePixelSize`] or a glyph that is not an outline (a bitmap-only colour
    /// face's glyphs come from `colorGlyph(_:pixelSize:)` instead).
    package func coverage(of glyph: CGGlyph, pixelSize: Double, subpixelX: Double) -> GlyphCoverage? {
        guard pixelSize.isFinite, pixelSize > 0, pixelSize <= Self.maxCoveragePixelSize,
              subpixelX.isFinite, subpixelX >= 0, subpixelX < 1 else { return nil }
        guard !isColorBitmap else { return nil }   // colour strikes: colorGlyph(_:pixelSize:)
        lock.lock(); defer { lock.unlock() }
        guard let face, Int(glyph) < glyphCount else { return nil }
        // 26.6 fixed point; other users load with FT_LOAD_NO_SCALE, so the size set here and
        // the transform (reset below) never change what they read.
        guard FT_Set_Char_Size(face, 0, FT_F26Dot6(pixelSize * 64), 72, 72) == 0 else { return nil }
        var delta = FT_Vector(x: FT_Pos(subpixelX * 64), y: 0)
        FT_Set_Transform(face, nil, &delta)
        defer { FT_Set_Transform(face, nil, nil) }
        let flags = FT_LOAD_NO_HINTING | FT_LOAD_NO_BITMAP
        guard FT_Load_Glyph(face, FT_UInt(glyph), Int32(flags)) == 0 else { return nil }
        let slot = face.pointee.glyph!
        guard slot.pointee.format == FT_GLYPH_FORMAT_OUTLINE,
              FT_Render_Glyph(slot, FT_RENDER_MODE_NORMAL) == 0 else { return nil }
        let bm = slot.pointee.bitmap
        let w = Int(bm.width), h = Int(bm.rows)
        guard w > 0, h > 0, let buffer = bm.buffer, bm.pixel_mode == UInt8(FT_PIXEL_MODE_GRAY.rawValue) else { return nil }
        var out = [UInt8](repeating: 0, count: w * h)
        let pitch = Int(bm.pitch)
        for y in 0..<h {
            let row = pitch >= 0 ? buffer + y * pitch : buffer + (h - 1 - y) * (-pitch)
            for x in 0..<w { out[y * w + x] = row[x] }
        }
        return GlyphCoverage(width: w, height: h, left: Int(slot.pointee.bitmap_left), top: Int(slot.pointee.bitmap_top), coverage: out)
    }
}
