/// A whole scene through `JSONEncoder`/`JSONDecoder`: the decodable counterpart of
/// `CALayer`'s `Encodable` (see CALayer+Encodable.swift for why layers themselves decode only
/// through a document). Not Apple API.
///
/// ```swift
/// let data = try JSONEncoder().encode(scene)            // the scene file's JSON
/// let back = try JSONDecoder().decode(LoadedScene.self, from: data)
/// ```
///
/// Decoding runs the scene reader, so a decoded scene is checked exactly as `SceneFile.load`
/// checks a file; a problem throws `DecodingError.dataCorrupted` whose description lists
/// every problem with its JSON path (`root.sublayers[0].opacity: expected a number, found a
/// string`) and whose underlying error is the `SceneLoadError`. Two differences from a file,
/// both from what a `Decoder` can say: problems carry no line numbers, and the members of an
/// object arrive in name order (which only matters for a `set` change of several properties).
/// `userInfo[.sceneDirectory]` (a `URL`) is the folder image paths are relative to and where
/// encoded images are written; `userInfo[.sceneLoadOptions]` sets the limits.
extension LoadedScene: Codable {
    public convenience init(from decoder: any Decoder) throws {
        let options = decoder.userInfo[.sceneLoadOptions] as? SceneLoadOptions ?? SceneLoadOptions()
        let json = try JSONValue.decode(from: decoder, depth: 0, maxDepth: options.limits.maxJSONDepth)
        let scene: LoadedScene
        do {
            scene = try SceneFile.load(JSONNode(json), baseDirectory: decoder.userInfo[.sceneDirectory] as? URL, options: options)
        } catch {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: error.description, underlyingError: error))
        }
        self.init(rootLayer: scene.rootLayer, size: scene.size, scale: scene.scale, duration: scene.duration,
                  framesPerSecond: scene.framesPerSecond, transactions: scene.transactions, namedLayers: scene.namedLayers)
    }

    /// Writes the whole scene document, its scheduled transactions included, as
    /// `SceneFile.encode` does. Encode before rendering: the tree's state then is what is written.
    public func encode(to encoder: any Encoder) throws {
        try SceneCoding.encode(self, to: encoder) {
            try $0.document(root: rootLayer, size: size, scale: scale, duration: duration,
                            framesPerSecond: framesPerSecond, transactions: transactions)
        }
    }
}
