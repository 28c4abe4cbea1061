import CoreGraphics
import CoreAnimation

/// Subtree records: how a patch re-emits a layer that is not a plain box leaf — a shape,
/// image or gradient layer, one with a shadow, a parent with its sublayers — in place.
///
/// A whole build records each layer it draws where that is possible (not in a mask, a
/// transition's pictures or under a transform layer) and whose drawing, sublayers included,
/// made no offscreen pass, target or composite: where each array of the frame stood before and
/// after it (`SubtreeMarks`), the context it inherited, what else `visit` reads (the pass's
/// rectangle), and its sublayer list. A patch visits such a layer again with
/// everything appended to the ends of the arrays and the batches it would extend written to a
/// scratch log; when each array grew by what the record holds and the log equals the
/// recorded slice of `out.emissionLog` (same pipelines and shader variants, in the same order),
/// the frame's batches are unchanged, and the new instances, clips, contexts and records move
/// into the recorded ranges (indices that point into the moved parts moved with them).
/// Anything else leaves the frame unusable and the caller builds a whole one.
extension RenderTreeBuilder {
    /// Counts of the arrays a visit appends to, at one moment.
    struct SubtreeMarks: Equatable {
        /// Instances of each kind (`RenderFrame.instanceCounts`); a recorded subtree appends no
        /// composite (it makes no offscreen pass), so that lane never moves.
        var instances = SIMD8<Int>()
        var clips = 0
        /// `recorded.leafContexts`, `out.emissionLog` (the scratch log while re-emitting),
        /// `recorded.leafRecords`, `recorded.subtreeRecords`, `recorded.subtreeSublayers`.
        var contexts = 0, log = 0, leaves = 0, records = 0, sublayers = 0
        /// `recorded.parentGeometries`.
        var geometries = 0
        /// Not moved: a recorded subtree leaves them as they were.
        var passes = 0, targets = 0, ramps = 0, textures = 0
    }

    struct SubtreeRecord {
        /// Unretained, like `LeafRecord.layer`; `id` lets a patch compare records without
        /// touching the layer.
        unowned(unsafe) var layer: CALayer
        var id: ObjectIdentifier
        /// False for a slot reserved for a layer whose drawing turned out not to be recordable.
        var valid = false
        /// Index of the inherited `Context` in `recorded.leafContexts`.
        var context: Int
        /// The rectangle of the pass it was drawn into (shapes key their rasters by it).
        var passRect: CGRect
        /// Sibling order depends on it: when it moves, the parent is re-emitted instead.
        var zPosition: CGFloat
        /// The layer's own sublayer list: `recorded.subtreeSublayers[start.sublayers ..< + ownSublayers]`.
        var ownSublayers: Int
        var start: SubtreeMarks
        var end: SubtreeMarks
    }

    func subtreeMarks() -> SubtreeMarks {
        SubtreeMarks(instances: out.instanceCounts, clips: out.frame.clips.count, contexts: recorded.leafContexts.count,
                     log: out.reemitting ? out.scratchLog.count : out.emissionLog.count, leaves: recorded.leafRecords.count,
                     records: recorded.subtreeRecords.count, sublayers: recorded.subtreeSublayers.count, geometries: recorded.parentGeometries.count,
                     passes: out.frame.passes.count,
                     targets: out.frame.targets.count, ramps: out.frame.gradientRamps.count, textures: out.frame.textures.count)
    }

    /// A slot before the layer's descendants' records, with its sublayer list; valid once
    /// `finishSubtreeRecord` says so.
    func reserveSubtreeRecord(_ layer: CALayer, _ sublayers: [CALayer], _ ctx: Context) -> Int {
        let m = subtreeMarks()
        recorded.subtreeSublayers.append(contentsOf: sublayers.lazy.map(ObjectIdentifier.init))
        recorded.subtreeRecords.append(SubtreeRecord(layer: layer, id: ObjectIdentifier(layer), context: ctx.index,
                                            passRect: out.passRect, zPosition: 0,
                                            ownSublayers: sublayers.count, start: m, end: m))
        return m.records
    }

    /// Completes the record of a layer drawn since `marks` (its slot, or a new one for a layer
    /// without sublayers), when it made no offscreen pass.
    func finishSubtreeRecord(_ layer: CALayer, slot: Int, _ marks: SubtreeMarks, _ ctx: Context, zPosition: CGFloat) {
        guard out.frame.passes.count == marks.passes, out.frame.targets.count == marks.targets,
              out.instanceCounts[Self.compositeLane] == marks.instances[Self.compositeLane] else { return }
        let id = ObjectIdentifier(layer)
        var index = slot
        if slot < 0 {
            index = recorded.subtreeRecords.count
            recorded.subtreeRecords.append(SubtreeRecord(layer: layer, id: id, context: ctx.index, passRect: out.passRect,
                                                zPosition: zPosition, ownSublayers: 0,
                                                start: marks, end: marks))
        }
        recorded.subtreeRecords[index].valid = true
        recorded.subtreeRecords[index].zPosition = zPosition
        recorded.subtreeRecords[index].end = subtreeMarks()
        if !out.reemitting { recorded.subtrees[id] = index }
    }

    /// Whether a recorded layer still has the sublayers it was drawn with (by identity) and no
    /// mask. Touches the layer: the caller has checked its recorded ancestors first.
    func subtreeStructureHolds(_ r: Int) -> Bool {
        let rec = recorded.subtreeRecords[r]
        let layer = rec.layer
        guard layer.maskUnchecked == nil else { return false }
        let subs = layer.sublayersUnchecked ?? []
        guard subs.count == rec.ownSublayers else { return false }
        let base = rec.start.sublayers
        for (i, l) in subs.enumerated() where recorded.subtreeSublayers[base + i] != ObjectIdentifier(l) { return false }
        return true
    }

    /// The record of `layer`'s superlayer, when that record's subtree holds record `child`'s
    /// slot (`childSlot`, in records) or leaf (`childLeaf`).
    func parentSubtreeRecord(of layer: CALayer, childSlot: Int = -1, childLeaf: Int = -1) -> Int? {
        guard let p = layer._superlayer, let r = recorded.subtrees[ObjectIdentifier(p)] else { return nil }
        let rec = recorded.subtreeRecords[r]
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
        let rec = recorded.subtreeRecords[r]
        guard rec.valid else { return .failed }
        let before = subtreeMarks()
        out.scratchLog.removeAll(keepingCapacity: true)
        out.reemitting = true
        // Where the re-emitted boxes will lie: a replicated box finds its draw (`+GPUReplicas.swift`).
        out.reemitBoxShift = rec.start.instances[Self.boxLane] - before.instances[Self.boxLane]
        out.passStack.append(FrameWriter.PendingPass(target: .main, rect: rec.passRect))
        let visitedBefore = out.stats.layersVisited
        visit(rec.layer, recorded.leafContexts[rec.context], isMask: false)
        out.passStack.removeLast()
        // A re-emission that began an offscreen pass has ended it (`visit` pairs them).
        let after = subtreeMarks()
        out.reemitting = false
        // The root has no siblings to be ordered among; read from the new record, so the common
        // case costs no extra look at the layer.
        if after.records > before.records, recorded.leafContexts[rec.context].depth > 0,
           recorded.subtreeRecords[before.records].id == rec.id, recorded.subtreeRecords[before.records].zPosition != rec.zPosition {
            guard after.ramps == before.ramps, after.textures == before.textures else { return .failed }
            truncate(to: before)
            return .zPositionMoved
        }
        let o = rec.start, e = rec.end
        let same = after.passes == before.passes && after.targets == before.targets
            && after.instances[Self.compositeLane] == before.instances[Self.compositeLane]
            && after.ramps == before.ramps && after.textures == before.textures
            && after.instances &- before.instances == e.instances &- o.instances && after.clips - before.clips == e.clips - o.clips
            && after.contexts - before.contexts == e.contexts - o.contexts && after.leaves - before.leaves == e.leaves - o.leaves
            && after.records - before.records == e.records - o.records
            && after.sublayers - before.sublayers == e.sublayers - o.sublayers
            && after.geometries - before.geometries == e.geometries - o.geometries
            && out.scratchLog.count == e.log - o.log
            && out.scratchLog.elementsEqual(out.emissionLog[o.log..<e.log])
            && recorded.subtreeRecords[before.records].id == rec.id
        guard same else { return .failed }
        for i in before.records..<after.records where !recorded.subtreeRecords[i].valid { return .failed }
        visited += out.stats.layersVisited - visitedBefore

        // Index shifts from where the re-emission appended to where the record's parts lie.
        let fromClip = before.clips, dClip = o.clips - before.clips
        let fromContext = before.contexts, dContext = o.contexts - before.contexts
        let dBoxes = o.instances[Self.boxLane] - before.instances[Self.boxLane], dLeaves = o.leaves - before.leaves, dRecords = o.records - before.records
        let dSublayers = o.sublayers - before.sublayers, dLog = o.log   // the scratch log starts at 0
        let fromGeometry = Int32(before.geometries), dGeometry = Int32(o.geometries - before.geometries)
        let fClip = Float(fromClip), fdClip = Float(dClip)
        for (lane, kind) in RenderFrame.instanceKinds.enumerated() where after.instances[lane] > before.instances[lane] {
            kind.moveBack(in: &out.frame, from: before.instances[lane], to: o.instances[lane], clipsFrom: fClip, by: fdClip)
        }
        Self.moveBack(&out.frame.clips, from: before.clips, to: o.clips) { _ in }
        Self.moveBack(&recorded.leafContexts, from: before.contexts, to: o.contexts) { c in
            c.index += dContext
            if Int(c.clip) >= fromClip { c.clip += Int32(dClip) }
            if c.parentGeometry >= fromGeometry { c.parentGeometry += dGeometry }
        }
        Self.moveBack(&recorded.parentGeometries, from: before.geometries, to: o.geometries) { _ in }
        Self.moveBack(&recorded.subtreeSublayers, from: before.sublayers, to: o.sublayers) { _ in }

        // Leaf records: the same layers, possibly in another order (a sibling's zPosition).
        var reordered = false
        for k in 0..<(after.leaves - before.leaves) {
            var l = recorded.leafRecords[before.leaves + k]
            l.boxIndex += dBoxes
            if l.context >= fromContext { l.context += dContext }
            let slot = o.leaves + k
            let id = ObjectIdentifier(l.layer)
            if recorded.leaves[id] != slot { recorded.leaves[id] = slot; reordered = true }
            recorded.leafRecords[slot] = l
        }
        if after.leaves > before.leaves { recorded.leafRecords.removeLast(after.leaves - before.leaves) }

        let n = after.records - before.records
        @inline(__always) func shifted(_ m: SubtreeMarks) -> SubtreeMarks {
            var m = m
            m.instances &+= o.instances &- before.instances; m.clips += dClip; m.contexts += dContext; m.log += dLog
            m.leaves += dLeaves; m.records += dRecords; m.sublayers += dSublayers; m.geometries += Int(dGeometry)
            return m
        }
        var moved: [(ObjectIdentifier, Int)] = []
        for k in 0..<n {
            var s = recorded.subtreeRecords[before.records + k]
            s.start = shifted(s.start)
            s.end = shifted(s.end)
            if s.context >= fromContext { s.context += dContext }
            let slot = o.records + k
            if recorded.subtreeRecords[slot].id != s.id {
                // Old entries first (they may name a layer now at another slot), new ones below.
                if recorded.subtrees[recorded.subtreeRecords[slot].id] == slot { recorded.subtrees.removeValue(forKey: recorded.subtreeRecords[slot].id) }
                moved.append((s.id, slot))
            }
            recorded.subtreeRecords[slot] = s
        }
        for (id, slot) in moved { recorded.subtrees[id] = slot }
        recorded.subtreeRecords.removeLast(n)
        if reordered || !moved.isEmpty {
            // The cached record lists of the last patch name slots that now hold other layers.
            recorded.forgetLastPatch()
        }
        return .done
    }

    /// Drops what a re-emission appended after `m`.
    func truncate(to m: SubtreeMarks) {
        func cut<T>(_ a: inout [T], _ n: Int) { if a.count > n { a.removeLast(a.count - n) } }
        for (lane, kind) in RenderFrame.instanceKinds.enumerated() { kind.truncate(in: &out.frame, to: m.instances[lane]) }
        cut(&out.frame.clips, m.clips); cut(&recorded.leafContexts, m.contexts)
        cut(&recorded.leafRecords, m.leaves); cut(&recorded.subtreeRecords, m.records); cut(&recorded.subtreeSublayers, m.sublayers)
        cut(&recorded.parentGeometries, m.geometries)
    }

    /// Lanes of `SubtreeMarks.instances` that the record logic reads by kind.
    static let boxLane = RenderFrame.lane(of: BoxInstance.self)
    static let compositeLane = RenderFrame.lane(of: CompositeInstance.self)

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
