import Testing
import Foundation
@testable import CoreText

/// CTLine and CTRun: shaping by HarfBuzz, bidi by FriBidi, fallback by fontconfig, over the test
/// fonts. Expected glyphs and advances are `hb-shape --no-glyph-names` output (libharfbuzz-bin
/// 6.0, run once by hand; quoted beside each), scaled by size / unitsPerEm.
@Suite(.enabled(if: TestFonts.available, TestFonts.skipMessage))
struct CTLineTests {
    @Test("Typographic bounds: width is the sum of advances, ascent/descent/leading the font's (CTLineGetTypographicBounds)")
    func typographicBounds() {
        // hb-shape NotoSans-Regular.ttf "Hello world":
        // [43=0+741|72=1+564|79=2+258|79=3+258|82=4+605|3=5+260|90=6+786|82=7+605|85=8+413|79=9+258|71=10+615]
        let line = CTLineCreateWithAttributedString(attributed("Hello world", TestFonts.font("NotoSans-Regular", 10)))
        var a: CGFloat = 0, d: CGFloat = 0, l: CGFloat = 0
        let w = CTLineGetTypographicBounds(line, &a, &d, &l)
        #expect(close(w, 53.63))
        #expect(close(a, 10.69) && close(d, 2.93) && l == 0)
        #expect(CTLineGetGlyphCount(line) == 11)
        #expect(CTLineGetStringRange(line) == CFRange(location: 0, length: 11))
        let r = runs(line)
        #expect(r.count == 1)
        var pos = [CGPoint](repeating: .zero, count: 11)
        CTRunGetPositions(r[0], CFRange(), &pos)
        #expect(close(pos[6].x, 26.86))  // 741+564+258+258+605+260 units
        #expect(stringIndices(r[0]) == Array(0..<11))
        // Trailing whitespace counts in the width and is reported on its own.
        let spaced = CTLineCreateWithAttributedString(attributed("Hello  ", TestFonts.font("NotoSans-Regular", 10)))
        #expect(close(width(spaced), 24.26 + 5.2))
        #expect(close(CTLineGetTrailingWhitespaceWidth(spaced), 5.2))
    }

    @Test("Standard ligature: \"ffi\" is one glyph in Noto Serif; ligature attribute 0 turns it off")
    func ligature() {
        // hb-shape NotoSerif-Regular.ttf "ffi": [2170=0+1002]
        let f = TestFonts.font("NotoSerif-Regular", 10)
        let line = CTLineCreateWithAttributedString(attributed("ffi", f))
        #expect(glyphs(runs(line)[0]) == [2170])
        #expect(close(width(line), 10.02))
        let off = CTLineCreateWithAttributedString(attributed("ffi", f, [kCTLigatureAttributeName: 0]))
        #expect(CTLineGetGlyphCount(off) == 3)
        // The caret inside a ligature splits it evenly (CTLineGetOffsetForStringIndex).
        #expect(close(CTLineGetOffsetForStringIndex(line, 1, nil), 10.02 / 3))
        #expect(CTLineGetStringIndexForPosition(line, CGPoint(x: 9.5, y: 0)) == 3)
    }

    @Test("Kerning: \"AV\" is narrower than A + V; kern attribute 0 turns kerning off, others add space")
    func kerning() {
        // hb-shape NotoSans-Regular.ttf "AV": [36=0+599|57=1+600]; with --features=-kern: [36=0+639|57=1+600]
        let f = TestFonts.font("NotoSans-Regular", 10)
        let kerned = width(CTLineCreateWithAttributedString(attributed("AV", f)))
        let a = width(CTLineCreateWithAttributedString(attributed("A", f)))
        let v = width(CTLineCreateWithAttributedString(attributed("V", f)))
        #expect(close(kerned, 11.99))
        #expect(close(a + v, 12.39))
        #expect(kerned < a + v)
        #expect(close(width(CTLineCreateWithAttributedString(attributed("AV", f, [kCTKernAttributeName: 0.0]))), 12.39))
        // kCTKernAttributeName 1.5: after each character, on top of the font's kerning.
        #expect(close(width(CTLineCreateWithAttributedString(attributed("AV", f, [kCTKernAttributeName: 1.5]))), 11.99 + 3))
    }

    @Test("Arabic joining: initial and final forms, right-to-left run in visual order")
    func arabicJoining() {
        // hb-shape Amiri-Regular.ttf "ب": [389=0+1897]; "بب": [3732=1+1583|3694=0+507]
        let f = TestFonts.font("Amiri-Regular", 20.48)
        let alone = CTLineCreateWithAttributedString(attributed("ب", f))
        #expect(glyphs(runs(alone)[0]) == [389])
        let line = CTLineCreateWithAttributedString(attributed("بب", f))
        let r = runs(line)
        #expect(r.count == 1)
        #expect(glyphs(r[0]) == [3732, 3694])
        #expect(stringIndices(r[0]) == [1, 0])
        #expect(CTRunGetStatus(r[0]).contains(.rightToLeft))
        #expect(close(width(line), 15.83 + 5.07))
        // Caret: the first character (right glyph, x 15.83…20.9) has its leading edge at the
        // line's right end; the second (left glyph, 0…15.83) at 15.83.
        #expect(close(CTLineGetOffsetForStringIndex(line, 0, nil), 20.9))
        #expect(close(CTLineGetOffsetForStringIndex(line, 1, nil), 15.83))
    }

    @Test("Bidi (UAX #9): Hebrew inside Latin is one right-to-left run; in a Hebrew paragraph the Latin comes first visually")
    func bidi() {
        // Noto Sans has no Hebrew, so the Hebrew runs are also fallback runs. Of the test fonts
        // M+ 1p has Hebrew (hb-shape "א": [1220=0+563]); so has Liberation Sans, which the test
        // configuration (`TestFontConfiguration`) adds as its sans-serif where the set-up
        // installed it, so the fallback is one or the other depending on the machine.
        let f = TestFonts.font("NotoSans-Regular", 10)
        let line = CTLineCreateWithAttributedString(attributed("abc אבג def", f))
        let r = runs(line)
        #expect(r.map { CTRunGetStringRange($0) } == [CFRange(location: 0, length: 4), CFRange(location: 4, length: 3), CFRange(location: 7, length: 4)])
        #expect(r.map { CTRunGetStatus($0).contains(.rightToLeft) } == [false, true, false])
        #expect(stringIndices(r[1]) == [6, 5, 4])
        let hebrewFont = CTRunGetAttributes(r[1])[kCTFontAttributeName] as! CTFont
        #expect(["Mplus1p-Regular", "LiberationSans"].contains(CTFontCopyPostScriptName(hebrewFont) as String))
        #expect(CTFontGetSize(hebrewFont) == 10)
        #expect(glyphs(r[1]).allSatisfy { $0 != 0 })
        // Positions increase left to right across runs.
        var last = -1.0
        for run in r {
            var p = [CGPoint](repeating: .zero, count: CTRunGetGlyphCount(run))
            CTRunGetPositions(run, CFRange(), &p)
            for q in p { #expect(q.x > last); last = q.x }
        }
        // A paragraph that starts with Hebrew is right-to-left (P2–P3): "abc" (level 2) is
        // leftmost, then the Hebrew with the space (level 1) to its right.
        let rtl = CTLineCreateWithAttributedString(attributed("אבג abc", f))
        #expect(runs(rtl).map { CTRunGetStringRange($0) } == [CFRange(location: 4, length: 3), CFRange(location: 0, length: 4)])
        // An explicit base direction from the paragraph style overrides P2–P3.
        var dir = CTWritingDirection.rightToLeft.rawValue
        let style = withUnsafeBytes(of: &dir) { p in
            var s = CTParagraphStyleSetting(spec: .baseWritingDirection, valueSize: 1, value: p.baseAddress!)
            return CTParagraphStyleCreate(&s, 1)
        }
        let forced = CTLineCreateWithAttributedString(attributed("abc def", f, [kCTParagraphStyleAttributeName: style]))
        #expect(runs(forced).count == 1 && !CTRunGetStatus(runs(forced)[0]).contains(.rightToLeft))
        #expect(forced.baseLevel == 1)
    }

    @Test("Fallback: a CJK character Noto Sans lacks is drawn with M+ 1p in a run of its own")
    func cjkFallback() {
        // hb-shape MPLUS1p-Regular.ttf "日": [4868=0+1000]
        let line = CTLineCreateWithAttributedString(attributed("A日", TestFonts.font("NotoSans-Regular", 10)))
        let r = runs(line)
        #expect(r.count == 2)
        let font = CTRunGetAttributes(r[1])[kCTFontAttributeName] as! CTFont
        #expect(CTFontCopyPostScriptName(font) == "Mplus1p-Regular")
        #expect(CTFontGetSize(font) == 10)
        #expect(glyphs(r[1]) == [4868])
        #expect(close(width(line), 6.39 + 10))
        // The line's ascent is the larger of the two fonts' (M+ 1p: 1075 units).
        var a: CGFloat = 0
        _ = CTLineGetTypographicBounds(line, &a, nil, nil)
        #expect(close(a, 10.75))
    }

    @Test("Devanagari: the i-matra is reordered before its consonant; a conjunct is one glyph")
    func devanagari() {
        // hb-shape NotoSansDevanagari-Regular.ttf "कि": [601=0+259|25=0+762]; "क्ष": [179=0+712]
        let f = TestFonts.font("NotoSansDevanagari-Regular", 10)
        let ki = CTLineCreateWithAttributedString(attributed("कि", f))
        #expect(glyphs(runs(ki)[0]) == [601, 25])
        #expect(stringIndices(runs(ki)[0]) == [0, 0])
        #expect(close(width(ki), 10.21))
        #expect(glyphs(runs(CTLineCreateWithAttributedString(attributed("क्ष", f)))[0]) == [179])
        // From a Latin font, the Devanagari falls back to Noto Sans Devanagari and shapes the same.
        let mixed = CTLineCreateWithAttributedString(attributed("aकि", TestFonts.font("NotoSans-Regular", 10)))
        #expect(runs(mixed).count == 2 && glyphs(runs(mixed)[1]) == [601, 25])
    }

    @Test("Emoji: a flag is one glyph, a ZWJ sequence stays in one run of the emoji font")
    func emoji() {
        // Noto Emoji (outline, unitsPerEm 2048): hb-shape "🇫🇷": [749=0+2600];
        // "👨‍👩‍👧": [448=0+2600|3=0+0|449=0+2600|3=0+0|447=0+2600] (no family ligature in this font).
        let f = TestFonts.font("NotoSans-Regular", 20.48)
        let flag = CTLineCreateWithAttributedString(attributed("a🇫🇷", f))
        let r = runs(flag)
        #expect(r.count == 2)
        #expect(CTFontCopyPostScriptName(CTRunGetAttributes(r[1])[kCTFontAttributeName] as! CTFont) == "NotoEmoji")
        #expect(glyphs(r[1]) == [749])
        #expect(close(width(flag), 26 + CTFontGetAdvancesForGlyphs(f, .horizontal, [CGGlyph(68)], nil, 1)))
        let family = CTLineCreateWithAttributedString(attributed("👨\u{200D}👩\u{200D}👧", f))
        #expect(runs(family).count == 1)
        #expect(glyphs(runs(family)[0]) == [448, 3, 449, 3, 447])
        #expect(close(width(family), 78))
    }

    @Test("Combining marks stay with their base: one cluster, one run")
    func combiningMarks() {
        let line = CTLineCreateWithAttributedString(attributed("e\u{301}x", TestFonts.font("NotoSans-Regular", 10)))
        #expect(runs(line).count == 1)
        let idx = stringIndices(runs(line)[0])
        #expect(idx.first == 0 && idx.last == 2)
        #expect(CTLineGetOffsetForStringIndex(line, 2, nil) > 0)
    }

    @Test("Caret positions and hit testing (CTLineGetOffsetForStringIndex, CTLineGetStringIndexForPosition)")
    func carets() {
        let line = CTLineCreateWithAttributedString(attributed("Hello", TestFonts.font("NotoSans-Regular", 10)))
        #expect(close(CTLineGetOffsetForStringIndex(line, 2, nil), 13.05))
        #expect(close(CTLineGetOffsetForStringIndex(line, 5, nil), 24.26))
        #expect(CTLineGetStringIndexForPosition(line, CGPoint(x: 8, y: 0)) == 1)     // left half of "e"
        #expect(CTLineGetStringIndexForPosition(line, CGPoint(x: 12, y: 0)) == 2)    // right half of "e"
        #expect(CTLineGetStringIndexForPosition(line, CGPoint(x: -5, y: 0)) == 0)
        #expect(CTLineGetStringIndexForPosition(line, CGPoint(x: 500, y: 0)) == 5)
        #expect(CTLineGetStringIndexForPosition(line, CGPoint(x: CGFloat.nan, y: 0)) == 0)
    }

    @Test("Truncation at the end, start and middle with an ellipsis token (CTLineCreateTruncatedLine)")
    func truncation() throws {
        // hb-shape NotoSans-Regular.ttf "…": [527=0+791]
        let f = TestFonts.font("NotoSans-Regular", 10)
        let line = CTLineCreateWithAttributedString(attributed("Hello world", f))
        let token = CTLineCreateWithAttributedString(attributed("\u{2026}", f))
        let end = try #require(CTLineCreateTruncatedLine(line, 40, .end, token))
        #expect(glyphs(runs(end)[0]) == [43, 72, 79, 79, 82, 527])
        #expect(close(width(end), 24.26 + 7.91))
        let start = try #require(CTLineCreateTruncatedLine(line, 40, .start, token))
        #expect(glyphs(runs(start)[0]) == [527, 90, 82, 85, 79, 71])
        let middle = try #require(CTLineCreateTruncatedLine(line, 40, .middle, token))
        #expect(width(middle) <= 40)
        #expect(glyphs(runs(middle)[0]).contains(527))
        // A line that fits comes back whole; a token wider than the width gives nil.
        #expect(CTLineCreateTruncatedLine(line, 100, .end, token) === line)
        #expect(CTLineCreateTruncatedLine(line, 5, .end, token) == nil)
        #expect(CTLineCreateTruncatedLine(line, .nan, .end, token) == nil)
        // No token: simply cut.
        let cut = try #require(CTLineCreateTruncatedLine(line, 30, .end, nil))
        #expect(close(width(cut), 24.26))
    }

    @Test("Empty strings, unpaired surrogates and controls lay out without crashing")
    func badInput() {
        let f = TestFonts.font("NotoSans-Regular", 10)
        let empty = CTLineCreateWithAttributedString(attributed("", f))
        #expect(width(empty) == 0 && CTLineGetGlyphCount(empty) == 0 && runs(empty).isEmpty)
        #expect(CTLineCreateTruncatedLine(empty, 10, .end, nil) === empty)
        #expect(CTLineGetStringIndexForPosition(empty, CGPoint(x: 3, y: 0)) == 0)
        // An NSString may hold an unpaired surrogate: it lays out as U+FFFD (or is replaced by it).
        let units: [unichar] = [0x41, 0xD800, 0x42, 0xDC00]
        let s = NSString(characters: units, length: units.count) as String
        let line = CTLineCreateWithAttributedString(attributed(s, f))
        #expect(CTLineGetGlyphCount(line) == (s as NSString).length)
        #expect(width(line) > 0)
        // Controls and zero-width characters: a newline and ZWJ have no width; a tab is a space.
        let controls = CTLineCreateWithAttributedString(attributed("a\u{0}\u{7}\u{200D}\u{FEFF}\nb", f))
        #expect(width(controls).isFinite)
        #expect(close(width(controls), width(CTLineCreateWithAttributedString(attributed("ab", f)))))
    }

    @Test("Attributes Core Text here does not apply warn once by name")
    func unsupportedAttribute() {
        let f = TestFonts.font("NotoSans-Regular", 10)
        let (_, warnings) = TextDiagnostics.capture {
            CTLineCreateWithAttributedString(attributed("x", f, [kCTSuperscriptAttributeName: 1]))
        }
        #expect(warnings.contains { $0.contains("NSSuperScript") })
    }

    @Test("A 1 MB single line lays out in work linear in its length (a step count, not a timer)")
    func longLineIsLinear() {
        let f = TestFonts.font("NotoSans-Regular", 10)
        let unit = "lorem ipsum dolor sit amet, مرحبا 日本 "
        func steps(_ n: Int) -> (Int, Int) {
            let s = String(repeating: unit, count: n / unit.utf16.count)
            let (line, work) = LayoutWork.measure { CTLineCreateWithAttributedString(attributed(s, f)) }
            #expect(CTLineGetGlyphCount(line) > 0)
            return ((s as NSString).length, work)
        }
        let (n1, w1) = steps(1 << 19)
        let (n2, w2) = steps(1 << 20)
        #expect(n2 >= 1_000_000)
        // Each unit is read a bounded number of times (storage, paragraphs, itemize, shape, place).
        #expect(w2 <= 16 * n2)
        // Doubling the text about doubles the work.
        #expect(Double(w2) / Double(w1) < 2.2 * Double(n2) / Double(n1) / 2)
    }
}
