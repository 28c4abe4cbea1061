// Building paths: Apple's `CGMutablePath` instance methods (Swift overlay spelling, every
// `transform:` defaulting to `.identity`) and the immutable `CGPath(rect:)`,
// `CGPath(ellipseIn:)`, `CGPath(roundedRect:)` initializers.
//
// Rules for bad input (Apple asserts or logs instead; here nothing may crash):
// - a point with a NaN or infinite coordinate (after the transform) is dropped; a shape
//   (rect, ellipse, rounded rect, arc) with any such point is dropped whole;
// - `addLine`/`addQuadCurve`/`addCurve` on a path with no current point add nothing
//   (Core Graphics logs "no current point" and ignores them too).

/// Element lists for the closed shapes, shared by the mutable `add…` methods and the
/// immutable initializers so both produce identical elements.
enum PathShapes {
    /// 4/3·(√2 − 1): the control-point distance, as a fraction of the radius, of the cubic
    /// that best approximates a quarter circle (the constant Core Graphics' ellipses use).
    static let kappa: CGFloat = 0.552_284_749_830_793_4

    /// `CGPathAddRect`: "starting by moving to the bottom left corner and then adding lines
    /// counter-clockwise" (y-up wording) — move (minX, minY), lines to (maxX, minY),
    /// (maxX, maxY), (minX, maxY), close. The rect is standardized first, so a rect with a
    /// negative width is traced in the same direction as its standardized twin.
    static func rect(_ r: CGRect, _ t: CGAffineTransform) -> [PathElement] {
        if r.isNull { return [] }
        let s = r.standardized
        return [
            .move(CGPoint(x: s.minX, y: s.minY).applying(t)),
            .line(CGPoint(x: s.maxX, y: s.minY).applying(t)),
            .line(CGPoint(x: s.maxX, y: s.maxY).applying(t)),
            .line(CGPoint(x: s.minX, y: s.maxY).applying(t)),
            .close,
        ]
    }

    /// The cubic approximating the quarter ellipse from `a` to `b` whose bounding corner is
    /// `corner` (control points `kappa` of the way from each end toward the corner).
    static func quarter(from a: CGPoint, to b: CGPoint, corner c: CGPoint, _ t: CGAffineTransform) -> PathElement {
        .cubic(lerp(a, c, kappa).applying(t), lerp(b, c, kappa).applying(t), b.applying(t))
    }

    /// `CGPathAddEllipseInRect`: a move to (maxX, midY), four quarter cubics through
    /// (midX, maxY), (minX, midY), (midX, minY) back to (maxX, midY), then close — increasing
    /// angle, which Apple calls "clockwise" (it is clockwise on a y-down UIKit screen).
    static func ellipse(_ r: CGRect, _ t: CGAffineTransform) -> [PathElement] {
        if r.isNull { return [] }
        let s = r.standardized
        let right = CGPoint(x: s.maxX, y: s.midY), bottom = CGPoint(x: s.midX, y: s.maxY)
        let left = CGPoint(x: s.minX, y: s.midY), top = CGPoint(x: s.midX, y: s.minY)
        return [
            .move(right.applying(t)),
            quarter(from: right, to: bottom, corner: CGPoint(x: s.maxX, y: s.maxY), t),
            quarter(from: bottom, to: left, corner: CGPoint(x: s.minX, y: s.maxY), t),
            quarter(from: left, to: top, corner: CGPoint(x: s.minX, y: s.minY), t),
            quarter(from: top, to: right, corner: CGPoint(x: s.maxX, y: s.minY), t),
            .close,
        ]
    }

    /// `CGPathAddRoundedRect`. Apple documents each corner as "one-quarter of an ellipse with
    /// axes equal to the cornerWidth and cornerHeight" and the subpath as "oriented in the
    /// clockwise direction" (same sense as the ellipse). Elements: move to (maxX, midY); then
    /// for each corner, in the ellipse's order (maxX/maxY, minX/maxY, minX/minY, maxX/minY),
    /// a line to the corner's start and a quarter-ellipse cubic; then close — 10 elements.
    /// The start point and corner order are chosen to match `addEllipse(in:)`, so a square
    /// whose corners are half its side traces exactly like the circle.
    ///
    /// Deviations, because Apple asserts instead: a corner size larger than half the rect's
    /// size is clamped to half of it; a negative or NaN corner size counts as 0; when either
    /// corner size is 0 the result is `rect(_:_:)` (a plain rectangle, 5 elements).
    static func roundedRect(_ r: CGRect, cornerWidth: CGFloat, cornerHeight: CGFloat,
                            _ t: CGAffineTransform) -> [PathElement] {
        if r.isNull { return [] }
        let s = r.standardized
        let cw = cornerWidth > 0 ? min(cornerWidth, s.width / 2) : 0
        let ch = cornerHeight > 0 ? min(cornerHeight, s.height / 2) : 0
        guard cw > 0, ch > 0 else { return rect(s, t) }
        let (x0, x1, y0, y1) = (s.minX, s.maxX, s.minY, s.maxY)
        var e: [PathElement] = [.move(CGPoint(x: x1, y: s.midY).applying(t))]
        func corner(_ a: CGPoint, _ b: CGPoint, _ c: CGPoint) {
            e.append(.line(a.applying(t)))
            e.append(quarter(from: a, to: b, corner: c, t))
        }
        corner(CGPoint(x: x1, y: y1 - ch), CGPoint(x: x1 - cw, y: y1), CGPoint(x: x1, y: y1))
        corner(CGPoint(x: x0 + cw, y: y1), CGPoint(x: x0, y: y1 - ch), CGPoint(x: x0, y: y1))
        corner(CGPoint(x: x0, y: y0 + ch), CGPoint(x: x0 + cw, y: y0), CGPoint(x: x0, y: y0))
        corner(CGPoint(x: x1 - cw, y: y0), CGPoint(x: x1, y: y0 + ch), CGPoint(x: x1, y: y0))
        e.append(.close)
        return e
    }
}

extension CGMutablePath {
    /// Begins a new subpath at `point` (CGPathMoveToPoint). Consecutive moves are all kept.
    public func move(to point: CGPoint, transform: CGAffineTransform = .identity) {
        elements.appendElement(.move(point.applying(transform)))
    }

    /// A straight line from the current point (CGPathAddLineToPoint). Ignored when the path
    /// has no current point.
    public func addLine(to point: CGPoint, transform: CGAffineTransform = .identity) {
        elements.appendElement(.line(point.applying(transform)))
    }

    /// A move to the first point, then lines through the rest (CGPathAddLines). An empty
    /// array adds nothing.
    public func addLines(between points: [CGPoint], transform: CGAffineTransform = .identity) {
        guard let first = points.first else { return }
        elements.appendElement(.move(first.applying(transform)))
        for p in points.dropFirst() { elements.appendElement(.line(p.applying(transform))) }
    }

    /// A quadratic Bézier from the current point (CGPathAddQuadCurveToPoint).
    public func addQuadCurve(to end: CGPoint, control: CGPoint, transform: CGAffineTransform = .identity) {
        elements.appendElement(.quad(control.applying(transform), end.applying(transform)))
    }

    /// A cubic Bézier from the current point (CGPathAddCurveToPoint).
    public func addCurve(to end: CGPoint, control1: CGPoint, control2: CGPoint,
                         transform: CGAffineTransform = .identity) {
        elements.appendElement(.cubic(control1.applying(transform), control2.applying(transform),
                                      end.applying(transform)))
    }

    /// A closed rectangle subpath: move, three lines, close (see `PathShapes.rect`).
    public func addRect(_ rect: CGRect, transform: CGAffineTransform = .identity) {
        elements.appendShape(PathShapes.rect(rect, transform))
    }

    /// One `addRect(_:transform:)` per rectangle, in order (CGPathAddRects).
    public func addRects(_ rects: [CGRect], transform: CGAffineTransform = .identity) {
        for r in rects { addRect(r, transform: transform) }
    }

    /// An ellipse inscribed in `rect`: move to (maxX, midY), four cubics, close
    /// (CGPathAddEllipseInRect; see `PathShapes.ellipse` for the direction).
    public func addEllipse(in rect: CGRect, transform: CGAffineTransform = .identity) {
        elements.appendShape(PathShapes.ellipse(rect, transform))
    }

    /// A rounded rectangle subpath (CGPathAddRoundedRect). Corner sizes above half the
    /// rectangle are clamped (Apple asserts); see `PathShapes.roundedRect` for the elements.
    public func addRoundedRect(in rect: CGRect, cornerWidth: CGFloat, cornerHeight: CGFloat,
                               transform: CGAffineTransform = .identity) {
        elements.appendShape(PathShapes.roundedRect(rect, cornerWidth: cornerWidth,
                                                    cornerHeight: cornerHeight, transform))
    }

    /// Appends every element of `path`, mapped through `transform` (CGPathAddPath). Adding a
    /// path to itself appends one copy of its elements.
    public func addPath(_ path: CGPath, transform: CGAffineTransform = .identity) {
        let source = path.elements
        // The elements are appended to a local array moved out of the observed property and
        // moved back once: through the property each append paid its exclusivity check and
        // `didSet` (4 % of a frame of 20,000 small fills; issue 19).
        var out: [PathElement] = []
        swap(&out, &elements)
        defer { swap(&out, &elements) }
        // Room for all of them at once (a context's fresh path grew four or five times while
        // a rounded rect was added to it, once a fill), at least doubling, so that many small
        // additions stay linear.
        let need = out.count + source.count
        if need > out.capacity { out.reserveCapacity(max(need, 2 * out.capacity)) }
        if transform.isIdentity {
            // A source that the rules would append as it is (almost every path: the builders
            // keep to them) is copied whole; element by element was ~100 instructions each.
            if source.appendsUnchanged {
                out.append(contentsOf: source)
            } else {
                for e in source { out.appendElement(e) }
            }
        } else {
            for e in source { out.appendElement(e.applying(transform)) }
        }
    }

    /// Closes the current subpath with a line back to its start (CGPathCloseSubpath). Does
    /// nothing on an empty path or when the subpath is already closed.
    public func closeSubpath() {
        elements.appendElement(.close)
    }
}

extension CGPath {
    /// An immutable rectangle path (CGPathCreateWithRect): the elements of
    /// `CGMutablePath.addRect(_:transform:)`. `transform` is a pointer as in Apple's API, so
    /// `CGPath(rect: r, transform: nil)` reads the same as on Apple platforms.
    public convenience init(rect: CGRect, transform: UnsafePointer<CGAffineTransform>?) {
        var e: [PathElement] = []
        e.appendShape(PathShapes.rect(rect, transform?.pointee ?? .identity))
        self.init(elements: e)
    }

    /// An immutable ellipse path (CGPathCreateWithEllipseInRect): the elements of
    /// `CGMutablePath.addEllipse(in:transform:)`.
    public convenience init(ellipseIn rect: CGRect, transform: UnsafePointer<CGAffineTransform>?) {
        var e: [PathElement] = []
        e.appendShape(PathShapes.ellipse(rect, transform?.pointee ?? .identity))
        self.init(elements: e)
    }

    /// An immutable rounded-rectangle path (CGPathCreateWithRoundedRect): the elements of
    /// `CGMutablePath.addRoundedRect(in:cornerWidth:cornerHeight:transform:)`. Apple requires
    /// the corner sizes to fit (it asserts); here they are clamped to half the rectangle.
    public convenience init(roundedRect rect: CGRect, cornerWidth: CGFloat, cornerHeight: CGFloat,
                            transform: UnsafePointer<CGAffineTransform>?) {
        var e: [PathElement] = []
        e.appendShape(PathShapes.roundedRect(rect, cornerWidth: cornerWidth, cornerHeight: cornerHeight,
                                             transform?.pointee ?? .identity))
        self.init(elements: e)
    }
}
