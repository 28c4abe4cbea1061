import Foundation

extension CALayer {
    /// The least and greatest value a scalar `property` (a whole key such as "lineWidth") can
    /// take while this layer's animations run, its model value `model` included (before an
    /// animation starts, after it is removed). Nil when some animation writing it cannot be
    /// bounded from its values alone: additive and cumulative ones (they grow with repeats),
    /// springs (they overshoot by their physics), cubic keyframes (Catmull–Rom overshoot),
    /// groups, and values that are not numbers. Extension beyond Apple's API, for the renderer:
    /// a stroke whose `lineWidth` animates within known bounds is drawn from one raster wide
    /// enough for all of them (`ShapeEmitter`).
    ///
    /// Interpolation follows Apple's documented rules (CABasicAnimation: from/to/by, "Setting
    /// Interpolation Values"; CAKeyframeAnimation: `values`, `timingFunctions`): a value between
    /// two known values a and b is a + f·(b − a), where f is the timing function's output. A
    /// cubic Bézier's output lies within the hull of its control points' y values, so f lies in
    /// [min(0, y1, y2), max(1, y1, y2)] and the bounds widen by that much.
    package func animatedBounds(of property: String, model: Double) -> ClosedRange<Double>? {
        var lo = model, hi = model
        for r in animationRecords where !r.isRemoved {
            guard r.evaluator?.bindings.contains(where: { $0.property == property }) ?? false else { continue }
            let known: (Double, Double)?
            if let cached = r.scalarBounds, cached.model == model {
                known = cached.bounds
            } else {
                known = Self.bounds(of: r.animation, model: model)
                r.scalarBounds = (model, known)
            }
            guard let (a, b) = known else { return nil }
            lo = min(lo, a); hi = max(hi, b)
        }
        guard lo.isFinite, hi.isFinite else { return nil }
        return lo...hi
    }

    /// The bounds one animation's values reach (see `animatedBounds(of:model:)`).
    private static func bounds(of animation: CAAnimation, model: Double) -> (Double, Double)? {
        guard let property = animation as? CAPropertyAnimation, !property.isAdditive, !property.isCumulative,
              !(animation is CASpringAnimation) else { return nil }
        if let k = animation as? CAKeyframeAnimation {
            guard k.path == nil, k.calculationMode != .cubic, k.calculationMode != .cubicPaced,
                  let values = k.values, !values.isEmpty else { return nil }
            // The whole animation's timing function reshapes time, not values: it must stay
            // within [0, 1] for the keyframes to bound the output.
            if let f = k.timingFunction, Self.hull(f) != (0, 1) { return nil }
            var numbers: [Double] = []
            for v in values {
                guard let n = AnimValue.number(from: AnimValue.unboxed(v)) else { return nil }
                numbers.append(n)
            }
            var lo = numbers.min()!, hi = numbers.max()!
            if k.calculationMode != .discrete, let fs = k.timingFunctions, !fs.isEmpty {
                for i in 0..<(numbers.count - 1) {
                    let (a, b) = Self.widened(numbers[i], numbers[i + 1], by: fs[min(i, fs.count - 1)])
                    lo = min(lo, a); hi = max(hi, b)
                }
            }
            return (lo, hi)
        }
        guard let basic = animation as? CABasicAnimation else { return nil }
        func number(_ v: Any?) -> Double?? {
            guard let v else { return .some(nil) }
            return AnimValue.number(from: AnimValue.unboxed(v)).map { .some($0) }
        }
        guard let from = number(basic.fromValue), let to = number(basic.toValue), let by = number(basic.byValue) else { return nil }
        // Apple's table: which two values the animation interpolates between.
        let ends: (Double, Double)
        switch (from, to, by) {
        case let (f?, t?, _): ends = (f, t)
        case let (f?, nil, b?): ends = (f, f + b)
        case let (nil, t?, b?): ends = (t - b, t)
        case let (f?, nil, nil): ends = (f, model)
        case let (nil, t?, nil): ends = (model, t)
        case let (nil, nil, b?): ends = (model, model + b)
        case (nil, nil, nil): return nil   // interpolates between the previous and current presentation values
        }
        guard let f = basic.timingFunction else { return (min(ends.0, ends.1), max(ends.0, ends.1)) }
        return Self.widened(ends.0, ends.1, by: f)
    }

    /// The hull of a timing function's output: its control points' y values with 0 and 1.
    private static func hull(_ f: CAMediaTimingFunction) -> (Double, Double) {
        var p1: [Float] = [0, 0], p2: [Float] = [0, 0]
        f.getControlPoint(at: 1, values: &p1)
        f.getControlPoint(at: 2, values: &p2)
        return (min(0, Double(p1[1]), Double(p2[1])), max(1, Double(p1[1]), Double(p2[1])))
    }

    /// The values a + f·(b − a) for f in `curve`'s hull.
    private static func widened(_ a: Double, _ b: Double, by curve: CAMediaTimingFunction) -> (Double, Double) {
        let (f0, f1) = hull(curve)
        let v0 = a + f0 * (b - a), v1 = a + f1 * (b - a)
        return (min(v0, v1, a, b), max(v0, v1, a, b))
    }
}
