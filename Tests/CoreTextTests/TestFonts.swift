import Foundation
import Testing
@testable import CoreText

/// The test fonts: `../shared/corpora/fonts` beside the checkout (or `CA_TEST_FONTS`), read in
/// place. Every Core Text test that needs fonts runs with a fontconfig configuration that knows
/// only these (`FontRegistry.useFontDirectories`), so expected metrics never depend on what a
/// machine has installed; without the folder the tests are skipped and say so.
enum TestFonts {
    static let repoRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static let directory: URL? = {
        let env = ProcessInfo.processInfo.environment["CA_TEST_FONTS"]
        let candidates = [env.map { URL(fileURLWithPath: $0) },
                          repoRoot.deletingLastPathComponent().appendingPathComponent("shared/corpora/fonts"),
                          URL(fileURLWithPath: "/work/shared/corpora/fonts")].compactMap { $0 }
        return candidates.first { FileManager.default.fileExists(atPath: $0.appendingPathComponent("NotoSans-Regular.ttf").path) }
    }()

    static var available: Bool { directory != nil }
    static let skipMessage: Comment = "test fonts not found (../shared/corpora/fonts or CA_TEST_FONTS)"

    /// Installs the test-only configuration, once per process.
    private static let configured: Bool = {
        guard let directory else { return false }
        FontRegistry.shared.useFontDirectories([directory])
        return true
    }()

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
