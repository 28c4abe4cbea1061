import Testing

/// README, "Porting iOS code: UIKitCompat": the example, as written, builds a pulsing dot.
@Suite struct UIKitCompatReadmeTests {
    @Test("The README's UIKitCompat example runs as written")
    func readmeExample() throws {
        let host = CALayer()
        host.bounds = CGRect(x: 0, y: 0, width: 20, height: 20)
        host.position = CGPoint(x: 10, y: 10)
        try CAMediaClock.withFrameTime(4000) {
            // --- README ---
            let dot = CAShapeLayer()
            dot.path = UIBezierPath(arcCenter: CGPoint(x: 10, y: 10), radius: 10,
                                    startAngle: 0, endAngle: 2 * .pi, clockwise: false).cgPath
            dot.fillColor = UIColor.systemBlue.cgColor
            let pulse = CAKeyframeAnimation(keyPath: "transform.scale")
            pulse.values = [1, 0.3, 1]; pulse.keyTimes = [0, 0.3, 1]
            pulse.duration = 0.75; pulse.repeatCount = HUGE
            pulse.beginTime = CACurrentMediaTime() + 0.12
            dot.add(pulse, forKey: "pulse")
            // --- end ---
            dot.frame = host.bounds
            host.addSublayer(dot)
            CATransaction.flush()
            let anim = try #require(dot.animation(forKey: "pulse"))
            #expect(anim.beginTime == 4000.12)
        }
        let renderer = try CARenderer(offscreenSize: CGSize(width: 20, height: 20), scale: 1, options: .init(backend: .openGL))
        renderer.layer = host
        var corners: [UInt8] = []
        for t in [4000.0, 4000.12 + 0.3 * 0.75] {
            renderer.beginFrame(atTime: t)
            try renderer.renderChecked()
            renderer.endFrame()
            let bytes = Array(try renderer.makeImage().dataProvider?.data ?? Data())
            // Alpha of the pixel at (4, 10): inside the full dot, outside the dot at scale 0.3.
            corners.append(bytes[(10 * 20 + 4) * 4 + 3])
        }
        #expect(corners[0] == 255 && corners[1] == 0, "\(corners)")
    }
}
