import Foundation

/// Something in a Lottie file the import could not reproduce exactly (an extension beyond
/// Apple's API, the counterpart of `SVGIssue`). Nothing is dropped silently: each unsupported
/// layer type, shape item, expression, matte mode or clamp is listed once in
/// `LottieAnimation.issues`.
public struct LottieIssue: Hashable, Sendable, CustomStringConvertible {
    public enum Kind: String, Sendable, Hashable {
        /// A layer type, shape item or feature that is skipped (layer effects, text animators …).
        case unsupported
        /// Drawn with an approximation (luma matte as alpha, trim of a fill …).
        case approximated
        /// An After Effects expression: not run; the property's static value is used.
        case expression
        /// A value that does not decode (bad image data, a malformed keyframe); skipped.
        case invalidValue
        /// A documented limit was reached and the value clamped.
        case limitReached
    }
    public var kind: Kind
    /// What it concerns, e.g. `"layer type 6"`, `"merge paths mode 4 (intersect)"`.
    public var feature: String
    /// A sentence saying what happened instead.
    public var detail: String

    public init(kind: Kind, feature: String, detail: String) {
        self.kind = kind; self.feature = feature; self.detail = detail
    }

    public var description: String { "\(kind.rawValue): \(feature) — \(detail)" }
}

/// Collects issues once each (a file with 500 text layers reports it once).
final class LottieIssueLog {
    private(set) var issues: [LottieIssue] = []
    private var seen: Set<LottieIssue> = []

    func add(_ kind: LottieIssue.Kind, _ feature: String, _ detail: String) {
        let i = LottieIssue(kind: kind, feature: feature, detail: detail)
        if seen.insert(i).inserted { issues.append(i) }
    }
}
