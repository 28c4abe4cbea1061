// Kept out of the test files (a file importing Testing and these modules together does not
// compile on Linux; see Imports.swift).
import Foundation
import CATestSupport

/// The SVG suites' fonts: the configuration every suite uses (`TestFontConfiguration`: the test
/// fonts with the resvg suite's generic families, Liberation Serif and Sans as serif and
/// sans-serif where installed, since the suite's references draw those generic families and an
/// unknown family with Times New Roman and Arial, whose metrics the Liberation fonts share).
enum SVGTestFonts {
    static func install() { TestFontConfiguration.install() }
}
