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
/// The builder is the walk and its decisions (visibility, culling, the compositing plan that
/// isolates subtrees, which layers are recorded for patches); how each kind of content becomes
/// instances lives in its own room (`Emitters/`: `BoxEmitter`, `ShadowEmitter` and one
/// `ContentEmitter` per kind), the frame being written in the `FrameWriter`, and what patches
/// read in the `PatchRecords`. What a layer inherits is the `Context` value passed down the walk.
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
    /// Instance counts that grew by exactly one box (a plain leaf's drawing).
    static let oneBox: SIMD8<Int> = { var v = SIMD8<Int>(); v[boxLane] = 1; return v }()

    /// Layers nested deeper than this are not drawn (a warning names the limit): the walk is
    /// recursive, and a hostile 100k-deep tree must not overflow the stack.
    package static let maxDepth = 256

    /// The frame being built: every emitter appends through it.
    let out = FrameWriter()
    /// What the last whole build recorded so that later frames can patch it
    /// (`RenderTreeBuilder+Patch.swift`, `+Subtrees.swift`).
    let recorded = PatchRecords()
    /// The rooms, one per kind of content (`Emitters/`).
    let gradients = GradientEmitter()
    let contents = ContentsEmitter()
    /// CATextLayer text as glyph quads (issue 20, `Emitters/GlyphEmitter.swift`).
    let glyphs = GlyphEmitter()
    let shapes: ShapeEmitter
    /// The work one frame may spend rasterising new shapes (`ShapeCache.defaultFrameWorkBudget`);
    /// tests lower it.
    package var shapeWorkBudget: Int {
        get { shapes.cache.frameWorkBudget }
        set { shapes.cache.frameWorkBudget = max(newValue, 0) }
    }
    /// The work the last frame spent rasterising new shapes (`ShapeRaster.work`).
    package var shapeWorkThisFrame: Int { shapes.cache.workThisFrame }
    let shadows: ShadowEmitter
    let particles: ParticleEmitter
    /// Tiled, video and GL content layers (issue 19, `Emitters/ContentLayerEmitters.swift`).
    let contentLayers = ContentLayerEmitters()
    /// Core Image filters' passes (`Emitters/FilterEmitter.swift`).
    let filterPasses = FilterEmitter()
    /// The kinds of content a layer paints besides its background and border, in the order
    /// they are composited (`ContentEmitter`): a new kind of content is one more entry here.
    let contentEmitters: [any ContentEmitter]
    /// Which of them claim a layer, kept per class where that decides it.
    let contentClaims: ContentClaims
    /// Replication's state during a frame (`RenderTreeBuilder+Replicas.swift`).
    @exclusivity(unchecked) var replicas = ReplicaFrameState()
    /// The depth bases of this walk's transform layers (`Context.depthBasisIndex`), emptied
    /// when a build or a patch begins.
    var depthBases: [CATransform3D] = []
    var warnedDepth = false
    /// The rasterised targets of the frame being built (`RenderTreeBuilder+Rasterization.swift`).
    var rasterWindows: [RasterWindow] = []
    var rasterKeys = Set<UInt64>()
    /// Where each rasterised occurrence was last drawn (`+RasterPlacement.swift`), by its key.
    var rasterAnchors: [UInt64: RasterAnchor] = [:]
    var rasterGeneration = 0
    let rasterMissSalt = RasterMissSalt()
    var warnedStack = false
    /// The stack of the thread that builds (re-read when another thread builds).
    @exclusivity(unchecked) var stackGuard: StackGuard?
    var lastStats = RenderStats()
    /// Whether builds record subtrees that a patch can re-emit (`+Subtrees.swift`;
    /// `CARenderer.Options.patchesSubtrees`: off, only plain leaves are patched).
    @exclusivity(unchecked) package var recordsSubtrees = true
    /// Whether the backend tests opaque `CATransformLayer` planes against a depth buffer of
    /// their 3D depth (`+DepthPlanes.swift`; the GL backend does). Without it, intersecting
    /// planes are split (`+PlaneSplitting.swift`).
    package var usesPlaneDepth = false
    /// Whether the backend draws a replicator's copies of one box instanced from copy 0
    /// (`ReplicaDraw`, `+GPUReplicas.swift`; the GL backend does,
    /// `CARenderer.Options.usesGPUReplicas`).
    package var usesGPUReplicas = false
    /// Whether emitter layers' constant-rate emission runs are written as one record each for the
    /// backend to evaluate (`ParticleEmitter+Runs.swift`, issue 21; `CARenderer.Options.usesGPUParticles`).
    /// Only a backend with a particle pipeline (GL) may be handed such frames.
    package var usesParticleRuns: Bool {
        get { particles.usesRuns }
        set { particles.usesRuns = newValue }
    }
    /// Whether a stroke whose `lineWidth` animates within known bounds is drawn from one raster
    /// for the widest width (`ShapeEmitter.widthRastersSpanAnimations`;
    /// `CARenderer.Options.drawsAnimatedWidthsFromOneRaster`).
    package var widthRastersSpanAnimations: Bool {
        get { shapes.widthRastersSpanAnimations }
        set { shapes.widthRastersSpanAnimations = newValue }
    }
    /// Whether plain shape rasters are made as runs (`ShapeCoverageSpans`; the CPU backend,
    /// `CARenderer.Options.drawsShapesFromRuns`).
    package var makesShapeRuns: Bool {
        get { shapes.makesRuns }
        set { shapes.makesRuns = newValue; shapes.trimsStrokeGeometry = newValue }
    }
    /// Whether trimmed strokes are rasterised trimmed (`ShapeEmitter.trimsStrokeGeometry`; on
    /// with `makesShapeRuns`, the CPU backend's choice); tests compare with the field's cut.
    package var trimsStrokeGeometry: Bool {
        get { shapes.trimsStrokeGeometry }
        set { shapes.trimsStrokeGeometry = newValue }
    }
    /// Whether a trimmed stroke is drawn over only the part of its raster the trim can leave
    /// (`ShapeEmitter.trimmedRegion`); tests compare with the whole raster drawn.
    package var cutsTrimmedStrokes: Bool {
        get { shapes.cutsTrimmedStrokes }
        set { shapes.cutsTrimmedStrokes = newValue }
    }
    /// Threads that make a frame's plain shape rasters beside the walk, where they are made as
    /// runs (`ShapeCache+Deferred.swift`; `CARenderer.Options.shapeRasterThreads`); 1 makes
    /// each raster where the walk asks for it.
    package var shapeRasterThreads: Int {
        get { shapes.rasterThreads }
        set { shapes.rasterThreads = max(1, newValue) }
    }
    /// Small images packed into shared pages, kept across frames (`ImageAtlas.swift`).
    package var imageAtlas: ImageAtlas { contents.atlas }
    /// Whether small images go into the atlas (`CARenderer.Options.usesImageAtlas`; tests
    /// compare against their own textures).
    package var usesImageAtlas: Bool {
        get { contents.usesAtlas }
        set { contents.usesAtlas = newValue }
    }

    /// Whether `CATextLayer` text is drawn as glyph quads from the glyph atlas
    /// (`CARenderer.Options.usesGlyphAtlas`, `Emitters/GlyphEmitter.swift`).
    package var usesGlyphAtlas: Bool {
        get { glyphs.enabled }
        set { glyphs.enabled = newValue; contentClaims.forgetClasses() }
    }
    /// The text glyph atlas (tests read its counts).
    package var glyphAtlas: GlyphAtlas { glyphs.atlas }
    /// Glyphs of text too large for the atlas drawn as outlines through the shape pipeline.
    package var glyphOutlinesDrawn: Int { glyphs.outlinesDrawn }
    /// Pixels per em on screen above which text is drawn as outlines (`GlyphEmitter.maxPixelSize`).
    package static var glyphOutlinePixelSize: Double { GlyphEmitter.maxPixelSize }

    /// Reads the calling thread's stack bounds when the builder runs on another thread than
    /// last time (builds and patches both walk; a renderer may move between threads).
    func refreshStackGuard() {
        if !(stackGuard?.isFor(pthread_self()) ?? false) { stackGuard = StackGuard.forCurrentThread() }
    }

    /// What a layer inherits from the walk above it.
    struct Context {
        var parentWorld: CATransform3D
        /// The parent's part of M7 where it is not the identity (geometry-flipped, or a
        /// `sublayerTransform`), as an index into `recorded.parentGeometries`; −1 for the root, a
        /// mask, and the common plain parent (`RenderTreeBuilder.parentState(of:)`). An index,
        /// not the 193-byte value: every layer copies its context several times.
        var parentGeometry: Int32
        /// `parentGeometry` is −1: the parent adds nothing to M7.
        var parentIsPlain: Bool { parentGeometry < 0 }
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
        /// identity except for a CATransformLayer's sublayers, where it keeps the depth that
        /// orders them (the world matrix has lost z at the flattening). An index into the
        /// builder's `depthBases` (−1: identity): the context every layer copies does not
        /// carry 128 bytes almost none of them use. (Such contexts are never recorded for
        /// patches, so the list lives for one walk: `depthBasis(of:)`.)
        var depthBasisIndex: Int32 = -1
        /// Odd number of `isGeometryFlipped` ancestors turned this layer's plane upside down:
        /// contents are mirrored back to stay upright (`ContentsLayout`).
        var planeMirrored = false
        /// Inside a running transition's pictures: nothing there is recorded as a subtree (when
        /// the transition ends, the frame's structure changes).
        var inTransition = false
        /// Index in `recorded.leafContexts`, -1 where leaves are not recorded (masks).
        var index = -1
        /// Below a `CAReplicatorLayer`: nothing is recorded for patches (a patch would redraw
        /// one copy); a change there rebuilds the frame.
        var inReplica = false
        /// Inside an isolated target sized by what its subtree paints (no `masksToBounds`): no
        /// subtree is recorded for patches, since a re-emitted subtree whose paint grew or moved
        /// would be cut by the target the last build sized.
        var inContentSizedTarget = false
        /// Inside such targets, where plain leaves may still be patched: a leaf whose box,
        /// where it can show, stays inside the targets' content (`ContentLimit.admits`) is
        /// patched in place; one that leaves it makes its parent's subtree or the whole frame
        /// be built again, which sizes the targets anew. nil inside a content-sized target
        /// means no leaf there is recorded (a rasterised layer's target).
        var contentLimit: ContentLimit? = nil

        init(parentWorld: CATransform3D, parentGeometry: Int32, clip: Int32, opacity: Float, depth: Int,
             mirrored: Bool = false, depthBasisIndex: Int32 = -1,
             planeMirrored: Bool = false, inTransition: Bool = false) {
            self.parentWorld = parentWorld
            // A parent that neither flips nor has a sublayerTransform adds nothing to M7
            // (`SublayerGeometry` is nil for it, the index −1): the fast path applies.
            self.parentGeometry = parentGeometry
            parentWorldIsFinite = LayerGeometry.isFinite(parentWorld)
            self.clip = clip
            self.opacity = opacity
            self.depth = depth
            self.mirrored = mirrored
            self.depthBasisIndex = depthBasisIndex
            self.planeMirrored = planeMirrored
            self.inTransition = inTransition
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

    package init() {
        shapes = ShapeEmitter()
        shadows = ShadowEmitter(shapes: shapes)
        particles = ParticleEmitter(contents: contents)
        contents.glyphs = glyphs
        glyphs.shapes = shapes
        contentEmitters = [gradients, contents, glyphs, shapes] + contentLayers.all + [particles]  // particles last: `drawLayer` draws them after the border
        contentClaims = ContentClaims(contentEmitters)
    }

    /// Forgets every shape raster: the next frames make and upload them again. For a renderer
    /// whose backend changed (the GL context lost, the CPU backend drawing on): the new
    /// backend's atlas holds none of the rasters uploaded to the old one.
    package func forgetShapeRasters() {
        shapes.cache.reset()
    }

    /// Takes the shape uploads out of `frame` (the one this builder last returned, which a
    /// backend has now executed) and out of the builder's own copy of it, and keeps their
    /// coverage arrays for new rasters (`RasterBytePool`). A backend applies each upload once
    /// (by serial), so a patched frame executed again needs none of them.
    package func recycleUploads(of frame: inout RenderFrame) {
        let uploads = frame.shapeUploads
        guard !uploads.isEmpty else { return }
        frame.shapeUploads = []
        out.frame.shapeUploads = []
        for u in uploads where !u.coverage.isEmpty { shapes.cache.bytePool.give(u.coverage) }
    }

    /// Whether the last frame built drew a `CAEmitterLayer`'s particles: its picture changes
    /// with time alone, so the next frame must be built anew (never reused or patched).
    package var dependsOnTime: Bool { particles.drewEmitter || contentLayers.dependsOnTime }

    /// `origin` is the layer-space point at the target's top-left (CARenderer's bounds origin).
    package func build(root: CALayer, width: Int, height: Int, scale: Double, origin: SIMD2<Double> = .zero,
                      clearColor: SIMD4<Float> = .zero) -> (RenderFrame, RenderStats) {
        out.begin(width: width, height: height, clearColor: clearColor)
        depthBases.removeAll(keepingCapacity: true)
        warnedDepth = false
        warnedStack = false
        rasterWindows.removeAll(keepingCapacity: true)
        rasterKeys.removeAll(keepingCapacity: true)
        rasterGeneration &+= 1
        replicas = ReplicaFrameState()
        refreshStackGuard()
        recorded.reset(root: root)
        for e in contentEmitters { e.beginFrame(out) }
        let base = CATransform3DConcat(CATransform3DMakeTranslation(CGFloat(-origin.x), CGFloat(-origin.y), 0),
                                       CATransform3DMakeScale(CGFloat(scale), CGFloat(scale), 1))
        visit(root, recordedContext(Context(parentWorld: base, parentGeometry: -1, clip: 0, opacity: 1, depth: 0)), isMask: false)
        out.endMainPass()
        dropUnusedRasterAnchors()
        for e in contentEmitters { e.finishFrame(out) }
        out.countFrame()
        lastStats = out.stats
        return (out.frame, out.stats)
    }

    // MARK: The walk

    /// `slide` moves the layer within its own plane (a transition's sliding pictures);
    /// `transitions` false draws the layer's current state even while a transition runs on it.
    func visit(_ layer: CALayer, _ ctx: Context, isMask: Bool, slide: CGSize = .zero, transitions: Bool = true) {
        out.stats.layersVisited += 1
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
        if transitions, !isMask, let running = layer.runningTransition(atMedia: { CACurrentMediaTime() }) {
            emitTransition(layer, running.transition, progress: running.progress, ctx, slide: slide)
            return
        }
        // Inside a replicator's delayed copy, the layer as it was that much earlier.
        let copy = replicas.timeShift == 0 ? layer.renderCopy : layer.renderCopy(atMedia: CACurrentMediaTime() - replicas.timeShift)
        let s = copy.stateUnchecked
        guard !s.isHidden, s.opacity > 0, ctx.opacity > 0 else { return }
        warnIfContentIsNotRendered(layer)
        func local() -> CATransform3D {
            let m = ctx.parentIsPlain ? LayerGeometry.localToParent(s, parent: SublayerGeometry?.none, isMask: isMask)
                : LayerGeometry.localToParent(s, parent: parentState(of: ctx), isMask: isMask)
            return slide == .zero ? m : CATransform3DConcat(CATransform3DMakeTranslation(slide.width, slide.height, 0), m)
        }
        let world: CATransform3D
        if slide != .zero {
            world = CATransform3DConcat(local(), ctx.parentWorld)
        } else {
            world = LayerGeometry.world(Placement(s), transform: s.transform, plainParent: ctx.parentIsPlain || isMask,
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
                              depth: isTransformLayer ? CATransform3DConcat(local(), depthBasis(of: ctx)) : CATransform3DIdentity)
        // CALayer.opacity: "Values outside that range are clamped to the minimum or maximum."
        let opacity = min(s.opacity, 1) * ctx.opacity
        // The kinds of content that claim the layer (bit i: `contentEmitters[i]`); a layer none
        // claims can only draw its box (most layers), and drawLayer asks only the claimants.
        let claims = contentClaims.mask(copy)
        let claimed = claims != 0
        // Mask, shadow, group opacity and whether the subtree is isolated: decided in one place.
        let plan = compositingPlan(layer, copy, s, isTransformLayer: isTransformLayer, claims: claims)
        let shadow = plan.shadow, implied = plan.impliedShadow
        // A layer drawn where it can be re-emitted alone (not in a mask, a transition's pictures
        // or under a transform layer, whose sublayers' order depends on their depth): marks
        // where its instances begin, and a record slot before its descendants' (pre-order).
        let recordsSubtree = recordsSubtrees && ctx.index >= 0 && !isMask && slide == .zero && transitions && !ctx.inTransition && !isTransformLayer
            && !ctx.inContentSizedTarget
        // A layer that can only draw its one box or nothing needs no marks: if it draws its box
        // it is a plain leaf (below), else its ranges are empty.
        let sublayers = layer.sublayersUnchecked
        let maybeLeaf = shadow == nil && !claimed && (sublayers?.isEmpty ?? true)
        var marks = SubtreeMarks()
        var slot = -1
        if recordsSubtree, !maybeLeaf {
            marks = subtreeMarks()
            if let subs = sublayers, !subs.isEmpty { slot = reserveSubtreeRecord(layer, subs, ctx) }
        }
        // masksToBounds cuts the layer's shadow to its bounds too; a mask masks it.
        let shadowClip = shadow != nil && s.masksToBounds ? out.boundsClip(s, h: h, outer: ctx.clip) : (ctx.clip, true)

        if !plan.isolated {
            if let shadow, let path = s.shadowPath { shadows.emitPath(shadow, path: path, h: h, clip: shadowClip.0, opacity: opacity, into: out) }
            if let shadow, let (shape, alpha) = implied {
                shadows.emitShape(shadow, shape: shape, h: h, clip: shadowClip.0, opacity: opacity * alpha, into: out)
            }
            let instancesBefore = out.instanceCounts, passesBefore = out.frame.passes.count
            drawLayer(layer, copy, s, world: world, h: h, clip: ctx.clip, opacity: opacity, ctx: ctx, lineage: lineage, claims: claims)
            // A leaf that drew exactly one box and nothing else: a later frame in which only such
            // layers changed re-emits just their boxes (`patch`).
            // (Not inside a transition's pictures: when it ends, the frame's structure changes.)
            // Not a layer some kind of content claims either, even one that drew only its box: a
            // patch reads boxes only (`leafBox`), so its other pieces must not be able to appear.
            if shadow == nil, !isMask, ctx.index >= 0, slide == .zero, transitions, !isTransformLayer, !claimed,
               sublayers?.isEmpty ?? true,
               out.instanceCounts &- instancesBefore == Self.oneBox, out.frame.passes.count == passesBefore {
                let box = instancesBefore[Self.boxLane]
                recorded.recordLeaf(layer, boxIndex: box, context: ctx.index,
                                    variant: BoxEmitter.variant(out.frame.boxes[box]), zPosition: s.zPosition,
                                    enter: !out.reemitting)
            } else if recordsSubtree {
                finishSubtreeRecord(layer, slot: slot, maybeLeaf ? subtreeMarks() : marks, ctx, zPosition: s.zPosition)
            }
            return
        }

        drawIsolated(layer, copy, s, world: world, h: h, ctx, plan, lineage: lineage, opacity: opacity,
                     shadowClip: shadowClip, transitions: transitions, claims: claims)
    }

    /// An isolated layer (`CompositingPlan.isolated`): its subtree drawn into an offscreen target
    /// covering its pixel bounds, then composited once — faded as a group, cut by its mask, over
    /// its shadow blurred from those pixels, clipped by the outer clip.
    func drawIsolated(_ layer: CALayer, _ copy: CALayer, _ s: LayerState, world: CATransform3D, h: Homography, _ ctx: Context,
                      _ plan: CompositingPlan, lineage: Lineage, opacity: Float, shadowClip: (Int32, Bool), transitions: Bool,
                      claims: UInt32) {
        if Self.rasterCompositesPlainly(plan) {
            drawRasterizedPlainly(layer, copy, s, world: world, h: h, ctx, plan, lineage: lineage, opacity: opacity,
                                  shadowClip: shadowClip, transitions: transitions, claims: claims)
            return
        }
        let mask = plan.mask, shadow = plan.shadow, implied = plan.impliedShadow
        // A rasterised layer is one bitmap composited with its opacity (so a fade reuses it).
        let groupOpacity = plan.groupOpacity || plan.rasterize, offscreenShadow = plan.offscreenShadow
        let pathShadowInside = mask != nil && s.shadowPath != nil
        var rect = subtreeBounds(layer, s, world: world, depth: ctx.depth, transitions: transitions, ownShadow: pathShadowInside)
            ?? out.passRect
        // What the subtree paints, before a shadow's or filter's reach is added: a patched leaf
        // must stay inside it (`Context.contentLimit`).
        let contentRect = rect
        if offscreenShadow, let shadow {
            rect = shadows.contentRect(rect, shadow, h: h, in: out)
        } else {
            rect = filterRect(rect, plan, h: h)
        }
        rect = FrameWriter.pixelAligned(rect)
        let cut = tightIsolatedCut(layer, s, world: world, depth: ctx.depth, plan)
        rect = tightIsolatedRect(rect, cut: cut)
        if let shadow, let path = s.shadowPath, !pathShadowInside {
            shadows.emitPath(shadow, path: path, h: h, clip: shadowClip.0, opacity: opacity, into: out)
        }
        if let shadow, let (shape, alpha) = implied {
            shadows.emitShape(shadow, shape: shape, h: h, clip: shadowClip.0, opacity: opacity * alpha, into: out)
        }
        guard !rect.isNull, rect.width >= 1, rect.height >= 1 else { return }
        let innerOpacity: Float = groupOpacity ? 1 : opacity
        let raster = plan.rasterize ? beginRasterTarget(layer, s, rect: rect, h: h) : nil
        if let raster { rect = raster.rect }
        var content = raster?.id ?? out.beginOffscreen(rect)
        if pathShadowInside, let shadow, let path = s.shadowPath {
            shadows.emitPath(shadow, path: path, h: h, clip: s.masksToBounds ? out.boundsClip(s, h: h, outer: 0).0 : 0, opacity: innerOpacity, into: out)
        }
        // Without masksToBounds the target is sized by where the sublayers paint, which a
        // patch of one of them can change (a sublayer moved past the last build's target was
        // cut there): below, only plain leaves are patched, and only while their box stays
        // inside what the target holds (`ContentLimit`); any other change rebuilds and sizes
        // the target again.
        var contentCtx = ctx
        if !s.masksToBounds {
            contentCtx.inContentSizedTarget = true
            contentCtx.contentLimit = plan.rasterize || (ctx.inContentSizedTarget && ctx.contentLimit == nil) ? nil
                : ContentLimit(content: contentRect.isNull ? .null : FrameWriter.pixelAligned(contentRect).intersection(rect), cut: cut)
                    .within(ctx.contentLimit)
        }
        drawLayer(layer, copy, s, world: world, h: h, clip: 0, opacity: innerOpacity, ctx: contentCtx, lineage: lineage, claims: claims)
        out.endOffscreen()
        if let raster { finishRasterTarget(content, start: raster.start, passes: raster.passes) }
        if !plan.filters.isEmpty {
            let images = drawFilterImages(plan, rect: rect, world: world, s, ctx)
            content = filterPasses.apply(plan.filters, to: content, rect: rect, bounds: s.bounds, h: h, into: out, images: images)
        }
        // The shadow goes under the content in one more target when a mask or an outer clip
        // that cannot merge with the bounds must cut both together; that target (and the
        // mask's) then covers the offset shadow as well.
        let shadowGroup = offscreenShadow && (mask != nil || !shadowClip.1)
        var outRect = rect
        if shadowGroup, let shadow {
            let o = shadow.pixelOffset(h)
            outRect = FrameWriter.pixelAligned(rect.union(rect.offsetBy(dx: o.width, dy: o.height)).intersection(out.passRect))
        }
        var maskTarget: TargetID? = nil
        if let mask {
            // With no shadow group the mask target covers the same pixels as the content; with
            // one, both cover `outRect`: the composite samples source and mask at one position.
            maskTarget = out.beginOffscreen(outRect)
            var mctx = Context(parentWorld: LayerGeometry.flattened(world), parentGeometry: keepParentGeometry(s), clip: 0, opacity: 1,
                               depth: ctx.depth + 1, mirrored: ctx.mirrored, planeMirrored: ctx.planeMirrored,
                               inTransition: ctx.inTransition)
            mctx.inReplica = ctx.inReplica
            visit(mask, mctx, isMask: true)
            out.endOffscreen()
        }
        let outer: Float = groupOpacity ? opacity : 1
        if offscreenShadow, let shadow {
            if shadowGroup {
                let together = out.beginOffscreen(outRect)
                shadows.emitBlurred(shadow, of: content, rect: rect, h: h,
                                    clip: s.masksToBounds ? out.boundsClip(s, h: h, outer: 0).0 : 0, opacity: 1, into: out)
                out.appendComposite(source: content, mask: nil, rect: rect, opacity: 1, clip: 0)
                out.endOffscreen()
                compositeIsolated(together, mask: maskTarget, rect: outRect, opacity: outer, clip: ctx.clip, plan, s, h: h)
                return
            }
            shadows.emitBlurred(shadow, of: content, rect: rect, h: h, clip: shadowClip.0, opacity: outer, into: out)
        }
        compositeIsolated(content, mask: maskTarget, rect: rect, opacity: outer, clip: ctx.clip, plan, s, h: h)
    }

    /// A layer's own drawing and its sublayers, into the current pass, in Core Animation's
    /// order: background, each kind of content (`contentEmitters`), sublayers, border, then an
    /// emitter layer's particles.
    func drawLayer(_ layer: CALayer, _ copy: CALayer, _ s: LayerState, world: CATransform3D, h: Homography,
                   clip: Int32, opacity: Float, ctx: borrowing Context, lineage: Lineage, claims: UInt32) {
        out.stats.layersDrawn += 1
        let sublayers = layer.sublayersUnchecked ?? []
        if layer is CATransformLayer {
            // "Only the sublayers of a transform layer are rendered" (CATransformLayer doc):
            // its background, border, contents and masksToBounds are ignored.
            if !sublayers.isEmpty {
                drawSublayers(layer, sublayers, s, world: world, h: h, radii: .zero, clip: clip, opacity: opacity,
                              ctx: ctx, lineage: lineage)
            }
            return
        }
        let look = BoxLook(s, opacity: opacity)
        let site = DrawSite(h: h, radii: look.radii, clip: clip, opacity: opacity, planeMirrored: ctx.planeMirrored,
                            zRow: SIMD3(Double(world.m31), Double(world.m32), Double(world.m34)))
        // Which of the kinds that claim the layer paint now, asked once (bit i: `contentEmitters[i]`).
        var painting: UInt32 = 0
        if claims != 0 {
            for i in 0..<contentEmitters.count where claims & (1 << UInt32(i)) != 0 && contentEmitters[i].paints(copy) {
                painting |= 1 << UInt32(i)
            }
        }
        if painting == 0, sublayers.isEmpty {
            // Background and border as one instance (most layers).
            BoxEmitter.emitWhole(look, at: site, into: out)
            return
        }
        BoxEmitter.emitBackground(look, at: site, into: out)
        // Particles come last (the last kind in `contentEmitters`).
        let particleBit = UInt32(1) << UInt32(contentEmitters.count - 1)
        for (i, e) in contentEmitters.enumerated() where painting & (1 << UInt32(i)) & ~particleBit != 0 {
            e.emit(layer, copy, at: site, into: out)
        }
        if !sublayers.isEmpty {
            drawSublayers(layer, sublayers, s, world: world, h: h, radii: look.radii, clip: clip, opacity: opacity, ctx: ctx,
                          lineage: lineage, replica: replicaSpec(layer, copy, s))
        }
        BoxEmitter.emitBorder(look, at: site, into: out)
        // A `CAEmitterLayer`'s particles "are drawn above the layer's background color and
        // border" (CAEmitterLayer doc); the border is above the sublayers, so they are too.
        if painting & particleBit != 0 {
            particles.inReplica = ctx.inReplica
            particles.emit(layer, copy, at: site, into: out)
        }
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

    func drawSublayers(_ layer: CALayer, _ sublayers: [CALayer], _ s: LayerState, world: CATransform3D, h: Homography,
                       radii: SIMD4<Float>, clip: Int32, opacity: Float, ctx parent: borrowing Context, lineage: Lineage,
                       replica: ReplicaSpec? = nil) {
        let isTransformLayer = layer is CATransformLayer
        // A replicator that `preservesDepth` keeps its copies in 3D, as a CATransformLayer does.
        let childWorld = isTransformLayer || replica?.preservesDepth == true ? world : LayerGeometry.flattened(world)
        // Not a group here (allowsGroupOpacity false): each sublayer takes the opacity itself
        // (N4). Inside a group `opacity` is already 1 and the composite applies it once.
        let childOpacity = opacity
        var childClip = clip
        var isolate = false
        if s.masksToBounds, !isTransformLayer {
            guard let inv = h.inverted() else { return }
            let shape = ClipShape(inverse: inv, rect: s.bounds.simd, radii: radii, continuous: s.cornerCurve == .continuous)
            let (index, merged) = out.appendClip(shape, within: clip)
            childClip = index
            isolate = !merged
        }
        let depthBasis = isTransformLayer ? lineage.depth : CATransform3DIdentity
        let ordered = orderedSublayers(sublayers, transformLayer: isTransformLayer, depthBasis: depthBasis, parent: s)
        var inherited = Context(parentWorld: childWorld, parentGeometry: keepParentGeometry(s), clip: childClip, opacity: childOpacity,
                                depth: parent.depth + 1, mirrored: lineage.mirrored != s.isGeometryFlipped,
                                depthBasisIndex: isTransformLayer ? keepDepthBasis(depthBasis) : -1,
                                planeMirrored: parent.planeMirrored != s.isGeometryFlipped, inTransition: parent.inTransition)
        // A transform layer's sublayers draw in the order of their depth, which their own
        // animations change: they are not patched in place (not recorded as leaves).
        inherited.inReplica = parent.inReplica || replica != nil
        inherited.inContentSizedTarget = parent.inContentSizedTarget
        inherited.contentLimit = parent.contentLimit
        let unpatchable = inherited.inContentSizedTarget && inherited.contentLimit == nil
        if !(isTransformLayer || inherited.inReplica || unpatchable) { recordContext(&inherited) }
        let ctx = inherited
        if isolate {
            // Two clips that cannot merge analytically: the inner clip is applied inside an
            // offscreen target, the outer one when that target is composited.
            let pass = out.passRect
            let rect = FrameWriter.pixelAligned((h.boundingBox(of: s.bounds) ?? pass).intersection(pass))
            guard !rect.isNull, rect.width >= 1, rect.height >= 1 else { return }
            let target = out.beginOffscreen(rect)
            if let replica, replica.preservesDepth {
                drawReplicasInDepth(ordered, ctx, replica, parent: layer, basis: lineage.depth)
            } else if let replica { drawReplicas(ordered, ctx, replica, h: h) } else { for child in ordered { visit(child, ctx, isMask: false) } }
            out.endOffscreen()
            out.appendComposite(source: target, mask: nil, rect: rect, opacity: 1, clip: clip)
        } else if let replica, replica.preservesDepth {
            drawReplicasInDepth(ordered, ctx, replica, parent: layer, basis: lineage.depth)
        } else if let replica {
            drawReplicas(ordered, ctx, replica, h: h)
        } else if isTransformLayer, drawSplitPlanes(sublayers, depthBasis: depthBasis, parent: s, ctx: ctx, ordered: ordered) {
            // Intersecting planes, drawn in pieces (RenderTreeBuilder+PlaneSplitting.swift).
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
        for l in sublayers where l.renderCopy.zPositionUnchecked != 0 { needsSort = true; break }
        guard needsSort else { return sublayers }
        var keyed: [(z: Double, index: Int, layer: CALayer)] = []
        keyed.reserveCapacity(sublayers.count)
        for (i, l) in sublayers.enumerated() { keyed.append((Double(l.renderCopy.zPositionUnchecked), i, l)) }
        keyed.sort { a, b in a.z != b.z ? a.z < b.z : a.index < b.index }
        return keyed.map { $0.layer }
    }

    /// `s`'s part of its sublayers' M7 kept for their context (`Context.parentGeometry`): −1
    /// where it adds nothing. Kept with the records (`PatchRecords.parentGeometries`): a
    /// recorded context is read again by later patches.
    func keepParentGeometry(_ s: borrowing LayerState) -> Int32 {
        guard let g = SublayerGeometry(s) else { return -1 }
        recorded.parentGeometries.append(g)
        return Int32(recorded.parentGeometries.count - 1)
    }

    /// `ctx`'s parent geometry (nil: a plain parent).
    func parentState(of ctx: borrowing Context) -> SublayerGeometry? {
        ctx.parentGeometry < 0 ? nil : recorded.parentGeometries[Int(ctx.parentGeometry)]
    }

    /// A transform layer's depth basis for its sublayers' context (`Context.depthBasisIndex`).
    func keepDepthBasis(_ m: CATransform3D) -> Int32 {
        guard !CATransform3DIsIdentity(m) else { return -1 }
        depthBases.append(m)
        return Int32(depthBases.count - 1)
    }

    /// `ctx`'s depth basis.
    func depthBasis(of ctx: borrowing Context) -> CATransform3D {
        ctx.depthBasisIndex < 0 ? CATransform3DIdentity : depthBases[Int(ctx.depthBasisIndex)]
    }

    /// `ctx` kept in `recorded.leafContexts`, so leaves that inherit it can be patched later.
    func recordedContext(_ ctx: Context) -> Context {
        var c = ctx
        recordContext(&c)
        return c
    }

    /// `recordedContext` in place: `ctx` gets its index and is kept (no copies of the context
    /// made on the way, issue 23: one a sublayer list every frame).
    func recordContext(_ ctx: inout Context) {
        ctx.index = recorded.leafContexts.count
        recorded.leafContexts.append(ctx)
    }

    // MARK: Bounds of isolated subtrees

    /// Pixel bounding box of what `layer` and its sublayers can paint, shadows included; nil
    /// when part of it is behind the eye, or a transition moves part of it by an amount this
    /// does not follow (then the caller uses the whole target). `transitions` false bounds the
    /// layer's current state even while a transition runs on it; `ownShadow` false leaves out
    /// the layer's own shadow (its sublayers' stay in).
    func subtreeBounds(_ layer: CALayer, _ s: LayerState, world: CATransform3D, depth: Int,
                       transitions: Bool = true, ownShadow: Bool = true) -> CGRect? {
        if transitions, layer.runningTransition(atMedia: { CACurrentMediaTime() }) != nil { return nil }
        let h = Homography(world)
        guard var box = h.boundingBox(of: s.bounds.standardized) else { return nil }
        if s.masksToBounds || depth >= Self.maxDepth || (stackGuard?.isLow() ?? false) {
            if !s.masksToBounds {
                let copy = layer.renderCopy
                for e in contentEmitters { if let reach = e.overhang(copy, h: h) { box = box.union(reach) } }
            }
            return box.insetBy(dx: -1, dy: -1)
        }
        let copy = layer.renderCopy
        // Only what the layer paints counts (`paintsWithinBounds`): a Lottie layer's bounds
        // are its whole composition, its shapes a small part of it (issue 23).
        if !paintsWithinBounds(copy, s) { box = .null }
        for e in contentEmitters { if let reach = e.overhang(copy, h: h) { box = box.union(reach) } }
        // A replicator's copies reach wherever its instance transform takes them: not bounded.
        if let r = layer as? CAReplicatorLayer, r.instanceCount > 1 { return nil }
        let childWorld = layer is CATransformLayer ? world : LayerGeometry.flattened(world)
        for child in layer.sublayersUnchecked ?? [] {
            let cs = child.renderCopy.state
            guard !cs.isHidden else { continue }
            let cw = CATransform3DConcat(LayerGeometry.localToParent(cs, parent: s, isMask: false), childWorld)
            guard Homography(cw).isFiniteInFloat, cs.bounds.fitsInFloat else { continue }
            guard let b = subtreeBounds(child, cs, world: cw, depth: depth + 1) else { return nil }
            box = box.union(b)
        }
        if ownShadow, !box.isNull, let shadow = ShadowSpec(s) { box = box.union(shadow.castBounds(of: box, h: h)) }
        return box.isNull ? .null : box.insetBy(dx: -1, dy: -1)
    }
}
