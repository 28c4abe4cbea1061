/// UIKit's `UIBezierPath` (https://developer.apple.com/documentation/uikit/uibezierpath): a
/// class wrapping a mutable `CGPath`, plus the stroke attributes UIKit keeps with it.
///
/// Core Animation code uses it to build a path and hand `cgPath` to a `CAShapeLayer` or a
/// keyframe animation; that works exactly as on iOS. The stroke attributes (`lineWidth`,
/// `lineCapStyle`, …) are stored and read back but, as on iOS, do not affect a shape layer
/// (only `stroke()` would use them).
///
/// **Direction of `clockwise`.** UIKit names `clockwise` for its y-down screen: an arc with
/// `clockwise: true` sweeps toward *increasing* angles (0 → π/2 goes from the right of the
/// centre to below it, clockwise on screen). Core Graphics names the flag for a y-up space, so
/// the same arc is `CGMutablePath.addArc(…, clockwise: false)` (see the doc comment in
/// Sources/CoreGraphics/CGPath+Arcs.swift). This class passes `!clockwise` to Core Graphics;
/// the stored points are what UIKit stores.
///
/// Differences from UIKit: `fill()`, `stroke()` and `addClip()` draw nothing (there is no
/// UIGraphics context here) and log a warning; rounded rectangles have circular corners, not
/// UIKit's continuous ones (see `init(roundedRect:cornerRadius:)`).
open class UIBezierPath: CustomStringConvertible, @unchecked Sendable {
    private var path: CGMutablePath

    // MARK: Creating

    /// An empty path.
    public init() { path = CGMutablePath() }

    /// A closed rectangle: move to `rect`'s origin, lines round its corners (min x/min y →
    /// max x/min y → max x/max y → min x/max y), close — clockwise on a y-down screen, as UIKit
    /// documents ("proceeding in a clockwise direction").
    public convenience init(rect: CGRect) {
        self.init()
        path.addRect(rect)
    }

    /// An ellipse inscribed in `rect`, four cubic Béziers, clockwise on a y-down screen
    /// (UIKit: "The path is created in a clockwise direction"). Starts at the rectangle's
    /// max-x, mid-y point (Core Graphics' ellipse); UIKit's own start point is not documented.
    public convenience init(ovalIn rect: CGRect) {
        self.init()
        path.addEllipse(in: rect)
    }

    /// A rounded rectangle with every corner rounded by `cornerRadius`.
    ///
    /// UIKit draws these corners with its *continuous* curve (since iOS 7). Here each corner is
    /// a quarter circle (one cubic), the radius clamped to half the shorter side (so a large
    /// radius gives a capsule or circle, as in UIKit); the outline differs from UIKit's by a
    /// small fraction of the radius near each corner. The path starts on the top edge after
    /// the top-left corner and runs clockwise on a y-down screen.
    public convenience init(roundedRect rect: CGRect, cornerRadius: CGFloat) {
        self.init()
        appendRoundedRect(rect, radius: cornerRadius, corners: .allCorners)
    }

    /// A rounded rectangle with only `corners` rounded.
    ///
    /// UIKit documents `cornerRadii` as each corner's oval, but in practice (widely reported)
    /// uses `cornerRadii.width` for both axes; this does the same: circular corners of radius
    /// `cornerRadii.width`, clamped to half the shorter side. Circular, not continuous, as in
    /// `init(roundedRect:cornerRadius:)`.
    public convenience init(roundedRect rect: CGRect, byRoundingCorners corners: UIRectCorner, cornerRadii: CGSize) {
        self.init()
        appendRoundedRect(rect, radius: cornerRadii.width, corners: corners)
    }

    /// An arc of a circle, UIKit's direction convention (see the class comment): `clockwise:
    /// true` sweeps toward increasing angles. Starts with a move to the arc's first point.
    public convenience init(arcCenter center: CGPoint, radius: CGFloat, startAngle: CGFloat,
                            endAngle: CGFloat, clockwise: Bool) {
        self.init()
        addArc(withCenter: center, radius: radius, startAngle: startAngle, endAngle: endAngle, clockwise: clockwise)
    }

    /// A path holding a copy of `cgPath`'s elements.
    public convenience init(cgPath: CGPath) {
        self.init()
        path = cgPath.mutableCopy() ?? CGMutablePath()
    }

    // MARK: The path

    /// The Core Graphics path: reading gives an immutable snapshot, setting replaces the
    /// elements with a copy of the new path (UIKit copies too).
    open var cgPath: CGPath {
        get { path.copy() ?? CGMutablePath() }
        set { path = newValue.mutableCopy() ?? CGMutablePath() }
    }

    /// The end of the last element, or the start of a just-closed subpath; `.zero` for an
    /// empty path (CGPathGetCurrentPoint).
    open var currentPoint: CGPoint { path.currentPoint }

    /// True when the path has no elements at all (a lone `move(to:)` makes it non-empty, as
    /// UIKit documents).
    open var isEmpty: Bool { path.isEmpty }

    /// The smallest rectangle holding every point of the path, control points included, as
    /// UIKit documents `bounds` (CGPathGetBoundingBox); `CGRect.null` for an empty path.
    open var bounds: CGRect { path.boundingBox }

    // MARK: Stroke attributes (UIKit's defaults)

    /// 1.0 by default.
    open var lineWidth: CGFloat = 1
    /// `.butt` by default.
    open var lineCapStyle: CGLineCap = .butt
    /// `.miter` by default.
    open var lineJoinStyle: CGLineJoin = .miter
    /// 10 by default.
    open var miterLimit: CGFloat = 10
    /// 0.6 by default. Stored only: this project flattens curves to its own tolerance.
    open var flatness: CGFloat = 0.6
    /// false (non-zero winding) by default; `contains(_:)` follows it.
    open var usesEvenOddFillRule: Bool = false

    private var dashPattern: [CGFloat] = []
    private var dashPhase: CGFloat = 0

    /// Sets the dash pattern from `count` values at `pattern` (nil or 0 for a solid line).
    open func setLineDash(_ pattern: UnsafePointer<CGFloat>?, count: Int, phase: CGFloat) {
        if let pattern, count > 0 {
            dashPattern = Array(UnsafeBufferPointer(start: pattern, count: count))
        } else {
            dashPattern = []
        }
        dashPhase = phase
    }

    /// Reads the dash pattern back. As in UIKit, `pattern` must have room for the pattern
    /// (call once with `pattern` nil to learn `count`); each pointer may be nil.
    open func getLineDash(_ pattern: UnsafeMutablePointer<CGFloat>?, count: UnsafeMutablePointer<Int>?,
                          phase: UnsafeMutablePointer<CGFloat>?) {
        if let pattern {
            for (i, v) in dashPattern.enumerated() { pattern[i] = v }
        }
        count?.pointee = dashPattern.count
        phase?.pointee = dashPhase
    }

    // MARK: Building

    open func move(to point: CGPoint) { path.move(to: point) }

    /// A straight line from the current point. As in UIKit (and Core Graphics), there must be a
    /// current point; without one nothing is added (UIKit logs "no current point").
    open func addLine(to point: CGPoint) { path.addLine(to: point) }

    open func addCurve(to endPoint: CGPoint, controlPoint1: CGPoint, controlPoint2: CGPoint) {
        path.addCurve(to: endPoint, control1: controlPoint1, control2: controlPoint2)
    }

    open func addQuadCurve(to endPoint: CGPoint, controlPoint: CGPoint) {
        path.addQuadCurve(to: endPoint, control: controlPoint)
    }

    /// An arc, UIKit's direction convention (see the class comment). A line joins the current
    /// point to the arc's start, as in UIKit; on an empty path the arc starts with a move.
    open func addArc(withCenter center: CGPoint, radius: CGFloat, startAngle: CGFloat,
                     endAngle: CGFloat, clockwise: Bool) {
        path.addArc(center: center, radius: radius, startAngle: startAngle, endAngle: endAngle,
                    clockwise: !clockwise)
    }

    /// Closes the current subpath with a straight line back to its start.
    open func close() { path.closeSubpath() }

    /// Removes every element; the stroke attributes stay.
    open func removeAllPoints() { path = CGMutablePath() }

    /// Appends `bezierPath`'s elements (not its stroke attributes).
    open func append(_ bezierPath: UIBezierPath) { path.addPath(bezierPath.path) }

    /// Maps every point through `transform`.
    open func apply(_ transform: CGAffineTransform) {
        var t = transform
        path = path.mutableCopy(using: &t) ?? CGMutablePath()
    }

    /// A new path tracing the same outline backwards (UIKit `reversing()`), with this path's
    /// stroke attributes. Each subpath is reversed in place, subpaths keep their order. An open
    /// subpath starts at its old end point; a closed one starts at the point its closing line
    /// started from and closes again, so the closing segment stays implicit. Curves keep their
    /// control points, swapped. UIKit does not document its element order; this is a
    /// reasonable one with the same drawing.
    open func reversing() -> UIBezierPath {
        let result = UIBezierPath()
        result.copyAttributes(from: self)
        result.path = UIBezierPath.reversed(path)
        return result
    }

    /// `NSCopying`, as UIKit's `copy()`: a new path with the same elements and attributes.
    open func copy() -> Any {
        let result = UIBezierPath(cgPath: path)
        result.copyAttributes(from: self)
        return result
    }

    // MARK: Hit testing

    /// Whether `point` is inside the filled area, by the fill rule `usesEvenOddFillRule`
    /// chooses (UIKit `contains(_:)`). Open subpaths count as implicitly closed.
    open func contains(_ point: CGPoint) -> Bool {
        path.contains(point, using: usesEvenOddFillRule ? .evenOdd : .winding)
    }

    // MARK: Drawing (not reproduced)

    /// UIKit fills into the current UIGraphics context. There is none here: nothing is drawn
    /// and one warning is logged. Put the path in a `CAShapeLayer` instead.
    open func fill() {
        CompatDiagnostics.warnOnce("UIBezierPath.fill()", "draws nothing: there is no UIGraphics context (use a CAShapeLayer)")
    }

    /// As `fill()`: draws nothing, logs one warning.
    open func stroke() {
        CompatDiagnostics.warnOnce("UIBezierPath.stroke()", "draws nothing: there is no UIGraphics context (use a CAShapeLayer)")
    }

    /// As `fill()`: clips nothing, logs one warning (use a mask layer instead).
    open func addClip() {
        CompatDiagnostics.warnOnce("UIBezierPath.addClip()", "clips nothing: there is no UIGraphics context (use a mask layer)")
    }

    open var description: String { "<UIBezierPath: \(path)>" }

    // MARK: Helpers

    private func copyAttributes(from other: UIBezierPath) {
        lineWidth = other.lineWidth
        lineCapStyle = other.lineCapStyle
        lineJoinStyle = other.lineJoinStyle
        miterLimit = other.miterLimit
        flatness = other.flatness
        usesEvenOddFillRule = other.usesEvenOddFillRule
        dashPattern = other.dashPattern
        dashPhase = other.dashPhase
    }

    /// Appends a rounded rectangle: circular corners (a quarter circle each, one cubic) on
    /// `corners`, square elsewhere; radius clamped to [0, half the shorter side]. Starts on the
    /// top edge after the top-left corner and runs clockwise on a y-down screen (top edge →
    /// right edge → bottom edge → left edge), then closes.
    private func appendRoundedRect(_ rect: CGRect, radius: CGFloat, corners: UIRectCorner) {
        guard !rect.isNull, rect.origin.x.isFinite, rect.origin.y.isFinite,
              rect.width.isFinite, rect.height.isFinite else { return }
        let r = rect.standardized
        var radius = radius.isFinite ? max(radius, 0) : 0
        radius = min(radius, min(r.width, r.height) / 2)
        func rad(_ c: UIRectCorner) -> CGFloat { corners.contains(c) ? radius : 0 }
        let tl = rad(.topLeft), tr = rad(.topRight), br = rad(.bottomRight), bl = rad(.bottomLeft)
        let p = path
        func line(_ x: CGFloat, _ y: CGFloat) {
            let q = CGPoint(x: x, y: y)
            if p.currentPoint != q { p.addLine(to: q) }
        }
        // A quarter circle as one cubic from `a` to `b` round the rectangle's corner `k`:
        // control points 4/3·tan(π/8)·r along the tangents (the same cubic Core Graphics'
        // arcs use for 90°), written out so the end points are exact.
        let kappa: CGFloat = 4.0 / 3.0 * tan(CGFloat.pi / 8)
        func corner(_ rr: CGFloat, to b: CGPoint, round k: CGPoint) {
            guard rr > 0 else { return }
            let a = p.currentPoint
            p.addCurve(to: b,
                       control1: CGPoint(x: a.x + (k.x - a.x) * kappa, y: a.y + (k.y - a.y) * kappa),
                       control2: CGPoint(x: b.x + (k.x - b.x) * kappa, y: b.y + (k.y - b.y) * kappa))
        }
        p.move(to: CGPoint(x: r.minX + tl, y: r.minY))
        line(r.maxX - tr, r.minY)
        corner(tr, to: CGPoint(x: r.maxX, y: r.minY + tr), round: CGPoint(x: r.maxX, y: r.minY))
        line(r.maxX, r.maxY - br)
        corner(br, to: CGPoint(x: r.maxX - br, y: r.maxY), round: CGPoint(x: r.maxX, y: r.maxY))
        line(r.minX + bl, r.maxY)
        corner(bl, to: CGPoint(x: r.minX, y: r.maxY - bl), round: CGPoint(x: r.minX, y: r.maxY))
        line(r.minX, r.minY + tl)
        corner(tl, to: CGPoint(x: r.minX + tl, y: r.minY), round: CGPoint(x: r.minX, y: r.minY))
        p.closeSubpath()
    }

    /// One segment of a subpath, kept for reversal: its end point and control points.
    private enum Segment {
        case line(CGPoint)
        case quad(CGPoint, CGPoint)            // control, end
        case cubic(CGPoint, CGPoint, CGPoint)  // control1, control2, end
        var end: CGPoint {
            switch self {
            case .line(let p), .quad(_, let p), .cubic(_, _, let p): return p
            }
        }
    }

    private struct Subpath {
        var start: CGPoint
        var segments: [Segment] = []
        var closed = false
    }

    /// Reverses every subpath of `source` (see `reversing()`), through Core Graphics' public
    /// element walk.
    private static func reversed(_ source: CGPath) -> CGMutablePath {
        var subpaths: [Subpath] = []
        func appendSegment(_ s: Segment) {
            // After a close, drawing continues from the closed subpath's start: a new subpath.
            if subpaths.isEmpty || subpaths[subpaths.count - 1].closed {
                let start = subpaths.last?.start ?? .zero
                subpaths.append(Subpath(start: start))
            }
            subpaths[subpaths.count - 1].segments.append(s)
        }
        source.applyWithBlock { element in
            let e = element.pointee
            switch e.type {
            case .moveToPoint:
                subpaths.append(Subpath(start: e.points[0]))
            case .addLineToPoint:
                appendSegment(.line(e.points[0]))
            case .addQuadCurveToPoint:
                appendSegment(.quad(e.points[0], e.points[1]))
            case .addCurveToPoint:
                appendSegment(.cubic(e.points[0], e.points[1], e.points[2]))
            case .closeSubpath:
                if !subpaths.isEmpty { subpaths[subpaths.count - 1].closed = true }
            }
        }

        let out = CGMutablePath()
        for sub in subpaths {
            // Points in order: start, then each segment's end.
            var points = [sub.start]
            for s in sub.segments { points.append(s.end) }
            out.move(to: points[points.count - 1])
            for i in stride(from: sub.segments.count - 1, through: 0, by: -1) {
                let to = points[i]
                switch sub.segments[i] {
                case .line: out.addLine(to: to)
                case .quad(let c, _): out.addQuadCurve(to: to, control: c)
                case .cubic(let c1, let c2, _): out.addCurve(to: to, control1: c2, control2: c1)
                }
            }
            if sub.closed { out.closeSubpath() }
        }
        return out
    }
}
