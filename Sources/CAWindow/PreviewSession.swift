import QuartzCore
import Foundation

/// The playback logic of a scene preview, without a window: which scene is shown, at which
/// scene time, paused or playing at which rate, reloads that keep the time, and loops. A window
/// (`ScenePreview`) drives it once per frame with the frame's media time; tests drive it with
/// pinned times and render `container` headless.
///
/// The scene root sits in `container`, whose timing is the playback clock (`PlaybackClock`:
/// Apple's speed 0 + timeOffset pause recipe). A scene is committed while the container is
/// paused at 0, so its animations begin at scene time 0 whatever the media time; scene time is
/// then the container's local time. Going back in time (a loop, a step or scrub backwards)
/// rebuilds the scene with the loader and seeks forward, because removed-on-completion
/// animations and scheduled model changes only run forwards. Extension beyond Apple's API.
@MainActor
public final class PreviewSession {
    /// Holds the scene root; carries the playback timing.
    public let container = CALayer()
    /// The scene shown (the last one that loaded).
    public private(set) var scene: PreviewScene
    /// The clock on `container`.
    public private(set) var clock: PlaybackClock
    /// The last load error since the last good load (shown in the terminal by the window).
    public private(set) var lastError: String?
    /// Successful loads so far (1 after `init`).
    public private(set) var loadCount = 1

    private let load: () throws -> PreviewScene
    private let log: (String) -> Void
    private var appliedUpTo: CFTimeInterval = 0

    /// Loads the scene (throws `PreviewError` when it fails or has an unusable size) and starts
    /// playing it from scene time 0 at media time `now`. `log` receives reload errors and
    /// notices (standard error by default).
    public init(at now: CFTimeInterval, log: @escaping (String) -> Void = PreviewSession.standardError,
                load: @escaping () throws -> PreviewScene) throws {
        self.load = load
        self.log = log
        clock = PlaybackClock(layer: container)
        scene = try Self.loadChecked(load)
        install(scene, at: 0, paused: false, now: now)
    }

    public nonisolated static func standardError(_ s: String) {
        FileHandle.standardError.write(Data((s + "\n").utf8))
    }

    private static func loadChecked(_ load: () throws -> PreviewScene) throws -> PreviewScene {
        let s: PreviewScene
        do { s = try load() } catch let e as PreviewError { throw e } catch { throw PreviewError.loadFailed("\(error)") }
        guard s.size.width.isFinite, s.size.height.isFinite, s.size.width > 0, s.size.height > 0 else {
            throw PreviewError.invalidScene("size \(s.size) is empty or not finite")
        }
        guard s.scale.isFinite, s.scale > 0 else { throw PreviewError.invalidScene("scale \(s.scale) is not finite and positive") }
        return s
    }

    // MARK: Time

    /// Scene time shown at media time `now`.
    public func position(at now: CFTimeInterval) -> CFTimeInterval { clock.time(at: now) }
    public var isPaused: Bool { clock.isPaused }
    public var rate: Float { clock.rate }
    /// One frame of the scene, in seconds.
    public var frameDuration: CFTimeInterval {
        scene.framesPerSecond.isFinite && scene.framesPerSecond > 0 ? 1 / scene.framesPerSecond : 1.0 / 60
    }
    private var loops: Bool { scene.duration.isFinite && scene.duration > 0 }

    /// Called once per frame before it is rendered at media time `now`: loops at the scene's
    /// duration and applies scheduled changes up to the position.
    public func update(at now: CFTimeInterval) {
        var p = position(at: now)
        if loops, p >= scene.duration, !clock.isPaused {
            p = p.truncatingRemainder(dividingBy: scene.duration)
            rebuild(at: p, now: now)
        }
        if p > appliedUpTo + 1e-9 {
            scene.applyScheduledChanges(p)
            appliedUpTo = p
        }
    }

    public func togglePause(at now: CFTimeInterval) { clock.toggle(at: now) }

    /// Moves to scene time `p` (clamped to 0…duration when the scene loops), keeping the
    /// paused state; backwards rebuilds the scene.
    public func seek(to target: CFTimeInterval, at now: CFTimeInterval) {
        guard target.isFinite else { return }
        var p = max(target, 0)
        if loops { p = min(p, scene.duration) }
        if p < appliedUpTo || p < position(at: now) {
            rebuild(at: p, now: now)
        } else {
            clock.seek(to: p, at: now)
        }
        update(at: now)
    }

    /// Pauses and moves by `n` frames of the scene (negative: back).
    public func step(frames n: Int, at now: CFTimeInterval) {
        clock.pause(at: now)
        // Snap to the frame grid so repeated steps land on frame times.
        let frame = (position(at: now) / frameDuration).rounded()
        seek(to: (frame + Double(n)) * frameDuration, at: now)
    }

    /// Moves by `seconds` of scene time, keeping the paused state.
    public func scrub(by seconds: CFTimeInterval, at now: CFTimeInterval) {
        seek(to: position(at: now) + seconds, at: now)
    }

    /// Multiplies the playback rate by `factor` (global speed: the container's speed).
    public func changeRate(by factor: Float, at now: CFTimeInterval) {
        clock.setRate(clock.rate * factor, at: now)
    }

    // MARK: Loading

    /// Loads the scene again and shows it at the current position and paused state. On
    /// failure the current scene stays and the error is logged and kept in `lastError`.
    @discardableResult
    public func reload(at now: CFTimeInterval) -> Bool {
        let p = position(at: now)
        do {
            let s = try Self.loadChecked(load)
            let paused = clock.isPaused
            scene = s
            install(s, at: loops ? min(p, s.duration) : p, paused: paused, now: now)
            lastError = nil
            loadCount += 1
            return true
        } catch {
            let message = "\(error)"
            lastError = message
            log("reload failed, keeping the last good scene: \(message)")
            return false
        }
    }

    /// A fresh instance of the scene, shown at `p` (loops and backward seeks).
    private func rebuild(at p: CFTimeInterval, now: CFTimeInterval) {
        do {
            let s = try Self.loadChecked(load)
            scene = s
            install(s, at: p, paused: clock.isPaused, now: now)
            loadCount += 1
        } catch {
            lastError = "\(error)"
            log("rebuilding the scene to go back in time failed, staying on the current one: \(error)")
            clock.seek(to: p, at: now)
        }
    }

    /// Puts `s` in the container, commits it with the clock paused at 0 (so its animations
    /// begin at scene time 0), then moves to `p`.
    private func install(_ s: PreviewScene, at p: CFTimeInterval, paused: Bool, now: CFTimeInterval) {
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        for old in container.sublayers ?? [] { old.removeFromSuperlayer() }
        container.bounds = CGRect(origin: .zero, size: s.size)
        container.masksToBounds = true
        clock.reset()
        container.addSublayer(s.rootLayer)
        CATransaction.commit()
        CATransaction.flush()
        s.applyScheduledChanges(p)
        appliedUpTo = p
        clock.seek(to: p, at: now)   // paused: timeOffset = p
        if !paused { clock.resume(at: now) }
    }
}
