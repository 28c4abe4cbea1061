import CoreGraphics
import Foundation

/// A font face without a size, as Core Graphics' `CGFont`: made from font data
/// (`CGFont(_ provider:)`, TrueType/OpenType/CFF through FreeType) or found by name. Apple
/// declares it in Core Graphics; here it lives in CoreText because it needs FreeType.
/// Metrics are in font units.
public final class CGFont: @unchecked Sendable, Hashable {
    package let face: FontFace

    package init(face: FontFace) { self.face = face }

    /// A font from font file bytes; nil when the data is not a font FreeType can read (the
    /// failure warns once).
    public init?(_ provider: CGDataProvider) {
        guard let data = provider.data, let face = FontFace(data: data, sourceName: "data (\(data.count) bytes)") else {
            TextDiagnostics.warnOnce("CGFont: data of \(provider.data?.count ?? 0) bytes is not a font")
            return nil
        }
        self.face = face
    }

    /// The font named `name` (PostScript, full or family name, or one of the mapped Apple
    /// names; docs/TEXT.md); nil when none matches.
    public init?(_ name: CFString) {
        guard let (face, exact) = FontRegistry.shared.face(named: name), exact else { return nil }
        self.face = face
    }

    public static func == (l: CGFont, r: CGFont) -> Bool { l.face === r.face }
    public func hash(into h: inout Hasher) { h.combine(ObjectIdentifier(face)) }

    public var postScriptName: CFString? { face.postScriptName }
    public var fullName: CFString? { face.fullName }
    public var numberOfGlyphs: Int { face.glyphCount }
    public var unitsPerEm: Int32 { Int32(face.unitsPerEm) }
    public var ascent: Int32 { Int32(face.ascender) }
    /// Negative below the baseline, as Core Graphics reports it.
    public var descent: Int32 { Int32(-face.descender) }
    public var leading: Int32 { Int32(face.lineGap) }
    public var capHeight: Int32 { Int32(face.effectiveCapHeight) }
    public var xHeight: Int32 { Int32(face.effectiveXHeight) }
    public var fontBBox: CGRect { face.boundingBox }

    /// Advances in font units (CGFontGetGlyphAdvances); false when a glyph is out of range.
    public func getGlyphAdvances(glyphs: UnsafePointer<CGGlyph>, count: Int, advances: UnsafeMutablePointer<Int32>) -> Bool {
        var ok = true
        for i in 0..<max(0, count) {
            if Int(glyphs[i]) >= face.glyphCount { ok = false; advances[i] = 0; continue }
            advances[i] = Int32(face.advance(of: glyphs[i]))
        }
        return ok
    }

    /// Ink bounds in font units (CGFontGetGlyphBBoxes).
    public func getGlyphBBoxes(glyphs: UnsafePointer<CGGlyph>, count: Int, bboxes: UnsafeMutablePointer<CGRect>) -> Bool {
        var ok = true
        for i in 0..<max(0, count) {
            if Int(glyphs[i]) >= face.glyphCount { ok = false; bboxes[i] = .zero; continue }
            bboxes[i] = face.bounds(of: glyphs[i])
        }
        return ok
    }
}

/// A font descriptor (`CTFontDescriptor`): a name and a size here; other attributes are not
/// matched (docs/TEXT.md).
public final class CTFontDescriptor: @unchecked Sendable {
    package let name: String
    package let size: CGFloat
    package init(name: String, size: CGFloat) { self.name = name; self.size = size }
}

/// A descriptor for `name` at `size` (CTFontDescriptorCreateWithNameAndSize).
public func CTFontDescriptorCreateWithNameAndSize(_ name: CFString, _ size: CGFloat) -> CTFontDescriptor {
    CTFontDescriptor(name: name, size: size)
}

/// The font a descriptor names (CTFontCreateWithFontDescriptor); `size` 0 uses the
/// descriptor's size, then 12 pt.
public func CTFontCreateWithFontDescriptor(_ descriptor: CTFontDescriptor, _ size: CGFloat,
                                           _ matrix: UnsafePointer<CGAffineTransform>?) -> CTFont {
    CTFontCreateWithName(descriptor.name, size == 0 ? descriptor.size : size, matrix)
}

/// The scope of a font registration (`CTFontManagerScope`). Only `.process` is meaningful here:
/// every registration lasts until the process ends.
public enum CTFontManagerScope: UInt32, Sendable {
    case none = 0
    case process = 1
    case persistent = 2
    case session = 3
    public static let user = CTFontManagerScope.persistent
}

/// Makes the fonts in a file available by name to `CTFontCreateWithName` and as fallback
/// (CTFontManagerRegisterFontsForURL). False, with an error naming the file, when the file is
/// missing or not a font. Persistent and session scopes act as `.process` (warns once).
public func CTFontManagerRegisterFontsForURL(_ fontURL: CFURL, _ scope: CTFontManagerScope,
                                             _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?) -> Bool {
    if scope == .persistent || scope == .session {
        TextDiagnostics.warnOnce("CTFontManagerRegisterFontsForURL: only process scope is supported")
    }
    if FontRegistry.shared.registerFile(fontURL) { return true }
    error?.pointee = Unmanaged.passRetained(NSError(domain: "com.apple.CoreText.CTFontManagerErrorDomain", code: 105,
                                                    userInfo: [NSLocalizedDescriptionKey: "\(fontURL.path) is not a readable font file"]))
    return false
}

/// Makes a graphics font available by name (CTFontManagerRegisterGraphicsFont).
public func CTFontManagerRegisterGraphicsFont(_ font: CGFont, _ error: UnsafeMutablePointer<Unmanaged<CFError>?>?) -> Bool {
    FontRegistry.shared.register(font.face)
    return true
}
