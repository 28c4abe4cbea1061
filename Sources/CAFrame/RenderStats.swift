/// What one frame cost, counted by the builder and the backend (the benchmark prints these).
public struct RenderStats: Sendable, Equatable, CustomStringConvertible {
    public var layersVisited = 0
    public var layersDrawn = 0
    public var instances = 0
    public var batches = 0
    public var drawCalls = 0
    public var offscreenPasses = 0
    public var textureUploads = 0
    /// Bytes of texels those uploads sent (image, drawn-layer and video-frame textures and image
    /// atlas pages at 4 bytes a pixel, gradient ramps at 16): what a frame costs the bus. The
    /// shape atlas's partial updates are not counted. Extension beyond Apple's API.
    public var textureUploadBytes = 0
    public var vertices = 0
    /// Seconds spent building the render tree (engine side) and executing it (GL side).
    /// True when nothing changed since the previous frame and it was kept as it was (no
    /// render tree built, no GL work).
    public var reusedFrame = false
    /// Layers re-emitted into the previous frame instead of building a new one (plain leaves'
    /// boxes, and every layer of the subtrees re-emitted; a leaf whose parent is re-emitted
    /// after it may count twice); 0 for a full build.
    public var patchedLayers = 0
    /// Of those, the subtrees re-emitted whole in place (a layer that is not a plain box leaf,
    /// with its sublayers: `RenderTreeBuilder+Subtrees.swift`); their layers count in
    /// `patchedLayers`.
    public var patchedSubtrees = 0
    /// Shape rasters made this frame (cache misses), their flattened segments, and the seconds
    /// rasterising took (part of `buildSeconds`).
    public var shapeRasters = 0
    public var shapeSegments = 0
    public var shapeRasterSeconds = 0.0
    /// Opaque box interiors the GL backend drew front to back into the main pass's depth
    /// buffer first, so the pixels they cover are not shaded for the instances below them.
    public var opaqueInteriors = 0
    /// Main passes the GL backend began by clearing to an opaque first box that covers the whole
    /// target (the root's background) instead of drawing it (0 or 1 per frame).
    public var backgroundClears = 0
    /// Opaque `CATransformLayer` planes whose interiors the GL backend wrote into the depth
    /// buffer at their 3D depth (intersecting planes drawn whole, not split).
    public var depthTestedPlanes = 0
    /// Live particles of `CAEmitterLayer`s drawn this frame, and the seconds their simulation
    /// took (part of `buildSeconds`).
    public var particles = 0
    public var particleSeconds = 0.0
    /// Emission runs whose particles the GL backend computed from one record each (issue 21's
    /// record path, `ParticleRunInstance`). Their particles count in `particles` as the quads
    /// drawn: every birth of the run's window, including any its shader drops (a particle dead
    /// before its cell's longest lifetime, or transparent), which the CPU path does not count.
    public var gpuParticleRuns = 0
    /// Rasterised layers (`shouldRasterize`) whose kept texture was reused as it was (hits), and
    /// those drawn into it this frame (misses: first frame, or something inside changed).
    /// Extension beyond Apple's API, like the rest of these statistics.
    public var rasterCacheHits = 0
    public var rasterCacheMisses = 0
    /// Replicator copies the GL backend drew instanced from one recorded copy
    /// (`ReplicaDraw`), counted in `instances` too. Extension beyond Apple's API.
    public var gpuReplicatedCopies = 0
    public var buildSeconds = 0.0
    public var glSeconds = 0.0

    public init() {}

    public var description: String {
        (reusedFrame ? "reused previous frame; " : "") + (patchedLayers > 0 ? "patched \(patchedLayers) layers" + (patchedSubtrees > 0 ? " (\(patchedSubtrees) subtrees)" : "") + "; " : "") + "layers \(layersDrawn)/\(layersVisited), instances \(instances), batches \(batches), draw calls \(drawCalls), "
            + "offscreen passes \(offscreenPasses), texture uploads \(textureUploads) (\(textureUploadBytes) bytes), vertices \(vertices)"
            + (opaqueInteriors > 0 ? ", opaque interiors \(opaqueInteriors)" : "")
            + (depthTestedPlanes > 0 ? ", depth-tested planes \(depthTestedPlanes)" : "")
            + (particles > 0 ? ", particles \(particles)" + (gpuParticleRuns > 0 ? " (\(gpuParticleRuns) GPU runs)" : "") : "")
            + (rasterCacheHits + rasterCacheMisses > 0 ? ", raster cache \(rasterCacheHits) hits / \(rasterCacheMisses) misses" : "")
    }
}
