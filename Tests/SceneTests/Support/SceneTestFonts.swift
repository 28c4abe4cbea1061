// Kept out of the test files (a file importing Testing and these modules together does not
// compile on Linux; see Imports.swift).
import Foundation
import CATestSupport

/// The test fonts (`../shared/corpora/fonts`), configured once as the fonts Core Text sees
/// (`TestFontConfiguration`, the one configuration every suite uses), so text in scenes renders
/// the same on every machine; nil without the folder.
enum SceneTestFonts {
    static let directory: URL? = TestFontConfiguration.install()
}
