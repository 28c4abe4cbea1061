import Testing
@testable import CoreAnimation

/// Tests for SpringSolver against docs/BEHAVIOUR.md G1–G5 (and A4's spring defaults).
@Suite("Spring solver")
struct SpringSolverTests {
    private static func near(_ a: Double, _ b: Double, _ tolerance: Double) -> Bool {
        abs(a - b) <= tolerance
    }

    /// Numerical derivatives by central differences.
    private static func derivatives(_ s: SpringSolver, at t: Double, h: Double = 1e-4)
        -> (d1: Double, d2: Double)
    {
        let a = s.value(at: t - h), b = s.value(at: t), c = s.value(at: t + h)
        return ((c - a) / (2 * h), (c - 2 * b + a) / (h * h))
    }

    // MARK: A4 / G1

    @Test("A4 spring defaults are mass 1, stiffness 100, damping 10, velocity 0, no overdamping")
    func a4Defaults() {
        let s = SpringSolver()
        #expect(s.mass == 1)
        #expect(s.stiffness == 100)
        #expect(s.damping == 10)
        #expect(s.initialVelocity == 0)
        #expect(s.allowsOverdamping == false)
    }

    @Test(
        "G1 every regime starts at 0 with velocity v0 and satisfies m·x'' + c·x' + k·(x − 1) = 0",
        arguments: [
            (1.0, 100.0, 10.0, 0.0, false),  // underdamped
            (1.0, 100.0, 20.0, 0.0, false),  // critical
            (1.0, 100.0, 40.0, 0.0, true),  // overdamped
            (2.0, 50.0, 3.0, 4.0, false),  // underdamped with velocity
            (1.0, 100.0, 20.0, -5.0, false),  // critical with velocity away from target
            (0.5, 200.0, 60.0, 10.0, true),  // overdamped with velocity
        ])
    func g1Ode(m: Double, k: Double, c: Double, v0: Double, overdamp: Bool) {
        let s = SpringSolver(
            mass: m, stiffness: k, damping: c, initialVelocity: v0, allowsOverdamping: overdamp)
        #expect(s.value(at: 0) == 0)
        let h = 1e-6
        let startVelocity = (s.value(at: h) - s.value(at: 0)) / h
        #expect(Self.near(startVelocity, v0, 1e-3 * max(1, abs(v0)) + 1e-3))
        for t in [0.05, 0.1, 0.3, 0.7, 1.5] {
            let x = s.value(at: t)
            let (d1, d2) = Self.derivatives(s, at: t)
            let residual = m * d2 + c * d1 + k * (x - 1)
            #expect(abs(residual) < 1e-2 * k, "t = \(t): residual \(residual)")
        }
    }

    @Test("G1 without allowsOverdamping, damping above critical behaves as critical")
    func g1OverdampingDisallowed() {
        let critical = SpringSolver(damping: 20)
        let heavy = SpringSolver(damping: 100)
        let heavyAllowed = SpringSolver(damping: 100, allowsOverdamping: true)
        for t in stride(from: 0.0, through: 2.0, by: 0.05) {
            #expect(heavy.value(at: t) == critical.value(at: t))
        }
        // With overdamping allowed the same spring creeps towards 1 much more slowly.
        #expect(heavyAllowed.value(at: 0.5) < critical.value(at: 0.5) - 0.3)
        #expect(heavyAllowed.value(at: 0.5) > 0)
    }

    @Test("G1 t < 0 and NaN t give 0; t = +∞ gives 1")
    func g1TimeEdges() {
        for s in [
            SpringSolver(), SpringSolver(damping: 20),
            SpringSolver(damping: 50, allowsOverdamping: true),
        ] {
            #expect(s.value(at: -0.1) == 0)
            #expect(s.value(at: -.infinity) == 0)
            #expect(s.value(at: .nan) == 0)
            #expect(s.value(at: .infinity) == 1)
            #expect(abs(s.value(at: 1e6) - 1) < 1e-12)
        }
    }

    // MARK: G2

    @Test("G2 default spring table")
    func g2Table() {
        let s = SpringSolver()
        let table: [(Double, Double)] = [
            (0.05, 0.104405), (0.1, 0.340300), (0.2, 0.849426), (0.3, 1.124355),
            (0.36276, 1.163034), (0.5, 1.074591), (0.75, 0.974152), (1.0, 1.002170),
        ]
        for (t, x) in table {
            let got = s.value(at: t)
            #expect(Self.near(got, x, 1e-5), "t = \(t): got \(got), expected \(x)")
        }
    }

    @Test("G2 overshoot peak is 16.3 % at t = π/ωd")
    func g2Peak() {
        let s = SpringSolver()
        let peakTime = Double.pi / (10 * (0.75).squareRoot())
        #expect(Self.near(peakTime, 0.36276, 1e-5))
        let peak = s.value(at: peakTime)
        #expect(Self.near(peak - 1, 0.163, 5e-4))
        #expect(s.value(at: peakTime - 0.01) < peak)
        #expect(s.value(at: peakTime + 0.01) < peak)
    }

    @Test("G2 critical damping (c = 20) values")
    func g2Critical() {
        let s = SpringSolver(damping: 20)
        let table: [(Double, Double)] = [
            (0.1, 0.264241), (0.2, 0.593994), (0.5, 0.959572), (1.0, 0.999501),
        ]
        for (t, x) in table {
            let got = s.value(at: t)
            #expect(Self.near(got, x, 1e-5), "t = \(t): got \(got), expected \(x)")
        }
    }

    // MARK: G3

    @Test("G3 settlingDuration matches Apple's measured values")
    func g3Settling() {
        #expect(Self.near(SpringSolver().settlingDuration, 1.4727003346780927, 1e-9))
        #expect(Self.near(SpringSolver(damping: 1).settlingDuration, 13.91321015404625, 1e-9))
        #expect(SpringSolver(damping: 20).settlingDuration == 1.0)
        #expect(SpringSolver(damping: 100).settlingDuration == 1.0)
    }

    @Test("G3 underdamped settling is an envelope estimate, later than the last 1e-3 crossing")
    func g3EnvelopeNotCrossing() {
        let s = SpringSolver()
        // After the estimate the spring is inside the 1e-3 band for good …
        for i in 0...2000 {
            let t = s.settlingDuration + Double(i) * 0.005
            #expect(abs(s.value(at: t) - 1) < 1e-3)
        }
        // … but the actual last exit from the band (≈ 1.2701 s) is earlier.
        #expect(abs(s.value(at: 1.26) - 1) >= 1e-3)
    }

    @Test("G3 critical/overdamped settling lands on a 0.1 s grid and is settled there")
    func g3GridRule() {
        for s in [
            SpringSolver(stiffness: 50, damping: 30, allowsOverdamping: true),
            SpringSolver(stiffness: 300, damping: 80, allowsOverdamping: true),
            SpringSolver(stiffness: 400, damping: 40),
            SpringSolver(damping: 20, initialVelocity: 30),
        ] {
            let d = s.settlingDuration
            #expect(d > 0)
            #expect(Self.near(d * 10, (d * 10).rounded(), 1e-9))
            #expect(abs(s.value(at: d) - 1) < 1e-3)
            // One step earlier the spring is not yet settled (v0 ≥ 0 cases here).
            #expect(abs(s.value(at: d - 0.1) - 1) >= 1e-3 * 0.5)
        }
    }

    // MARK: G4

    @Test("G4 perceptual (0.5, 0.3) gives (1, 157.9, 17.6)")
    func g4SwiftUIExample() {
        let p = SpringSolver.parameters(perceptualDuration: 0.5, bounce: 0.3)
        #expect(p.mass == 1)
        #expect(Self.near(p.stiffness, 157.9, 0.05))
        #expect(Self.near(p.damping, 17.6, 0.05))
        #expect(Self.near(p.stiffness, 16 * Double.pi * Double.pi, 1e-9))
        #expect(Self.near(p.damping, 4 * Double.pi * 0.7 / 0.5, 1e-9))
    }

    @Test("G4 perceptual (1, 0.5) gives k = 4π², c = 2π, settlingDuration ≈ 2.3439")
    func g4OneSecondHalfBounce() {
        let p = SpringSolver.parameters(perceptualDuration: 1, bounce: 0.5)
        #expect(Self.near(p.stiffness, 4 * Double.pi * Double.pi, 1e-9))
        #expect(Self.near(p.damping, 2 * Double.pi, 1e-9))
        let s = SpringSolver(
            mass: p.mass, stiffness: p.stiffness, damping: p.damping, allowsOverdamping: true)
        #expect(Self.near(s.settlingDuration, 2.3439, 1e-4))
    }

    @Test("G4 default spring reads perceptualDuration 0.6283 and bounce 0.5")
    func g4DefaultReads() {
        #expect(Self.near(SpringSolver.perceptualDuration(mass: 1, stiffness: 100), 0.6283, 1e-4))
        #expect(Self.near(SpringSolver.bounce(mass: 1, stiffness: 100, damping: 10), 0.5, 1e-12))
        // SwiftUI doc: Spring(mass: 1, stiffness: 100, damping: 10) → (0.63, 0.5)
        #expect(Self.near(SpringSolver.perceptualDuration(mass: 1, stiffness: 100), 0.63, 0.005))
    }

    @Test("G4 negative bounce: ζ = 1/(1 + bounce), bounce reads back as 1/ζ − 1")
    func g4NegativeBounce() {
        let p = SpringSolver.parameters(perceptualDuration: 1, bounce: -0.5)
        // ζ = 2 → damping = 2ζ√k = 4·2π
        #expect(Self.near(p.damping, 8 * Double.pi, 1e-9))
        #expect(Self.near(SpringSolver.bounce(mass: 1, stiffness: p.stiffness, damping: p.damping),
                          -0.5, 1e-12))
    }

    @Test("G4 round trip duration/bounce → parameters → duration/bounce")
    func g4RoundTrip() {
        for duration in [0.2, 0.5, 1.0, 3.0] {
            for bounce in [-0.9, -0.3, 0.0, 0.25, 0.6, 0.95] {
                let p = SpringSolver.parameters(perceptualDuration: duration, bounce: bounce)
                let d = SpringSolver.perceptualDuration(mass: p.mass, stiffness: p.stiffness)
                let b = SpringSolver.bounce(mass: p.mass, stiffness: p.stiffness, damping: p.damping)
                #expect(Self.near(d, duration, 1e-12))
                #expect(Self.near(b, bounce, 1e-12))
            }
        }
    }

    @Test("G4 bounce −1 gives infinite damping: value jumps to 1, settlingDuration 0")
    func g4BounceMinusOne() {
        let p = SpringSolver.parameters(perceptualDuration: 1, bounce: -1)
        #expect(p.damping == .infinity)
        let s = SpringSolver(
            mass: p.mass, stiffness: p.stiffness, damping: p.damping, allowsOverdamping: true)
        #expect(s.settlingDuration == 0)
        #expect(s.value(at: -0.1) == 0)
        for t in [0.0, 0.01, 0.5, 10] { #expect(s.value(at: t) == 1) }
        #expect(SpringSolver.bounce(mass: 1, stiffness: p.stiffness, damping: .infinity) == -1)
        // Without overdamping the same damping behaves as critical (G1), never NaN.
        let critical = SpringSolver(stiffness: p.stiffness, damping: .infinity)
        #expect(critical.value(at: 0.5) == SpringSolver(
            stiffness: p.stiffness, damping: 2 * (p.stiffness).squareRoot()).value(at: 0.5))
        #expect(critical.settlingDuration.isFinite)
    }

    // MARK: G5

    @Test("G5 lower damping → more overshoot and longer settle")
    func g5Damping() {
        let dampings = [2.0, 5.0, 10.0, 15.0]
        let settle = dampings.map { SpringSolver(damping: $0).settlingDuration }
        let peaks = dampings.map { c in
            (0...400).map { SpringSolver(damping: c).value(at: Double($0) / 200) }.max() ?? 0
        }
        for i in 1..<dampings.count {
            #expect(settle[i] < settle[i - 1])
            #expect(peaks[i] < peaks[i - 1])
        }
    }

    @Test("G5 higher stiffness → shorter settle")
    func g5Stiffness() {
        let settle = [50.0, 100.0, 200.0, 400.0].map {
            SpringSolver(stiffness: $0).settlingDuration
        }
        for i in 1..<settle.count { #expect(settle[i] < settle[i - 1]) }
    }

    @Test("G5 more mass → slower")
    func g5Mass() {
        let masses = [0.5, 1.0, 2.0, 4.0]
        let settle = masses.map { SpringSolver(mass: $0).settlingDuration }
        let early = masses.map { SpringSolver(mass: $0).value(at: 0.05) }
        for i in 1..<masses.count {
            #expect(settle[i] > settle[i - 1])
            #expect(early[i] < early[i - 1])
        }
    }

    // MARK: Bad input

    @Test("Bad input: zero, negative or non-finite mass/stiffness settle instantly")
    func badMassStiffness() {
        let springs = [
            SpringSolver(mass: 0), SpringSolver(mass: -1), SpringSolver(mass: .nan),
            SpringSolver(mass: .infinity), SpringSolver(stiffness: 0),
            SpringSolver(stiffness: -100), SpringSolver(stiffness: .nan),
            SpringSolver(stiffness: .infinity), SpringSolver(damping: .nan),
            SpringSolver(mass: .leastNonzeroMagnitude, stiffness: 1e300)  // ω0 overflows,
        ]
        for s in springs {
            #expect(s.settlingDuration == 0)
            #expect(s.value(at: -1) == 0)
            #expect(s.value(at: 0) == 1)
            #expect(s.value(at: 0.3) == 1)
        }
        #expect(SpringSolver.perceptualDuration(mass: 0, stiffness: 100) == 0)
        #expect(SpringSolver.perceptualDuration(mass: 1, stiffness: .nan) == 0)
        #expect(SpringSolver.bounce(mass: 0, stiffness: 100, damping: 10) == -1)
        #expect(SpringSolver.bounce(mass: 1, stiffness: 100, damping: .nan) == -1)
    }

    @Test("Bad input: zero or negative damping never settles but stays finite and bounded")
    func badDamping() {
        for c in [0.0, -10.0] {
            let s = SpringSolver(damping: c)
            #expect(s.settlingDuration == SpringSolver.maximumSettlingDuration)
            for t in [0.1, 1, 100, 1e7] {
                let x = s.value(at: t)
                #expect(x.isFinite)
                #expect(x >= 0 && x <= 2 + 1e-12)  // undamped: oscillates between 0 and 2
            }
        }
        #expect(SpringSolver.bounce(mass: 1, stiffness: 100, damping: -5) == 1)
        // Tiny damping: the estimate is capped, not infinite.
        #expect(SpringSolver(damping: 1e-12).settlingDuration == SpringSolver.maximumSettlingDuration)
    }

    @Test("Bad input: extreme damping with overdamping allowed stays finite")
    func badExtremeDamping() {
        for c in [1e6, 1e200, Double.greatestFiniteMagnitude] {
            let s = SpringSolver(damping: c, allowsOverdamping: true)
            let x = s.value(at: 1)
            #expect(x.isFinite && x >= 0 && x <= 1)
            let d = s.settlingDuration
            #expect(d.isFinite && d >= 0 && d <= SpringSolver.maximumSettlingDuration)
        }
    }

    @Test("Bad input: non-finite initial velocity is treated as 0")
    func badVelocity() {
        let reference = SpringSolver()
        for v in [Double.nan, .infinity, -.infinity] {
            let s = SpringSolver(initialVelocity: v)
            #expect(s.value(at: 0.3) == reference.value(at: 0.3))
            #expect(s.settlingDuration == reference.settlingDuration)
        }
    }

    @Test("Bad input: perceptual duration ≤ 0 or NaN and out-of-range bounce")
    func badPerceptual() {
        for d in [0.0, -1.0, Double.nan] {
            let p = SpringSolver.parameters(perceptualDuration: d, bounce: 0.3)
            #expect(p.mass == 1 && p.stiffness == .infinity && p.damping == .infinity)
            let s = SpringSolver(mass: p.mass, stiffness: p.stiffness, damping: p.damping)
            #expect(s.value(at: 0) == 1 && s.settlingDuration == 0)
        }
        let nanBounce = SpringSolver.parameters(perceptualDuration: 1, bounce: .nan)
        #expect(Self.near(nanBounce.damping, 4 * Double.pi, 1e-12))  // ζ = 1
        let high = SpringSolver.parameters(perceptualDuration: 1, bounce: 3)
        #expect(high.damping == 0)  // clamped to bounce 1
        let low = SpringSolver.parameters(perceptualDuration: 1, bounce: -3)
        #expect(low.damping == .infinity)  // clamped to bounce −1
    }
}
