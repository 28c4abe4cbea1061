// The context's current path (Apple's "Constructing a Current Graphics Path" group of
// CGContext): the same construction rules as CGMutablePath's methods, which these forward to,
// so a path built with the context's spelling and one built with the path's spelling are equal.

extension CGContext {
    /// Starts a new, empty current path (CGContextBeginPath).
    public func beginPath() { currentPath = CGMutablePath() }

    /// Begins a new subpath at `point` (CGContextMoveToPoint).
    public func move(to point: CGPoint) { currentPath.move(to: point) }

    /// Appends a straight line from the current point to `point` (CGContextAddLineToPoint).
    public func addLine(to point: CGPoint) { currentPath.addLine(to: point) }

    /// Appends straight lines joining `points` in order (CGContextAddLines).
    public func addLines(between points: [CGPoint]) { currentPath.addLines(between: points) }

    /// Appends a cubic Bézier curve (CGContextAddCurveToPoint).
    public func addCurve(to end: CGPoint, control1: CGPoint, control2: CGPoint) {
        currentPath.addCurve(to: end, control1: control1, control2: control2)
    }

    /// Appends a quadratic Bézier curve (CGContextAddQuadCurveToPoint).
    public func addQuadCurve(to end: CGPoint, control: CGPoint) {
        currentPath.addQuadCurve(to: end, control: control)
    }

    /// Appends an arc, with the direction and full-circle rules of
    /// `CGMutablePath.addArc(center:radius:startAngle:endAngle:clockwise:)` (CGContextAddArc).
    public func addArc(center: CGPoint, radius: CGFloat, startAngle: CGFloat, endAngle: CGFloat, clockwise: Bool) {
        currentPath.addArc(center: center, radius: radius, startAngle: startAngle, endAngle: endAngle, clockwise: clockwise)
    }

    /// Appends an arc tangent to two lines (CGContextAddArcToPoint).
    public func addArc(tangent1End: CGPoint, tangent2End: CGPoint, radius: CGFloat) {
        currentPath.addArc(tangent1End: tangent1End, tangent2End: tangent2End, radius: radius)
    }

    /// Appends an arc given its start angle and signed sweep (CGContextAddRelativeArc is the
    /// path's; the context spells it as the path does).
    public func addRelativeArc(center: CGPoint, radius: CGFloat, startAngle: CGFloat, delta: CGFloat) {
        currentPath.addRelativeArc(center: center, radius: radius, startAngle: startAngle, delta: delta)
    }

    /// Appends a rectangle as a closed subpath (CGContextAddRect).
    public func addRect(_ rect: CGRect) { currentPath.addRect(rect) }

    /// Appends rectangles (CGContextAddRects).
    public func addRects(_ rects: [CGRect]) { currentPath.addRects(rects) }

    /// Appends an ellipse inscribed in `rect` (CGContextAddEllipseInRect).
    public func addEllipse(in rect: CGRect) { currentPath.addEllipse(in: rect) }

    /// Appends `path` (CGContextAddPath).
    public func addPath(_ path: CGPath) { currentPath.addPath(path) }

    /// Closes the current subpath (CGContextClosePath).
    public func closePath() { currentPath.closeSubpath() }

    /// A copy of the current path (CGContextCopyPath); nil when it is empty, as Apple returns.
    public var path: CGPath? { currentPath.isEmpty ? nil : currentPath.copy() }

    /// Whether the current path is empty (CGContextIsPathEmpty).
    public var isPathEmpty: Bool { currentPath.isEmpty }

    /// The current point of the current path (CGContextGetPathCurrentPoint); `.zero` with none.
    public var currentPointOfPath: CGPoint { currentPath.currentPoint }

    /// The bounding box of the current path, control points included
    /// (CGContextGetPathBoundingBox); `.null` when the path is empty.
    public var boundingBoxOfPath: CGRect { currentPath.boundingBox }
}
