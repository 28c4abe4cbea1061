/// The stored values of a `CAReplicatorLayer` with Apple's defaults (docs/BEHAVIOUR.md A3): one
/// instance, no delay, identity step transform, opaque white, no colour offsets.
package struct ReplicatorLayerState {
    var instanceCount = 1
    var preservesDepth = false
    var instanceDelay: CFTimeInterval = 0
    var instanceTransform = CATransform3DIdentity
    var instanceColor: CGColor? = opaqueWhiteRGBA
    var instanceRedOffset: Float = 0
    var instanceGreenOffset: Float = 0
    var instanceBlueOffset: Float = 0
    var instanceAlphaOffset: Float = 0
}

/// Apple's `CAReplicatorLayer`, which draws its sublayers `instanceCount` times, each copy
/// transformed, delayed and tinted relative to the previous one. The model holds the properties
/// with Apple's defaults; CARender draws the copies (`RenderTreeBuilder+Replicas.swift`,
/// docs/BEHAVIOUR.md R1–R7).
open class CAReplicatorLayer: CALayer {
    package var replicator = ReplicatorLayerState()

    public override init() { super.init() }

    /// Copies the replicator state too (presentation copies are of the model's class, L4).
    public required init(layer: Any) {
        super.init(layer: layer)
        if let other = layer as? CAReplicatorLayer { replicator = other.replicator }
    }

    public required init?(coder: NSCoder) { super.init(coder: coder) }

    /// Number of copies, the original included. Negative counts are ignored with a warning
    /// (Apple draws nothing for them; the model keeps its last valid value).
    public var instanceCount: Int {
        get { replicator.instanceCount }
        set { guard newValue >= 0 else { return rejectNonFinite("instanceCount", newValue) }; updateLayerValue(self, "instanceCount", \.replicator.instanceCount, newValue) }
    }
    public var preservesDepth: Bool { get { replicator.preservesDepth } set { updateLayerValue(self, "preservesDepth", \.replicator.preservesDepth, newValue) } }
    public var instanceDelay: CFTimeInterval {
        get { replicator.instanceDelay }
        set { guard newValue.isFinite else { return rejectNonFinite("instanceDelay", newValue) }; updateLayerValue(self, "instanceDelay", \.replicator.instanceDelay, newValue) }
    }
    public var instanceTransform: CATransform3D {
        get { replicator.instanceTransform }
        set { guard newValue.isFinite else { return rejectNonFinite("instanceTransform", newValue) }; updateLayerValue(self, "instanceTransform", \.replicator.instanceTransform, newValue) }
    }
    public var instanceColor: CGColor? { get { replicator.instanceColor } set { updateLayerValue(self, "instanceColor", \.replicator.instanceColor, newValue) } }
    public var instanceRedOffset: Float {
        get { replicator.instanceRedOffset }
        set { guard newValue.isFinite else { return rejectNonFinite("instanceRedOffset", newValue) }; updateLayerValue(self, "instanceRedOffset", \.replicator.instanceRedOffset, newValue) }
    }
    public var instanceGreenOffset: Float {
        get { replicator.instanceGreenOffset }
        set { guard newValue.isFinite else { return rejectNonFinite("instanceGreenOffset", newValue) }; updateLayerValue(self, "instanceGreenOffset", \.replicator.instanceGreenOffset, newValue) }
    }
    public var instanceBlueOffset: Float {
        get { replicator.instanceBlueOffset }
        set { guard newValue.isFinite else { return rejectNonFinite("instanceBlueOffset", newValue) }; updateLayerValue(self, "instanceBlueOffset", \.replicator.instanceBlueOffset, newValue) }
    }
    public var instanceAlphaOffset: Float {
        get { replicator.instanceAlphaOffset }
        set { guard newValue.isFinite else { return rejectNonFinite("instanceAlphaOffset", newValue) }; updateLayerValue(self, "instanceAlphaOffset", \.replicator.instanceAlphaOffset, newValue) }
    }

    /// instanceDelay, instanceTransform, instanceColor and the offsets are animatable
    /// (CAReplicatorLayer.h); instanceCount and preservesDepth are not.
    package override class func makePropertyTable() -> PropertyTable {
        var t = super.makePropertyTable()
        t.add("instanceCount", \CAReplicatorLayer.instanceCount, .none)
        t.add("preservesDepth", \CAReplicatorLayer.preservesDepth, .none)
        t.add("instanceDelay", \CAReplicatorLayer.instanceDelay)
        t.add("instanceTransform", \CAReplicatorLayer.instanceTransform)
        t.add("instanceColor", \CAReplicatorLayer.instanceColor)
        t.add("instanceRedOffset", \CAReplicatorLayer.instanceRedOffset)
        t.add("instanceGreenOffset", \CAReplicatorLayer.instanceGreenOffset)
        t.add("instanceBlueOffset", \CAReplicatorLayer.instanceBlueOffset)
        t.add("instanceAlphaOffset", \CAReplicatorLayer.instanceAlphaOffset)
        return t
    }
}
