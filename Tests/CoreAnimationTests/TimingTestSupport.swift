import Testing
@testable import CoreAnimation

/// Shared helpers for the timing-engine conformance suites (docs/BEHAVIOUR.md C–L).
enum TT {
    static func near(_ a: Double, _ b: Double, _ tol: Double = 1e-6) -> Bool { abs(a - b) <= tol }
    static func near(_ a: CGFloat, _ b: Double, _ tol: Double = 1e-6) -> Bool { abs(Double(a) - b) <= tol }
    static func near(_ a: Float, _ b: Double, _ tol: Double = 1e-6) -> Bool { abs(Double(a) - b) <= tol }

    /// A layer committed at media time `t` (clock frozen there), with `setup` applied before
    /// the first commit (so no implicit animation runs).
    static func layer(at t: Double = 100, _ setup: (CALayer) -> Void = { _ in }) -> CALayer {
        layer(at: t, make: { CALayer() }, setup)
    }

    /// `layer(at:_:)` with the layer `make` makes (a subclass, for its properties).
    static func layer(at t: Double = 100, make: () -> CALayer, _ setup: (CALayer) -> Void = { _ in }) -> CALayer {
        CAMediaClock.freeze(at: t)
        let l = make()
        setup(l)
        CATransaction.flush()
        return l
    }

    /// A layer committed at media time 100 (40×30 at (7, 9), rotated 0.3 rad about z, then
    /// `setup`), with `anims` added under the keys k0, k1 … and committed. `make` makes the
    /// layer (a subclass, for its properties).
    static func animatedLayer(_ anims: [CAAnimation], make: () -> CALayer = { CALayer() },
                              setup: (CALayer) -> Void = { _ in }) -> CALayer {
        let l = layer(at: 100, make: make) { l in
            l.bounds = CGRect(x: 0, y: 0, width: 40, height: 30)
            l.position = CGPoint(x: 7, y: 9)
            l.transform = CATransform3DMakeRotation(0.3, 0, 0, 1)
            setup(l)
        }
        for (i, a) in anims.enumerated() { l.add(a, forKey: "k\(i)") }
        CATransaction.flush()
        return l
    }

    /// zPosition from 0 to `d` over `d` s, linear: the presentation value equals the basic time.
    static func clockAnim(_ d: Double) -> CABasicAnimation {
        let a = CABasicAnimation(keyPath: "zPosition")
        a.fromValue = 0.0; a.toValue = d; a.duration = d
        return a
    }

    /// Adds and commits (stamping beginTime 0 with the commit time, C9).
    static func run(_ a: CAAnimation, on l: CALayer, key: String? = "a") {
        l.add(a, forKey: key)
        CATransaction.flush()
    }

    static func z(_ l: CALayer, at t: Double) -> Double {
        CAMediaClock.freeze(at: t)
        return Double(l.presentation()!.zPosition)
    }

    static func opacity(_ l: CALayer, at t: Double) -> Double {
        CAMediaClock.freeze(at: t)
        return Double(l.presentation()!.opacity)
    }

    static func warned(_ fragment: String) -> Bool {
        Diagnostics.recentWarnings.contains { $0.contains(fragment) }
    }
}

/// Records delegate callbacks with the media time at which they were delivered.
final class RecordingDelegate: CAAnimationDelegate, @unchecked Sendable {
    var events: [String] = []
    var times: [Double] = []
    let name: String
    init(_ name: String = "") { self.name = name }
    func animationDidStart(_ anim: CAAnimation) { events.append("\(name)start"); times.append(CACurrentMediaTime()) }
    func animationDidStop(_ anim: CAAnimation, finished flag: Bool) {
        events.append("\(name)stop:\(flag)"); times.append(CACurrentMediaTime())
    }
}
