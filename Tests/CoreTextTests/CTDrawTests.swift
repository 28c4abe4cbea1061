import Testing
import Foundation
@testable import CoreText

/// Drawing text fills glyph outlines in a bitmap CGContext (CTLineDraw, CTFrameDraw). Expected
/// pixels from the glyph's geometry: Noto Sans "H" (hb-shape --show-extents: x 97…643, y 0…714
/// units) at 100 pt spans x 9.7…64.3, y 0…71.4 px from the text position; its stems are about
/// 9 px wide at each side and the crossbar sits below mid-height.
@Suite(.enabled(if: TestFonts.available, TestFonts.skipMessage))
struct CTDrawTests {
    func context(_ w: Int, _ h: Int) -> CGContext {
        let c = CGContext(data: nil, width: w, height: h, bitsPerComponent: 8, bytesPerRow: 0,
                          space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue)!
        c.setFillColor(CGColor(gray: 1, alpha: 1))
        c.fill(CGRect(x: 0, y: 0, width: w, height: h))
        return c
    }
    /// RGBA at (x, y) with y up from the bottom (Core Graphics' user space at identity CTM).
    func pixel(_ c: CGContext, _ x: Int, _ y: Int) -> [UInt8] {
        let p = c.data!.assumingMemoryBound(to: UInt8.self) + (c.height - 1 - y) * c.bytesPerRow + x * 4
        return Array(UnsafeBufferPointer(start: p, count: 4))
    }

    @Test("CTLineDraw fills the glyphs at the text position in the run's colour")
    func lineDraw() {
        let c = context(100, 100)
        let red = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        let line = CTLineCreateWithAttributedString(attributed("H", TestFonts.font("NotoSans-Regular", 100),
                                                               [kCTForegroundColorAttributeName: red]))
        c.textPosition = CGPoint(x: 10, y: 20)
        CTLineDraw(line, c)
        #expect(pixel(c, 10 + 14, 20 + 50) == [255, 0, 0, 255])   // left stem
        #expect(pixel(c, 10 + 59, 20 + 50) == [255, 0, 0, 255])   // right stem
        #expect(pixel(c, 10 + 37, 20 + 62) == [255, 255, 255, 255]) // between the stems, above the bar
        #expect(pixel(c, 10 + 37, 20 + 10) == [255, 255, 255, 255]) // between the stems, below the bar
        #expect(pixel(c, 5, 50) == [255, 255, 255, 255])           // left of the glyph
        #expect(pixel(c, 10 + 37, 20 + 75) == [255, 255, 255, 255]) // above the cap height (71.4)
    }

    @Test("The text matrix scales glyphs; default colour is black")
    func textMatrix() {
        let c = context(100, 100)
        let line = CTLineCreateWithAttributedString(attributed("H", TestFonts.font("NotoSans-Regular", 50)))
        c.textMatrix = CGAffineTransform(scaleX: 2, y: 2)
        c.textPosition = CGPoint(x: 10, y: 20)
        CTLineDraw(line, c)
        #expect(pixel(c, 10 + 14, 20 + 50) == [0, 0, 0, 255])
        #expect(pixel(c, 10 + 37, 20 + 62) == [255, 255, 255, 255])
    }

    @Test("CTFrameDraw draws each line at its origin inside the frame's rect")
    func frameDraw() {
        // "H H" at 100 pt in a 100 pt wide column: "H " then "H" (74.1 + 26 + 74.1 > 100).
        // Ascent 106.9, line height 136.2: baselines at 300 − 106.9 = 193.1 and 56.9.
        let c = context(120, 300)
        let s = attributed("H H", TestFonts.font("NotoSans-Regular", 100))
        let fs = CTFramesetterCreateWithAttributedString(s)
        let fr = CTFramesetterCreateFrame(fs, CFRange(), CGPath(rect: CGRect(x: 10, y: 0, width: 100, height: 300), transform: nil), nil)
        #expect((CTFrameGetLines(fr) as! [CTLine]).count == 2)
        var o = [CGPoint](repeating: .zero, count: 2)
        CTFrameGetLineOrigins(fr, CFRange(), &o)
        #expect(close(o[0].y, 193.1) && close(o[1].y, 56.9))
        CTFrameDraw(fr, c)
        for baseline in [193, 57] {
            #expect(pixel(c, 10 + 14, baseline + 50) == [0, 0, 0, 255])
            #expect(pixel(c, 10 + 37, baseline + 62) == [255, 255, 255, 255])
        }
        #expect(c.textMatrix == .identity)
    }
}
