import CoreGraphics
import CoreAnimation

/// Subtree records: how a patch re-emits a layer that is not a plain box leaf — a shape,
/// image or gradient layer, one with a shadow, a parent with its sublayers — in place.
///
/// A whole build records each layer it draws where that is possible (not in a mask, a
/// transition's pictures or under a transform layer) and whose drawing, sublayers included,
/// made no offscreen pass, target or composite: where each array of the frame stood before and
/// after it (`SubtreeMarks`), the context it inherited, what else `visit` reads (the pass's
/// rectangle, `planeMirrored`), and its sublayer list. A patch visits such a layer again with
/// everything appended to the ends of the arrays and the batches it would extend written to a
/// scratch log; when each array grew by what the record holds and the log equals the
/// recorded slice of `emissionLog` (same pipelines and shader variants, in the same order),
/// the frame's batches are unchanged, and the new instances, clips, contexts and records move
/// into the recorded ranges (indices that point into the moved parts moved with them).
/// Anything else leaves the frame unusable and the caller builds a whole one.
extension RenderTreeBuilder {
    /// One pipeline and shader variant per instance, as `appendBatch` saw them.
    struct Emission: Equatable {
        var pipeline: Batch.Pipeline
        var variant: ShaderVariant
    }

    /// Counts of the arrays a visit appends to, at one moment.
    struct SubtreeMarks: Equatable {
        var boxes = 0, images = 0, gradients = 0, shapes = 0, clips = 0
        /// `leafContexts`, `emissionLog` (the scratch log while re-emitting), `leafRecords`,
        /// `subtreeRecords`, `subtreeSublayers`.
        var contexts = 0, log = 0, leaves = 0, records = 0, sublayers = 0
        /// Not moved: a recorded subtree leaves them as they were.
        var passes = 0, targets = 0, composites = 0, ramps = 0, textures = 0
    }

    struct SubtreeRecord {
        /// Unretained, like `LeafRecord.layer`; `id` lets a patch compare records without
        /// touching the layer.
        unowned(unsafe) var layer: CALayer
        var id: ObjectIdentifier
        /// False for a slot reserved for a layer whose drawing turned out not to be recordable.
        var valid = false
        /// Index of the inherited `Context` in `leafContexts`.
        var context: Int
        /// The rectangle of the pass it was drawn into (shapes key their rasters by it).
        var passRect: CGRect
        var planeMirrored: Bool
        /// Sibling order depends on it: when it moves, the parent is re-emitted instead.
        var zPosition: CGFloat
        /// The layer's own sublayer list: `subtreeSublayers[start.sublayers ..< + ownSublayers]`.
        var ownSublayers: Int
        var start: SubtreeMarks
        var end: SubtreeMarks
    }

    func subtreeMarks() -> SubtreeMarks {
        SubtreeMarks(boxes: frame.boxes.count, images: frame.images.count, gradients: frame.gradients.count,
                     shapes: frame.shapes.count, clips: frame.clips.count, contexts: leafContexts.count,
                     log: reemitting ? scratchLog.count : emissionLog.count, leaves: leafRecords.count,
                     records: subtreeRecords.count, sublayers: subtreeSublayers.count, passes: frame.passes.count,
                     targets: frame.targets.count, composites: frame.composites.count,
                     ramps: frame.gradientRamps.count, textures: frame.textures.count)
    }

    /// A slot before the layer's descendants' records, with its sublayer list; valid once
    /// `finishSubtreeRecord` says so.
    func reserveSubtreeRecord(_ layer: CALayer, _ sublayers: [CALayer], _ ctx: Context) -> Int {
        let m = subtreeMarks()
        subtreeSublayers.append(contentsOf: sublayers.lazy.map(ObjectIdentifier.init))
        subtreeRecords.append(SubtreeRecord(layer: layer, id: ObjectIdentifier(layer), context: ctx.index,
                                            passRect: passStack.last!.rect, planeMirrored: planeMirrored, zPosition: 0,
                                            ownSublayers: sublayers.count, start: m, end: m))
        return m.records
    }

    /// Completes the record of a layer drawn since `marks` (its slot, or a new one for a layer
    /// without sublayers), when it made no offscreen pass.
    func finishSubtreeRecord(_ layer: CALayer, slot: Int, _ marks: SubtreeMarks, _ ctx: Context, zPosition: CGFloat) {
        guard frame.passes.count == marks.passes, frame.targets.count == marks.targets,
              frame.composites.count == marks.composites else { return }
        let id = ObjectIdentifier(layer)
        var index = slot
        if slot < 0 {
            index = subtreeRecords.count
            subtreeRecords.append(SubtreeRecord(layer: layer, id: id, context: ctx.index, passRect: passStack.last!.rect,
                                                planeMirrored: planeMirrored, zPosition: zPosition, ownSublayers: 0,
                                                start: marks, end: marks))
        }
        subtreeRecords[index].valid = true
        subtreeRecords[index].zPosition = zPosition
        subtreeRecords[index].end = subtreeMarks()
        if !reemitting { subtrees[id] = index }
    }

    /// Whether a recorded layer still has the sublayers it was drawn with (by identity) and no
    /// mask. Touches the layer: the caller has checked its recorded ancestors first.
    func subtreeStructureHolds(_ r: Int) -> Bool {
        let rec = subtreeRecords[r]
        let layer = rec.layer
        guard layer._mask == nil else { return false }
        let subs = layer._sublayers ?? []
        guard subs.count == rec.ownSublayers else { return false }
        let base = rec.start.sublayers
        for (i, l) in subs.enumerated() where subtreeSublayers[base + i] != ObjectIdentifier(l) { return false }
        return true
    }

    /// The record of `layer`'s superlayer, when that record's subtree holds record `child`'s
    /// slot (`childSlot`, in records) or leaf (`childLeaf`).
    func parentSubtreeRecord(of layer: CALayer, childSlot: Int = -1, childLeaf: Int = -1) -> Int? {
        guard let p = layer._superlayer, let r = subtrees[ObjectIdentifier(p)] else { return nil }
        let rec = subtreeRecords[r]
        guard rec.valid else { return nil }
        if childSlot >= 0, !(rec.start.records < childSlot && childSlot < rec.end.records) { return nil }
        if childLeaf >= 0, !(rec.start.leaves <= childLeaf && childLeaf < rec.end.leaves) { return nil }
        return r
    }

    enum Reemission { case done, failed, zPositionMoved }

    /// Re-emits the subtree of record `r` in place. `failed` when the result would not be the
    /// frame a whole build makes (the caller then gives up on the frame); `zPositionMoved` when
    /// the layer's zPosition changed, so its siblings' order may have (nothing is changed: the
    /// caller re-emits the parent). Adds the layers visited to `visited` when done.
    func reemitSubtree(_ r: Int, visited: inout Int) -> Reemission {
        let rec = subtreeRecords[r]
        guard rec.valid else { return .failed }
        let before = subtreeMarks()
        scratchLog.removeAll(keepingCapacity: true)
        reemitting = true
        passStack.append(PendingPass(target: .main, rect: rec.passRect))
        let outerMirrored = planeMirrored
        planeMirrored = rec.planeMirrored
        let visitedBefore = stats.layersVisited
        visit(rec.layer, leafContexts[rec.context], isMask: false)
        planeMirrored = outerMirrored
        passStack.removeLast()
        // A re-emission that began an offscreen pass has ended it (`visit` pairs them).
        let after = subtreeMarks()
        reemitting = false
        // The root has no siblings to be ordered among; read from the new record, so the common
        // case costs no extra look at the layer.
        if after.records > before.records, leafContexts[rec.context].depth > 0,
           subtreeRecords[before.records].id == rec.id, subtreeRecords[before.records].zPosition != rec.zPosition {
            guard after.ramps == before.ramps, after.textures == before.textures else { return .failed }
            truncate(to: before)
            return .zPositionMoved
        }
        let o = rec.start, e = rec.end
        let same = after.passes == before.passes && after.targets == before.targets
            && after.composites == before.composites && after.ramps == before.ramps && after.textures == before.textures
            && after.boxes - before.boxes == e.boxes - o.boxes && after.images - before.images == e.images - o.images
            && after.gradients - before.gradients == e.gradients - o.gradients
            && after.shapes - before.shapes == e.shapes - o.shapes && after.clips - before.clips == e.clips - o.clips
            && after.contexts - before.contexts == e.contexts - o.contexts && after.leaves - before.leaves == e.leaves - o.leaves
            && after.records - before.records == e.records - o.records
            && after.sublayers - before.sublayers == e.sublayers - o.sublayers
            && scratchLog.count == e.log - o.log
            && scratchLog.elementsEqual(emissionLog[o.log..<e.log])
            && subtreeRecords[before.records].id == rec.id
        guard same else { return .failed }
        for i in before.records..<after.records where !subtreeRecords[i].valid { return .failed }
        visited += stats.layersVisited - visitedBefore

        // Index shifts from where the re-emission appended to where the record's parts lie.
        let fromClip = before.clips, dClip = o.clips - before.clips
        let fromContext = before.contexts, dContext = o.contexts - before.contexts
        let dBoxes = o.boxes - before.boxes, dLeaves = o.leaves - before.leaves, dRecords = o.records - before.records
        let dSublayers = o.sublayers - before.sublayers, dLog = o.log   // the scratch log starts at 0
        let fClip = Float(fromClip), fdClip = Float(dClip)
        @inline(__always) func clip(_ c: inout Float) { if c >= fClip { c += fdClip } }
        Self.moveBack(&frame.boxes, from: before.boxes, to: o.boxes) { clip(&$0.h1.w) }
        Self.moveBack(&frame.images, from: before.images, to: o.images) { clip(&$0.h1.w) }
        Self.moveBack(&frame.gradients, from: before.gradients, to: o.gradients) { clip(&$0.h1.w) }
        Self.moveBack(&frame.shapes, from: before.shapes, to: o.shapes) { clip(&$0.h1.w) }
        Self.moveBack(&frame.clips, from: before.clips, to: o.clips) { _ in }
        Self.moveBack(&leafContexts, from: before.contexts, to: o.contexts) { c in
            c.index += dContext
            if Int(c.clip) >= fromClip { c.clip += Int32(dClip) }
        }
        Self.moveBack(&subtreeSublayers, from: before.sublayers, to: o.sublayers) { _ in }

        // Leaf records: the same layers, possibly in another order (a sibling's zPosition).
        var reordered = false
        for k in 0..<(after.leaves - before.leaves) {
            var l = leafRecords[before.leaves + k]
            l.boxIndex += dBoxes
            if l.context >= fromContext { l.context += dContext }
            let slot = o.leaves + k
            let id = ObjectIdentifier(l.layer)
            if leaves[id] != slot { leaves[id] = slot; reordered = true }
            leafRecords[slot] = l
        }
        if after.leaves > before.leaves { leafRecords.removeLast(after.leaves - before.leaves) }

        let n = after.records - before.records
        @inline(__always) func shifted(_ m: SubtreeMarks) -> SubtreeMarks {
            var m = m
            m.boxes += dBoxes; m.images += o.images - before.images; m.gradients += o.gradients - before.gradients
            m.shapes += o.shapes - before.shapes; m.clips += dClip; m.contexts += dContext; m.log += dLog
            m.leaves += dLeaves; m.records += dRecords; m.sublayers += dSublayers
            return m
        }
        var moved: [(ObjectIdentifier, Int)] = []
        for k in 0..<n {
            var s = subtreeRecords[before.records + k]
            s.start = shifted(s.start)
            s.end = shifted(s.end)
            if s.context >= fromContext { s.context += dContext }
            let slot = o.records + k
            if subtreeRecords[slot].id != s.id {
                // Old entries first (they may name a layer now at another slot), new ones below.
                if subtrees[subtreeRecords[slot].id] == slot { subtrees.removeValue(forKey: subtreeRecords[slot].id) }
                moved.append((s.id, slot))
            }
            subtreeRecords[slot] = s
        }
        for (id, slot) in moved { subtrees[id] = slot }
        subtreeRecords.removeLast(n)
        if reordered || !moved.isEmpty {
            // The cached record lists of the last patch name slots that now hold other layers.
            lastPatchLayers.removeAll()
            lastPatchRecords.removeAll()
            lastPatchSubtrees.removeAll()
        }
        return .done
    }

    /// Drops what a re-emission appended after `m`.
    func truncate(to m: SubtreeMarks) {
        func cut<T>(_ a: inout [T], _ n: Int) { if a.count > n { a.removeLast(a.count - n) } }
        cut(&frame.boxes, m.boxes); cut(&frame.images, m.images); cut(&frame.gradients, m.gradients)
        cut(&frame.shapes, m.shapes); cut(&frame.clips, m.clips); cut(&leafContexts, m.contexts)
        cut(&leafRecords, m.leaves); cut(&subtreeRecords, m.records); cut(&subtreeSublayers, m.sublayers)
    }

    /// Moves `a[from...]` to `a[to...]` (changing each with `change`) and drops it from the end.
    static func moveBack<T>(_ a: inout [T], from: Int, to: Int, _ change: (inout T) -> Void) {
        let n = a.count - from
        guard n > 0 else { return }
        a.withUnsafeMutableBufferPointer { p in
            for i in 0..<n {
                var v = p[from + i]
                change(&v)
                p[to + i] = v
            }
        }
        a.removeLast(n)
    }
}
