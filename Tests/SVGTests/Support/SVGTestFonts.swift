// Kept out of the test files (a file importing Testing and these modules together does not
// compile on Linux; see Imports.swift).
import Foundation
import CoreText

/// Installs a fontconfig configuration that knows only the fonts in `directory`, with the
/// resvg test suite's generic families (serif Noto Serif, sans-serif Noto Sans, monospace
/// Noto Mono, cursive Yellowtail, fantasy Sedgwick Ave Display).
enum SVGTestFonts {
    static func useSuiteFonts(_ directory: URL) {
        FontRegistry.shared.useFontDirectories([directory], genericFamilies: [
            "serif": "Noto Serif", "sans-serif": "Noto Sans", "monospace": "Noto Mono",
            "cursive": "Yellowtail", "fantasy": "Sedgwick Ave Display",
        ])
    }
}
