import Foundation

/// Why an SVG document could not be imported at all (an extension beyond Apple's API: Core
/// Animation has no SVG import). Problems that leave a usable picture — an unknown element, a
/// feature Core Animation cannot express — are not errors: they are listed in
/// `SVGDocument.issues` instead.
public enum SVGError: Error, Equatable, CustomStringConvertible {
    /// The XML is not well formed (truncated, mismatched tags, bad characters). `line` and
    /// `column` are where the XML parser stopped.
    case malformedXML(message: String, line: Int, column: Int)
    /// The outermost element is not `<svg>` in the SVG namespace (or without a namespace).
    case notSVG(rootElement: String)
    /// Entity declarations that would expand beyond `SVGImportLimits.maxEntityExpansion`
    /// characters, nest recursively, or exceed the declaration count (billion-laughs defence).
    case entityExpansionLimit(String)
    /// Elements nested deeper than `SVGImportLimits.maxDepth`.
    case nestingTooDeep(limit: Int)
    /// More elements than `SVGImportLimits.maxElements`.
    case tooManyElements(limit: Int)
    /// The input is larger than `SVGImportLimits.maxInputBytes`.
    case inputTooLarge(bytes: Int, limit: Int)
    /// `SVGDocument(contentsOf:)` was given something it will not read: not a local file, not
    /// found, or not a regular file (a device or pipe could be read forever).
    case unreadableFile(String)

    public var description: String {
        switch self {
        case let .malformedXML(m, l, c): return "SVG: malformed XML at line \(l), column \(c): \(m)"
        case let .notSVG(r): return "SVG: the root element is <\(r)>, not <svg>"
        case let .entityExpansionLimit(m): return "SVG: entity declarations rejected: \(m)"
        case let .nestingTooDeep(n): return "SVG: elements nested deeper than \(n) levels"
        case let .tooManyElements(n): return "SVG: more than \(n) elements"
        case let .inputTooLarge(b, n): return "SVG: input of \(b) bytes exceeds the \(n)-byte limit"
        case let .unreadableFile(m): return "SVG: \(m)"
        }
    }
}

/// Bounds on hostile or accidental input (an extension beyond Apple's API). Each limit turns
/// into an `SVGError` or a documented clamp listed in `SVGDocument.issues`; none can crash or
/// hang the import.
public struct SVGImportLimits: Sendable, Equatable {
    /// Largest input accepted, in bytes (default 64 MiB).
    public var maxInputBytes = 64 << 20
    /// Deepest element nesting accepted (default 256, the renderer's own depth limit).
    public var maxDepth = 256
    /// Most elements accepted (default 1,000,000).
    public var maxElements = 1_000_000
    /// Most characters any declared entity may expand to, and most entity declarations
    /// (default 65,536 characters, 1,000 declarations).
    public var maxEntityExpansion = 65_536
    public var maxEntityDeclarations = 1_000
    /// Most path segments kept per `d` attribute (default 1,000,000); the rest are dropped and
    /// reported.
    public var maxPathSegments = 1_000_000
    /// Deepest `<use>` nesting expanded (default 32); deeper references and cycles are reported.
    public var maxUseDepth = 32
    /// Most elements instantiated through `clip-path` and `mask` references in one document, in
    /// total (default 100,000): each reference builds its clipPath or mask again, so nested
    /// references multiply — a few kilobytes of SVG could otherwise ask for gigabytes. Past it,
    /// the referencing elements are not drawn and `issues` says so.
    public var maxReferenceExpansion = 100_000
    /// Most elements instantiated through `<use>` in one document, in total (default 100,000):
    /// each `<use>` builds its target's subtree again, so uses of groups of uses multiply (ten
    /// levels of ten made a 4 KB file ask for 4.67 GB while staying under `maxElements`). Past
    /// it, the `<use>` elements asking for more are not drawn and `issues` says so.
    public var maxUseExpansion = 100_000
    /// Most path segments in one document, in total, each `<use>` instance of a path counted
    /// again (default 4,000,000). Past it, the shapes asking for more are not drawn (their
    /// path data is not even parsed) and `issues` says so.
    public var maxTotalPathSegments = 4_000_000
    /// Coordinates beyond ±`maxCoordinate` are clamped to it and reported (default 1e9): the
    /// renderer works in 32-bit floats, and larger values only produce overflow.
    public var maxCoordinate: CGFloat = 1e9

    public init() {}
}
