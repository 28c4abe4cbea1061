import Foundation
import Testing
@testable import CoreText
import CATestSupport

/// The test fonts: `../shared/corpora/fonts` beside the checkout (or `CA_TEST_FONTS`), read in
/// place. Every Core Text test that needs fonts runs with the one fontconfig configuration all
/// suites install (`TestFontConfiguration`: these fonts, and the Liberation fonts as serif and
/// sans-serif where installed), so expected metrics never depend on what a machine has
/// installed or on which suite ran first; without the folder the tests are skipped and say so.
enum TestFonts {
    static let directory: URL? = TestFontConfiguration.directory

    static var available: Bool { directory != nil }
    static let skipMessage: Comment = "test fonts not found (../shared/corpora/fonts or CA_TEST_FONTS)"

    /// Installs the configuration every suite uses (`TestFontConfiguration`), once per process.
    private static let configured: Bool = TestFontConfiguration.install() != nil

    /// A font from the test folder by PostScript name at `size`.
    static func font(_ postScriptName: String, _ size: CGFloat) -> CTFont {
        _ = configured
        return CTFontCreateWithName(postScriptName as CFString, size, nil)
    }

    static func url(_ file: String) -> URL { directory!.appendingPathComponent(file) }

    static func ensureConfigured() { _ = configured }
}

/// An attributed string in one font.
func attributed(_ s: String, _ font: CTFont, _ extra: [String: Any] = [:]) -> NSAttributedString {
    var attrs: [NSAttributedString.Key: Any] = [NSAttributedString.Key(kCTFontAttributeName): font]
    for (k, v) in extra { attrs[NSAttributedString.Key(k)] = v }
    return NSAttributedString(string: s, attributes: attrs)
}

/// Runs of a line, as Apple code reads them.
func runs(_ line: CTLine) -> [CTRun] { CTLineGetGlyphRuns(line) as! [CTRun] }

func glyphs(_ run: CTRun) -> [CGGlyph] {
    var g = [CGGlyph](repeating: 0, count: CTRunGetGlyphCount(run))
    CTRunGetGlyphs(run, CFRange(location: 0, length: 0), &g)
    return g
}

func stringIndices(_ run: CTRun) -> [CFIndex] {
    var g = [CFIndex](repeating: 0, count: CTRunGetGlyphCount(run))
    CTRunGetStringIndices(run, CFRange(location: 0, length: 0), &g)
    return g
}

func width(_ line: CTLine) -> Double { CTLineGetTypographicBounds(line, nil, nil, nil) }

/// Float comparison for values computed from font units.
func close(_ a: Double, _ b: Double, _ eps: Double = 1e-6) -> Bool { abs(a - b) <= eps }
