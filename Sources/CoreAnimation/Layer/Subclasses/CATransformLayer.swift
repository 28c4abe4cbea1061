/// A layer that renders its sublayers as true 3D objects instead of flattening them into its
/// plane (Apple's `CATransformLayer`). Apple's documentation: "only the sublayers of a
/// transform layer are rendered"; properties that need a flattened image of the layer
/// (backgroundColor, contents, border, filters, masks …) are ignored by the renderer; and
/// because a transform layer has no 2D coordinate space of its own, hit testing never
/// returns the transform layer itself, only one of its sublayers.
open class CATransformLayer: CALayer {
    /// Like `CALayer.hitTest(_:)` but never answers the transform layer itself: it draws
    /// nothing of its own, so only sublayers can be hit.
    open override func hitTest(_ p: CGPoint) -> CALayer? {
        let hit = super.hitTest(p)
        return hit === self ? nil : hit
    }
}
