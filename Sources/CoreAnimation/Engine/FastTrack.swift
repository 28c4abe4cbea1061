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

    /// The current value of a number slot: the underlying value P of catalogue E1 when the
    /// endpoints depend on it (what `KeyPathBinding.get` reads on the general path).
    @inline(__always)
    func number(in s: borrowing LayerState) -> Double {
        switch self {
        case .opacity: return Double(s.opacity)
        case .shadowOpacity: return Double(s.shadowOpacity)
        case .zPosition: return s.zPosition
        case .anchorPointZ: return s.anchorPointZ
        case .cornerRadius: return s.cornerRadius
        case .borderWidth: return s.borderWidth
        case .shadowRadius: return s.shadowRadius
        case .positionX: return s.position.x
        case .positionY: return s.position.y
        case .anchorPointX: return s.anchorPoint.x
        case .anchorPointY: return s.anchorPoint.y
        case .transform(let c): return Double(transformComponentValue(s.transform, c))
        case .sublayerTransform(let c): return Double(transformComponentValue(s.sublayerTransform, c))
        case .position, .anchorPoint: return 0
        }
    }

    @inline(__always)
    func point(in s: borrowing LayerState) -> CGPoint { self == .anchorPoint ? s.anchorPoint : s.position }

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
    func reset(_ out: UnsafeMutablePointer<LayerState>, from base: UnsafeMutablePointer<LayerState>) {
        // Field by field, through pointers: a copy of the whole `LayerState` would retain every
        // colour and path, and passing the layers would retain them.
        switch self {
        case .opacity: out.pointee.opacity = base.pointee.opacity
        case .zPosition: out.pointee.zPosition = base.pointee.zPosition
        case .anchorPointZ: out.pointee.anchorPointZ = base.pointee.anchorPointZ
        case .cornerRadius: out.pointee.cornerRadius = base.pointee.cornerRadius
        case .borderWidth: out.pointee.borderWidth = base.pointee.borderWidth
        case .shadowOpacity: out.pointee.shadowOpacity = base.pointee.shadowOpacity
        case .shadowRadius: out.pointee.shadowRadius = base.pointee.shadowRadius
        case .position, .positionX, .positionY: out.pointee.position = base.pointee.position
        case .anchorPoint, .anchorPointX, .anchorPointY: out.pointee.anchorPoint = base.pointee.anchorPoint
        case .transform: out.pointee.transform = base.pointee.transform
        case .sublayerTransform: out.pointee.sublayerTransform = base.pointee.sublayerTransform
        }
    }

    /// The store the public setter makes on a presentation copy: a value the setter refuses
    /// (non-finite; NaN only for the opacities) is ignored with the same warning
    /// (`updateFinite`/`updateNotNaN`); a transform component is checked by
    /// `applyingTransformComponent`, as on the general path.
    @inline(__always)
    func write(_ v: Double, into s: inout LayerState) {
        switch self {
        case .transform(let c): s.transform = applyingTransformComponent(s.transform, c, value: v); return
        case .sublayerTransform(let c): s.sublayerTransform = applyingTransformComponent(s.sublayerTransform, c, value: v); return
        case .opacity, .shadowOpacity: if v.isNaN { return refuse(v) }
        default: if !v.isFinite { return refuse(v) }
        }
        switch self {
        case .opacity: s.opacity = Float(v)
        case .shadowOpacity: s.shadowOpacity = Float(v)
        case .zPosition: s.zPosition = v
        case .anchorPointZ: s.anchorPointZ = v
        case .cornerRadius: s.cornerRadius = v
        case .borderWidth: s.borderWidth = v
        case .shadowRadius: s.shadowRadius = v
        case .positionX: s.position.x = v
        case .positionY: s.position.y = v
        case .anchorPointX: s.anchorPoint.x = v
        case .anchorPointY: s.anchorPoint.y = v
        case .transform, .sublayerTransform, .position, .anchorPoint: break
        }
    }

    @inline(__always)
    func write(_ p: CGPoint, into s: inout LayerState) {
        guard p.x.isFinite, p.y.isFinite else { return refuse(p) }
        if self == .position { s.position = p } else if self == .anchorPoint { s.anchorPoint = p }
    }

    @inline(never)
    private func refuse(_ value: Any) {
        let key: String
        switch root {
        case .opacity: key = "opacity"
        case .shadowOpacity: key = "shadowOpacity"
        case .zPosition: key = "zPosition"
        case .anchorPointZ: key = "anchorPointZ"
        case .cornerRadius: key = "cornerRadius"
        case .borderWidth: key = "borderWidth"
        case .shadowRadius: key = "shadowRadius"
        case .anchorPoint: key = "anchorPoint"
        default: key = "position"
        }
        Diagnostics.warnOnce("CALayer.\(key): ignored non-finite or invalid value \(value)")
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
    /// How a basic or spring animation's two values derive from from/to/by and the underlying
    /// value P (catalogue E1, `BasicEndpoints`): `a` and `b` hold what was given.
    enum Ends {
        case fromTo, fromOnly, toOnly, byOnly
        /// An implied animation: from the old presentation value (`a`, when there was one) to P.
        case implicit(hasFrom: Bool)

        init(_ e: BasicEndpoints) {
            switch e {
            case .fromTo: self = .fromTo
            case .fromOnly: self = .fromOnly
            case .toOnly: self = .toOnly
            case .byOnly: self = .byOnly
            case .implicit(let from): self = .implicit(hasFrom: from != nil)
            }
        }

        @inline(__always)
        func resolve(_ a: Double, _ b: Double, _ p: () -> Double) -> (Double, Double) {
            switch self {
            case .fromTo: return (a, b)
            case .fromOnly: return (a, p())
            case .toOnly: return (p(), b)
            case .byOnly: let u = p(); return (u, u + a)
            case .implicit(let hasFrom): let u = p(); return (hasFrom ? a : u, u)
            }
        }

        @inline(__always)
        func resolve(_ a: CGPoint, _ b: CGPoint, _ p: () -> CGPoint) -> (CGPoint, CGPoint) {
            switch self {
            case .fromTo: return (a, b)
            case .fromOnly: return (a, p())
            case .toOnly: return (p(), b)
            case .byOnly: let u = p(); return (u, CGPoint(x: u.x + a.x, y: u.y + a.y))
            case .implicit(let hasFrom): let u = p(); return (hasFrom ? a : u, u)
            }
        }
    }

    enum Curve {
        case number(Double, Double, Ends)
        case point(CGPoint, CGPoint, Ends)
        case springNumber(Double, Double, Ends, SpringSolver)
        case springPoint(CGPoint, CGPoint, Ends, SpringSolver)
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
        case .basic(let e), .spring(let e, _):
            var solver: SpringSolver? = nil
            if case .spring(_, let s) = p.curve { solver = s }
            let ends = Ends(e)
            // The values given; one that `ends` takes from P instead is a placeholder.
            let given: (AnimValue?, AnimValue?)
            switch e {
            case let .fromTo(a, b): given = (a, b)
            case let .fromOnly(a), let .byOnly(a): given = (a, nil)
            case let .toOnly(b): given = (nil, b)
            case let .implicit(from): given = (from, nil)
            }
            if slot.isPoint {
                guard let a = Self.point(given.0), let b = Self.point(given.1) else { return nil }
                curve = solver.map { .springPoint(a, b, ends, $0) } ?? .point(a, b, ends)
            } else {
                guard let a = Self.number(given.0), let b = Self.number(given.1) else { return nil }
                curve = solver.map { .springNumber(a, b, ends, $0) } ?? .number(a, b, ends)
            }
        case .keyframes(let k) where !slot.isPoint && k.numbers != nil: curve = .keyNumbers(.passUnretained(k))
        case .keyframes(let k) where slot.isPoint && k.points != nil: curve = .keyPoints(.passUnretained(k))
        default: return nil
        }
        timing = p.timing
        removedOnCompletion = p.removedOnCompletion
        timingFunction = p.timingFunction.map { .passUnretained($0) }
        self.slot = slot
    }

    /// A given number, 0 standing in for one not given; nil for a value of another kind.
    private static func number(_ v: AnimValue?) -> Double? {
        guard let v else { return 0 }
        if case .number(let x) = v { return x }
        return nil
    }

    private static func point(_ v: AnimValue?) -> CGPoint? {
        guard let v else { return .zero }
        if case .point(let p) = v { return p }
        return nil
    }

    /// Writes the animation's value at `parentTime` (the layer's local time) into `s` — what
    /// `PropertyEvaluator.apply` does for the same animation.
    @inline(__always)
    func apply(into s: inout LayerState, parentTime: Double) {
        guard let sample = timing.sample(parentTime, removedOnCompletion: removedOnCompletion) else { return }
        switch curve {
        case let .number(a0, b0, ends):
            let (a, b) = ends.resolve(a0, b0) { slot.number(in: s) }
            slot.write(a + (b - a) * eased(sample.fraction), into: &s)
        case let .point(a0, b0, ends):
            let (a, b) = ends.resolve(a0, b0) { slot.point(in: s) }
            let t = eased(sample.fraction)
            slot.write(CGPoint(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t), into: &s)
        case let .springNumber(a0, b0, ends, solver):
            let (a, b) = ends.resolve(a0, b0) { slot.number(in: s) }
            slot.write(a + (b - a) * solver.value(at: sample.basicTime), into: &s)
        case let .springPoint(a0, b0, ends, solver):
            let (a, b) = ends.resolve(a0, b0) { slot.point(in: s) }
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
