/// The stored values of a `CATiledLayer` with Apple's defaults (docs/BEHAVIOUR.md A3): one level of
/// detail, no bias, 256×256 tiles.
package struct TiledLayerState {
    var levelsOfDetail = 1
    var levelsOfDetailBias = 0
    var tileSize = CGSize(width: 256, height: 256)
}

/// A layer that draws its content in tiles at several levels of detail (Apple's `CATiledLayer`).
///
/// The renderer asks it for the tiles each frame shows (`CATiledLayer+Tiles.swift`): only tiles
/// inside the render target and the layer's clipping ancestors, at the level of detail the
/// on-screen scale needs; `draw(in:)` (or the delegate's `draw(_:in:)`) runs once per tile, with
/// the context clipped to the tile and its CTM scaled to the level. Tiles are kept per level
/// and reused across frames; `setNeedsDisplay()` / `setNeedsDisplay(_:)` throw away the tiles
/// they touch. Tiles are drawn synchronously before the frame that needs them renders, offscreen
/// and in the window alike (Apple draws them on background threads and fades late tiles in over
/// `fadeDuration()`; here no tile arrives late, so none fades).
open class CATiledLayer: CALayer {
    package var tiled = TiledLayerState()
    /// The tiles drawn so far (kept on the model layer, which the renderer asks).
    package var tileStore = TileStore()

    public override init() { super.init() }

    /// Copies the tiling state too (presentation copies are of the model's class, L4).
    public required init(layer: Any) {
        super.init(layer: layer)
        if let other = layer as? CATiledLayer { tiled = other.tiled }
    }

    public required init?(coder: NSCoder) { super.init(coder: coder) }

    /// A tiled layer has no single backing store: its tiles are drawn when a frame needs them
    /// (`setNeedsDisplay` has already thrown away the stale ones), so `display()` draws nothing
    /// and leaves `contents` as it is.
    open override func display() {
        dirtyRect = .null
    }

    /// Seconds over which a newly drawn tile fades in; Apple's default is 0.25 (docs/BEHAVIOUR.md A3).
    /// Subclasses override to change it.
    open class func fadeDuration() -> CFTimeInterval { 0.25 }

    /// Number of levels of detail, each half the resolution of the previous. Values below 1
    /// are ignored with a warning.
    public var levelsOfDetail: Int {
        get { tiled.levelsOfDetail }
        set { guard newValue >= 1 else { return rejectNonFinite("levelsOfDetail", newValue) }; updateLayerValue(self, "levelsOfDetail", \.tiled.levelsOfDetail, newValue) }
    }
    /// How many of the levels are magnified rather than minified. Negative values are ignored.
    public var levelsOfDetailBias: Int {
        get { tiled.levelsOfDetailBias }
        set { guard newValue >= 0 else { return rejectNonFinite("levelsOfDetailBias", newValue) }; updateLayerValue(self, "levelsOfDetailBias", \.tiled.levelsOfDetailBias, newValue) }
    }
    /// Maximum tile size in pixels; non-finite or non-positive sizes are ignored.
    public var tileSize: CGSize {
        get { tiled.tileSize }
        set {
            guard newValue.width.isFinite, newValue.height.isFinite, newValue.width > 0, newValue.height > 0 else { return rejectNonFinite("tileSize", newValue) }
            updateLayerValue(self, "tileSize", \.tiled.tileSize, newValue)
        }
    }

    package override class func makePropertyTable() -> PropertyTable {
        var t = super.makePropertyTable()
        t.add("levelsOfDetail", \CATiledLayer.levelsOfDetail, .none)
        t.add("levelsOfDetailBias", \CATiledLayer.levelsOfDetailBias, .none)
        t.add("tileSize", \CATiledLayer.tileSize, .none)
        return t
    }
}
