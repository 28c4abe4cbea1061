import Foundation

/// Conditional processing (SVG 1.1 §5.8, SVG 2 §5.7): `requiredExtensions`, `requiredFeatures`
/// and `systemLanguage` on rendered elements, and `<switch>` drawing its first child whose
/// conditions hold.
///
/// - No extension is supported, so `requiredExtensions` is always false.
/// - `requiredFeatures` is always true (SVG 2 dropped feature strings; resvg and the browsers
///   treat it so).
/// - The user's languages are `en` (the import has no locale of its own, as resvg's default):
///   `systemLanguage` holds when one of its comma-separated tags is `en` or starts with `en-`.
enum SVGConditional {
    static let languages = ["en"]

    static func passes(_ e: SVGElement) -> Bool {
        if e.attributes["requiredExtensions"] != nil { return false }
        if let langs = e.attributes["systemLanguage"] {
            let tags = langs.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            return tags.contains { tag in
                languages.contains(tag) || languages.contains(String(tag.split(separator: "-").first ?? ""))
            }
        }
        return true
    }
}
