/// A compiled animation: everything resolved when it was added, so evaluating a frame is
/// arithmetic on typed values.
package protocol AnimationEvaluator: AnyObject {
    /// The properties it writes (reset from the committed state before each evaluation).
    var bindings: [KeyPathBinding] { get }
    /// Applies the animation at `parentTime` (its layer's local time, or its group's time).
    /// `additivePass` selects which animations act: non-additive ones replace in order first,
    /// additive ones add on top afterwards (E3).
    func apply(to layer: CALayer, parentTime: Double, additivePass: Bool)
    /// The stamped begin time (C9) of a top-level animation.
    func setBeginTime(_ t: Double)
    /// Whether any part acts in the additive pass (so the pass can be skipped otherwise).
    var hasAdditive: Bool { get }
}

/// How a basic animation's endpoints derive from from/to/by and the underlying value P (E1).
package enum BasicEndpoints {
    case fromTo(AnimValue, AnimValue)
    case fromOnly(AnimValue)
    case toOnly(AnimValue)
    case byOnly(AnimValue)
    /// Neither set: from the presentation value before the change to the current one.
    case implicit(from: AnimValue?)

    /// Whether the endpoints depend on the underlying value (reading it can be costly, e.g. a
    /// transform component needs a decomposition).
    var needsUnderlying: Bool {
        if case .fromTo = self { return false }
        return true
    }

    func endpoints(_ p: AnimValue) -> (AnimValue, AnimValue) {
        switch self {
        case let .fromTo(a, b): return (a, b)
        case let .fromOnly(a): return (a, p)
        case let .toOnly(b): return (p, b)
        case let .byOnly(by): return (p, p.adding(by))
        case let .implicit(from): return (from ?? p, p)
        }
    }
}

/// What maps a timing sample to a value.
package enum ValueCurve {
    case basic(BasicEndpoints)
    /// A spring: progress from its solver at the basic time in seconds (G1), then from/to.
    case spring(BasicEndpoints, SpringSolver)
    case keyframes(KeyframeCurve)
}

/// Basic, spring and keyframe animations of one key path.
package final class PropertyEvaluator: AnimationEvaluator {
    let binding: KeyPathBinding
    // Read for every evaluation (see AnimationRecord's flags).
    @exclusivity(unchecked) var timing: MediaTimingValues
    let timingFunction: CAMediaTimingFunction?
    let curve: ValueCurve
    let isAdditive: Bool
    let isCumulative: Bool
    let removedOnCompletion: Bool
    let valueFunction: CAValueFunctionName?
    /// For keyframes along a path with a rotation mode: the layer's transform, turned to the
    /// path's tangent (F8).
    let rotationBinding: KeyPathBinding?
    /// Where the frame step's typed track writes, when the key path names a `LayerSlot`.
    let slot: LayerSlot?
    package let bindings: [KeyPathBinding]

    init(binding: KeyPathBinding, timing: MediaTimingValues, timingFunction: CAMediaTimingFunction?, curve: ValueCurve,
         isAdditive: Bool, isCumulative: Bool, removedOnCompletion: Bool, valueFunction: CAValueFunctionName?,
         rotationBinding: KeyPathBinding?, slot: LayerSlot? = nil) {
        self.slot = slot
        self.binding = binding; self.timing = timing; self.timingFunction = timingFunction; self.curve = curve
        self.isAdditive = isAdditive; self.isCumulative = isCumulative
        self.removedOnCompletion = removedOnCompletion; self.valueFunction = valueFunction
        self.rotationBinding = rotationBinding
        self.bindings = [binding] + (rotationBinding.map { [$0] } ?? [])
        switch curve {
        case .basic(let e), .spring(let e, _): needsUnderlying = e.needsUnderlying
        case .keyframes: needsUnderlying = false
        }
        fastPath = Self.fastPath(binding: binding, curve: curve, isAdditive: isAdditive, isCumulative: isCumulative,
                                 valueFunction: valueFunction, rotationBinding: rotationBinding)
    }

    /// The common case compiled further: a basic or spring animation with both end values
    /// known, of a whole number or point property, replacing (not adding), not cumulative, no
    /// value function. A frame then computes the progress and writes `a + (b − a)·p` straight
    /// into the layer — the arithmetic `AnimValue.interpolated` does — with no boxed values.
    private struct FastPath {
        enum Target {
            case number(Double, Double, (CALayer, Double) -> Void)
            case point(CGPoint, CGPoint, (CALayer, CGPoint) -> Void)
        }
        let target: Target
        /// Progress from the spring's solver at the basic time (G1); nil: the eased fraction.
        let spring: SpringSolver?
    }
    private let fastPath: FastPath?

    private static func fastPath(binding: KeyPathBinding, curve: ValueCurve, isAdditive: Bool, isCumulative: Bool,
                                 valueFunction: CAValueFunctionName?, rotationBinding: KeyPathBinding?) -> FastPath? {
        guard !isAdditive, !isCumulative, valueFunction == nil, rotationBinding == nil else { return nil }
        let endpoints: BasicEndpoints, spring: SpringSolver?
        switch curve {
        case .basic(let e): endpoints = e; spring = nil
        case .spring(let e, let solver): endpoints = e; spring = solver
        case .keyframes: return nil
        }
        guard case let .fromTo(a, b) = endpoints else { return nil }
        switch (a, b) {
        case let (.number(x), .number(y)):
            return binding.setNumber.map { FastPath(target: .number(x, y, $0), spring: spring) }
        case let (.point(p), .point(q)):
            return binding.setPoint.map { FastPath(target: .point(p, q, $0), spring: spring) }
        default:
            return nil
        }
    }

    /// False when from/to are both known: the frame then never reads the underlying value.
    private let needsUnderlying: Bool
    package var hasAdditive: Bool { isAdditive }

    package func setBeginTime(_ t: Double) { timing.beginTime = t }

    package func apply(to layer: CALayer, parentTime: Double, additivePass: Bool) {
        guard additivePass == isAdditive,
              let s = timing.sample(parentTime, removedOnCompletion: removedOnCompletion) else { return }
        if let fastPath {
            let t = fastPath.spring.map { $0.value(at: s.basicTime) } ?? eased(s.fraction)
            switch fastPath.target {
            case let .number(x, y, write): write(layer, x + (y - x) * t)
            case let .point(p, q, write): write(layer, CGPoint(x: p.x + (q.x - p.x) * t, y: p.y + (q.y - p.y) * t))
            }
            return
        }
        let p = isAdditive || !needsUnderlying ? binding.kind.zero : binding.get(layer)
        var v = value(s, p, layer)
        if isCumulative, s.iteration > 0 {
            let end = value(TimingSample(basicTime: timing.duration, iteration: 0, fraction: 1), p, layer)
            v = v.adding(end.subtracting(valueAtStart(p, layer)).scaled(by: Double(s.iteration)))
        }
        if let vf = valueFunction {
            let comps: [CGFloat] = v.components.map { $0.map { CGFloat($0) } } ?? []
            guard let m = valueFunctionTransform(name: vf.rawValue, values: comps) else { return }
            v = .transform(m)
        }
        if isAdditive {
            binding.add(layer, v)
        } else if case .number(let x) = v, let write = binding.setNumber {
            write(layer, x)
        } else if case .point(let p) = v, let write = binding.setPoint {
            write(layer, p)
        } else {
            binding.set(layer, v)
        }
        if let rb = rotationBinding, case .keyframes(let k) = curve {
            let angle = k.tangentAngle(at: eased(s.fraction))
            rb.set(layer, .transform(CATransform3DRotate(rb.get(layer).transform3D, CGFloat(angle), 0, 0, 1)))
        }
    }

    @inline(__always) private func eased(_ f: Double) -> Double {
        timingFunction.map { $0.evaluate(at: f) } ?? f
    }

    private func valueAtStart(_ p: AnimValue, _ layer: CALayer) -> AnimValue {
        value(TimingSample(basicTime: 0, iteration: 0, fraction: 0), p, layer)
    }

    private func value(_ s: TimingSample, _ p: AnimValue, _ layer: CALayer) -> AnimValue {
        switch curve {
        case .basic(let e):
            let (a, b) = e.endpoints(p)
            return a.interpolated(to: b, eased(s.fraction))
        case .spring(let e, let solver):
            let (a, b) = e.endpoints(p)
            return a.interpolated(to: b, solver.value(at: s.basicTime))
        case .keyframes(let k):
            return k.value(at: eased(s.fraction), underlying: p)
        }
    }
}

/// A group: children evaluate in the group's basic time (after its timing function) and are
/// clipped to its active duration (H1, H3, H5).
package final class GroupEvaluator: AnimationEvaluator {
    var timing: MediaTimingValues
    let timingFunction: CAMediaTimingFunction?
    let removedOnCompletion: Bool
    let children: [AnimationEvaluator]
    package let bindings: [KeyPathBinding]

    init(timing: MediaTimingValues, timingFunction: CAMediaTimingFunction?, removedOnCompletion: Bool, children: [AnimationEvaluator]) {
        self.timing = timing; self.timingFunction = timingFunction
        self.removedOnCompletion = removedOnCompletion; self.children = children
        self.bindings = children.flatMap(\.bindings)
        self.hasAdditive = children.contains { $0.hasAdditive }
    }

    package let hasAdditive: Bool

    package func setBeginTime(_ t: Double) { timing.beginTime = t }

    package func apply(to layer: CALayer, parentTime: Double, additivePass: Bool) {
        guard let s = timing.sample(parentTime, removedOnCompletion: removedOnCompletion) else { return }
        let f = timingFunction.map { $0.evaluate(at: s.fraction) } ?? s.fraction
        let groupTime = f * timing.duration
        for c in children { c.apply(to: layer, parentTime: groupTime, additivePass: additivePass) }
    }
}

/// A transition changes no property; the renderer asks it for its progress (I2) and draws
/// `before` (the layer as the screen showed it when the transition was added) and the layer's
/// current state per `type` and `subtype`.
package final class TransitionEvaluator: AnimationEvaluator {
    var timing: MediaTimingValues
    let timingFunction: CAMediaTimingFunction?
    let removedOnCompletion: Bool
    let start: Double, end: Double
    package let type: CATransitionType
    package let subtype: CATransitionSubtype?
    /// A frozen copy of the layer and its subtree from before the change (`transitionSnapshot`);
    /// nil when the layer was not on screen yet.
    package var before: CALayer?
    package let bindings: [KeyPathBinding] = []
    package var hasAdditive: Bool { false }

    init(_ t: CATransition) {
        timing = t.timing; timingFunction = t.timingFunction; removedOnCompletion = t.isRemovedOnCompletion
        type = t.type; subtype = t.subtype
        // Clamped to 0 ≤ start ≤ end ≤ 1 here, not in the setters (A6).
        let s = Double(t.startProgress).isNaN ? 0 : min(max(Double(t.startProgress), 0), 1)
        let e = Double(t.endProgress).isNaN ? 1 : min(max(Double(t.endProgress), 0), 1)
        start = s; end = max(s, e)
    }

    package func setBeginTime(_ t: Double) { timing.beginTime = t }

    package func apply(to layer: CALayer, parentTime: Double, additivePass: Bool) {}

    /// p = start + (end − start)·timing(f) (I2); nil when the transition shows nothing.
    package func progress(at parentTime: Double) -> Double? {
        guard let s = timing.sample(parentTime, removedOnCompletion: removedOnCompletion) else { return nil }
        let f = timingFunction.map { $0.evaluate(at: s.fraction) } ?? s.fraction
        return start + (end - start) * f
    }
}

extension ValueKind {
    /// The neutral value additive animations start from.
    package var zero: AnimValue {
        switch self {
        case .number: return .number(0)
        case .point: return .point(.zero)
        case .size: return .size(.zero)
        case .rect: return .rect(.zero)
        case .transform: return .transform(CATransform3DIdentity)
        case .color: return .color(CGColor(red: 0, green: 0, blue: 0, alpha: 0))
        case .bool: return .bool(false)
        case .path, .vector, .object: return .null
        }
    }
}
