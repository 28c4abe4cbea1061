internal import CGL
import CoreGraphics
import CAFrame
import Foundation

/// The OpenGL 3.3 core backend: executes a `RenderFrame` (passes, batches, instance arrays)
/// into an RGBA8 target. It owns every GL object it makes and frees them deterministically
/// (here, on the thread and context current at `init`). It never sees a layer.
package final class GLRenderer {
    /// The largest texture side this renderer uses: the driver's `GL_MAX_TEXTURE_SIZE`, or
    /// less when `init(maxTextureSize:)` lowered it. Images beyond it are downscaled to fit.
    package let maxTextureSize: Int
    /// GL_VENDOR, GL_RENDERER, GL_VERSION, GL_SHADING_LANGUAGE_VERSION.
    package let info: [String: String]
    /// Where the backend's warnings go (an image downscaled to fit, say). The backend knows no
    /// logging of its own: whoever owns it (`CARenderer`: the render path's diagnostics) decides.
    package var warn: (String) -> Void = { _ in }

    /// Programs by (stage files, variant), compiled on first use; the common variants are
    /// compiled at start so the first frame does not pay for them.
    var programs: [ProgramKey: GLProgram] = [:]
    /// Filter-step programs by family and blend mode (`GLRenderer+Filters.swift`).
    var filterPrograms: [String: GLProgram] = [:]
    let blur: GLProgram

    struct ProgramKey: Hashable {
        var name: String
        var variant: ShaderVariant
        var interiorEarly: Bool
    }

    /// Whether fragment programs may branch around work a pixel does not need (`box.frag`'s
    /// interior early-out, `CA_INTERIOR_EARLY`, for batches with a box large enough to have an
    /// interior: `GLBoxPipeline`). A hardware driver's warps skip a branch none of their pixels
    /// takes: on the H200 the 10,000-rect scene's GPU time fell from 16.3 to 14.2 ms
    /// (docs/PERFORMANCE.md). A software rasteriser such as llvmpipe runs both sides of every
    /// branch (common.glsl), so there the test would only add work. `CARenderer` sets it from
    /// `GL_RENDERER` (`Options.softwareGLDrivers`); off until then.
    package var branchesCheaply = false {
        didSet {
            // The warm box programs again, for this setting (a failure shows at the first frame).
            if branchesCheaply, !oldValue { for v: ShaderVariant in [[], [.border]] { _ = try? program("box", v, interiorEarly: true) } }
        }
    }

    /// The program of `name` for `variant`; `interiorEarly` adds `CA_INTERIOR_EARLY` (box only).
    func program(_ name: String, _ variant: ShaderVariant, interiorEarly: Bool = false) throws -> GLProgram {
        let key = ProgramKey(name: name, variant: variant, interiorEarly: interiorEarly)
        if let p = programs[key] { return p }
        let defines = variant.defines + (interiorEarly ? ["CA_INTERIOR_EARLY"] : [])
        let p = try GLProgram(vertex: "\(name).vert", fragment: "\(name).frag", defines: defines)
        programs[key] = p
        return p
    }
    /// The clip table has a texture unit of its own: creating a texture or target binds it on
    /// unit 0, which would otherwise replace the table in the middle of a frame.
    static let clipTextureUnit: Int32 = 4

    /// One entry per kind of instance, in `RenderFrame.instanceKinds` order (`Pipelines/`).
    let pipelines: [GLPipeline] = GLRenderer.makePipelines()
    /// The main pass's opaque interiors (`opaqueInteriors`), drawn into depth first.
    let prepassStream = GLInstanceStream(BoxInstance.layout)
    /// Whether the main pass draws opaque interiors into a depth buffer first
    /// (`CARenderer.Options.usesDepthPrepass`).
    package var usesDepthPrepass = true
    var vao: GLuint = 0
    var clipTexture: GLTexture?
    /// Rows of the frame's replicated copies (`GLRenderer+Replicas.swift`).
    var replicaTexture: GLTexture?
    /// `particleProgramProblem()`'s answer, once asked (nil inside: the program compiled).
    package var particleProbe: String??
    /// The replica table's texels as uploaded, kept so a frame does not allocate them anew.
    var replicaUpload: [SIMD4<Float>] = []
    var textures: [ObjectIdentifier: CachedTexture] = [:]
    var pool: [SIMD2<Int>: [GLRenderTarget]] = [:]
    /// The frame each pool size was last taken in (`GLRenderer+TargetPool.swift`).
    var poolLastUsed: [SIMD2<Int>: Int] = [:]
    /// Kept targets of rasterised layers, by `OffscreenTarget.cacheKey` (`GLRenderer+RasterCache.swift`).
    var rasterCache: [UInt64: RasterEntry] = [:]
    var main: GLRenderTarget?
    var frameNumber = 0
    /// feTurbulence lattices uploaded, by seed (`GLRenderer+FilterPrimitives.swift`).
    var turbulenceTextures: [Int: GLTexture] = [:]
    /// How many lattice textures this renderer has uploaded (tests: one per seed, not per frame).
    package internal(set) var turbulenceUploads = 0

    struct CachedTexture {
        let image: CGImage   // held so its identifier cannot be reused while cached
        let texture: GLTexture
        var lastUsed: Int
    }

    /// Needs a current OpenGL 3.3+ core context (an `EGLHeadlessContext` or a window's).
    package convenience init() throws { try self.init(maxTextureSize: nil) }

    /// `GL_RENDERER` of the current context, read before any program is compiled, so a caller
    /// deciding whether to draw with GL at all (`CARenderer.Backend.automatic` on a software
    /// rasteriser) does not pay for the warm-up compiles first. Nil without a current context.
    package static func currentRendererName() -> String? {
        guard let p = glGetString(E(GL_RENDERER)) else { return nil }
        return String(cString: UnsafeRawPointer(p).assumingMemoryBound(to: CChar.self))
    }

    /// `maxTextureSize` lowers the texture limit below the driver's, for this renderer only
    /// (tests of oversized images; tests run in parallel, so a process-wide setting would leak
    /// between them). Values below 16 are raised to 16. Package API.
    package init(maxTextureSize limitOverride: Int?) throws {
        func string(_ name: Int32) -> String {
            glGetString(E(name)).map { String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self)) } ?? ""
        }
        let version = string(GL_VERSION)
        guard !version.isEmpty else { throw GLBackendError("no current OpenGL context") }
        var major: GLint = 0, minor: GLint = 0
        glGetIntegerv(E(GL_MAJOR_VERSION), &major)
        glGetIntegerv(E(GL_MINOR_VERSION), &minor)
        guard major > 3 || (major == 3 && minor >= 3) else {
            throw GLBackendError("OpenGL \(major).\(minor) found; 3.3 core is the minimum")
        }
        info = ["vendor": string(GL_VENDOR), "renderer": string(GL_RENDERER), "version": version,
                "glsl": string(GL_SHADING_LANGUAGE_VERSION)]
        var maxSize: GLint = 0
        glGetIntegerv(E(GL_MAX_TEXTURE_SIZE), &maxSize)
        var limit = Int(maxSize)
        if let v = limitOverride { limit = min(limit, max(v, 16)) }
        maxTextureSize = limit
        blur = try GLProgram(vertex: "blur.vert", fragment: "blur.frag")
        glGenVertexArrays(1, &vao)
        // Warm the variants nearly every frame uses (a shader failing to compile fails here).
        for (name, v) in [("box", ShaderVariant()), ("box", [.border]), ("image", []), ("composite", []), ("gradient", []), ("shape", [])] {
            _ = try program(name, v)
        }
        glCheck("init")
    }

    deinit {
        glDeleteVertexArrays(1, &vao)
    }

    /// The backend's pipeline table: one entry per `RenderFrame.instanceKinds` lane. A new kind
    /// of instance adds its entry here (docs/ARCHITECTURE.md "Adding a drawable kind").
    static func makePipelines() -> [GLPipeline] {
        let entries: [(any InstanceKind.Type, GLPipeline)] = [
            (BoxInstance.self, GLBoxPipeline()), (ImageInstance.self, GLImagePipeline()),
            (CompositeInstance.self, GLCompositePipeline()), (GradientInstance.self, GLGradientPipeline()),
            (ShapeInstance.self, GLShapePipeline()), (ParticleRunInstance.self, GLParticlePipeline()),
        ]
        return RenderFrame.instanceKinds.map { kind in
            guard let e = entries.first(where: { ObjectIdentifier($0.0) == ObjectIdentifier(kind) }) else {
                fatalError("no GL pipeline for \(kind): add its entry to GLRenderer.makePipelines")
            }
            return e.1
        }
    }

    // MARK: Frames

    /// Draws `frame` into the renderer's own RGBA8 target of the frame's size. Throws on a GL
    /// error (never hands back a silently black frame).
    package func render(_ frame: RenderFrame, stats: inout RenderStats) throws {
        guard frame.width > 0, frame.height > 0 else { throw GLBackendError("frame size \(frame.width)×\(frame.height) is empty") }
        guard frame.width <= maxTextureSize, frame.height <= maxTextureSize else {
            throw GLBackendError("frame \(frame.width)×\(frame.height) exceeds GL_MAX_TEXTURE_SIZE \(maxTextureSize)")
        }
        frameNumber += 1
        _ = GLDiagnostics.takeFirstError()   // errors from before this frame are not its own
        if injectsGLErrorOnNextFrame {
            injectsGLErrorOnNextFrame = false
            glEnable(0)   // GL_INVALID_ENUM, before the frame's passes and their glChecks
        }
        if main == nil || main!.width != frame.width || main!.height != frame.height {
            main = try GLRenderTarget(width: frame.width, height: frame.height, depth: true)
        }
        do {
            try execute(frame, into: main!.fbo, flip: 1, stats: &stats)
            try checkError("while rendering")
        } catch {
            rasterCache.removeAll()   // a pass may have stopped half-way: keep no texture
            throw error
        }
        evictUnused()
        evictIdlePooledTargets()
        evictUnusedRasterTargets()
        // Hands the frame to the driver now: a renderer whose frames are never read back
        // otherwise queues them, and Mesa frees deleted textures only once the frames that
        // used them have run (issue 17 item 7: 4 MB more resident per frame without it).
        glFlush()
    }

    /// Blocks until the GPU has finished every command issued so far (`glFinish`), so a
    /// benchmark can time the GPU's share of a frame.
    package func finish() { glFinish() }

    /// Throws the first GL error since the last check (one a debug `glCheck` reported
    /// included), naming `situation`; errors are per context, so call it with this renderer's
    /// context current.
    package func checkError(_ situation: String) throws {
        if let err = GLDiagnostics.takeFirstError() {
            throw GLBackendError("OpenGL reported \(GLDiagnostics.name(err)) \(situation)")
        }
    }

    /// Test hook: the next `render` issues an invalid GL call before drawing, so tests can prove
    /// a GL error fails the frame rather than handing back a black or stale image.
    package var injectsGLErrorOnNextFrame = false

    /// Premultiplied RGBA8 of the last frame, top row first.
    package func readPixels() -> [UInt8] {
        var out: [UInt8] = []
        readPixels(into: &out)
        return out
    }

    /// `readPixels()` into `out`, in place when it already has the frame's size.
    package func readPixels(into out: inout [UInt8]) {
        guard let main else { out = []; return }
        if out.count != main.width * main.height * 4 { out = [UInt8](repeating: 0, count: main.width * main.height * 4) }
        glBindFramebuffer(E(GL_READ_FRAMEBUFFER), main.fbo)
        glPixelStorei(E(GL_PACK_ALIGNMENT), 1)
        out.withUnsafeMutableBytes { glReadPixels(0, 0, GLsizei(main.width), GLsizei(main.height), E(GL_RGBA), E(GL_UNSIGNED_BYTE), $0.baseAddress) }
        glCheck("readPixels")
    }

    func execute(_ frame: RenderFrame, into mainFBO: GLuint, flip: Float, stats: inout RenderStats) throws {
        for img in frame.retiredTextures { textures.removeValue(forKey: ObjectIdentifier(img)) }
        glBindVertexArray(vao)
        for p in pipelines { try p.upload(frame, on: self, stats: &stats) }
        uploadClips(frame.clips)
        uploadReplicas(frame)
        var tex: [GLTexture] = []
        tex.reserveCapacity(frame.textures.count)
        for img in frame.textures { tex.append(try self.texture(for: img, stats: &stats)) }
        // Offscreen targets from the pool, by size; released at the end of the frame.
        var targets: [GLRenderTarget] = []
        var taken: [SIMD2<Int>: Int] = [:]
        /// Rasterised targets whose kept texture is reused: their passes are skipped.
        var reusedTargets = Set<Int>()
        for t in frame.targets {
            if t.cacheKey != 0 {
                let (target, reused) = try rasterTarget(t, stats: &stats)
                if reused { reusedTargets.insert(targets.count) }
                targets.append(target)
                continue
            }
            let key = SIMD2(t.textureWidth, t.textureHeight)
            let n = taken[key, default: 0]
            var list = pool[key, default: []]
            if n >= list.count { list.append(try GLRenderTarget(width: key.x, height: key.y)); pool[key] = list }
            targets.append(list[n])
            taken[key] = n + 1
            poolLastUsed[key] = frameNumber
        }
        func rect(_ id: TargetID) -> SIMD4<Float> {
            switch id {
            case .main: return SIMD4(0, 0, Float(frame.width), Float(frame.height))
            case .offscreen(let i): let t = frame.targets[i]; return SIMD4(Float(t.x), Float(t.y), Float(t.width), Float(t.height))
            }
        }
        func texture(of id: TargetID) -> GLTexture? {
            if case .offscreen(let i) = id { return targets[i].texture }
            return nil
        }
        let bindings = GLBatchBindings(textures: tex, target: texture(of:), frame: frame)
        // Unit 0 holds the clip table for every draw. Bound here, after the ramp upload and the
        // texture and target creation above: each binds its own texture to unit 0, and the clip
        // lookups then read that texture (a first frame with new offscreen targets, or any
        // frame with a gradient, was clipped by garbage).
        glActiveTexture(E(GL_TEXTURE0))
        if let clipTexture { glBindTexture(E(GL_TEXTURE_2D), clipTexture.id) }
        glEnable(E(GL_BLEND))
        glBlendFunc(E(GL_ONE), E(GL_ONE_MINUS_SRC_ALPHA))
        glDisable(E(GL_DEPTH_TEST))
        glDisable(E(GL_CULL_FACE))
        for pass in frame.passes {
            if case .offscreen(let i) = pass.target, !reusedTargets.isEmpty, Self.isReused(i, frame.targets, reusedTargets) { continue }
            // The main pass draws opaque interiors into depth first and tests every instance
            // against them: what a later opaque layer covers is not shaded (no blending
            // changes: those pixels end as the opaque layer's colour either way).
            var prepass: [BoxInstance] = []
            var orderScale: Float = 0
            var kind = pass.kind
            var clearColor = frame.clearColor
            // An opaque first box over the whole target becomes the clear colour
            // (`GLRenderer+BackgroundClear.swift`).
            if pass.target == .main, pass.clears, case .draw(let batches) = kind {
                let (rest, fill) = Self.backgroundAsClear(frame, batches, viewport: rect(.main))
                if let fill { kind = .draw(rest); clearColor = fill; stats.backgroundClears += 1 }
            }
            if pass.target == .main, usesDepthPrepass, case .draw(let batches) = kind {
                (prepass, orderScale) = Self.opaqueInteriors(frame, batches)
            }
            // Opaque transform-layer planes with depths of their own (`GLRenderer+DepthPlanes.swift`).
            var planeSpans: [Int32: SIMD2<Float>] = [:]
            if pass.target == .main, case .draw(let batches) = kind, Self.hasDepthPlanes(batches) {
                if orderScale == 0 { orderScale = 2 / Float(batches.reduce(0) { $0 + Self.instancesDrawn($1, frame) } + 1) }
                planeSpans = Self.depthPlaneSpans(frame, batches, orderScale: orderScale)
            }
            let depthTested = !prepass.isEmpty || !planeSpans.isEmpty
            let fbo: GLuint
            let vp = rect(pass.target)
            let passFlip: Float
            // Texels of the pass target: frame pixels, or fewer for a downscaled target.
            var texels = SIMD2(Float(frame.width), Float(frame.height))
            switch pass.target {
            case .main: fbo = mainFBO; passFlip = flip
            case .offscreen(let i):
                fbo = targets[i].fbo; passFlip = 1
                texels = SIMD2(Float(frame.targets[i].textureWidth), Float(frame.targets[i].textureHeight))
            }
            glBindFramebuffer(E(GL_FRAMEBUFFER), fbo)
            glViewport(0, 0, GLsizei(texels.x), GLsizei(texels.y))
            switch kind {
            case .draw(let batches):
                let c = pass.target == .main ? clearColor : .zero
                glClearColor(c.x, c.y, c.z, c.w)
                // A pass that continues its target (split at a compositing or background
                // filter, `RenderPass.clears`) keeps the colour drawn so far.
                let colorBit = pass.clears ? GL_COLOR_BUFFER_BIT : 0
                if !depthTested {
                    if pass.clears { glClear(GLbitfield(GL_COLOR_BUFFER_BIT)) }
                } else {
                    glClearDepth(1)
                    glDepthMask(GLboolean(GL_TRUE))
                    glClear(GLbitfield(colorBit | GL_DEPTH_BUFFER_BIT))
                    if !prepass.isEmpty { try drawPrepass(prepass, viewport: vp, flip: passFlip, orderScale: orderScale, stats: &stats) }
                    if !planeSpans.isEmpty {
                        stats.depthTestedPlanes += try drawDepthPlaneInteriors(frame, batches, spans: planeSpans, viewport: vp, flip: passFlip, stats: &stats)
                    }
                    glEnable(E(GL_DEPTH_TEST))
                    glDepthFunc(E(GL_LEQUAL))
                    glDepthMask(GLboolean(GL_FALSE))
                }
                func plane(_ b: Batch) -> (DepthPlane, SIMD2<Float>)? {
                    guard b.depthPlane >= 0, Int(b.depthPlane) < frame.depthPlanes.count else { return nil }
                    let p = frame.depthPlanes[Int(b.depthPlane)]
                    return planeSpans[p.group].map { (p, $0) }
                }
                var order = 0, i = 0
                while i < batches.count {
                    guard let first = plane(batches[i]) else {
                        try draw(batches[i], viewport: vp, flip: passFlip, bindings,
                                 orderBase: depthTested ? Float(order) : 0, orderScale: depthTested ? orderScale : 0, stats: &stats)
                        order += Self.instancesDrawn(batches[i], frame)
                        i += 1
                        continue
                    }
                    // A transform layer's planes (consecutive batches of one group): their opaque
                    // pixels first, writing depth, then their fringes blended over them
                    // (box.frag's `u_planeFringe`), so the order the planes come in decides no
                    // pixel where they cross.
                    var j = i
                    while j < batches.count, let p = plane(batches[j]), p.0.group == first.0.group { j += 1 }
                    let start = order
                    for phase: Int32 in [1, 2] {
                        glDepthMask(GLboolean(phase == 1 ? GL_TRUE : GL_FALSE))
                        order = start
                        for k in i..<j {
                            try draw(batches[k], viewport: vp, flip: passFlip, bindings, orderBase: Float(order), orderScale: orderScale,
                                     plane: plane(batches[k]), planeFringe: phase, stats: &stats)
                            order += Self.instancesDrawn(batches[k], frame)
                        }
                    }
                    glDepthMask(GLboolean(GL_FALSE))
                    i = j
                }
                if depthTested { glDisable(E(GL_DEPTH_TEST)) }
            case .blur(let source, let sigma, let horizontal):
                guard let src = texture(of: source) else { throw GLBackendError("blur source \(source) is not offscreen") }
                glDisable(E(GL_BLEND))
                blur.use()
                bindTexture(src, unit: 1, filter: .linear)
                blur.set("u_source", int: 1)
                blur.set("u_sigma", max(sigma, 0.01))
                blur.set("u_step", horizontal ? SIMD2(1 / texels.x, 0) : SIMD2(0, 1 / texels.y))
                blur.set("u_viewport", vp)
                blur.set("u_flip", 1)
                glDrawArrays(E(GL_TRIANGLES), 0, 3)
                stats.drawCalls += 1
                stats.vertices += 3
                glEnable(E(GL_BLEND))
            case .filter(let source, let op):
                guard let src = texture(of: source) else { throw GLBackendError("filter source \(source) is not offscreen") }
                try runFilter(op, source: src, other: texture(of:), viewport: vp, texels: texels, stats: &stats)
            case .copy(let source):
                let srcFBO: GLuint
                switch source {
                case .main: srcFBO = mainFBO
                case .offscreen(let i): srcFBO = targets[i].fbo
                }
                runCopy(from: srcFBO, srcRect: rect(source), srcFlip: source == .main ? flip : 1, into: fbo, dst: vp, texels: texels)
            }
            glCheck("pass \(pass.target)")
            if case .offscreen(let i) = pass.target, frame.targets[i].cacheKey != 0 { rasterTargetDrawn(frame.targets[i], targets[i]) }
        }
    }

    /// `planeFringe`: a depth plane's phase (box.frag's `u_planeFringe`; 0 outside a plane run).
    func draw(_ b: Batch, viewport: SIMD4<Float>, flip: Float, _ bindings: GLBatchBindings, orderBase: Float = 0,
              orderScale: Float = 0, plane: (DepthPlane, SIMD2<Float>)? = nil, planeFringe: Int32 = 0, stats: inout RenderStats) throws {
        let pipeline = pipelines[RenderFrame.lane(of: b.pipeline.kind)]
        let program = try pipeline.prepare(b, bindings, on: self)
        program.use()
        if b.variant.contains(.planeDepth) { program.set("u_planeFringe", int: planeFringe) }
        if let (p, span) = plane {
            Self.setDepthPlane(program, p, span: span, bias: Self.depthPlaneBias(span))
        } else if b.variant.contains(.planeDepth) {
            // Not in a main pass (never built so): the plane at depth 0, as without a depth test.
            Self.setDepthPlane(program, DepthPlane(numerator: .zero, denominator: SIMD4(0, 0, 1, 0), group: 0), span: .zero, bias: 0)
        }
        program.set("u_viewport", viewport)
        program.set("u_flip", flip)
        program.set("u_clips", int: Self.clipTextureUnit)
        program.set("u_orderBase", orderBase)
        program.set("u_orderScale", orderScale)
        let additive = b.variant.contains(.additive), replace = b.variant.contains(.replace)
        if additive { glBlendFunc(E(GL_ONE), E(GL_ONE)) }
        if replace { glBlendFunc(E(GL_ONE), E(GL_ZERO)) }
        // A replicated box draws its copies from one instance (`+Replicas.swift`); other
        // batches draw as their pipeline says (a particle run: `count` quads per record).
        let drawn: (draws: Int, instances: Int)
        if b.replica >= 0 {
            let instances = bindReplicas(b, program, bindings.frame, stats: &stats)
            glDrawArraysInstanced(E(GL_TRIANGLE_STRIP), 0, 4, GLsizei(instances))
            drawn = (1, instances)
        } else {
            drawn = pipeline.drawInstances(b)
        }
        if additive || replace { glBlendFunc(E(GL_ONE), E(GL_ONE_MINUS_SRC_ALPHA)) }
        stats.drawCalls += drawn.draws
        stats.vertices += 4 * drawn.instances
        glCheck("draw \(b.pipeline)")
    }

    func bindTexture(_ t: GLTexture, unit: Int32, filter: TextureFilter) {
        glActiveTexture(E(GL_TEXTURE0 + unit))
        glBindTexture(E(GL_TEXTURE_2D), t.id)
        switch filter {
        case .nearest:
            glTexParameteri(E(GL_TEXTURE_2D), E(GL_TEXTURE_MIN_FILTER), GL_NEAREST)
            glTexParameteri(E(GL_TEXTURE_2D), E(GL_TEXTURE_MAG_FILTER), GL_NEAREST)
        case .linear:
            glTexParameteri(E(GL_TEXTURE_2D), E(GL_TEXTURE_MIN_FILTER), GL_LINEAR)
            glTexParameteri(E(GL_TEXTURE_2D), E(GL_TEXTURE_MAG_FILTER), GL_LINEAR)
        case .trilinear:
            t.ensureMipmaps()
            glTexParameteri(E(GL_TEXTURE_2D), E(GL_TEXTURE_MIN_FILTER), GL_LINEAR_MIPMAP_LINEAR)
            glTexParameteri(E(GL_TEXTURE_2D), E(GL_TEXTURE_MAG_FILTER), GL_LINEAR)
        }
        glActiveTexture(E(GL_TEXTURE0))
    }

    // MARK: Per-frame data

    func uploadClips(_ clips: [ClipShape]) {
        var data: [Float] = []
        data.reserveCapacity(clips.count * 20)
        for c in clips {
            let i = c.inverse
            data += [Float(i.r0.x), Float(i.r0.y), Float(i.r0.z), c.continuous ? 1 : 0,
                     Float(i.r1.x), Float(i.r1.y), Float(i.r1.z), 0,
                     Float(i.r2.x), Float(i.r2.y), Float(i.r2.z), 0]
            data += [c.rect.x, c.rect.y, c.rect.z, c.rect.w, c.radii.x, c.radii.y, c.radii.z, c.radii.w]
        }
        if clipTexture == nil || clipTexture!.height < clips.count {
            clipTexture = GLTexture(width: 5, height: max(64, clips.count * 2), internalFormat: GL_RGBA32F, format: GL_RGBA, type: GL_FLOAT)
        }
        glActiveTexture(E(GL_TEXTURE0 + Self.clipTextureUnit))
        glBindTexture(E(GL_TEXTURE_2D), clipTexture!.id)
        glTexParameteri(E(GL_TEXTURE_2D), E(GL_TEXTURE_MIN_FILTER), GL_NEAREST)
        glTexParameteri(E(GL_TEXTURE_2D), E(GL_TEXTURE_MAG_FILTER), GL_NEAREST)
        data.withUnsafeBytes {
            glTexSubImage2D(E(GL_TEXTURE_2D), 0, 0, 0, 5, GLsizei(clips.count), E(GL_RGBA), E(GL_FLOAT), $0.baseAddress)
        }
        glActiveTexture(E(GL_TEXTURE0))
        glCheck("clip table")
    }

    /// The texture of an image, uploaded once and kept while frames use it. Images larger
    /// than `maxTextureSize` are downscaled to fit (box filter), with a warning.
    func texture(for img: CGImage, stats: inout RenderStats) throws -> GLTexture {
        let id = ObjectIdentifier(img)
        if var c = textures[id] {
            c.lastUsed = frameNumber
            textures[id] = c
            return c.texture
        }
        var w = img.width, h = img.height
        var bytes = img.rgba8Bytes
        if w > maxTextureSize || h > maxTextureSize {
            let (ow, oh) = (w, h)
            (bytes, w, h) = ImageDownscale.fit(bytes, width: w, height: h, maxSide: maxTextureSize)
            warn("image \(ow)×\(oh) exceeds the texture size limit \(maxTextureSize): downscaled to \(w)×\(h)")
        }
        let t = bytes.withUnsafeBytes { GLTexture(width: w, height: h, pixels: $0.baseAddress) }
        stats.textureUploads += 1
        stats.textureUploadBytes += w * h * 4
        textures[id] = CachedTexture(image: img, texture: t, lastUsed: frameNumber)
        return t
    }

    /// Textures not used for 120 frames are freed (pooled targets: `evictIdlePooledTargets`). Past
    /// `textureBudgetBytes` of cached images, those this frame did not use go at once: a layer
    /// that redraws every frame (an animated `needsDisplay(forKey:)` property) makes a new image
    /// each frame, and 120 frames of a full-screen drawing would be a gigabyte of textures.
    func evictUnused() {
        if frameNumber % 60 == 0 {
            textures = textures.filter { frameNumber - $0.value.lastUsed < 120 }
        }
        if cachedImageTextureBytes > Self.textureBudgetBytes {
            textures = textures.filter { $0.value.lastUsed == frameNumber }
        }
    }

    /// Bytes of the image textures cached now (for tests of `evictUnused`).
    package var cachedImageTextureBytes: Int {
        textures.values.reduce(0) { $0 + $1.texture.width * $1.texture.height * 4 }
    }

    /// Cached image textures kept beyond the current frame's (see `evictUnused`): 256 MiB.
    static let textureBudgetBytes = 256 << 20
}
