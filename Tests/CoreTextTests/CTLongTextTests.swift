import Testing
import Foundation
@testable import CoreText

/// A 10 MB string (issue 20, bad input): layout is bounded by what the frame shows. Storing the
/// text, finding its paragraph boundaries and its bidi levels stay linear (one cheap pass
/// each); itemizing, shaping and line breaking happen window by window (`Typesetter.layoutWindow`)
/// only as far as the frame's lines reach. Counted in `LayoutWork` steps, not time.
@Suite(.enabled(if: TestFonts.available, TestFonts.skipMessage))
struct CTLongTextTests {
    static let text: String = {
        let unit = "lorem ipsum dolor sit amet "
        return String(repeating: unit, count: 10_000_000 / unit.utf16.count + 1)
    }()

    func frame(_ mode: CTLineBreakMode?) -> (CTFrame, Int, Int) {
        let f = TestFonts.font("NotoSans-Regular", 12)
        var extra: [String: Any] = [:]
        if var m = mode {
            extra[kCTParagraphStyleAttributeName] = withUnsafeBytes(of: &m) { p in
                CTParagraphStyleCreate([CTParagraphStyleSetting(spec: .lineBreakMode, valueSize: 1, value: p.baseAddress!)], 1)
            }
        }
        let fs = CTFramesetterCreateWithAttributedString(attributed(Self.text, f, extra))
        let n = (Self.text as NSString).length
        let (frame, work) = LayoutWork.measure {
            CTFramesetterCreateFrame(fs, CFRange(), CGPath(rect: CGRect(x: 0, y: 0, width: 300, height: 200), transform: nil), nil)
        }
        return (frame, work, n)
    }

    @Test("Wrapped: a 10 MB paragraph in a 300×200 frame makes 12 lines; work beyond the paragraph scan is bounded")
    func wrapped() {
        let (f, work, n) = frame(nil)
        #expect(n >= 10_000_000)
        // Noto Sans 12 pt: line height (1069 + 293) / 1000 × 12 = 16.34, so 12 lines fit in 200.
        #expect((CTFrameGetLines(f) as! [CTLine]).count == 12)
        #expect(CTFrameGetVisibleStringRange(f).length < 1000)
        // One pass finds the paragraph boundaries (n steps); the rest is a few windows.
        #expect(work < n + 200_000, "\(work)")
    }

    @Test("Truncated at the tail and at the head: one line from a window at that end")
    func truncated() {
        for mode in [CTLineBreakMode.byTruncatingTail, .byTruncatingHead, .byClipping] {
            let (f, work, n) = frame(mode)
            let lines = CTFrameGetLines(f) as! [CTLine]
            #expect(lines.count == 1)
            #expect(CTLineGetGlyphCount(lines[0]) < 100_000)
            #expect(work < n + 400_000, "\(mode): \(work)")
        }
    }
}
