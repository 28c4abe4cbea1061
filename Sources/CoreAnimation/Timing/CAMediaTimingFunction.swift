/// A cubic Bézier timing curve from (0,0) to (1,1), mapping an animation's time fraction to
/// its progress fraction (Apple: `CAMediaTimingFunction`).
///
/// The curve is `P0 = (0,0)`, `P1 = (c1x,c1y)`, `P2 = (c2x,c2y)`, `P3 = (1,1)`; the predefined
/// names use the control points of docs/BEHAVIOUR.md B1. Instances are immutable (as on Apple), which
/// is what makes the `@unchecked Sendable` conformance sound: every stored property is a `let`.
///
/// Evaluation (docs/BEHAVIOUR.md B2–B4) solves `Bx(s) = x` for the curve parameter `s` and returns
/// `By(s)`. The polynomial coefficients and an 11-point sample table of `Bx` are computed once in
/// the initialiser so that ``evaluate(at:)`` performs no allocation and only a handful of
/// multiply-adds per call.
open class CAMediaTimingFunction: NSObject, @unchecked Sendable {
    // Control points exactly as given (Apple's API is single precision).
    private let c1x: Float
    private let c1y: Float
    private let c2x: Float
    private let c2y: Float

    // Power-basis coefficients, B(s) = ((a·s + b)·s + c)·s, per axis (docs/BEHAVIOUR.md B4), in Double.
    private let ax: Double
    private let bx: Double
    private let cx: Double
    private let ay: Double
    private let by: Double
    private let cy: Double

    /// `Bx(i/10)` for i = 0…10, used to pick the bracketing interval and a linear initial guess
    /// for Newton's method (docs/BEHAVIOUR.md B4, current WebKit approach). Entry 0 is exactly 0 and
    /// entry 10 exactly 1, which guarantees a bracket for every x in (0,1).
    private let xSamples: InlineArray<11, Double>

    /// True when the curve is the identity y = x, so evaluation can return x exactly
    /// (docs/BEHAVIOUR.md B2: "Linear is exactly x").
    ///
    /// That holds whenever P1 and P2 both lie on the diagonal (c1x == c1y and c2x == c2y): then
    /// `By ≡ Bx` and every root of `Bx(s) = x` yields y = x. It is also true for a curve with a
    /// non-finite control point, which this implementation deliberately evaluates as linear
    /// (see ``init(controlPoints:_:_:_:)``).
    package let isLinear: Bool

    /// The control points as given: two functions with equal points evaluate alike, so the
    /// frame step shares one evaluation between them (`StepTable`).
    package var controlPointKey: [Float] { [c1x, c1y, c2x, c2y] }

    /// Convergence threshold on |Bx(s) − x| (docs/BEHAVIOUR.md B4 recommendation: ε = 1e-7 in Double).
    private static let epsilon = 1e-7
    /// Newton steps are abandoned for bisection when |Bx'(s)| falls below this (B4).
    private static let derivativeCutoff = 1e-7
    /// At most this many Newton steps before falling back to bisection.
    private static let maxNewtonSteps = 8
    /// Bisection on a 0.1-wide bracket reaches 0.1·2⁻⁶⁰ ≈ 1e-19 in 60 halvings — below Double
    /// resolution in [0,1], so this bounds the loop without ever cutting a useful solve short.
    private static let maxBisectionSteps = 60

    /// Creates a function from one of the predefined names (docs/BEHAVIOUR.md B1).
    ///
    /// Apple raises an Objective-C exception for a name it does not know. Raising is not
    /// available to Swift callers on Linux, so an unknown name yields the **linear** curve —
    /// the same pacing Apple documents for an animation whose `timingFunction` is nil
    /// (docs/BEHAVIOUR.md A4).
    public convenience init(name: CAMediaTimingFunctionName) {
        switch name {
        case .easeIn: self.init(controlPoints: 0.42, 0, 1, 1)
        case .easeOut: self.init(controlPoints: 0, 0, 0.58, 1)
        case .easeInEaseOut: self.init(controlPoints: 0.42, 0, 0.58, 1)
        case .default: self.init(controlPoints: 0.25, 0.1, 0.25, 1)
        default: self.init(controlPoints: 0, 0, 1, 1)  // .linear and unknown names
        }
    }

    /// Creates a function with control points P1 = (c1x, c1y) and P2 = (c2x, c2y)
    /// (Apple's signature). The points are stored exactly as given and reported back by
    /// ``getControlPoint(at:values:)`` (docs/BEHAVIOUR.md B1: "a custom function keeps its points").
    ///
    /// Apple documents c1x and c2x as belonging to [0,1], where `Bx` is monotonic and the solve
    /// has one root (B2). Values outside that range are accepted: the curve may then have several
    /// parameters for the same x, and evaluation returns one of them, found by a bounded bisection
    /// inside a bracket on [0,1] — it always terminates.
    ///
    /// Rule for non-finite input (not covered by Apple's documentation): if any control point
    /// is NaN or infinite, the curve **evaluates as linear**. The coefficients would otherwise be
    /// NaN and poison every animated value.
    public init(controlPoints c1x: Float, _ c1y: Float, _ c2x: Float, _ c2y: Float) {
        self.c1x = c1x
        self.c1y = c1y
        self.c2x = c2x
        self.c2y = c2y

        let allFinite = c1x.isFinite && c1y.isFinite && c2x.isFinite && c2y.isFinite
        isLinear = !allFinite || (c1x == c1y && c2x == c2y)

        // Non-finite points fall back to the linear coefficients so no NaN is ever computed.
        let x1 = allFinite ? Double(c1x) : 0
        let y1 = allFinite ? Double(c1y) : 0
        let x2 = allFinite ? Double(c2x) : 1
        let y2 = allFinite ? Double(c2y) : 1

        // B(s) = 3(1−s)²s·p1 + 3(1−s)s²·p2 + s³ expanded in powers of s (B4).
        let cxv = 3 * x1
        let bxv = 3 * (x2 - x1) - cxv
        cx = cxv
        bx = bxv
        ax = 1 - cxv - bxv
        let cyv = 3 * y1
        let byv = 3 * (y2 - y1) - cyv
        cy = cyv
        by = byv
        ay = 1 - cyv - byv

        var samples = InlineArray<11, Double>(repeating: 0)
        for i in 1..<10 {
            let s = Double(i) / 10
            samples[i] = ((ax * s + bx) * s + cx) * s
        }
        samples[10] = 1
        xSamples = samples

        super.init()
    }

    /// Reads a predefined name (`"easeInEaseOut"`) or `[c1x, c1y, c2x, c2y]`, the scene
    /// format's spelling (`Codable`: see CAMediaTimingFunction+Codable.swift; not Apple API).
    /// `required` because `Decodable` on a non-final class can only be met by a required
    /// initializer in the class body: a subclass that adds designated initializers must
    /// provide it, as Apple's subclasses must provide NSSecureCoding's `init?(coder:)`.
    public required convenience init(from decoder: any Decoder) throws {
        let p = try Self.decodeControlPoints(from: decoder)
        self.init(controlPoints: p[0], p[1], p[2], p[3])
    }

    /// Writes control point `idx` into `ptr[0]` (x) and `ptr[1]` (y) (Apple's signature):
    /// 0 → (0,0), 1 → P1, 2 → P2, 3 → (1,1) (docs/BEHAVIOUR.md B1).
    /// An index outside 0…3 leaves the buffer untouched (Apple gives no result there either).
    public func getControlPoint(at idx: Int, values ptr: UnsafeMutablePointer<Float>) {
        switch idx {
        case 0: ptr[0] = 0; ptr[1] = 0
        case 1: ptr[0] = c1x; ptr[1] = c1y
        case 2: ptr[0] = c2x; ptr[1] = c2y
        case 3: ptr[0] = 1; ptr[1] = 1
        default: return
        }
    }

    /// The curve's output y for the input time fraction `x`.
    ///
    /// **Not Apple API**: Apple keeps this private (`-_solveForInput:`); it is public here so
    /// renderers and tests can drive animations without reflection.
    ///
    /// - `x` is clamped to [0,1] as Apple does (docs/BEHAVIOUR.md B3: linear at −0.5 gives 0, at 1.5
    ///   gives 1). WebKit extrapolates along the end tangents instead; that is deliberately not
    ///   copied.
    /// - Returns exactly 0 at x ≤ 0 and exactly 1 at x ≥ 1 (B2: every named function gives 0
    ///   at 0 and 1 at 1), and exactly `x` for a linear curve.
    /// - A NaN input returns 0 — the start of the curve — so a bad time never yields a NaN value.
    /// - The output is not clamped: a custom curve with y control points outside [0,1]
    ///   overshoots by design.
    public func evaluate(at x: Double) -> Double {
        guard x > 0 else { return 0 }  // also catches NaN
        guard x < 1 else { return 1 }
        if isLinear { return x }
        let s = solveParameter(forX: x).parameter
        return ((ay * s + by) * s + cy) * s
    }

    /// Solves Bx(s) = x for s ∈ [0,1], given x ∈ (0,1) (docs/BEHAVIOUR.md B4).
    ///
    /// 1. Find the first sample interval [i/10, (i+1)/10] whose right end exceeds x; its left
    ///    end is then ≤ x, so it brackets a root even when Bx is not monotonic.
    /// 2. Newton's method from the linearly interpolated guess, stopping when |Bx(s) − x| < ε.
    ///    A step is rejected (→ bisection) if the derivative is nearly zero or if it leaves the
    ///    bracket, which is where plain Newton diverges (linear/easeIn near 1, easeOut near 0).
    /// 3. Bisection inside the bracket, bounded by `maxBisectionSteps`.
    ///
    /// Also returns how many evaluations of Bx the solve took, so tests can check that Newton
    /// does the work (the count is dead code in ``evaluate(at:)`` and optimised away).
    /// Package-visible for tests only; `x` must lie in (0,1).
    @inline(__always)
    package func solveParameter(forX x: Double) -> (parameter: Double, iterations: Int) {
        var i = 0
        while i < 9 && !(xSamples[i + 1] > x) { i += 1 }
        let x0 = xSamples[i]
        let x1 = xSamples[i + 1]
        var lo = Double(i) / 10
        var hi = Double(i + 1) / 10

        // x0 ≤ x < x1, so the denominator is positive.
        var s = lo + (x - x0) / (x1 - x0) * 0.1

        var iterations = 0
        for _ in 0..<Self.maxNewtonSteps {
            iterations += 1
            let err = ((ax * s + bx) * s + cx) * s - x
            if abs(err) < Self.epsilon { return (s, iterations) }
            // Keep the bracket tight with every evaluation; it feeds the bisection fallback.
            if err < 0 { lo = s } else { hi = s }
            let d = (3 * ax * s + 2 * bx) * s + cx
            if abs(d) < Self.derivativeCutoff { break }
            let next = s - err / d
            if !(next > lo && next < hi) { break }
            s = next
        }

        for _ in 0..<Self.maxBisectionSteps {
            iterations += 1
            s = (lo + hi) * 0.5
            let err = ((ax * s + bx) * s + cx) * s - x
            if abs(err) < Self.epsilon { return (s, iterations) }
            if err < 0 { lo = s } else { hi = s }
        }
        return ((lo + hi) * 0.5, iterations)
    }

    // MARK: - Equality

    /// Two timing functions are equal when their control points are equal, so `.easeIn` equals
    /// a custom function with the points (0.42,0) (1,1). Value equality suits an immutable object
    /// and lets animations compare their timing; Apple does not document its `-isEqual:` here,
    /// so this is a project choice. NaN points compare equal to NaN so equality stays reflexive.
    open override func isEqual(_ object: Any?) -> Bool {
        guard let other = object as? CAMediaTimingFunction else { return false }
        if other === self { return true }
        return Self.same(c1x, other.c1x) && Self.same(c1y, other.c1y)
            && Self.same(c2x, other.c2x) && Self.same(c2y, other.c2y)
    }

    open override var hash: Int {
        // Canonicalise NaN payloads so equal functions hash equally (Float's own hashing
        // already merges +0 and −0).
        func canonical(_ v: Float) -> Float { v.isNaN ? Float.nan : v }
        var hasher = Hasher()
        hasher.combine(canonical(c1x))
        hasher.combine(canonical(c1y))
        hasher.combine(canonical(c2x))
        hasher.combine(canonical(c2y))
        return hasher.finalize()
    }

    open override var description: String {
        "<CAMediaTimingFunction: (\(c1x), \(c1y)) (\(c2x), \(c2y))>"
    }

    private static func same(_ a: Float, _ b: Float) -> Bool {
        a == b || (a.isNaN && b.isNaN)
    }
}
