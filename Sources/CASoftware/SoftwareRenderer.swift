import CoreGraphics
import CAFrame
import Dispatch

/// The CPU backend (issue 22): executes a `RenderFrame` — the same passes, batches, instances,
/// clip table and offscreen targets the GL backend executes — into a premultiplied RGBA8
/// buffer, with no OpenGL at all. Each pipeline's shader (Shaders/*.vert|frag, the
/// specification of the pixels) is ported to Swift in `Software*Pipeline.swift`; a draw pass
/// is cut into bands of rows run on every core, each band walking the batches in order and
/// only the instances whose pixel bounds touch it; a filter step (`SoftwareFilter*.swift`,
/// filter.frag and blur.frag ported) writes every texel of its target, in bands too. It never
/// sees a layer.
package final class SoftwareRenderer {
    /// Where the backend's warnings go (as `GLRenderer.warn`): a feature it does not
    /// reproduce is named once.
    package var warn: (String) -> Void = { _ in }
    /// Bands run at once (1: everything on the calling thread). Default: the active cores.
    package var threads: Int
    /// Whether the row and span paths (`SoftwareBoxRowPlan`, `SoftwareShapePipeline.drawRows`,
    /// `SoftwareImageRowPlan`, `SoftwareGradientPipeline.drawRows`) draw what they can; false draws every texel through the
    /// ported shader maths (what the row paths gain, measured in one binary, and the reference
    /// their pixels are tested against). Default: on unless `CA_SOFTWARE_SPANS=0`.
    package var usesRowPaths = SoftwareRowPaths.enabledByDefault
    /// Whether the image and gradient row paths draw their interiors (coverage 1, no clip) with
    /// the specialised loops (`SoftwareImageInteriorRows.swift`, `SoftwareGradientInteriorRows.swift`);
    /// false draws those texels with the row paths' general loop, the reference the
    /// specialised loops are tested against. Default: on unless `CA_SOFTWARE_INTERIOR=0`.
    package var usesInteriorLoops = SoftwareRowPaths.interiorLoopsByDefault
    /// Whether a batch's instances skip the texels its later instances paint opaquely
    /// (`SoftwareOcclusion`; the same bytes either way). Default: on unless
    /// `CA_SOFTWARE_OCCLUSION=0`.
    package var usesOcclusion = SoftwareRowPaths.occlusionByDefault
    var main: SoftwareTarget?
    /// The main target's texels (`frameBytes`).
    private var frameStorage: [UInt8] = []
    /// The pixel bounds of everything the last frame drew into the main target after clearing
    /// it to the colour word `color`, where known: outside them every texel is that colour, so
    /// the next frame's clear to it covers only these bounds (issue 23: clearing a whole
    /// 512×512 frame was a quarter of TwitterHeart's backend time). Kept as the rectangles the
    /// instances drew in, up to `maxDrawnSpans` (then as the one rectangle around them): the
    /// rectangle around a few small shapes far apart is most of the frame (TwitterHeart's
    /// burst of dots). Nil when unknown (a first frame, a new size, a pass into the main target
    /// without pixel bounds: blur, filter, copy).
    private var mainDrawn: (spans: [SoftwareSpan], color: UInt32)?
    static let maxDrawnSpans = 64
    private var mainClearWord: UInt32 = 0
    var textures: [ObjectIdentifier: SoftwareTexture] = [:]
    let shapeAtlas = SoftwareShapeAtlas()
    /// Offscreen targets kept from one frame for the next (`SoftwareTargetPool`).
    private var targetPool = SoftwareTargetPool()
    /// Offscreen target blocks kept for the next frame (tests).
    package var pooledTargetCount: Int { targetPool.count }
    /// Run-source tables by colour (`SoftwareRunSourceCache`).
    let runSourceCache = SoftwareRunSourceCache()
    /// Shadow blur kernels and corner grids by (σ, radii), shared by a frame's shadows and kept
    /// between frames (`SoftwareShadowKernel`).
    let shadowKernels = SoftwareShadowKernels()
    var frameNumber = 0

    /// Whether offscreen targets keep their row extents for the composites that put them back
    /// (`SoftwareRowExtents.swift`); off, every texel of the target is read (tests compare).
    package var usesRowExtents = true
    /// Tests: the last frame's offscreen targets are kept for reading their row extents
    /// (`SoftwareRowExtents.swift`; their texels and extents are the pool's blocks', kept until
    /// the next frame: read them before it).
    var keepsTargetsForTesting = false
    private(set) var lastTargetsForTesting: [SoftwareTarget] = []

    package init(threads: Int? = nil) {
        self.threads = max(1, threads ?? ProcessInfo.processInfo.activeProcessorCount)
    }

    /// The threads beside this one that run a pass's bands: the process's pool for the
    /// current `threads` (`SoftwareBandPool.shared(workers:)`).
    private var pool: SoftwareBandPool?
    var bandPool: SoftwareBandPool {
        if let pool, pool.workers == threads - 1 { return pool }
        let p = SoftwareBandPool.shared(workers: threads - 1)
        pool = p
        return p
    }

    /// Draws `frame` into the renderer's own target of the frame's size. Throws for an empty
    /// frame or a frame that refers to what it does not hold (a batch past its instances, a
    /// composite of the main target): never a silently blank frame.
    package func render(_ frame: RenderFrame, stats: inout RenderStats) throws {
        guard frame.width > 0, frame.height > 0 else { throw SoftwareBackendError("frame size \(frame.width)×\(frame.height) is empty") }
        // Replicated copies (`ReplicaDraw`) are the GL backend's; the builder makes every copy a box
        // for this backend (`RenderTreeBuilder.usesGPUReplicas` off), so one here is a misuse.
        guard frame.replicaDraws.isEmpty else { throw SoftwareBackendError("the frame has replicated batches (ReplicaDraw), which only the GL backend draws") }
        frameNumber += 1
        // The main target draws into `frameBytes`' array. The mutating access copies it first
        // where an image made from the last frame still shares it (what reading the frame back
        // cost before), so such an image never changes; where none does, this frame is drawn
        // in place and handed out without a copy.
        let texels = frame.width * frame.height
        if frameStorage.count != texels * 4 { frameStorage = [UInt8](repeating: 0, count: texels * 4); mainDrawn = nil }
        // What the last frame left outside `mainDrawn` is its clear colour; forgotten until this
        // frame has drawn (a frame that stops part way leaves it unknown).
        let lastDrawn = mainDrawn
        mainDrawn = nil
        var drawn: [SoftwareSpan] = []
        var drawnKnown = true
        var clearedMain = false
        let base = frameStorage.withUnsafeMutableBytes { $0.baseAddress! }
        if main == nil || UnsafeMutableRawPointer(main!.pixels) != base || main!.width != frame.width || main!.height != frame.height {
            main = SoftwareTarget(width: frame.width, height: frame.height, texels: base.bindMemory(to: UInt32.self, capacity: texels))
        }
        for img in frame.retiredTextures { textures.removeValue(forKey: ObjectIdentifier(img)) }
        shapeAtlas.sync(frame)
        var tex: [SoftwareTexture] = []
        tex.reserveCapacity(frame.textures.count)
        for img in frame.textures { tex.append(texture(for: img, stats: &stats)) }
        let (targets, targetBlocks) = targetPool.targets(for: frame)
        let clips = frame.clips.map(SoftwareClip.init)
        let ramps = SoftwareRamps(frame)
        func target(_ id: TargetID) -> SoftwareTarget {
            switch id {
            case .main: return main!
            case .offscreen(let i): return targets[i]
            }
        }
        for pass in frame.passes {
            if case .offscreen(let i) = pass.target, i < 0 || i >= targets.count {
                throw SoftwareBackendError("pass draws into \(pass.target), which the frame does not list")
            }
            let dst = target(pass.target)
            let vp: SIMD4<Float>
            switch pass.target {
            case .main: vp = SIMD4(0, 0, Float(frame.width), Float(frame.height))
            case .offscreen(let i): let t = frame.targets[i]; vp = SIMD4(Float(t.x), Float(t.y), Float(t.width), Float(t.height))
            }
            switch pass.kind {
            case .draw(let batches):
                let clearColor: SIMD4<Float>? = pass.clears ? (pass.target == .main ? frame.clearColor : .zero) : nil
                var work: [SoftwareBatchWork] = []
                work.reserveCapacity(batches.count)
                for b in batches {
                    if let w = try prepare(b, frame: frame, viewport: vp, target: dst, textures: tex, targets: targets, stats: &stats) {
                        work.append(w)
                    }
                }
                let ctx = SoftwarePassContext(frame: frame, target: dst, viewport: vp, clips: clips, ramps: ramps,
                                              shapeAtlas: shapeAtlas)
                // Each band clears its own rows before drawing into them: the clear runs on every
                // core, and the rows are in the core's cache when the batches blend into them
                // (one thread clearing a 1080p target was 15 % of the 100-shadow frame).
                let covered = work.first?.firstCover ?? .none
                // The main target's first clear, to the colour the last frame cleared it to, need
                // only cover what that frame drew (`mainDrawn`): elsewhere the texels hold the
                // colour. (A second clear in one frame clears everything.)
                var area: [SoftwareSpan]? = nil
                if pass.target == .main, let clearColor {
                    let packed = SoftwarePixel.pack(clearColor)
                    if !clearedMain, let last = lastDrawn, last.color == packed { area = last.spans }
                    clearedMain = true
                    mainClearWord = packed
                }
                if pass.target == .main {
                    for w in work where !w.appendPixelBoxes(to: &drawn) { drawnKnown = false; break }
                    if drawn.count > 1 {
                        // One rectangle where the list is long or clears no less than it would.
                        let union = drawn.reduce(SoftwareSpan.none) { $0.union($1) }
                        if drawn.count > Self.maxDrawnSpans || drawn.reduce(0, { $0 &+ $1.area }) >= union.area { drawn = [union] }
                    }
                }
                // An offscreen target's extents start at a clearing pass (to zero); a pass
                // drawing over what it holds adds to them.
                if usesRowExtents, case .offscreen = pass.target, clearColor != nil { dst.startRowExtents() }
                let tracks = dst.rowExtents != nil
                run(rows: dst.height, single: Self.isSmallPass(dst, work)) { rows in
                    if let clearColor {
                        if let area {
                            // (Rectangles that overlap clear their common texels twice, to the same colour.)
                            for a in area { dst.clear(clearColor, rows: rows, within: a, except: covered) }
                        } else {
                            dst.clear(clearColor, rows: rows, except: covered)
                        }
                    }
                    for w in work {
                        w.draw(ctx, rows)
                        if tracks { w.noteRowExtents(dst, rows) }
                    }
                }
            case .blur(let source, let sigma, let horizontal):
                if pass.target == .main { drawnKnown = false }
                dst.forgetRowExtents()
                guard case .offscreen(let si) = source, si >= 0, si < targets.count else {
                    throw SoftwareBackendError("blur source \(source) is not offscreen")
                }
                let src = targets[si]
                run(rows: dst.height) { rows in
                    SoftwareBlur.pass(from: src, into: dst, sigma: max(sigma, 0.01), horizontal: horizontal, rows: rows)
                }
                stats.drawCalls += 1
                stats.vertices += 3
            case .filter(let source, let op):
                if pass.target == .main { drawnKnown = false }
                dst.forgetRowExtents()
                guard case .offscreen(let si) = source, si >= 0, si < targets.count else {
                    throw SoftwareBackendError("filter source \(source) is not offscreen")
                }
                func other(_ id: TargetID) throws -> SoftwareTarget {
                    guard case .offscreen(let i) = id, i >= 0, i < targets.count else {
                        throw SoftwareBackendError("filter input \(id) is not offscreen")
                    }
                    return targets[i]
                }
                try runFilter(op, source: targets[si], other: other, target: dst, viewport: vp, clips: clips, stats: &stats)
            case .copy(let source):
                if pass.target == .main { drawnKnown = false }
                dst.forgetRowExtents()
                let srcRect: SIMD4<Float>
                switch source {
                case .main: srcRect = SIMD4(0, 0, Float(frame.width), Float(frame.height))
                case .offscreen(let i):
                    guard i >= 0, i < targets.count else { throw SoftwareBackendError("copy source \(source) is not a target of the frame") }
                    let t = frame.targets[i]
                    srcRect = SIMD4(Float(t.x), Float(t.y), Float(t.width), Float(t.height))
                }
                runCopy(from: target(source), srcRect: srcRect, into: dst, viewport: vp)
            }
        }
        evictUnused()
        if keepsTargetsForTesting { lastTargetsForTesting = targets }
        targetPool.keep(targetBlocks)
        if clearedMain, drawnKnown {
            mainDrawn = (drawn, mainClearWord)
        }
    }

    /// Premultiplied RGBA8 of the last frame, top row first.
    /// The last frame's pixels where they lie (premultiplied RGBA8, top row first), for a
    /// window presenting them through GL without copying them first; nil before any frame.
    package func withFramePixels<T>(_ body: (UnsafeRawPointer, _ width: Int, _ height: Int) throws -> T) rethrows -> T? {
        guard let main else { return nil }
        return try body(UnsafeRawPointer(main.pixels), main.width, main.height)
    }

    /// The last frame's pixels (premultiplied RGBA8, top row first) as an array sharing the
    /// main target's storage: no copy. The next frame draws into a copy while the array is
    /// still held (`render`), so it never changes. Nil before any frame.
    package func frameBytes() -> [UInt8]? {
        guard let main, frameStorage.count == main.width * main.height * 4 else { return nil }
        return frameStorage
    }

    package func readPixels() -> [UInt8] {
        var out: [UInt8] = []
        readPixels(into: &out)
        return out
    }

    /// `readPixels()` into `out`, in place when it already has the frame's size (a caller that
    /// reads every frame back reuses one array instead of a fresh megabyte a frame).
    package func readPixels(into out: inout [UInt8]) {
        guard let main else { out = []; return }
        let n = main.width * main.height
        let source = UnsafeRawBufferPointer(start: main.pixels, count: n * 4)
        if out.count == n * 4 {
            out.withUnsafeMutableBytes { $0.copyMemory(from: source) }
            return
        }
        out = [UInt8](unsafeUninitializedCapacity: n * 4) { buf, count in
            UnsafeMutableRawBufferPointer(buf).copyMemory(from: source)
            count = n * 4
        }
    }

    /// Rows of one band: a 1920-texel band of 32 rows is 240 KiB, which stays in a core's L2
    /// cache while the band's instances blend into it (bands of 135 rows, four a core, spent a
    /// third of the rect scene's time waiting for memory in the span loops).
    static let bandRows = 32

    /// A draw pass whose target and instances are this small runs on the calling thread alone:
    /// waking the other threads costs more than they save (about 40 µs a pass on the 2-core VM;
    /// Lottie's PinJump, which draws eleven 32×32 offscreen passes a frame, 0.38–0.45 →
    /// 0.31–0.36 ms/frame with this and the one-band rule in `run`, docs/PERFORMANCE.md).
    static let smallPassTexels = 1 << 19
    static let smallPassWork = 1 << 17

    /// Whether a draw pass into `target` with `work` is small (`smallPassTexels`, `smallPassWork`).
    static func isSmallPass(_ target: SoftwareTarget, _ work: [SoftwareBatchWork]) -> Bool {
        guard target.width * target.height <= smallPassTexels else { return false }
        var sum = 0
        for w in work {
            guard let n = w.boundsTexels else { return false }
            sum &+= n
            if sum > smallPassWork { return false }
        }
        return true
    }

    /// Runs `body` over bands of `rows` rows, on `threads` threads (one where `single`, or
    /// where the target is one band high: Lottie's masks and mattes draw into 32-row targets).
    func run(rows: Int, single: Bool = false, _ body: (Range<Int>) -> Void) {
        let bands = threads <= 1 || single || rows <= Self.bandRows ? 1 : min(rows, max(threads * 4, (rows + Self.bandRows - 1) / Self.bandRows))
        if bands <= 1 { body(0..<rows); return }
        let per = (rows + bands - 1) / bands
        bandPool.run(bands: bands) { b in
            let lo = b * per, hi = min(rows, lo + per)
            if lo < hi { body(lo..<hi) }
        }
    }

    /// The per-instance setup of one batch (pixel bounds, inverse maps), made once per pass
    /// before the bands run.
    func prepare(_ b: Batch, frame: RenderFrame, viewport vp: SIMD4<Float>, target: SoftwareTarget, textures: [SoftwareTexture],
                 targets: [SoftwareTarget], stats: inout RenderStats) throws -> SoftwareBatchWork? {
        guard !b.range.isEmpty else { return nil }
        let texels = SIMD2(Float(target.width), Float(target.height))
        let map = SoftwareViewport(viewport: vp, texels: texels)
        func check(_ count: Int) throws {
            guard b.range.lowerBound >= 0, b.range.upperBound <= count else {
                throw SoftwareBackendError("batch \(b.pipeline) covers instances \(b.range), the frame holds \(count)")
            }
        }
        stats.drawCalls += 1
        stats.vertices += 4 * b.range.count
        switch b.pipeline {
        case .box:
            try check(frame.boxes.count)
            return SoftwareBoxPipeline(frame.boxes, b, map, target, rowPaths: usesRowPaths, shadowKernels: shadowKernels,
                                       frame: frameNumber)
        case .image(let t, let filter):
            try check(frame.images.count)
            guard t >= 0, t < textures.count else { throw SoftwareBackendError("image batch refers to texture \(t), which the frame does not list") }
            if filter == .trilinear { textures[t].ensureMipmaps() }
            return SoftwareImagePipeline(frame.images, b, map, target, texture: textures[t], filter: filter, rowPaths: usesRowPaths,
                                         interiorLoops: usesInteriorLoops)
        case .gradient:
            try check(frame.gradients.count)
            return SoftwareGradientPipeline(frame.gradients, b, map, target, rowPaths: usesRowPaths,
                                            interiorLoops: usesInteriorLoops, occlusion: usesOcclusion)
        case .composite(let source, let mask):
            try check(frame.composites.count)
            func off(_ id: TargetID) throws -> SoftwareTarget {
                guard case .offscreen(let i) = id, i >= 0, i < targets.count else {
                    throw SoftwareBackendError("composite samples \(id), which is not an offscreen target of the frame")
                }
                return targets[i]
            }
            let src = try off(source)
            let m: SoftwareTarget? = try mask.map(off) ?? (b.variant.contains(.mask) ? src : nil)
            return SoftwareCompositePipeline(frame.composites, b, map, target, source: src, mask: m, rowPaths: usesRowPaths)
        case .particles:
            // The builder writes particle runs only for the GL backend (`CARenderer` turns
            // `RenderTreeBuilder.usesParticleRuns` off for this one): its particles are simulated.
            throw SoftwareBackendError("particle-run batches are drawn by the GL backend only")
        case .shape(let page, let fieldPage):
            try check(frame.shapes.count)
            let pages = frame.shapePages
            guard page >= 0, page < pages.count, let cov = shapeAtlas.coverage[pages[page].id] else {
                throw SoftwareBackendError("shape batch refers to atlas page \(page), which the frame does not list")
            }
            let field = fieldPage >= 0 && fieldPage < pages.count ? shapeAtlas.fields[pages[fieldPage].id] : nil
            var aux: SoftwareTarget? = nil
            if b.variant.contains(.shapeField), !b.variant.isDisjoint(with: [.shapeDash, .shapeRoundCap]) {
                guard let a = shapeAtlas.aux[pages[page].id] else {
                    throw SoftwareBackendError("shape batch reads the auxiliary field texture of atlas page \(page), which no upload made")
                }
                aux = a
            }
            if b.variant.contains(.shapeWideField), field == nil {
                warn("shape batch reads an exact field page that the frame does not list: strokes drawn uncut")
            }
            let pageID = pages[page].id
            let atlas = shapeAtlas
            return SoftwareShapePipeline(frame.shapes, b, map, target, coverage: cov, field: field, aux: aux, rowPaths: usesRowPaths,
                                         interiorLoops: usesInteriorLoops, runs: atlas.runs[pageID] ?? [:],
                                         densify: { atlas.densify(page: pageID, at: $0) }, runSourceCache: runSourceCache)
        }
    }

    /// An image's texels, converted once and kept while frames use it.
    func texture(for img: CGImage, stats: inout RenderStats) -> SoftwareTexture {
        let id = ObjectIdentifier(img)
        // (An identifier a freed image left is taken by a new one: its old texture is replaced.)
        if let t = textures[id], t.source === img { t.lastUsed = frameNumber; return t }
        let t = SoftwareTexture(img)
        t.lastUsed = frameNumber
        textures[id] = t
        stats.textureUploads += 1
        stats.textureUploadBytes += img.width * img.height * 4
        return t
    }

    /// Textures not used for 120 frames are dropped (as the GL backend's).
    func evictUnused() {
        if frameNumber % 60 == 0 { textures = textures.filter { frameNumber - $0.value.lastUsed < 120 } }
    }

    /// Bytes of the image textures held now.
    package var cachedImageTextureBytes: Int { textures.values.reduce(0) { $0 + $1.byteCount } }
}

/// Why the CPU backend could not draw a frame.
package struct SoftwareBackendError: Error, CustomStringConvertible {
    package var description: String
    init(_ d: String) { description = d }
}

/// What the bands of one draw pass share.
struct SoftwarePassContext {
    let frame: RenderFrame
    let target: SoftwareTarget
    let viewport: SIMD4<Float>
    let clips: [SoftwareClip]
    let ramps: SoftwareRamps
    let shapeAtlas: SoftwareShapeAtlas
}

/// One batch made ready to draw: it draws its instances into the rows of one band.
protocol SoftwareBatchWork {
    func draw(_ ctx: SoftwarePassContext, _ rows: Range<Int>)
    /// Texels the batch's first instance paints opaquely whatever lies under them: a pass
    /// that starts with this batch need not clear them (a root layer's opaque background
    /// would otherwise be written twice a frame).
    var firstCover: SoftwareSpan { get }
    /// The texels its instances' pixel bounds cover, summed (an upper bound of the work); nil
    /// where unknown. `SoftwareRenderer.isSmallPass` weighs it.
    var boundsTexels: Int? { get }
    /// The pixels its draws can write, as one rectangle (empty: none); nil where unknown.
    var pixelBounds: SoftwareSpan? { get }
    /// Appends rectangles that hold every pixel its draws can write (none where it writes
    /// none); false where unknown.
    func appendPixelBoxes(to boxes: inout [SoftwareSpan]) -> Bool
    /// Notes in `target` the columns its draws in `rows` can have written
    /// (`SoftwareRowExtents.swift`).
    func noteRowExtents(_ target: SoftwareTarget, _ rows: Range<Int>)
}

extension SoftwareBatchWork {
    var firstCover: SoftwareSpan { .none }
    var boundsTexels: Int? { nil }
    var pixelBounds: SoftwareSpan? { nil }

    func appendPixelBoxes(to boxes: inout [SoftwareSpan]) -> Bool {
        guard let b = pixelBounds else { return false }
        if !b.isEmpty { boxes.append(b) }
        return true
    }
}

extension SoftwareQuad {
    /// The rectangle around `quads`' pixel bounds (each quad's draw stays inside its own).
    static func pixelBounds(_ quads: [SoftwareQuad]) -> SoftwareSpan {
        var b = SoftwareSpan(x0: Int.max, y0: Int.max, x1: Int.min, y1: Int.min)
        for q in quads where q.x1 > q.x0 && q.y1 > q.y0 { b = b.union(SoftwareSpan(x0: q.x0, y0: q.y0, x1: q.x1, y1: q.y1)) }
        return b.isEmpty ? .none : b
    }

    /// The texels of `quads`' pixel bounds, summed.
    static func boundsTexels(_ quads: [SoftwareQuad]) -> Int {
        var n = 0
        for q in quads where q.x1 > q.x0 && q.y1 > q.y0 { n &+= (q.x1 - q.x0) * (q.y1 - q.y0) }
        return n
    }
}

/// A batch drawn as quads, each of which draws only inside its own pixel bounds: its work and
/// the pixels it can write follow from them.
protocol SoftwareQuadBatch: SoftwareBatchWork {
    var quads: [SoftwareQuad] { get }
}

extension SoftwareQuadBatch {
    var boundsTexels: Int? { SoftwareQuad.boundsTexels(quads) }
    var pixelBounds: SoftwareSpan? { SoftwareQuad.pixelBounds(quads) }

    /// Each quad's own bounds (its draw stays inside them).
    func appendPixelBoxes(to boxes: inout [SoftwareSpan]) -> Bool {
        for q in quads where q.x1 > q.x0 && q.y1 > q.y0 { boxes.append(SoftwareSpan(x0: q.x0, y0: q.y0, x1: q.x1, y1: q.y1)) }
        return true
    }
}

/// A pass target's placement: frame pixels ↔ target texels (a downscaled target has fewer
/// texels than the frame pixels it covers), as the GL viewport maps them.
struct SoftwareViewport {
    let viewport: SIMD4<Float>
    let texels: SIMD2<Float>
    /// Frame pixels per texel along x and y.
    var scale: SIMD2<Double> { SIMD2(Double(viewport.z) / Double(texels.x), Double(viewport.w) / Double(texels.y)) }

    /// The plane-to-texel map of an instance whose plane-to-frame-pixel map has rows h0, h1, h2.
    func planeToTexel(_ h0: SIMD4<Float>, _ h1: SIMD4<Float>, _ h2: SIMD4<Float>) -> Homography {
        let s = scale, vx = Double(viewport.x), vy = Double(viewport.y)
        func row(_ r: SIMD4<Float>) -> SIMD3<Double> {
            let x = Double(r.x), y = Double(r.y), w = Double(r.z)
            return SIMD3((x - vx * w) / s.x, (y - vy * w) / s.y, w)
        }
        return Homography(r0: row(h0), r1: row(h1), r2: row(h2))
    }
}
