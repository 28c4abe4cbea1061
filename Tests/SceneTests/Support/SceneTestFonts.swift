// Kept out of the test files (a file importing Testing and these modules together does not
// compile on Linux; see Imports.swift).
import Foundation
import CoreText

/// The test fonts (`../shared/corpora/fonts`), configured once as the only fonts Core Text
/// sees, so text in scenes renders the same on every machine; nil without the folder.
enum SceneTestFonts {
    static let directory: URL? = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let dir = [root.deletingLastPathComponent().appendingPathComponent("shared/corpora/fonts"),
                   URL(fileURLWithPath: "/work/shared/corpora/fonts")]
            .first { FileManager.default.fileExists(atPath: $0.appendingPathComponent("NotoSans-Regular.ttf").path) }
        if let dir { FontRegistry.shared.useFontDirectories([dir]) }
        return dir
    }()
}
