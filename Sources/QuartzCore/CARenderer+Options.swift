import CASurfaces
import Foundation

extension CARenderer {
    /// How a renderer goes about drawing: speed switches, diagnostics and the EGL platform.
    /// Extension beyond Apple's API (Apple's `CARenderer` has none of these choices). No option
    /// changes what a frame shows — the frame tests prove each switch draws the same pixels, except
    /// `usesGlyphAtlas`, whose glyph coverage is FreeType's rather than the bitmap's — so they
    /// exist to compare speed, to find a driver problem, or to pick a platform.
    ///
    /// The library never reads the process environment; tools map their environment onto
    /// options with `init(environment:)` (the variables are listed in docs/CARENDER.md,
    /// "Environment"), and tests set options directly.
    public struct Options: Sendable, Equatable {
        /// A headless EGL platform (`EGL_EXT_platform_device`, `EGL_MESA_platform_surfaceless`,
        /// or a pbuffer on the default display).
        public enum EGLPlatform: String, Sendable, CaseIterable {
            case device, surfaceless, pbuffer
        }

        /// The platforms an offscreen renderer tries, in order, for its context; the first that
        /// gives OpenGL 3.3 core wins. Default: device, surfaceless, pbuffer.
        public var eglPlatforms: [EGLPlatform] = EGLPlatform.allCases
        /// Opaque interiors are drawn into depth first, front to back, so pixels a later
        /// opaque layer covers are never shaded (−47 % on the 10k opaque-rect scene, llvmpipe).
        public var usesDepthPrepass = true
        /// Small images share atlas pages, so a thousand image layers draw in a few batches.
        public var usesImageAtlas = true
        /// `CATextLayer` text is drawn as glyph quads sampling a glyph atlas (FreeType coverage
        /// at the pixel size the frame shows; text larger than `GlyphEmitter.maxPixelSize` on
        /// screen as filled outlines through the shape pipeline) instead of the layer's
        /// backing-store bitmap (docs/TEXT.md "Glyph atlas"). On by default (issue 20): glyph
        /// coverage differs from the bitmap's by antialiasing rounding only, and text stays
        /// crisp at any transform scale. Off: every text layer shows its backing store.
        /// `display()` still draws the backing store (layers the atlas cannot draw use it).
        public var usesGlyphAtlas = true
        /// A layer that changes is re-emitted with its subtree into the last frame instead of
        /// rebuilding the frame (off: only plain leaves are patched).
        public var patchesSubtrees = true
        /// Whether a `CAReplicatorLayer` whose copy 0 is one box (a background with its border)
        /// has its copies drawn by the GL backend as one instanced draw from that box, each
        /// copy's placement and tint a row of a small table (issue 21), instead of one box per
        /// copy built on the CPU and uploaded. `nil` (the default): on a hardware driver, off on
        /// a software rasteriser (`softwareGLDrivers`: llvmpipe runs the vertex stage, the
        /// table lookups included, on one core, and that costs more than building the copies in
        /// Swift, docs/PERFORMANCE.md). The CPU backend always builds the copies. The same
        /// pixels either way, within the backend parity rule.
        public var usesGPUReplicas: Bool? = nil
        /// Whether a stroke whose `lineWidth` animates between bounds known from its animations
        /// (`CABasicAnimation` from/to/by, `CAKeyframeAnimation` values, their timing curves) is
        /// drawn from one width-free raster wide enough for the widest width, instead of one per
        /// power-of-two bucket of the current width. One raster keeps every such shape in the
        /// batch it started in: per-bucket rasters are made in the frame a width crosses into the
        /// next bucket, and 1,000 stars whose animations cross in different frames split into
        /// 1,001 draws (docs/PERFORMANCE.md "lineWidth"; one raster: 29). The price is the widest band in
        /// every frame. `nil` (the default): on for the GL backend, where a draw costs more than
        /// a band; off for the CPU backend, which has no draws to save. The same pixels either
        /// way (the stroke is cut at the current width in both).
        public var drawsAnimatedWidthsFromOneRaster: Bool? = nil
        /// `glGetError` after each GL call site even in release builds (debug builds always
        /// check). The check stalls the pipeline; for finding a driver or backend problem. It
        /// is process-wide while a renderer with it on lives: the check sits on the GL call path.
        public var checksGLErrors = false
        /// Whether the GL backend computes emitter particles from one record per emission run
        /// (issue 21: the constant-rate top-level cells of a layer; `ParticleEmitter+Runs.swift`)
        /// instead of the CPU simulating each particle and uploading it. `nil` (the default):
        /// on a hardware driver, off on a software rasteriser (`softwareGLDrivers`: there the
        /// vertex shader runs on the CPU and costs more than the Swift simulation,
        /// docs/PERFORMANCE.md). The CPU backend always simulates. The same particles either way.
        public var usesGPUParticles: Bool? = nil
        /// Which backend draws (`CARenderer.Backend`); fixed when the renderer is made. Default
        /// `.automatic`: OpenGL on a GPU, the CPU backend where GL would be Mesa's software
        /// rasteriser (in an optimised build: there the CPU backend is faster than llvmpipe on
        /// every benchmark scene, docs/PERFORMANCE.md "The default backend") or no EGL display
        /// exists. Tests that compare with GL's recorded goldens name `.openGL`. Extension
        /// beyond Apple's API, like every option here.
        public var backend: Backend = .automatic
        /// Whether the CPU backend gets plain shape rasters (fills and strokes without a field)
        /// as runs and draws them from those where a raster maps one texel per pixel
        /// (`ShapeCoverageSpans`, issue 23), instead of dense texels. The same pixels either
        /// way. Package-only (`CA_SHAPE_RUNS=0` turns it off), for tests and benchmarks to
        /// compare.
        package var drawsShapesFromRuns = true
        /// Threads that make a frame's plain shape rasters (those drawn from runs) after the
        /// walk that places them, instead of each where the walk reaches it (issue 23: the
        /// rasters are independent, and rlottie makes its paths' on every core). `nil` (the
        /// default): the CPU backend's threads; 1 turns it off. The same pixels either way, to
        /// rounding (the raster's box is fixed before it is made). Package-only
        /// (`CA_SHAPE_THREADS=N`), for tests and benchmarks to compare.
        package var shapeRasterThreads: Int? = nil
        /// `GL_RENDERER` substrings that make `.automatic` choose the CPU backend (Mesa's software
        /// rasterisers). Package-only: tests empty it to get an automatic renderer on GL.
        package var softwareGLDrivers = ["llvmpipe", "softpipe", "swrast"]
        /// Whether this build's CPU backend is compiled with optimisation. An unoptimised (debug)
        /// build's CPU backend is far slower than llvmpipe (the demo through `carender render`:
        /// 23.9 s against 1.23 s on GL), so there `.automatic` keeps OpenGL on a software driver
        /// and takes the CPU backend only where no EGL display exists. Package-only: tests set it
        /// to check the optimised build's choice in a debug build.
        package var cpuBackendIsOptimised: Bool = {
            #if DEBUG
            return false
            #else
            return true
            #endif
        }()

        /// The entry of `softwareGLDrivers` that a `GL_RENDERER` string names, if any: what
        /// `.automatic` and the GPU-path switches (`usesGPUParticles`, `usesGPUReplicas`, the
        /// interior early-out) all decide by.
        package func softwareGLDriver(named renderer: String) -> String? {
            let name = renderer.lowercased()
            return softwareGLDrivers.first { name.contains($0) }
        }

        /// The defaults: everything on, every platform in turn, no GL error checks in release,
        /// the automatic backend.
        public init() {}

        /// The defaults with `backend` chosen: `CARenderer(offscreenSize: size, options:
        /// .init(backend: .software))`. Extension beyond Apple's API.
        public init(backend: Backend) {
            self.backend = backend
        }

        /// Options from environment variables, as the command-line tools read them:
        /// `CA_EGL_PLATFORM` (`device`, `surfaceless` or `pbuffer`: only that one),
        /// `CA_DEPTH_PREPASS=0`, `CA_IMAGE_ATLAS=0`, `CA_SUBTREE_PATCH=0` (turn the switch off),
        /// `CA_GLYPH_ATLAS=0` (text layers show their backing-store bitmaps), `CA_GL_CHECK=1` (GL error checks),
        /// `CA_GPU_REPLICAS=1`/`0` and `CA_GPU_PARTICLES=1`/`0` (`usesGPUReplicas`,
        /// `usesGPUParticles` on/off; unset: automatic), `CA_WIDTH_RASTER_SPANS=1`/`0`
        /// (`drawsAnimatedWidthsFromOneRaster`). Throws for an unknown platform name.
        public init(environment: [String: String] = ProcessInfo.processInfo.environment) throws {
            self.init()
            if let p = environment["CA_EGL_PLATFORM"], !p.isEmpty {
                guard let forced = EGLPlatform(rawValue: p) else {
                    throw CARendererError.noContext("CA_EGL_PLATFORM=\(p) is not one of device, surfaceless, pbuffer (unset it to try each in turn)")
                }
                eglPlatforms = [forced]
            }
            usesDepthPrepass = environment["CA_DEPTH_PREPASS"] != "0"
            usesImageAtlas = environment["CA_IMAGE_ATLAS"] != "0"
            usesGlyphAtlas = environment["CA_GLYPH_ATLAS"] != "0"
            patchesSubtrees = environment["CA_SUBTREE_PATCH"] != "0"
            checksGLErrors = environment["CA_GL_CHECK"] == "1"
            usesGPUReplicas = Self.tristate(environment["CA_GPU_REPLICAS"])
            usesGPUParticles = Self.tristate(environment["CA_GPU_PARTICLES"])
            drawsAnimatedWidthsFromOneRaster = Self.tristate(environment["CA_WIDTH_RASTER_SPANS"])
            drawsShapesFromRuns = environment["CA_SHAPE_RUNS"] != "0"
            shapeRasterThreads = environment["CA_SHAPE_THREADS"].flatMap { Int($0) }.map { min(max($0, 1), 64) }
            if let b = environment["CA_BACKEND"], !b.isEmpty { backend = try Backend(name: b) }
        }

        /// `1` on, `0` off, anything else (unset included) automatic.
        static func tristate(_ value: String?) -> Bool? {
            switch value {
            case "1": return true
            case "0": return false
            default: return nil
            }
        }

        var platformChoices: [EGLPlatformChoice] {
            eglPlatforms.compactMap { EGLPlatformChoice(rawValue: $0.rawValue) }
        }
    }

    /// An offscreen renderer with `options` (see `init(offscreenSize:scale:)`). Extension
    /// beyond Apple's API.
    public convenience init(offscreenSize: CGSize, scale: CGFloat = 1, options: Options) throws {
        try self.init(offscreenSize: offscreenSize, scale: scale, maxTextureSize: nil, options: options)
    }

    /// The options this renderer was made with, as changed since. The speed switches can be
    /// changed between frames (the next frame is built anew); the platform is the context's.
    public var options: Options {
        get { currentOptions }
        set {
            currentOptions.usesDepthPrepass = newValue.usesDepthPrepass
            currentOptions.usesImageAtlas = newValue.usesImageAtlas
            currentOptions.usesGlyphAtlas = newValue.usesGlyphAtlas
            currentOptions.patchesSubtrees = newValue.patchesSubtrees
            currentOptions.usesGPUReplicas = newValue.usesGPUReplicas
            currentOptions.usesGPUParticles = newValue.usesGPUParticles
            currentOptions.drawsAnimatedWidthsFromOneRaster = newValue.drawsAnimatedWidthsFromOneRaster
            currentOptions.drawsShapesFromRuns = newValue.drawsShapesFromRuns
            currentOptions.shapeRasterThreads = newValue.shapeRasterThreads
            applyOptions()
        }
    }

    /// Hands the speed switches to the backend and the builder.
    func applyOptions() {
        backend?.usesDepthPrepass = currentOptions.usesDepthPrepass
        backend?.branchesCheaply = !runsOnSoftwareGLDriver
        builder.usesImageAtlas = currentOptions.usesImageAtlas
        builder.usesGlyphAtlas = currentOptions.usesGlyphAtlas
        builder.recordsSubtrees = currentOptions.patchesSubtrees
        // Opaque transform-layer planes through the depth buffer: the GL backend has one.
        builder.usesPlaneDepth = software == nil
        // Replicas drawn instanced: the GL backend has them (the CPU backend draws boxes).
        builder.usesGPUReplicas = evaluatesReplicasOnGPU
        builder.usesParticleRuns = evaluatesParticlesOnGPU
        builder.widthRastersSpanAnimations = currentOptions.drawsAnimatedWidthsFromOneRaster ?? (software == nil)
        builder.makesShapeRuns = software != nil && currentOptions.drawsShapesFromRuns
        builder.shapeRasterThreads = currentOptions.shapeRasterThreads ?? software?.threads ?? 1
        lastKey = nil   // the next frame is built and drawn anew
    }
}

extension CARenderer {
    /// Whether frames hand emission runs to the GL backend (`Options.usesGPUParticles`): never on
    /// the CPU backend; forced by the option; otherwise on unless `GL_RENDERER` names a
    /// software rasteriser.
    /// A driver that cannot compile the particle program (`GLRenderer.particleProgramProblem`)
    /// keeps the CPU simulation, with one warning naming the reason.
    var evaluatesParticlesOnGPU: Bool {
        guard software == nil, let backend else { return false }
        guard currentOptions.usesGPUParticles ?? !runsOnSoftwareGLDriver else { return false }
        if backend.particleProbe == nil, (try? context.makeCurrent()) == nil { return false }
        if let problem = backend.particleProgramProblem() {
            RenderDiagnostics.warn("emitter particles are simulated on the CPU: the GL driver rejected the particle shader (\(problem))")
            return false
        }
        return true
    }

    /// Whether replicator copies are drawn instanced by the GL backend
    /// (`Options.usesGPUReplicas`): never on the CPU backend; forced by the option; otherwise on
    /// unless `GL_RENDERER` names a software rasteriser.
    var evaluatesReplicasOnGPU: Bool {
        guard software == nil else { return false }
        return currentOptions.usesGPUReplicas ?? !runsOnSoftwareGLDriver
    }

    /// `GL_RENDERER` names one of `Options.softwareGLDrivers` (llvmpipe, softpipe, swrast).
    var runsOnSoftwareGLDriver: Bool {
        currentOptions.softwareGLDriver(named: backend?.info["renderer"] ?? "") != nil
    }
}
