import CoreAnimation

extension RenderTreeBuilder {
    /// How one layer composites, decided in one place: what it casts, what masks it, and whether
    /// its subtree must be isolated — drawn into an offscreen target and composited once —
    /// because a mask cuts it, group opacity fades it as one (`allowsGroupOpacity`, N4), or a
    /// shadow is cast from its pixels (N1). `visit` follows the plan; nothing else decides.
    struct CompositingPlan {
        /// The mask layer, unless hidden (a hidden mask does not mask).
        var mask: CALayer?
        /// The shadow drawn, if any: a `shadowPath` shadow always, one cast from the layer's
        /// pixels only where it paints some.
        var shadow: ShadowSpec?
        /// A plain rounded box casts an analytically blurred copy of itself (no offscreen pass):
        /// the shape and its alpha.
        var impliedShadow: (ShadowPathShape, Float)?
        /// Several overlapping pieces faded as one group.
        var groupOpacity: Bool
        /// A shadow that needs the layer's rendered pixels (blurred from an offscreen target).
        var offscreenShadow: Bool

        /// The subtree draws into an offscreen target first.
        var isolated: Bool { mask != nil || groupOpacity || offscreenShadow }
    }

    /// The plan for a visible layer. A `CATransformLayer` has none of it: "mask and shadow are
    /// ignored", and opacity "is applied to each sublayer individually" (CATransformLayer doc).
    @inline(__always)
    func compositingPlan(_ layer: CALayer, _ copy: CALayer, _ s: LayerState, isTransformLayer: Bool) -> CompositingPlan {
        if isTransformLayer {
            return CompositingPlan(mask: nil, shadow: nil, impliedShadow: nil, groupOpacity: false, offscreenShadow: false)
        }
        let mask = layer._mask.flatMap { $0.renderCopy.state.isHidden ? nil : $0 }
        let shadow = ShadowSpec(s).flatMap { s.shadowPath != nil || castsShadow(layer, copy, s) ? $0 : nil }
        let groupOpacity = s.opacity < 1 && s.allowsGroupOpacity && drawsSeveralPieces(layer, copy, s)
        let implied = shadow != nil && s.shadowPath == nil ? impliedShadowShape(layer, copy, s) : nil
        let offscreenShadow = shadow != nil && s.shadowPath == nil && implied == nil
        return CompositingPlan(mask: mask, shadow: shadow, impliedShadow: implied, groupOpacity: groupOpacity,
                               offscreenShadow: offscreenShadow)
    }
}
