import Testing
import Foundation

/// CALayer → JSON → the same layers and the same frames (issue 5).
@Suite struct SceneRoundTripTests {
    /// A tree using every layer class and animation class the format has, with non-default
    /// values of many properties.
    static func makeTree() -> CALayer {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 160, height: 120)
        root.backgroundColor = CGColor(gray: 0.9, alpha: 1)
        root.name = "root"

        let g = CAGradientLayer()
        g.name = "gradient"
        g.frame = CGRect(x: 10, y: 10, width: 60, height: 40)
        g.colors = [CGColor(red: 1, green: 0, blue: 0, alpha: 1), CGColor(red: 0, green: 0, blue: 1, alpha: 0.5), CGColor(gray: 0, alpha: 1)]
        g.locations = [0, 0.3, 1]
        g.type = .radial
        g.startPoint = CGPoint(x: 0.5, y: 0.5)
        g.endPoint = CGPoint(x: 1, y: 1)
        g.cornerRadius = 6
        g.maskedCorners = [.layerMinXMinYCorner, .layerMaxXMaxYCorner]
        g.borderWidth = 1.5
        g.shadowOpacity = 0.7
        g.shadowOffset = CGSize(width: 2, height: 3)
        g.shadowRadius = 2.5
        g.shadowColor = CGColor(red: 0.1, green: 0.2, blue: 0.3, alpha: 1)
        g.opacity = 0.9
        root.addSublayer(g)

        let stage = CATransformLayer()
        stage.frame = CGRect(x: 80, y: 10, width: 60, height: 60)
        var p = CATransform3DIdentity
        p.m34 = -1 / 300
        stage.sublayerTransform = p
        let face = CALayer()
        face.name = "face"
        face.frame = stage.bounds
        face.backgroundColor = CGColor(red: 0.2, green: 0.6, blue: 0.3, alpha: 1)
        face.transform = CATransform3DMakeRotation(0.4, 0, 1, 0)
        face.isDoubleSided = false
        face.zPosition = 5
        face.anchorPoint = CGPoint(x: 0.3, y: 0.6)
        stage.addSublayer(face)
        root.addSublayer(stage)

        let shape = CAShapeLayer()
        shape.frame = CGRect(x: 10, y: 60, width: 50, height: 50)
        let path = CGMutablePath()
        path.move(to: CGPoint(x: 0, y: 0))
        path.addQuadCurve(to: CGPoint(x: 50, y: 0), control: CGPoint(x: 25, y: 30))
        path.addCurve(to: CGPoint(x: 0, y: 50), control1: CGPoint(x: 50, y: 50), control2: CGPoint(x: 10, y: 40))
        path.closeSubpath()
        shape.path = path
        shape.fillRule = .evenOdd
        shape.lineDashPattern = [4, 2]
        shape.lineCap = .round
        shape.strokeColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
        shape.fillColor = nil
        root.addSublayer(shape)

        let masked = CALayer()
        masked.name = "masked"
        masked.frame = CGRect(x: 70, y: 70, width: 80, height: 40)
        masked.backgroundColor = CGColor(red: 0.9, green: 0.5, blue: 0.1, alpha: 1)
        let m = CALayer()
        m.frame = CGRect(x: 0, y: 0, width: 40, height: 40)
        m.cornerRadius = 20
        m.backgroundColor = CGColor(gray: 0, alpha: 1)
        masked.mask = m
        masked.isGeometryFlipped = true
        root.addSublayer(masked)

        // Animations of every class.
        let basic = CABasicAnimation(keyPath: "position.x")
        basic.byValue = 20
        basic.duration = 2
        basic.autoreverses = true
        basic.repeatCount = .infinity
        basic.timingFunction = CAMediaTimingFunction(controlPoints: 0.2, 0.1, 0.3, 0.9)
        basic.isAdditive = true
        masked.add(basic, forKey: "slide")

        let kf = CAKeyframeAnimation(keyPath: "backgroundColor")
        kf.values = [CGColor(red: 1, green: 0, blue: 0, alpha: 1), CGColor(red: 0, green: 1, blue: 0, alpha: 1), CGColor(red: 0, green: 0, blue: 1, alpha: 1)]
        kf.keyTimes = [0, 0.25, 1]
        kf.timingFunctions = [CAMediaTimingFunction(name: .easeIn), CAMediaTimingFunction(name: .easeOut)]
        kf.duration = 3
        kf.fillMode = .forwards
        kf.isRemovedOnCompletion = false
        face.add(kf, forKey: "tint")

        let along = CAKeyframeAnimation(keyPath: "position")
        along.path = path
        along.rotationMode = .rotateAuto
        along.calculationMode = .cubicPaced
        along.duration = 2.5
        along.beginTime = 0.25
        shape.add(along, forKey: nil)

        let spring = CASpringAnimation(keyPath: "transform.scale")
        spring.fromValue = 0.5
        spring.toValue = 1
        spring.mass = 2
        spring.stiffness = 150
        spring.damping = 8
        spring.initialVelocity = 1
        spring.duration = spring.settlingDuration
        g.add(spring, forKey: "spring")

        let group = CAAnimationGroup()
        let fade = CABasicAnimation(keyPath: "opacity")
        fade.fromValue = 1
        fade.toValue = 0.2
        let turn = CABasicAnimation(keyPath: "transform")
        turn.valueFunction = CAValueFunction(name: .rotateZ)
        turn.fromValue = 0
        turn.toValue = Double.pi
        group.animations = [fade, turn]
        group.duration = 2
        group.speed = 1.5
        group.timeOffset = 0.2
        stage.add(group, forKey: "group")

        let cubic = CAKeyframeAnimation(keyPath: "cornerRadius")
        cubic.values = [0, 10, 4]
        cubic.calculationMode = .cubic
        cubic.tensionValues = [0, 0.5, 0]
        cubic.continuityValues = [0, -0.5, 0]
        cubic.biasValues = [0, 0.25, 0]
        cubic.duration = 2
        g.add(cubic, forKey: "corner")
        return root
    }

    @Test func encodeLoadEncodeIsStable() throws {
        let dir = try makeTempDir("roundtrip")
        let first = try SceneFile.encode(root: Self.makeTree(), size: CGSize(width: 160, height: 120), scale: 2, duration: 3,
                                         framesPerSecond: 24, imageDirectory: dir)
        let loaded = try SceneFile.load(data: first, baseDirectory: dir)
        #expect(loaded.scale == 2 && loaded.framesPerSecond == 24 && loaded.frameCount == 72)
        let second = try SceneFile.encode(loaded, imageDirectory: dir)
        #expect(String(decoding: first, as: UTF8.self) == String(decoding: second, as: UTF8.self))
        // Spot checks that values came back typed, not only textually.
        let g = try #require(loaded.rootLayer.sublayers?[0] as? CAGradientLayer)
        #expect(g.type == .radial && g.locations?.map(\.doubleValue) == [0, 0.3, 1] && g.opacity == 0.9)
        let shape = try #require(loaded.rootLayer.sublayers?[2] as? CAShapeLayer)
        #expect(shape.fillColor == nil && shape.fillRule == .evenOdd && shape.lineDashPattern?.map(\.doubleValue) == [4, 2])
        #expect(loaded.rootLayer.sublayers?[1] is CATransformLayer)
        let slide = try #require(loaded.rootLayer.sublayers?[3].animation(forKey: "slide") as? CABasicAnimation)
        #expect(slide.repeatCount == .infinity && slide.autoreverses && slide.isAdditive)
        #expect(loaded.rootLayer.sublayers?[3].mask?.cornerRadius == 20)
    }

    @Test func reloadedTreeDrawsTheSameFrames() throws {
        let dir = try makeTempDir("roundtrip-frames")
        let size = CGSize(width: 160, height: 120)
        let swift = LoadedScene(rootLayer: Self.makeTree(), size: size, duration: 3, framesPerSecond: 24)
        // Encoded before the Swift frames are drawn (drawing runs its animations to the end)
        // and loaded after them: the timing engine's clock is per thread and only moves
        // forward, so each scene is drawn start to finish before the next one is loaded.
        let data = try SceneFile.encode(swift, imageDirectory: dir)
        let times: [CFTimeInterval] = [0, 0.4, 1.1, 2.7]
        let a = try renderFrames(swift, times: times)
        let json = try SceneFile.load(data: data, baseDirectory: dir)
        let b = try renderFrames(json, times: times)
        for k in times.indices { #expect(differingPixels(a[k], b[k]) == 0, "t = \(times[k])") }
        #expect(differingPixels(a[0], a[1]) > 100, "the tree animates")
    }

    @Test func imagesAreWrittenAsPNGNextToTheSceneAndReadBack() throws {
        let dir = try makeTempDir("images")
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 64, height: 32)
        let img = DemoScene.makePicture(side: 16)
        for (k, name) in ["left", "right"].enumerated() {
            let l = CALayer()
            l.name = name
            l.frame = CGRect(x: 32 * k, y: 0, width: 32, height: 32)
            l.contents = img  // the same image twice: written once
            l.contentsGravity = .resizeAspectFill
            root.addSublayer(l)
        }
        let data = try SceneFile.encode(root: root, size: root.bounds.size, scale: 1, duration: 1, framesPerSecond: 30, imageDirectory: dir)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.components(separatedBy: "\"contents\": \"left.png\"").count == 3)
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path) == ["left.png"])
        let loaded = try SceneFile.load(data: data, baseDirectory: dir)
        let back = try #require(loaded.rootLayer.sublayers?[1].contents as? CGImage)
        #expect(rgbaBytes(back) == rgbaBytes(img))
        #expect(throws: SceneEncodingError.self) {
            try SceneFile.encode(root: root, size: root.bounds.size, scale: 1, duration: 1, framesPerSecond: 30, imageDirectory: nil)
        }
    }

    /// Issue 18.2: Apple code wraps animation values in NSValue; writing such a tree gives the
    /// same file as writing the unwrapped values.
    @Test func nsValueWrappedAnimationValuesAreWrittenAsTheValuesTheyBox() throws {
        func tree(wrapped: Bool) -> CALayer {
            let root = CALayer()
            root.frame = CGRect(x: 0, y: 0, width: 40, height: 40)
            let l = CALayer()
            l.frame = CGRect(x: 0, y: 0, width: 10, height: 10)
            l.backgroundColor = CGColor(red: 1, green: 0, blue: 0, alpha: 1)
            root.addSublayer(l)
            let k = CAKeyframeAnimation(keyPath: "transform")
            let ts = [CATransform3DIdentity, CATransform3DMakeScale(2, 2, 1)]
            k.values = wrapped ? ts.map { NSValue(caTransform3D: $0) } : ts
            k.keyTimes = [0, 0.7]
            k.duration = 1
            k.beginTime = 0.25   // not stamped with the (real) commit time, so both files agree
            l.add(k, forKey: "pulse")
            let m = CABasicAnimation(keyPath: "position")
            m.fromValue = wrapped ? NSValue(cgPoint: CGPoint(x: 5, y: 5)) : CGPoint(x: 5, y: 5)
            m.toValue = wrapped ? NSValue(cgPoint: CGPoint(x: 30, y: 20)) : CGPoint(x: 30, y: 20)
            m.duration = 1
            m.beginTime = 0.25
            l.add(m, forKey: "move")
            return root
        }
        let plain = try SceneFile.encode(root: tree(wrapped: false), size: CGSize(width: 40, height: 40), scale: 1, duration: 1,
                                         framesPerSecond: 30, imageDirectory: nil)
        let wrapped = try SceneFile.encode(root: tree(wrapped: true), size: CGSize(width: 40, height: 40), scale: 1, duration: 1,
                                           framesPerSecond: 30, imageDirectory: nil)
        #expect(wrapped == plain, "\(String(decoding: wrapped, as: UTF8.self))\n---\n\(String(decoding: plain, as: UTF8.self))")
        #expect(String(decoding: wrapped, as: UTF8.self).contains("0.7"))
    }

    @Test func whatTheFormatCannotSayIsAnEncodingError() {
        let tiled = CATiledLayer()
        #expect(throws: SceneEncodingError.self) {
            try SceneFile.encode(root: tiled, size: CGSize(width: 10, height: 10), scale: 1, duration: 1, framesPerSecond: 30, imageDirectory: nil)
        }
        let l = CALayer()
        l.contents = "not an image"
        #expect(throws: SceneEncodingError.self) {
            try SceneFile.encode(root: l, size: CGSize(width: 10, height: 10), scale: 1, duration: 1, framesPerSecond: 30, imageDirectory: nil)
        }
    }
}
