import Testing

/// Apple-style code compiles against `import QuartzCore` alone and behaves as documented.
@Suite struct AppleSampleCodeTests {
    @Test("DESIGN sample: shape layer flying along a path, with Apple's spelling")
    func designSample() {
        let root = CALayer()
        root.bounds = CGRect(x: 0, y: 0, width: 640, height: 360)
        let ship = CAShapeLayer()
        ship.path = CGPath(ellipseIn: CGRect(x: 0, y: 0, width: 64, height: 64), transform: nil)
        ship.fillColor = CGColor(red: 1, green: 0.3, blue: 0.2, alpha: 1)
        root.addSublayer(ship)

        let curve = CGMutablePath()
        curve.move(to: CGPoint(x: 0, y: 300))
        curve.addCurve(to: CGPoint(x: 600, y: 300), control1: CGPoint(x: 200, y: 0), control2: CGPoint(x: 400, y: 0))
        let move = CAKeyframeAnimation(keyPath: "position")
        move.path = curve
        move.rotationMode = .rotateAuto
        move.duration = 4
        ship.add(move, forKey: "fly")

        #expect(ship.animationKeys() == ["fly"])
        #expect((ship.animation(forKey: "fly") as? CAKeyframeAnimation)?.path == curve)
        #expect(ship.sublayers == nil && root.sublayers?.first === ship)
        #expect(ship.fillRule == .nonZero && ship.lineWidth == 1)
    }

    @Test("Implicit-animation idioms compile: CATransaction, timing functions, disableActions")
    func transactionIdioms() {
        let layer = CALayer()
        CATransaction.begin()
        CATransaction.setAnimationDuration(0.5)
        CATransaction.setAnimationTimingFunction(CAMediaTimingFunction(name: .easeInEaseOut))
        CATransaction.setDisableActions(true)
        layer.opacity = 0.5
        layer.setAffineTransform(CGAffineTransform(rotationAngle: .pi / 4))
        #expect(CATransaction.animationDuration() == 0.5)
        #expect(CATransaction.disableActions())
        CATransaction.commit()
        #expect(CATransaction.animationDuration() == 0.25)
        #expect(layer.opacity == 0.5)
        let spin = CABasicAnimation(keyPath: "transform.rotation.z")
        spin.fromValue = 0
        spin.toValue = CGFloat.pi * 2
        spin.repeatCount = .infinity
        spin.fillMode = .forwards
        spin.isRemovedOnCompletion = false
        layer.add(spin, forKey: nil)
        #expect(layer.animationKeys() == nil, "an animation added with a nil key has no key to list")
        let t = CATransform3DRotate(CATransform3DMakeTranslation(10, 0, 0), .pi, 0, 0, 1)
        #expect(!CATransform3DIsIdentity(t))
    }
}
