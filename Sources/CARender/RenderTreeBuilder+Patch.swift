import CoreGraphics
import CoreAnimation

extension RenderTreeBuilder {
    /// The last built frame with only `changed` layers re-emitted, when that gives the frame a
    /// whole build would make now; nil otherwise, and the caller builds a whole out.frame.
    ///
    /// This is how static subtrees cost nothing per frame: with no commit since the last frame,
    /// only what the timing engine changed is looked at (issue 4, "static subtrees cost no CPU
    /// work per frame beyond what changed"). A plain leaf (one box, no sublayers, shadow, mask
    /// or contents) that still is one, with its box's shader variant, has its box re-emitted
    /// (`leafBox`, the fast path). Any other recorded layer — a shape, image or gradient layer,
    /// one with a shadow, a parent — is visited again with its subtree and its instances
    /// replace the recorded ones, when they are as many of each kind and batch the same way
    /// (`+Subtrees.swift`); a leaf or layer whose zPosition moved has its parent re-emitted.
    ///
    /// `committed` are layers that commits changed since that frame (`CommitLog`): patched the
    /// same way when every one has a record of that frame and the recorded ones still have the
    /// sublayers and no mask they had, so a commit per frame that changes a few layers (a
    /// display link moving them) costs those layers, not a whole build. A layer added, one
    /// whose sublayers or mask changed, or one the last frame did not record makes the caller
    /// build a whole out.frame.
    package func patch(_ changed: [CALayer], committed: [ObjectIdentifier] = []) -> (RenderFrame, RenderStats)? {
        guard !out.frame.passes.isEmpty else { return nil }
        depthBases.removeAll(keepingCapacity: true)
        refreshStackGuard()
        // A re-emitted replicator draws its copies within a fresh budget: the recorded range
        // it must fill again was drawn within the budget of its build.
        replicas = ReplicaFrameState()
        guard var (records, subtreeTargets) = recordIndices(changed) else { return nil }
        /// Committed layers with subtree records: their sublayer lists must still be the recorded ones.
        var checked: [Int] = []
        if !committed.isEmpty {
            // Every identifier is looked up before any record's layer is touched: a layer the
            // last frame did not record (added, hidden, in a mask …) makes a whole out.frame.
            let animated = Set(changed.map(ObjectIdentifier.init))
            for id in Set(committed) {
                if let l = recorded.leaves[id] {
                    // A layer both animated and committed is re-emitted once.
                    if !animated.contains(id) { records.append(l) }
                } else if let r = recorded.subtrees[id] {
                    checked.append(r)
                    if !animated.contains(id) { subtreeTargets.append(r) }
                } else {
                    return nil
                }
            }
        }
        // Records hold their layers unretained. A recorded layer that left the tree (and may be
        // freed) did so from a parent that is still in it, whose sublayer list changed: that
        // commit names the parent, which has a record (or the frame was given up above) at a
        // smaller depth than any layer below it. Checking those lists shallow first, before
        // anything else is read, finds the change before any record below it is touched.
        if !checked.isEmpty {
            checked.sort { recorded.leafContexts[recorded.subtreeRecords[$0].context].depth < recorded.leafContexts[recorded.subtreeRecords[$1].context].depth }
            for r in checked where !subtreeStructureHolds(r) { return nil }
        }
        let now = CACurrentMediaTime()
        // Only a commit changes a layer's sublayers or mask (the renderer flushes before each
        // frame, and the commit log names the layer), so with none since the last frame the
        // recorded leaves are still leaves and only their render state needs reading.
        let structureMayHaveChanged = !committed.isEmpty
        var subtreeStats = (subtrees: 0, visited: 0, drawn: 0)
        /// Re-emitted records, in slot order: leaves inside them are already re-emitted.
        var reemitted: [Int] = []
        if !subtreeTargets.isEmpty {
            // A build resets an atlas over its budget; a patch must not (the kept frame's
            // instances sample it), so it leaves that to a build.
            guard !shapes.cache.isOverBudget else { return nil }
            shapes.cache.beginPatch()
            guard reemitSubtrees(subtreeTargets, into: &reemitted, stats: &subtreeStats) else {
                out.frame.passes.removeAll()
                return nil
            }
        }
        // In place: the caller lets go of its copy of the last frame first (else the boxes are
        // copied once here). On failure the frame is marked unusable; the caller builds anew.
        // A leaf that is no longer a plain leaf of the same variant, or whose zPosition moved,
        // is re-emitted with its parent's subtree instead (`failed`).
        var failed: [Int] = []
        var skipped = 0
        let skip = reemitted.map { (recorded.subtreeRecords[$0].start.leaves, recorded.subtreeRecords[$0].end.leaves) }
        // With no commit since the last frame, `records` is the last patch's list (the engine's
        // animated layers, frame after frame) and each leaf has its entry in `leafCache`.
        let useCache = !structureMayHaveChanged && recorded.leafCache.count == records.count
        var cachedLeaves = 0
        recorded.leafContexts.withUnsafeBufferPointer { contexts in
            recorded.leafRecords.withUnsafeBufferPointer { recs in
                recorded.leafCache.withUnsafeMutableBufferPointer { cache in
                    out.frame.boxes.withUnsafeMutableBufferPointer { boxes in
                        for (k, r) in records.enumerated() {
                            if !skip.isEmpty, Self.inRanges(skip, r) { skipped += 1; continue }
                            let rec = recs[r]
                            let ctx = contexts.baseAddress! + rec.context
                            let found = useCache
                                ? cachedLeafBox(rec, ctx, now: now, entry: cache.baseAddress! + k, hits: &cachedLeaves)
                                : leafBox(rec, ctx, now: now, checkStructure: structureMayHaveChanged)
                            guard let box = found, BoxEmitter.variant(box) == rec.variant else {
                                failed.append(r)
                                continue
                            }
                            boxes[rec.boxIndex] = box
                        }
                    }
                }
            }
        }
        recorded.lastPatchCachedLeaves = cachedLeaves
        if !failed.isEmpty {
            var parents: [Int] = []
            for r in failed {
                guard let p = parentSubtreeRecord(of: recorded.leafRecords[r].layer, childLeaf: r) else {
                    out.frame.passes.removeAll()
                    return nil
                }
                parents.append(p)
            }
            if subtreeTargets.isEmpty {
                guard !shapes.cache.isOverBudget else { out.frame.passes.removeAll(); return nil }
                shapes.cache.beginPatch()
            }
            var more: [Int] = []
            guard reemitSubtrees(parents, into: &more, stats: &subtreeStats) else {
                out.frame.passes.removeAll()
                return nil
            }
            reemitted += more
        }
        if !reemitted.isEmpty {
            // Images placed in atlas pages by the re-emission, and new shape rasters.
            for e in contentEmitters { e.finishFrame(out) }
        }
        if !rasterWindows.isEmpty { rehashRasterTargets(); noteRasterHashesAfterPatch() }
        var stats = lastStats
        let leavesPatched = records.count - failed.count - skipped
        stats.layersVisited = leavesPatched + subtreeStats.visited
        stats.layersDrawn = leavesPatched + subtreeStats.drawn
        stats.patchedLayers = leavesPatched + subtreeStats.visited
        stats.patchedSubtrees = subtreeStats.subtrees
        stats.shapeRasters = reemitted.isEmpty ? 0 : shapes.cache.rastersThisFrame
        stats.shapeSegments = reemitted.isEmpty ? 0 : shapes.cache.segmentsThisFrame
        stats.shapeRasterSeconds = reemitted.isEmpty ? 0 : shapes.cache.rasterSecondsThisFrame
        return (out.frame, stats)
    }

    /// Whether `i` lies in one of `ranges` (half-open, ascending, not overlapping).
    static func inRanges(_ ranges: [(Int, Int)], _ i: Int) -> Bool {
        var lo = 0, hi = ranges.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if ranges[mid].1 <= i { lo = mid + 1 } else { hi = mid }
        }
        return lo < ranges.count && ranges[lo].0 <= i
    }

    /// Re-emits the subtrees of records `targets` (a record whose layer's zPosition moved
    /// gives way to its parent's; one inside another's subtree is left to that one), appending
    /// the records re-emitted, in slot order, to `done`. False when one cannot be re-emitted
    /// exactly (the frame is then partly rewritten: the caller gives it up).
    func reemitSubtrees(_ targets: [Int], into done: inout [Int], stats: inout (subtrees: Int, visited: Int, drawn: Int)) -> Bool {
        var list = targets
        list.sort()
        var coveredUpTo = -1
        for r in list where r >= coveredUpTo {
            var drawnBefore = out.stats.layersDrawn
            var slot = r
            switch reemitSubtree(r, visited: &stats.visited) {
            case .done:
                break
            case .failed:
                return false
            case .zPositionMoved:
                // The parent comes before `r` in slot order, and its subtree holds every record
                // re-emitted since it (pre-order): those give way to it.
                drawnBefore = out.stats.layersDrawn
                guard let p = parentSubtreeRecord(of: recorded.subtreeRecords[r].layer, childSlot: r),
                      reemitSubtree(p, visited: &stats.visited) == .done else { return false }
                while let last = done.last, last > p {
                    done.removeLast()
                    stats.subtrees -= 1
                }
                slot = p
            }
            stats.drawn += out.stats.layersDrawn - drawnBefore
            stats.subtrees += 1
            done.append(slot)
            coveredUpTo = max(coveredUpTo, recorded.subtreeRecords[slot].end.records)
        }
        return true
    }

    /// The leaf and subtree records of `layers`, nil when one in the built tree has neither in
    /// the last built out.frame. The timing engine's animated layers are the thread's: one outside
    /// this tree (another renderer's, say) has nothing here to redo and is passed over (an
    /// animated layer is alive, and so are its ancestors). The same list as the last patch's (the engine's animated layers, frame after
    /// frame) reuses that answer: comparing identities costs less than a dictionary lookup per
    /// layer.
    func recordIndices(_ layers: [CALayer]) -> ([Int], [Int])? {
        if layers.count == recorded.lastPatchLayers.count,
           layers.withUnsafeBufferPointer({ l in recorded.lastPatchLayers.withUnsafeBufferPointer { last in
               for i in 0..<l.count where ObjectIdentifier(l[i]) != last[i] { return false }
               return true
           } }) {
            return (recorded.lastPatchRecords, recorded.lastPatchSubtrees)
        }
        var out: [Int] = [], subs: [Int] = []
        out.reserveCapacity(layers.count)
        for layer in layers {
            let id = ObjectIdentifier(layer)
            if let r = recorded.leaves[id] {
                out.append(r)
            } else if let r = recorded.subtrees[id] {
                subs.append(r)
            } else if isInBuiltTree(layer) {
                return nil
            }
        }
        recorded.lastPatchLayers = layers.map(ObjectIdentifier.init)
        recorded.lastPatchRecords = out
        recorded.lastPatchSubtrees = subs
        recorded.leafCache = Array(repeating: .empty, count: out.count)
        return (out, subs)
    }

    /// Whether `layer` is the last built root or below it (through superlayers, masks included).
    func isInBuiltTree(_ layer: CALayer) -> Bool {
        var l: CALayer? = layer
        while let x = l {
            if ObjectIdentifier(x) == recorded.builtRoot { return true }
            l = x._superlayer
        }
        return false
    }

    /// How many leaves the last patch re-emitted from the values it kept of their presentation
    /// copies (`PatchRecords.LeafCache`) rather than reading the copies.
    package var lastPatchCachedLeaves: Int { recorded.lastPatchCachedLeaves }

    /// `leafBox` for a leaf with a cache entry: from the entry and the position this frame step
    /// gives the layer (`TimingEngine.stepPosition`) when the entry still holds — the same
    /// presentation copy, plan and committed state (`copyGeneration`), animations that move
    /// the layer only, the same inherited opacity, no transition, and the translation route of
    /// `LayerGeometry.world` (identity transform, plain parent, finite parent world), so the
    /// box is computed from the same values by the same arithmetic as `leafBox`. Otherwise
    /// `leafBox`, which fills the entry again.
    @inline(__always)
    func cachedLeafBox(_ rec: PatchRecords.LeafRecord, _ ctx: UnsafePointer<Context>, now: CFTimeInterval,
                       entry e: UnsafeMutablePointer<PatchRecords.LeafCache>, hits: inout Int) -> BoxInstance? {
        let layer = rec.layer
        if e.pointee.isValid, e.pointee.generation == layer.copyGeneration, e.pointee.identityTransform,
           ctx.pointee.parentIsPlain, ctx.pointee.parentWorldIsFinite, ctx.pointee.opacity == e.pointee.contextOpacity,
           !layer.hasTransitionRecord,
           let position = TimingEngine.stepPosition(of: layer, committed: e.pointee.committedPosition) {
            var p = e.pointee.placement
            p.position = position
            hits += 1
            return leafBox(world: LayerGeometry.translationWorld(p, parentWorld: ctx.pointee.parentWorld),
                           bounds: p.bounds, isDoubleSided: e.pointee.isDoubleSided,
                           opacity: e.pointee.opacity, look: e.pointee.look, ctx)
        }
        e.pointee.isValid = false
        return leafBox(rec, ctx, now: now, checkStructure: false, fill: e)
    }

    /// A recorded leaf's box as `visit` and `drawLayer` would emit it now, or nil when the
    /// layer is no longer a visible plain leaf. Reads the render copy's state field by field
    /// (`BoxLook`, `Placement`): a whole `LayerState` copy per leaf and frame cost more than
    /// the rest of the box. A layer's class never changes, and leaves are recorded only for
    /// classes that draw nothing but their box (`visit`); `checkStructure` false skips the
    /// sublayer and mask checks when no commit can have changed them.
    func leafBox(_ rec: PatchRecords.LeafRecord, _ ctx: UnsafePointer<Context>, now: CFTimeInterval, checkStructure: Bool,
                 fill: UnsafeMutablePointer<PatchRecords.LeafCache>? = nil) -> BoxInstance? {
        let layer = rec.layer
        if checkStructure {
            guard layer.sublayersUnchecked?.isEmpty ?? true, layer.maskUnchecked == nil else { return nil }
        }
        guard layer.runningTransition(atMedia: now) == nil else { return nil }
        let copy = layer.renderCopy
        guard !copy.state.isHidden, copy.state.opacity > 0, ctx.pointee.opacity > 0, case .none = copy.state.contents,
              copy.state.zPosition == rec.zPosition,
              !ShadowSpec.isCast(opacity: copy.state.shadowOpacity, color: copy.state.shadowColor) else { return nil }
        let placement = Placement(copy)
        let world = LayerGeometry.world(
            placement, transform: copy.state.transform, plainParent: ctx.pointee.parentIsPlain,
            parentWorld: ctx.pointee.parentWorld, parentWorldIsFinite: ctx.pointee.parentWorldIsFinite,
            general: { CATransform3DConcat(LayerGeometry.localToParent(copy.state, parent: parentState(of: ctx.pointee), isMask: false),
                                           ctx.pointee.parentWorld) })
        let opacity = min(copy.state.opacity, 1) * ctx.pointee.opacity
        let look = BoxLook(copy, opacity: opacity)
        if let fill, let committed = layer.committedCopy {
            // Read after `renderCopy`, which may have made the presentation copy.
            fill.pointee = PatchRecords.LeafCache(
                isValid: true, generation: layer.copyGeneration, identityTransform: CATransform3DIsIdentity(copy.state.transform),
                isDoubleSided: copy.state.isDoubleSided, contextOpacity: ctx.pointee.opacity, opacity: opacity,
                committedPosition: committed.state.position, placement: placement, look: look)
        }
        return leafBox(world: world, bounds: copy.state.bounds, isDoubleSided: copy.state.isDoubleSided,
                       opacity: opacity, look: look, ctx)
    }

    /// The rest of `leafBox` once the world matrix and the copy's values are known (shared with
    /// `cachedLeafBox`): nil when the box is not drawn (non-finite, facing away, outside its
    /// target's content limit, nothing to fill or stroke).
    @inline(__always)
    func leafBox(world: CATransform3D, bounds: CGRect, isDoubleSided: Bool, opacity: Float, look: BoxLook,
                 _ ctx: UnsafePointer<Context>) -> BoxInstance? {
        let h = Homography(world)
        guard h.isFiniteInFloat, bounds.fitsInFloat else { return nil }
        if facesAway(isDoubleSided: isDoubleSided, bounds: bounds, h: h, mirrored: ctx.pointee.mirrored) {
            return nil
        }
        // Inside a target sized by what its subtree painted: the box must still fit in it.
        if let limit = ctx.pointee.contentLimit {
            guard let paint = h.boundingBox(of: bounds.standardized),
                  limit.admits(paint.insetBy(dx: -1, dy: -1)) else { return nil }
        }
        guard look.fill.w > 0 || look.border.w > 0 else { return nil }
        return BoxEmitter.instance(look, h: h, clip: ctx.pointee.clip, opacity: opacity, fill: look.fill, border: look.border, flags: 0)
    }
}
