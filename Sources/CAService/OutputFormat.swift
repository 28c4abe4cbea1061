/// The answer formats of `POST /render` (`format=`): carender's still and video outputs, each
/// with the file extension carender reads the format from and the Content-Type of the reply.
package enum OutputFormat: String, CaseIterable, Sendable {
    case png, jpeg, webp, mp4, mov, mkv, webm, gif, apng

    /// `format=` as given; `jpg` is `jpeg`. Nil for a name not in the list.
    package init?(name: String) {
        let n = name.lowercased()
        self.init(rawValue: n == "jpg" ? "jpeg" : n)
    }

    package var isStill: Bool { self == .png || self == .jpeg || self == .webp }

    /// The extension of the output file carender writes (its output form decides the format).
    package var fileExtension: String { self == .jpeg ? "jpg" : rawValue }

    /// IANA media types (RFC 2083 png, RFC 2046 jpeg, RFC 9649 webp; video/* per their
    /// containers; image/apng as browsers send it).
    package var contentType: String {
        switch self {
        case .png: "image/png"
        case .jpeg: "image/jpeg"
        case .webp: "image/webp"
        case .mp4: "video/mp4"
        case .mov: "video/quicktime"
        case .mkv: "video/x-matroska"
        case .webm: "video/webm"
        case .gif: "image/gif"
        case .apng: "image/apng"
        }
    }
}

/// What the request body is: a scene file (JSON, docs/SCENE-FORMAT.md), an SVG document, or a
/// Lottie animation (JSON, or a dotLottie zip). Written to the request's folder under a name
/// whose extension tells carender the kind (`InputKind`: `.json` is a scene, or Lottie when its
/// top level has Lottie's members; `.svg`; `.lottie`).
package enum DocumentKind: String, CaseIterable, Sendable {
    case scene, svg, lottie

    /// `kind=` when given, else the Content-Type, else the first bytes: `PK\3\4` is a zip (a
    /// dotLottie), `<` an SVG, anything else JSON (carender tells a Lottie JSON from a scene).
    /// Returns the kind and the file name to write.
    package static func classify(kind: String?, contentType: String?, head: [UInt8]) throws(ServiceError) -> (DocumentKind, String) {
        let isZip = head.starts(with: [0x50, 0x4B, 0x03, 0x04])
        if let kind {
            switch kind.lowercased() {
            case "scene": return (.scene, "document.json")
            case "svg": return (.svg, "document.svg")
            case "lottie": return (.lottie, isZip ? "document.lottie" : "document.json")
            default: throw .badRequest("kind=\(kind): one of scene, svg, lottie")
            }
        }
        let type = contentType?.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        switch type {
        case "image/svg+xml": return (.svg, "document.svg")
        case "application/zip", "application/x-lottie", "application/zip+dotlottie": return (.lottie, "document.lottie")
        default: break
        }
        if isZip { return (.lottie, "document.lottie") }
        let first = head.first { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }
        if first == UInt8(ascii: "<") { return (.svg, "document.svg") }
        // JSON: a scene unless it has Lottie's top-level members (the test carender's
        // `InputKind.looksLikeLottie` makes on the file; repeated here only for the log's kind).
        let text = String(decoding: head, as: UTF8.self)
        if !text.contains("\"ca-scene\""), text.contains("\"layers\""), text.contains("\"v\""), text.contains("\"fr\"") || text.contains("\"op\"") {
            return (.lottie, "document.json")
        }
        return (.scene, "document.json")
    }
}
