import Testing
import Foundation
import CATestSupport
@testable import CoreAnimation
@testable import CoreText

/// CATextLayer draws its text through the display pipeline (default `display()` → `draw(in:)`
/// → contents image), with Core Text over the shared test fonts (`../shared/corpora/fonts`,
/// through a test-only fontconfig configuration; skipped without them). Expected pixels from
/// Noto Sans "H" (hb-shape --show-extents: x 97…643, y 0…714 units; ascent 1069 units): at
/// 100 pt the baseline is 106.9 px below the top, the glyph spans x 9.7…64.3 and rises 71.4 px,
/// the left stem covers x ≈ 10…19.
/// The test fonts folder, installed as the configuration every suite uses (`TestFontConfiguration`).
private let textLayerTestFonts: URL? = TestFontConfiguration.install()

@Suite(.enabled(if: textLayerTestFonts != nil, "test fonts not found (../shared/corpora/fonts)"))
struct CATextLayerDrawingTests {

    func rgba(_ image: CGImage, _ x: Int, _ y: Int) -> [UInt8] {
        let b = image.rgba8Bytes
        let i = (y * image.width + x) * 4
        return Array(b[i..<(i + 4)])
    }

    func textLayer(_ string: Any, width: CGFloat = 100, alignment: CATextLayerAlignmentMode = .natural) -> CATextLayer {
        _ = textLayerTestFonts
        let l = CATextLayer()
        l.bounds = CGRect(x: 0, y: 0, width: width, height: 140)
        l.font = "NotoSans-Regular" as NSString
        l.fontSize = 100
        l.foregroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
        l.alignmentMode = alignment
        l.string = string
        CATransaction.flush()
        return l
    }

    @Test("Setting string draws it at the next commit, from the top, in foregroundColor (Apple: CATextLayer draws its string)")
    func drawsString() throws {
        let l = textLayer("H")
        let image = try #require(l.contents as? CGImage)
        #expect(image.width == 100 && image.height == 140)
        let red: [UInt8] = [255, 0, 0, 255], clear: [UInt8] = [0, 0, 0, 0]
        #expect(rgba(image, 14, 70) == red)       // left stem, 37 px above the baseline
        #expect(rgba(image, 59, 70) == red)       // right stem
        #expect(rgba(image, 37, 45) == clear)     // between the stems above the crossbar
        #expect(rgba(image, 37, 97) == clear)     // between the stems below it
        #expect(rgba(image, 14, 20) == clear)     // above the cap height (35.5 px from the top)
        #expect(rgba(image, 80, 70) == clear)     // right of the glyph
    }

    @Test("Changing a shown property redraws: fontSize, string, alignment")
    func redrawsOnChange() throws {
        let l = textLayer("H", width: 200)
        let first = try #require(l.contents as? CGImage)
        l.alignmentMode = .right
        CATransaction.flush()
        let right = try #require(l.contents as? CGImage)
        #expect(right !== first)
        // Right-aligned: the advance is 74.1 px, so the glyph starts at 200 − 74.1 + 9.7 = 135.6.
        #expect(rgba(right, 140, 70) == [255, 0, 0, 255])
        #expect(rgba(right, 14, 70) == [0, 0, 0, 0])
        l.string = nil
        CATransaction.flush()
        let empty = try #require(l.contents as? CGImage)
        #expect(rgba(empty, 140, 70) == [0, 0, 0, 0])
    }

    @Test("An attributed string keeps its own colours; the layer's font fills runs without one")
    func attributed() throws {
        let blue = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
        let s = NSAttributedString(string: "H", attributes: [NSAttributedString.Key(kCTForegroundColorAttributeName): blue])
        let image = try #require(textLayer(s).contents as? CGImage)
        // No font in the string: the layer's (Noto Sans) at its fontSize; colour from the string.
        #expect(rgba(image, 14, 70) == [0, 0, 255, 255])
    }
}
