/// A property of `CALayer` itself that the frame step writes directly into a presentation
/// copy's `state`, with no closure, no boxed value and no key path: the properties that
/// animations drive most (position, opacity, transform components, corner radius …).
/// Subclass properties and every other key go through `KeyPathBinding` as before.
package enum LayerSlot: Equatable {
    case opacity, zPosition, anchorPointZ, cornerRadius, borderWidth, shadowOpacity, shadowRadius
    case positionX, positionY, anchorPointX, anchorPointY
    case position, anchorPoint
    case transform(TransformComponent)
    case sublayerTransform(TransformComponent)

    /// The slot a key path names, or nil when it is not one of these (catalogue E6 spells the
    /// structure paths; `PropertyTable` the whole keys).
    init?(keyPath: String) {
        switch keyPath {
        case "opacity": self = .opacity
        case "zPosition": self = .zPosition
        case "anchorPointZ": self = .anchorPointZ
        case "cornerRadius": self = .cornerRadius
        case "borderWidth": self = .borderWidth
        case "shadowOpacity": self = .shadowOpacity
        case "shadowRadius": self = .shadowRadius
        case "position": self = .position
        case "position.x": self = .positionX
        case "position.y": self = .positionY
        case "anchorPoint": self = .anchorPoint
        case "anchorPoint.x": self = .anchorPointX
        case "anchorPoint.y": self = .anchorPointY
        default:
            if keyPath.hasPrefix("transform."), let c = TransformComponent(keyPath: String(keyPath.dropFirst(10))) {
                self = .transform(c)
            } else if keyPath.hasPrefix("sublayerTransform."),
                      let c = TransformComponent(keyPath: String(keyPath.dropFirst(18))) {
                self = .sublayerTransform(c)
            } else {
                return nil
            }
        }
    }

    var isPoint: Bool { self == .position || self == .anchorPoint }

    /// The whole stored property the slot is part of (what a frame resets from the committed
    /// state before animations write, like `KeyPathBinding.reset`).
    var root: LayerSlot {
        switch self {
        case .positionX, .positionY: return .position
        case .anchorPointX, .anchorPointY: return .anchorPoint
        case .transform: return .transform(.scale)
        case .sublayerTransform: return .sublayerTransform(.scale)
        default: return self
        }
    }

    @inline(__always)
    func reset(_ out: CALayer, from base: CALayer) {
        // Field by field: a copy of the whole `LayerState` would retain every colour and path.
        switch self {
        case .opacity: out.state.opacity = base.state.opacity
        case .zPosition: out.state.zPosition = base.state.zPosition
        case .anchorPointZ: out.state.anchorPointZ = base.state.anchorPointZ
        case .cornerRadius: out.state.cornerRadius = base.state.cornerRadius
        case .borderWidth: out.state.borderWidth = base.state.borderWidth
        case .shadowOpacity: out.state.shadowOpacity = base.state.shadowOpacity
        case .shadowRadius: out.state.shadowRadius = base.state.shadowRadius
        case .position, .positionX, .positionY: out.state.position = base.state.position
        case .anchorPoint, .anchorPointX, .anchorPointY: out.state.anchorPoint = base.state.anchorPoint
        case .transform: out.state.transform = base.state.transform
        case .sublayerTransform: out.state.sublayerTransform = base.state.sublayerTransform
        }
    }

    /// The store the public setter makes on a presentation copy: non-finite values are
    /// ignored (NaN only, for `opacity`), as `updateFinite`/`updateNotNaN` do.
    @inline(__always)
    func write(_ v: Double, into s: inout LayerState) {
        switch self {
        case .opacity: if !v.isNaN { s.opacity = Float(v) }
        case .shadowOpacity: if v.isFinite { s.shadowOpacity = Float(v) }
        case .zPosition: if v.isFinite { s.zPosition = v }
        case .anchorPointZ: if v.isFinite { s.anchorPointZ = v }
        case .cornerRadius: if v.isFinite { s.cornerRadius = v }
        case .borderWidth: if v.isFinite { s.borderWidth = v }
        case .shadowRadius: if v.isFinite { s.shadowRadius = v }
        case .positionX: if v.isFinite { s.position.x = v }
        case .positionY: if v.isFinite { s.position.y = v }
        case .anchorPointX: if v.isFinite { s.anchorPoint.x = v }
        case .anchorPointY: if v.isFinite { s.anchorPoint.y = v }
        case .transform(let c): s.transform = applyingTransformComponent(s.transform, c, value: v)
        case .sublayerTransform(let c): s.sublayerTransform = applyingTransformComponent(s.sublayerTransform, c, value: v)
        case .position, .anchorPoint: break
        }
    }

    @inline(__always)
    func write(_ p: CGPoint, into s: inout LayerState) {
        guard p.x.isFinite, p.y.isFinite else { return }
        if self == .position { s.position = p } else if self == .anchorPoint { s.anchorPoint = p }
    }
}

/// A compiled animation reduced to plain values: its timing, its easing, its curve and the slot
/// it writes. The frame step runs a layer's tracks in a tight loop instead of calling class
/// evaluators through closures and boxed values (issue 3: "compile animations into typed
/// evaluators at commit time"). Only the common case compiles to a track — a top-level basic,
/// spring or non-cubic keyframe animation of a number or point slot, replacing rather than
/// adding, not cumulative, without a value function or rotation mode; a layer whose every
/// animation is such a case evaluates through tracks, others through `AnimationEvaluator`s.
/// The two paths compute the same values (E1, F2–F5, G1); tests compare them.
///
/// References are unowned: the plan that holds the tracks also holds the evaluators that own
/// the timing function and the keyframe curve, so the loop copies plain bytes.
package struct FastTrack {
    enum Curve {
        case number(Double, Double)
        case point(CGPoint, CGPoint)
        case springNumber(Double, Double, SpringSolver)
        case springPoint(CGPoint, CGPoint, SpringSolver)
        case keyNumbers(Unmanaged<KeyframeCurve>)
        case keyPoints(Unmanaged<KeyframeCurve>)
    }

    let timing: MediaTimingValues
    let removedOnCompletion: Bool
    /// `Unmanaged`, not an `unowned(unsafe)` optional: Swift 6.3 made an `Optional<FastTrack>`
    /// holding a nil `unowned(unsafe)` optional read as nil itself (the failable init then
    /// appeared to fail whenever the animation had no timing function).
    let timingFunction: Unmanaged<CAMediaTimingFunction>?
    let curve: Curve
    let slot: LayerSlot

    /// The track for `e`, or nil when it is not the common case described above.
    init?(_ e: AnimationEvaluator) {
        guard let p = e as? PropertyEvaluator, let slot = p.slot, !p.isAdditive, !p.isCumulative,
              p.valueFunction == nil, p.rotationBinding == nil else { return nil }
        switch p.curve {
        case .basic(.fromTo(.number(let a), .number(let b))) where !slot.isPoint: curve = .number(a, b)
        case .basic(.fromTo(.point(let a), .point(let b))) where slot.isPoint: curve = .point(a, b)
        case .spring(.fromTo(.number(let a), .number(let b)), let s) where !slot.isPoint: curve = .springNumber(a, b, s)
        case .spring(.fromTo(.point(let a), .point(let b)), let s) where slot.isPoint: curve = .springPoint(a, b, s)
        case .keyframes(let k) where !slot.isPoint && k.numbers != nil: curve = .keyNumbers(.passUnretained(k))
        case .keyframes(let k) where slot.isPoint && k.points != nil: curve = .keyPoints(.passUnretained(k))
        default: return nil
        }
        timing = p.timing
        removedOnCompletion = p.removedOnCompletion
        timingFunction = p.timingFunction.map { .passUnretained($0) }
        self.slot = slot
    }

    /// Writes the animation's value at `parentTime` (the layer's local time) into `s` — what
    /// `PropertyEvaluator.apply` does for the same animation.
    @inline(__always)
    func apply(into s: inout LayerState, parentTime: Double) {
        guard let sample = timing.sample(parentTime, removedOnCompletion: removedOnCompletion) else { return }
        switch curve {
        case let .number(a, b):
            slot.write(a + (b - a) * eased(sample.fraction), into: &s)
        case let .point(a, b):
            let t = eased(sample.fraction)
            slot.write(CGPoint(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t), into: &s)
        case let .springNumber(a, b, solver):
            slot.write(a + (b - a) * solver.value(at: sample.basicTime), into: &s)
        case let .springPoint(a, b, solver):
            let t = solver.value(at: sample.basicTime)
            slot.write(CGPoint(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t), into: &s)
        case let .keyNumbers(k):
            let f = eased(sample.fraction)
            let v = k._withUnsafeGuaranteedRef { c in c.numbers!.withUnsafeBufferPointer { c.numberValue(at: f, $0) } }
            slot.write(v, into: &s)
        case let .keyPoints(k):
            let f = eased(sample.fraction)
            let v = k._withUnsafeGuaranteedRef { c in c.points!.withUnsafeBufferPointer { c.pointValue(at: f, $0) } }
            slot.write(v, into: &s)
        }
    }

    @inline(__always) private func eased(_ f: Double) -> Double {
        guard let tf = timingFunction else { return f }
        return tf._withUnsafeGuaranteedRef { $0.evaluate(at: f) }
    }
}
