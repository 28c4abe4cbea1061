import CHarfBuzz

/// Which OpenType layout features a face's GSUB table offers (any script and language), so a
/// client can use a font's own glyphs where it has them and synthesise otherwise: CSS Fonts 4
/// §6.10 (`font-variant-caps: small-caps` uses `smcp`; without it the user agent synthesises
/// small capitals from scaled capitals, `font-synthesis-small-caps`).
extension FontFace {
    /// Whether the face's GSUB table lists feature `tag` (four ASCII characters, "smcp").
    package func hasSubstitutionFeature(_ tag: String) -> Bool {
        let scalars = Array(tag.unicodeScalars)
        guard scalars.count == 4, scalars.allSatisfy(\.isASCII) else { return false }
        let wanted = scalars.reduce(UInt32(0)) { $0 << 8 | $1.value }
        let face = hb_font_get_face(hbFont)
        let gsub: hb_tag_t = 0x4753_5542 // 'GSUB'
        var start: UInt32 = 0
        var tags = [hb_tag_t](repeating: 0, count: 64)
        while true {
            var count = UInt32(tags.count)
            let total = hb_ot_layout_table_get_feature_tags(face, gsub, start, &count, &tags)
            if tags.prefix(Int(count)).contains(wanted) { return true }
            start += count
            // Bounded by the table's own count; a face lists at most 65535 feature records.
            if count == 0 || start >= total || start >= 65_535 { return false }
        }
    }
}
