/// A compiled animation reduced to plain values: its timing, its easing, its curve and the slot
/// it writes. The frame step runs a layer's tracks in a tight loop instead of calling class
/// evaluators through closures and boxed values (issue 3: "compile animations into typed
/// evaluators at commit time"). Only the common case compiles to a track — a top-level basic,
/// spring or non-cubic keyframe animation of a number or point slot (for a colour slot, basic
/// or spring, not `byValue`), replacing rather than adding, not cumulative, without a value function or rotation mode; a layer whose every
/// animation is such a case evaluates through tracks, others through `AnimationEvaluator`s.
/// The two paths compute the same values (E1, F2–F5, G1), bit for bit: `FastTrackTests` pins
/// cases, and `EvaluationPathAgreementTests` compares this path, the step's table (`StepTable`)
/// and the general evaluators over thousands of random animations. Why a second path is kept
/// (the timing-benchmark figures: 100k layers 92 ms per step with tracks against 260–331 ms on
/// the general evaluators, 3.64 ms in the table): see `StepTable`.
///
/// References are unowned: the plan that holds the tracks also holds the evaluators that own
/// the timing function and the keyframe curve, so the loop copies plain bytes.
package struct FastTrack {
    /// How a basic or spring animation's two values derive from from/to/by and the underlying
    /// value P (docs/BEHAVIOUR.md E1, `BasicEndpoints`): `a` and `b` hold what was given.
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

        /// Colours: `by` is not a colour track (`FastTrack.init` refuses it), so it resolves to P.
        @inline(__always)
        func resolve(_ a: CGColor?, _ b: CGColor?, _ p: () -> CGColor?) -> (CGColor?, CGColor?) {
            switch self {
            case .fromTo: return (a, b)
            case .fromOnly: return (a, p())
            case .toOnly: return (p(), b)
            case .byOnly: let u = p(); return (u, u)
            case .implicit(let hasFrom): let u = p(); return (hasFrom ? a : u, u)
            }
        }

        var isBy: Bool { if case .byOnly = self { return true }; return false }

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
        /// A basic or spring colour animation (the spring's progress when there is one); a given
        /// nil colour is transparent black to the interpolation (`AnimValue.lerpOptionalColor`).
        case color(CGColor?, CGColor?, Ends, SpringSolver?)
        // Unowned (the plan holds the curve): strong, timing-benchmark 1000 under callgrind
        // steps in 5.7% more instructions (`TimingEngine.step` 49.56 → 52.38 M).
        case keyNumbers(Unmanaged<KeyframeCurve>)
        case keyPoints(Unmanaged<KeyframeCurve>)
    }

    let timing: MediaTimingValues
    let removedOnCompletion: Bool
    /// `Unmanaged`, not an `unowned(unsafe)` optional: Swift 6.3 made an `Optional<FastTrack>`
    /// holding a nil `unowned(unsafe)` optional read as nil itself (the failable init then
    /// appeared to fail whenever the animation had no timing function). Not strong: see
    /// `TimingGroup.function` (+4.2% step instructions).
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
            if slot.isColor {
                // `by` adds colours component-wise on the general path: left to it.
                guard !ends.isBy, let a = Self.color(given.0), let b = Self.color(given.1) else { return nil }
                curve = .color(a, b, ends, solver)
            } else if slot.isPoint {
                guard let a = Self.point(given.0), let b = Self.point(given.1) else { return nil }
                curve = solver.map { .springPoint(a, b, ends, $0) } ?? .point(a, b, ends)
            } else {
                guard let a = Self.number(given.0), let b = Self.number(given.1) else { return nil }
                curve = solver.map { .springNumber(a, b, ends, $0) } ?? .number(a, b, ends)
            }
        case .keyframes(let k) where !slot.isPoint && !slot.isColor && k.numbers != nil: curve = .keyNumbers(.passUnretained(k))
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

    /// A given colour: `.some(nil)` for a nil colour (`.null`) and for one not given (a
    /// placeholder that `ends` replaces by P); nil for a value of another kind.
    private static func color(_ v: AnimValue?) -> CGColor?? {
        guard let v else { return .some(nil) }
        switch v {
        case .color(let c): return .some(c)
        case .null: return .some(nil)
        default: return nil
        }
    }

    private static func point(_ v: AnimValue?) -> CGPoint? {
        guard let v else { return .zero }
        if case .point(let p) = v { return p }
        return nil
    }

    /// Writes the animation's value at `parentTime` (the layer's local time) into `s` — what
    /// `PropertyEvaluator.apply` does for the same animation.
    @inline(__always)
    func apply(into s: SlotTarget, parentTime: Double) {
        guard let sample = timing.sample(parentTime, removedOnCompletion: removedOnCompletion) else { return }
        switch curve {
        case let .number(a0, b0, ends):
            let (a, b) = ends.resolve(a0, b0) { slot.number(in: s) }
            slot.write(a + (b - a) * eased(sample.fraction), into: s)
        case let .point(a0, b0, ends):
            let (a, b) = ends.resolve(a0, b0) { slot.point(in: s) }
            let t = eased(sample.fraction)
            slot.write(CGPoint(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t), into: s)
        case let .springNumber(a0, b0, ends, solver):
            let (a, b) = ends.resolve(a0, b0) { slot.number(in: s) }
            slot.write(a + (b - a) * solver.value(at: sample.basicTime), into: s)
        case let .springPoint(a0, b0, ends, solver):
            let (a, b) = ends.resolve(a0, b0) { slot.point(in: s) }
            let t = solver.value(at: sample.basicTime)
            slot.write(CGPoint(x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t), into: s)
        case let .color(a0, b0, ends, solver):
            let (a, b) = ends.resolve(a0, b0) { slot.color(in: s) }
            let t = solver.map { $0.value(at: sample.basicTime) } ?? eased(sample.fraction)
            slot.write(color: AnimValue.lerpOptionalColor(a, b, t), into: s)
        case let .keyNumbers(k):
            let f = eased(sample.fraction)
            let v = k._withUnsafeGuaranteedRef { c in c.numbers!.withUnsafeBufferPointer { c.numberValue(at: f, $0) } }
            slot.write(v, into: s)
        case let .keyPoints(k):
            let f = eased(sample.fraction)
            let v = k._withUnsafeGuaranteedRef { c in c.points!.withUnsafeBufferPointer { c.pointValue(at: f, $0) } }
            slot.write(v, into: s)
        }
    }

    @inline(__always) private func eased(_ f: Double) -> Double {
        guard let tf = timingFunction else { return f }
        return tf._withUnsafeGuaranteedRef { $0.evaluate(at: f) }
    }
}
