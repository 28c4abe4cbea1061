/// The stored values of a `CAEmitterLayer` with Apple's defaults (docs/BEHAVIOUR.md A3): a point
/// emitter in volume mode, unordered rendering, every multiplier 1 and seed 0.
package struct EmitterLayerState {
    var emitterCells: [CAEmitterCell]? = nil
    var birthRate: Float = 1
    var lifetime: Float = 1
    var emitterPosition = CGPoint.zero
    var emitterZPosition: CGFloat = 0
    var emitterSize = CGSize.zero
    var emitterDepth: CGFloat = 0
    var emitterShape = CAEmitterLayerEmitterShape.point
    var emitterMode = CAEmitterLayerEmitterMode.volume
    var renderMode = CAEmitterLayerRenderMode.unordered
    var preservesDepth = false
    var velocity: Float = 1
    var scale: Float = 1
    var spin: Float = 1
    var seed: UInt32 = 0
}

/// A particle-system layer (Apple's `CAEmitterLayer`). The model side: the emitter's
/// geometry and the multipliers applied to every cell's values. Its particles at a time are
/// `EmitterSimulation`'s (a pure function of `seed`, the layer's local time and these values;
/// docs/BEHAVIOUR.md Q1–Q6); the renderer draws them (`ParticleEmitter` in CARender).
open class CAEmitterLayer: CALayer {
    package var emitter = EmitterLayerState()
    /// The model layer's value timeline for the particle simulation (`EmitterTimeline`); not
    /// copied into presentation copies.
    package var timelineStore: EmitterTimeline?

    public override init() { super.init() }

    /// Copies the emitter state too (presentation copies are of the model's class, L4). The
    /// cells are shared, as Apple's shallow copy shares them.
    public required init(layer: Any) {
        super.init(layer: layer)
        if let other = layer as? CAEmitterLayer { emitter = other.emitter }
    }

    public required init?(coder: NSCoder) { super.init(coder: coder) }

    public var emitterCells: [CAEmitterCell]? {
        get { emitter.emitterCells }
        set { updateLayerObject(self, "emitterCells", \.emitter.emitterCells, newValue) }
    }
    /// Multiplies each cell's birth rate.
    public var birthRate: Float { get { emitter.birthRate } set { setFinite("birthRate", \.emitter.birthRate, newValue) } }
    /// Multiplies each cell's lifetime.
    public var lifetime: Float { get { emitter.lifetime } set { setFinite("lifetime", \.emitter.lifetime, newValue) } }
    public var emitterPosition: CGPoint {
        get { emitter.emitterPosition }
        set {
            guard newValue.x.isFinite, newValue.y.isFinite else { return rejectNonFinite("emitterPosition", newValue) }
            updateLayerValue(self, "emitterPosition", \.emitter.emitterPosition, newValue)
        }
    }
    public var emitterZPosition: CGFloat { get { emitter.emitterZPosition } set { setFinite("emitterZPosition", \.emitter.emitterZPosition, newValue) } }
    public var emitterSize: CGSize {
        get { emitter.emitterSize }
        set {
            guard newValue.width.isFinite, newValue.height.isFinite else { return rejectNonFinite("emitterSize", newValue) }
            updateLayerValue(self, "emitterSize", \.emitter.emitterSize, newValue)
        }
    }
    public var emitterDepth: CGFloat { get { emitter.emitterDepth } set { setFinite("emitterDepth", \.emitter.emitterDepth, newValue) } }
    public var emitterShape: CAEmitterLayerEmitterShape { get { emitter.emitterShape } set { updateLayerValue(self, "emitterShape", \.emitter.emitterShape, newValue) } }
    public var emitterMode: CAEmitterLayerEmitterMode { get { emitter.emitterMode } set { updateLayerValue(self, "emitterMode", \.emitter.emitterMode, newValue) } }
    public var renderMode: CAEmitterLayerRenderMode { get { emitter.renderMode } set { updateLayerValue(self, "renderMode", \.emitter.renderMode, newValue) } }
    public var preservesDepth: Bool { get { emitter.preservesDepth } set { updateLayerValue(self, "preservesDepth", \.emitter.preservesDepth, newValue) } }
    /// Multiplies each cell's velocity.
    public var velocity: Float { get { emitter.velocity } set { setFinite("velocity", \.emitter.velocity, newValue) } }
    /// Multiplies each cell's scale.
    public var scale: Float { get { emitter.scale } set { setFinite("scale", \.emitter.scale, newValue) } }
    /// Multiplies each cell's spin.
    public var spin: Float { get { emitter.spin } set { setFinite("spin", \.emitter.spin, newValue) } }
    /// Seed of the particle random number generator.
    public var seed: UInt32 { get { emitter.seed } set { updateLayerValue(self, "seed", \.emitter.seed, newValue) } }

    private func setFinite<V: BinaryFloatingPoint>(_ key: String, _ kp: ReferenceWritableKeyPath<CAEmitterLayer, V>, _ v: V) {
        guard v.isFinite else { return rejectNonFinite(key, v) }
        updateLayerValue(self, key, kp, v)
    }

    /// The emitter geometry and the multipliers are animatable (CAEmitterLayer.h).
    package override class func makePropertyTable() -> PropertyTable {
        var t = super.makePropertyTable()
        t.add("birthRate", \CAEmitterLayer.birthRate)
        t.add("lifetime", \CAEmitterLayer.lifetime)
        t.add("emitterPosition", \CAEmitterLayer.emitterPosition)
        t.add("emitterZPosition", \CAEmitterLayer.emitterZPosition)
        t.add("emitterSize", \CAEmitterLayer.emitterSize)
        t.add("emitterDepth", \CAEmitterLayer.emitterDepth)
        t.add("velocity", \CAEmitterLayer.velocity)
        t.add("scale", \CAEmitterLayer.scale)
        t.add("spin", \CAEmitterLayer.spin)
        t.add("preservesDepth", \CAEmitterLayer.preservesDepth, .none)
        t.addConstant("emitterShape", \CAEmitterLayer.emitterShape)
        t.addConstant("emitterMode", \CAEmitterLayer.emitterMode)
        t.addConstant("renderMode", \CAEmitterLayer.renderMode)
        t.addObject("emitterCells", get: { (l: CAEmitterLayer) in l.emitterCells }, set: { l, v in l.emitterCells = v as? [CAEmitterCell] })
        t.addNumber("seed", get: { (l: CAEmitterLayer) in Double(l.seed) }, set: { l, d in
            if d >= 0, d <= Double(UInt32.max) { l.seed = UInt32(d) } else { l.rejectNonFinite("seed", d) }
        }, read: { $0.seed })
        return t
    }
}
