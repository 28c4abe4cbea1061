import Testing
import Foundation

/// Paths of the repository, found from this file (Tests/SceneTests/Support/…).
enum Repo {
    static let root: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static var scenes: URL { root.appendingPathComponent("Scenes") }
    static var corpus: URL { root.appendingPathComponent("Tests/SceneTests/Corpus") }
}

/// A fresh temporary folder per call.
func makeTempDir(_ name: String = "scene") throws -> URL {
    let dir = FileManager.default.temporaryDirectory.appendingPathComponent("ca-scene-\(name)-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    return dir
}

/// Loads scene JSON text; image paths relative to `base`.
func loadScene(_ json: String, base: URL = FileManager.default.temporaryDirectory, options: SceneLoadOptions = .init()) throws -> LoadedScene {
    try SceneFile.load(data: Data(json.utf8), baseDirectory: base, options: options)
}

/// The problems of scene JSON text (empty when it loads).
func problems(_ json: String, base: URL = FileManager.default.temporaryDirectory, options: SceneLoadOptions = .init()) -> [SceneProblem] {
    do {
        _ = try loadScene(json, base: base, options: options)
        return []
    } catch let e as SceneLoadError {
        return e.problems
    } catch {
        Issue.record("load threw \(type(of: error)), not SceneLoadError: \(error)")
        return []
    }
}

/// A minimal valid document around a root layer object (JSON text) and extra top-level members.
func doc(root: String = #"{"bounds": [0, 0, 100, 100]}"#, extra: String = "") -> String {
    #"{"format": "ca-scene", "version": 1, "size": [100, 100], "duration": 1, "root": \#(root)\#(extra.isEmpty ? "" : ", " + extra)}"#
}

/// Renders a scene's frames at `times` with one renderer, applying its scheduled changes.
func renderFrames(_ scene: LoadedScene, times: [CFTimeInterval]) throws -> [CGImage] {
    let r = try CARenderer(offscreenSize: scene.size, scale: scene.scale, options: .init(backend: .openGL))
    r.layer = scene.rootLayer
    return try times.map { t in
        scene.applyScheduledChanges(upTo: t)
        r.beginFrame(atTime: t)
        try r.renderChecked()
        r.endFrame()
        return try r.makeImage()
    }
}

/// The premultiplied RGBA bytes of an image.
func rgbaBytes(_ img: CGImage) -> [UInt8] {
    [UInt8](img.dataProvider?.data ?? Data())
}

func pixel(_ img: CGImage, _ x: Int, _ y: Int) -> [Int] {
    let p = img.pixel(x: x, y: y)
    return [Int(p.r), Int(p.g), Int(p.b), Int(p.a)]
}

/// How many pixels of two same-sized images differ (all of them when the sizes differ);
/// a count keeps failure messages short.
func differingPixels(_ a: CGImage, _ b: CGImage) -> Int {
    guard a.width == b.width, a.height == b.height else { return max(a.width * a.height, b.width * b.height) }
    let x = rgbaBytes(a), y = rgbaBytes(b)
    var n = 0
    var i = 0
    while i + 3 < min(x.count, y.count) {
        if x[i] != y[i] || x[i + 1] != y[i + 1] || x[i + 2] != y[i + 2] || x[i + 3] != y[i + 3] { n += 1 }
        i += 4
    }
    return n
}
