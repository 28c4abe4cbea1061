/// Reads and writes scene files: the JSON format of docs/SCENE-FORMAT.md, which mirrors
/// Apple's Swift API for layers, animations and transactions one to one. Not Apple API.
public enum SceneFile {
    /// Loads the scene at `url`; image paths are relative to its folder. Throws
    /// `SceneLoadError` listing every problem found.
    public static func load(contentsOf url: URL, options: SceneLoadOptions = .init()) throws -> LoadedScene {
        let data = try readFile(url, options: options)
        return try load(data: data, baseDirectory: url.deletingLastPathComponent(), options: options)
    }

    /// Loads a scene from JSON bytes; image paths are relative to `baseDirectory`.
    /// The tree is built and committed inside one transaction at scene time 0 with actions
    /// disabled, so nothing in it animates implicitly and animations with `beginTime` 0 begin
    /// at 0 (docs/BEHAVIOUR.md C9). Changes the calling thread made to other layers and not yet
    /// committed are committed first (at media time 0); don't call it inside an explicit
    /// `CATransaction.begin()`/`commit()`, which would hold the scene's commit back.
    public static func load(data: Data, baseDirectory: URL, options: SceneLoadOptions = .init()) throws -> LoadedScene {
        let limits = options.limits
        guard data.count <= limits.maxFileBytes else {
            throw SceneLoadError(problems: [SceneProblem(path: "", message: "the scene file has \(data.count) bytes; at most \(limits.maxFileBytes) are allowed (limit maxFileBytes)")])
        }
        let node: JSONNode
        do {
            node = try JSONParser.parse([UInt8](data), maxDepth: limits.maxJSONDepth)
        } catch {
            throw SceneLoadError(problems: [SceneProblem(path: "", message: "malformed JSON at column \(error.column): \(error.message)", line: error.line, column: error.column)])
        }
        return try load(node, baseDirectory: baseDirectory, options: options)
    }

    /// Builds and checks the scene of parsed JSON (from a file, or from a `Decoder` through
    /// `LoadedScene`'s `Decodable`). `baseDirectory` nil: image contents are a problem (there
    /// is no folder to read them from).
    static func load(_ node: JSONNode, baseDirectory: URL?, options: SceneLoadOptions) throws(SceneLoadError) -> LoadedScene {
        let reader = SceneReader(options: options, baseDirectory: baseDirectory)
        let scene: LoadedScene? = CAMediaClock.withFrameTime(0) {
            // An implicit transaction left open by the caller would swallow ours (a nested
            // commit only joins the enclosing transaction, K2): commit it first.
            CATransaction.flush()
            CATransaction.begin()
            CATransaction.setDisableActions(true)
            let s = reader.document(node)
            CATransaction.commit()
            return s
        }
        guard reader.problems.isEmpty, let scene else {
            throw SceneLoadError(problems: reader.problems.isEmpty
                                 ? [SceneProblem(path: "", message: "the scene could not be built")] : reader.problems)
        }
        return scene
    }

    /// Every problem of the scene at `url` (empty when it loads).
    public static func validate(contentsOf url: URL, options: SceneLoadOptions = .init()) -> [SceneProblem] {
        do {
            _ = try load(contentsOf: url, options: options)
            return []
        } catch let e as SceneLoadError {
            return e.problems
        } catch {
            return [SceneProblem(path: "", message: "\(error)")]
        }
    }

    /// A live layer tree as scene JSON. `CGImage` contents are written as PNG files into
    /// `imageDirectory` (the folder the JSON is meant to be saved in; file names come from
    /// the layers' names) and referenced by file name. Throws `SceneEncodingError` for what
    /// the format cannot say (see there).
    public static func encode(root: CALayer, size: CGSize, scale: CGFloat, duration: CFTimeInterval,
                              framesPerSecond: Double, imageDirectory: URL?,
                              transactions: [SceneTransaction] = []) throws -> Data {
        let doc = try SceneWriter.write(imageDirectory: imageDirectory) {
            try $0.document(root: root, size: size, scale: scale, duration: duration,
                            framesPerSecond: framesPerSecond, transactions: transactions)
        }
        return Data(JSONWriter.write(doc).utf8)
    }

    /// A loaded or Swift-built scene as JSON, its scheduled transactions included. Encode
    /// before rendering: the tree's state at that moment is what is written.
    public static func encode(_ scene: LoadedScene, imageDirectory: URL?) throws -> Data {
        try encode(root: scene.rootLayer, size: scene.size, scale: scene.scale, duration: scene.duration,
                   framesPerSecond: scene.framesPerSecond, imageDirectory: imageDirectory, transactions: scene.transactions)
    }

    private static func readFile(_ url: URL, options: SceneLoadOptions) throws(SceneLoadError) -> Data {
        let path = url.resolvingSymlinksInPath().path
        var isDir: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDir) else {
            throw SceneLoadError(problems: [SceneProblem(path: "", message: "scene file \(path) not found")])
        }
        guard !isDir.boolValue else {
            throw SceneLoadError(problems: [SceneProblem(path: "", message: "\(path) is a folder, not a scene file")])
        }
        let attributes = (try? FileManager.default.attributesOfItem(atPath: path)) ?? [:]
        // Devices and pipes could be read forever: only regular files (symlinks followed).
        guard (attributes[.type] as? FileAttributeType) == .typeRegular else {
            throw SceneLoadError(problems: [SceneProblem(path: "", message: "\(path) is not a regular file")])
        }
        let size = (attributes[.size] as? NSNumber)?.intValue ?? 0
        guard size <= options.limits.maxFileBytes else {
            throw SceneLoadError(problems: [SceneProblem(path: "", message: "the scene file has \(size) bytes; at most \(options.limits.maxFileBytes) are allowed (limit maxFileBytes)")])
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw SceneLoadError(problems: [SceneProblem(path: "", message: "scene file \(path) cannot be read")])
        }
        return data
    }
}
