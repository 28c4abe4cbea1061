// What the scene format's `Codable` conformances share (CALayer+Encodable.swift,
// LoadedScene+Codable.swift): the `userInfo` keys that say where images go and how strictly
// to load, and the bridge from the writer's and reader's errors to Swift's coding errors.

extension CodingUserInfoKey {
    /// A `URL`: the folder the scene's JSON is (to be) saved in. Encoding writes `CGImage`
    /// contents there as PNG files and refers to them by name; decoding reads image paths
    /// relative to it. Without it, image contents cannot be encoded or decoded (an error
    /// says so). Not Apple API: part of the scene format (docs/SCENE-FORMAT.md).
    public static let sceneDirectory = CodingUserInfoKey(rawValue: "CAScene.sceneDirectory")!
    /// A `SceneLoadOptions` for decoding (limits, images outside the folder); the defaults
    /// when absent. Not Apple API.
    public static let sceneLoadOptions = CodingUserInfoKey(rawValue: "CAScene.sceneLoadOptions")!
}

enum SceneCoding {
    /// Runs the scene writer for `value` being encoded into `encoder`, and writes what it
    /// returns. A `SceneEncodingError` becomes `EncodingError.invalidValue` carrying it.
    static func encode<T>(_ value: T, to encoder: any Encoder, _ body: (SceneWriter) throws -> JSONValue) throws {
        let json: JSONValue
        do {
            json = try SceneWriter.write(imageDirectory: encoder.userInfo[.sceneDirectory] as? URL, body)
        } catch let e as SceneEncodingError {
            throw EncodingError.invalidValue(value, .init(codingPath: encoder.codingPath, debugDescription: e.description, underlyingError: e))
        }
        try json.encode(to: encoder)
    }

    /// The coding path as a JSON path (`scenes[2].root`), for the writer's error messages;
    /// `fallback` when the value is the whole document.
    static func jsonPath(_ codingPath: [any CodingKey], fallback: String) -> String {
        var out = ""
        for k in codingPath {
            if let i = k.intValue { out += "[\(i)]" } else { out += out.isEmpty ? k.stringValue : ".\(k.stringValue)" }
        }
        return out.isEmpty ? fallback : out
    }
}
