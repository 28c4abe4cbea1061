// The context's current path (Apple's "Constructing a Current Graphics Path" group of
// CGContext). As on Apple, points are transformed by the CTM when they are added and the path is
// kept in device space, so changing the CTM afterwards does not move what was added; the
// queries (`path`, `currentPointOfPath`, `boundingBoxOfPath`) map back to user space through
// the current CTM. The construction rules are CGMutablePath's (which these forward to, with the
// CTM as the `transform:`), NaN/infinite points included: such points are dropped.

extension CGContext {
    /// Starts a new, empty current path (CGContextBeginPath).
    public func beginPath() { currentPath = CGMutablePath() }

    /// Paints the current path with `body` after clearing it (Apple clears the path a painting
    /// call paints). The painted path object, once nothing else holds it, is emptied with its
    /// storage kept and becomes the next current path: drawing path after path (a fill a
    /// shape) allocated and freed a path object and its element array every time (issue 19:
    /// a twentieth of the 10,000-rect frame's instructions).
    func takeCurrentPath(_ body: (CGMutablePath) -> Void) {
        var p = currentPath
        currentPath = sparePath ?? CGMutablePath()
        sparePath = nil
        body(p)
        if isKnownUniquelyReferenced(&p), p.elements.capacity <= Self.maxSparePathElements {
            p.elements.removeAll(keepingCapacity: true)
            sparePath = p
        }
    }

    /// A spare path keeps its storage up to this many elements.
    static let maxSparePathElements = 4096

    /// Begins a new subpath at `point` (CGContextMoveToPoint).
    public func move(to point: CGPoint) { currentPath.move(to: point, transform: gstate.ctm) }

    /// Appends a straight line from the current point to `point` (CGContextAddLineToPoint).
    public func addLine(to point: CGPoint) { currentPath.addLine(to: point, transform: gstate.ctm) }

    /// Appends straight lines joining `points` in order (CGContextAddLines).
    public func addLines(between points: [CGPoint]) { currentPath.addLines(between: points, transform: gstate.ctm) }

    /// Appends a cubic Bézier curve (CGContextAddCurveToPoint).
    public func addCurve(to end: CGPoint, control1: CGPoint, control2: CGPoint) {
        currentPath.addCurve(to: end, control1: control1, control2: control2, transform: gstate.ctm)
    }

    /// Appends a quadratic Bézier curve (CGContextAddQuadCurveToPoint).
    public func addQuadCurve(to end: CGPoint, control: CGPoint) {
        currentPath.addQuadCurve(to: end, control: control, transform: gstate.ctm)
    }

    /// Appends an arc, with the direction and full-circle rules of
    /// `CGMutablePath.addArc(center:radius:startAngle:endAngle:clockwise:)` (CGContextAddArc).
    public func addArc(center: CGPoint, radius: CGFloat, startAngle: CGFloat, endAngle: CGFloat, clockwise: Bool) {
        currentPath.addArc(center: center, radius: radius, startAngle: startAngle, endAngle: endAngle,
                           clockwise: clockwise, transform: gstate.ctm)
    }

    /// Appends an arc tangent to two lines (CGContextAddArcToPoint).
    public func addArc(tangent1End: CGPoint, tangent2End: CGPoint, radius: CGFloat) {
        currentPath.addArc(tangent1End: tangent1End, tangent2End: tangent2End, radius: radius, transform: gstate.ctm)
    }

    /// Appends an arc given its start angle and signed sweep (CGContextAddRelativeArc is the
    /// path's; the context spells it as the path does).
    public func addRelativeArc(center: CGPoint, radius: CGFloat, startAngle: CGFloat, delta: CGFloat) {
        currentPath.addRelativeArc(center: center, radius: radius, startAngle: startAngle, delta: delta, transform: gstate.ctm)
    }

    /// Appends a rectangle as a closed subpath (CGContextAddRect).
    public func addRect(_ rect: CGRect) { currentPath.addRect(rect, transform: gstate.ctm) }

    /// Appends rectangles (CGContextAddRects).
    public func addRects(_ rects: [CGRect]) { currentPath.addRects(rects, transform: gstate.ctm) }

    /// Appends an ellipse inscribed in `rect` (CGContextAddEllipseInRect).
    public func addEllipse(in rect: CGRect) { currentPath.addEllipse(in: rect, transform: gstate.ctm) }

    /// Appends `path`, given in user space (CGContextAddPath).
    public func addPath(_ path: CGPath) { currentPath.addPath(path, transform: gstate.ctm) }

    /// Closes the current subpath (CGContextClosePath).
    public func closePath() { currentPath.closeSubpath() }

    /// A copy of the current path in user space (CGContextCopyPath); nil when it is empty, as
    /// Apple returns.
    public var path: CGPath? {
        guard !currentPath.isEmpty else { return nil }
        if gstate.ctm.isIdentity { return currentPath.copy() }
        return CGPath(elements: currentPath.elements.transformed(by: gstate.ctm.inverted()))
    }

    /// Whether the current path is empty (CGContextIsPathEmpty).
    public var isPathEmpty: Bool { currentPath.isEmpty }

    /// The current point of the current path, in user space (CGContextGetPathCurrentPoint);
    /// `.zero` with none.
    public var currentPointOfPath: CGPoint {
        if currentPath.isEmpty { return .zero }
        return currentPath.currentPoint.applying(gstate.ctm.inverted())
    }

    /// The bounding box of the current path in user space, control points included
    /// (CGContextGetPathBoundingBox); `.null` when the path is empty.
    public var boundingBoxOfPath: CGRect {
        if gstate.ctm.isIdentity { return currentPath.boundingBox }
        return path?.boundingBox ?? .null
    }

    /// Whether `point` (user space) is inside the area the current path would paint in `mode`
    /// (CGContextPathContainsPoint): filled with the mode's rule, or within the stroke for the
    /// stroking modes.
    public func pathContains(_ point: CGPoint, mode: CGPathDrawingMode) -> Bool {
        guard !currentPath.isEmpty else { return false }
        let p = point.applying(gstate.ctm)
        switch mode {
        case .fill, .fillStroke:
            if currentPath.contains(p, using: .winding) { return true }
        case .eoFill, .eoFillStroke:
            if currentPath.contains(p, using: .evenOdd) { return true }
        case .stroke: break
        }
        if mode == .stroke || mode == .fillStroke || mode == .eoFillStroke {
            return strokeOutline(of: currentPath)?.contains(p, using: .winding) ?? false
        }
        return false
    }

    /// Replaces the current path with the outline of its stroke under the current line width,
    /// cap, join, miter limit and dash (CGContextReplacePathWithStrokedPath); filling it paints
    /// what `strokePath()` would.
    public func replacePathWithStrokedPath() {
        guard !currentPath.isEmpty else { return }
        let outline = strokeOutline(of: currentPath)
        currentPath = CGMutablePath(elements: outline?.elements ?? [])
    }
}
