// Rules shared by every path builder in this module, and `package` accessors that let the
// model and the renderer walk a path without the C-style `applyWithBlock(_:)`.

extension PathElement {
    /// The point this element ends at (nil for `.close`, whose end is the subpath start).
    package var endPoint: CGPoint? {
        switch self {
        case .move(let p), .line(let p): return p
        case .quad(_, let p): return p
        case .cubic(_, _, let p): return p
        case .close: return nil
        }
    }

    /// All points of the element, control points included, in Apple's element order.
    package var points: [CGPoint] {
        switch self {
        case .move(let p), .line(let p): return [p]
        case .quad(let c, let p): return [c, p]
        case .cubic(let c1, let c2, let p): return [c1, c2, p]
        case .close: return []
        }
    }

    /// The element with every point mapped through `t`.
    package func applying(_ t: CGAffineTransform) -> PathElement {
        switch self {
        case .move(let p): return .move(p.applying(t))
        case .line(let p): return .line(p.applying(t))
        case .quad(let c, let p): return .quad(c.applying(t), p.applying(t))
        case .cubic(let c1, let c2, let p): return .cubic(c1.applying(t), c2.applying(t), p.applying(t))
        case .close: return .close
        }
    }

    /// True when no coordinate is NaN or infinite. Asked of every element a path adds and every
    /// element it is read back as, so it reads the payload in place (`points` makes an array:
    /// one allocation an element, issue 19's drawing speed).
    package var isFinite: Bool {
        switch self {
        case .move(let p), .line(let p): return p.isFinitePoint
        case .quad(let c, let p): return c.isFinitePoint && p.isFinitePoint
        case .cubic(let c1, let c2, let p): return c1.isFinitePoint && c2.isFinitePoint && p.isFinitePoint
        case .close: return true
        }
    }
}

/// One drawing step of a path with its start point made explicit, as produced by
/// `CGPath.forEachSegment(_:)`. `.close` carries the implicit line back to the subpath start.
package enum PathSegment: Sendable {
    case move(CGPoint)
    case line(from: CGPoint, to: CGPoint)
    case quad(from: CGPoint, control: CGPoint, to: CGPoint)
    case cubic(from: CGPoint, control1: CGPoint, control2: CGPoint, to: CGPoint)
    case close(from: CGPoint, to: CGPoint)
}

extension CGPath {
    /// Walks the elements, tracking the current point and subpath start. A drawing element
    /// with no current point (only possible through `init(elements:)`) starts a subpath at
    /// its own end point instead; non-finite elements are skipped.
    package func forEachSegment(_ body: (PathSegment) -> Void) {
        var current: CGPoint? = nil
        var start: CGPoint? = nil
        for e in elements {
            guard e.isFinite else { continue }
            switch e {
            case .move(let p):
                body(.move(p)); current = p; start = p
            case .line(let p):
                if let c = current { body(.line(from: c, to: p)) } else { body(.move(p)); start = p }
                current = p
            case .quad(let cp, let p):
                if let c = current { body(.quad(from: c, control: cp, to: p)) } else { body(.move(p)); start = p }
                current = p
            case .cubic(let c1, let c2, let p):
                if let c = current { body(.cubic(from: c, control1: c1, control2: c2, to: p)) } else { body(.move(p)); start = p }
                current = p
            case .close:
                if let c = current, let s = start { body(.close(from: c, to: s)); current = s }
            }
        }
    }

    /// The current point, or nil when the path has none (empty path).
    package var currentPointIfAny: CGPoint? { elements.currentPoint }
}

extension Array where Element == PathElement {
    /// The start point of the last subpath: the point of the nearest `.move` looking back.
    var lastSubpathStart: CGPoint? {
        for e in reversed() { if case .move(let p) = e { return p } }
        return first?.endPoint
    }

    /// Apple's current point: the end of the last element, or after `closeSubpath()` the
    /// start of the closed subpath (CGPathGetCurrentPoint). Nil for an empty path.
    var currentPoint: CGPoint? {
        guard let last else { return nil }
        if case .close = last { return lastSubpathStart }
        return last.endPoint
    }

    /// Appends one element under the rules every builder here follows:
    /// - an element with a NaN or infinite coordinate is dropped (so `contains`, bounds and
    ///   tessellation never see one);
    /// - a line or curve with no current point is dropped, as Core Graphics refuses it
    ///   ("no current point");
    /// - a line or curve right after `.close` first gets an explicit `.move` to the closed
    ///   subpath's start, so that every subpath in storage begins with a move (the PDF path
    ///   model: after `h` the current point is the subpath's start, and a new subpath
    ///   begins there);
    /// - `.close` on an empty path or right after another `.close` is dropped (PDF: closing
    ///   an already closed subpath does nothing).
    mutating func appendElement(_ e: PathElement) {
        guard e.isFinite else { return }
        switch e {
        case .move:
            append(e)
        case .line, .quad, .cubic:
            guard let last else { return }
            if case .close = last, let s = lastSubpathStart { append(.move(s)) }
            append(e)
        case .close:
            guard let last else { return }
            if case .close = last { return }
            append(e)
        }
    }

    /// Whether appending these elements one by one with `appendElement` would append exactly
    /// them, whatever the path before them ends with: they start with a move (or there are
    /// none), every point is finite, and no line, curve or close follows a close. What the
    /// builders make, so `addPath` can copy such a path whole.
    package var appendsUnchanged: Bool {
        guard let first else { return true }
        guard case .move = first else { return false }
        var afterClose = false
        for e in self {
            guard e.isFinite else { return false }
            switch e {
            case .move: afterClose = false
            case .line, .quad, .cubic, .close:
                if afterClose { return false }
                if case .close = e { afterClose = true }
            }
        }
        return true
    }

    /// Appends a whole shape (rect, ellipse, arc …) atomically: when any of its points is not
    /// finite the shape adds nothing, so a bad rectangle never leaves half a subpath behind.
    mutating func appendShape(_ shape: [PathElement]) {
        guard shape.allSatisfy({ $0.isFinite }) else { return }
        for e in shape { appendElement(e) }
    }
}
