import Testing
import Foundation

/// The acceptance test of UIKitCompat: `Ported/LoadingAnimations.swift`, an iOS
/// loading-animations file whose only change is its import line, renders every animation
/// offscreen with `CARenderer`, and each one draws in its colour and moves.
@Suite struct PortedLoadingAnimationTests {
    static let color = UIColor.systemBlue
    static let canvas = CGSize(width: 80, height: 80)
    /// Seconds after set-up. Consecutive gaps (0.25, 0.4, 0.6) are not a whole period of any
    /// animation in the file, so consecutive frames must differ.
    static let times: [Double] = [0.25, 0.5, 0.75, 1.0, 1.4, 2.0]

    /// Sets `type` up in a host layer at media time `t0` and renders it at `t0 + times`.
    /// Set-up runs under a task-local frame time rather than `CAMediaClock.freeze(at:)`: the
    /// frozen clock is process-wide and other suites freeze it in parallel, while the file's
    /// `beginTime = CACurrentMediaTime() + delay` must read `t0`. Frames use
    /// `CARenderer.beginFrame(atTime:)`, the deterministic clock of offline rendering.
    static func render(_ type: LoadingAnimationType, t0: Double) throws -> [CGImage] {
        let host = CALayer()
        host.bounds = CGRect(origin: .zero, size: canvas)
        host.position = CGPoint(x: canvas.width / 2, y: canvas.height / 2)
        CAMediaClock.withFrameTime(t0) {
            type.animation().setUpAnimation(in: host, size: CGSize(width: 60, height: 60), color: color)
            CATransaction.flush()
        }
        let renderer = try CARenderer(offscreenSize: canvas, scale: 1, options: .init(backend: .openGL))
        renderer.clearColor = nil
        renderer.layer = host
        var frames: [CGImage] = []
        for t in times {
            renderer.beginFrame(atTime: t0 + t)
            try renderer.renderChecked()
            renderer.endFrame()
            frames.append(try renderer.makeImage())
        }
        return frames
    }

    static func bytes(_ image: CGImage) -> [UInt8] { Array(image.dataProvider?.data ?? Data()) }

    /// Pixels whose un-premultiplied colour is the animation's (alpha ≥ 64, each channel within
    /// 12 levels), and pixels that are fairly opaque but of another colour.
    static func census(_ image: CGImage) -> (ofColour: Int, otherOpaque: Int) {
        let b = bytes(image)
        let want = color.cgColor.rgba
        let target = [want.red, want.green, want.blue].map { Int(($0 * 255).rounded()) }
        var of = 0, other = 0
        for i in stride(from: 0, to: b.count, by: 4) {
            let a = Int(b[i + 3])
            guard a >= 64 else { continue }
            let rgb = (0..<3).map { (Int(b[i + $0]) * 255 + a / 2) / a }
            if zip(rgb, target).allSatisfy({ abs($0 - $1) <= 12 }) { of += 1 } else if a >= 192 { other += 1 }
        }
        return (of, other)
    }

    @Test("Every ported animation draws in its colour at every frame and changes over time",
          arguments: LoadingAnimationType.allCases)
    func portedAnimationRenders(_ type: LoadingAnimationType) throws {
        let t0 = 1000.0 + Double(LoadingAnimationType.allCases.firstIndex(of: type)!) * 10
        let frames = try Self.render(type, t0: t0)
        if let dir = ProcessInfo.processInfo.environment["UIKITCOMPAT_FRAMES"] {
            for (i, f) in frames.enumerated() {
                try f.pngData()?.write(to: URL(fileURLWithPath: "\(dir)/\(type.rawValue)-\(i).png"))
            }
        }
        for (t, frame) in zip(Self.times, frames) {
            let c = Self.census(frame)
            #expect(c.ofColour >= 4, "\(type) at t = \(t): \(c.ofColour) pixels of the colour (blank frame)")
            #expect(c.otherOpaque == 0, "\(type) at t = \(t): \(c.otherOpaque) opaque pixels of another colour")
        }
        for i in 1..<frames.count {
            let differ = Self.bytes(frames[i]) != Self.bytes(frames[i - 1])
            #expect(differ, "\(type): frames at t = \(Self.times[i - 1]) and \(Self.times[i]) are identical (not animating)")
        }
    }

    @Test("isCumulative rotation: one cycle later the clip-rotate ring has turned a further half turn")
    func cumulativeRotation() throws {
        // Times 0.25 and 1.0 are one 0.75-s cycle apart: the scale is the same, the rotation is
        // π further on, and the three-quarter ring is not symmetric under a half turn.
        let frames = try Self.render(.ballClipRotate, t0: 2000)
        let differ = Self.bytes(frames[0]) != Self.bytes(frames[3])
        #expect(differ)
    }

    @Test("The ported file's idioms reach the model: HUGE, NSValue keyframes, group children without durations")
    func idiomsReachTheModel() throws {
        let host = CALayer()
        host.bounds = CGRect(origin: .zero, size: Self.canvas)
        CAMediaClock.withFrameTime(3000) {
            BallSpinFadeAnimation().setUpAnimation(in: host, size: CGSize(width: 60, height: 60), color: Self.color)
            SquareSpinAnimation().setUpAnimation(in: host, size: CGSize(width: 60, height: 60), color: Self.color)
            CATransaction.flush()
        }
        let fade = try #require(host.sublayers?.first?.animation(forKey: "animation") as? CAAnimationGroup)
        #expect(fade.repeatCount == HUGE && fade.repeatCount == Float.greatestFiniteMagnitude)
        // The file sets no child duration; the children run over the group's second (this
        // project writes the group's duration into the layer's copy of each child, H7).
        #expect(fade.animations?.allSatisfy { $0.duration == 0 || $0.duration == fade.duration } == true)
        let spin = try #require(host.sublayers?.last?.animation(forKey: "animation") as? CAKeyframeAnimation)
        let second = try #require(spin.values?[1] as? NSValue)
        #expect(second.caTransform3DValue.m22 < -0.99, "rotated π about x")
    }
}

/// A `CAReplicatorLayer` spinner from the same file: every copy is drawn (docs/BEHAVIOUR.md R1).
@Suite struct PortedReplicatorTests {
    @Test("CAReplicatorLayer spinner: all eight dots are drawn")
    func replicatorInstancesDrawn() throws {
        let host = CALayer()
        host.bounds = CGRect(origin: .zero, size: PortedLoadingAnimationTests.canvas)
        host.position = CGPoint(x: 40, y: 40)
        CAMediaClock.withFrameTime(6000) {
            ReplicatorSpinnerAnimation().setUpAnimation(in: host, size: CGSize(width: 60, height: 60),
                                                        color: PortedLoadingAnimationTests.color)
            CATransaction.flush()
        }
        let renderer = try CARenderer(offscreenSize: PortedLoadingAnimationTests.canvas, scale: 1, options: .init(backend: .openGL))
        renderer.layer = host
        renderer.beginFrame(atTime: 6000.5)
        try renderer.renderChecked()
        renderer.endFrame()
        let bytes = Array(try renderer.makeImage().dataProvider?.data ?? Data())
        // The dots' centres: 25 px from the middle (40, 40), every 45°, the first straight up.
        var drawn = 0
        for i in 0..<8 {
            let angle = Double(i) * .pi / 4
            let x = Int((40 + 25 * sin(angle)).rounded()), y = Int((40 - 25 * cos(angle)).rounded())
            if bytes[(y * 80 + x) * 4 + 3] > 0 { drawn += 1 }
        }
        #expect(drawn >= 1, "the original dot is drawn")
        #expect(drawn == 8, "\(drawn) of 8 dots drawn")
    }
}
