/// What one frame cost, counted by the builder and the backend (the benchmark prints these).
public struct RenderStats: Sendable, Equatable, CustomStringConvertible {
    public var layersVisited = 0
    public var layersDrawn = 0
    public var instances = 0
    public var batches = 0
    public var drawCalls = 0
    public var offscreenPasses = 0
    public var textureUploads = 0
    public var vertices = 0
    /// Seconds spent building the render tree (engine side) and executing it (GL side).
    public var buildSeconds = 0.0
    public var glSeconds = 0.0

    public init() {}

    public var description: String {
        "layers \(layersDrawn)/\(layersVisited), instances \(instances), batches \(batches), draw calls \(drawCalls), "
            + "offscreen passes \(offscreenPasses), texture uploads \(textureUploads), vertices \(vertices)"
    }
}
