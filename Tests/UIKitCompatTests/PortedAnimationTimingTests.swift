import Testing
import Foundation

/// The ported file's idioms, value by value: the presentation of its layers at chosen times
/// equals what Core Animation's documented timing model gives, computed here independently
/// (a cubic Bézier solved by bisection; local time = (t − beginTime) + timeOffset; keyframe
/// segments by `keyTimes`; a keyframe animation's `timingFunction` paces the whole animation,
/// `timingFunctions` each segment).
@Suite struct PortedAnimationTimingTests {
    /// y of the timing curve (0,0) (x1,y1) (x2,y2) (1,1) at x, by bisection on the parameter.
    static func bezier(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double, at x: Double) -> Double {
        func b(_ p1: Double, _ p2: Double, _ s: Double) -> Double {
            3 * (1 - s) * (1 - s) * s * p1 + 3 * (1 - s) * s * s * p2 + s * s * s
        }
        var lo = 0.0, hi = 1.0
        for _ in 0..<200 {
            let mid = (lo + hi) / 2
            if b(x1, x2, mid) < x { lo = mid } else { hi = mid }
        }
        return b(y1, y2, (lo + hi) / 2)
    }

    /// Sets `animation` up in an 80 × 80 host at media time `t0` and returns the host.
    static func host(_ animation: LoadingAnimation, t0: Double) -> CALayer {
        let host = CALayer()
        host.bounds = CGRect(x: 0, y: 0, width: 80, height: 80)
        CAMediaClock.withFrameTime(t0) {
            animation.setUpAnimation(in: host, size: CGSize(width: 60, height: 60), color: .systemBlue)
            CATransaction.flush()
        }
        return host
    }

    /// `keyPath` of `layer`'s presentation at media time `t`.
    static func value(_ layer: CALayer, _ keyPath: String, at t: Double) -> Double? {
        CAMediaClock.withFrameTime(t) {
            let v = layer.presentation()?.value(forKeyPath: keyPath)
            if let d = v as? CGFloat { return Double(d) }
            if let f = v as? Float { return Double(f) }
            return v as? Double
        }
    }

    static func near(_ a: Double?, _ b: Double, _ tol: Double = 1e-4) -> Bool {
        guard let a else { return false }
        return abs(a - b) <= tol
    }

    @Test("Ball pulse: beginTime = CACurrentMediaTime() + delay, keyTimes with per-segment timing functions (overshooting curve)")
    func ballPulse() {
        let t0 = 7000.0
        let balls = Self.host(BallPulseAnimation(), t0: t0).sublayers!
        let tf = { (x: Double) in Self.bezier(0.2, 0.68, 0.18, 1.08, at: x) }
        // Before its beginTime the first ball shows its model scale (no backwards fill).
        #expect(Self.near(Self.value(balls[0], "transform.scale.x", at: t0 + 0.05), 1))
        // Half way through the first segment (keyTimes 0 → 0.3 of 0.75 s).
        let t = t0 + 0.12 + 0.75 * 0.15
        #expect(Self.near(Self.value(balls[0], "transform.scale.x", at: t), 1 + (0.3 - 1) * tf(0.5)))
        // The second segment of the third ball (beginTime + 0.36), in its second cycle.
        let local = 0.75 * 0.3 + 0.75 * 0.7 * 0.9        // 90 % into segment 2
        let v = Self.value(balls[2], "transform.scale.x", at: t0 + 0.36 + 0.75 + local)
        #expect(Self.near(v, 0.3 + (1 - 0.3) * tf(0.9)), "\(String(describing: v))")
        #expect(tf(0.9) > 1, "the curve overshoots (y2 = 1.08), so the scale passes 1")
    }

    @Test("Circle ripple: keyTimes ending early hold the last value; whole-animation timing function")
    func circleRipple() {
        let t0 = 7100.0
        let rings = Self.host(CircleRippleAnimation(), t0: t0).sublayers!
        let tf = { (x: Double) in Self.bezier(0.21, 0.53, 0.56, 0.8, at: x) }
        // The scale animation's timingFunction paces the whole animation, then keyTimes [0, 0.7].
        let paced = tf(0.35)
        #expect(paced < 0.7)
        #expect(Self.near(Self.value(rings[0], "transform.scale.x", at: t0 + 1.25 * 0.35), paced / 0.7))
        // Past 0.7 of the cycle the scale is held at its last keyframe, 1.
        #expect(Self.near(Self.value(rings[0], "transform.scale.x", at: t0 + 1.25 * 0.95), 1))
        // Opacity: per-segment functions over keyTimes [0, 0.7, 1], ring 2 begins 0.4 s late.
        let o = Self.value(rings[2], "opacity", at: t0 + 0.4 + 1.25 * 0.35)
        #expect(Self.near(o, 1 + (0.7 - 1) * tf(0.5)), "\(String(describing: o))")
        // Before it begins, ring 2 shows its model opacity, 0.
        #expect(Self.near(Self.value(rings[2], "opacity", at: t0 + 0.3), 0))
    }

    @Test("Line spin fade: timeOffset staggers copies of one animation")
    func lineSpinFade() {
        let t0 = 7200.0
        let lines = Self.host(LineSpinFadeAnimation(), t0: t0).sublayers!
        let offsets = [0.96, 0.84, 0.72, 0.6, 0.48, 0.36, 0.24, 0.12]
        let t = 0.5
        for (i, line) in lines.enumerated() {
            let phase = ((t + offsets[i]).truncatingRemainder(dividingBy: 1.2)) / 1.2
            let expected = phase < 0.5 ? 1 - 0.7 * (phase / 0.5) : 0.3 + 0.7 * ((phase - 0.5) / 0.5)
            #expect(Self.near(Self.value(line, "opacity", at: t0 + t), expected), "line \(i)")
        }
    }

    @Test("Ball grid pulse: group children without durations run over the group's duration")
    func ballGridPulse() {
        let t0 = 7300.0
        let balls = Self.host(BallGridPulseAnimation(), t0: t0).sublayers!
        let durations = [0.72, 1.02, 1.28, 1.42, 1.45, 1.18, 0.87, 1.45, 1.06]
        let begins = [-0.06, 0.25, -0.17, 0.48, 0.31, 0.03, 0.46, 0.78, 0.45]
        let ease = { (x: Double) in Self.bezier(0.25, 0.1, 0.25, 1, at: x) }
        let t = 1.9
        for i in 0..<9 {
            let local = (t - begins[i]).truncatingRemainder(dividingBy: durations[i]) / durations[i]
            let expected = local < 0.5 ? 1 - 0.5 * ease(local / 0.5) : 0.5 + 0.5 * ease((local - 0.5) / 0.5)
            #expect(Self.near(Self.value(balls[i], "transform.scale.x", at: t0 + t), expected), "ball \(i)")
        }
    }

    @Test("Ball clip rotate: a cumulative transform.rotation.z adds a half turn per cycle")
    func ballClipRotate() {
        let t0 = 7400.0
        let ring = Self.host(BallClipRotateAnimation(), t0: t0).sublayers![0]
        // Cycle 2 (0-based), a third of the way: 2π + π/3, read back from the matrix as π/3.
        let angle = Self.value(ring, "transform.rotation.z", at: t0 + 0.75 * 2 + 0.25) ?? .nan
        #expect(Self.near(angle, Double.pi / 3, 1e-3), "\(angle)")
        // Cycle 1: π + π/3, read back as −2π/3.
        let odd = Self.value(ring, "transform.rotation.z", at: t0 + 0.75 + 0.25) ?? .nan
        #expect(Self.near(odd, -2 * Double.pi / 3, 1e-3), "\(odd)")
    }

    @Test("Pacman: NSValue(cgPoint:) position keyframes under a linear group")
    func pacmanFood() {
        let t0 = 7500.0
        let food = Self.host(PacmanAnimation(), t0: t0).sublayers![0]
        let startX = 10 + 60 - 6.0     // (80 − 60) / 2 + 60 − circleSize / 2, circleSize 12
        let x = Self.value(food, "position.x", at: t0 + 0.25)
        #expect(Self.near(x, startX - 30 * 0.25), "\(String(describing: x))")
        #expect(Self.near(Self.value(food, "opacity", at: t0 + 0.5), 1 + (0.7 - 1) * 0.5))
    }

    @Test("Ball zig-zag: NSValue(caTransform3D:) keyframes, repeatCount .infinity")
    func zigZag() {
        let t0 = 7600.0
        let balls = Self.host(BallZigZagAnimation(), t0: t0).sublayers!
        let delta = 30 - 6.0
        // Many cycles later, half way from keyTime 0.33 to 0.66: x goes −delta → +delta, y stays −delta.
        let t = t0 + 0.7 * 40 + 0.7 * 0.495
        #expect(Self.near(Self.value(balls[0], "transform.translation.x", at: t), 0, 1e-3))
        #expect(Self.near(Self.value(balls[0], "transform.translation.y", at: t), -delta, 1e-3))
        #expect(Self.near(Self.value(balls[1], "transform.translation.y", at: t), delta, 1e-3))
    }
}
