import CoreGraphics
import CoreAnimation

extension RenderTreeBuilder {
    /// The last built frame with only `changed` layers re-emitted, when each of them is a plain
    /// leaf of that frame (one box, no sublayers, shadow, mask or contents), still is one, and
    /// keeps its box's shader variant; nil otherwise, and the caller builds a whole frame.
    ///
    /// This is how static subtrees cost nothing per frame: with no commit since the last frame,
    /// only what the timing engine changed is looked at (issue 4, "static subtrees cost no CPU
    /// work per frame beyond what changed"), for the common case of animated leaf layers.
    public func patch(_ changed: [CALayer]) -> (RenderFrame, RenderStats)? {
        guard !frame.passes.isEmpty else { return nil }
        var updates: [(Int, BoxInstance)] = []
        updates.reserveCapacity(changed.count)
        for layer in changed {
            guard let rec = leaves[ObjectIdentifier(layer)], let box = leafBox(layer, rec), boxVariant(box) == rec.variant
            else { return nil }
            updates.append((rec.boxIndex, box))
        }
        for (i, b) in updates { frame.boxes[i] = b }
        var stats = lastStats
        stats.layersVisited = changed.count
        stats.layersDrawn = changed.count
        stats.patchedLayers = changed.count
        return (frame, stats)
    }

    /// A recorded leaf's box as `visit` and `drawLayer` would emit it now, or nil when the
    /// layer is no longer a visible plain leaf.
    func leafBox(_ layer: CALayer, _ rec: LeafRecord) -> BoxInstance? {
        guard layer._sublayers?.isEmpty ?? true, layer._mask == nil, !(layer is CATransformLayer),
              layer.runningTransition(atMedia: CACurrentMediaTime()) == nil else { return nil }
        let copy = layer.renderCopy
        let s = copy.state
        let ctx = rec.ctx
        guard !s.isHidden, s.opacity > 0, ctx.opacity > 0, s.contents == nil, !(copy is CAGradientLayer), !(copy is CAShapeLayer),
              s.zPosition == rec.zPosition,
              ShadowSpec(s) == nil else { return nil }
        let local = LayerGeometry.localToParent(s, parent: ctx.parentState, isMask: false)
        let world = CATransform3DConcat(local, ctx.parentWorld)
        let h = Homography(world)
        guard h.isFiniteInFloat, s.bounds.fitsInFloat else { return nil }
        if facesAway(s, h: h, mirrored: ctx.mirrored) { return nil }
        let opacity = min(s.opacity, 1) * ctx.opacity
        let (fill, border) = layerColors(s, opacity: opacity)
        guard fill.w > 0 || border.w > 0 else { return nil }
        return layerBox(s, h: h, clip: ctx.clip, opacity: opacity, fill: fill, border: border, flags: 0)
    }
}
