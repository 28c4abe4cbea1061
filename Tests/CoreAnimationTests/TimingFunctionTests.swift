import Testing
@testable import CoreAnimation

/// Tests for CAMediaTimingFunction / CAMediaTimingFunctionName against docs/BEHAVIOUR.md A1 and B.
@Suite("Timing functions")
struct TimingFunctionTests {
    // MARK: helpers

    private static func point(_ f: CAMediaTimingFunction, _ idx: Int) -> (Float, Float) {
        var values: [Float] = [-7, -7]
        values.withUnsafeMutableBufferPointer { buffer in
            if let base = buffer.baseAddress { f.getControlPoint(at: idx, values: base) }
        }
        return (values[0], values[1])
    }

    /// Independent reference: 200-step bisection of Bx(s) = x on [0,1] (monotonic curves only).
    private static func reference(
        _ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, at x: Double
    ) -> Double {
        func bezier(_ p1: Double, _ p2: Double, _ s: Double) -> Double {
            let u = 1 - s
            return 3 * u * u * s * p1 + 3 * u * s * s * p2 + s * s * s
        }
        var lo = 0.0, hi = 1.0
        for _ in 0..<200 {
            let mid = (lo + hi) / 2
            if bezier(x1, x2, mid) < x { lo = mid } else { hi = mid }
        }
        return bezier(y1, y2, (lo + hi) / 2)
    }

    private static let names: [CAMediaTimingFunctionName] =
        [.linear, .easeIn, .easeOut, .easeInEaseOut, .default]

    // MARK: A1

    @Test("A1 timing function names have Apple's raw values")
    func a1RawValues() {
        #expect(CAMediaTimingFunctionName.linear.rawValue == "linear")
        #expect(CAMediaTimingFunctionName.easeIn.rawValue == "easeIn")
        #expect(CAMediaTimingFunctionName.easeOut.rawValue == "easeOut")
        #expect(CAMediaTimingFunctionName.easeInEaseOut.rawValue == "easeInEaseOut")
        #expect(CAMediaTimingFunctionName.default.rawValue == "default")
        #expect(CAMediaTimingFunctionName(rawValue: "easeIn") == .easeIn)
        #expect(CAMediaTimingFunctionName("default") == .default)
    }

    // MARK: B1

    @Test(
        "B1 control points of the named functions",
        arguments: [
            (CAMediaTimingFunctionName.linear, Float(0), Float(0), Float(1), Float(1)),
            (.easeIn, 0.42, 0, 1, 1),
            (.easeOut, 0, 0, 0.58, 1),
            (.easeInEaseOut, 0.42, 0, 0.58, 1),
            (.default, 0.25, 0.1, 0.25, 1),
        ])
    func b1NamedControlPoints(
        name: CAMediaTimingFunctionName, c1x: Float, c1y: Float, c2x: Float, c2y: Float
    ) {
        let f = CAMediaTimingFunction(name: name)
        #expect(Self.point(f, 0) == (0, 0))
        #expect(Self.point(f, 1) == (c1x, c1y))
        #expect(Self.point(f, 2) == (c2x, c2y))
        #expect(Self.point(f, 3) == (1, 1))
    }

    @Test("B1 a custom function keeps its control points")
    func b1CustomControlPoints() {
        let f = CAMediaTimingFunction(controlPoints: 0.1, 0.2, 0.3, 0.4)
        #expect(Self.point(f, 0) == (0, 0))
        #expect(Self.point(f, 1) == (0.1, 0.2))
        #expect(Self.point(f, 2) == (0.3, 0.4))
        #expect(Self.point(f, 3) == (1, 1))
        // Out-of-range y (overshoot curves) and x are kept as given too.
        let g = CAMediaTimingFunction(controlPoints: -0.5, -1, 1.5, 2)
        #expect(Self.point(g, 1) == (-0.5, -1))
        #expect(Self.point(g, 2) == (1.5, 2))
    }

    @Test("B1 an index outside 0...3 leaves the buffer untouched")
    func b1IndexOutOfRange() {
        let f = CAMediaTimingFunction(name: .easeIn)
        #expect(Self.point(f, -1) == (-7, -7))
        #expect(Self.point(f, 4) == (-7, -7))
        #expect(Self.point(f, Int.max) == (-7, -7))
    }

    @Test("B1 an unknown name gives the linear curve (Apple raises)")
    func b1UnknownName() {
        let f = CAMediaTimingFunction(name: CAMediaTimingFunctionName(rawValue: "bouncy"))
        #expect(Self.point(f, 1) == (0, 0))
        #expect(Self.point(f, 2) == (1, 1))
        #expect(f.isLinear)
        #expect(f.evaluate(at: 0.3) == 0.3)
    }

    // MARK: B2

    /// docs/BEHAVIOUR.md B2 table: the bracketed high-precision values where given, otherwise
    /// Apple's `_solveForInput:` values.
    @Test(
        "B2 evaluation table",
        arguments: [
            ("easeIn", Float(0.42), Float(0), Float(1), Float(1),
             [0.017027, 0.093465, 0.315357, 0.621862, 0.839428]),
            ("easeOut", 0, 0, 0.58, 1,
             [0.160572, 0.378138, 0.684643, 0.906535, 0.982973]),
            ("easeInEaseOut", 0.42, 0, 0.58, 1,
             [0.019722, 0.129162, 0.5, 0.870838, 0.980278]),
            ("(0.5,0,0.5,1)", 0.5, 0, 0.5, 1,
             [0.014622, 0.105893, 0.5, 0.894107, 0.985378]),
            ("default", 0.25, 0.1, 0.25, 1,
             [0.094796, 0.408511, 0.802403, 0.960459, 0.994316]),
        ])
    func b2Table(
        label: String, c1x: Float, c1y: Float, c2x: Float, c2y: Float, expected: [Double]
    ) {
        let f = CAMediaTimingFunction(controlPoints: c1x, c1y, c2x, c2y)
        let inputs = [0.1, 0.25, 0.5, 0.75, 0.9]
        for (x, y) in zip(inputs, expected) {
            let got = f.evaluate(at: x)
            #expect(abs(got - y) < 1e-5, "\(label) at \(x): got \(got), expected \(y)")
        }
    }

    @Test("B2 named functions match the table via init(name:)")
    func b2NamedTable() {
        let cases: [(CAMediaTimingFunctionName, Double, Double)] = [
            (.easeIn, 0.5, 0.315357), (.easeOut, 0.25, 0.378138),
            (.easeInEaseOut, 0.75, 0.870838), (.default, 0.25, 0.408511),
            (.default, 0.9, 0.994316),
        ]
        for (name, x, y) in cases {
            #expect(abs(CAMediaTimingFunction(name: name).evaluate(at: x) - y) < 1e-5)
        }
    }

    @Test("B2 linear is exactly x; every named function gives 0 at 0 and 1 at 1")
    func b2Endpoints() {
        let linear = CAMediaTimingFunction(name: .linear)
        #expect(linear.isLinear)
        for i in 0...100 {
            let x = Double(i) / 100
            #expect(linear.evaluate(at: x) == x)
        }
        for name in Self.names {
            let f = CAMediaTimingFunction(name: name)
            #expect(f.evaluate(at: 0) == 0)
            #expect(f.evaluate(at: 1) == 1)
        }
        #expect(!CAMediaTimingFunction(name: .easeIn).isLinear)
        #expect(CAMediaTimingFunction(controlPoints: 0.3, 0.3, 0.8, 0.8).isLinear)
    }

    @Test("B2/B4 solver agrees with an independent bisection on a dense grid")
    func b4DenseGrid() {
        let curves: [(Float, Float, Float, Float)] = [
            (0.42, 0, 1, 1), (0, 0, 0.58, 1), (0.42, 0, 0.58, 1), (0.25, 0.1, 0.25, 1),
            (0.5, 0, 0.5, 1), (1, 0, 0, 1), (0, 1, 1, 0), (0.68, -0.55, 0.265, 1.55),
            (1, 0, 1, 1), (0, 0, 0, 1),
        ]
        for (a, b, c, d) in curves {
            let f = CAMediaTimingFunction(controlPoints: a, b, c, d)
            var worst = 0.0
            for i in 1..<1000 {
                let x = Double(i) / 1000
                let want = Self.reference(Double(a), Double(b), Double(c), Double(d), at: x)
                worst = max(worst, abs(f.evaluate(at: x) - want))
            }
            // ε = 1e-7 on x; the y error stays within a small multiple of it except where
            // dy/dx is large, and 1e-5 is docs/BEHAVIOUR.md's tolerance.
            #expect(worst < 1e-5, "curve (\(a),\(b),\(c),\(d)) worst error \(worst)")
        }
    }

    @Test("B4 Newton from the sampled guess meets ε = 1e-7 in ≤ 4 evaluations (≤ 6 at the ends)")
    func b4NewtonConvergence() {
        let curves: [(Float, Float, Float, Float)] = [
            (0.42, 0, 1, 1), (0, 0, 0.58, 1), (0.42, 0, 0.58, 1), (0.25, 0.1, 0.25, 1),
            (0.5, 0, 0.5, 1),
        ]
        for (a, b, c, d) in curves {
            let f = CAMediaTimingFunction(controlPoints: a, b, c, d)
            let x1 = Double(a), x2 = Double(c)
            // Near an end where Bx' → 0 (easeIn at x → 1, easeOut at x → 0) Newton needs a
            // step or two more; bisection alone would need ~20 evaluations.
            var worstIterations = 0
            var worstInterior = 0
            for i in 1..<1000 {
                let x = Double(i) / 1000
                let (s, iterations) = f.solveParameter(forX: x)
                let u = 1 - s
                let bx = 3 * u * u * s * x1 + 3 * u * s * s * x2 + s * s * s
                #expect(abs(bx - x) < 1e-7, "(\(a),\(b),\(c),\(d)) x=\(x)")
                worstIterations = max(worstIterations, iterations)
                if i >= 50 && i <= 950 { worstInterior = max(worstInterior, iterations) }
            }
            #expect(worstIterations <= 6, "(\(a),\(b),\(c),\(d)) took \(worstIterations)")
            #expect(worstInterior <= 4, "(\(a),\(b),\(c),\(d)) took \(worstInterior)")
        }
    }

    @Test("B2 named curves are monotonic non-decreasing")
    func b2Monotonic() {
        for name in Self.names {
            let f = CAMediaTimingFunction(name: name)
            var previous = 0.0
            for i in 0...2000 {
                let y = f.evaluate(at: Double(i) / 2000)
                #expect(y >= previous - 1e-9, "\(name.rawValue) decreases at \(i)")
                previous = y
            }
        }
    }

    // MARK: B3

    @Test("B3 input outside [0,1] is clamped, not extrapolated")
    func b3Clamping() {
        for name in Self.names {
            let f = CAMediaTimingFunction(name: name)
            #expect(f.evaluate(at: -0.5) == 0)
            #expect(f.evaluate(at: 1.5) == 1)
            #expect(f.evaluate(at: -.infinity) == 0)
            #expect(f.evaluate(at: .infinity) == 1)
        }
        // A curve with non-zero end slopes would extrapolate (WebKit) — here it must not.
        let steep = CAMediaTimingFunction(controlPoints: 0.1, 0.6, 0.9, 0.4)
        #expect(steep.evaluate(at: -0.5) == 0)
        #expect(steep.evaluate(at: 1.5) == 1)
    }

    // MARK: B6

    @Test("B6 easeIn(x) + easeOut(1 - x) = 1")
    func b6Symmetry() {
        let easeIn = CAMediaTimingFunction(name: .easeIn)
        let easeOut = CAMediaTimingFunction(name: .easeOut)
        for i in 0...50 {
            let x = Double(i) / 50
            let sum = easeIn.evaluate(at: x) + easeOut.evaluate(at: 1 - x)
            #expect(abs(sum - 1) < 1e-6, "x = \(x): sum \(sum)")
        }
        #expect(abs(easeIn.evaluate(at: 0.5) - 0.315357) < 1e-5)
        #expect(abs(easeOut.evaluate(at: 0.5) - 0.684643) < 1e-5)
    }

    @Test("B6 worked presentation values")
    func b6WorkedValues() {
        let eio = CAMediaTimingFunction(name: .easeInEaseOut)
        #expect(abs(eio.evaluate(at: 0.25) - 0.129162) < 1e-5)
        // Not exactly 0.5: Float(0.42) and Float(0.58) are not symmetric about 0.5, which moves
        // the curve by ~1.9e-8 (Apple stores single precision too).
        #expect(abs(eio.evaluate(at: 0.5) - 0.5) < 1e-7)
        #expect(abs(eio.evaluate(at: 0.75) - 0.870838) < 1e-5)
        // position (0,0) → (100,200), duration 2, default curve, at t = 1 → (80.2403, 160.4806)
        let p = CAMediaTimingFunction(name: .default).evaluate(at: 1.0 / 2.0)
        #expect(abs(100 * p - 80.2403) < 1e-3)
        #expect(abs(200 * p - 160.4806) < 1e-3)
    }

    // MARK: Equality

    @Test("Equality and hashing follow the control points")
    func equality() {
        let a = CAMediaTimingFunction(name: .easeIn)
        let b = CAMediaTimingFunction(controlPoints: 0.42, 0, 1, 1)
        let c = CAMediaTimingFunction(name: .easeOut)
        #expect(a == b)
        #expect(a.isEqual(b))
        #expect(a.hash == b.hash)
        #expect(a != c)
        #expect(!a.isEqual("easeIn"))
        #expect(!a.isEqual(nil))
        let nan = CAMediaTimingFunction(controlPoints: .nan, 0, 1, 1)
        #expect(nan == CAMediaTimingFunction(controlPoints: .nan, 0, 1, 1))
        #expect(nan != CAMediaTimingFunction(name: .linear))
    }

    // MARK: Bad input

    @Test("Bad input: non-finite control points evaluate as linear")
    func badNaNControlPoints() {
        for f in [
            CAMediaTimingFunction(controlPoints: .nan, 0, 1, 1),
            CAMediaTimingFunction(controlPoints: 0.42, .nan, 0.58, 1),
            CAMediaTimingFunction(controlPoints: 0, 0, .infinity, 1),
            CAMediaTimingFunction(controlPoints: 0.42, 0, 0.58, -.infinity),
        ] {
            #expect(f.isLinear)
            for x in [0.0, 0.1, 0.5, 0.9, 1.0] {
                #expect(f.evaluate(at: x) == x)
            }
        }
        let (x1, y1) = Self.point(CAMediaTimingFunction(controlPoints: .nan, 0, 1, 1), 1)
        #expect(x1.isNaN)
        #expect(y1 == 0)
    }

    @Test("Bad input: NaN x returns 0")
    func badNaNInput() {
        for name in Self.names {
            #expect(CAMediaTimingFunction(name: name).evaluate(at: .nan) == 0)
        }
        #expect(CAMediaTimingFunction(controlPoints: 0.9, 0.1, 0.1, 0.9).evaluate(at: .nan) == 0)
    }

    @Test("Bad input: x control points outside [0,1] still terminate with a root")
    func badNonMonotonicCurve() {
        let curves: [(Float, Float, Float, Float)] = [
            (-0.5, 0, 1.5, 1), (2, 0, -1, 1), (5, 0.3, -4, 0.7), (1e6, 0, -1e6, 1),
        ]
        for (a, b, c, d) in curves {
            let f = CAMediaTimingFunction(controlPoints: a, b, c, d)
            for i in 0...200 {
                let x = Double(i) / 200
                let y = f.evaluate(at: x)
                #expect(y.isFinite)
                // y control points lie in [0,1], so the curve's y stays in their convex hull.
                #expect(y >= -1e-9 && y <= 1 + 1e-9, "(\(a),\(b),\(c),\(d)) x=\(x) y=\(y)")
            }
        }
    }
}
