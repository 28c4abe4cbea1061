import CoreGraphics
import CARender
import CAFrame
import CAOpenGL
import CASoftware
import CASurfaces

// The backend choice (issue 22): the same `RenderFrame` executed by OpenGL (`GLRenderer`) or
// on the CPU (`SoftwareRenderer`, module CASoftware). Extension beyond Apple's API.

extension CARenderer {
    /// Which backend executes a renderer's frames. Extension beyond Apple's API (Apple's
    /// `CARenderer` always draws with the GPU context it is given).
    public enum Backend: String, Sendable, Equatable, CaseIterable {
        /// The CPU backend where OpenGL would run in software anyway (`GL_RENDERER` names
        /// llvmpipe, softpipe or swrast; in an optimised build, since a debug build's CPU
        /// backend is slower than llvmpipe) or no EGL display can be made; OpenGL otherwise. A
        /// renderer on `automatic` whose GL context is lost draws on with the CPU backend (one
        /// warning) instead of failing its frames.
        case automatic
        /// OpenGL 3.3 core through headless EGL (or a window's context).
        case openGL
        /// The CPU backend: no EGL, no GL; every core draws bands of the frame.
        case software
    }

    /// The backend that draws this renderer's frames now (`.openGL` or `.software`, never
    /// `.automatic`), and why it was chosen. Extension beyond Apple's API.
    public var activeBackend: (backend: Backend, reason: String) { (software == nil ? .openGL : .software, backendReason) }

    /// The context, GL backend and CPU backend for `options.backend`. `makeContext` is not
    /// called for an offscreen `.software` renderer (a CPU renderer needs no EGL display). A
    /// renderer that `presents` into a window's framebuffer always has the window's context and
    /// a GL backend, which presents the frames; where the CPU backend is chosen it draws them.
    static func makeBackends(options: Options, maxTextureSize: Int?, presents: Bool,
                             makeContext: () throws -> any RendererContext)
        throws -> (any RendererContext, GLRenderer?, SoftwareRenderer?, String) {
        let choice = options.backend
        if choice == .software, !presents {
            return (SoftwareRendererContext(reason: "chosen"), nil, SoftwareRenderer(), "Options.backend is .software")
        }
        let context: any RendererContext
        do {
            context = try makeContext()
        } catch let e as SurfaceError where choice == .automatic && !presents {
            RenderDiagnostics.warn("no EGL display for OpenGL (\(e.description)): drawing with the CPU backend")
            return (SoftwareRendererContext(reason: "no EGL display"), nil, SoftwareRenderer(), "automatic: no EGL display (\(e.description))")
        }
        // Decided from GL_RENDERER before the GL backend compiles its programs: offscreen on
        // llvmpipe the context is only asked its name and dropped.
        let name = GLRenderer.currentRendererName() ?? ""
        let drawsOnCPU: Bool, reason: String
        switch choice {
        case .software: (drawsOnCPU, reason) = (true, "Options.backend is .software")
        case .openGL: (drawsOnCPU, reason) = (false, "Options.backend is .openGL")
        case .automatic:
            let named = "automatic: GL_RENDERER \"\(name)\""
            if let driver = options.softwareGLDriver(named: name) {
                // A debug build's CPU backend loses to llvmpipe (Options.cpuBackendIsOptimised).
                drawsOnCPU = options.cpuBackendIsOptimised
                reason = drawsOnCPU ? "\(named) is a software driver (\(driver))"
                    : "\(named) is a software driver (\(driver)), but this build's CPU backend is unoptimised (a debug build) and slower than it: OpenGL"
            } else {
                (drawsOnCPU, reason) = (false, "\(named) is a hardware driver")
            }
        }
        if presents {
            // A window's renderer keeps the window's context and a GL backend to present with.
            return (context, try GLRenderer(maxTextureSize: maxTextureSize), drawsOnCPU ? SoftwareRenderer() : nil,
                    drawsOnCPU ? reason + "; frames presented through the window's OpenGL context" : reason)
        }
        if drawsOnCPU { return (SoftwareRendererContext(reason: "software GL"), nil, SoftwareRenderer(), reason) }
        return (context, try GLRenderer(maxTextureSize: maxTextureSize), nil, reason)
    }

    /// A renderer on `.automatic` whose GL context cannot be made current (lost, destroyed)
    /// switches to the CPU backend with one warning and returns true; otherwise false.
    func fallBackToSoftware(after error: SurfaceError) -> Bool {
        guard currentOptions.backend == .automatic, software == nil, !presentsToBoundFramebuffer else { return false }
        RenderDiagnostics.warn("the OpenGL context is lost (\(error.description)): drawing with the CPU backend from now on")
        let s = SoftwareRenderer()
        s.warn = { RenderDiagnostics.warn($0) }
        software = s
        context = SoftwareRendererContext(reason: "GL context lost")
        backendReason = "automatic: the OpenGL context was lost (\(error.description))"
        lastKey = nil
        builder.usesPlaneDepth = false   // the CPU backend splits intersecting planes
        builder.usesGPUReplicas = false  // and draws every replicated copy as a box
        builder.usesParticleRuns = false  // and simulates particles
        builder.widthRastersSpanAnimations = currentOptions.drawsAnimatedWidthsFromOneRaster ?? false  // and has no draws to save
        builder.makesShapeRuns = currentOptions.drawsShapesFromRuns  // and draws plain rasters from runs
        builder.shapeRasterThreads = currentOptions.shapeRasterThreads ?? s.threads  // made on its threads
        builder.forgetShapeRasters()  // its atlas holds none of the rasters uploaded to GL
        return true
    }

    /// Executes `frame` on the active backend.
    func execute(_ frame: RenderFrame, stats: inout RenderStats) throws {
        if let software {
            do { try software.render(frame, stats: &stats) } catch let e as SoftwareBackendError { throw CARendererError.backend(e.description) }
            return
        }
        do { try backend.render(frame, stats: &stats) } catch let e as GLBackendError { throw CARendererError.backend(e.description) }
    }

    /// Premultiplied RGBA8 of the last frame from the active backend, top row first.
    func readFrameBytes() throws -> [UInt8] {
        var bytes: [UInt8] = []
        try readFrameBytes(into: &bytes)
        return bytes
    }

    /// `readFrameBytes()` into `bytes`, in place when it has the frame's size.
    func readFrameBytes(into bytes: inout [UInt8]) throws {
        if let software { software.readPixels(into: &bytes); return }
        backend.readPixels(into: &bytes)
        do { try backend.checkError("reading the frame back") } catch let e as GLBackendError { throw CARendererError.backend(e.description) }
    }
}

/// The stand-in context of a renderer drawing with the CPU backend: nothing to make current.
final class SoftwareRendererContext: RendererContext {
    let info: [String: String]
    init(reason: String) { info = ["backend": "software"] }
    func makeCurrent() throws {}
    func destroyForTesting() {}
}

extension CARenderer.Backend {
    /// A backend by its command-line name: `gl`/`opengl`, `cpu`/`software`, `auto`/`automatic`
    /// (`CA_BACKEND`, carender's `--backend`). Throws for another name.
    public init(name: String) throws {
        switch name.lowercased() {
        case "gl", "opengl": self = .openGL
        case "cpu", "software": self = .software
        case "auto", "automatic": self = .automatic
        default: throw CARendererError.noContext("backend \(name) is not one of gl, cpu, auto")
        }
    }
}
