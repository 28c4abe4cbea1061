import CoreGraphics
import CoreAnimation
import CAFrame

/// `CAReplicatorLayer` (docs/BEHAVIOUR.md R1–R7): the replicator's sublayers drawn
/// `instanceCount` times, copy k moved by `instanceTransform`^k about the replicator's centre
/// ("This transform matrix is applied to instance k-1 to produce instance k. The matrix is
/// applied relative to the center of this layer", `instanceTransform` doc), shown as its subtree
/// was k × `instanceDelay` earlier, and tinted by `instanceColor` plus k × the four offsets.
///
/// Copy 0 is the sublayers' ordinary walk. Copies 1… are made one of two ways:
/// - **Instances of the recorded copy** (static subtrees): when copy 0 drew only boxes, images
///   and gradients in the current pass (no clip, offscreen pass, shape or composite of its
///   own), `instanceTransform` keeps z out of x, y and w (m31 = m32 = m34 = 0: the flattened
///   copy is then an exact plane-to-plane map of copy 0's pixels), depth is not preserved, and
///   the copies look alike in time (no delay, or nothing animated below), each copy is copy
///   0's instance range appended again with its plane-to-pixel maps followed by the copy's
///   pixel map (the replicator's plane → instanceTransform^k about the centre → pixels) and its
///   colours tinted. No layer is visited again: 10,000 copies of a dot are 10,000 box instances
///   in one batch for the price of one walk. Where copy 0 is one box and the backend draws
///   replicas (`usesGPUReplicas`), not even that: the box is drawn instanced over a table of
///   the copies' pixel maps and tints (`RenderTreeBuilder+GPUReplicas.swift`).
/// - **A walk per copy** otherwise: the sublayers visited again with the copy's transform put
///   between them and the replicator (so shapes are rasterised for their real placement, clips
///   and offscreen groups are the copy's own, and `preservesDepth` keeps 3D), at the media time
///   shifted by k × instanceDelay (`CALayer.renderCopy(atMedia:)`), and the copy's new
///   instances tinted afterwards.
///
/// The instance colour multiplies the copy as one picture ("the color used to multiply the
/// source object", `instanceColor` doc): its colour part multiplies each piece a copy draws
/// (its backgrounds, borders, images, gradients, shapes, shadows), which is the same, and a
/// translucent copy of overlapping pieces is composed in a target of its own before its alpha
/// applies (`RenderTreeBuilder+ReplicaGroups.swift`); the contents of masks are not tinted
/// (they only cut). Copies draw in order, later copies over earlier ones, each
/// copy's sublayers in their zPosition order.
extension RenderTreeBuilder {
    /// Most instances that replication may add to one frame (copies of all replicators, nested
    /// ones included; copy 0 of each is the sublayers' own drawing and is not counted). A copy
    /// costs its instances, and at least 1, so a huge `instanceCount` of an empty subtree ends
    /// too. 262,144 box instances are 32 MiB; the copies past it are not drawn, with a warning.
    package static let maxReplicatedInstances = 262_144
    /// Most gradient ramp rows that tinting copies may add to a frame (each is 16 KiB).
    static let maxTintedRampRows = 256

    /// Whether `layer` replicates its sublayers, and how (nil for every other class: metatype
    /// compares first, so plain layers pay no dynamic cast).
    @inline(__always)
    func replicaSpec(_ layer: CALayer, _ copy: CALayer, _ s: LayerState) -> ReplicaSpec? {
        let t = type(of: layer)
        if t == CALayer.self || t == CAShapeLayer.self || t == CAGradientLayer.self || t == CATransformLayer.self { return nil }
        guard let r = copy as? CAReplicatorLayer else { return nil }
        return ReplicaSpec(r, bounds: s.bounds)
    }

    /// The copies of a replicator's sublayers (`children`, in their drawing order), which
    /// inherit `ctx`; `h` is the replicator's plane → pixels.
    func drawReplicas(_ children: [CALayer], _ ctx: Context, _ r: ReplicaSpec, h: Homography) {
        // "instanceCount: The number of copies to create, including the source layers": none,
        // nothing is drawn (the model refuses negative counts).
        guard r.count > 0 else { return }
        // Translucent copies of overlapping pieces are composed, then faded (`+ReplicaGroups.swift`).
        if replicaCopiesNeedFlattening(children, r) { drawReplicasFlattened(children, ctx, r); return }
        let first = ReplicaMark(out)
        for child in children { visit(child, ctx, isMask: false) }
        let end0 = ReplicaMark(out)
        if r.count > 1 {
            var source = duplicable(children, first, end0, r, h: h)
            // Kept on the GPU where that is exact (`+GPUReplicas.swift`); copy 0's tint is then
            // a row of the draw too.
            if let s = source, replicateOnGPU(s, r) { return }
            // An inner replicator's GPU copies are one instance standing for many: plain
            // duplicates of it would drop them, so those copies walk instead.
            if let s = source, s.log.contains(where: { $0.variant.contains(.replicated) }) { source = nil }
            r.forEachLaterCopy { k, c in
                guard replicas.budget > 0 else { warnBudget(); return false }
                let tint = r.color(k)
                if let source {
                    let n = max(1, source.log.count)
                    guard n <= replicas.budget else { warnBudget(); return false }
                    guard let m = source.pixelMap(Homography(c)) else {
                        ReplicaSpec.warnBeyondFloat()
                        return true
                    }
                    appendDuplicate(source, pixelMap: m, tint: tint)
                    replicas.budget -= n
                } else {
                    let before = ReplicaMark(out)
                    var cctx = ctx
                    cctx.parentWorld = CATransform3DConcat(c, ctx.parentWorld)
                    cctx.parentWorldIsFinite = LayerGeometry.isFinite(cctx.parentWorld)
                    let shift = replicas.timeShift
                    replicas.timeShift = shift + Double(k) * r.delay
                    for child in children { visit(child, cctx, isMask: false) }
                    replicas.timeShift = shift
                    let after = ReplicaMark(out)
                    tintRange(from: before, to: after, by: tint)
                    replicas.budget -= max(1, (after.counts &- before.counts).wrappedSum())
                }
                return true
            }
        }
        // Copy 0 last: the recorded copies were made from its untinted instances.
        tintRange(from: first, to: end0, by: r.color(0))
    }

    func warnBudget() {
        RenderDiagnostics.warn("CAReplicatorLayer: more than \(Self.maxReplicatedInstances) replicated instances in one frame: the copies past that limit are not drawn")
    }

    // MARK: Copies as instances of copy 0

    /// Copy 0's instances, when later copies can be made from them (see the type's comment).
    struct ReplicaSource {
        /// Pipeline and variant of each of copy 0's instances, in order.
        var log: [FrameWriter.Emission]
        /// Where copy 0's instances begin in each array.
        var start: SIMD8<Int>
        var h: Homography
        var hInverse: Homography

        /// Pixels → pixels of a copy whose transform in the replicator's plane is `c`:
        /// back onto the replicator's plane, moved, projected again.
        func pixelMap(_ c: Homography) -> Homography? {
            let m = hInverse.then(c).then(h)
            return m.isFiniteInFloat ? m : nil
        }
    }

    func duplicable(_ children: [CALayer], _ a: ReplicaMark, _ b: ReplicaMark, _ r: ReplicaSpec, h: Homography) -> ReplicaSource? {
        guard !r.preservesDepth, r.transform.m31 == 0, r.transform.m32 == 0, r.transform.m34 == 0,
              b.clips == a.clips, b.passes == a.passes, b.targets == a.targets,
              b.counts[Self.compositeLane] == a.counts[Self.compositeLane], b.counts[Self.shapeLane] == a.counts[Self.shapeLane],
              let inverse = h.inverted() else { return nil }
        if r.delay != 0, children.contains(where: { $0.subtreeHasAnimations }) { return nil }
        let log = Array(out.currentLog[a.log..<b.log])
        for e in log {
            switch e.pipeline {
            case .box, .image, .gradient: continue
            default: return nil
            }
        }
        return ReplicaSource(log: log, start: a.counts, h: h, hInverse: inverse)
    }

    /// Appends one copy of `source`'s instances moved by `pixelMap` and tinted.
    func appendDuplicate(_ source: ReplicaSource, pixelMap m: Homography, tint: SIMD4<Float>) {
        var cursor = source.start
        let mul = Self.premultipliedTint(tint)
        for e in source.log {
            switch e.pipeline {
            case .box:
                var b = out.frame.boxes[cursor[Self.boxLane]]
                cursor[Self.boxLane] += 1
                (b.h0, b.h1, b.h2) = Self.moved(b.h0, b.h1, b.h2, by: m)
                if let mul { b.fill *= mul; b.border *= mul }
                out.frame.boxes.append(b)
                out.appendBatch(.box, variant: BoxEmitter.variant(b), index: out.frame.boxes.count - 1)
            case .image:
                var i = out.frame.images[cursor[Self.imageLane]]
                cursor[Self.imageLane] += 1
                (i.h0, i.h1, i.h2) = Self.moved(i.h0, i.h1, i.h2, by: m)
                if let mul { i.tint *= mul }
                out.frame.images.append(i)
                out.appendBatch(e.pipeline, variant: Self.reprojected(e.variant, i.h0, i.h1, i.h2), index: out.frame.images.count - 1)
            case .gradient:
                var g = out.frame.gradients[cursor[Self.gradientLane]]
                cursor[Self.gradientLane] += 1
                (g.h0, g.h1, g.h2) = Self.moved(g.h0, g.h1, g.h2, by: m)
                out.frame.gradients.append(g)
                if mul != nil { tintGradient(out.frame.gradients.count - 1, tint) }
                out.appendBatch(.gradient, variant: Self.reprojected(e.variant, g.h0, g.h1, g.h2), index: out.frame.gradients.count - 1)
            default:
                continue
            }
        }
    }

    /// A plane → pixels map (rows packed for a shader, w components carrying other data)
    /// followed by the pixel map `m`.
    static func moved(_ h0: SIMD4<Float>, _ h1: SIMD4<Float>, _ h2: SIMD4<Float>, by m: Homography)
        -> (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>) {
        func row(_ v: SIMD4<Float>) -> SIMD3<Double> { SIMD3(Double(v.x), Double(v.y), Double(v.z)) }
        let n = Homography(r0: row(h0), r1: row(h1), r2: row(h2)).then(m)
        return n.packed(SIMD3(h0.w, h1.w, h2.w))
    }

    /// `variant` with its `.projective` bit recomputed for the moved map.
    static func reprojected(_ variant: ShaderVariant, _ h0: SIMD4<Float>, _ h1: SIMD4<Float>, _ h2: SIMD4<Float>) -> ShaderVariant {
        var v = variant
        v.remove(.projective)
        v.formUnion(ShaderVariant.of(clip: 0, flags: Float(InstanceFlags.edgeMask), h0: h0, h1: h1, h2: h2).intersection(.projective))
        return v
    }

    // MARK: Tints

    /// What a premultiplied colour is multiplied by for a straight RGBA tint; nil for opaque
    /// white (no change).
    static func premultipliedTint(_ t: SIMD4<Float>) -> SIMD4<Float>? {
        t == SIMD4(repeating: 1) ? nil : SIMD4(t.x * t.w, t.y * t.w, t.z * t.w, t.w)
    }

    /// Tints every instance drawn between two marks, except those that only serve as masks
    /// (they cut, they are not seen) and the composites of offscreen groups (their sources are
    /// tinted already; a pixel-cast shadow's composite takes the tint's colour).
    func tintRange(from a: ReplicaMark, to b: ReplicaMark, by tint: SIMD4<Float>) {
        guard let mul = Self.premultipliedTint(tint), b.counts != a.counts else { return }
        // Targets whose pixels are masks, and the targets drawn into them: passes come before
        // the passes that composite them, so walking back finds each target after its user.
        var excluded = Set<TargetID>()
        func noteMasks(_ batches: [Batch], maskUser: Bool) {
            for batch in batches {
                guard case .composite(let source, let mask) = batch.pipeline else { continue }
                if let mask { excluded.insert(mask) }
                if maskUser { excluded.insert(source) }
            }
        }
        noteMasks(out.passStack[out.passStack.count - 1].batches, maskUser: false)
        var skipRanges: [(Batch.Pipeline, Range<Int>)] = []
        if b.passes > a.passes {
            for p in out.frame.passes[a.passes..<b.passes].reversed() {
                guard case .draw(let batches) = p.kind else { continue }
                let inMask = excluded.contains(p.target)
                noteMasks(batches, maskUser: inMask)
                if inMask { for batch in batches { skipRanges.append((batch.pipeline, batch.range)) } }
            }
        }
        func skipped(_ lane: Int, _ i: Int) -> Bool {
            for (p, r) in skipRanges where Self.lane(of: p) == lane && r.contains(i) { return true }
            return false
        }
        for i in a.counts[Self.boxLane]..<b.counts[Self.boxLane] where !skipped(Self.boxLane, i) {
            out.frame.boxes[i].fill *= mul
            out.frame.boxes[i].border *= mul
        }
        for i in a.counts[Self.imageLane]..<b.counts[Self.imageLane] where !skipped(Self.imageLane, i) {
            out.frame.images[i].tint *= mul
        }
        for i in a.counts[Self.gradientLane]..<b.counts[Self.gradientLane] where !skipped(Self.gradientLane, i) {
            tintGradient(i, tint)
        }
        for i in a.counts[Self.shapeLane]..<b.counts[Self.shapeLane] where !skipped(Self.shapeLane, i) {
            out.frame.shapes[i].fill *= mul
            out.frame.shapes[i].stroke *= mul
        }
        // A shadow cast from pixels paints its colour with its source's alpha (mode 1): the
        // alpha is tinted with the source, the colour here.
        let rgb = SIMD4<Float>(tint.x, tint.y, tint.z, 1)
        for i in a.counts[Self.compositeLane]..<b.counts[Self.compositeLane]
            where out.frame.composites[i].params.z == 1 && !skipped(Self.compositeLane, i) {
            out.frame.composites[i].color *= rgb
        }
    }

    /// A gradient's colours multiplied by `tint`: alpha alone through its opacity; colour through
    /// a tinted copy of its ramp row (up to `maxTintedRampRows` per frame, then with a warning
    /// only the alpha is applied).
    func tintGradient(_ i: Int, _ tint: SIMD4<Float>) {
        out.frame.gradients[i].params.z *= tint.w
        guard tint.x != 1 || tint.y != 1 || tint.z != 1 else { return }
        guard replicas.tintedRampRows < Self.maxTintedRampRows else {
            RenderDiagnostics.warn("CAReplicatorLayer: more than \(Self.maxTintedRampRows) gradient copies tinted in colour in one frame: the later ones keep their colours (alpha still applies)")
            return
        }
        replicas.tintedRampRows += 1
        let w = GradientInstance.rampWidth * 4
        let row = Int(out.frame.gradients[i].params.y)
        let newRow = out.frame.gradientRampRows
        out.frame.gradientRamps.reserveCapacity(out.frame.gradientRamps.count + w)
        for j in 0..<w {
            let c = j % 4
            let f: Float = c == 0 ? tint.x : c == 1 ? tint.y : c == 2 ? tint.z : 1
            out.frame.gradientRamps.append(out.frame.gradientRamps[row * w + j] * f)
        }
        out.frame.gradients[i].params.y = Float(newRow)
    }

    static let imageLane = RenderFrame.lane(of: ImageInstance.self)
    static let gradientLane = RenderFrame.lane(of: GradientInstance.self)
    static let shapeLane = RenderFrame.lane(of: ShapeInstance.self)

    static func lane(of p: Batch.Pipeline) -> Int {
        switch p {
        case .box: return boxLane
        case .image: return imageLane
        case .composite: return compositeLane
        case .gradient: return gradientLane
        case .shape: return shapeLane
        case .particles: return RenderFrame.lane(of: ParticleRunInstance.self)
        }
    }
}

/// Where a copy's drawing begins or ends in the frame being written.
struct ReplicaMark {
    var counts: SIMD8<Int>
    var clips: Int
    var passes: Int
    var targets: Int
    var log: Int

    init(_ out: FrameWriter) {
        counts = out.instanceCounts
        clips = out.frame.clips.count
        passes = out.frame.passes.count
        targets = out.frame.targets.count
        log = out.currentLog.count
    }
}

/// What replication keeps during one frame (the builder's `replicas`).
struct ReplicaFrameState {
    /// Media-time shift of the subtree being drawn: the sum of k × instanceDelay of the copies
    /// it is inside.
    var timeShift: Double = 0
    /// Instances replication may still add in this frame (`maxReplicatedInstances`).
    var budget = RenderTreeBuilder.maxReplicatedInstances
    var tintedRampRows = 0
    /// Copies drawn through a target of their own (`RenderTreeBuilder.maxFlattenedCopies`).
    var flattenedCopies = 0
}

/// A replicator's properties as one copy of the walk reads them (from its render copy, so
/// their animations apply).
struct ReplicaSpec {
    var count: Int
    var transform: CATransform3D
    var centre: CGPoint
    var delay: Double
    /// `instanceColor`, straight RGBA (nil: opaque white).
    var color: SIMD4<Float>
    /// Red, green, blue and alpha offsets added per copy.
    var offsets: SIMD4<Float>
    var preservesDepth: Bool

    init(_ r: CAReplicatorLayer, bounds: CGRect) {
        count = max(r.instanceCount, 0)
        transform = r.instanceTransform
        let b = bounds.standardized
        centre = CGPoint(x: b.midX, y: b.midY)
        delay = r.instanceDelay.isFinite ? r.instanceDelay : 0
        if let c = r.instanceColor?.rgba {
            color = SIMD4(Float(c.red), Float(c.green), Float(c.blue), Float(c.alpha))
        } else {
            color = SIMD4(repeating: 1)
        }
        offsets = SIMD4(r.instanceRedOffset, r.instanceGreenOffset, r.instanceBlueOffset, r.instanceAlphaOffset)
        preservesDepth = r.preservesDepth
    }

    /// Copy k's colour: the instance colour plus k × the offsets, each channel clamped to 0…1
    /// (a NaN channel counts as 0).
    func color(_ k: Int) -> SIMD4<Float> {
        var c = color
        if offsets != .zero { c += Float(k) * offsets }
        for i in 0..<4 { c[i] = c[i].isNaN ? 0 : min(max(c[i], 0), 1) }
        return c
    }

    /// Walks copies 1…count − 1 with their transforms (instanceTransform^k about the centre),
    /// until `body` returns false. A non-finite power (an animation overshooting, powers
    /// overflowing) stays non-finite for every later copy: the walk stops there, with one
    /// warning. Both the CPU copies and the GPU rows (`+GPUReplicas.swift`) walk this way.
    func forEachLaterCopy(_ body: (Int, CATransform3D) -> Bool) {
        var power = CATransform3DIdentity
        for k in 1..<max(count, 1) {
            power = CATransform3DConcat(power, transform)
            let c = aboutCentre(power)
            guard LayerGeometry.isFinite(c) else {
                RenderDiagnostics.warn("CAReplicatorLayer: instanceTransform raised to the copy's index is not finite: that copy and the later ones are not drawn")
                return
            }
            if !body(k, c) { return }
        }
    }

    /// A copy whose pixel map leaves Float's range is skipped (the later ones may come back).
    static func warnBeyondFloat() {
        RenderDiagnostics.warn("CAReplicatorLayer: a copy's geometry is beyond 32-bit float range (±3.4e38): that copy is not drawn")
    }

    /// `m` applied about the replicator's centre, in its bounds' coordinates.
    func aboutCentre(_ m: CATransform3D) -> CATransform3D {
        let toCentre = CATransform3DMakeTranslation(-centre.x, -centre.y, 0)
        let back = CATransform3DMakeTranslation(centre.x, centre.y, 0)
        return CATransform3DConcat(CATransform3DConcat(toCentre, m), back)
    }
}

extension Homography {
    /// `self` followed by `next` (row vectors: `p · self · next`).
    func then(_ next: Homography) -> Homography {
        func row(_ r: SIMD3<Double>) -> SIMD3<Double> { r.x * next.r0 + r.y * next.r1 + r.z * next.r2 }
        return Homography(r0: row(r0), r1: row(r1), r2: row(r2))
    }
}

extension FrameWriter {
    /// The emission log being appended to: the frame's, or a re-emission's scratch log.
    var currentLog: [Emission] { reemitting ? scratchLog : emissionLog }
}
