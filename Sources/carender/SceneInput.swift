import QuartzCore
import CAScene
import CASVG
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
    /// What the input could not reproduce exactly (an SVG's unsupported features), printed
    /// unless `--quiet`.
    var notes: [String] = []
    /// Called with the render size in points before rendering (a Lottie file fits itself in).
    var resize: ((CGSize) -> Void)? = nil
}

/// Where scenes come from: the bundled demo (no SCENE argument), the benchmark's built-in
/// stress scenes (`bench --builtin`), a scene file (SCENE), or an SVG file (SCENE ending in
/// `.svg`, imported by CASVG into a still layer tree).
enum SceneInput {
    /// Builds the scene with the media clock frozen at 0, so layers made now and the
    /// animations added to them begin at time 0 whatever the first frame drawn is.
    static func load(path: String?, allowOutsideImages: Bool) throws -> SceneSource {
        CAMediaClock.freeze(at: 0)
        guard let path else { return demo() }
        return try loadFile(path, allowOutsideImages: allowOutsideImages)
    }

    static func builtin(_ name: String) throws -> SceneSource {
        CAMediaClock.freeze(at: 0)
        if name == "demo" { return demo() }
        guard let root = StressScenes.make(named: name) else {
            throw CLIError.usage("--builtin \(name): unknown scene; one of demo, \(StressScenes.names.joined(separator: ", "))")
        }
        return SceneSource(name: name, rootLayer: root, size: StressScenes.size, scale: 1, duration: 1, framesPerSecond: 60)
    }

    /// The bundled demo, built in Swift (`DemoScene.makeScene()`; Scenes/demo/scene.json is the
    /// same scene as a file and renders the same pixels).
    static func demo() -> SceneSource {
        source(DemoScene.makeScene(), name: "demo")
    }

    static func source(_ scene: LoadedScene, name: String) -> SceneSource {
        SceneSource(name: name, rootLayer: scene.rootLayer, size: scene.size, scale: scene.scale,
                    duration: scene.duration, framesPerSecond: scene.framesPerSecond,
                    applyScheduledChanges: { scene.applyScheduledChanges(upTo: $0) })
    }

    static func options(allowOutsideImages: Bool) -> SceneLoadOptions {
        SceneLoadOptions(allowImagesOutsideSceneFolder: allowOutsideImages)
    }

    /// Every problem in the scene file, each as "JSON.path (line N): message".
    static func validate(_ path: String, allowOutsideImages: Bool) throws -> [String] {
        CAMediaClock.freeze(at: 0)
        return SceneFile.validate(contentsOf: URL(fileURLWithPath: path), options: options(allowOutsideImages: allowOutsideImages))
            .map(\.description)
    }

    /// A scene file through CAScene (`SceneFile.load`). Problems become one line: the first
    /// problem and how many more there are (`carender validate` lists them all).
    static func loadFile(_ path: String, allowOutsideImages: Bool) throws -> SceneSource {
        if URL(fileURLWithPath: path).pathExtension.lowercased() == "svg" { return try loadSVG(path) }
        if LottieInput.isLottie(path) { return try LottieInput.load(path) }
        let scene: LoadedScene
        do {
            scene = try SceneFile.load(contentsOf: URL(fileURLWithPath: path), options: options(allowOutsideImages: allowOutsideImages))
        } catch let e as SceneLoadError {
            guard let first = e.problems.first else { throw CLIError("\(path): the scene could not be loaded") }
            let more = e.problems.count > 1 ? " (and \(e.problems.count - 1) more problem\(e.problems.count == 2 ? "" : "s"); run carender validate \(path))" : ""
            throw CLIError("\(path): \(first)\(more)")
        } catch {
            throw CLIError("\(path): \(error)")
        }
        return source(scene, name: path)
    }

    /// An SVG file through CASVG: its size in points (`width`/`height` at 96 per inch, else the
    /// viewBox), scale 1 (give `--scale` for more pixels), no animation. Everything the import
    /// could not reproduce becomes a note.
    static func loadSVG(_ path: String) throws -> SceneSource {
        let doc: SVGDocument
        do {
            doc = try SVGDocument(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw CLIError("\(path): \(error)")
        }
        return SceneSource(name: path, rootLayer: doc.layer, size: doc.size, scale: 1, duration: 0, framesPerSecond: 30,
                           notes: doc.issues.map { "\(path): \($0)" })
    }
}
