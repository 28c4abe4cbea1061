import Testing
import Foundation
import CATestSupport
@testable import CoreAnimation
@testable import CoreText

/// The test fonts folder, installed as the configuration every suite uses (`TestFontConfiguration`).
private let truncationTestFonts: URL? = TestFontConfiguration.install()

/// Wrapped text with a truncation mode (Apple's CATextLayer: `truncationMode` "determines how
/// the string is truncated to fit within the receiver's bounds", wrapped or not): the last line
/// that fits ends in "…" when text remains. Noto Sans at 20 pt (hb-shape): a 11.22, space 5.2,
/// b 12.3, c 9.6, "…" 15.82 (ink 1.44…14.38 from its pen, dots 0…2.42 above the baseline); the
/// baseline is 21.38 below the top and a line 27.24 tall, so a 30 pt tall layer shows one line.
/// "aaa bbb ccc ddd" at 100 pt wide breaks after "aaa bbb " (ink ends at 74.7); truncated at
/// the end, "aaa bbb " + "…" (96.8 wide) puts the dots at x ≈ 82…95.
@Suite(.enabled(if: truncationTestFonts != nil, "test fonts not found (../shared/corpora/fonts)"))
struct CATextLayerTruncationTests {
    func layer(_ mode: CATextLayerTruncationMode) -> CGImage? {
        _ = truncationTestFonts
        let l = CATextLayer()
        l.bounds = CGRect(x: 0, y: 0, width: 100, height: 30)
        l.font = "NotoSans-Regular" as NSString
        l.fontSize = 20
        l.foregroundColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
        l.isWrapped = true
        l.truncationMode = mode
        l.string = "aaa bbb ccc ddd"
        CATransaction.flush()
        return l.contents as? CGImage
    }

    func ink(_ image: CGImage, cols: Range<Int>, rows: Range<Int>) -> Int {
        let b = image.rgba8Bytes
        var n = 0
        for y in rows { for x in cols where b[(y * image.width + x) * 4 + 3] > 0 { n += 1 } }
        return n
    }

    @Test("Wrapped + truncationMode end: the last visible line ends in an ellipsis; without a mode it is cut")
    func lastLineTruncated() throws {
        let cut = try #require(layer(.none))
        let truncated = try #require(layer(.end))
        #expect(ink(cut, cols: 76..<100, rows: 0..<30) == 0)
        #expect(ink(truncated, cols: 83..<94, rows: 19..<21) > 10)    // the dots, just above the baseline
        #expect(ink(truncated, cols: 83..<94, rows: 0..<15) == 0)     // nothing tall there
        // The first words are where they were.
        #expect(ink(truncated, cols: 0..<74, rows: 0..<30) == ink(cut, cols: 0..<74, rows: 0..<30))
    }

    /// Start: "…" then the tail that fits ("… ccc ddd"): the first 15 pt hold only the dots,
    /// where the cut text has the body of "a" (x-height 10.7 pt, rows ≈ 11…21).
    @Test("Wrapped + truncationMode start puts the ellipsis first; middle differs from both")
    func startAndMiddle() throws {
        let cut = try #require(layer(.none))
        let start = try #require(layer(.start))
        #expect(ink(cut, cols: 2..<14, rows: 12..<17) > 10)
        #expect(ink(start, cols: 2..<14, rows: 12..<17) == 0)
        #expect(ink(start, cols: 2..<14, rows: 19..<21) > 10)
        let middle = try #require(layer(.middle))
        #expect(middle.rgba8Bytes != cut.rgba8Bytes && middle.rgba8Bytes != start.rgba8Bytes)
    }
}
