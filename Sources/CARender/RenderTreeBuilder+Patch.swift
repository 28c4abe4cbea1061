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
        guard var records = leafRecordIndices(changed) else { return nil }
        if !committed.isEmpty {
            // Every identifier is checked before any record's layer is touched.
            guard committed.allSatisfy({ leaves[$0] != nil }) else { return nil }
            // A layer both animated and committed is re-emitted once.
            let animated = Set(changed.map(ObjectIdentifier.init))
            for id in Set(committed) where !animated.contains(id) { records.append(leaves[id]!) }
        }
        let now = CACurrentMediaTime()
        // Only a commit changes a layer's sublayers or mask (the renderer flushes before each
        // frame, and the commit log names the layer), so with none since the last frame the
        // recorded leaves are still leaves and only their render state needs reading.
        let structureMayHaveChanged = !committed.isEmpty
        // In place: the caller lets go of its copy of the last frame first (else the boxes are
        // copied once here). On failure the frame is marked unusable; the caller builds anew.
        let done = leafContexts.withUnsafeBufferPointer { contexts in
            leafRecords.withUnsafeBufferPointer { recs in
                frame.boxes.withUnsafeMutableBufferPointer { boxes in
                    for r in records {
                        let rec = recs[r]
                        guard let box = leafBox(rec, contexts.baseAddress! + rec.context, now: now,
                                                checkStructure: structureMayHaveChanged),
                              boxVariant(box) == rec.variant else { return false }
                        boxes[rec.boxIndex] = box
                    }
                    return true
                }
            }
        }
        guard done else {
            frame.passes.removeAll()
            return nil
        }
        var stats = lastStats
        stats.layersVisited = records.count
        stats.layersDrawn = records.count
        stats.patchedLayers = records.count
        stats.shapeRasters = 0
        stats.shapeSegments = 0
        stats.shapeRasterSeconds = 0
        return (frame, stats)
    }

    /// The records of `layers`, nil when one is not a leaf of the last built frame. The same
    /// list as the last patch's (the engine's animated layers, frame after frame) reuses that
    /// answer: comparing identities costs less than a dictionary lookup per layer.
    func leafRecordIndices(_ layers: [CALayer]) -> [Int]? {
        if layers.count == lastPatchLayers.count,
           layers.withUnsafeBufferPointer({ l in lastPatchLayers.withUnsafeBufferPointer { last in
               for i in 0..<l.count where ObjectIdentifier(l[i]) != last[i] { return false }
               return true
           } }) {
            return lastPatchRecords
        }
        var out: [Int] = []
        out.reserveCapacity(layers.count)
        for layer in layers {
            guard let r = leaves[ObjectIdentifier(layer)] else { return nil }
            out.append(r)
        }
        lastPatchLayers = layers.map(ObjectIdentifier.init)
        lastPatchRecords = out
        return out
    }

    /// A recorded leaf's box as `visit` and `drawLayer` would emit it now, or nil when the
    /// layer is no longer a visible plain leaf. Reads the render copy's state field by field
    /// (`BoxLook`, `Placement`): a whole `LayerState` copy per leaf and frame cost more than
    /// the rest of the box. A layer's class never changes, and leaves are recorded only for
    /// classes that draw nothing but their box (`visit`); `checkStructure` false skips the
    /// sublayer and mask checks when no commit can have changed them.
    func leafBox(_ rec: LeafRecord, _ ctx: UnsafePointer<Context>, now: CFTimeInterval, checkStructure: Bool) -> BoxInstance? {
        let layer = rec.layer
        if checkStructure {
            guard layer._sublayers?.isEmpty ?? true, layer._mask == nil else { return nil }
        }
        guard layer.runningTransition(atMedia: now) == nil else { return nil }
        let copy = layer.renderCopy
        guard !copy.state.isHidden, copy.state.opacity > 0, ctx.pointee.opacity > 0, case .none = copy.state.contents,
              copy.state.zPosition == rec.zPosition,
              !ShadowSpec.isCast(opacity: copy.state.shadowOpacity, color: copy.state.shadowColor) else { return nil }
        let world = LayerGeometry.world(
            Placement(copy), transform: copy.state.transform, plainParent: ctx.pointee.parentIsPlain,
            parentWorld: ctx.pointee.parentWorld, parentWorldIsFinite: ctx.pointee.parentWorldIsFinite,
            general: { CATransform3DConcat(LayerGeometry.localToParent(copy.state, parent: ctx.pointee.parentState, isMask: false),
                                           ctx.pointee.parentWorld) })
        let h = Homography(world)
        guard h.isFiniteInFloat, copy.state.bounds.fitsInFloat else { return nil }
        if facesAway(isDoubleSided: copy.state.isDoubleSided, bounds: copy.state.bounds, h: h, mirrored: ctx.pointee.mirrored) {
            return nil
        }
        let opacity = min(copy.state.opacity, 1) * ctx.pointee.opacity
        let look = BoxLook(copy, opacity: opacity)
        guard look.fill.w > 0 || look.border.w > 0 else { return nil }
        return layerBox(look, h: h, clip: ctx.pointee.clip, opacity: opacity, fill: look.fill, border: look.border, flags: 0)
    }
}
