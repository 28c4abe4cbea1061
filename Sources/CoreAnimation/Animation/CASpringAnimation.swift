/// A spring-driven basic animation (Apple's `CASpringAnimation`, docs/BEHAVIOUR.md G). Progress comes
/// from the damped harmonic oscillator at the basic time in seconds; `duration` only bounds
/// the active window ("settlingDuration may be greater than the duration"). The timing
/// function is not applied: the spring is the curve.
open class CASpringAnimation: CABasicAnimation {
    open var mass: CGFloat = 1
    open var stiffness: CGFloat = 100
    open var damping: CGFloat = 10
    open var initialVelocity: CGFloat = 0
    open var allowsOverdamping = false

    /// The spring of a perceptual duration and bounce (G4, iOS 17): mass 1,
    /// stiffness (2π/duration)², damping from the bounce; overdamping allowed and the
    /// animation's duration set to the settling duration, as measured by OpenCoreAnimation.
    public convenience init(perceptualDuration: CFTimeInterval, bounce: CGFloat) {
        self.init()
        let p = SpringSolver.parameters(perceptualDuration: perceptualDuration, bounce: Double(bounce))
        mass = p.mass; stiffness = p.stiffness; damping = p.damping
        allowsOverdamping = true
        duration = settlingDuration
    }

    package var solver: SpringSolver {
        SpringSolver(mass: mass, stiffness: stiffness, damping: damping,
                     initialVelocity: initialVelocity, allowsOverdamping: allowsOverdamping)
    }

    /// How long the spring takes to come to rest (G3's model of Apple's estimate).
    open var settlingDuration: CFTimeInterval { solver.settlingDuration }

    /// 2π·√(mass/stiffness) (G4).
    open var perceptualDuration: CFTimeInterval { SpringSolver.perceptualDuration(mass: mass, stiffness: stiffness) }

    /// 1 − ζ for ζ ≤ 1, 1/ζ − 1 above (G4).
    open var bounce: CGFloat { SpringSolver.bounce(mass: mass, stiffness: stiffness, damping: damping) }

    open override func copyState(from other: CAAnimation) {
        super.copyState(from: other)
        guard let o = other as? CASpringAnimation else { return }
        mass = o.mass; stiffness = o.stiffness; damping = o.damping
        initialVelocity = o.initialVelocity; allowsOverdamping = o.allowsOverdamping
    }
}
