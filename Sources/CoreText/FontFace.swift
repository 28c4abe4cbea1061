import CoreGraphics
import Foundation
import CFreeType
import CHarfBuzz

/// One face of a font file, loaded once and shared by every `CTFont`/`CGFont` made from it.
///
/// FreeType reads the outlines and the global metrics; HarfBuzz (its own OpenType code, hb-ot,
/// on the same bytes) shapes. Everything is kept in font units (the face's `unitsPerEm`) and
/// scaled by the caller in Double, so results are hinting-free and the same at every size, as
/// Core Text's outlines and advances are. The bytes are owned here (a copy), so faces made from
/// `Data` outlive it. FreeType faces are not thread-safe; every FreeType call takes `lock`.
package final class FontFace: @unchecked Sendable {
    package let sourceName: String          // the file path or "data" (for messages)
    package let unitsPerEm: Int
    package let glyphCount: Int
    /// How many faces the file holds (a TrueType collection holds several).
    package let faceCount: Int
    package let familyName: String
    package let styleName: String
    package let postScriptName: String
    package let fullName: String
    /// hhea-derived (FreeType's choice) ascender, positive descender and line gap, font units.
    package let ascender: Double
    package let descender: Double
    package let lineGap: Double
    package let capHeight: Double
    package let xHeight: Double
    package let underlinePosition: Double
    package let underlineThickness: Double
    package let boundingBox: CGRect
    /// OS/2 yStrikeoutPosition and yStrikeoutSize (font units; 0 without an OS/2 table), for
    /// SVG's `text-decoration: line-through`.
    package let strikeoutPosition: Double
    package let strikeoutSize: Double
    /// OS/2 ySuperscriptYOffset and ySubscriptYOffset (font units; 0 without an OS/2 table),
    /// for SVG's `baseline-shift: super | sub`.
    package let superscriptYOffset: Double
    package let subscriptYOffset: Double
    package let isBold: Bool
    package let isItalic: Bool
    /// A bitmap-only colour face (CBDT or sbix strikes, no outlines): its glyphs are drawn from
    /// their colour bitmaps (`colorGlyph(_:pixelSize:)`), never as outlines or coverage.
    package let isColorBitmap: Bool
    /// The pixels per em of each bitmap strike of a colour face, in FreeType's order.
    package let colorStrikes: [Double]
    /// Colour glyph bitmaps already scaled, by glyph and size (FontFace+ColorGlyphs.swift).
    let colorGlyphCache = Locked([ColorGlyphCacheKey: ColorGlyphBitmap?]())

    private let bytes: UnsafeMutableRawBufferPointer
    private var library: FT_Library?
    /// Internal (not private): FontFace+Coverage.swift renders it under `lock`.
    private(set) var face: FT_Face?
    package let hbFont: OpaquePointer        // hb_font_t*, scale = unitsPerEm (font units)
    let lock = NSLock()

    /// The largest font file accepted (bytes): far above any real font, and a bound on memory.
    package static let maxFileSize = 256 << 20

    /// Loads face `index` of `data`; nil when FreeType cannot read it as a scalable font or a
    /// bitmap colour font (CBDT/sbix strikes).
    package init?(data: Data, index: Int = 0, sourceName: String) {
        guard !data.isEmpty, data.count <= Self.maxFileSize else { return nil }
        self.sourceName = sourceName
        bytes = UnsafeMutableRawBufferPointer.allocate(byteCount: data.count, alignment: 16)
        data.copyBytes(to: bytes)
        var lib: FT_Library?
        guard FT_Init_FreeType(&lib) == 0, let lib else { bytes.deallocate(); return nil }
        library = lib
        var f: FT_Face?
        let base = bytes.baseAddress!.assumingMemoryBound(to: FT_Byte.self)
        // Scalable faces, and bitmap-only colour faces (CBDT/sbix strikes without outlines:
        // Noto Color Emoji, Apple Color Emoji), whose strikes are drawn in colour
        // (FontFace+ColorGlyphs.swift) and whose metrics and shaping come from their sfnt
        // tables (head, hhea, hmtx, cmap, GSUB) as for any other face.
        guard FT_New_Memory_Face(lib, base, FT_Long(data.count), FT_Long(index), &f) == 0, let f,
              f.pointee.face_flags & FT_Long(FT_FACE_FLAG_SCALABLE) != 0
                || (f.pointee.face_flags & FT_Long(FT_FACE_FLAG_COLOR) != 0 && f.pointee.num_fixed_sizes > 0),
              Self.sfntMetrics(f).unitsPerEm > 0, f.pointee.num_glyphs > 0 else {
            if let f { FT_Done_Face(f) }
            FT_Done_FreeType(lib)
            bytes.deallocate()
            return nil
        }
        face = f
        let rec = f.pointee
        isColorBitmap = rec.face_flags & FT_Long(FT_FACE_FLAG_SCALABLE) == 0
        var strikes: [Double] = []
        if isColorBitmap, let sizes = rec.available_sizes {
            // Bounded: a corrupt count cannot make this long (sfnt strike counts are 32-bit).
            for i in 0..<min(Int(rec.num_fixed_sizes), 256) { strikes.append(Double(sizes[i].y_ppem) / 64) }
        }
        colorStrikes = strikes
        // FreeType fills the global metrics of outline and sbix faces only; a CBDT-only face
        // (Noto Color Emoji) has them from its head and hhea tables.
        let metrics = Self.sfntMetrics(f)
        unitsPerEm = metrics.unitsPerEm
        glyphCount = Int(rec.num_glyphs)
        faceCount = max(1, Int(rec.num_faces))
        familyName = rec.family_name.map { String(cString: $0) } ?? "Unknown"
        styleName = rec.style_name.map { String(cString: $0) } ?? "Regular"
        postScriptName = FT_Get_Postscript_Name(f).map { String(cString: $0) }
            ?? familyName.replacingOccurrences(of: " ", with: "") + "-" + styleName.replacingOccurrences(of: " ", with: "")
        fullName = Self.sfntName(f, id: 4) ?? (styleName == "Regular" ? familyName : familyName + " " + styleName)
        ascender = metrics.ascender
        descender = -metrics.descender   // negated as Double: -(-32768) overflows FT_Short
        lineGap = max(0, metrics.height - metrics.ascender + metrics.descender)
        underlinePosition = Double(rec.underline_position)
        underlineThickness = Double(rec.underline_thickness)
        boundingBox = metrics.bbox
        isBold = rec.style_flags & FT_Long(FT_STYLE_FLAG_BOLD) != 0
        isItalic = rec.style_flags & FT_Long(FT_STYLE_FLAG_ITALIC) != 0
        var cap = 0.0, xh = 0.0, strikePos = 0.0, strikeSize = 0.0, sup = 0.0, sub = 0.0
        if let raw = FT_Get_Sfnt_Table(f, FT_SFNT_OS2) {
            let os2 = raw.assumingMemoryBound(to: TT_OS2.self).pointee
            if os2.version >= 2 { cap = Double(os2.sCapHeight); xh = Double(os2.sxHeight) }
            strikePos = Double(os2.yStrikeoutPosition); strikeSize = Double(os2.yStrikeoutSize)
            sup = Double(os2.ySuperscriptYOffset); sub = Double(os2.ySubscriptYOffset)
        }
        superscriptYOffset = sup
        subscriptYOffset = sub
        strikeoutPosition = strikePos
        strikeoutSize = strikeSize
        let blob = hb_blob_create(UnsafeRawPointer(bytes.baseAddress!).assumingMemoryBound(to: CChar.self),
                                  UInt32(data.count), HB_MEMORY_MODE_READONLY, nil, nil)
        let hbFace = hb_face_create(blob, UInt32(index))
        hb_blob_destroy(blob)
        hbFont = hb_font_create(hbFace)!
        hb_face_destroy(hbFace)
        hb_font_set_scale(hbFont, Int32(unitsPerEm), Int32(unitsPerEm))
        // Fonts without OS/2 v2 heights: measure the flat tops of "H" and "x", as Core Text does.
        capHeight = cap > 0 ? cap : 0
        xHeight = xh > 0 ? xh : 0
        if cap <= 0 || xh <= 0 {
            let h = glyphTop(forCharacter: 0x48), x = glyphTop(forCharacter: 0x78)
            if cap <= 0 { capHeightFallback = h }
            if xh <= 0 { xHeightFallback = x }
        }
    }

    private var capHeightFallback = 0.0
    private var xHeightFallback = 0.0
    package var effectiveCapHeight: Double { capHeight > 0 ? capHeight : capHeightFallback }
    package var effectiveXHeight: Double { xHeight > 0 ? xHeight : xHeightFallback }

    deinit {
        hb_font_destroy(hbFont)
        if let face { FT_Done_Face(face) }
        if let library { FT_Done_FreeType(library) }
        bytes.deallocate()
    }

    /// Units per em, ascender, descender (negative below), line height and bounding box in font
    /// units: FreeType's where it filled them (outline and sbix faces), else the head and hhea
    /// tables' (bitmap-only CBDT faces, for which FreeType leaves them 0).
    private static func sfntMetrics(_ f: FT_Face) -> (unitsPerEm: Int, ascender: Double, descender: Double, height: Double, bbox: CGRect) {
        let rec = f.pointee
        func box(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) -> CGRect { CGRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0) }
        if rec.units_per_EM > 0 {
            return (Int(rec.units_per_EM), Double(rec.ascender), Double(rec.descender), Double(rec.height),
                    box(Double(rec.bbox.xMin), Double(rec.bbox.yMin), Double(rec.bbox.xMax), Double(rec.bbox.yMax)))
        }
        guard let h = FT_Get_Sfnt_Table(f, FT_SFNT_HEAD)?.assumingMemoryBound(to: TT_Header.self).pointee,
              h.Units_Per_EM > 0 else { return (0, 0, 0, 0, .zero) }
        let bbox = box(Double(h.xMin), Double(h.yMin), Double(h.xMax), Double(h.yMax))
        guard let hh = FT_Get_Sfnt_Table(f, FT_SFNT_HHEA)?.assumingMemoryBound(to: TT_HoriHeader.self).pointee else {
            return (Int(h.Units_Per_EM), bbox.maxY, bbox.minY, bbox.height, bbox)
        }
        let asc = Double(hh.Ascender), desc = Double(hh.Descender)
        return (Int(h.Units_Per_EM), asc, desc, asc - desc + Double(hh.Line_Gap), bbox)
    }

    /// Name table entry `id` (Windows Unicode, English preferred), decoded from UTF-16BE.
    private static func sfntName(_ f: FT_Face, id: UInt16) -> String? {
        var best: String?
        for i in 0..<FT_Get_Sfnt_Name_Count(f) {
            var n = FT_SfntName()
            guard FT_Get_Sfnt_Name(f, i, &n) == 0, n.name_id == id, n.platform_id == 3, let s = n.string else { continue }
            var units: [UInt16] = []
            for j in stride(from: 0, to: Int(n.string_len) - 1, by: 2) { units.append(UInt16(s[j]) << 8 | UInt16(s[j + 1])) }
            let text = String(decoding: units, as: UTF16.self)
            if n.language_id == 0x409 { return text }
            if best == nil { best = text }
        }
        return best
    }

    /// The glyph for a Unicode scalar, 0 (.notdef) when the font has none.
    package func glyph(for scalar: UInt32) -> CGGlyph {
        var g: hb_codepoint_t = 0
        guard hb_font_get_nominal_glyph(hbFont, scalar, &g) != 0, g <= UInt32(UInt16.max) else { return 0 }
        return CGGlyph(g)
    }

    package func hasGlyph(for scalar: UInt32) -> Bool { glyph(for: scalar) != 0 }

    /// The horizontal advance in font units (hmtx, with HVAR for variable fonts).
    package func advance(of glyph: CGGlyph) -> Double {
        Double(hb_font_get_glyph_h_advance(hbFont, hb_codepoint_t(glyph)))
    }

    /// The glyph's ink bounds in font units (y up); `.zero` for empty glyphs.
    package func bounds(of glyph: CGGlyph) -> CGRect {
        var ext = hb_glyph_extents_t()
        guard hb_font_get_glyph_extents(hbFont, hb_codepoint_t(glyph), &ext) != 0 else { return .zero }
        // HarfBuzz: x_bearing/y_bearing is the top-left corner, height is negative downwards.
        return CGRect(x: Double(ext.x_bearing), y: Double(ext.y_bearing + ext.height),
                      width: Double(ext.width), height: Double(-ext.height))
    }

    private func glyphTop(forCharacter c: UInt32) -> Double {
        let g = glyph(for: c)
        guard g != 0 else { return 0 }
        return bounds(of: g).maxY
    }

    /// Calls `sink` with the glyph's outline in font units (y up), contours closed; false when
    /// the glyph cannot be loaded (out of range, or a bitmap-only glyph).
    package func decomposeOutline(_ glyph: CGGlyph, into sink: inout OutlineSink) -> Bool {
        lock.lock(); defer { lock.unlock() }
        guard let face, Int(glyph) < glyphCount else { return false }
        let flags = FT_LOAD_NO_SCALE | FT_LOAD_NO_HINTING | FT_LOAD_NO_BITMAP
        guard FT_Load_Glyph(face, FT_UInt(glyph), Int32(flags)) == 0,
              face.pointee.glyph.pointee.format == FT_GLYPH_FORMAT_OUTLINE else { return false }
        var funcs = FT_Outline_Funcs(
            move_to: { to, user in
                let s = user!.assumingMemoryBound(to: OutlineSink.self)
                s.pointee.move(Double(to!.pointee.x), Double(to!.pointee.y)); return 0
            },
            line_to: { to, user in
                let s = user!.assumingMemoryBound(to: OutlineSink.self)
                s.pointee.line(Double(to!.pointee.x), Double(to!.pointee.y)); return 0
            },
            conic_to: { c, to, user in
                let s = user!.assumingMemoryBound(to: OutlineSink.self)
                s.pointee.quad(Double(c!.pointee.x), Double(c!.pointee.y), Double(to!.pointee.x), Double(to!.pointee.y)); return 0
            },
            cubic_to: { c1, c2, to, user in
                let s = user!.assumingMemoryBound(to: OutlineSink.self)
                s.pointee.cubic(Double(c1!.pointee.x), Double(c1!.pointee.y), Double(c2!.pointee.x), Double(c2!.pointee.y),
                                Double(to!.pointee.x), Double(to!.pointee.y)); return 0
            },
            shift: 0, delta: 0)
        let outline = withUnsafeMutablePointer(to: &face.pointee.glyph.pointee.outline) { $0 }
        let rc = withUnsafeMutablePointer(to: &sink) { FT_Outline_Decompose(outline, &funcs, $0) }
        sink.finish()
        return rc == 0
    }
}

/// Receives a glyph outline from FreeType and builds a `CGMutablePath` through an affine map
/// from font units (usually scale by size/unitsPerEm, then the caller's matrix).
package struct OutlineSink {
    package let path = CGMutablePath()
    package let transform: CGAffineTransform
    private var open = false

    package init(transform: CGAffineTransform) { self.transform = transform }

    mutating func move(_ x: Double, _ y: Double) {
        if open { path.closeSubpath() }
        path.move(to: CGPoint(x: x, y: y), transform: transform); open = true
    }
    mutating func line(_ x: Double, _ y: Double) { path.addLine(to: CGPoint(x: x, y: y), transform: transform) }
    mutating func quad(_ cx: Double, _ cy: Double, _ x: Double, _ y: Double) {
        path.addQuadCurve(to: CGPoint(x: x, y: y), control: CGPoint(x: cx, y: cy), transform: transform)
    }
    mutating func cubic(_ ax: Double, _ ay: Double, _ bx: Double, _ by: Double, _ x: Double, _ y: Double) {
        path.addCurve(to: CGPoint(x: x, y: y), control1: CGPoint(x: ax, y: ay), control2: CGPoint(x: bx, y: by), transform: transform)
    }
    mutating func finish() { if open { path.closeSubpath(); open = false } }
}
