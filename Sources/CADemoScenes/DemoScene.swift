import QuartzCore
import CAScene

/// The bundled demo: several layer kinds and animations that exercise the renderer —
/// a gradient backdrop, rounded cards with borders and shadows, image contents, a masked
/// group at half opacity, a keyframe animation along a path, a spring, a rotation in
/// perspective, a shape layer with an animated stroke, and two scheduled transactions: an
/// implicit animation (card-3 changes shape and colour at 0.5 s) and a push `CATransition`
/// (card-1 changes colour at 1.5 s).
///
/// `Scenes/demo/scene.json` is this scene written by `SceneFile.encode`; regenerate it after a
/// change here with `CA_WRITE_DEMO_SCENE=1 swift test --filter DemoSceneFileTests` (the test
/// fails while the file differs from the Swift scene, so the two cannot drift apart).
public enum DemoScene {
    public static let size = CGSize(width: 640, height: 360)
    public static let duration: CFTimeInterval = 3
    public static let framesPerSecond: Double = 30

    /// The demo as a `LoadedScene`: the tree of `make()` and the transactions of
    /// `transactions()`, committed at scene time 0.
    public static func makeScene() -> LoadedScene {
        LoadedScene(rootLayer: make(), size: size, scale: 1, duration: duration,
                    framesPerSecond: framesPerSecond, transactions: transactions())
    }

    /// The demo's scheduled transactions (layers are found by name).
    public static func transactions() -> [SceneTransaction] {
        // An implicit animation: inside a 1 s ease-in-ease-out transaction card-3 rounds into
        // a pill and turns violet; both changes animate from what is on screen at 0.5 s.
        let morph = SceneTransaction(
            time: 0.5, animationDuration: 1, animationTimingFunction: CAMediaTimingFunction(name: .easeInEaseOut),
            changes: [
                .set(layer: "card-3", property: "cornerRadius", value: CGFloat(40)),
                .set(layer: "card-3", property: "backgroundColor", value: CGColor(red: 0.62, green: 0.40, blue: 0.95, alpha: 1)),
            ])
        // A transition: card-1's new colour pushes the old one out to the left.
        let push = CATransition()
        push.type = .push
        push.subtype = .fromRight
        push.duration = 0.6
        push.timingFunction = CAMediaTimingFunction(name: .easeInEaseOut)
        let swap = SceneTransaction(
            time: 1.5, disableActions: true,
            changes: [
                .addAnimation(layer: "card-1", animation: push, forKey: nil),
                .set(layer: "card-1", property: "backgroundColor", value: CGColor(red: 0.20, green: 0.75, blue: 0.85, alpha: 1)),
            ])
        return [morph, swap]
    }

    public static func make() -> CALayer {
        let root = CALayer()
        root.frame = CGRect(origin: .zero, size: size)
        root.backgroundColor = CGColor(red: 0.08, green: 0.09, blue: 0.12, alpha: 1)

        let backdrop = CAGradientLayer()
        backdrop.name = "backdrop"
        backdrop.frame = root.bounds
        backdrop.colors = [CGColor(red: 0.10, green: 0.14, blue: 0.28, alpha: 1), CGColor(red: 0.35, green: 0.12, blue: 0.30, alpha: 1)]
        backdrop.startPoint = CGPoint(x: 0, y: 0)
        backdrop.endPoint = CGPoint(x: 1, y: 1)
        root.addSublayer(backdrop)

        // Cards with shadows and borders.
        let palette: [(CGFloat, CGFloat, CGFloat)] = [(0.95, 0.42, 0.32), (0.98, 0.78, 0.30), (0.35, 0.80, 0.55), (0.30, 0.62, 0.95)]
        for (i, c) in palette.enumerated() {
            let card = makeCard(CGColor(red: c.0, green: c.1, blue: c.2, alpha: 1))
            card.name = "card-\(i)"
            card.frame = CGRect(x: 40 + CGFloat(i) * 145, y: 40, width: 120, height: 80)
            root.addSublayer(card)
        }

        // A shape layer on card-2: a star whose outline draws itself (strokeEnd 0 → 1).
        let star = CAShapeLayer()
        star.name = "star"
        star.frame = CGRect(x: 60 + 2 * 145 - 20, y: 60, width: 40, height: 40)
        let starPath = CGMutablePath()
        for k in 0..<10 {
            let r: CGFloat = k % 2 == 0 ? 20 : 8
            let a = -CGFloat.pi / 2 + CGFloat(k) * CGFloat.pi / 5
            let p = CGPoint(x: 20 + r * cos(a), y: 20 + r * sin(a))
            if k == 0 { starPath.move(to: p) } else { starPath.addLine(to: p) }
        }
        starPath.closeSubpath()
        star.path = starPath
        star.fillColor = CGColor(red: 1, green: 1, blue: 1, alpha: 0.9)
        star.strokeColor = CGColor(red: 0.1, green: 0.3, blue: 0.2, alpha: 1)
        star.lineWidth = 2
        star.lineJoin = .round
        root.addSublayer(star)
        let draw = CABasicAnimation(keyPath: "strokeEnd")
        draw.fromValue = 0
        draw.toValue = 1
        draw.duration = 2
        star.add(draw, forKey: "draw")

        // Image contents: a procedurally made checker with a soft disc.
        let picture = CALayer()
        picture.name = "picture"
        picture.frame = CGRect(x: 40, y: 160, width: 160, height: 160)
        picture.contents = makePicture(side: 64)
        picture.contentsGravity = .resizeAspect
        picture.magnificationFilter = .nearest
        picture.cornerRadius = 20
        picture.masksToBounds = true
        root.addSublayer(picture)

        // A masked group at half opacity: two overlapping discs seen through a star-ish mask.
        let group = CALayer()
        group.name = "group"
        group.frame = CGRect(x: 240, y: 160, width: 160, height: 160)
        group.opacity = 0.85
        for (k, color) in [CGColor(red: 1, green: 0.3, blue: 0.4, alpha: 1), CGColor(red: 0.3, green: 0.7, blue: 1, alpha: 1)].enumerated() {
            let disc = CALayer()
            disc.frame = CGRect(x: 10 + CGFloat(k) * 50, y: 20 + CGFloat(k) * 30, width: 100, height: 100)
            disc.cornerRadius = 50
            disc.backgroundColor = color
            group.addSublayer(disc)
        }
        let mask = CALayer()
        mask.frame = group.bounds
        let bar1 = CALayer(); bar1.frame = CGRect(x: 0, y: 60, width: 160, height: 40); bar1.backgroundColor = CGColor(gray: 0, alpha: 1)
        let bar2 = CALayer(); bar2.frame = CGRect(x: 60, y: 0, width: 40, height: 160); bar2.backgroundColor = CGColor(gray: 0, alpha: 0.6)
        mask.addSublayer(bar1); mask.addSublayer(bar2)
        group.mask = mask
        root.addSublayer(group)

        // A card rotating about y in perspective.
        let stage = CALayer()
        stage.name = "stage"
        stage.frame = CGRect(x: 440, y: 160, width: 160, height: 160)
        var perspective = CATransform3DIdentity
        perspective.m34 = -1 / 400
        stage.sublayerTransform = perspective
        let flip = CALayer()
        flip.name = "flip"
        flip.frame = stage.bounds.insetBy(dx: 20, dy: 20)
        flip.backgroundColor = CGColor(red: 0.98, green: 0.78, blue: 0.30, alpha: 1)
        flip.cornerRadius = 16
        flip.borderWidth = 3
        flip.borderColor = CGColor(red: 0.2, green: 0.2, blue: 0.2, alpha: 1)
        stage.addSublayer(flip)
        root.addSublayer(stage)
        let spin = CABasicAnimation(keyPath: "transform.rotation.y")
        spin.fromValue = 0
        spin.toValue = Double.pi * 2
        spin.duration = duration
        flip.add(spin, forKey: "spin")

        // A ball flying along a path, and a spring on its scale.
        let ball = CALayer()
        ball.name = "ball"
        ball.bounds = CGRect(x: 0, y: 0, width: 28, height: 28)
        ball.cornerRadius = 14
        ball.backgroundColor = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
        ball.shadowOpacity = 0.5
        ball.shadowRadius = 4
        ball.position = CGPoint(x: 40, y: 140)
        root.addSublayer(ball)
        let path = CGMutablePath()
        path.move(to: CGPoint(x: 40, y: 140))
        path.addCurve(to: CGPoint(x: 600, y: 140), control1: CGPoint(x: 200, y: 60), control2: CGPoint(x: 440, y: 220))
        let fly = CAKeyframeAnimation(keyPath: "position")
        fly.path = path
        fly.duration = duration
        fly.calculationMode = .paced
        ball.add(fly, forKey: "fly")
        let bounce = CASpringAnimation(keyPath: "transform.scale")
        bounce.fromValue = 0.3
        bounce.toValue = 1
        bounce.damping = 6
        bounce.duration = bounce.settlingDuration
        ball.add(bounce, forKey: "bounce")
        return root
    }

    /// The demo's card: a 120×80 continuous-cornered layer with a translucent white border and
    /// a soft shadow (what `ca-preview --interactive` drags too).
    public static func makeCard(_ color: CGColor) -> CALayer {
        let card = CALayer()
        card.bounds = CGRect(x: 0, y: 0, width: 120, height: 80)
        card.backgroundColor = color
        card.cornerRadius = 14
        card.cornerCurve = .continuous
        card.borderWidth = 2
        card.borderColor = CGColor(red: 1, green: 1, blue: 1, alpha: 0.6)
        card.shadowOpacity = 0.45
        card.shadowRadius = 8
        card.shadowOffset = CGSize(width: 0, height: 6)
        return card
    }

    /// A 64×64 checker with a translucent disc, made in memory (no files needed).
    public static func makePicture(side: Int) -> CGImage {
        var bytes = [UInt8](repeating: 0, count: side * side * 4)
        for y in 0..<side {
            for x in 0..<side {
                let checker = ((x / 8) + (y / 8)) % 2 == 0
                var r: Double = checker ? 0.9 : 0.2, g: Double = checker ? 0.9 : 0.25, b: Double = checker ? 0.95 : 0.35
                let dx = Double(x) - Double(side) / 2 + 0.5, dy = Double(y) - Double(side) / 2 + 0.5
                let d = (dx * dx + dy * dy).squareRoot()
                if d < Double(side) * 0.3 { r = r * 0.4 + 0.6; g *= 0.4; b *= 0.4 }
                let i = (y * side + x) * 4
                bytes[i] = UInt8(r * 255); bytes[i + 1] = UInt8(g * 255); bytes[i + 2] = UInt8(b * 255); bytes[i + 3] = 255
            }
        }
        return CGImage(width: side, height: side, rgba8Bytes: bytes, premultiplied: true)!
    }
}
