// Reading paths: Apple's CGPath properties and queries (current point, bounds, isRect,
// contains, element enumeration, copies).

extension CGPath {
    /// The current point (CGPathGetCurrentPoint): the end of the last element, or after
    /// `closeSubpath()` the start of the closed subpath. `.zero` for an empty path, as Apple
    /// documents ("If the path is empty … returns CGPointZero").
    public var currentPoint: CGPoint { elements.currentPoint ?? .zero }

    /// The smallest rectangle holding every point of every element, Bézier control points
    /// included (CGPathGetBoundingBox). `CGRect.null` for an empty path.
    public var boundingBox: CGRect {
        var b = BoundsAccumulator()
        for e in elements { for p in e.points { b.add(p) } }
        return b.rect
    }

    /// The smallest rectangle holding the path itself — curve extrema, not control points
    /// (CGPathGetPathBoundingBox). Move points count, as in `boundingBox`. `CGRect.null` for
    /// an empty path.
    public var boundingBoxOfPath: CGRect {
        var b = BoundsAccumulator()
        forEachSegment { seg in
            switch seg {
            case .move(let p): b.add(p)
            case .line(let a, let p), .close(let a, let p): b.add(a); b.add(p)
            case .quad(let a, let c, let p):
                b.add(a); b.add(p)
                // B'(t) = 0 per axis: t = (a − c) / (a − 2c + p).
                for axis in 0..<2 {
                    let (a0, c0, p0) = axis == 0 ? (a.x, c.x, p.x) : (a.y, c.y, p.y)
                    let den = a0 - 2 * c0 + p0
                    if den != 0 {
                        let t = (a0 - c0) / den
                        if t > 0, t < 1 { b.add(quadPoint(a, c, p, t)) }
                    }
                }
            case .cubic(let a, let c1, let c2, let p):
                b.add(a); b.add(p)
                // B'(t)/3 = (u − 2v + w)t² + 2(v − u)t + u with u = c1−a, v = c2−c1, w = p−c2.
                for axis in 0..<2 {
                    let (a0, b0, c0, d0) = axis == 0 ? (a.x, c1.x, c2.x, p.x) : (a.y, c1.y, c2.y, p.y)
                    let u = b0 - a0, v = c0 - b0, w = d0 - c0
                    for t in quadraticRoots(u - 2 * v + w, 2 * (v - u), u) where t > 0 && t < 1 {
                        b.add(cubicPoint(a, c1, c2, p, t))
                    }
                }
            }
        }
        return b.rect
    }

    /// Whether the path is one axis-aligned rectangle (CGPathIsRect), and if so which
    /// (standardized) one. Accepted shapes: a move and three lines, optionally a fourth line
    /// back to the start, ending with `closeSubpath()` — or the same four lines ending back at
    /// the start without the close. Sides must alternate horizontal / vertical. This is what
    /// `addRect`, `CGPath(rect:)` and hand-built rectangles produce. Degenerate (zero-width)
    /// rectangles count. `rect` may be nil when only the answer is wanted.
    public func isRect(_ rect: UnsafeMutablePointer<CGRect>?) -> Bool {
        var pts: [CGPoint] = []
        var closed = false
        for (i, e) in elements.enumerated() {
            switch e {
            case .move(let p): if i != 0 { return false }; pts.append(p)
            case .line(let p): if i == 0 || closed { return false }; pts.append(p)
            case .close: if i == 0 || closed { return false }; closed = true
            case .quad, .cubic: return false
            }
        }
        if pts.count == 5, pts[4] == pts[0] { pts.removeLast(); closed = true }
        guard pts.count == 4, closed else { return false }
        let (p0, p1, p2, p3) = (pts[0], pts[1], pts[2], pts[3])
        let horizontalFirst = p0.y == p1.y && p1.x == p2.x && p2.y == p3.y && p3.x == p0.x
        let verticalFirst = p0.x == p1.x && p1.y == p2.y && p2.x == p3.x && p3.y == p0.y
        guard horizontalFirst || verticalFirst else { return false }
        if let rect {
            let minX = min(p0.x, p2.x), minY = min(p0.y, p2.y)
            rect.pointee = CGRect(x: minX, y: minY, width: abs(p2.x - p0.x), height: abs(p2.y - p0.y))
        }
        return true
    }

    /// Whether `point` is inside the area the path would fill (CGPathContainsPoint), open
    /// subpaths being closed implicitly as for filling. `transform` is applied to the path
    /// before the test (Apple: "applies the transformation to the path before checking").
    /// Curves are flattened to 1/10 000 of the path's size, so answers within that distance of
    /// the outline may differ from Apple's; points exactly on an edge follow the usual
    /// half-open crossing rule (left and bottom edges in, right and top out, in y-up terms).
    public func contains(_ point: CGPoint, using rule: CGPathFillRule = .winding,
                         transform: CGAffineTransform = .identity) -> Bool {
        guard point.isFinitePoint else { return false }
        let path = transform.isIdentity ? self : CGPath(elements: elements.map { $0.applying(transform) })
        let box = path.boundingBox
        guard !box.isNull, box.minX.isFinite, box.maxX.isFinite, box.minY.isFinite, box.maxY.isFinite
        else { return false }
        guard point.x >= box.minX, point.x <= box.maxX, point.y >= box.minY, point.y <= box.maxY
        else { return false }
        let tolerance = max(max(box.width, box.height) * 1e-4, 1e-9)
        let winding = windingNumber(of: point, in: path.flattenedSubpaths(tolerance: tolerance))
        switch rule {
        case .winding: return winding != 0
        case .evenOdd: return winding & 1 != 0
        }
    }

    /// Calls `block` once per element, in order, with Apple's `CGPathElement` layout
    /// (CGPathApplyWithBlock). The element and its points pointer are valid only during the
    /// call. (Apple's block parameter is `@convention(block)`; on Linux there is no block
    /// runtime, so it is an ordinary non-escaping closure — call sites read the same.)
    public func applyWithBlock(_ block: (UnsafePointer<CGPathElement>) -> Void) {
        let buffer = UnsafeMutablePointer<CGPoint>.allocate(capacity: 3)
        buffer.initialize(repeating: .zero, count: 3)
        defer { buffer.deinitialize(count: 3); buffer.deallocate() }
        for e in elements {
            let type: CGPathElementType
            switch e {
            case .move(let p): type = .moveToPoint; buffer[0] = p
            case .line(let p): type = .addLineToPoint; buffer[0] = p
            case .quad(let c, let p): type = .addQuadCurveToPoint; buffer[0] = c; buffer[1] = p
            case .cubic(let c1, let c2, let p):
                type = .addCurveToPoint; buffer[0] = c1; buffer[1] = c2; buffer[2] = p
            case .close: type = .closeSubpath
            }
            var element = CGPathElement(type: type, points: buffer)
            withUnsafePointer(to: &element) { block($0) }
        }
    }

    /// The C-callback form of `applyWithBlock(_:)` (CGPathApply): `function` receives `info`
    /// and each element in turn.
    public func apply(info: UnsafeMutableRawPointer?, function: CGPathApplierFunction) {
        applyWithBlock { function(info, $0) }
    }

    /// An immutable copy (CGPathCreateCopy). An immutable `CGPath` is returned as itself, as
    /// Core Foundation does for immutable objects; a `CGMutablePath` gives a new `CGPath`
    /// holding its current elements. Never nil here (Apple's return type is optional).
    public func copy() -> CGPath? {
        if type(of: self) == CGPath.self { return self }
        return CGPath(elements: elements)
    }

    /// An immutable copy with every point mapped through `transform`; nil pointer means no
    /// transform (CGPathCreateCopyByTransformingPath). Points that the transform makes
    /// non-finite are dropped under the construction rules.
    public func copy(using transform: UnsafePointer<CGAffineTransform>?) -> CGPath? {
        guard let t = transform?.pointee, !t.isIdentity else { return CGPath(elements: elements) }
        return CGPath(elements: elements.transformed(by: t))
    }

    /// A mutable copy (CGPathCreateMutableCopy).
    public func mutableCopy() -> CGMutablePath? {
        CGMutablePath(elements: elements)
    }

    /// A mutable copy with every point mapped through `transform`
    /// (CGPathCreateMutableCopyByTransformingPath).
    public func mutableCopy(using transform: UnsafePointer<CGAffineTransform>?) -> CGMutablePath? {
        guard let t = transform?.pointee, !t.isIdentity else { return CGMutablePath(elements: elements) }
        return CGMutablePath(elements: elements.transformed(by: t))
    }
}

extension Array where Element == PathElement {
    /// The elements mapped through `t`, rebuilt under the construction rules.
    func transformed(by t: CGAffineTransform) -> [PathElement] {
        var out: [PathElement] = []
        out.reserveCapacity(count)
        for e in self { out.appendElement(e.applying(t)) }
        return out
    }
}

/// Running min/max of finite points; `rect` is `.null` until a point is added.
struct BoundsAccumulator {
    var minX = CGFloat.infinity, minY = CGFloat.infinity
    var maxX = -CGFloat.infinity, maxY = -CGFloat.infinity

    mutating func add(_ p: CGPoint) {
        guard p.isFinitePoint else { return }
        minX = Swift.min(minX, p.x); maxX = Swift.max(maxX, p.x)
        minY = Swift.min(minY, p.y); maxY = Swift.max(maxY, p.y)
    }

    var rect: CGRect {
        guard minX <= maxX, minY <= maxY else { return .null }
        return CGRect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }
}

/// Real roots of a·t² + b·t + c = 0 (a linear equation when a is ~0).
func quadraticRoots(_ a: CGFloat, _ b: CGFloat, _ c: CGFloat) -> [CGFloat] {
    let scale = Swift.max(abs(a), abs(b), abs(c))
    guard scale > 0, scale.isFinite else { return [] }
    if abs(a) <= scale * 1e-12 {
        return b != 0 ? [-c / b] : []
    }
    let disc = b * b - 4 * a * c
    if disc < 0 { return [] }
    let s = disc.squareRoot()
    // Numerically stable form (avoids cancellation between −b and ±s).
    let q = -0.5 * (b + (b >= 0 ? s : -s))
    var roots: [CGFloat] = []
    if q != 0 { roots.append(c / q) }
    roots.append(q / a)
    return roots
}

/// Winding number of `p` against the polylines (each implicitly closed, as for filling).
/// Upward crossings to the right of `p` count +1, downward −1 (y-up terms); a vertex
/// exactly at `p.y` is counted once by treating edges as half-open in y.
func windingNumber(of p: CGPoint, in subpaths: [FlattenedSubpath]) -> Int {
    var winding = 0
    for s in subpaths {
        let pts = s.points
        guard pts.count >= 2 else { continue }
        var a = pts[pts.count - 1]
        for b in pts {
            defer { a = b }
            if a.y <= p.y {
                if b.y > p.y, (b - a).cross(p - a) > 0 { winding += 1 }
            } else if b.y <= p.y, (b - a).cross(p - a) < 0 {
                winding -= 1
            }
        }
    }
    return winding
}
