import Foundation
import CoreText

/// The one font configuration every test suite draws text with. Test targets run in one
/// process and share Core Text's registry (`FontRegistry.shared`); when suites installed
/// different configurations (the Core Text suites the test fonts alone, the SVG suites those and
/// the Liberation fonts as the generic families), whichever installed last decided the fonts
/// the others found, and a test expecting one configuration's fallback failed now and then
/// (CI, stop 52). Now all install this one, once, and the results do not depend on the order.
///
/// The fonts are `../shared/corpora/fonts` beside the checkout (or `CA_TEST_FONTS`), read in
/// place, so expected metrics never depend on what a machine has installed. Where the set-up's
/// Liberation fonts are installed (`fonts-liberation2`, tools/install-deps.sh) they are added
/// and serif and sans-serif are Liberation Serif and Liberation Sans — the resvg suite's
/// references draw those generic families (and an unknown family) with Times New Roman and
/// Arial, whose metrics the Liberation fonts share — else Noto Serif and Noto Sans; monospace
/// is Noto Mono, cursive Yellowtail, fantasy Sedgwick Ave Display (the suite's choices).
package enum TestFontConfiguration {
    /// The test fonts' folder, or nil where it is missing (text tests then skip and say so).
    package static let directory: URL? = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let env = ProcessInfo.processInfo.environment["CA_TEST_FONTS"]
        let candidates = [env.map { URL(fileURLWithPath: $0) },
                          root.deletingLastPathComponent().appendingPathComponent("shared/corpora/fonts"),
                          URL(fileURLWithPath: "/work/shared/corpora/fonts")].compactMap { $0 }
        return candidates.first { FileManager.default.fileExists(atPath: $0.appendingPathComponent("NotoSans-Regular.ttf").path) }
    }()

    package static let liberation = URL(fileURLWithPath: "/usr/share/fonts/truetype/liberation2")

    private static let installed: URL? = {
        guard let directory else { return nil }
        let metricCompatible = ["LiberationSans-Regular.ttf", "LiberationSerif-Regular.ttf"].allSatisfy {
            FileManager.default.fileExists(atPath: liberation.appendingPathComponent($0).path)
        }
        FontRegistry.shared.useFontDirectories(metricCompatible ? [directory, liberation] : [directory], genericFamilies: [
            "serif": metricCompatible ? "Liberation Serif" : "Noto Serif",
            "sans-serif": metricCompatible ? "Liberation Sans" : "Noto Sans", "monospace": "Noto Mono",
            "cursive": "Yellowtail", "fantasy": "Sedgwick Ave Display",
        ])
        return directory
    }()

    /// Installs the configuration into `FontRegistry.shared` (the first call; later calls only
    /// return) and returns the test fonts' folder, or nil without it (nothing installed).
    @discardableResult
    package static func install() -> URL? { installed }
}
