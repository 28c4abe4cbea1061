import Testing
import Foundation
@testable import CoreText

/// CTFont and CGFont over the test fonts. Expected values are the fonts' own table values
/// (head.unitsPerEm, hhea, OS/2, hmtx) read by hand, scaled by size / unitsPerEm as Core Text
/// defines the metrics; advances were checked once with HarfBuzz's `hb-shape --no-glyph-names`
/// (libharfbuzz-bin 6.0), whose output is quoted beside each.
@Suite(.enabled(if: TestFonts.available, TestFonts.skipMessage))
struct CTFontTests {
    @Test("Metrics are the font's tables scaled by size/unitsPerEm (CTFontGetAscent … CTFontGetXHeight)")
    func metrics() {
        // NotoSans-Regular: unitsPerEm 1000; hhea 1069/-293/0; OS/2 v4 xHeight 536, capHeight 714.
        let f = TestFonts.font("NotoSans-Regular", 20)
        #expect(CTFontCopyPostScriptName(f) == "NotoSans-Regular")
        #expect(CTFontCopyFamilyName(f) == "Noto Sans")
        #expect(CTFontGetUnitsPerEm(f) == 1000)
        #expect(CTFontGetSize(f) == 20)
        #expect(close(CTFontGetAscent(f), 21.38))
        #expect(close(CTFontGetDescent(f), 5.86))
        #expect(CTFontGetLeading(f) == 0)
        #expect(close(CTFontGetCapHeight(f), 14.28))
        #expect(close(CTFontGetXHeight(f), 10.72))
        // MPLUS1p: hhea 1075/-320/90 (a line gap), OS/2 version 1 (no heights): cap and x heights
        // are the tops of "H" (730) and "x" (520), as hb-shape --show-extents reports them.
        let m = TestFonts.font("Mplus1p-Regular", 10)
        #expect(close(CTFontGetAscent(m), 10.75))
        #expect(close(CTFontGetDescent(m), 3.2))
        #expect(close(CTFontGetLeading(m), 0.9))
        #expect(close(CTFontGetCapHeight(m), 7.3))
        #expect(close(CTFontGetXHeight(m), 5.2))
        // Amiri: unitsPerEm 2048.
        #expect(CTFontGetUnitsPerEm(TestFonts.font("Amiri-Regular", 12)) == 2048)
    }

    @Test("Glyphs and advances for characters (CTFontGetGlyphsForCharacters, CTFontGetAdvancesForGlyphs)")
    func glyphsAndAdvances() {
        let f = TestFonts.font("NotoSans-Regular", 10)
        // hb-shape NotoSans-Regular.ttf "Hello": [43=0+741|72=1+564|79=2+258|79=3+258|82=4+605]
        let chars = Array("Hello".utf16)
        var g = [CGGlyph](repeating: 0, count: chars.count)
        #expect(CTFontGetGlyphsForCharacters(f, chars, &g, chars.count))
        #expect(g == [43, 72, 79, 79, 82])
        var adv = [CGSize](repeating: .zero, count: g.count)
        let total = CTFontGetAdvancesForGlyphs(f, .horizontal, g, &adv, g.count)
        #expect(adv.map { ($0.width * 1000).rounded() / 1000 } == [7.41, 5.64, 2.58, 2.58, 6.05])
        #expect(close(total, 24.26, 1e-9))
    }

    @Test("A surrogate pair's glyph goes in its first slot; unpaired surrogates get glyph 0")
    func surrogates() {
        let f = TestFonts.font("NotoSans-Regular", 10)
        // U+1F600 (not in Noto Sans), an unpaired lead surrogate, then "A" (glyph 36).
        let chars: [UniChar] = [0xD83D, 0xDE00, 0xD800, 0x41]
        var g = [CGGlyph](repeating: 99, count: chars.count)
        #expect(CTFontGetGlyphsForCharacters(f, chars, &g, chars.count) == false)
        #expect(g == [0, 0, 0, 36])
    }

    @Test("Glyph outlines as CGPath: bounds match the glyph's extents (CTFontCreatePathForGlyph)")
    func glyphPath() throws {
        // hb-shape --show-extents NotoSans-Regular.ttf "H": 43 <x 97, y 714, w 546, h -714>.
        let f = TestFonts.font("NotoSans-Regular", 100)
        let path = try #require(CTFontCreatePathForGlyph(f, 43, nil))
        let b = path.boundingBox
        #expect(close(b.minX, 9.7) && close(b.maxX, 64.3) && close(b.minY, 0) && close(b.maxY, 71.4))
        var m = CGAffineTransform(translationX: 5, y: 7)
        let moved = try #require(CTFontCreatePathForGlyph(f, 43, &m))
        #expect(close(moved.boundingBox.minX, 14.7) && close(moved.boundingBox.minY, 7))
        // A space has an empty outline; a glyph index past the font's glyphs has none.
        let space = try #require(CTFontCreatePathForGlyph(f, 3, nil))
        #expect(space.isEmpty)
        #expect(CTFontCreatePathForGlyph(f, 65_000, nil) == nil)
    }

    @Test("Size 0 is 12 pt as Core Text documents; negative and NaN are 12 pt, 1e9 is 16,384 pt, with a warning")
    func sizeClamps() {
        TestFonts.ensureConfigured()
        #expect(CTFontGetSize(TestFonts.font("NotoSans-Regular", 0)) == 12)
        let (sizes, warnings) = TextDiagnostics.capture {
            [TestFonts.font("NotoSans-Regular", -5), TestFonts.font("NotoSans-Regular", .nan),
             TestFonts.font("NotoSans-Regular", 1e9), TestFonts.font("NotoSans-Regular", .infinity)].map(CTFontGetSize)
        }
        #expect(sizes == [12, 12, 16_384, 16_384])
        #expect(warnings.count == 4)
        // A clamped font still lays out finite text.
        let line = CTLineCreateWithAttributedString(attributed("Hello", TestFonts.font("NotoSans-Regular", 1e9)))
        #expect(width(line).isFinite && close(width(line), 2.426 * 16_384, 1e-6))
    }

    @Test("CGFont from data and by name; garbage and truncated data give nil, not a crash")
    func cgFont() throws {
        let data = try Data(contentsOf: TestFonts.url("NotoSerif-Regular.ttf"))
        let provider = try #require(CGDataProvider(data: data as CFData))
        let font = try #require(CGFont(provider))
        #expect(font.postScriptName == "NotoSerif-Regular")
        #expect(font.unitsPerEm == 1000 && font.ascent == 1068 && font.descent == -292)
        let ct = CTFontCreateWithGraphicsFont(font, 10, nil, nil)
        #expect(close(CTFontGetAscent(ct), 10.68))
        #expect(CGFont(CGDataProvider(data: Data(repeating: 0x42, count: 4096) as CFData)!) == nil)
        #expect(CGFont(CGDataProvider(data: data.prefix(2000) as CFData)!) == nil)
        #expect(CGFont(CGDataProvider(data: Data() as CFData)!) == nil)
        TestFonts.ensureConfigured()
        #expect(CGFont("NotoSans-Bold" as CFString)?.postScriptName == "NotoSans-Bold")
        #expect(CGFont("No Such Font Anywhere" as CFString) == nil)
    }

    @Test("CTFontManagerRegisterFontsForURL: a garbage file fails with an error naming it")
    func registerGarbage() throws {
        TestFonts.ensureConfigured()
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ct-garbage-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let bad = dir.appendingPathComponent("broken.ttf")
        try Data((0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 31) }).write(to: bad)
        var error: Unmanaged<CFError>?
        let (ok, warnings) = TextDiagnostics.capture { CTFontManagerRegisterFontsForURL(bad as CFURL, .process, &error) }
        #expect(ok == false)
        let message = error?.takeRetainedValue().localizedDescription ?? ""
        #expect(message.contains("broken.ttf"))
        #expect(warnings.contains { $0.contains("broken.ttf") })
        // A missing file too.
        var error2: Unmanaged<CFError>?
        #expect(CTFontManagerRegisterFontsForURL(dir.appendingPathComponent("missing.ttf") as CFURL, .process, &error2) == false)
        #expect(error2 != nil)
        error2?.release()
    }

    @Test("A name that matches nothing gives a font with one warning naming it (Core Text falls back too)")
    func missingName() {
        TestFonts.ensureConfigured()
        let (font, warnings) = TextDiagnostics.capture { CTFontCreateWithName("Zapfino Imaginary" as CFString, 10, nil) }
        #expect(CTFontGetSize(font) == 10)
        #expect(warnings.contains { $0.contains("Zapfino Imaginary") })
    }

    @Test("Bold and italic faces of a family (CTFontCreateCopyWithSymbolicTraits)")
    func traits() throws {
        let f = TestFonts.font("NotoSans-Regular", 10)
        let bold = try #require(CTFontCreateCopyWithSymbolicTraits(f, 0, nil, .traitBold, .traitBold))
        #expect(CTFontCopyPostScriptName(bold) == "NotoSans-Bold")
        #expect(CTFontGetSymbolicTraits(bold).contains(.traitBold))
        let italic = try #require(CTFontCreateCopyWithSymbolicTraits(f, 0, nil, .traitItalic, .traitItalic))
        #expect(CTFontCopyPostScriptName(italic) == "NotoSans-Italic")
        // Noto Sans has no bold italic in the test folder.
        #expect(CTFontCreateCopyWithSymbolicTraits(f, 0, nil, [.traitBold, .traitItalic], [.traitBold, .traitItalic]) == nil)
    }

    @Test("Fallback font for a character the font lacks (CTFontCreateForString): CJK from M+ 1p")
    func fallbackForString() {
        let f = TestFonts.font("NotoSans-Regular", 10)
        #expect(CTFontCopyPostScriptName(CTFontCreateForString(f, "日本" as CFString, CFRange(location: 0, length: 2))) == "Mplus1p-Regular")
        #expect(CTFontCreateForString(f, "abc" as CFString, CFRange(location: 0, length: 3)) == f)
    }
}

/// Apple's font names map to metric-compatible families under the machine's own fontconfig
/// set-up (tools/install-deps.sh installs fonts-liberation2): Helvetica and Arial → Liberation
/// Sans, whose advances are Arial's (hmtx: H 1479, e 1139, l 455, o 1139 per 2048 units).
@Suite(.enabled(if: FileManager.default.fileExists(atPath: "/usr/share/fonts/truetype/liberation2/LiberationSans-Regular.ttf"),
                "fonts-liberation2 is not installed (tools/install-deps.sh)"))
struct FontNameMappingTests {
    @Test("Helvetica, Helvetica Neue and Arial resolve to Liberation Sans under the system configuration")
    func helvetica() throws {
        let registry = FontRegistry()
        for name in ["Helvetica", "Helvetica Neue", "Arial", "ArialMT"] {
            let (face, exact) = try #require(registry.face(named: name))
            #expect(face.postScriptName == "LiberationSans", "\(name)")
            #expect(exact)
        }
        let (bold, _) = try #require(registry.face(named: "Helvetica-Bold"))
        #expect(bold.postScriptName == "LiberationSans-Bold")
        let (face, _) = try #require(registry.face(named: "Arial"))
        let hello: [UInt32] = [0x48, 0x65, 0x6C, 0x6C, 0x6F]
        #expect(hello.map { face.advance(of: face.glyph(for: $0)) } == [1479, 1139, 455, 455, 1139])
    }
}
