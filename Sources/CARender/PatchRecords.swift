import CoreGraphics
import CoreAnimation
import CAFrame

/// What a whole build records so that a later frame can be patched in place instead of built
/// again (`RenderTreeBuilder+Patch.swift`, `+Subtrees.swift`): the plain leaves (one box each)
/// and the subtrees that can be re-emitted alone, the contexts they inherited, and the answer
/// of the last patch. The walk fills it; only patches read it.
final class PatchRecords {
    typealias Context = RenderTreeBuilder.Context

    /// Plain leaves of the last built frame (one box each) and what they inherited, by layer:
    /// an index into `leafRecords`.
    @exclusivity(unchecked) var leaves: [ObjectIdentifier: Int] = [:]
    // Read and written per recorded layer by the one thread that builds or patches (a patch
    // walks them through buffer pointers); not handed out while they change, so their accesses
    // are not checked for exclusivity at run time. Measured with FrameWriter's fields (see
    // there): checked, `patch` of the images scene takes 36% more instructions (45.5 → 61.8 M).
    @exclusivity(unchecked) var leafRecords: [LeafRecord] = []
    /// The contexts that recorded leaves inherited (one per parent that drew sublayers, and
    /// the root's), which `LeafRecord.context` indexes.
    @exclusivity(unchecked) var leafContexts: [Context] = []
    /// The parents' parts of M7 that contexts name (`Context.parentGeometry`), in the order
    /// the walk made them; a re-emitted subtree's are moved back into place with its contexts.
    @exclusivity(unchecked) var parentGeometries: [SublayerGeometry] = []
    /// The layers the last patch was asked for and their records, in that order: the timing
    /// engine hands over the same animated layers in the same order frame after frame, and a
    /// list that matches needs no lookup per layer.
    var lastPatchLayers: [ObjectIdentifier] = []
    var lastPatchRecords: [Int] = []
    /// Of those layers, the ones with subtree records instead, by record (`+Subtrees.swift`).
    var lastPatchSubtrees: [Int] = []
    /// Parallel to `lastPatchRecords`: what the patch last read of each leaf's presentation copy
    /// (`RenderTreeBuilder.cachedLeafBox`). Set back to empty entries whenever that list changes.
    @exclusivity(unchecked) var leafCache: [LeafCache] = []
    /// How many leaves the last patch re-emitted from `leafCache` (for tests and benchmarks).
    var lastPatchCachedLeaves = 0
    /// Layers of the last built frame that are not plain leaves but whose subtree can be
    /// re-emitted in place (`SubtreeRecord`), by layer: an index into `subtreeRecords`.
    @exclusivity(unchecked) var subtrees: [ObjectIdentifier: Int] = [:]
    /// In pre-order: a record's descendants' records follow it, up to its `end.records`.
    @exclusivity(unchecked) var subtreeRecords: [RenderTreeBuilder.SubtreeRecord] = []
    /// The sublayer lists of recorded layers, one after another (`SubtreeMarks.sublayers`).
    @exclusivity(unchecked) var subtreeSublayers: [ObjectIdentifier] = []
    /// The root of the last build (held by its renderer while that renderer patches).
    var builtRoot: ObjectIdentifier?

    struct LeafRecord {
        /// Unretained: a leaf of the last frame stays alive while it is in the tree, and leaves
        /// out of the tree are never looked up (their parent's commit forces a whole frame).
        // Kept: strong (with `SubtreeRecord.layer`), builder-benchmark's images patch takes 9.2%
        // more instructions (45.5 → 49.6 M).
        unowned(unsafe) var layer: CALayer
        var boxIndex: Int
        /// Index of the inherited `Context` in `leafContexts` (shared by siblings; a record of
        /// plain values copies without retaining anything).
        var context: Int
        var variant: ShaderVariant
        /// Sibling order depends on it: a leaf whose zPosition moved needs a whole frame.
        var zPosition: CGFloat
    }

    /// A patched leaf's box inputs as read from its presentation copy, less the position: while
    /// the layer's `copyGeneration` is `generation` the copy's other properties are written
    /// only by its plan's animations, so when those write nothing but the position
    /// (`TimingEngine.stepPosition`) the box of a later frame follows from these values and
    /// that frame's position, with no load of the layer's copies (a dozen cache lines of state
    /// per leaf, most of the patch's time at 100,000 layers).
    struct LeafCache {
        var isValid = false
        var generation: UInt32 = 0
        /// Whether the copy's transform is the identity (only then is the box a translation of
        /// the parent's world, `LayerGeometry.translationWorld`).
        var identityTransform = false
        var isDoubleSided = true
        /// The inherited context's opacity the entry was computed with.
        var contextOpacity: Float = 0
        /// The effective opacity (the copy's, at most 1, times the context's).
        var opacity: Float = 0
        /// The committed copy's position: where `stepPosition` starts.
        var committedPosition = CGPoint.zero
        var placement: Placement
        var look: BoxLook

        /// An entry that holds nothing (`isValid` false): the next patch reads the copy.
        static var empty: LeafCache { LeafCache(placement: Placement(zero: ()), look: BoxLook(zero: ())) }
    }

    /// Forgets the last frame's records (keeping capacity): a whole build of `root` begins.
    func reset(root: CALayer) {
        leaves.removeAll(keepingCapacity: true)
        leafRecords.removeAll(keepingCapacity: true)
        leafContexts.removeAll(keepingCapacity: true)
        parentGeometries.removeAll(keepingCapacity: true)
        lastPatchLayers.removeAll()
        lastPatchRecords.removeAll()
        lastPatchSubtrees.removeAll()
        leafCache.removeAll()
        subtrees.removeAll(keepingCapacity: true)
        subtreeRecords.removeAll(keepingCapacity: true)
        subtreeSublayers.removeAll(keepingCapacity: true)
        builtRoot = ObjectIdentifier(root)
    }

    /// Records a plain leaf; `enter` false while a patch re-emits (it moves the record into
    /// place and enters it itself).
    func recordLeaf(_ layer: CALayer, boxIndex: Int, context: Int, variant: ShaderVariant, zPosition: CGFloat, enter: Bool) {
        if enter { leaves[ObjectIdentifier(layer)] = leafRecords.count }
        leafRecords.append(LeafRecord(layer: layer, boxIndex: boxIndex, context: context, variant: variant, zPosition: zPosition))
    }

    /// Drops the cached answer of the last patch (its record lists name slots that moved).
    func forgetLastPatch() {
        lastPatchLayers.removeAll()
        lastPatchRecords.removeAll()
        lastPatchSubtrees.removeAll()
        leafCache.removeAll()
    }
}

private extension Placement {
    init(zero: ()) { bounds = .zero; position = .zero; zPosition = 0; anchorPoint = .zero; anchorPointZ = 0 }
}

private extension BoxLook {
    init(zero: ()) {
        bounds = .zero; radii = .zero; shapeFlags = 0; borderWidth = 0; allowsGroupOpacity = true; fill = .zero; border = .zero
    }
}
