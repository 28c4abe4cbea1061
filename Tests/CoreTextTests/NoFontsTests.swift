import Testing
import Foundation
@testable import CoreText

/// A machine where fontconfig finds no font at all (none installed, or `FONTCONFIG_FILE`
/// naming an empty configuration) must not stop the process: Core Text here returns the
/// built-in last-resort font (`LastResortFont`), which lays text out and draws nothing, with
/// one warning naming the font asked for (docs/TEXT.md, "Clamps and bad input"). These tests
/// use a registry of their own with an empty configuration, so they need no test fonts and do
/// not disturb the shared registry other tests use.
struct NoFontsTests {
    @Test("The built-in last-resort font loads: one empty glyph half an em wide, 1000 units per em")
    func lastResortFontLoads() {
        let face = LastResortFont.face
        #expect(face.glyphCount == 1)
        #expect(face.unitsPerEm == 1000)
        #expect(face.postScriptName == "LastResort")
        #expect(face.ascender == 800 && face.descender == 200)
        #expect(face.glyph(for: 0x41) == 0)
        #expect(face.advance(of: 0) == 500)
        let font = CTFont(face: face, size: 20)
        let path = CTFontCreatePathForGlyph(font, 0, nil)
        #expect(path?.isEmpty ?? true)
    }

    @Test("With no fonts configured, a font by name is the last-resort font, with one warning naming the name asked for")
    func noFontsGivesLastResort() {
        let registry = FontRegistry()
        registry.useFontDirectories([])
        #expect(registry.defaultFace() == nil)
        let (face, warnings) = TextDiagnostics.capture { requireFace(named: "Helvetica-Bold", in: registry) }
        #expect(face === LastResortFont.face)
        #expect(warnings.count == 1)
        #expect(warnings.first?.contains("\"Helvetica-Bold\"") == true)
        #expect(registry.fallbackFace(for: 0x65E5) == nil)
    }

    @Test("Text in the last-resort font lays out (width = characters × half an em) and draws nothing")
    func lastResortLaysOutAndDrawsNothing() {
        let font = CTFont(face: LastResortFont.face, size: 20)
        // Noncharacters: no font has them, so no fallback font joins in, whatever is installed.
        let line = CTLineCreateWithAttributedString(NSAttributedString(
            string: String(String.UnicodeScalarView((0xFDD0...0xFDD4).compactMap(Unicode.Scalar.init))), attributes: [NSAttributedString.Key(kCTFontAttributeName): font]))
        var ascent: CGFloat = 0, descent: CGFloat = 0
        let width = CTLineGetTypographicBounds(line, &ascent, &descent, nil)
        #expect(abs(width - 50) < 1e-9)
        #expect(abs(ascent - 16) < 1e-9 && abs(descent - 4) < 1e-9)
        let c = CGContext(data: nil, width: 80, height: 40, bitsPerComponent: 8, bytesPerRow: 0,
                          space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue)!
        c.textPosition = CGPoint(x: 5, y: 10)
        CTLineDraw(line, c)
        let bytes = UnsafeBufferPointer(start: c.data!.assumingMemoryBound(to: UInt8.self), count: c.bytesPerRow * c.height)
        #expect(bytes.allSatisfy { $0 == 0 })
    }
}
