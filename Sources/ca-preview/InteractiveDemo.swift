import CAWindow
import CADemoScenes
import Foundation

/// `ca-preview --interactive`: cards to drag (their position follows the pointer through the
/// default implicit animation, 0.25 s), and a button that pauses and resumes the animated group
/// with Apple's speed 0 + timeOffset recipe (`PlaybackClock`).
@MainActor
final class InteractiveDemo {
    let window: LayerWindow
    let root = CALayer()
    let animated = CALayer()
    let button = CALayer()
    let pauseIcon = CALayer()
    let playIcon = CALayer()
    var clock: PlaybackClock
    var cards: [CALayer] = []
    var dragging: (layer: CALayer, offset: CGVector)?
    var topZ: CGFloat = 1

    init() throws {
        var c = LayerWindow.Configuration()
        c.title = "Core Animation — drag the cards; the button pauses"
        c.size = CGSize(width: 640, height: 400)
        c.printsStatisticsOnClose = true
        window = try LayerWindow(configuration: c)
        clock = PlaybackClock(layer: animated)
        build()
        window.layer = root
        window.eventHandler = { [unowned self] e in self.handle(e) }
    }

    private func build() {
        root.backgroundColor = CGColor(red: 0.10, green: 0.11, blue: 0.14, alpha: 1)
        animated.frame = CGRect(x: 0, y: 0, width: 640, height: 400)
        root.addSublayer(animated)
        // A spinning square and a ball going back and forth, repeating forever.
        let spinner = CALayer()
        spinner.bounds = CGRect(x: 0, y: 0, width: 90, height: 90)
        spinner.position = CGPoint(x: 520, y: 120)
        spinner.cornerRadius = 18
        spinner.backgroundColor = CGColor(red: 0.98, green: 0.78, blue: 0.30, alpha: 1)
        let spin = CABasicAnimation(keyPath: "transform.rotation.z")
        spin.fromValue = 0
        spin.toValue = Double.pi * 2
        spin.duration = 2
        spin.repeatCount = .infinity
        spinner.add(spin, forKey: "spin")
        animated.addSublayer(spinner)
        let ball = CALayer()
        ball.bounds = CGRect(x: 0, y: 0, width: 36, height: 36)
        ball.cornerRadius = 18
        ball.position = CGPoint(x: 60, y: 260)
        ball.backgroundColor = CGColor(red: 0.35, green: 0.80, blue: 0.55, alpha: 1)
        let move = CABasicAnimation(keyPath: "position.x")
        move.fromValue = 60
        move.toValue = 580
        move.duration = 1.5
        move.autoreverses = true
        move.repeatCount = .infinity
        move.timingFunction = CAMediaTimingFunction(name: .easeInEaseOut)
        ball.add(move, forKey: "move")
        animated.addSublayer(ball)
        // Cards to drag.
        let colours: [(CGFloat, CGFloat, CGFloat)] = [(0.95, 0.42, 0.32), (0.30, 0.62, 0.95), (0.80, 0.45, 0.90)]
        for (i, col) in colours.enumerated() {
            let card = DemoScene.makeCard(CGColor(red: col.0, green: col.1, blue: col.2, alpha: 1))
            card.position = CGPoint(x: 100 + CGFloat(i) * 140, y: 100)
            root.addSublayer(card)
            cards.append(card)
        }
        // The pause/resume button.
        button.frame = CGRect(x: 20, y: 330, width: 120, height: 50)
        button.cornerRadius = 10
        button.backgroundColor = CGColor(red: 0.25, green: 0.27, blue: 0.33, alpha: 1)
        for x in [46.0, 64.0] {
            let bar = CALayer()
            bar.frame = CGRect(x: x, y: 13, width: 10, height: 24)
            bar.backgroundColor = CGColor(gray: 1, alpha: 1)
            pauseIcon.addSublayer(bar)
        }
        pauseIcon.frame = button.bounds
        playIcon.bounds = CGRect(x: 0, y: 0, width: 22, height: 22)
        playIcon.position = CGPoint(x: 60, y: 25)
        playIcon.backgroundColor = CGColor(gray: 1, alpha: 1)
        playIcon.transform = CATransform3DMakeRotation(.pi / 4, 0, 0, 1)
        playIcon.isHidden = true
        button.addSublayer(pauseIcon)
        button.addSublayer(playIcon)
        root.addSublayer(button)
    }

    func handle(_ e: WindowEvent) {
        switch e {
        case .mouseDown(let m):
            guard let hit = root.hitTest(m.location) else { return }
            if hit === button || hit.superlayer === button || hit.superlayer?.superlayer === button {
                toggle()
            } else if let card = cards.first(where: { hit === $0 }) {
                topZ += 1
                CATransaction.begin()
                CATransaction.setDisableActions(true)
                card.zPosition = topZ
                CATransaction.commit()
                dragging = (card, CGVector(dx: card.position.x - m.location.x, dy: card.position.y - m.location.y))
            }
        case .mouseDragged(let m):
            // An implicit animation (0.25 s) moves the card towards the pointer each time.
            if let d = dragging { d.layer.position = CGPoint(x: m.location.x + d.offset.dx, y: m.location.y + d.offset.dy) }
        case .mouseUp:
            dragging = nil
        case .keyDown(let k) where k.key == .space:
            toggle()
        default:
            break
        }
    }

    /// Apple's pause/resume recipe on the animated group, at the time the next frame shows.
    func toggle() {
        clock.toggle(at: window.nextFrameTime)
        pauseIcon.isHidden = clock.isPaused
        playIcon.isHidden = !clock.isPaused
        button.backgroundColor = clock.isPaused ? CGColor(red: 0.20, green: 0.55, blue: 0.35, alpha: 1)
                                                : CGColor(red: 0.25, green: 0.27, blue: 0.33, alpha: 1)
    }
}
