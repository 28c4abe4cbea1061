import CoreGraphics
import CAFrame

/// The frame being built and the pass being drawn into: where every emitter appends its
/// instances. It merges consecutive instances of one pipeline and shader variant into one
/// batch, keeps the stack of offscreen passes, the clip table and the frame's texture slots,
/// and logs each instance's pipeline and variant (a patch that re-emits a subtree compares its
/// log with the recorded slice, `RenderTreeBuilder+Subtrees.swift`).
///
/// It knows nothing of layers or of the walk: the walk (`RenderTreeBuilder`) decides what is
/// drawn, emitters (`Emitters/`) say how each kind of content becomes instances, and this is
/// the one place those instances enter the frame format (`CAFrame`).
final class FrameWriter {
    // Read and written several times per layer (counts for `SubtreeMarks`, appends) from the
    // one thread that builds, and never handed out while they change: their accesses are not
    // checked for exclusivity at run time. Measured with PatchRecords' fields (fa512e9,
    // callgrind, builder harness, 5 frames): checked, `build` of 10,000 rects takes 8.6% more
    // instructions (383.0 → 416.0 M) and of the images scene 16% (71.7 → 83.3 M).
    @exclusivity(unchecked) var frame = RenderFrame(width: 0, height: 0)
    /// Pipeline and shader variant of every instance of the frame, in the order they were
    /// appended: a re-emitted subtree must repeat its slice to keep the frame's batches.
    @exclusivity(unchecked) var emissionLog: [Emission] = []
    /// What a re-emission appends instead (`reemitting`).
    @exclusivity(unchecked) var scratchLog: [Emission] = []
    /// True while a patch re-emits a subtree: batches go to `scratchLog`, and no record is
    /// entered for the patch to find (it moves the new records into place).
    @exclusivity(unchecked) var reemitting = false
    /// While ≥ 0, box batches are batches of this `RenderFrame.depthPlanes` entry
    /// (`FrameWriter+DepthPlanes.swift`).
    var depthPlane: Int32 = -1
    /// The `RenderFrame.replicaDraws` entry of each replicated box (`+GPUReplicas.swift`), by
    /// box index, so a patch that re-emits a replicator updates its draw; kept while patches
    /// keep the frame.
    var replicaOfBox: [Int: Int32] = [:]
    /// The levels a draw had before a patch began re-emitting it: rows are reused in place.
    var reusableReplicaLevels: [Int32: [ReplicaLevel]] = [:]
    /// Record index minus re-emission index of boxes while a patch re-emits a subtree.
    var reemitBoxShift = 0
    @exclusivity(unchecked) var stats = RenderStats()
    @exclusivity(unchecked) var passStack: [PendingPass] = []
    var textureIndex: [ObjectIdentifier: Int] = [:]

    /// One pipeline and shader variant per instance, as `appendBatch` saw them.
    struct Emission: Equatable {
        var pipeline: Batch.Pipeline
        var variant: ShaderVariant
    }

    struct PendingPass {
        var target: TargetID
        var rect: CGRect
        var batches: [Batch] = []
        /// False once the pass was split (`FrameWriter+Split.swift`): the rest continues the target.
        var clears = true
    }

    /// Starts a frame: empty arrays (keeping their capacity), the main pass open.
    func begin(width: Int, height: Int, clearColor: SIMD4<Float>) {
        frame = RenderFrame(width: width, height: height)
        frame.clearColor = clearColor
        frame.boxes.reserveCapacity(1024)
        stats = RenderStats()
        textureIndex.removeAll(keepingCapacity: true)
        emissionLog.removeAll(keepingCapacity: true)
        replicaOfBox.removeAll(keepingCapacity: true)
        reusableReplicaLevels.removeAll(keepingCapacity: true)
        reemitting = false
        passStack = [PendingPass(target: .main, rect: CGRect(x: 0, y: 0, width: width, height: height))]
    }

    /// Closes the main pass (it runs last: offscreen passes come before the passes that
    /// composite them).
    func endMainPass() {
        let main = passStack.removeLast()
        frame.passes.append(RenderPass(target: .main, kind: .draw(main.batches), clears: main.clears))
    }

    /// Counts the finished frame's instances, batches and offscreen passes into `stats`.
    func countFrame() {
        stats.instances = frame.instanceCounts.wrappedSum()
        // A replicated batch's one instance stands for its copies (`ReplicaDraw`).
        for d in frame.replicaDraws { stats.instances += d.copies - 1 }
        for p in frame.passes { if case .draw(let b) = p.kind { stats.batches += b.count } }
        stats.offscreenPasses = frame.passes.count - 1
    }

    /// `frame.instanceCounts`, read in place: the frame's computed property read from this
    /// class copies the whole frame first (retaining every array; two copies per layer were
    /// a fifth of the 10,000-rect build, callgrind).
    @inline(__always) var instanceCounts: SIMD8<Int> {
        SIMD8(frame.boxes.count, frame.images.count, frame.composites.count, frame.gradients.count, frame.shapes.count, 0, 0, 0)
    }

    /// The rectangle, in frame pixels, of the pass being drawn into.
    @inline(__always) var passRect: CGRect { passStack[passStack.count - 1].rect }

    // MARK: Passes

    func beginOffscreen(_ rect: CGRect) -> TargetID {
        frame.targets.append(OffscreenTarget(x: Int(rect.minX), y: Int(rect.minY), width: Int(rect.width), height: Int(rect.height)))
        let id = TargetID.offscreen(frame.targets.count - 1)
        passStack.append(PendingPass(target: id, rect: rect))
        return id
    }

    func endOffscreen() {
        let p = passStack.removeLast()
        frame.passes.append(RenderPass(target: p.target, kind: .draw(p.batches), clears: p.clears))
    }

    /// A target of `rect` (a blur's intermediate), drawn by passes appended directly.
    func appendTarget(_ rect: CGRect, downscale: Int) -> TargetID {
        frame.targets.append(OffscreenTarget(x: Int(rect.minX), y: Int(rect.minY), width: Int(rect.width),
                                             height: Int(rect.height), downscale: downscale))
        return .offscreen(frame.targets.count - 1)
    }

    static func pixelAligned(_ r: CGRect) -> CGRect {
        guard !r.isNull, !r.isInfinite else { return r }
        let x0 = r.minX.rounded(.down), y0 = r.minY.rounded(.down)
        let x1 = r.maxX.rounded(.up), y1 = r.maxY.rounded(.up)
        return CGRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    // MARK: Batches

    /// Extends the current pass's last batch when the instance continues it (same pipeline,
    /// same shader variant, next index), else starts a batch. Boxes that differ only in
    /// `.blur` share a batch under the union variant: box.frag's blur branch is taken per
    /// instance (`params.y > 0`), so a layer's analytic shadow and its background, alternating
    /// down a list of shadowed layers, stay one instanced draw (issue 22: 100 shadowed layers
    /// were 201 draws).
    @inline(__always)
    func appendBatch(_ pipeline: Batch.Pipeline, variant: ShaderVariant = ShaderVariant(rawValue: 0), index: Int) {
        if depthPlane >= 0, case .box = pipeline {
            appendDepthPlaneBatch(variant: variant, index: index)
            return
        }
        if reemitting {
            scratchLog.append(Emission(pipeline: pipeline, variant: variant))
            return
        }
        emissionLog.append(Emission(pipeline: pipeline, variant: variant))
        let p = passStack.count - 1
        if let last = passStack[p].batches.last, last.pipeline == pipeline, last.variant == variant,
           last.range.upperBound == index {
            passStack[p].batches[passStack[p].batches.count - 1].range = last.range.lowerBound..<(index + 1)
        } else if let last = passStack[p].batches.last, last.range.upperBound == index,
                  Self.sharesBoxBatch(last, pipeline, variant) {
            let b = passStack[p].batches.count - 1
            passStack[p].batches[b].range = last.range.lowerBound..<(index + 1)
            passStack[p].batches[b].variant.formUnion(variant)
        } else {
            passStack[p].batches.append(Batch(pipeline: pipeline, variant: variant, range: index..<(index + 1)))
        }
    }

    /// Whether a box of `variant` may join box batch `last`: the two variants differ in
    /// `.blur` only (see `appendBatch`).
    static func sharesBoxBatch(_ last: Batch, _ pipeline: Batch.Pipeline, _ variant: ShaderVariant) -> Bool {
        guard case .box = pipeline, case .box = last.pipeline else { return false }
        return last.variant.symmetricDifference(variant) == .blur
    }

    /// Appends an instance of any kind with its pipeline and shader variant: how a kind's
    /// emitter puts its instances into the frame. (The box, image and gradient emitters append
    /// to their arrays directly, the 10,000-layer scenes' hottest path; this goes through the
    /// kind's key path.)
    func append<K: InstanceKind>(_ instance: K, _ pipeline: Batch.Pipeline, variant: ShaderVariant) {
        frame[keyPath: K.instances].append(instance)
        appendBatch(pipeline, variant: variant, index: frame[keyPath: K.instances].count - 1)
    }

    func appendComposite(source: TargetID, mask: TargetID?, rect: CGRect, opacity: Float, clip: Int32,
                         offset: CGSize = .zero, color: SIMD4<Float>? = nil) {
        let src = rect.simd
        var dst = src
        dst.x += Float(offset.width); dst.y += Float(offset.height)
        frame.composites.append(CompositeInstance(dst: dst, src: src, color: color ?? SIMD4(repeating: opacity),
                                                  params: SIMD4(0, Float(clip), color == nil ? 0 : 1, 0)))
        var v: ShaderVariant = clip != 0 ? [.clip] : []
        if mask != nil { v.insert(.mask) }
        appendBatch(.composite(source: source, mask: mask), variant: v, index: frame.composites.count - 1)
    }

    // MARK: Clips

    func appendClip(_ c: ClipShape) -> Int32 {
        frame.clips.append(c)
        return Int32(frame.clips.count - 1)
    }

    /// `shape` within clip `outer`: one entry of the table when the two merge (either is the
    /// whole frame, or both are square-cornered and axis-aligned in pixels); otherwise the
    /// entry holds `shape` alone and the flag is false (the caller must apply `outer` some
    /// other way, through an offscreen target).
    func appendClip(_ shape: ClipShape, within outer: Int32) -> (Int32, Bool) {
        if outer == 0 { return (appendClip(shape), true) }
        if let merged = Self.intersectAxisAligned(frame.clips[Int(outer)], shape) { return (appendClip(merged), true) }
        return (appendClip(shape), false)
    }

    /// Two square-cornered clips whose planes are axis-aligned in pixels intersect into one.
    static func intersectAxisAligned(_ a: ClipShape, _ b: ClipShape) -> ClipShape? {
        guard a.radii == .zero, b.radii == .zero, a.inverse.isAxisAligned, b.inverse.isAxisAligned,
              let ra = pixelRect(a), let rb = pixelRect(b) else { return nil }
        let r = ra.intersection(rb)
        let rr = r.isNull ? CGRect.zero : r
        return ClipShape(inverse: .identity, rect: rr.simd, radii: .zero, continuous: false)
    }

    static func pixelRect(_ c: ClipShape) -> CGRect? {
        guard let fwd = c.inverse.inverted() else { return nil }
        let r = CGRect(x: CGFloat(c.rect.x), y: CGFloat(c.rect.y), width: CGFloat(c.rect.z), height: CGFloat(c.rect.w))
        return fwd.boundingBox(of: r)
    }

    // MARK: Textures

    /// The frame's texture slot of an image (one slot per image, however often it is drawn).
    func textureSlot(_ image: CGImage) -> Int {
        let id = ObjectIdentifier(image)
        if let i = textureIndex[id] { return i }
        frame.textures.append(image)
        textureIndex[id] = frame.textures.count - 1
        return frame.textures.count - 1
    }
}
