// `CALayer` and `CAAnimation` are `Encodable` as the scene format's layer and animation
// objects (docs/SCENE-FORMAT.md), written by the same `SceneWriter` as `SceneFile.encode`.
//
// Why only `Encodable`: Apple's `CALayer` and `CAAnimation` adopt NSSecureCoding, not
// `Codable`, and `Decodable` on a non-final class needs a `required init(from:)` in the class
// body — in CoreAnimation, which knows nothing of scene files. Decoding therefore goes
// through the document, `LoadedScene` (LoadedScene+Codable.swift), whose reader also checks
// the JSON and names the path of every problem.
//
// The conformances live outside the classes' module but in the same package, so Swift does
// not treat them as retroactive (no `@retroactive`); they exist only where CAScene is imported.

extension CALayer: Encodable {
    /// Writes the layer as a scene layer object: its class, every property that differs from
    /// a new layer of its class, its mask, sublayers and animations (with their keys).
    /// `CGImage` contents go to PNG files in `encoder.userInfo[.sceneDirectory]`.
    /// Throws `EncodingError.invalidValue` (its underlying error a `SceneEncodingError`
    /// naming the JSON path) for what the format cannot say: a `CATextLayer`, a filter,
    /// contents that are not a `CGImage`, an animation delegate …
    public func encode(to encoder: any Encoder) throws {
        let path = SceneCoding.jsonPath(encoder.codingPath, fallback: "layer")
        try SceneCoding.encode(self, to: encoder) { try $0.layer(self, path, depth: 1) }
    }
}

extension CAAnimation: Encodable {
    /// Writes the animation as a scene animation object (without `key`, which belongs to
    /// `add(_:forKey:)`). Its values are typed by its key path on the format's layer classes;
    /// a layer writes its animations typed by itself.
    public func encode(to encoder: any Encoder) throws {
        let path = SceneCoding.jsonPath(encoder.codingPath, fallback: "animation")
        try SceneCoding.encode(self, to: encoder) { try $0.animation(self, layer: nil, key: nil, path) }
    }
}
