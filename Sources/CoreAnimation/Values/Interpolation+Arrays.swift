/// Interpolation of the array-valued properties Core Animation animates element by element:
/// `CAGradientLayer.colors` (`CGColor`s) and `CAGradientLayer.locations` (`NSNumber`s), which
/// CAGradientLayer.h marks "Animatable" (docs/BEHAVIOUR.md E8).
extension AnimValue {
    /// The arrays `a` and `b` a fraction `t` of the way from one to the other, element by
    /// element; nil when they cannot be blended that way, and the caller switches discretely at
    /// the half-way point as for any value that does not interpolate (E2). Blended element-wise:
    /// two arrays of the same length whose elements are all colours (each pair as
    /// `lerpColor`, straight sRGB components like every colour animation) or all numbers.
    /// Arrays of different lengths are not blended: which stop of one would become which stop
    /// of the other is not defined, and on Apple a colours animation between gradients with
    /// different stop counts does not fade stop by stop (E8).
    package static func lerpArrays(_ a: Any, _ b: Any, _ t: Double) -> Any? {
        guard let x = a as? [Any], let y = b as? [Any], x.count == y.count, !x.isEmpty else { return nil }
        if let cx = colors(x), let cy = colors(y) {
            var out: [Any] = []
            out.reserveCapacity(cx.count)
            for i in 0..<cx.count { out.append(lerpColor(cx[i], cy[i], t)) }
            return out
        }
        if let nx = numbers(x), let ny = numbers(y) {
            var out: [NSNumber] = []
            out.reserveCapacity(nx.count)
            for i in 0..<nx.count { out.append(NSNumber(value: nx[i] + (ny[i] - nx[i]) * t)) }
            return out
        }
        return nil
    }

    /// Element-wise `numbers` or `colors` of two arrays of the same length whose elements are
    /// all numbers or all colours (additive and cumulative animations of `colors` and
    /// `locations`, E3, E4); nil otherwise.
    package static func combineArrays(_ a: Any, _ b: Any, _ numbers: (Double, Double) -> Double,
                                      _ colors: (CGColor, CGColor) -> CGColor) -> Any? {
        guard let x = a as? [Any], let y = b as? [Any], x.count == y.count, !x.isEmpty else { return nil }
        if let cx = self.colors(x), let cy = self.colors(y) { return zip(cx, cy).map { colors($0, $1) as Any } }
        if let nx = self.numbers(x), let ny = self.numbers(y) { return zip(nx, ny).map { NSNumber(value: numbers($0, $1)) } }
        return nil
    }

    /// The Euclidean distance between two blendable arrays (paced keyframes, F5): over every
    /// colour component or number; nil when they do not blend.
    package static func arrayDistance(_ a: Any, _ b: Any) -> Double? {
        guard let x = a as? [Any], let y = b as? [Any], x.count == y.count, !x.isEmpty else { return nil }
        if let cx = colors(x), let cy = colors(y) {
            return zip(cx, cy).reduce(0.0) { s, p in let d = AnimValue.color(p.0).distance(to: .color(p.1)); return s + d * d }.squareRoot()
        }
        if let nx = numbers(x), let ny = numbers(y) { return zip(nx, ny).reduce(0.0) { $0 + ($1.0 - $1.1) * ($1.0 - $1.1) }.squareRoot() }
        return nil
    }

    /// The elements as colours when every one is a `CGColor`.
    private static func colors(_ a: [Any]) -> [CGColor]? {
        var out: [CGColor] = []
        out.reserveCapacity(a.count)
        for e in a {
            guard let c = unboxed(e) as? CGColor else { return nil }
            out.append(c)
        }
        return out
    }

    /// The elements as numbers when every one is a finite number.
    private static func numbers(_ a: [Any]) -> [Double]? {
        var out: [Double] = []
        out.reserveCapacity(a.count)
        for e in a {
            guard let n = number(from: e), n.isFinite else { return nil }
            out.append(n)
        }
        return out
    }
}
