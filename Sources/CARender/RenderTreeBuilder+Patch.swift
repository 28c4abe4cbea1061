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
    ///
    /// `committed` are layers that commits changed since that frame (`CommitLog`): patched the
    /// same way when every one is a leaf of that frame, so a commit per frame that changes a
    /// few leaves (a display link moving them) costs those leaves, not a whole build. A layer
    /// that is not a leaf of the last frame — a parent, one added or removed, one elsewhere —
    /// makes the caller build a whole frame.
    public func patch(_ changed: [CALayer], committed: [ObjectIdentifier] = []) -> (RenderFrame, RenderStats)? {
        guard !frame.passes.isEmpty else { return nil }
        var layers = changed
        if !committed.isEmpty {
            // Every identifier is checked before any record's layer is touched.
            guard committed.allSatisfy({ leaves[$0] != nil }) else { return nil }
            // A layer both animated and committed is re-emitted once.
            let animated = Set(changed.map(ObjectIdentifier.init))
            for id in Set(committed) where !animated.contains(id) { layers.append(leaves[id]!.layer) }
        }
        var updates: [(Int, BoxInstance)] = []
        updates.reserveCapacity(layers.count)
        for layer in layers {
            guard let rec = leaves[ObjectIdentifier(layer)], let box = leafBox(layer, rec), boxVariant(box) == rec.variant
            else { return nil }
            updates.append((rec.boxIndex, box))
        }
        for (i, b) in updates { frame.boxes[i] = b }
        var stats = lastStats
        stats.layersVisited = layers.count
        stats.layersDrawn = layers.count
        stats.patchedLayers = layers.count
        stats.shapeRasters = 0
        stats.shapeSegments = 0
        stats.shapeRasterSeconds = 0
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
