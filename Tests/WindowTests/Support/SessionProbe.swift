import Foundation

/// A scene for preview tests: a 10-pt white box on black moving linearly from x = 0 to 190 in
/// 1.9 s of scene time (its left edge at 100 pt/s × scene time), in a 200×20 scene. Rendering
/// the session headless and finding the box's left edge reads the scene time shown.
@MainActor
enum SessionProbe {
    static let size = CGSize(width: 200, height: 20)

    static func scene(duration: CFTimeInterval = 0, fps: Double = 10, colour: CGColor = CGColor(red: 1, green: 1, blue: 1, alpha: 1),
                      scheduled: @escaping (CFTimeInterval) -> Void = { _ in }) -> PreviewScene {
        let root = CALayer()
        root.frame = CGRect(origin: .zero, size: size)
        root.backgroundColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
        let box = CALayer()
        box.anchorPoint = .zero
        box.bounds = CGRect(x: 0, y: 0, width: 10, height: 20)
        box.position = .zero
        box.backgroundColor = colour
        box.name = "box"
        root.addSublayer(box)
        let move = CABasicAnimation(keyPath: "position.x")
        move.fromValue = 0
        move.toValue = 190
        move.duration = 1.9
        move.fillMode = .forwards
        move.isRemovedOnCompletion = false
        box.add(move, forKey: "move")
        return PreviewScene(rootLayer: root, size: size, scale: 1, duration: duration, framesPerSecond: fps,
                            applyScheduledChanges: scheduled)
    }

    /// The session's scene rendered headless at media time `t` (its root, timed by the
    /// container, as `ScenePreview.saveFrame` renders it).
    static func render(_ session: PreviewSession, at t: CFTimeInterval) throws -> CGImage {
        let r = try CARenderer(offscreenSize: size, scale: 1, options: .init(backend: .openGL))
        r.layer = session.scene.rootLayer
        r.beginFrame(atTime: t)
        try r.renderChecked()
        r.endFrame()
        return try r.makeImage()
    }

    /// The box's left edge in `img` (first column whose middle pixel is bright), nil if none.
    static func boxX(_ img: CGImage) -> Int? {
        (0..<img.width).first { img.pixel(x: $0, y: 10).r > 127 || img.pixel(x: $0, y: 10).g > 127 }
    }

    /// Scene time shown at media time `t`, read from the pixels (±0.01 s: one pixel).
    static func shownTime(_ session: PreviewSession, at t: CFTimeInterval) throws -> Double? {
        try boxX(render(session, at: t)).map { Double($0) / 100 }
    }
}
