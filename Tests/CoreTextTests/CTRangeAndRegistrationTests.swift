import Testing
import Foundation
@testable import CoreText

/// Ranges from callers are clamped, never trusted (a length of Int.max must not overflow), font
/// registration of a good file is quiet and makes it findable, and mixed sizes keep their own
/// fallback fonts.
@Suite(.enabled(if: TestFonts.available, TestFonts.skipMessage))
struct CTRangeAndRegistrationTests {
    @Test("Huge and negative CFRange lengths and locations are clamped (no overflow trap)")
    func hugeRanges() {
        let f = TestFonts.font("NotoSans-Regular", 10)
        let line = CTLineCreateWithAttributedString(attributed("Hello", f))
        let run = runs(line)[0]
        var g = [CGGlyph](repeating: 0, count: 5)
        CTRunGetGlyphs(run, CFRange(location: 1, length: Int.max), &g)
        #expect(Array(g.prefix(4)) == [72, 79, 79, 82])
        #expect(close(CTRunGetTypographicBounds(run, CFRange(location: Int.max, length: Int.max), nil, nil, nil), 0))
        #expect(close(CTRunGetTypographicBounds(run, CFRange(location: -3, length: 1), nil, nil, nil), 7.41))
        let fs = CTFramesetterCreateWithAttributedString(attributed("Hello world", f))
        let frame = CTFramesetterCreateFrame(fs, CFRange(location: 6, length: Int.max), CGPath(rect: CGRect(x: 0, y: 0, width: 100, height: 100), transform: nil), nil)
        #expect(CTFrameGetVisibleStringRange(frame) == CFRange(location: 6, length: 5))
        var o = [CGPoint](repeating: .zero, count: 1)
        CTFrameGetLineOrigins(frame, CFRange(location: 0, length: Int.max), &o)
        #expect(close(o[0].y, 100 - 10.69))
    }

    @Test("Unconstrained suggested size ignores alignment (no infinite offsets)")
    func unconstrainedRightAligned() {
        var a = CTTextAlignment.right.rawValue
        let style = withUnsafeBytes(of: &a) { p in
            var s = CTParagraphStyleSetting(spec: .alignment, valueSize: 1, value: p.baseAddress!)
            return CTParagraphStyleCreate(&s, 1)
        }
        let fs = CTFramesetterCreateWithAttributedString(attributed("Hello", TestFonts.font("NotoSans-Regular", 10),
                                                                    [kCTParagraphStyleAttributeName: style]))
        let size = CTFramesetterSuggestFrameSizeWithConstraints(fs, CFRange(), nil, CGSize(width: CGFloat.greatestFiniteMagnitude, height: CGFloat.greatestFiniteMagnitude), nil)
        #expect(close(size.width, 24.26))
    }

    @Test("A fallback font takes the size of the run that needs it")
    func fallbackSizes() {
        let s = NSMutableAttributedString(attributedString: attributed("日", TestFonts.font("NotoSans-Regular", 10)))
        s.append(attributed("日", TestFonts.font("NotoSans-Regular", 20)))
        let r = runs(CTLineCreateWithAttributedString(s))
        #expect(r.count == 2)
        #expect(r.map { CTFontGetSize(CTRunGetAttributes($0)[kCTFontAttributeName] as! CTFont) } == [10, 20])
        #expect(r.map { CTRunGetTypographicBounds($0, CFRange(), nil, nil, nil) } == [10, 20])
    }

    @Test("Registering a good font file is quiet and makes its names resolve to it")
    func registerGoodFile() {
        TestFonts.ensureConfigured()
        var error: Unmanaged<CFError>?
        let (ok, warnings) = TextDiagnostics.capture {
            CTFontManagerRegisterFontsForURL(TestFonts.url("Yellowtail-Regular.ttf") as CFURL, .process, &error)
        }
        #expect(ok && error == nil)
        #expect(warnings.isEmpty)
        #expect(CTFontCopyPostScriptName(CTFontCreateWithName("Yellowtail" as CFString, 10, nil)) == "Yellowtail-Regular")
    }

    @Test("A font registered after a character found no fallback becomes that character's fallback (registered fonts come first)")
    func registrationRenewsFallbacks() throws {
        // A registry of its own with no fonts: "א" first has no fallback, and that answer is
        // remembered; registering M+ 1p (which has Hebrew) must replace it.
        let registry = FontRegistry()
        registry.useFontDirectories([])
        #expect(registry.fallbackFace(for: 0x5D0) == nil)
        #expect(registry.registerFile(TestFonts.url("MPLUS1p-Regular.ttf")))
        let face = try #require(registry.fallbackFace(for: 0x5D0))
        #expect(face.postScriptName == "Mplus1p-Regular")
    }
}
