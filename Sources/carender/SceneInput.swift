import QuartzCore
import CADemoScenes
import Foundation

/// A scene ready to render: its layer tree and the defaults a scene file carries (size in
/// points, scale, duration, frame rate), plus the scene's scheduled model changes.
struct SceneSource {
    var name: String
    var rootLayer: CALayer
    var size: CGSize
    var scale: CGFloat
    var duration: CFTimeInterval
    var framesPerSecond: Double
    /// Applies the scene's scheduled changes up to `t`; called with non-decreasing `t` before
    /// each `beginFrame(atTime: t)`.
    var applyScheduledChanges: (CFTimeInterval) -> Void = { _ in }
}

/// Where scenes come from: the bundled demo (no SCENE argument), the benchmark's built-in
/// stress scenes (`bench --builtin`), or a scene file (SCENE).
enum SceneInput {
    /// Builds the scene with the media clock frozen at 0, so layers made now and the
    /// animations added to them begin at time 0 whatever the first frame drawn is.
    static func load(path: String?, allowOutsideImages: Bool) throws -> SceneSource {
        CAMediaClock.freeze(at: 0)
        guard let path else {
            return SceneSource(name: "demo (built in)", rootLayer: DemoScene.make(), size: DemoScene.size, scale: 1,
                               duration: DemoScene.duration, framesPerSecond: 30)
        }
        return try loadFile(path, allowOutsideImages: allowOutsideImages)
    }

    static func builtin(_ name: String) throws -> SceneSource {
        CAMediaClock.freeze(at: 0)
        if name == "demo" {
            return SceneSource(name: "demo", rootLayer: DemoScene.make(), size: DemoScene.size, scale: 1,
                               duration: DemoScene.duration, framesPerSecond: 30)
        }
        guard let root = StressScenes.make(named: name) else {
            throw CLIError.usage("--builtin \(name): unknown scene; one of demo, \(StressScenes.names.joined(separator: ", "))")
        }
        return SceneSource(name: name, rootLayer: root, size: StressScenes.size, scale: 1, duration: 1, framesPerSecond: 60)
    }

    /// Every problem in the scene file, each as "location: message".
    static func validate(_ path: String, allowOutsideImages: Bool) throws -> [String] {
        throw missingSceneFormat(path)
    }

    static func loadFile(_ path: String, allowOutsideImages: Bool) throws -> SceneSource {
        throw missingSceneFormat(path)
    }

    static func missingSceneFormat(_ path: String) -> CLIError {
        CLIError("\(path): scene files are not supported by this build (the CAScene module is missing); run without SCENE for the built-in demo")
    }
}
