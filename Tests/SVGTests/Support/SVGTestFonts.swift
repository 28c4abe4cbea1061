// Kept out of the test files (a file importing Testing and these modules together does not
// compile on Linux; see Imports.swift).
import Foundation
import CoreText

/// Installs a fontconfig configuration that knows only the fonts in `directory`, with the
/// resvg test suite's generic families (serif Noto Serif, sans-serif Noto Sans, monospace
/// Noto Mono, cursive Yellowtail, fantasy Sedgwick Ave Display).
///
/// Where the set-up's Liberation fonts are installed (`fonts-liberation2`, tools/install-deps.sh),
/// serif and sans-serif are Liberation Serif and Liberation Sans instead: the suite's references
/// draw those generic families (and an unknown family) with Times New Roman and Arial, whose
/// metrics the Liberation fonts share. Every other case names its font.
enum SVGTestFonts {
    static let liberation = URL(fileURLWithPath: "/usr/share/fonts/truetype/liberation2")

    static func useSuiteFonts(_ directory: URL) {
        let metricCompatible = FileManager.default.fileExists(atPath: liberation.appendingPathComponent("LiberationSans-Regular.ttf").path)
            && FileManager.default.fileExists(atPath: liberation.appendingPathComponent("LiberationSerif-Regular.ttf").path)
        FontRegistry.shared.useFontDirectories(metricCompatible ? [directory, liberation] : [directory], genericFamilies: [
            "serif": metricCompatible ? "Liberation Serif" : "Noto Serif",
            "sans-serif": metricCompatible ? "Liberation Sans" : "Noto Sans", "monospace": "Noto Mono",
            "cursive": "Yellowtail", "fantasy": "Sedgwick Ave Display",
        ])
    }
}
