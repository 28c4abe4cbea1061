import CoreGraphics
import CHarfBuzz

/// A run of text with one font, one bidi level, one script and one attribute span: the unit
/// HarfBuzz shapes.
package struct TextItem {
    package var range: Range<Int>
    package var level: UInt8
    package var span: Int
    package var font: CTFont
    package var script: hb_script_t
    package var isRightToLeft: Bool { level & 1 == 1 }
}

/// Glyphs HarfBuzz produced for one item, in visual (left-to-right) order, in points.
package struct ShapedItem {
    package var item: TextItem
    package var glyphs: [CGGlyph] = []
    package var advances: [Double] = []
    package var offsets: [CGPoint] = []
    /// The UTF-16 index (in the whole text) of each glyph's cluster.
    package var clusters: [Int] = []
    package var width: Double = 0
}

/// Characters that take the font of the character before them instead of a fallback of their
/// own: combining marks, joiners, variation selectors, tags (so a base and its marks, or an
/// emoji sequence, stay in one run and shape together).
private func clingsToPrevious(_ c: UInt32) -> Bool {
    switch c {
    case 0x0300...0x036F, 0x0483...0x0489, 0x0591...0x05BD, 0x0610...0x061A, 0x064B...0x065F, 0x0670,
         0x06D6...0x06DC, 0x06DF...0x06E4, 0x0900...0x0903, 0x093A...0x094F, 0x0951...0x0957, 0x0962, 0x0963,
         0x1AB0...0x1AFF, 0x1DC0...0x1DFF, 0x200C, 0x200D, 0x20D0...0x20FF, 0xFE00...0xFE0F, 0xFE20...0xFE2F,
         0x1F3FB...0x1F3FF, 0xE0020...0xE007F, 0xE0100...0xE01EF:
        return true
    default:
        return false
    }
}

/// Whether the character at UTF-16 index `i` is shown as an emoji (Unicode TR51): it has the
/// Emoji_Presentation property and no text presentation selector (U+FE0E) follows, or it is an
/// emoji character followed by the emoji presentation selector U+FE0F. Such characters take a
/// colour emoji font (`FontRegistry.colorEmojiFace`).
private func prefersColorEmoji(_ text: TextStorage, _ i: Int) -> Bool {
    let c = text.scalars[i]
    // Fast path: below U+00A9 only '#', '*' and the digits are emoji characters.
    if c < 0xA9 && c != 0x23 && c != 0x2A && !(0x30...0x39).contains(c) { return false }
    guard let scalar = Unicode.Scalar(text.scalars[i]) else { return false }
    let props = scalar.properties
    guard props.isEmoji else { return false }
    var j = i + 1
    while j < text.scalars.count, text.continuation[j] { j += 1 }
    let next: UInt32 = j < text.scalars.count ? text.scalars[j] : 0
    if next == 0xFE0E { return false }
    return props.isEmojiPresentation || next == 0xFE0F
}

/// Splits `range` of `text` into items: a new item wherever the attribute span, the bidi level
/// (`levels`, indexed from `range.lowerBound`), the script (Common and Inherited characters join
/// their neighbours) or the font changes. A character the span's font lacks takes fontconfig's
/// fallback font for it (`FontRegistry.fallbackFace`), at the span's size.
package func itemize(_ text: TextStorage, _ range: Range<Int>, levels: [UInt8]) -> [TextItem] {
    guard !range.isEmpty else { return [] }
    let unicode = hb_unicode_funcs_get_default()
    var items: [TextItem] = []
    var fallbackFonts: [ObjectIdentifier: CTFont] = [:]
    var prevScript = HB_SCRIPT_COMMON
    // Resolve the first strong script so leading Common characters take it.
    for i in range {
        let s = hb_unicode_script(unicode, text.scalars[i])
        if s != HB_SCRIPT_COMMON && s != HB_SCRIPT_INHERITED && s != HB_SCRIPT_UNKNOWN { prevScript = s; break }
    }
    // One colour emoji lookup that finds nothing (and warns) per call, not one per emoji.
    var noColorEmoji = false
    func colorEmoji(_ c: UInt32) -> FontFace? {
        if noColorEmoji { return nil }
        let f = FontRegistry.shared.colorEmojiFace(for: c)
        if f == nil { noColorEmoji = true }
        return f
    }
    var work = 0
    for i in range {
        work += 1
        let span = text.span(at: i)
        let primary = text.spans[span].attributes.font
        let c = text.scalars[i]
        let level = levels[i - range.lowerBound]
        let rawScript = hb_unicode_script(unicode, c)
        let isCommon = rawScript == HB_SCRIPT_COMMON || rawScript == HB_SCRIPT_INHERITED || rawScript == HB_SCRIPT_UNKNOWN
        // The run going on in this span and level, whose font a neutral character may keep.
        let current = items.last.flatMap { $0.span == span && $0.level == level ? $0 : nil }
        var font = primary
        if text.continuation[i], let last = items.last {
            font = last.font
        } else if c < 0x20 || c == 0x2028 || c == 0x2029 || (c == 0xFFFD && !primary.face.hasGlyph(for: c)) {
            font = current?.font ?? primary
        } else if prefersColorEmoji(text, i), !(primary.face.isColorBitmap && primary.face.hasGlyph(for: c)),
                  let f = colorEmoji(c) {
            // Emoji presentation: a colour emoji font, as Core Text takes Apple Color Emoji.
            if let cur = current, cur.font.face === f { font = cur.font }
            else if let cached = fallbackFonts[ObjectIdentifier(f)], cached.size == primary.size, cached.matrix == primary.matrix { font = cached }
            else { let nf = CTFont(face: f, size: primary.size, matrix: primary.matrix); fallbackFonts[ObjectIdentifier(f)] = nf; font = nf }
        } else if (isCommon || clingsToPrevious(c)), let current, current.font.face.hasGlyph(for: c) || clingsToPrevious(c) {
            // Spaces, punctuation and marks stay in the run's font (a fallback one included) when it
            // has them, so "日本 語" is one run and a base keeps its marks.
            font = current.font
        } else if !primary.face.hasGlyph(for: c) {
            if let f = FontRegistry.shared.fallbackFace(for: c) {
                if f === primary.face { font = primary }
                else if let cached = fallbackFonts[ObjectIdentifier(f)], cached.size == primary.size, cached.matrix == primary.matrix { font = cached }
                else { let nf = CTFont(face: f, size: primary.size, matrix: primary.matrix); fallbackFonts[ObjectIdentifier(f)] = nf; font = nf }
            }
        }
        if var last = items.last, last.span == span, last.level == level, last.font.face === font.face,
           isCommon || text.continuation[i] || last.script == rawScript || last.script == HB_SCRIPT_COMMON {
            // Same run. A run that began with neutral characters takes the first real script in it.
            if !isCommon && last.script == HB_SCRIPT_COMMON { last.script = rawScript }
            last.range = last.range.lowerBound..<(i + 1)
            items[items.count - 1] = last
        } else {
            items.append(TextItem(range: i..<(i + 1), level: level, span: span, font: font,
                                  script: isCommon ? HB_SCRIPT_COMMON : rawScript))
        }
        if !isCommon { prevScript = rawScript }
    }
    // Runs of neutral characters only take the script around them (for shaping).
    for k in items.indices where items[k].script == HB_SCRIPT_COMMON {
        items[k].script = k > 0 ? items[k - 1].script : prevScript
    }
    LayoutWork.add(work)
    return items
}

/// Shapes one item with HarfBuzz (the whole text as context, so joining and contextual forms
/// see across item edges). Features: kerning unless the run's kern attribute is 0; standard
/// ligatures unless its ligature attribute is 0; discretionary ones when it is 2; those of the
/// package's `caOpenTypeFeaturesAttributeName` ("smcp"). Then Core
/// Text's kern and tracking attributes add their space after each cluster.
package func shape(_ item: TextItem, in text: TextStorage) -> ShapedItem {
    var out = ShapedItem(item: item)
    guard !item.range.isEmpty, let buf = hb_buffer_create() else { return out }
    defer { hb_buffer_destroy(buf) }
    let attrs = text.spans[item.span].attributes
    text.shapingUnits.withUnsafeBufferPointer { p in
        hb_buffer_add_utf16(buf, p.baseAddress, Int32(p.count), UInt32(item.range.lowerBound), Int32(item.range.count))
    }
    hb_buffer_set_direction(buf, item.isRightToLeft ? HB_DIRECTION_RTL : HB_DIRECTION_LTR)
    hb_buffer_set_script(buf, item.script)
    if let lang = attrs.language { hb_buffer_set_language(buf, hb_language_from_string(lang, -1)) }
    hb_buffer_set_cluster_level(buf, HB_BUFFER_CLUSTER_LEVEL_MONOTONE_GRAPHEMES)
    var features: [hb_feature_t] = []
    func feature(_ s: String) { var f = hb_feature_t(); if hb_feature_from_string(s, -1, &f) != 0 { features.append(f) } }
    if attrs.kern == 0 { feature("kern=0") }
    if attrs.ligature == 0 { feature("liga=0"); feature("clig=0") }
    if attrs.ligature == 2 { feature("dlig=1") }
    for f in attrs.features { feature(f) }
    hb_shape(item.font.face.hbFont, buf, features, UInt32(features.count))
    var n: UInt32 = 0
    guard let infos = hb_buffer_get_glyph_infos(buf, &n), let pos = hb_buffer_get_glyph_positions(buf, &n) else { return out }
    let count = Int(n)
    let scale = Double(item.font.scale)
    let extra = (attrs.kern ?? 0) + attrs.tracking
    out.glyphs.reserveCapacity(count); out.advances.reserveCapacity(count)
    out.offsets.reserveCapacity(count); out.clusters.reserveCapacity(count)
    for i in 0..<count {
        let g = infos[i].codepoint
        out.glyphs.append(g <= UInt32(UInt16.max) ? CGGlyph(g) : 0)
        var adv = Double(pos[i].x_advance) * scale
        let cluster = Int(infos[i].cluster)
        // The extra space goes after each cluster, once: on the glyph that ends it.
        if extra != 0, i + 1 == count || Int(infos[i + 1].cluster) != cluster { adv += extra }
        out.advances.append(adv)
        out.offsets.append(CGPoint(x: Double(pos[i].x_offset) * scale, y: Double(pos[i].y_offset) * scale + attrs.baselineOffset))
        out.clusters.append(cluster)
        out.width += adv
    }
    LayoutWork.add(count + item.range.count)
    return out
}
