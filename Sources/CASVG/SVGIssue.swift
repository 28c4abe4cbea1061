import Foundation

/// Something in the document the import could not reproduce exactly (an extension beyond
/// Apple's API). Nothing is dropped silently: every element, attribute value or feature that is
/// ignored, approximated or clamped is listed in `SVGDocument.issues`.
public struct SVGIssue: Hashable, Sendable, CustomStringConvertible {
    public enum Kind: String, Sendable, Hashable {
        /// An element the importer does not support (e.g. `<text>`, `<filter>`); it is skipped.
        case unsupportedElement
        /// An attribute or property value the importer does not support; its default is used.
        case unsupportedFeature
        /// A feature drawn with an approximation (e.g. a luminance mask through an alpha mask,
        /// a radial gradient focal point).
        case approximated
        /// A value that does not parse (bad colour, bad path data after some point, …).
        case invalidValue
        /// A reference to something outside the document (an http: or file: URL, an external
        /// image): never fetched.
        case externalReference
        /// A reference to an id that does not exist, or a reference cycle.
        case brokenReference
        /// A documented limit was reached and the value clamped or truncated.
        case limitReached
    }
    public var kind: Kind
    /// The feature, e.g. `"<text>"`, `"spreadMethod=reflect"`, `"mask (luminance)"`.
    public var feature: String
    /// A sentence saying what happened instead.
    public var detail: String

    public init(kind: Kind, feature: String, detail: String) {
        self.kind = kind; self.feature = feature; self.detail = detail
    }

    public var description: String { "\(kind.rawValue): \(feature) — \(detail)" }
}

/// Collects issues once each (a document with 10,000 `<text>` elements reports it once). What
/// is not reproduced (unsupported or approximated) is also logged as a warning, once per
/// process for each distinct issue (`Diagnostics.warnOnce`), so no gap is silent.
final class SVGIssueLog {
    private(set) var issues: [SVGIssue] = []
    private var seen: Set<SVGIssue> = []

    func add(_ kind: SVGIssue.Kind, _ feature: String, _ detail: String) {
        let i = SVGIssue(kind: kind, feature: feature, detail: detail)
        guard seen.insert(i).inserted else { return }
        issues.append(i)
        if kind == .unsupportedElement || kind == .unsupportedFeature || kind == .approximated {
            Diagnostics.warnOnce("SVG import: \(i)")
        }
    }
}
