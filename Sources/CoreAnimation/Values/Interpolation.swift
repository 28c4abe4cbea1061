/// Interpolation, addition and distance by value type (docs/BEHAVIOUR.md E2, E3, E4, F5).
extension AnimValue {
    /// The value a fraction `t` of the way from `self` to `to`. `t` may leave [0, 1] (springs
    /// and cubic keyframes overshoot). Discrete kinds switch at the half-way point (E2).
    package func interpolated(to b: AnimValue, _ t: Double) -> AnimValue {
        switch (self, b) {
        case let (.number(x), .number(y)): return .number(x + (y - x) * t)
        case let (.point(p), .point(q)):
            return .point(CGPoint(x: p.x + (q.x - p.x) * t, y: p.y + (q.y - p.y) * t))
        case let (.size(p), .size(q)):
            return .size(CGSize(width: p.width + (q.width - p.width) * t, height: p.height + (q.height - p.height) * t))
        case let (.rect(p), .rect(q)):
            return .rect(CGRect(x: p.origin.x + (q.origin.x - p.origin.x) * t,
                                y: p.origin.y + (q.origin.y - p.origin.y) * t,
                                width: p.width + (q.width - p.width) * t,
                                height: p.height + (q.height - p.height) * t))
        case let (.transform(m), .transform(n)): return .transform(interpolateTransform(m, n, t))
        case let (.color(c), .color(d)): return .color(Self.lerpColor(c, d, t))
        // A nil colour animates as transparent black (Apple fades a nil backgroundColor in).
        case let (.null, .color(d)): return .color(Self.lerpColor(CGColor(red: 0, green: 0, blue: 0, alpha: 0), d, t))
        case let (.color(c), .null): return .color(Self.lerpColor(c, CGColor(red: 0, green: 0, blue: 0, alpha: 0), t))
        case let (.vector(x), .vector(y)) where x.count == y.count:
            return .vector(zip(x, y).map { $0 + ($1 - $0) * t })
        case let (.path(p), .path(q)):
            if let r = Self.lerpPath(p, q, t) { return .path(r) }
            return t < 0.5 ? self : b
        // Colour and location arrays blend element-wise when they match (E8).
        case let (.object(x), .object(y)):
            if let r = Self.lerpArrays(x, y, t) { return .object(r) }
            return t < 0.5 ? self : b
        default:
            return t < 0.5 ? self : b
        }
    }

    package static func lerpColor(_ c: CGColor, _ d: CGColor, _ t: Double) -> CGColor {
        // Straight (non-premultiplied) sRGB components, as Core Animation's colour animations
        // appear on screen; premultiplication happens once, at the renderer's edge.
        let a = c.rgba, b = d.rgba
        return CGColor(red: a.red + (b.red - a.red) * t, green: a.green + (b.green - a.green) * t,
                       blue: a.blue + (b.blue - a.blue) * t, alpha: a.alpha + (b.alpha - a.alpha) * t)
    }

    /// Point-wise blend when both paths have the same element structure (CAShapeLayer.path:
    /// "if the two paths have a different number of control points or segments, the results
    /// are undefined"); nil otherwise, and the caller switches discretely.
    package static func lerpPath(_ p: CGPath, _ q: CGPath, _ t: Double) -> CGPath? {
        let a = p.elements, b = q.elements
        guard a.count == b.count else { return nil }
        func l(_ u: CGPoint, _ v: CGPoint) -> CGPoint { CGPoint(x: u.x + (v.x - u.x) * t, y: u.y + (v.y - u.y) * t) }
        var out: [PathElement] = []
        out.reserveCapacity(a.count)
        for (x, y) in zip(a, b) {
            switch (x, y) {
            case let (.move(u), .move(v)): out.append(.move(l(u, v)))
            case let (.line(u), .line(v)): out.append(.line(l(u, v)))
            case let (.quad(u1, u2), .quad(v1, v2)): out.append(.quad(l(u1, v1), l(u2, v2)))
            case let (.cubic(u1, u2, u3), .cubic(v1, v2, v3)): out.append(.cubic(l(u1, v1), l(u2, v2), l(u3, v3)))
            case (.close, .close): out.append(.close)
            default: return nil
            }
        }
        return CGPath(elements: out)
    }

    /// `self + other`: the type-dependent addition of additive animations (E3: transforms
    /// concatenate, the animation's matrix first, then the underlying one).
    package func adding(_ o: AnimValue) -> AnimValue {
        switch (self, o) {
        case let (.number(x), .number(y)): return .number(x + y)
        case let (.point(p), .point(q)): return .point(CGPoint(x: p.x + q.x, y: p.y + q.y))
        case let (.size(p), .size(q)): return .size(CGSize(width: p.width + q.width, height: p.height + q.height))
        case let (.rect(p), .rect(q)):
            return .rect(CGRect(x: p.origin.x + q.origin.x, y: p.origin.y + q.origin.y,
                                width: p.width + q.width, height: p.height + q.height))
        case let (.transform(m), .transform(n)): return .transform(CATransform3DConcat(n, m))
        case let (.color(c), .color(d)):
            let a = c.rgba, b = d.rgba
            return .color(CGColor(red: a.red + b.red, green: a.green + b.green, blue: a.blue + b.blue, alpha: a.alpha + b.alpha))
        case let (.vector(x), .vector(y)) where x.count == y.count: return .vector(zip(x, y).map { $0 + $1 })
        case let (.object(x), .object(y)):
            if let r = Self.combineArrays(x, y, { $0 + $1 }, { a, b in AnimValue.color(a).adding(.color(b)).cgColor! }) { return .object(r) }
            return o
        case (.null, _): return o
        default: return o
        }
    }

    /// `self − other` for the types where it means something; used for by-values (E1).
    package func subtracting(_ o: AnimValue) -> AnimValue {
        adding(o.scaled(by: -1))
    }

    /// `k · self`: used for `byValue` arithmetic and `cumulative` (E4). Transforms: k whole
    /// repetitions of the matrix (k rounded to an integer ≥ 0; a negative k inverts).
    package func scaled(by k: Double) -> AnimValue {
        switch self {
        case .number(let x): return .number(x * k)
        case .point(let p): return .point(CGPoint(x: p.x * k, y: p.y * k))
        case .size(let s): return .size(CGSize(width: s.width * k, height: s.height * k))
        case .vector(let v): return .vector(v.map { $0 * k })
        case .rect(let r): return .rect(CGRect(x: r.origin.x * k, y: r.origin.y * k, width: r.width * k, height: r.height * k))
        case .color(let c):
            let a = c.rgba
            return .color(CGColor(red: a.red * k, green: a.green * k, blue: a.blue * k, alpha: a.alpha * k))
        case .object(let x):
            if let r = Self.combineArrays(x, x, { a, _ in a * k }, { c, _ in AnimValue.color(c).scaled(by: k).cgColor! }) { return .object(r) }
            return self
        case .transform(let m):
            // Saturating: k may be any finite multiplier (Int(_:) traps beyond ±9.2e18); the
            // count is capped at 1,000 below anyway.
            var n = Int.clamped(max(min(k.rounded(), 1e9), -1e9))
            let base = n < 0 ? CATransform3DInvert(m) : m
            n = Swift.min(abs(n), 1_000)
            var out = CATransform3DIdentity
            for _ in 0..<n { out = CATransform3DConcat(out, base) }
            return .transform(out)
        default: return self
        }
    }

    /// A distance between two values, for paced keyframes (F5): |Δ| for numbers, Euclidean for
    /// points, sizes, rects and colours; 0 where no distance is defined.
    package func distance(to o: AnimValue) -> Double {
        switch (self, o) {
        case let (.number(x), .number(y)): return abs(y - x)
        case let (.point(p), .point(q)): return hypot(q.x - p.x, q.y - p.y)
        case let (.size(p), .size(q)): return hypot(q.width - p.width, q.height - p.height)
        case let (.rect(p), .rect(q)):
            let d = [q.origin.x - p.origin.x, q.origin.y - p.origin.y, q.width - p.width, q.height - p.height]
            return d.reduce(0) { $0 + $1 * $1 }.squareRoot()
        case let (.color(c), .color(d)):
            let a = c.rgba, b = d.rgba
            let s = (b.red - a.red) * (b.red - a.red) + (b.green - a.green) * (b.green - a.green)
                + (b.blue - a.blue) * (b.blue - a.blue) + (b.alpha - a.alpha) * (b.alpha - a.alpha)
            return s.squareRoot()
        case let (.object(x), .object(y)): return Self.arrayDistance(x, y) ?? 0
        default: return 0
        }
    }

    /// Flattens numeric values into components (cubic keyframe splines work per component).
    package var components: [Double]? {
        switch self {
        case .number(let x): return [x]
        case .point(let p): return [p.x, p.y]
        case .size(let s): return [s.width, s.height]
        case .rect(let r): return [r.origin.x, r.origin.y, r.width, r.height]
        case .color(let c): let a = c.rgba; return [a.red, a.green, a.blue, a.alpha]
        case .vector(let v): return v
        default: return nil
        }
    }

    /// Rebuilds a value of the same kind as `self` from components.
    package func withComponents(_ c: [Double]) -> AnimValue {
        switch self {
        case .number: return .number(c[0])
        case .point: return .point(CGPoint(x: c[0], y: c[1]))
        case .size: return .size(CGSize(width: c[0], height: c[1]))
        case .rect: return .rect(CGRect(x: c[0], y: c[1], width: c[2], height: c[3]))
        case .color: return .color(CGColor(red: c[0], green: c[1], blue: c[2], alpha: c[3]))
        case .vector: return .vector(c)
        default: return self
        }
    }
}
