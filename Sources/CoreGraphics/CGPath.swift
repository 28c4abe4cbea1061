/// One element of a path, as stored. `package` so the model (interpolation) and the renderer
/// (tessellation) can read paths without going through the C-style `applyWithBlock`.
package enum PathElement: Hashable, Sendable {
    case move(CGPoint)
    case line(CGPoint)
    case quad(CGPoint, CGPoint)          // control, end
    case cubic(CGPoint, CGPoint, CGPoint) // control1, control2, end
    case close
}

/// An immutable graphics path, as Apple's `CGPath`. A reference type as on Apple (so that
/// `CGMutablePath` can be a subclass); its storage is a value array of elements.
/// Immutable instances are safe to share between threads; a `CGMutablePath` is not, as on Apple.
open class CGPath: Hashable, @unchecked Sendable, CustomStringConvertible {
    package var elements: [PathElement] { didSet { generation &+= 1 } }
    /// Counts changes to `elements`, so a cache keyed by a path's identity can tell that a
    /// `CGMutablePath` changed since it looked (the shape cache's bounding boxes). An extension
    /// beyond Apple's API, package-only.
    package private(set) var generation = 0

    package init(elements: [PathElement]) { self.elements = elements }

    /// Path equality compares elements exactly (CGPathEqualToPath).
    public static func == (l: CGPath, r: CGPath) -> Bool { l.elements == r.elements }
    public func hash(into h: inout Hasher) { h.combine(elements) }

    public var isEmpty: Bool { elements.isEmpty }

    public var description: String { "CGPath(\(elements.count) elements)" }
}

/// A mutable path, as Apple's `CGMutablePath`.
open class CGMutablePath: CGPath, @unchecked Sendable {
    public init() { super.init(elements: []) }

    package override init(elements: [PathElement]) { super.init(elements: elements) }
}
