// CAReplicatorLayer in scene files (docs/SCENE-FORMAT.md, "CAReplicatorLayer"): its members are
// the Swift property names of Apple's API. Every one but `instanceCount` and `preservesDepth`
// is animatable by key path (`instanceTransform`, `instanceColor`, `instanceDelay`,
// `instanceRedOffset` …), as the model's property table says (CAReplicatorLayer.h marks those
// two as plain properties).

extension SceneSchema {
    static let replicator: [SceneProperty] = [
        .init("instanceCount", .number), .init("preservesDepth", .bool), .init("instanceDelay", .number),
        .init("instanceTransform", .transform), .init("instanceColor", .color),
        .init("instanceRedOffset", .number), .init("instanceGreenOffset", .number),
        .init("instanceBlueOffset", .number), .init("instanceAlphaOffset", .number),
    ]
}

extension SceneReader {
    /// `instanceCount`: a whole number ≥ 0. Apple's property is an `Int`; a fraction or a
    /// negative count is a problem here rather than a silent truncation or a refused set. Huge
    /// counts are accepted: the renderer clamps what it draws per frame (docs/BEHAVIOUR.md R6).
    func instanceCount(_ node: JSONNode, _ path: String) -> Any?? {
        guard let d = number(node, path) else { return nil }
        guard d >= 0, d.rounded() == d, d < 1e15 else {
            problem(path, node, "instanceCount must be a whole number from 0 up (found \(d))")
            return nil
        }
        return .some(Int(d))
    }
}
