import QuartzCore
import Foundation

/// Plays a scene in a window and lets a person poke at it: the engine behind
/// `ca-preview` and `carender preview SCENE`. Extension beyond Apple's API.
///
/// Keys: space pauses and resumes (Apple's speed 0 + timeOffset recipe on the scene's
/// container), ← / → step one frame back / forward (pausing), ↑ / ↓ (or Shift+← / →) scrub
/// one second, Home goes to 0, + / − double or halve the playback speed, S saves the frame
/// shown as a PNG rendered through the headless path at the scene's size and scale, R reloads,
/// Escape or the close button quit. The watched file is polled; when it changes the scene is
/// reloaded at the same playback time; a scene that fails to reload leaves the last good one
/// on screen and the error in the terminal.
@MainActor
public final class ScenePreview {
    public let window: LayerWindow
    public let session: PreviewSession
    /// Where S writes PNGs (default: the current directory).
    public var outputDirectory: URL
    /// A name for saved files and the title.
    public let name: String
    /// Lines for the terminal (notices, reload errors); standard error by default.
    public var log: (String) -> Void

    private var watcher: FileWatcher?
    private var link: CADisplayLink?
    private var pending: [(CFTimeInterval) -> Void] = []
    private var lastTitle = ""
    private var lastTitleTime = -Double.infinity
    private var headless: CARenderer?
    private var lastFrameTime: CFTimeInterval = 0

    /// Opens a window for the scene `load` makes, watching `file` for changes (nil: nothing to
    /// watch). Throws `PreviewError` when the scene fails to load (nothing is opened), or
    /// `WindowError` when no window can be opened. `backend`, when given, replaces the
    /// configuration's (`LayerWindow.Configuration.backend`), and saved frames use it too.
    public init(name: String, watching file: URL?, configuration: LayerWindow.Configuration? = nil,
                backend: CARenderer.Backend? = nil,
                log: @escaping (String) -> Void = PreviewSession.standardError,
                load: @escaping () throws -> PreviewScene) throws {
        self.name = name
        self.log = log
        outputDirectory = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        let start = configuration?.simulatedStartTime ?? CACurrentMediaTime()
        session = try PreviewSession(at: start, log: log, load: load)
        var c = configuration ?? LayerWindow.Configuration()
        if configuration == nil {
            c.size = session.scene.size
            c.printsStatisticsOnClose = true
        }
        c.title = name
        if let backend { c.backend = backend }
        window = try LayerWindow(configuration: c)
        watcher = file.map { FileWatcher(url: $0) }
        let stage = CALayer()
        stage.backgroundColor = CGColor(red: 0.16, green: 0.16, blue: 0.18, alpha: 1)
        stage.addSublayer(session.container)
        window.layer = stage
        fitScene()
        window.eventHandler = { [unowned self] e in self.handle(e) }
        let link = window.displayLink { [unowned self] l in self.frame(at: l.targetTimestamp) }
        link.add(to: .main, forMode: .common)
        self.link = link
    }

    /// Runs until the window closes.
    public func run() {
        window.run()
        link?.invalidate()
    }

    /// Scene time shown by the last frame.
    public var position: CFTimeInterval { session.position(at: lastFrameTime) }

    /// One frame at media time `t` (the display link's target time): queued key actions, file
    /// changes, loops and scheduled changes, then the title.
    func frame(at t: CFTimeInterval) {
        lastFrameTime = t
        let actions = pending
        pending = []
        for a in actions { a(t) }
        if watcher?.changed(now: t) == true, session.reload(at: t) {
            log("reloaded \(name) at \(String(format: "%.3f", session.position(at: t))) s")
            fitScene()
        }
        session.update(at: t)
        updateTitle(at: t)
    }

    /// Handles a window event (public so embedders and tests can drive the preview).
    public func handle(_ e: WindowEvent) {
        switch e {
        case .keyDown(let k):
            let shift = k.modifiers.contains(.shift)
            switch k.key {
            case .space where !k.isRepeat: enqueue { [session] t in session.togglePause(at: t) }
            case .right: enqueue { [session] t in shift ? session.scrub(by: 1, at: t) : session.step(frames: 1, at: t) }
            case .left: enqueue { [session] t in shift ? session.scrub(by: -1, at: t) : session.step(frames: -1, at: t) }
            case .up: enqueue { [session] t in session.scrub(by: 1, at: t) }
            case .down: enqueue { [session] t in session.scrub(by: -1, at: t) }
            case .home: enqueue { [session] t in session.seek(to: 0, at: t) }
            case .keypadAdd: enqueue { [session] t in session.changeRate(by: 2, at: t) }
            case .keypadSubtract: enqueue { [session] t in session.changeRate(by: 0.5, at: t) }
            case Key.letter("S")! where !k.isRepeat:
                enqueue { [unowned self] t in
                    do { log("saved \(try saveFrame(at: t).path)") } catch { log("saving the frame failed: \(error)") }
                }
            case Key.letter("R")! where !k.isRepeat:
                enqueue { [unowned self] t in if session.reload(at: t) { log("reloaded \(name)"); fitScene() } }
            default: break
            }
        case .text(let c):
            // + and − by character, whatever the keyboard layout (= counts as + unshifted).
            if c == "+" || c == "=" { enqueue { [session] t in session.changeRate(by: 2, at: t) } }
            if c == "-" || c == "_" { enqueue { [session] t in session.changeRate(by: 0.5, at: t) } }
        case .resized:
            fitScene()
        default:
            break
        }
    }

    private func enqueue(_ a: @escaping (CFTimeInterval) -> Void) { pending.append(a) }

    /// Renders the scene at media time `t` through the headless path (its own EGL context, at
    /// the scene's size and scale, no window involved) and writes a PNG named for the scene and
    /// scene time into `outputDirectory`. Returns the file written.
    @discardableResult
    public func saveFrame(at t: CFTimeInterval) throws -> URL {
        let image = try renderHeadless(at: t)
        guard let png = image.pngData() else { throw CARendererError.backend("PNG encoding failed") }
        let p = session.position(at: t)
        let safeName = name.map { $0.isLetter || $0.isNumber || $0 == "-" ? $0 : "_" }
        let url = outputDirectory.appendingPathComponent("\(String(safeName))-\(String(format: "%08.3f", p))s.png")
        try png.write(to: url)
        return url
    }

    /// The scene at media time `t`, rendered headless at its size and scale.
    public func renderHeadless(at t: CFTimeInterval) throws -> CGImage {
        // glvnd allows a GLX or an EGL context current on a thread, not both; the window makes
        // its own current again before its next frame.
        LayerWindow.releaseCurrentContext()
        let s = session.scene
        if headless == nil || headless!.bounds.size != s.size || headless!.scale != s.scale {
            headless = try CARenderer(offscreenSize: s.size, scale: s.scale, options: .init(backend: window.configuration.backend))
        }
        let r = headless!
        r.layer = s.rootLayer
        r.beginFrame(atTime: t)
        defer { r.endFrame() }
        try r.renderChecked()
        return try r.makeImage()
    }

    /// Centres the scene in the window, scaled to fit (no implicit animation).
    private func fitScene() {
        let box = window.size, s = session.scene.size
        let k = min(box.width / s.width, box.height / s.height)
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        session.container.position = CGPoint(x: box.width / 2, y: box.height / 2)
        session.container.transform = k.isFinite && k > 0 ? CATransform3DMakeScale(k, k, 1) : CATransform3DIdentity
        CATransaction.commit()
    }

    private func updateTitle(at t: CFTimeInterval) {
        let p = session.position(at: t)
        let total = session.scene.duration > 0 && session.scene.duration.isFinite ? String(format: " / %.2f s", session.scene.duration) : " s"
        let rate = session.rate == 1 ? "" : String(format: "  ×%g", session.rate)
        let error = session.lastError == nil ? "" : "  (reload failed: see terminal)"
        let title = "\(name) — \(String(format: "%.2f", p))\(total)\(session.isPaused ? "  paused" : "")\(rate)\(error)"
        // At most ten updates a second: each is a round trip to the X server.
        guard title != lastTitle, t - lastTitleTime >= 0.1 || session.isPaused else { return }
        lastTitle = title
        lastTitleTime = t
        window.setTitle(title)
    }
}
