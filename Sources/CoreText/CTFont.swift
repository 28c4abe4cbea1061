import CoreGraphics
import Foundation

/// A font at a size, as Core Text's `CTFont`: a face (FreeType + HarfBuzz on the font file),
/// a point size and a matrix. Immutable; metrics are the face's in font units scaled by
/// `size / unitsPerEm` (no hinting), as Core Text's are.
///
/// Sizes: Core Text uses 12 pt when asked for 0 ("If 0.0, the default font size of 12.0 is
/// used", CTFontCreateWithName). Here negative and NaN sizes also give 12 pt, and sizes above
/// `CTFont.maximumSize` (16,384 pt) are clamped to it; both warn once (docs/TEXT.md).
public final class CTFont: @unchecked Sendable, Hashable, CustomStringConvertible {
    package let face: FontFace
    package let size: CGFloat
    package let matrix: CGAffineTransform
    /// Points per font unit.
    package let scale: CGFloat

    /// The default size Core Text substitutes for 0.
    package static let defaultSize: CGFloat = 12
    /// The largest point size kept (extension beyond Apple's API: a bound so that metrics and
    /// paths stay far inside Double's exact range and rasters finite).
    package static let maximumSize: CGFloat = 16_384

    package init(face: FontFace, size requested: CGFloat, matrix: CGAffineTransform = .identity) {
        self.face = face
        size = CTFont.clampedSize(requested)
        self.matrix = (matrix.a.isFinite && matrix.b.isFinite && matrix.c.isFinite && matrix.d.isFinite
                       && matrix.tx.isFinite && matrix.ty.isFinite) ? matrix : .identity
        scale = size / CGFloat(face.unitsPerEm)
    }

    package static func clampedSize(_ s: CGFloat) -> CGFloat {
        if s == 0 { return defaultSize }
        if s.isNaN || s < 0 {
            TextDiagnostics.warnOnce("font size \(s) is not a size; \(defaultSize) pt is used")
            return defaultSize
        }
        if s > maximumSize {
            TextDiagnostics.warnOnce("font size \(s) is clamped to \(maximumSize) pt")
            return maximumSize
        }
        return s
    }

    public static func == (l: CTFont, r: CTFont) -> Bool { l.face === r.face && l.size == r.size && l.matrix == r.matrix }
    public func hash(into h: inout Hasher) { h.combine(ObjectIdentifier(face)); h.combine(size) }
    public var description: String { "CTFont(\(face.postScriptName) \(size) pt)" }

    package func withSize(_ s: CGFloat) -> CTFont { CTFont(face: face, size: s, matrix: matrix) }

    /// The ascent, descent (positive) and leading in points.
    package var ascent: CGFloat { face.ascender * scale }
    package var descent: CGFloat { face.descender * scale }
    package var leading: CGFloat { face.lineGap * scale }

    /// The outline of `glyph` at this size (y up, origin on the baseline), then `transform`.
    package func path(for glyph: CGGlyph, transform: CGAffineTransform = .identity) -> CGPath? {
        let m = CGAffineTransform(scaleX: scale, y: scale).concatenating(matrix).concatenating(transform)
        var sink = OutlineSink(transform: m)
        guard face.decomposeOutline(glyph, into: &sink) else { return nil }
        return sink.path
    }
}

/// Which metrics an advance or bounding box call uses (`CTFontOrientation`).
public enum CTFontOrientation: UInt32, Sendable {
    case `default` = 0
    case horizontal = 1
    case vertical = 2
}

/// Font traits Core Text reports (`CTFontSymbolicTraits`, the subset fonts here carry).
public struct CTFontSymbolicTraits: OptionSet, Sendable, Hashable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }
    public static let traitItalic = CTFontSymbolicTraits(rawValue: 1 << 0)
    public static let traitBold = CTFontSymbolicTraits(rawValue: 1 << 1)
    public static let traitExpanded = CTFontSymbolicTraits(rawValue: 1 << 5)
    public static let traitCondensed = CTFontSymbolicTraits(rawValue: 1 << 6)
    public static let traitMonoSpace = CTFontSymbolicTraits(rawValue: 1 << 10)
}

private func matrixValue(_ m: UnsafePointer<CGAffineTransform>?) -> CGAffineTransform { m?.pointee ?? .identity }

/// Resolves `name` (PostScript, full or family name; Apple's well-known families map to
/// installed metric-compatible ones, docs/TEXT.md). When nothing matches, Core Text gives a
/// default font; so does this, with one warning naming the font asked for.
package func resolveFace(named name: String, in registry: FontRegistry = .shared) -> FontFace? {
    if let (face, exact) = registry.face(named: name) {
        if !exact { TextDiagnostics.warnOnce("font \"\(name)\" not found; using \(face.postScriptName)") }
        return face
    }
    return nil
}

/// The face for a font Core Text must return: `name`'s, else the default font, else (fontconfig
/// found no font at all) the built-in `LastResortFont`, which draws nothing, with one warning
/// naming the font asked for. Never stops the process: a machine without fonts still renders
/// everything but its text (docs/TEXT.md, "Clamps and bad input").
package func requireFace(named name: String, in registry: FontRegistry = .shared) -> FontFace {
    if let face = resolveFace(named: name, in: registry) { return face }
    if let d = registry.defaultFace() { return d }
    TextDiagnostics.warnOnce("font \"\(name)\" not found and no font is installed (fontconfig found none); "
                             + "text in it is laid out with the built-in last-resort font and draws nothing "
                             + "(tools/install-deps.sh installs fonts)")
    return LastResortFont.face
}

/// Returns a font for `name` at `size` (0 → 12 pt) with an optional matrix (CTFontCreateWithName).
public func CTFontCreateWithName(_ name: CFString, _ size: CGFloat, _ matrix: UnsafePointer<CGAffineTransform>?) -> CTFont {
    CTFont(face: requireFace(named: name), size: size, matrix: matrixValue(matrix))
}

/// A font from a graphics font (CTFontCreateWithGraphicsFont). Descriptor attributes are not
/// applied (warns once when given).
public func CTFontCreateWithGraphicsFont(_ graphicsFont: CGFont, _ size: CGFloat, _ matrix: UnsafePointer<CGAffineTransform>?,
                                         _ attributes: CTFontDescriptor?) -> CTFont {
    if attributes != nil { TextDiagnostics.warnOnce("CTFontCreateWithGraphicsFont: descriptor attributes are ignored") }
    return CTFont(face: graphicsFont.face, size: size, matrix: matrixValue(matrix))
}

/// A copy at another size (0 keeps the size) and matrix (CTFontCreateCopyWithAttributes).
public func CTFontCreateCopyWithAttributes(_ font: CTFont, _ size: CGFloat, _ matrix: UnsafePointer<CGAffineTransform>?,
                                           _ attributes: CTFontDescriptor?) -> CTFont {
    if attributes != nil { TextDiagnostics.warnOnce("CTFontCreateCopyWithAttributes: descriptor attributes are ignored") }
    return CTFont(face: font.face, size: size == 0 ? font.size : size, matrix: matrix?.pointee ?? font.matrix)
}

/// The font of the same family with the given traits (bold, italic), or nil when the family has
/// no such face (CTFontCreateCopyWithSymbolicTraits).
public func CTFontCreateCopyWithSymbolicTraits(_ font: CTFont, _ size: CGFloat, _ matrix: UnsafePointer<CGAffineTransform>?,
                                               _ symTraitValue: CTFontSymbolicTraits, _ symTraitMask: CTFontSymbolicTraits) -> CTFont? {
    var traits = CTFontGetSymbolicTraits(font)
    traits.subtract(symTraitMask)
    traits.formUnion(symTraitValue.intersection(symTraitMask))
    let bold = traits.contains(.traitBold), italic = traits.contains(.traitItalic)
    guard let face = FontRegistry.shared.match(family: font.face.familyName, bold: bold, italic: italic),
          face.familyName == font.face.familyName, face.isBold == bold, face.isItalic == italic else { return nil }
    return CTFont(face: face, size: size == 0 ? font.size : size, matrix: matrix?.pointee ?? font.matrix)
}

/// The font that can draw `string[range]` starting with its first character: `currentFont` when
/// it has the glyph, else fontconfig's fallback (CTFontCreateForString).
public func CTFontCreateForString(_ currentFont: CTFont, _ string: CFString, _ range: CFRange) -> CTFont {
    let units = Array(string.utf16)
    guard range.location >= 0, range.location < units.count else { return currentFont }
    let scalar = UTF16Text.scalar(in: units, at: range.location).value
    if currentFont.face.hasGlyph(for: scalar) { return currentFont }
    guard let f = FontRegistry.shared.fallbackFace(for: scalar) else { return currentFont }
    return CTFont(face: f, size: currentFont.size, matrix: currentFont.matrix)
}

public func CTFontGetSize(_ font: CTFont) -> CGFloat { font.size }
public func CTFontGetMatrix(_ font: CTFont) -> CGAffineTransform { font.matrix }
/// The scaled ascender (hhea, or OS/2 typo metrics when the font asks for them through FreeType).
public func CTFontGetAscent(_ font: CTFont) -> CGFloat { font.ascent }
/// The scaled descender, positive below the baseline (as Core Text reports it).
public func CTFontGetDescent(_ font: CTFont) -> CGFloat { font.descent }
/// The scaled line gap.
public func CTFontGetLeading(_ font: CTFont) -> CGFloat { font.leading }
/// OS/2 sCapHeight, or the top of "H" when the table has none.
public func CTFontGetCapHeight(_ font: CTFont) -> CGFloat { font.face.effectiveCapHeight * font.scale }
/// OS/2 sxHeight, or the top of "x" when the table has none.
public func CTFontGetXHeight(_ font: CTFont) -> CGFloat { font.face.effectiveXHeight * font.scale }
public func CTFontGetUnitsPerEm(_ font: CTFont) -> UInt32 { UInt32(font.face.unitsPerEm) }
public func CTFontGetGlyphCount(_ font: CTFont) -> CFIndex { font.face.glyphCount }
/// The union of all glyph bounds (the head table's box), scaled.
public func CTFontGetBoundingBox(_ font: CTFont) -> CGRect {
    let b = font.face.boundingBox
    return CGRect(x: b.minX * font.scale, y: b.minY * font.scale, width: b.width * font.scale, height: b.height * font.scale)
}
public func CTFontGetUnderlinePosition(_ font: CTFont) -> CGFloat { font.face.underlinePosition * font.scale }
public func CTFontGetUnderlineThickness(_ font: CTFont) -> CGFloat { font.face.underlineThickness * font.scale }
public func CTFontGetSymbolicTraits(_ font: CTFont) -> CTFontSymbolicTraits {
    var t: CTFontSymbolicTraits = []
    if font.face.isBold { t.insert(.traitBold) }
    if font.face.isItalic { t.insert(.traitItalic) }
    return t
}

public func CTFontCopyPostScriptName(_ font: CTFont) -> CFString { font.face.postScriptName }
public func CTFontCopyFamilyName(_ font: CTFont) -> CFString { font.face.familyName }
public func CTFontCopyFullName(_ font: CTFont) -> CFString { font.face.fullName }
public func CTFontCopyDisplayName(_ font: CTFont) -> CFString { font.face.fullName }

/// The graphics font of `font` (CTFontCopyGraphicsFont); `attributes` is left unset.
public func CTFontCopyGraphicsFont(_ font: CTFont, _ attributes: UnsafeMutablePointer<Unmanaged<CTFontDescriptor>?>?) -> CGFont {
    attributes?.pointee = nil
    return CGFont(face: font.face)
}

/// Maps UTF-16 characters to glyphs (CTFontGetGlyphsForCharacters). A surrogate pair's glyph
/// goes in the pair's first slot and 0 in the second, as on Apple; an unpaired surrogate or a
/// character the font lacks gets glyph 0. Returns whether every character had a glyph.
public func CTFontGetGlyphsForCharacters(_ font: CTFont, _ characters: UnsafePointer<UniChar>,
                                         _ glyphs: UnsafeMutablePointer<CGGlyph>, _ count: CFIndex) -> Bool {
    guard count > 0 else { return true }
    let units = UnsafeBufferPointer(start: characters, count: count)
    var all = true
    var i = 0
    while i < count {
        let u = units[i]
        if UTF16.isLeadSurrogate(u), i + 1 < count, UTF16.isTrailSurrogate(units[i + 1]) {
            let scalar = 0x10000 + ((UInt32(u) - 0xD800) << 10) + (UInt32(units[i + 1]) - 0xDC00)
            glyphs[i] = font.face.glyph(for: scalar)
            glyphs[i + 1] = 0
            if glyphs[i] == 0 { all = false }
            i += 2
            continue
        }
        if UTF16.isLeadSurrogate(u) || UTF16.isTrailSurrogate(u) {
            glyphs[i] = 0; all = false
        } else {
            glyphs[i] = font.face.glyph(for: UInt32(u))
            if glyphs[i] == 0 { all = false }
        }
        i += 1
    }
    return all
}

/// Glyph advances in points (CTFontGetAdvancesForGlyphs): the font's hmtx advances scaled
/// by the size. Vertical advances are not provided (width 0, height the line height; warns
/// once). Returns the sum of the advances.
public func CTFontGetAdvancesForGlyphs(_ font: CTFont, _ orientation: CTFontOrientation, _ glyphs: UnsafePointer<CGGlyph>,
                                       _ advances: UnsafeMutablePointer<CGSize>?, _ count: CFIndex) -> Double {
    guard count > 0 else { return 0 }
    var total = 0.0
    if orientation == .vertical {
        TextDiagnostics.warnOnce("vertical glyph advances are not supported; the line height is used")
        let h = font.ascent + font.descent
        for i in 0..<count { advances?[i] = CGSize(width: 0, height: h); total += h }
        return total
    }
    for i in 0..<count {
        let w = font.face.advance(of: glyphs[i]) * font.scale
        advances?[i] = CGSize(width: w, height: 0)
        total += w
    }
    return total
}

/// Each glyph's ink bounds in points (CTFontGetBoundingRectsForGlyphs); returns their union.
public func CTFontGetBoundingRectsForGlyphs(_ font: CTFont, _ orientation: CTFontOrientation, _ glyphs: UnsafePointer<CGGlyph>,
                                            _ boundingRects: UnsafeMutablePointer<CGRect>?, _ count: CFIndex) -> CGRect {
    var union = CGRect.null
    for i in 0..<max(0, count) {
        let b = font.face.bounds(of: glyphs[i])
        let r = b.isEmpty && b.width == 0 && b.height == 0 ? CGRect.zero
            : CGRect(x: b.minX * font.scale, y: b.minY * font.scale, width: b.width * font.scale, height: b.height * font.scale)
        boundingRects?[i] = r
        if r != .zero { union = union.union(r) }
    }
    return union.isNull ? .zero : union
}

/// The glyph's outline as a path in points, y up with the origin on the baseline, transformed
/// by the font matrix and then `matrix` (CTFontCreatePathForGlyph); nil when the glyph has no
/// outline (out of range, or a bitmap glyph). An empty glyph (a space) gives an empty path.
public func CTFontCreatePathForGlyph(_ font: CTFont, _ glyph: CGGlyph, _ matrix: UnsafePointer<CGAffineTransform>?) -> CGPath? {
    font.path(for: glyph, transform: matrixValue(matrix))
}
