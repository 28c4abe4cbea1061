/// The shape of the ends of a stroked open subpath, as Apple's `CGLineCap`
/// (CoreGraphics/CGPath.h, `kCGLineCapButt = 0, kCGLineCapRound, kCGLineCapSquare`).
public enum CGLineCap: Int32, Sendable, Hashable {
    /// The stroke ends flush with the end point.
    case butt = 0
    /// A half disc of diameter `lineWidth` is added at each end.
    case round = 1
    /// The stroke is extended by half the line width beyond each end point.
    case square = 2
}

/// How the segments of a stroked path meet, as Apple's `CGLineJoin`
/// (`kCGLineJoinMiter = 0, kCGLineJoinRound, kCGLineJoinBevel`).
public enum CGLineJoin: Int32, Sendable, Hashable {
    /// The outer edges are extended to a point, unless the miter limit is exceeded (then bevel).
    case miter = 0
    /// A disc of diameter `lineWidth` is drawn at the joint.
    case round = 1
    /// The outer corners of the two segments are joined by a straight edge.
    case bevel = 2
}

/// The rule that decides which points are inside a path, as Apple's `CGPathFillRule`
/// (an `Int`-backed enum in Apple's Swift overlay).
public enum CGPathFillRule: Int, Sendable, Hashable {
    /// Non-zero winding number.
    case winding = 0
    /// Odd number of crossings.
    case evenOdd = 1
}

/// The kind of a path element passed to `applyWithBlock(_:)`, as Apple's `CGPathElementType`.
public enum CGPathElementType: Int32, Sendable, Hashable {
    /// One point: the new current point.
    case moveToPoint = 0
    /// One point: the end of the line.
    case addLineToPoint = 1
    /// Two points: the control point, then the end point.
    case addQuadCurveToPoint = 2
    /// Three points: control 1, control 2, then the end point.
    case addCurveToPoint = 3
    /// No points.
    case closeSubpath = 4
}

/// One element of a path as handed out by `CGPath.applyWithBlock(_:)` and
/// `CGPath.apply(info:function:)`, with Apple's layout: a type and a pointer to its points
/// (1, 1, 2, 3 or 0 of them, see `CGPathElementType`). The pointer is only valid during the
/// call that receives it, as on Apple.
public struct CGPathElement {
    public var type: CGPathElementType
    public var points: UnsafeMutablePointer<CGPoint>

    public init(type: CGPathElementType, points: UnsafeMutablePointer<CGPoint>) {
        self.type = type
        self.points = points
    }
}

/// The callback type of `CGPath.apply(info:function:)`. Apple's is `@convention(c)`; here
/// `CGPathElement` is a Swift struct, which C cannot represent, so it is a plain Swift
/// function type. Code that passes a global function or a non-capturing closure (all that
/// Apple accepts) compiles unchanged.
public typealias CGPathApplierFunction = (UnsafeMutableRawPointer?, UnsafePointer<CGPathElement>) -> Void
