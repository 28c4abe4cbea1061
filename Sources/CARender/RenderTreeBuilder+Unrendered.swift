import CoreAnimation

extension RenderTreeBuilder {
    /// No silent gaps: a layer class whose own content this renderer does not draw yet warns
    /// once, naming what is missing, the first time a frame meets one with content to show (the
    /// layer's background, border, sublayers … still draw). Plain, shape, gradient and
    /// transform layers — nearly every layer — leave after metatype compares. (`CAReplicatorLayer`
    /// draws its copies: `RenderTreeBuilder+Replicas.swift`.)
    @inline(__always)
    func warnIfContentIsNotRendered(_ layer: CALayer) {
        // Metatype compares (pointer equality) for the classes drawn in full, so the common
        // layers pay no dynamic cast; only the rest are asked below.
        let t = type(of: layer)
        if t == CALayer.self || t == CAShapeLayer.self || t == CAGradientLayer.self || t == CATransformLayer.self { return }
        // (CATiledLayer draws its tiles: `Emitters/TiledEmitter.swift`.)
        return
    }
}
