import CoreGraphics
import CHarfBuzz

/// Vertical metrics of a glyph for upright glyphs in vertical text, HarfBuzz's (hb-ot): the
/// vertical origin from the VORG table, else the glyph's top plus its vmtx top side bearing,
/// else the font's ascender (OpenType "Vertical origin"), and the vmtx advance (else the
/// ascender–descender height).
extension FontFace {
    /// Where a glyph's vertical origin lies relative to its horizontal one (font units, y up):
    /// x is half its horizontal advance, y typically the top of the ideographic em box.
    package func verticalOrigin(_ glyph: CGGlyph) -> (x: Double, y: Double) {
        var x: hb_position_t = 0, y: hb_position_t = 0
        _ = hb_font_get_glyph_v_origin(hbFont, hb_codepoint_t(glyph), &x, &y)
        return (Double(x), Double(y))
    }

    /// The glyph's vertical advance (font units, positive down the line).
    package func verticalAdvance(_ glyph: CGGlyph) -> Double {
        -Double(hb_font_get_glyph_v_advance(hbFont, hb_codepoint_t(glyph)))
    }
}

