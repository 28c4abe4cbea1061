import QuartzCore
import CAScene
import CASVG
import CADemoScenes
import Foundation

/// Numbers as scene files write them: whole numbers without a fraction.
enum JSONNumber {
    static func text(_ v: Double) -> String { v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(v) }
}

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
    static func load(path: String?, allowOutsideImages: Bool, overrides: SceneOverrides = .init()) throws -> SceneSource {
        CAMediaClock.freeze(at: 0)
        guard !overrides.isEmpty else {
            guard let path else { return demo() }
            return try loadFile(path, allowOutsideImages: allowOutsideImages)
        }
        return try loadWithOverrides(path, allowOutsideImages: allowOutsideImages, overrides: overrides)
    }

    /// A scene file (or standard input, or the demo as its scene file) with template values
    /// applied to its JSON (`SceneOverrides`) before loading.
    static func loadWithOverrides(_ path: String?, allowOutsideImages: Bool, overrides: SceneOverrides) throws -> SceneSource {
        let options = options(allowOutsideImages: allowOutsideImages)
        let data: Data, base: URL, name: String
        switch path {
        case nil:
            do { data = try SceneFile.encode(DemoScene.makeScene(), imageDirectory: nil) } catch { throw CLIError("the demo cannot be written as JSON for --set: \(error)") }
            base = URL(fileURLWithPath: FileManager.default.currentDirectoryPath); name = "demo"
        case "-"?:
            data = try readStandardInput(limit: options.limits.maxFileBytes)
            base = URL(fileURLWithPath: FileManager.default.currentDirectoryPath); name = "-"
        case let p?:
            guard InputKind.of(path: p) == .scene else { throw CLIError.usage("--set, --values and --batch change scene files (JSON), not \(p)") }
            guard let d = FileManager.default.contents(atPath: p) else { throw CLIError("\(p): scene file not found or not readable") }
            data = d; base = URL(fileURLWithPath: p).deletingLastPathComponent(); name = p
        }
        let changed = try overrides.apply(to: data, source: name)
        let scene: LoadedScene
        do {
            scene = try SceneFile.load(data: changed, baseDirectory: base, options: options)
        } catch let e as SceneLoadError {
            throw CLIError("\(name) with --set/--values: \(e.problems.first.map(\.description) ?? "the scene could not be loaded")")
        }
        try checkRootSize(scene, name: name)
        return source(scene, name: name)
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

    /// Every problem in the scene file, each with its JSON path, line and column.
    static func validateProblems(_ path: String, allowOutsideImages: Bool) throws -> [SceneProblem] {
        CAMediaClock.freeze(at: 0)
        return SceneFile.validate(contentsOf: URL(fileURLWithPath: path), options: options(allowOutsideImages: allowOutsideImages))
    }

    /// A scene file through CAScene (`SceneFile.load`). Problems become one line: the first
    /// problem and how many more there are (`carender validate` lists them all).
    static func loadFile(_ path: String, allowOutsideImages: Bool) throws -> SceneSource {
        if path == "-" { return try loadStandardInput(allowOutsideImages: allowOutsideImages) }
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
        try checkRootSize(scene, name: path)
        return source(scene, name: path)
    }

    /// A root layer without a size draws nothing: the frame would be only the clear colour
    /// (issue 25). An error naming the fix rather than a transparent image.
    static func checkRootSize(_ scene: LoadedScene, name: String) throws {
        let b = scene.rootLayer.bounds
        guard b.width <= 0 || b.height <= 0 else { return }
        let w = JSONNumber.text(Double(scene.size.width)), h = JSONNumber.text(Double(scene.size.height))
        throw CLIError("\(name): root: the root layer has no size, so nothing would be drawn: add \"frame\": [0, 0, \(w), \(h)] (the scene's size) or \"bounds\" to \"root\"")
    }

    /// Reads standard input to its end, at most the scene-file limit (64 MiB) and one byte
    /// more to tell an over-long input.
    static func readStandardInput(limit: Int) throws -> Data {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while data.count <= limit {
            let n = read(STDIN_FILENO, &buffer, buffer.count)
            if n == 0 { break }
            if n < 0 { if errno == EINTR { continue }; throw CLIError("-: cannot read standard input: \(String(cString: strerror(errno)))") }
            data.append(contentsOf: buffer[0..<n])
        }
        guard data.count <= limit else { throw CLIError("-: standard input holds more than \(limit) bytes (the scene-file limit)") }
        return data
    }

    /// `-` as SCENE: a scene (JSON) or an SVG document (its first non-space byte is `<`) from
    /// standard input; image paths are relative to the current folder.
    static func loadStandardInput(allowOutsideImages: Bool) throws -> SceneSource {
        let options = options(allowOutsideImages: allowOutsideImages)
        let data = try readStandardInput(limit: options.limits.maxFileBytes)
        if data.first(where: { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }) == UInt8(ascii: "<") {
            let doc: SVGDocument
            do { doc = try SVGDocument(data: data) } catch { throw CLIError("-: \(error)") }
            return SceneSource(name: "-", rootLayer: doc.layer, size: doc.size, scale: 1, duration: 0, framesPerSecond: 30,
                               notes: doc.issues.map { "-: \($0)" })
        }
        do {
            let scene = try SceneFile.load(data: data, baseDirectory: URL(fileURLWithPath: FileManager.default.currentDirectoryPath), options: options)
            try checkRootSize(scene, name: "-")
            return source(scene, name: "-")
        } catch let e as SceneLoadError {
            let more = e.problems.count > 1 ? " (and \(e.problems.count - 1) more)" : ""
            throw CLIError("-: \(e.problems.first.map(\.description) ?? "the scene could not be loaded")\(more)")
        }
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
