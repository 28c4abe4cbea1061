import Testing
import Foundation
@testable import CoreText

/// CTFramesetter and CTFrame: UAX #14 line breaking (ICU), line origins, alignment, paragraph
/// styles. Widths in NotoSans-Regular at 10 pt from hb-shape "Hello world" (see CTLineTests):
/// "Hello" 24.26, " " 2.6, "world" 26.77; ascent 10.69, descent 2.93, no line gap (line
/// height 13.62).
@Suite(.enabled(if: TestFonts.available, TestFonts.skipMessage))
struct CTFramesetterTests {
    func frame(_ s: NSAttributedString, _ rect: CGRect) -> CTFrame {
        CTFramesetterCreateFrame(CTFramesetterCreateWithAttributedString(s), CFRange(), CGPath(rect: rect, transform: nil), nil)
    }
    func lines(_ f: CTFrame) -> [CTLine] { CTFrameGetLines(f) as! [CTLine] }
    func origins(_ f: CTFrame) -> [CGPoint] {
        var o = [CGPoint](repeating: .zero, count: lines(f).count)
        CTFrameGetLineOrigins(f, CFRange(), &o)
        return o
    }
    func style(_ alignment: CTTextAlignment? = nil, lineBreak: CTLineBreakMode? = nil) -> CTParagraphStyle {
        var a = alignment?.rawValue ?? 4, b = lineBreak?.rawValue ?? 0
        return withUnsafeBytes(of: &a) { pa in
            withUnsafeBytes(of: &b) { pb in
                let s = [CTParagraphStyleSetting(spec: .alignment, valueSize: 1, value: pa.baseAddress!),
                         CTParagraphStyleSetting(spec: .lineBreakMode, valueSize: 1, value: pb.baseAddress!)]
                return CTParagraphStyleCreate(s, 2)
            }
        }
    }

    @Test("A paragraph breaks at word boundaries to fit the width; origins step down by the line height")
    func wordWrap() {
        let f = TestFonts.font("NotoSans-Regular", 10)
        let fr = frame(attributed("Hello world Hello world", f), CGRect(x: 0, y: 0, width: 60, height: 100))
        let ls = lines(fr)
        #expect(ls.map { CTLineGetStringRange($0) } == [CFRange(location: 0, length: 12), CFRange(location: 12, length: 11)])
        let o = origins(fr)
        #expect(close(o[0].y, 100 - 10.69) && close(o[1].y, 100 - 10.69 - 13.62))
        #expect(o[0].x == 0 && o[1].x == 0)
        #expect(CTFrameGetVisibleStringRange(fr) == CFRange(location: 0, length: 23))
    }

    @Test("UAX #14: no break inside a word; a word wider than the line breaks between characters")
    func longWord() {
        let f = TestFonts.font("NotoSans-Regular", 10)
        let fr = frame(attributed("Hello", f), CGRect(x: 0, y: 0, width: 15, height: 100))
        // "H" 7.41 + "e" 5.64 = 13.05 ≤ 15; + "l" 2.58 = 15.63 > 15.
        #expect(lines(fr).map { CTLineGetStringRange($0) } == [CFRange(location: 0, length: 2), CFRange(location: 2, length: 3)])
        // Hyphen: "well-known" may break after the hyphen.
        let h = frame(attributed("well-known", f), CGRect(x: 0, y: 0, width: 30, height: 100))
        #expect(CTLineGetStringRange(lines(h)[0]) == CFRange(location: 0, length: 5))
    }

    @Test("Mandatory breaks: each newline starts a new paragraph and line")
    func newlines() {
        let f = TestFonts.font("NotoSans-Regular", 10)
        let fr = frame(attributed("a\nb\r\nc\u{2029}d", f), CGRect(x: 0, y: 0, width: 200, height: 200))
        #expect(lines(fr).map { CTLineGetStringRange($0) } ==
                [CFRange(location: 0, length: 2), CFRange(location: 2, length: 3), CFRange(location: 5, length: 2), CFRange(location: 7, length: 1)])
    }

    @Test("Alignment: right, center, natural of a right-to-left paragraph, justified")
    func alignment() {
        let f = TestFonts.font("NotoSans-Regular", 10)
        let rect = CGRect(x: 0, y: 0, width: 100, height: 100)
        let text = "Hello world"
        #expect(close(origins(frame(attributed(text, f, [kCTParagraphStyleAttributeName: style(.right)]), rect))[0].x, 100 - 53.63))
        #expect(close(origins(frame(attributed(text, f, [kCTParagraphStyleAttributeName: style(.center)]), rect))[0].x, (100 - 53.63) / 2))
        #expect(origins(frame(attributed(text, f, [kCTParagraphStyleAttributeName: style(.left)]), rect))[0].x == 0)
        let rtl = frame(attributed("אבג", f), rect)
        #expect(origins(rtl)[0].x > 50)
        // Justified: every line but the last fills the width (its space widened).
        let j = frame(attributed("Hello world Hello world", f, [kCTParagraphStyleAttributeName: style(.justified)]),
                      CGRect(x: 0, y: 0, width: 60, height: 100))
        let ls = lines(j)
        #expect(close(width(ls[0]) - CTLineGetTrailingWhitespaceWidth(ls[0]), 60))
        #expect(close(width(ls[1]), 53.63))
    }

    @Test("Lines that do not fit the frame's height are left out (visible string range)")
    func heightLimit() {
        let f = TestFonts.font("NotoSans-Regular", 10)
        let fr = frame(attributed("Hello world Hello world", f), CGRect(x: 0, y: 0, width: 60, height: 20))
        #expect(lines(fr).count == 1)
        #expect(CTFrameGetVisibleStringRange(fr) == CFRange(location: 0, length: 12))
    }

    @Test("Suggested frame size: widest line without trailing spaces, sum of line heights")
    func suggestSize() {
        let f = TestFonts.font("NotoSans-Regular", 10)
        let fs = CTFramesetterCreateWithAttributedString(attributed("Hello world Hello world", f))
        var fit = CFRange()
        let size = CTFramesetterSuggestFrameSizeWithConstraints(fs, CFRange(), nil, CGSize(width: 60, height: CGFloat.greatestFiniteMagnitude), &fit)
        #expect(close(size.width, 53.63) && close(size.height, 2 * 13.62))
        #expect(fit == CFRange(location: 0, length: 23))
        let one = CTFramesetterSuggestFrameSizeWithConstraints(fs, CFRange(), nil, CGSize(width: CGFloat.greatestFiniteMagnitude, height: CGFloat.greatestFiniteMagnitude), nil)
        #expect(close(one.width, 24.26 * 2 + 26.77 * 2 + 2.6 * 3) && close(one.height, 13.62))
    }

    @Test("Truncating line break modes: one line per paragraph ending in an ellipsis")
    func truncatingMode() {
        let f = TestFonts.font("NotoSans-Regular", 10)
        let fr = frame(attributed("Hello world Hello world", f, [kCTParagraphStyleAttributeName: style(lineBreak: .byTruncatingTail)]),
                       CGRect(x: 0, y: 0, width: 60, height: 100))
        let ls = lines(fr)
        #expect(ls.count == 1)
        #expect(width(ls[0]) <= 60)
        #expect(glyphs(runs(ls[0]).last!).last == 527)  // "…"
    }

    @Test("Empty text, an empty rect and a NaN rect make empty frames")
    func degenerate() {
        let f = TestFonts.font("NotoSans-Regular", 10)
        #expect(lines(frame(attributed("", f), CGRect(x: 0, y: 0, width: 100, height: 100))).isEmpty)
        #expect(lines(frame(attributed("Hello", f), .zero)).count <= 1)
        let fs = CTFramesetterCreateWithAttributedString(attributed("Hello world", f))
        let nan = CTFramesetterCreateFrame(fs, CFRange(location: 5, length: 100), CGPath(rect: CGRect(x: 0, y: 0, width: CGFloat.nan, height: 5), transform: nil), nil)
        #expect(lines(nan).count <= 1)
    }
}
