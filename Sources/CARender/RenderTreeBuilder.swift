import CoreGraphics
import CoreAnimation
#if canImport(Glibc)
import Glibc
#endif

/// Turns a layer tree, as the timing engine left it for this frame, into a `RenderFrame`:
/// world transforms, clips, opacity groups, masks and shadows resolved, instances appended in
/// painter's order and merged into batches as they go (consecutive instances of one pipeline
/// share a draw). Reused across frames so its arrays keep their capacity.
///
/// Order within a layer follows Apple's compositing: shadow, background, contents (CALayer
/// docs: "contents … composited above the background"), sublayers by `zPosition`, then the
/// border ("composited above the receiver's contents and sublayers", `borderWidth` doc).
///
/// Cost is linear in the layers visited, with no limit on width (1,000,000 sibling layers:
/// 7–9 s to build in a debug build on two busy cores); depth stops at `maxDepth`. Geometry
/// that is not finite, or beyond 32-bit float range once composed, skips its layer and
/// subtree with a warning.
package final class RenderTreeBuilder {
    /// Layers nested deeper than this are not drawn (a warning names the limit): the walk is
    /// recursive, and a hostile 100k-deep tree must not overflow the stack.
    package static let maxDepth = 256

    // The builder is used from one thread and hands none of these arrays out while it changes
    // them; their counts are read several times per layer (`subtreeMarks`), so their accesses
    // are not checked for exclusivity at run time.
    @exclusivity(unchecked) var frame = RenderFrame(width: 0, height: 0)
    var stats = RenderStats()
    var passStack: [PendingPass] = []
    var textureIndex: [ObjectIdentifier: Int] = [:]
    var warnedDepth = false
    var warnedStack = false
    /// The stack of the thread that builds (re-read when another thread builds).
    var stackGuard: StackGuard?

    /// Reads the calling thread's stack bounds when the builder runs on another thread than
    /// last time (builds and patches both walk; a renderer may move between threads).
    func refreshStackGuard() {
        if !(stackGuard?.isFor(pthread_self()) ?? false) { stackGuard = StackGuard.forCurrentThread() }
    }
    /// True while drawing layers whose plane an odd number of `isGeometryFlipped` ancestors
    /// turned upside down (contents are mirrored back to stay upright, `ContentsLayout`).
    var planeMirrored = false
    /// Ramp rows of this frame by their colours and locations, so identical gradients share one.
    var gradientRampIndex: [[Double]: Int] = [:]
    /// Ramps computed in earlier frames, by the same key (emptied when it reaches the limit).
    var rampCache: [[Double]: [Float]] = [:]
    static let rampCacheLimit = 1024
    /// Plain leaves of the last built frame (one box each) and what they inherited, by layer:
    /// an index into `leafRecords`.
    var leaves: [ObjectIdentifier: Int] = [:]
    @exclusivity(unchecked) var leafRecords: [LeafRecord] = []
    /// The contexts that recorded leaves inherited (one per parent that drew sublayers, and
    /// the root's), which `LeafRecord.context` indexes.
    @exclusivity(unchecked) var leafContexts: [Context] = []
    /// The layers the last patch was asked for and their records, in that order: the timing
    /// engine hands over the same animated layers in the same order frame after frame, and a
    /// list that matches needs no lookup per layer.
    var lastPatchLayers: [ObjectIdentifier] = []
    var lastPatchRecords: [Int] = []
    /// Of those layers, the ones with subtree records instead, by record (`+Subtrees.swift`).
    var lastPatchSubtrees: [Int] = []
    /// Layers of the last built frame that are not plain leaves but whose subtree can be
    /// re-emitted in place (`SubtreeRecord`), by layer: an index into `subtreeRecords`.
    var subtrees: [ObjectIdentifier: Int] = [:]
    /// In pre-order: a record's descendants' records follow it, up to its `end.records`.
    @exclusivity(unchecked) var subtreeRecords: [SubtreeRecord] = []
    /// The sublayer lists of recorded layers, one after another (`SubtreeMarks.sublayers`).
    @exclusivity(unchecked) var subtreeSublayers: [ObjectIdentifier] = []
    /// Pipeline and shader variant of every instance of the frame, in the order they were
    /// appended: a re-emitted subtree must repeat its slice to keep the frame's batches.
    @exclusivity(unchecked) var emissionLog: [Emission] = []
    /// What a re-emission appends instead (`reemitting`).
    @exclusivity(unchecked) var scratchLog: [Emission] = []
    /// True while a patch re-emits a subtree: batches go to `scratchLog`, and no record is
    /// entered in `leaves` or `subtrees` (the patch moves the new records into place).
    var reemitting = false
    /// The root of the last build (held by its renderer while that renderer patches).
    var builtRoot: ObjectIdentifier?
    /// Greater than 0 while a transition's pictures are drawn (nothing in them is a subtree record).
    var transitionDepth = 0
    var lastStats = RenderStats()
    /// Shape rasters kept across frames (`Shapes/ShapeCache.swift`).
    let shapeCache = ShapeCache()
    /// Small images packed into shared pages, kept across frames (`ImageAtlas.swift`).
    package let imageAtlas = ImageAtlas()
    /// This frame's texture slot of each atlas page in use.
    var atlasSlots: [Int: Int] = [:]
    /// Whether small images go into the atlas (`CARenderer.Options.usesImageAtlas`; tests
    /// compare against their own textures).
    package var usesImageAtlas = true
    /// Whether builds record subtrees that a patch can re-emit (`+Subtrees.swift`;
    /// `CARenderer.Options.patchesSubtrees`: off, only plain leaves are patched).
    package var recordsSubtrees = true

    struct LeafRecord {
        /// Unretained: a leaf of the last frame stays alive while it is in the tree, and leaves
        /// out of the tree are never looked up (their parent's commit forces a whole frame).
        unowned(unsafe) var layer: CALayer
        var boxIndex: Int
        /// Index of the inherited `Context` in `leafContexts` (shared by siblings; a record of
        /// plain values copies without retaining anything).
        var context: Int
        var variant: ShaderVariant
        /// Sibling order depends on it: a leaf whose zPosition moved needs a whole frame.
        var zPosition: CGFloat
    }

    struct PendingPass {
        var target: TargetID
        var rect: CGRect
        var batches: [Batch] = []
    }

    /// What a layer inherits from the walk above it.
    struct Context {
        var parentWorld: CATransform3D
        /// The parent's state where its part of M7 is not the identity (geometry-flipped, or a
        /// `sublayerTransform`); nil for the root, a mask, and the common plain parent.
        var parentState: LayerState?
        /// `parentState` is nil: the parent adds nothing to M7 (cached, so patching a leaf does
        /// not copy the optional state to ask).
        var parentIsPlain: Bool
        /// Every entry of `parentWorld` is finite (`LayerGeometry.world`'s fast path needs it).
        var parentWorldIsFinite: Bool
        var clip: Int32
        /// Opacity multiplied down a chain that is not composited as a group.
        var opacity: Float
        var depth: Int
        /// Odd number of `isGeometryFlipped` mirrors in this layer's world matrix: a flip is a
        /// change of coordinate system, not a turn, so back-face culling discounts it.
        var mirrored = false
        /// Parent space → the plane of the nearest flattening ancestor, before that flattening:
        /// identity except below a CATransformLayer, where it keeps the depth that orders
        /// sublayers (the world matrix has lost z at the flattening).
        var depthBasis = CATransform3DIdentity
        /// Index in `leafContexts`, -1 where leaves are not recorded (masks).
        var index = -1

        init(parentWorld: CATransform3D, parentState: LayerState?, clip: Int32, opacity: Float, depth: Int,
             mirrored: Bool = false, depthBasis: CATransform3D = CATransform3DIdentity) {
            self.parentWorld = parentWorld
            // A parent that neither flips nor has a sublayerTransform adds nothing to M7
            // (`localToParentMatrix` skips it): not kept, so the fast path applies.
            self.parentState = parentState.flatMap { p in
                p.isGeometryFlipped || !CATransform3DIsIdentity(p.sublayerTransform) ? p : nil
            }
            parentIsPlain = self.parentState == nil
            parentWorldIsFinite = LayerGeometry.isFinite(parentWorld)
            self.clip = clip
            self.opacity = opacity
            self.depth = depth
            self.mirrored = mirrored
            self.depthBasis = depthBasis
        }
    }

    /// What a layer hands on to its sublayers besides its world matrix (see `Context`).
    struct Lineage {
        var mirrored: Bool
        /// This layer's space → the plane of the nearest flattening ancestor; only a
        /// `CATransformLayer` hands it on (other layers flatten), so for others it is left at
        /// the identity rather than computed.
        var depth: CATransform3D
    }

    package init() {}

    /// `origin` is the layer-space point at the target's top-left (CARenderer's bounds origin).
    package func build(root: CALayer, width: Int, height: Int, scale: Double, origin: SIMD2<Double> = .zero,
                      clearColor: SIMD4<Float> = .zero) -> (RenderFrame, RenderStats) {
        frame = RenderFrame(width: width, height: height)
        frame.clearColor = clearColor
        frame.boxes.reserveCapacity(1024)
        stats = RenderStats()
        textureIndex.removeAll(keepingCapacity: true)
        atlasSlots.removeAll(keepingCapacity: true)
        warnedDepth = false
        warnedStack = false
        refreshStackGuard()
        planeMirrored = false
        gradientRampIndex.removeAll(keepingCapacity: true)
        leaves.removeAll(keepingCapacity: true)
        leafRecords.removeAll(keepingCapacity: true)
        leafContexts.removeAll(keepingCapacity: true)
        lastPatchLayers.removeAll()
        lastPatchRecords.removeAll()
        lastPatchSubtrees.removeAll()
        subtrees.removeAll(keepingCapacity: true)
        subtreeRecords.removeAll(keepingCapacity: true)
        subtreeSublayers.removeAll(keepingCapacity: true)
        emissionLog.removeAll(keepingCapacity: true)
        reemitting = false
        transitionDepth = 0
        builtRoot = ObjectIdentifier(root)
        shapeCache.beginFrame()
        passStack = [PendingPass(target: .main, rect: CGRect(x: 0, y: 0, width: width, height: height))]
        let base = CATransform3DConcat(CATransform3DMakeTranslation(CGFloat(-origin.x), CGFloat(-origin.y), 0),
                                       CATransform3DMakeScale(CGFloat(scale), CGFloat(scale), 1))
        visit(root, recordedContext(Context(parentWorld: base, parentState: nil, clip: 0, opacity: 1, depth: 0)), isMask: false)
        let main = passStack.removeLast()
        frame.passes.append(RenderPass(target: .main, kind: .draw(main.batches)))
        finishShapes()
        finishImageAtlas()
        stats.instances = frame.boxes.count + frame.images.count + frame.composites.count + frame.gradients.count + frame.shapes.count
        for p in frame.passes { if case .draw(let b) = p.kind { stats.batches += b.count } }
        stats.offscreenPasses = frame.passes.count - 1
        lastStats = stats
        return (frame, stats)
    }

    // MARK: The walk

    /// `slide` moves the layer within its own plane (a transition's sliding pictures);
    /// `transitions` false draws the layer's current state even while a transition runs on it.
    func visit(_ layer: CALayer, _ ctx: Context, isMask: Bool, slide: CGSize = .zero, transitions: Bool = true) {
        stats.layersVisited += 1
        guard ctx.depth < Self.maxDepth else {
            if !warnedDepth {
                warnedDepth = true
                RenderDiagnostics.warn("layer tree deeper than \(Self.maxDepth) levels: deeper layers are not drawn")
            }
            return
        }
        guard !(stackGuard?.isLow() ?? false) else {
            if !warnedStack {
                warnedStack = true
                RenderDiagnostics.warn("layer tree \(ctx.depth) levels deep does not fit this thread's stack: deeper layers are not drawn (render on a thread with a larger stack)")
            }
            return
        }
        // Before the hidden check: a transition may show a layer that is hidden now (I3).
        if transitions, !isMask, let running = layer.runningTransition(atMedia: CACurrentMediaTime()) {
            emitTransition(layer, running.transition, progress: running.progress, ctx, slide: slide)
            return
        }
        let copy = layer.renderCopy
        let s = copy.state
        guard !s.isHidden, s.opacity > 0, ctx.opacity > 0 else { return }
        warnIfContentIsNotRendered(layer)
        func local() -> CATransform3D {
            let m = LayerGeometry.localToParent(s, parent: ctx.parentState, isMask: isMask)
            return slide == .zero ? m : CATransform3DConcat(CATransform3DMakeTranslation(slide.width, slide.height, 0), m)
        }
        let world: CATransform3D
        if slide != .zero {
            world = CATransform3DConcat(local(), ctx.parentWorld)
        } else {
            world = LayerGeometry.world(Placement(copy), transform: s.transform, plainParent: ctx.parentIsPlain || isMask,
                                        parentWorld: ctx.parentWorld, parentWorldIsFinite: ctx.parentWorldIsFinite,
                                        general: { CATransform3DConcat(local(), ctx.parentWorld) })
        }
        let h = Homography(world)
        guard h.isFiniteInFloat, s.bounds.fitsInFloat else {
            RenderDiagnostics.warn("a layer's geometry is not finite or beyond 32-bit float range (±3.4e38): the layer and its sublayers are not drawn")
            return
        }
        let isTransformLayer = layer is CATransformLayer
        // Back faces (isDoubleSided == false) are culled with their flattened sublayers. The
        // orientation of the projected plane at its centre is sign(det H · w); a transform
        // layer has no face of its own (its sublayers cull themselves).
        if !isTransformLayer, facesAway(s, h: h, mirrored: ctx.mirrored) { return }

        let lineage = Lineage(mirrored: ctx.mirrored,
                              depth: isTransformLayer ? CATransform3DConcat(local(), ctx.depthBasis) : CATransform3DIdentity)
        // CALayer.opacity: "Values outside that range are clamped to the minimum or maximum."
        let opacity = min(s.opacity, 1) * ctx.opacity
        // Mask, shadow, group opacity and whether the subtree is isolated: decided in one place.
        let plan = compositingPlan(layer, copy, s, isTransformLayer: isTransformLayer)
        let mask = plan.mask, shadow = plan.shadow, implied = plan.impliedShadow
        let groupOpacity = plan.groupOpacity, offscreenShadow = plan.offscreenShadow
        // A layer drawn where it can be re-emitted alone (not in a mask, a transition's pictures
        // or under a transform layer, whose sublayers' order depends on their depth): marks
        // where its instances begin, and a record slot before its descendants' (pre-order).
        let recordsSubtree = recordsSubtrees && ctx.index >= 0 && !isMask && slide == .zero && transitions && transitionDepth == 0 && !isTransformLayer
        // A layer that can only draw its one box or nothing (most layers) needs no marks: if it
        // draws its box it is a plain leaf (below), else its ranges are empty.
        let maybeLeaf = shadow == nil && s.contents == nil && !(copy is CAShapeLayer) && !(copy is CAGradientLayer)
            && (layer._sublayers?.isEmpty ?? true)
        var marks = SubtreeMarks()
        var slot = -1
        if recordsSubtree, !maybeLeaf {
            marks = subtreeMarks()
            if let subs = layer._sublayers, !subs.isEmpty { slot = reserveSubtreeRecord(layer, subs, ctx) }
        }
        // masksToBounds cuts the layer's shadow to its bounds too; a mask masks it.
        let shadowClip = shadow != nil && s.masksToBounds ? boundsClip(s, h: h, outer: ctx.clip) : (ctx.clip, true)

        if !plan.isolated {
            if let shadow, let path = s.shadowPath { emitPathShadow(shadow, path: path, h: h, clip: shadowClip.0, opacity: opacity) }
            if let shadow, let (shape, alpha) = implied {
                emitShadowShape(shadow, shape: shape, h: h, clip: shadowClip.0, opacity: opacity * alpha)
            }
            let counts = (frame.boxes.count, frame.images.count, frame.gradients.count, frame.composites.count, frame.passes.count)
            drawLayer(layer, copy, s, world: world, h: h, clip: ctx.clip, opacity: opacity, depth: ctx.depth, lineage: lineage)
            // A leaf that drew exactly one box and nothing else: a later frame in which only such
            // layers changed re-emits just their boxes (`patch`).
            // (Not inside a transition's pictures: when it ends, the frame's structure changes.)
            // Not a gradient or shape layer either, even one that drew only its box: a patch
            // reads boxes only (`leafBox`), so their other pieces must not be able to appear.
            if shadow == nil, !isMask, ctx.index >= 0, slide == .zero, transitions, !isTransformLayer, !(copy is CAShapeLayer),
               !(copy is CAGradientLayer), layer._sublayers?.isEmpty ?? true,
               frame.boxes.count == counts.0 + 1, frame.images.count == counts.1, frame.gradients.count == counts.2,
               frame.composites.count == counts.3, frame.passes.count == counts.4 {
                if !reemitting { leaves[ObjectIdentifier(layer)] = leafRecords.count }
                leafRecords.append(LeafRecord(layer: layer, boxIndex: counts.0, context: ctx.index,
                                              variant: boxVariant(frame.boxes[counts.0]), zPosition: s.zPosition))
            } else if recordsSubtree {
                finishSubtreeRecord(layer, slot: slot, maybeLeaf ? subtreeMarks() : marks, ctx, zPosition: s.zPosition)
            }
            return
        }

        // Isolated: render into an offscreen target, then composite once.
        let pathShadowInside = mask != nil && s.shadowPath != nil
        var rect = subtreeBounds(layer, s, world: world, depth: ctx.depth, transitions: transitions, ownShadow: pathShadowInside)
            ?? passStack.last!.rect
        if offscreenShadow, let shadow {
            rect = shadowContentRect(rect, shadow, h: h)
        } else {
            rect = rect.intersection(passStack.last!.rect)
        }
        rect = pixelAligned(rect)
        if let shadow, let path = s.shadowPath, !pathShadowInside {
            emitPathShadow(shadow, path: path, h: h, clip: shadowClip.0, opacity: opacity)
        }
        if let shadow, let (shape, alpha) = implied {
            emitShadowShape(shadow, shape: shape, h: h, clip: shadowClip.0, opacity: opacity * alpha)
        }
        guard !rect.isNull, rect.width >= 1, rect.height >= 1 else { return }
        let innerOpacity: Float = groupOpacity ? 1 : opacity
        let content = beginOffscreen(rect)
        if pathShadowInside, let shadow, let path = s.shadowPath {
            emitPathShadow(shadow, path: path, h: h, clip: s.masksToBounds ? boundsClip(s, h: h, outer: 0).0 : 0, opacity: innerOpacity)
        }
        drawLayer(layer, copy, s, world: world, h: h, clip: 0, opacity: innerOpacity, depth: ctx.depth, lineage: lineage)
        endOffscreen()
        // The shadow goes under the content in one more target when a mask or an outer clip
        // that cannot merge with the bounds must cut both together; that target (and the
        // mask's) then covers the offset shadow as well.
        let shadowGroup = offscreenShadow && (mask != nil || !shadowClip.1)
        var outRect = rect
        if shadowGroup, let shadow {
            let o = shadow.pixelOffset(h)
            outRect = pixelAligned(rect.union(rect.offsetBy(dx: o.width, dy: o.height)).intersection(passStack.last!.rect))
        }
        var maskTarget: TargetID? = nil
        if let mask {
            // With no shadow group the mask target covers the same pixels as the content; with
            // one, both cover `outRect`: the composite samples source and mask at one position.
            maskTarget = beginOffscreen(outRect)
            let mctx = Context(parentWorld: LayerGeometry.flattened(world), parentState: s, clip: 0, opacity: 1,
                               depth: ctx.depth + 1, mirrored: ctx.mirrored)
            visit(mask, mctx, isMask: true)
            endOffscreen()
        }
        let outer: Float = groupOpacity ? opacity : 1
        if offscreenShadow, let shadow {
            if shadowGroup {
                let together = beginOffscreen(outRect)
                emitBlurredShadow(shadow, of: content, rect: rect, h: h,
                                  clip: s.masksToBounds ? boundsClip(s, h: h, outer: 0).0 : 0, opacity: 1)
                appendComposite(source: content, mask: nil, rect: rect, opacity: 1, clip: 0)
                endOffscreen()
                appendComposite(source: together, mask: maskTarget, rect: outRect, opacity: outer, clip: ctx.clip)
                return
            }
            emitBlurredShadow(shadow, of: content, rect: rect, h: h, clip: shadowClip.0, opacity: outer)
        }
        appendComposite(source: content, mask: maskTarget, rect: rect, opacity: outer, clip: ctx.clip)
    }

    /// Whether a layer paints more than one overlapping piece, so that group opacity
    /// (allowsGroupOpacity, docs/BEHAVIOUR.md N4) needs the pieces composited before the fade: any
    /// sublayers, or two of background, contents, gradient and border. A background with a
    /// border and nothing else is one box instance whose shader composites the border over
    /// the background before the fade (box.frag), so it stays in the batch.
    func drawsSeveralPieces(_ layer: CALayer, _ copy: CALayer, _ s: LayerState) -> Bool {
        if !(layer._sublayers?.isEmpty ?? true) { return true }
        let hasBorder = s.borderWidth > 0 && (s.borderColor?.alpha ?? 0) > 0
        let drawsMore = s.contents != nil || copy is CAGradientLayer || copy is CAShapeLayer
        // A shape's fill and stroke are one instance (its shader composites them before the fade).
        let pieces = (s.backgroundColor != nil ? 1 : 0) + (s.contents != nil ? 1 : 0) + (copy is CAGradientLayer ? 1 : 0)
            + (hasBorder ? 1 : 0) + (copy is CAShapeLayer ? 1 : 0)
        return pieces >= 2 && drawsMore
    }

    /// A layer's own drawing and its sublayers, into the current pass.
    func drawLayer(_ layer: CALayer, _ copy: CALayer, _ s: LayerState, world: CATransform3D, h: Homography,
                   clip: Int32, opacity: Float, depth: Int, lineage: Lineage) {
        stats.layersDrawn += 1
        let sublayers = layer._sublayers ?? []
        if layer is CATransformLayer {
            // "Only the sublayers of a transform layer are rendered" (CATransformLayer doc):
            // its background, border, contents and masksToBounds are ignored.
            if !sublayers.isEmpty {
                drawSublayers(layer, sublayers, s, world: world, h: h, radii: .zero, clip: clip, opacity: opacity,
                              depth: depth, lineage: lineage)
            }
            return
        }
        let look = BoxLook(copy, opacity: opacity)
        let radii = look.radii
        let fill = look.fill, border = look.border
        let hasBorder = border.w > 0
        let imageContents = s.contents.flatMap { ($0 as? CGImage) }
        let gradient = copy as? CAGradientLayer
        func box(fill: SIMD4<Float>, border: SIMD4<Float>, flags: UInt32) {
            appendBox(layerBox(look, h: h, clip: clip, opacity: opacity, fill: fill, border: border, flags: flags))
        }

        var shape = (copy as? CAShapeLayer).flatMap { shapeSpec($0) }
        if shape?.style != nil { shape!.widthAnimates = layer.hasAnimation(writing: "lineWidth") }
        let onlyBox = imageContents == nil && gradient == nil && shape == nil && sublayers.isEmpty
        if onlyBox {
            if fill.w > 0 || hasBorder { box(fill: fill, border: border, flags: 0) }
            return
        }
        if fill.w > 0 { box(fill: fill, border: .zero, flags: InstanceFlags.fillOnly) }
        if let gradient { emitGradient(gradient, s, h: h, radii: radii, clip: clip, opacity: opacity) }
        if let image = imageContents {
            emitContents(image, s, h: h, radii: radii, clip: clip, opacity: opacity,
                         drawn: copy.backingStore?.image === image)
        }
        if let shape { emitShape(shape, h: h, clip: s.masksToBounds ? boundsClip(s, h: h, outer: clip).0 : clip, opacity: opacity) }
        if !sublayers.isEmpty {
            drawSublayers(layer, sublayers, s, world: world, h: h, radii: radii, clip: clip, opacity: opacity, depth: depth,
                          lineage: lineage)
        }
        if hasBorder { box(fill: .zero, border: border, flags: InstanceFlags.borderOnly) }
    }

    /// Back faces (`isDoubleSided == false`) are culled with their flattened sublayers: the
    /// orientation of the projected plane at its centre is sign(det H · w); an odd number of
    /// `isGeometryFlipped` mirrors is a change of coordinates, not a turn, and does not count.
    func facesAway(_ s: LayerState, h: Homography, mirrored: Bool) -> Bool {
        facesAway(isDoubleSided: s.isDoubleSided, bounds: s.bounds, h: h, mirrored: mirrored)
    }

    func facesAway(isDoubleSided: Bool, bounds: CGRect, h: Homography, mirrored: Bool) -> Bool {
        guard !isDoubleSided else { return false }
        let b = bounds.standardized
        let w = h.project(Double(b.midX), Double(b.midY)).z
        return (h.determinant * w < 0) != mirrored
    }

    /// A layer's box instance: background and border together (`flags` 0), background only
    /// (32) or border only (64).
    func layerBox(_ look: BoxLook, h: Homography, clip: Int32, opacity: Float, fill: SIMD4<Float>,
                  border: SIMD4<Float>, flags: UInt32) -> BoxInstance {
        let bounds = look.bounds
        // A border wider than half the layer already covers it: clamped so a huge finite width
        // does not reach the shader as infinity.
        let borderWidth = Float(min(look.borderWidth, max(bounds.width, bounds.height)))
        // params.z: the opacity a background-and-border box fades as one group (N4), 0 when
        // the pieces fade separately (allowsGroupOpacity false).
        let group: Float = look.allowsGroupOpacity ? opacity : 0
        let p = h.packed(SIMD3(0, Float(clip), Float(look.shapeFlags | flags)))
        return BoxInstance(h0: p.0, h1: p.1, h2: p.2, rect: bounds.simd, radii: look.radii, fill: fill,
                           border: border, params: SIMD4(borderWidth, 0, group, 0))
    }

    func drawSublayers(_ layer: CALayer, _ sublayers: [CALayer], _ s: LayerState, world: CATransform3D, h: Homography,
                       radii: SIMD4<Float>, clip: Int32, opacity: Float, depth: Int, lineage: Lineage) {
        let isTransformLayer = layer is CATransformLayer
        let childWorld = isTransformLayer ? world : LayerGeometry.flattened(world)
        // Not a group here (allowsGroupOpacity false): each sublayer takes the opacity itself
        // (N4). Inside a group `opacity` is already 1 and the composite applies it once.
        let childOpacity = opacity
        var childClip = clip
        var isolate = false
        if s.masksToBounds, !isTransformLayer {
            guard let inv = h.inverted() else { return }
            let shape = ClipShape(inverse: inv, rect: s.bounds.simd, radii: radii, continuous: s.cornerCurve == .continuous)
            if clip == 0 {
                childClip = appendClip(shape)
            } else if let merged = intersectAxisAligned(frame.clips[Int(clip)], shape) {
                childClip = appendClip(merged)
            } else {
                isolate = true
                childClip = appendClip(shape)
            }
        }
        let depthBasis = isTransformLayer ? lineage.depth : CATransform3DIdentity
        let ordered = orderedSublayers(sublayers, transformLayer: isTransformLayer, depthBasis: depthBasis, parent: s)
        let inherited = Context(parentWorld: childWorld, parentState: s, clip: childClip, opacity: childOpacity,
                                depth: depth + 1, mirrored: lineage.mirrored != s.isGeometryFlipped, depthBasis: depthBasis)
        // A transform layer's sublayers draw in the order of their depth, which their own
        // animations change: they are not patched in place (not recorded as leaves).
        let ctx = isTransformLayer ? inherited : recordedContext(inherited)
        let outerMirrored = planeMirrored
        planeMirrored = outerMirrored != s.isGeometryFlipped
        defer { planeMirrored = outerMirrored }
        if isolate {
            // Two clips that cannot merge analytically: the inner clip is applied inside an
            // offscreen target, the outer one when that target is composited.
            let rect = pixelAligned((h.boundingBox(of: s.bounds) ?? passStack.last!.rect).intersection(passStack.last!.rect))
            guard !rect.isNull, rect.width >= 1, rect.height >= 1 else { return }
            let target = beginOffscreen(rect)
            for child in ordered { visit(child, ctx, isMask: false) }
            endOffscreen()
            appendComposite(source: target, mask: nil, rect: rect, opacity: 1, clip: clip)
        } else {
            for child in ordered { visit(child, ctx, isMask: false) }
        }
    }

    /// Siblings draw in `zPosition` order, ties in array order; under a `CATransformLayer` they
    /// sort by the depth of their centre, far to near (no depth buffer: painter's order),
    /// measured in the space of the plane they are projected onto (`depthBasis`: the world
    /// matrix has no z left after the flattening ancestor).
    func orderedSublayers(_ sublayers: [CALayer], transformLayer: Bool, depthBasis: CATransform3D, parent: LayerState) -> [CALayer] {
        if transformLayer {
            let keyed = sublayers.enumerated().map { (i, l) -> (Double, Int, CALayer) in
                let s = l.renderCopy.state
                let m = CATransform3DConcat(LayerGeometry.localToParent(s, parent: parent, isMask: false), depthBasis)
                let b = s.bounds.standardized
                let x = b.midX, y = b.midY
                let z = x * m.m13 + y * m.m23 + m.m43
                let w = x * m.m14 + y * m.m24 + m.m44
                return (Double(w != 0 ? z / w : z), i, l)
            }
            return keyed.sorted { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }.map(\.2)
        }
        var needsSort = false
        for l in sublayers where l.renderCopy.state.zPosition != 0 { needsSort = true; break }
        guard needsSort else { return sublayers }
        var keyed: [(z: Double, index: Int, layer: CALayer)] = []
        keyed.reserveCapacity(sublayers.count)
        for (i, l) in sublayers.enumerated() { keyed.append((Double(l.renderCopy.state.zPosition), i, l)) }
        keyed.sort { a, b in a.z != b.z ? a.z < b.z : a.index < b.index }
        return keyed.map { $0.layer }
    }

    /// `ctx` kept in `leafContexts`, so leaves that inherit it can be patched later.
    func recordedContext(_ ctx: Context) -> Context {
        var c = ctx
        c.index = leafContexts.count
        leafContexts.append(c)
        return c
    }

    // MARK: Bounds of isolated subtrees

    /// Pixel bounding box of what `layer` and its sublayers can paint, shadows included; nil
    /// when part of it is behind the eye, or a transition moves part of it by an amount this
    /// does not follow (then the caller uses the whole target). `transitions` false bounds the
    /// layer's current state even while a transition runs on it; `ownShadow` false leaves out
    /// the layer's own shadow (its sublayers' stay in).
    func subtreeBounds(_ layer: CALayer, _ s: LayerState, world: CATransform3D, depth: Int,
                       transitions: Bool = true, ownShadow: Bool = true) -> CGRect? {
        if transitions, layer.runningTransition(atMedia: CACurrentMediaTime()) != nil { return nil }
        let h = Homography(world)
        guard var box = h.boundingBox(of: s.bounds.standardized) else { return nil }
        if !s.masksToBounds, let shape = shapeBounds(layer.renderCopy, h: h) { box = box.union(shape) }
        if s.masksToBounds || depth >= Self.maxDepth || (stackGuard?.isLow() ?? false) { return box.insetBy(dx: -1, dy: -1) }
        let childWorld = layer is CATransformLayer ? world : LayerGeometry.flattened(world)
        for child in layer._sublayers ?? [] {
            let cs = child.renderCopy.state
            guard !cs.isHidden else { continue }
            let cw = CATransform3DConcat(LayerGeometry.localToParent(cs, parent: s, isMask: false), childWorld)
            guard Homography(cw).isFiniteInFloat, cs.bounds.fitsInFloat else { continue }
            guard let b = subtreeBounds(child, cs, world: cw, depth: depth + 1) else { return nil }
            box = box.union(b)
        }
        if ownShadow, let shadow = ShadowSpec(s) { box = box.union(shadow.castBounds(of: box, h: h)) }
        return box.insetBy(dx: -1, dy: -1)
    }

    func pixelAligned(_ r: CGRect) -> CGRect {
        guard !r.isNull, !r.isInfinite else { return r }
        let x0 = r.minX.rounded(.down), y0 = r.minY.rounded(.down)
        let x1 = r.maxX.rounded(.up), y1 = r.maxY.rounded(.up)
        return CGRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    // MARK: Clips

    func appendClip(_ c: ClipShape) -> Int32 {
        frame.clips.append(c)
        return Int32(frame.clips.count - 1)
    }

    /// Two square-cornered clips whose planes are axis-aligned in pixels intersect into one.
    func intersectAxisAligned(_ a: ClipShape, _ b: ClipShape) -> ClipShape? {
        guard a.radii == .zero, b.radii == .zero, a.inverse.isAxisAligned, b.inverse.isAxisAligned,
              let ra = pixelRect(a), let rb = pixelRect(b) else { return nil }
        let r = ra.intersection(rb)
        let rr = r.isNull ? CGRect.zero : r
        return ClipShape(inverse: .identity, rect: rr.simd, radii: .zero, continuous: false)
    }

    func pixelRect(_ c: ClipShape) -> CGRect? {
        guard let fwd = c.inverse.inverted() else { return nil }
        let r = CGRect(x: CGFloat(c.rect.x), y: CGFloat(c.rect.y), width: CGFloat(c.rect.z), height: CGFloat(c.rect.w))
        return fwd.boundingBox(of: r)
    }

    // MARK: Passes and batches

    func beginOffscreen(_ rect: CGRect) -> TargetID {
        frame.targets.append(OffscreenTarget(x: Int(rect.minX), y: Int(rect.minY), width: Int(rect.width), height: Int(rect.height)))
        let id = TargetID.offscreen(frame.targets.count - 1)
        passStack.append(PendingPass(target: id, rect: rect))
        return id
    }

    func endOffscreen() {
        let p = passStack.removeLast()
        frame.passes.append(RenderPass(target: p.target, kind: .draw(p.batches)))
    }

    /// Extends the current pass's last batch when the instance continues it (same pipeline,
    /// same shader variant, next index), else starts a batch.
    func appendBatch(_ pipeline: Batch.Pipeline, variant: ShaderVariant = [], index: Int) {
        if reemitting {
            scratchLog.append(Emission(pipeline: pipeline, variant: variant))
            return
        }
        emissionLog.append(Emission(pipeline: pipeline, variant: variant))
        let p = passStack.count - 1
        if let last = passStack[p].batches.last, last.pipeline == pipeline, last.variant == variant,
           last.range.upperBound == index {
            passStack[p].batches[passStack[p].batches.count - 1].range = last.range.lowerBound..<(index + 1)
        } else {
            passStack[p].batches.append(Batch(pipeline: pipeline, variant: variant, range: index..<(index + 1)))
        }
    }

    func appendBox(_ b: BoxInstance) {
        frame.boxes.append(b)
        appendBatch(.box, variant: boxVariant(b), index: frame.boxes.count - 1)
    }

    func boxVariant(_ b: BoxInstance) -> ShaderVariant {
        var v = ShaderVariant.of(clip: b.h1.w, flags: b.h2.w, h0: b.h0, h1: b.h1, h2: b.h2)
        if b.params.y > 0 { v.insert(.blur) }
        if b.params.x > 0, b.border.w > 0 { v.insert(.border) }
        return v
    }

    func appendImage(_ i: ImageInstance, texture: Int, filter: TextureFilter) {
        frame.images.append(i)
        appendBatch(.image(texture: texture, filter: filter), variant: ShaderVariant.of(clip: i.h1.w, flags: i.h2.w, h0: i.h0, h1: i.h1, h2: i.h2),
                    index: frame.images.count - 1)
    }

    func appendGradient(_ g: GradientInstance) {
        frame.gradients.append(g)
        var v = ShaderVariant.of(clip: g.h1.w, flags: g.h2.w, h0: g.h0, h1: g.h1, h2: g.h2)
        if g.params.x == 1 { v.insert(.radial) } else if g.params.x == 2 { v.insert(.conic) }
        appendBatch(.gradient, variant: v, index: frame.gradients.count - 1)
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

    /// The texture slot of an atlas page in this frame. The page's image is filled in when the
    /// frame is finished (`finishImageAtlas`), after every image of the frame has been placed,
    /// so a page that grew during the frame is uploaded once, not once per version.
    func atlasSlot(page: Int) -> Int {
        if let i = atlasSlots[page] { return i }
        frame.textures.append(imageAtlas.pageImage(page))
        atlasSlots[page] = frame.textures.count - 1
        return frame.textures.count - 1
    }

    func finishImageAtlas() {
        for (page, slot) in atlasSlots { frame.textures[slot] = imageAtlas.pageImage(page) }
    }

    func textureSlot(_ image: CGImage) -> Int {
        let id = ObjectIdentifier(image)
        if let i = textureIndex[id] { return i }
        frame.textures.append(image)
        textureIndex[id] = frame.textures.count - 1
        return frame.textures.count - 1
    }
}
