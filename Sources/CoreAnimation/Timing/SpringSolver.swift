/// Closed-form solution of the damped spring that drives `CASpringAnimation` (docs/BEHAVIOUR.md G1).
///
/// Progress x(t) is normalised: it starts at 0, is pulled towards 1 and is later mapped through
/// from/to like a basic animation. It obeys
///
///     m·x'' + c·x' + k·(x − 1) = 0,   x(0) = 0,   x'(0) = v0
///
/// with ω0 = √(k/m) and damping ratio ζ = c / (2√(km)). `t` is basic time in **seconds**, not a
/// fraction of the animation's duration: the duration only bounds the active window (G1).
///
/// Regimes:
/// - ζ < 1 (underdamped): x = 1 − e^(−ζω0·t)·[cos ωd·t + B·sin ωd·t], ωd = ω0√(1−ζ²),
///   B = (ζω0 − v0)/ωd.
/// - ζ = 1 (critical), and ζ > 1 while `allowsOverdamping` is false (Apple's default; G1 and the
///   measured settlingDuration of damping 100 equalling that of damping 20, G3):
///   x = 1 − e^(−ω0·t)·[1 + (ω0 − v0)·t].
/// - ζ > 1 with `allowsOverdamping`: x = 1 − A·e^(r1·t) − (1 − A)·e^(r2·t),
///   r1,2 = −ω0(ζ ∓ √(ζ²−1)), A = (r2 + v0)/(r2 − r1).
///
/// Degenerate input (documented rule; Apple's behaviour is unknown): a mass or stiffness that is
/// zero, negative, NaN or infinite, a NaN damping, or parameters whose ω0 is not a positive
/// finite number make an **instantly settled** spring: value 1 from t = 0 on, settlingDuration 0.
/// That is also the measured behaviour of infinite damping with overdamping allowed (G4: bounce
/// −1). Negative damping is clamped to 0 (an undamped spring rather than one that grows without
/// bound); a non-finite initial velocity is treated as 0. No input makes the solver return NaN.
package struct SpringSolver: Sendable {
    /// The parameters the regime derives from: equal keys, equal values at every time.
    package var parameterKey: [Double] { [mass, stiffness, damping, initialVelocity, allowsOverdamping ? 1 : 0] }

    package let mass: Double
    package let stiffness: Double
    package let damping: Double
    package let initialVelocity: Double
    package let allowsOverdamping: Bool

    private enum Regime: Sendable {
        case instant
        /// decay = ζω0, ωd, B = (ζω0 − v0)/ωd
        case underdamped(decay: Double, omegaD: Double, b: Double)
        /// ω0, and the coefficient (ω0 − v0) of t
        case critical(omega0: Double, b: Double)
        /// r1 (slow root), r2 (fast root), A
        case overdamped(r1: Double, r2: Double, a: Double)
    }

    private let regime: Regime

    /// Displacement |x − 1| below which the spring counts as settled (G3 fit: 1e-3).
    private static let settleThreshold = 1e-3
    /// Step of the sampled settling estimate for critical/overdamped springs (G3).
    private static let settleStep = 0.1
    /// Upper bound of settlingDuration and of every search, in seconds: an undamped or nearly
    /// undamped spring never settles, and this keeps the answer finite and the search bounded.
    package static let maximumSettlingDuration = 10_000.0

    package init(
        mass: Double = 1,
        stiffness: Double = 100,
        damping: Double = 10,
        initialVelocity: Double = 0,
        allowsOverdamping: Bool = false
    ) {
        self.mass = mass
        self.stiffness = stiffness
        self.damping = damping
        self.initialVelocity = initialVelocity
        self.allowsOverdamping = allowsOverdamping
        regime = Self.makeRegime(
            m: mass, k: stiffness, c: damping, v0: initialVelocity,
            allowsOverdamping: allowsOverdamping)
    }

    private static func makeRegime(
        m: Double, k: Double, c rawC: Double, v0 rawV0: Double, allowsOverdamping: Bool
    ) -> Regime {
        guard m > 0, m.isFinite, k > 0, k.isFinite, !rawC.isNaN else { return .instant }
        let omega0 = (k / m).squareRoot()
        guard omega0 > 0, omega0.isFinite else { return .instant }
        let v0 = rawV0.isFinite ? rawV0 : 0
        let c = max(rawC, 0)

        let decay = c / (2 * m)  // ζ·ω0
        let zeta = decay / omega0
        // ζ is +∞ for infinite damping (or an overflowing c/m); NaN is impossible here because
        // ω0 is positive and finite and c is not NaN.
        if zeta < 1 {
            // ωd = ω0√((1−ζ)(1+ζ)); the factored form keeps precision as ζ → 1.
            let omegaD = omega0 * ((1 - zeta) * (1 + zeta)).squareRoot()
            if omegaD > 0 {
                return .underdamped(decay: decay, omegaD: omegaD, b: (decay - v0) / omegaD)
            }
            return .critical(omega0: omega0, b: omega0 - v0)
        }
        if zeta == 1 || !allowsOverdamping {
            return .critical(omega0: omega0, b: omega0 - v0)
        }
        guard zeta.isFinite, decay.isFinite else { return .instant }  // G4: damping ∞ jumps to 1
        // r2 = −ω0(ζ + √(ζ²−1)) computed without overflow; r1 = ω0²/r2 avoids the cancellation
        // of −ω0(ζ − √(ζ²−1)) for large ζ (r1·r2 = ω0²).
        let root = (zeta - 1).squareRoot() * (zeta + 1).squareRoot()
        let r2 = -(decay + omega0 * root)
        guard r2.isFinite, r2 < 0 else { return .instant }
        let r1 = (k / m) / r2
        let a = (r2 + v0) / (r2 - r1)
        guard a.isFinite else { return .instant }
        return .overdamped(r1: r1, r2: r2, a: a)
    }

    /// Normalised progress at `t` seconds after the start.
    ///
    /// 0 for t < 0 or NaN t (the animation has not begun); 1 for t = +∞ (the settled value);
    /// otherwise the closed form of the current regime (G1, checked against G2's table).
    package func value(at t: Double) -> Double {
        guard t >= 0 else { return 0 }  // also catches NaN
        guard t.isFinite else { return 1 }
        switch regime {
        case .instant:
            return 1
        case let .underdamped(decay, omegaD, b):
            let angle = omegaD * t
            return 1 - exp(-decay * t) * (cos(angle) + b * sin(angle))
        case let .critical(omega0, b):
            let envelope = exp(-omega0 * t)
            // Once the exponential underflows the product is 0; this also avoids 0·∞.
            return envelope == 0 ? 1 : 1 - envelope * (1 + b * t)
        case let .overdamped(r1, r2, a):
            return 1 - a * exp(r1 * t) - (1 - a) * exp(r2 * t)
        }
    }

    /// The time, in seconds, after which the spring counts as at rest (Apple:
    /// `CASpringAnimation.settlingDuration`). Reproduces the values measured on Apple (G3):
    /// default (1, 100, 10, 0) → 1.4727003346780927; damping 1 → 13.91321015404625;
    /// damping 20 → 1.0; damping 100 without overdamping → 1.0.
    ///
    /// Model:
    /// - **Underdamped** (G3 fit, exact to ~1e-15 for both measured values): the time at which
    ///   the envelope (1 + |B|)·e^(−ζω0·t) of the oscillation reaches 1e-3, i.e.
    ///   T = ln((1 + |B|)/0.001) / (ζω0). It is an envelope estimate, not the last actual
    ///   crossing of the 1e-3 band (which is 1.2701 s for the default spring).
    /// - **Critical and overdamped** [INFERRED — Apple's 1.0 does not follow the underdamped
    ///   formula, and the analytic crossing of critical damping 20 is 0.9233 s; open question O8]:
    ///   the first multiple of 0.1 s at which the displacement bound falls below 1e-3. The bound
    ///   is e^(−ω0·t)·(1 + |ω0 − v0|·t) for critical and |A|·e^(r1·t) + |1 − A|·e^(r2·t) for
    ///   overdamped; with v0 = 0 and critical damping it is the actual displacement. Both start
    ///   above 1e-3 and cross it once, so the grid is searched by bisection (≤ 17 evaluations).
    /// - Instantly settled springs (degenerate input, infinite damping with overdamping allowed)
    ///   report 0; springs that would take longer than ``maximumSettlingDuration`` (for example
    ///   zero damping) report that bound.
    package var settlingDuration: Double {
        let cap = Self.maximumSettlingDuration
        switch regime {
        case .instant:
            return 0
        case let .underdamped(decay, _, b):
            guard decay > 0 else { return cap }
            let t = log((1 + abs(b)) / Self.settleThreshold) / decay
            return t.isFinite ? min(t, cap) : cap
        case let .critical(omega0, b):
            return Self.firstGridTime(below: Self.settleThreshold) { t in
                exp(-omega0 * t) * (1 + abs(b) * t)
            }
        case let .overdamped(r1, r2, a):
            return Self.firstGridTime(below: Self.settleThreshold) { t in
                abs(a) * exp(r1 * t) + abs(1 - a) * exp(r2 * t)
            }
        }
    }

    /// Smallest t = n·0.1 s (n ≥ 1) with `bound(t) < threshold`, assuming the set of such t is
    /// a tail [T, ∞) — true for the unimodal/decreasing bounds above. Returns
    /// ``maximumSettlingDuration`` if even that time is not below the threshold.
    private static func firstGridTime(
        below threshold: Double, _ bound: (Double) -> Double
    ) -> Double {
        let last = Int((maximumSettlingDuration / settleStep).rounded())  // 100_000
        func settled(_ n: Int) -> Bool { bound(Double(n) / 10) < threshold }
        guard settled(last) else { return maximumSettlingDuration }
        var lo = 0  // not settled (every bound is ≥ 1 at t = 0)
        var hi = last  // settled
        while hi - lo > 1 {
            let mid = lo + (hi - lo) / 2
            if settled(mid) { hi = mid } else { lo = mid }
        }
        // n/10 rather than n·0.1: the exact decimal (10/10 is exactly 1.0, G3).
        return Double(hi) / 10
    }

    // MARK: - Perceptual parameters (docs/BEHAVIOUR.md G4)

    /// Physical parameters for a perceptual duration and bounce (Apple:
    /// `CASpringAnimation(perceptualDuration:bounce:)`, SwiftUI `Spring(duration:bounce:)`, G4):
    /// mass 1, stiffness (2π/duration)², damping 2ζ√k with ζ = 1 − bounce for bounce ≥ 0 and
    /// ζ = 1/(1 + bounce) below 0. For example (0.5, 0.3) → (1, 157.9, 17.6) and
    /// (1, 0.5) → (1, 4π², 2π).
    ///
    /// Input rules: bounce is clamped to Apple's documented range [−1, 1] (NaN → 0, critical);
    /// bounce −1 gives infinite damping, which ``SpringSolver`` treats as an instant jump to 1
    /// when overdamping is allowed (G4). A duration that is not positive (or NaN) returns
    /// infinite stiffness and damping — the instantly settled limit of a duration shrinking to 0.
    package static func parameters(
        perceptualDuration duration: Double, bounce: Double
    ) -> (mass: Double, stiffness: Double, damping: Double) {
        guard duration > 0 else { return (1, .infinity, .infinity) }
        let clampedBounce = bounce.isNaN ? 0 : min(max(bounce, -1), 1)
        let zeta = clampedBounce >= 0 ? 1 - clampedBounce : 1 / (1 + clampedBounce)
        let omega0 = 2 * Double.pi / duration
        let damping = zeta.isFinite ? 2 * zeta * omega0 : .infinity
        return (1, omega0 * omega0, damping)
    }

    /// Perceptual duration 2π√(m/k) — the undamped period (G4; the default spring reads 0.6283).
    /// Degenerate mass or stiffness (see the type's rule) reads 0, matching the instant spring.
    package static func perceptualDuration(mass: Double, stiffness: Double) -> Double {
        guard mass > 0, mass.isFinite, stiffness > 0, !stiffness.isNaN else { return 0 }
        return 2 * Double.pi * (mass / stiffness).squareRoot()
    }

    /// Bounce 1 − ζ for ζ ≤ 1 and 1/ζ − 1 for ζ > 1 (G4; the default spring reads 0.5), in
    /// [−1, 1]. Negative damping counts as 0 (bounce 1), as in the solver. Degenerate mass,
    /// stiffness or NaN damping read −1: the solver makes those springs jump to 1 at once, which
    /// is the behaviour of bounce −1.
    package static func bounce(mass: Double, stiffness: Double, damping: Double) -> Double {
        guard mass > 0, mass.isFinite, stiffness > 0, stiffness.isFinite, !damping.isNaN else {
            return -1
        }
        let zeta = max(damping, 0) / (2 * stiffness.squareRoot() * mass.squareRoot())
        if zeta.isNaN { return -1 }
        return zeta <= 1 ? 1 - zeta : 1 / zeta - 1
    }
}
