import CoreGraphics
import CoreAnimation
import CAFrame
import Dispatch

/// A `CAEmitterLayer`'s particles as image instances, one textured quad per live particle:
/// the particles of frame t come from `EmitterSimulation` (a pure function of the layer's seed,
/// its local time and its values), so the builder keeps no particle state between frames.
///
/// Each particle is its cell's `contents` image (through the shared image atlas, so the
/// particles of small images are one instanced draw), `contentsRect` of it, sized
/// `image size × contentsRect size / contentsScale × particle scale`, centred on the
/// particle, turned by its angle and tinted by its colour (premultiplied, × the layer's
/// opacity): Apple's cell `color` "multiplies the contents". A cell without an image contents
/// draws nothing, as on Apple.
///
/// The particles are composited above the layer's background, border and sublayers (Apple:
/// "drawn above the layer's background color and border"; Core Animation draws a border above
/// the sublayers, so the particles are above those too). `renderMode` sets their order
/// (`EmitterSimulation.ordered`); `additive` draws them with additive blending, the image
/// pipeline's `ShaderVariant.additive` (GL blend ONE, ONE).
final class ParticleEmitter: ContentEmitter {
    let contents: ContentsEmitter
    /// Whether the frame being built (or the last one built) drew an emitter layer with cells:
    /// its picture then changes with time alone, so the renderer builds every frame anew (no
    /// reuse of the last frame, no patch of it).
    var drewEmitter = false
    /// Particles drawn in the frame being built (render statistics, tests, benchmarks).
    var particleCount = 0
    /// Whether emission runs may be handed to the backend as records (`ParticleRunInstance`)
    /// for it to evaluate (`RenderTreeBuilder.usesParticleRuns`: the GL backend's choice).
    var usesRuns = false
    /// Whether the layer being drawn is inside a replicator's copies (the replica code moves
    /// and tints the kinds of instance it knows, not particle runs: those layers are simulated).
    var inReplica = false

    init(contents: ContentsEmitter) { self.contents = contents }

    /// A plain `CALayer` (nearly every layer) leaves after a metatype compare, with no cast.
    func claims(_ copy: CALayer) -> Bool { type(of: copy) != CALayer.self && copy is CAEmitterLayer }
    var claimRule: ContentClaimRule { .byClass }

    func paints(_ copy: CALayer) -> Bool {
        guard let e = copy as? CAEmitterLayer else { return false }
        return !(e.emitterCells ?? []).isEmpty
    }

    /// Particles fly beyond the layer's bounds anywhere: an isolated emitter layer gets the
    /// whole pass (the caller intersects with it).
    func overhang(_ copy: CALayer, h: Homography) -> CGRect? {
        paints(copy) ? CGRect(x: -1e7, y: -1e7, width: 2e7, height: 2e7) : nil
    }

    func beginFrame(_ out: FrameWriter) {
        drewEmitter = false
        particleCount = 0
    }

    func emit(_ layer: CALayer, _ copy: CALayer, at site: DrawSite, into out: FrameWriter) {
        guard let e = copy as? CAEmitterLayer, !(e.emitterCells ?? []).isEmpty else { return }
        drewEmitter = true
        // The layer's local time (CAMediaTiming C1 from the media time of the frame).
        let t = layer.localTime(fromMedia: CACurrentMediaTime())
        let h = site.h
        // A particle's plane is the layer's turned about the particle: a similarity stays one and
        // an affine plane stays affine, so under an affine layer plane every particle of a cell
        // has the shader variant of the layer's plane, worked out once per cell (not per particle:
        // OptionSet operations across modules are generic calls, measurable at 100,000).
        let affine = h.r0.z == 0 && h.r1.z == 0
        // `preservesDepth`: each particle is the layer's plane moved by its z too (Apple: the
        // particles are not flattened into the layer's plane), so perspective in the layer's
        // world makes nearer particles larger; the variant is then worked out per particle.
        let zRow = e.preservesDepth ? site.zRow : .zero
        let keepsDepth = zRow != .zero
        var start = DispatchTime.now().uptimeNanoseconds
        // Emission runs the backend evaluates (issue 21): a flat layer plane outside replicas,
        // every cell a constant-rate top-level cell (`EmitterSimulation.runs`).
        var runSim: (EmitterSimulation, [EmitterRun])?
        if usesRuns, !inReplica, affine, !keepsDepth {
            runSim = EmitterSimulation.runs(model: layer as? CAEmitterLayer, current: e.emitter, at: t)
            out.stats.particleSeconds += Double(DispatchTime.now().uptimeNanoseconds - start) * 1e-9
        }
        var simulated: (EmitterSimulation, [EmitterParticle])?
        func simulate() -> (EmitterSimulation, [EmitterParticle]) {
            if let simulated { return simulated }
            start = DispatchTime.now().uptimeNanoseconds
            // From the model layer's value timeline (births follow animated rates; each particle has
            // the values of its birth time), or the copy's values alone for a layer never committed.
            let sim = (layer as? CAEmitterLayer).map { EmitterSimulation(model: $0, current: e.emitter, at: t) }
                ?? EmitterSimulation(e.emitter, at: t)
            let ordered = sim.ordered()
            out.stats.particleSeconds += Double(DispatchTime.now().uptimeNanoseconds - start) * 1e-9
            simulated = (sim, ordered)
            return (sim, ordered)
        }
        let sim = runSim?.0 ?? simulate().0
        if runSim == nil, sim.particles.isEmpty { return }
        if let runs = runSim?.1, runs.isEmpty { return }
        let additive = sim.renderMode == .additive
        if additive == false, sim.renderMode != .unordered, sim.renderMode != .oldestFirst,
           sim.renderMode != .oldestLast, sim.renderMode != .backToFront {
            RenderDiagnostics.warn("CAEmitterLayer.renderMode '\(sim.renderMode.rawValue)' is unknown: particles are drawn unordered")
        }
        // What each cell draws, resolved once per cell, not per particle.
        struct Look {
            var slot: Int
            var placement: SIMD4<Float>
            var size: SIMD2<Double>
            var uv: SIMD4<Float>
            var flags: UInt32
        }
        var looks = [Look?](repeating: nil, count: sim.tree.nodes.count)
        for (i, node) in sim.tree.nodes.enumerated() {
            let cell = node.cell
            if cell.style != nil {
                RenderDiagnostics.warn("CAEmitterCell.style is not applied (cell filters and other style keys)")
            }
            guard let image = cell.contents.flatMap({ $0 as? CGImage }), image.width > 0, image.height > 0 else { continue }
            let cr = cell.contentsRect
            let scale = cell.contentsScale.isFinite && cell.contentsScale > 0 ? Double(cell.contentsScale) : 1
            guard cr.width.isFinite, cr.height.isFinite, cr.minX.isFinite, cr.minY.isFinite else {
                RenderDiagnostics.warn("CAEmitterCell.contentsRect is not finite: the cell is not drawn")
                continue
            }
            let size = SIMD2(Double(image.width) * abs(Double(cr.width)), Double(image.height) * abs(Double(cr.height))) / scale
            var uv = SIMD4(Float(cr.minX), Float(cr.minY), Float(cr.maxX), Float(cr.maxY))
            if site.planeMirrored { uv = SIMD4(uv.x, uv.w, uv.z, uv.y) }
            let slot: Int
            var placement = SIMD4<Float>(0, 0, 1, 1)
            if contents.usesAtlas, let p = contents.atlas.placement(of: image) {
                slot = contents.atlasSlot(page: p.page, out)
                placement = p.transform
            } else {
                slot = out.textureSlot(image)
            }
            let filters = ContentsEmitter.filterBits(CALayerContentsFilter(rawValue: cell.minificationFilter)) << InstanceFlags.minificationFilterShift
                | ContentsEmitter.filterBits(CALayerContentsFilter(rawValue: cell.magnificationFilter)) << InstanceFlags.magnificationFilterShift
            // Trilinear needs mipmaps, which atlas pages do not have: particles sample linearly
            // when minified instead.
            let safeFilters = filters & ~(UInt32(2) << InstanceFlags.minificationFilterShift)
            if safeFilters != filters {
                RenderDiagnostics.warn("CAEmitterCell.minificationFilter trilinear: particles are minified linearly (no mipmaps in the image atlas)")
            }
            if cell.minificationFilterBias != 0 {
                RenderDiagnostics.warn("CAEmitterCell.minificationFilterBias is not applied")
            }
            looks[i] = Look(slot: slot, placement: placement, size: size, uv: uv, flags: InstanceFlags.edgeMask | safeFilters)
        }
        // masksToBounds cuts the particles to the layer's (rounded) bounds, as any content of
        // the layer: a clip-table entry, since each particle has a plane of its own.
        var clipIndex = site.clip
        if copy.state.masksToBounds {
            let (c, merged) = out.boundsClip(of: copy, h: h, outer: site.clip)
            if merged {
                clipIndex = c
            } else {
                RenderDiagnostics.warn("CAEmitterLayer.masksToBounds inside a rounded or turned clip: its particles are cut by the outer clip only")
            }
        }
        let clip = Float(clipIndex)
        func variant(of look: Look, _ packed: (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>)) -> ShaderVariant {
            var v = ShaderVariant.of(clip: clip, flags: Float(look.flags), h0: packed.0, h1: packed.1, h2: packed.2)
            if additive { v.insert(.additive) }
            // Linear both ways (the default filters): the image shader's one-sample path.
            if look.flags & ~InstanceFlags.edgeMask == 0 { v.insert(.linearFilters) }
            // A plain square quad under a similarity: the particle path (fewer varyings, a
            // tighter quad; the same pixels).
            if v.contains(.linearFilters), v.isDisjoint(with: [.projective, .edgeMask, .continuous]) { v.insert(.particle) }
            return v
        }
        let layerPacked = h.packed()
        var variants = [ShaderVariant?](repeating: nil, count: looks.count)
        if affine, !keepsDepth {
            for (i, look) in looks.enumerated() {
                guard let look else { continue }
                variants[i] = variant(of: look, (layerPacked.0, SIMD4(layerPacked.1.x, layerPacked.1.y, layerPacked.1.z, clip), layerPacked.2))
            }
        }
        if let runs = runSim?.1,
           emitRuns(runs, looks: looks.map { $0.map { RunLook(slot: $0.slot, placement: $0.placement, size: $0.size, uv: $0.uv) } },
                    variants: variants, plane: layerPacked, clip: clip, flags: looks.map { $0?.flags ?? 0 },
                    opacity: site.opacity, additive: additive, into: out) {
            return
        }
        let ordered = simulate().1
        guard !ordered.isEmpty else { return }
        var drawn = 0
        out.frame.images.reserveCapacity(out.frame.images.count + ordered.count)
        // Consecutive particles of one texture and variant are one run of the batch list.
        var runStart = out.frame.images.count, runSlot = -1, runVariant = ShaderVariant()
        func flush() {
            let end = out.frame.images.count
            if runSlot >= 0, end > runStart {
                out.appendBatch(.image(texture: runSlot, filter: .linear), variant: runVariant, range: runStart..<end)
            }
        }
        for p in ordered {
            guard let look = looks[p.node] else { continue }
            let w = look.size.x * p.scale, ht = look.size.y * p.scale
            guard w > 0, ht > 0 else { continue }
            // Plane of the particle: turned by its angle about its centre, then moved there
            // (row vectors: local point · A · H).
            let c = cos(p.angle), s = sin(p.angle)
            let ph = Homography(r0: c * h.r0 + s * h.r1, r1: -s * h.r0 + c * h.r1,
                                r2: p.position.x * h.r0 + p.position.y * h.r1 + p.position.z * zRow + h.r2)
            guard ph.isFiniteInFloat else { continue }
            let packed = ph.packed(SIMD3(0, clip, Float(look.flags)))
            let a = p.color.w * Double(site.opacity)
            let tint = SIMD4(Float(p.color.x * a), Float(p.color.y * a), Float(p.color.z * a), Float(a))
            guard tint.w > 0 || additive else { continue }
            let rect = SIMD4(Float(-w / 2), Float(-ht / 2), Float(w), Float(ht))
            let instance = ImageInstance(h0: packed.0, h1: packed.1, h2: packed.2, rect: rect, uv: look.uv, tint: tint,
                                         shape: rect, shapeRadii: .zero, atlas: look.placement)
            let v = variants[p.node] ?? variant(of: look, packed)
            if look.slot != runSlot || v != runVariant {
                flush()
                runStart = out.frame.images.count
                runSlot = look.slot
                runVariant = v
            }
            // Straight into the image array (not the generic `append`, whose key-path access per
            // instance is measurable at 100,000 particles).
            out.frame.images.append(instance)
            drawn += 1
        }
        flush()
        particleCount += drawn
        out.stats.particles += drawn
    }
}
