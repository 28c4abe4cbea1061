import Foundation

// Video layers (docs/SCENE-FORMAT.md, "Video layers"): `CAVideoLayer` with a `source` file
// relative to the scene's folder. Extension beyond Apple's API.

extension SceneReader {
    /// Reads `source`: a video file under the scene's folder (the same path rules as images),
    /// opened now, so a file that is not a video is a problem naming it.
    func videoSource(_ o: ObjectReader, _ layer: CAVideoLayer) {
        guard let v = o["source"] else { return }
        guard let rel = string(v, o.at("source")) else { return }
        guard let resolved = sceneFile(rel, o.at("source"), v, what: "video") else { return }
        let attributes = (try? FileManager.default.attributesOfItem(atPath: resolved)) ?? [:]
        guard FileManager.default.fileExists(atPath: resolved), (attributes[.type] as? FileAttributeType) == .typeRegular else {
            problem(o.at("source"), v, "video file \"\(rel.prefix(200))\" not found")
            return
        }
        layer.url = URL(fileURLWithPath: resolved)
        if let e = layer.error {
            problem(o.at("source"), v, "video file \"\(rel.prefix(200))\" cannot be played: \(e.reason)")
            layer.url = nil
        }
    }
}
