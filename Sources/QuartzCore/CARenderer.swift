import CoreGraphics
import CoreAnimation
import CARender
import CAOpenGL
import CASoftware
import CASurfaces
import Dispatch

/// Renders a layer tree with OpenGL, as Apple's `CARenderer` does, into an offscreen target
/// made by `init(offscreenSize:scale:)` (an extension: Apple's initialisers take a CGL context
/// or a Metal texture). One frame is `beginFrame(atTime:timeStamp:)`, `render()`, `endFrame()`;
/// `makeImage()` then reads the pixels back.
///
/// Deviations, documented: the whole target is redrawn each frame (`addUpdate(_:)` and
/// `updateBounds()` track the damaged area, but `render()` does not restrict drawing to it),
/// and `timeStamp` is accepted and ignored (frame time comes from `atTime`).
public final class CARenderer {
    /// The root of the tree to draw. Its `frame` places it in the renderer's `bounds`.
    public var layer: CALayer?
    /// The area of the layer space drawn, in points; the target is `bounds.size × scale` pixels.
    public var bounds: CGRect {
        didSet { addUpdate(bounds) }
    }
    /// Pixels per point (HiDPI output). Extension beyond Apple's API. Changes only through
    /// `resizeDrawable(pixelWidth:pixelHeight:scale:)` (a window moved to another monitor).
    public internal(set) var scale: CGFloat
    /// Premultiplied colour the target is cleared to before each frame; transparent by
    /// default. Extension beyond Apple's API.
    public var clearColor: CGColor? = nil
    /// What the last frame cost. Extension beyond Apple's API.
    public private(set) var statistics = RenderStats()
    /// The last frame as the backend received it (a text-dumpable description of passes and
    /// batches). For this package's tests and tools only: the frame format is not public API.
    package private(set) var lastFrame: RenderFrame?

    /// Bytes of image textures the backend holds (for this package's tests).
    package var cachedImageTextureBytes: Int { software?.cachedImageTextureBytes ?? backend.cachedImageTextureBytes }
    /// Its own headless EGL context, or a context someone else owns (a window's).
    var context: any RendererContext
    /// The GL backend; nil while the CPU backend draws (`CARenderer+Backend.swift`).
    let backend: GLRenderer!
    /// The CPU backend (issue 22), when `activeBackend` is `.software`.
    var software: SoftwareRenderer?
    var backendReason = ""
    package let builder = RenderTreeBuilder()
    var pixelWidth: Int
    var pixelHeight: Int
    /// Set for a renderer made by `init(drawableSize:scale:makeContextCurrent:)`: each frame is
    /// copied into the framebuffer bound when `render()` was called.
    var presentsToBoundFramebuffer = false
    var boundFramebuffer: UInt32 = 0
    var frameTime: CFTimeInterval?
    var inFrame = false
    var rendered = false
    var damage = CGRect.null
    /// See `options`.
    var currentOptions = Options()

    /// The largest target side accepted (a server must not be asked for a 1M×1M frame).
    public static let maxPixelSize = 16_384

    /// An offscreen renderer of `offscreenSize` points at `scale` pixels per point, through
    /// headless EGL (`EGLHeadlessContext`: device platform, then surfaceless Mesa, then
    /// pbuffer). Throws for empty, non-finite or oversized sizes, and when no OpenGL 3.3
    /// context can be made (the error says what to install).
    /// Uses the default `Options` (every EGL platform in turn); tools that honour
    /// `CA_EGL_PLATFORM` and the other variables pass `Options(environment:)`.
    public convenience init(offscreenSize: CGSize, scale: CGFloat = 1) throws {
        try self.init(offscreenSize: offscreenSize, scale: scale, maxTextureSize: nil, options: Options())
    }

    /// `init(offscreenSize:scale:)` with the texture size limit lowered for this renderer only
    /// (`GLRenderer.init(maxTextureSize:)`), so tests can check how oversized images are
    /// handled without a process-wide setting. Package API.
    package convenience init(offscreenSize: CGSize, scale: CGFloat = 1, maxTextureSize: Int?, options: Options = Options()) throws {
        try self.init(size: offscreenSize, scale: scale, maxTextureSize: maxTextureSize, options: options, presents: false) {
            try EGLHeadlessContext(platforms: options.platformChoices)
        }
    }

    /// Checks the size, makes (and makes current) the context with `makeContext`, and the
    /// backend in it.
    init(size offscreenSize: CGSize, scale: CGFloat, maxTextureSize: Int?, options: Options, presents: Bool,
         makeContext: () throws -> any RendererContext) throws {
        guard offscreenSize.width.isFinite, offscreenSize.height.isFinite, scale.isFinite, scale > 0 else {
            throw CARendererError.invalidSize("offscreenSize \(offscreenSize) at scale \(scale) is not finite and positive")
        }
        // Checked before converting to Int: a finite 1e300 would trap in Int(_:).
        let fw = (offscreenSize.width * scale).rounded(), fh = (offscreenSize.height * scale).rounded()
        guard fw > 0, fh > 0 else { throw CARendererError.invalidSize("offscreenSize \(offscreenSize) at scale \(scale) has no pixels") }
        guard fw <= CGFloat(Self.maxPixelSize), fh <= CGFloat(Self.maxPixelSize) else {
            func show(_ v: CGFloat) -> String { v < 1e15 ? String(Int(v)) : "\(v)" }
            throw CARendererError.invalidSize("\(show(fw))×\(show(fh)) pixels exceeds the limit of \(Self.maxPixelSize) per side")
        }
        let w = Int(fw), h = Int(fh)
        do {
            (context, backend, software, backendReason) = try Self.makeBackends(
                options: options, maxTextureSize: maxTextureSize, presents: presents, makeContext: makeContext)
        } catch let e as SurfaceError {
            throw CARendererError.noContext(e.description)
        } catch let e as GLBackendError {
            throw CARendererError.backend(e.description)
        }
        guard software != nil || (w <= backend.maxTextureSize && h <= backend.maxTextureSize) else {
            throw CARendererError.invalidSize("\(w)×\(h) pixels exceeds GL_MAX_TEXTURE_SIZE \(backend.maxTextureSize)")
        }
        pixelWidth = w
        pixelHeight = h
        self.scale = scale
        bounds = CGRect(origin: .zero, size: offscreenSize)
        currentOptions = options
        backend?.warn = { RenderDiagnostics.warn($0) }
        software?.warn = { RenderDiagnostics.warn($0) }
        if options.checksGLErrors { GLDiagnostics.retainReleaseChecks() }
        applyOptions()
        installOpenGLLayerDrawing()  // CAOpenGLLayer's hooks (CARenderer+OpenGLLayer.swift)
    }

    deinit {
        if currentOptions.checksGLErrors { GLDiagnostics.releaseReleaseChecks() }
    }

    /// Starts a frame at media time `t`: commits the implicit transaction and runs the timing
    /// engine's frame step at `t` (delegate callbacks, removals, completion blocks), with
    /// `CACurrentMediaTime()` reading `t` meanwhile, so animations added since the last frame
    /// begin at `t` and the same tree at the same times gives the same frames.
    public func beginFrame(atTime t: CFTimeInterval, timeStamp: UnsafeMutablePointer<CVTimeStamp>? = nil) {
        guard t.isFinite else {
            RenderDiagnostics.warn("CARenderer.beginFrame(atTime:) with a non-finite time: frame skipped")
            return
        }
        frameTime = t
        inFrame = true
        rendered = false
        CAMediaClock.withFrameTime(t) {
            CATransaction.flush()
            TimingEngine.step(to: t)
        }
    }

    /// Adds a rectangle (layer space) to the area to redraw this frame.
    public func addUpdate(_ r: CGRect) { damage = damage.union(r) }

    /// The area that changed since the last frame and the accumulated updates; the whole
    /// `bounds` while anything animates (damage is tracked coarsely).
    public func updateBounds() -> CGRect {
        let animating = nextFrameTime() <= (frameTime ?? 0)
        return animating ? bounds : damage.intersection(bounds)
    }

    /// Draws the layer tree into the target. Errors (a GL error, a lost context) are thrown by
    /// `renderChecked()`; this Apple-shaped method logs them and leaves `makeImage()` to throw.
    public func render() {
        do { try renderChecked() } catch { RenderDiagnostics.warn("CARenderer.render(): \(error)") }
    }

    var lastError: Error?

    /// `render()` that throws. Extension beyond Apple's API. After a failure `makeImage()`
    /// throws the same error until a frame renders: a failed frame never reads back as a
    /// black or stale image.
    public func renderChecked() throws {
        do {
            try renderFrame()
            if presentsToBoundFramebuffer { try presentToBoundFramebuffer() }
        } catch {
            lastError = error
            rendered = false
            throw error
        }
    }

    func renderFrame() throws {
        guard inFrame, let t = frameTime else { throw CARendererError.notInFrame("render() called outside beginFrame/endFrame") }
        lastError = nil
        do {
            try context.makeCurrent()
        } catch let e as SurfaceError {
            guard fallBackToSoftware(after: e) else {
                throw CARendererError.noContext("the renderer's OpenGL context cannot be made current (lost or destroyed): \(e.description)")
            }
        }
        if presentsToBoundFramebuffer { boundFramebuffer = backend.drawFramebufferBinding() }
        let clear = clearColor.map { c -> SIMD4<Float> in
            let v = c.rgba
            return SIMD4(Float(v.red * v.alpha), Float(v.green * v.alpha), Float(v.blue * v.alpha), Float(v.alpha))
        } ?? .zero
        // Nothing changed since the last frame (no commit, nothing animating, same root, bounds
        // and clear colour): the target already holds this picture, so neither the render tree
        // nor GL is touched. Static scenes cost nothing per frame.
        // Other threads' commits to this tree join this thread's commit log first; the tree
        // remembers which thread renders it, and that thread reads layers from now on
        // (`CrossThreadMutation`).
        let stack = TransactionStack.current
        stack.noteRendersLayers()
        if let root = layer, root.renderingStack !== stack { root.renderingStack = stack }
        stack.absorbForeignCommits()
        let key = FrameKey(root: layer.map(ObjectIdentifier.init), bounds: bounds, clear: clear,
                           generation: stack.commitGeneration, stack: ObjectIdentifier(stack))
        let animating = TimingEngine.hasActiveAnimations()
        // The frame after the last animation ended must still be drawn (the end state).
        // (A frame with particles changes with time alone: `dependsOnTime`.)
        let timeDependent = builder.dependsOnTime
        if lastKey == key, !animating, !lastFrameAnimated, lastFrame != nil, !timeDependent {
            var stats = RenderStats()
            stats.reusedFrame = true
            statistics = stats
            rendered = true
            return
        }
        // Nothing committed since the last frame, only animations moved: re-emit just the
        // animated layers (and those whose animations ended this step) into the last frame:
        // a plain leaf's box, or another layer's subtree in place.
        let animatedNow = animating ? TimingEngine.animatedLayers() : []
        let changed: [CALayer]
        if Self.sameLayers(animatedNow, lastAnimated) {
            // The usual frame of a running animation: the same layers as the last one, in the
            // engine's order, and none that stopped; no set of 10k identifiers to build.
            changed = animatedNow
        } else {
            let nowIDs = Set(animatedNow.map(ObjectIdentifier.init))
            changed = animatedNow + lastAnimated.filter { !nowIDs.contains(ObjectIdentifier($0)) }
        }
        lastAnimated = animatedNow
        // Commits since the last frame changed only some layers: those are patched too when the
        // last frame recorded them and their structure held (`RenderTreeBuilder.patch`).
        // (nil: no last frame of the same view, or the log no longer reaches back to it.)
        let committed: [ObjectIdentifier]? = lastKey.flatMap { last in
            guard last.showsSameView(as: key) else { return nil }
            return last.generation == key.generation ? [] : TimingEngine.layersCommitted(since: last.generation)
        }
        let canPatch = committed != nil && lastFrame != nil && layer != nil && !timeDependent
        lastKey = nil
        var frame: RenderFrame
        var stats: RenderStats
        let start = DispatchTime.now().uptimeNanoseconds
        // The builder patches its copy of the last frame in place: this one would make it copy
        // every instance array first (the frame is set again below).
        if canPatch { lastFrame = nil }
        // The build reads the layer tree: other threads' changes to it wait until it ends.
        stack.beginSetUse()
        if canPatch, let patched = CAMediaClock.withFrameTime(t, { builder.patch(changed, committed: committed ?? []) }) {
            (frame, stats) = patched
            unusedRecordBuilds = 0
        } else if let root = layer {
            // Subtree records serve the next frame's patch. Where frames do not patch (content
            // that changes with time alone; a Lottie layer whose every layer changes each frame),
            // no frame uses them: after `unusedRecordBuildsBeforeSkipping` recorded builds
            // followed by no patch they are made only every `recordingProbeInterval`th build,
            // which finds when patching pays again (issue 23: 7 % of a Lottie burst's
            // instructions).
            if lastBuildRecorded { unusedRecordBuilds += 1 }
            let records = currentOptions.patchesSubtrees
                && (unusedRecordBuilds < Self.unusedRecordBuildsBeforeSkipping || buildsWithoutRecords + 1 >= Self.recordingProbeInterval)
            builder.recordsSubtrees = records
            lastBuildRecorded = records
            buildsWithoutRecords = records ? 0 : buildsWithoutRecords + 1
            (frame, stats) = CAMediaClock.withFrameTime(t) {
                builder.build(root: root, width: pixelWidth, height: pixelHeight, scale: Double(scale),
                              origin: SIMD2(Double(bounds.minX), Double(bounds.minY)), clearColor: clear)
            }
        } else {
            frame = RenderFrame(width: pixelWidth, height: pixelHeight)
            frame.clearColor = clear
            frame.passes = [RenderPass(target: .main, kind: .draw([]))]
            stats = RenderStats()
        }
        stack.endSetUse()
        let mid = DispatchTime.now().uptimeNanoseconds
        try execute(frame, stats: &stats)
        builder.recycleUploads(of: &frame)
        let end = DispatchTime.now().uptimeNanoseconds
        stats.buildSeconds = Double(mid - start) * 1e-9
        stats.glSeconds = Double(end - mid) * 1e-9
        statistics = stats
        lastFrame = frame
        rendered = true
        lastKey = key
        lastFrameAnimated = animating
    }

    /// The same layers in the same order.
    static func sameLayers(_ a: [CALayer], _ b: [CALayer]) -> Bool {
        guard a.count == b.count else { return false }
        return a.withUnsafeBufferPointer { x in
            b.withUnsafeBufferPointer { y in
                for i in 0..<x.count where x[i] !== y[i] { return false }
                return true
            }
        }
    }

    /// What decides whether the last frame can be reused.
    struct FrameKey: Equatable {
        var root: ObjectIdentifier?
        var bounds: CGRect
        var clear: SIMD4<Float>
        var generation: UInt64
        /// The thread that rendered: generations count that thread's commits.
        var stack: ObjectIdentifier

        /// Same root, bounds, clear colour and thread: only commits can have changed the picture.
        func showsSameView(as o: FrameKey) -> Bool { root == o.root && bounds == o.bounds && clear == o.clear && stack == o.stack }
    }
    var lastKey: FrameKey?
    var lastFrameAnimated = false
    /// Whether the last whole build made subtree records, how many recorded builds in a row were
    /// followed by no patch (the frame after built whole too), and how many builds since one
    /// recorded.
    var lastBuildRecorded = false
    var unusedRecordBuilds = 0
    var buildsWithoutRecords = 0
    static let unusedRecordBuildsBeforeSkipping = 2
    static let recordingProbeInterval = 8
    /// Whether the last whole build made subtree records (tests).
    package var lastBuildMadeSubtreeRecords: Bool { lastBuildRecorded }
    /// The layers animated at the last frame (their end state must be drawn once more).
    var lastAnimated: [CALayer] = []

    /// The media time of the next frame that would differ: `t` of this frame while animations
    /// run, infinity when nothing animates.
    public func nextFrameTime() -> CFTimeInterval {
        guard let t = frameTime else { return .infinity }
        return TimingEngine.hasActiveAnimations() ? t : .infinity
    }

    /// Ends the frame; the damage is cleared.
    public func endFrame() {
        inFrame = false
        damage = .null
    }

    /// The pixels of the last rendered frame, premultiplied RGBA8, sRGB. Extension beyond
    /// Apple's API. Throws if no frame was rendered or the last render failed.
    public func makeImage() throws -> CGImage {
        if let e = lastError { throw e }
        guard rendered else { throw CARendererError.notInFrame("makeImage() before a frame was rendered") }
        do {
            try context.makeCurrent()
        } catch let e as SurfaceError {
            throw CARendererError.noContext("the renderer's OpenGL context cannot be made current (lost or destroyed): \(e.description)")
        }
        // The array the last image was made from is read into again once that image is gone
        // (a caller that encodes each frame and lets it go: no fresh megabytes, and no page
        // faults, a frame; issue 23). While the image lives, a new array: the image's bytes never
        // change. (Should its bytes be held elsewhere, `rgba8Bytes`, writing copies them first.)
        // The CPU backend's frame is handed out as it lies (`SoftwareRenderer.frameBytes`: the
        // next frame is drawn into a copy while this image lives).
        if let software, let bytes = software.frameBytes() {
            guard let img = CGImage(width: pixelWidth, height: pixelHeight, rgba8Bytes: bytes, premultiplied: true) else {
                throw CARendererError.backend("readback of \(pixelWidth)×\(pixelHeight) failed")
            }
            return img
        }
        if readBackImage != nil { readBackBytes = [] }
        try readFrameBytes(into: &readBackBytes)
        guard let img = CGImage(width: pixelWidth, height: pixelHeight, rgba8Bytes: readBackBytes, premultiplied: true) else {
            throw CARendererError.backend("readback of \(pixelWidth)×\(pixelHeight) failed")
        }
        readBackImage = img
        return img
    }

    /// The bytes of the image `makeImage()` returned last, and that image while it lives.
    private var readBackBytes: [UInt8] = []
    private weak var readBackImage: CGImage?

    /// Waits until the GPU has executed the frame (`glFinish`), for benchmarks that time the
    /// GPU's share. Extension beyond Apple's API.
    public func waitUntilCompleted() throws {
        try context.makeCurrent()
        if software == nil { backend.finish() }
    }

    // MARK: Test hooks (package only)

    /// Makes the next frame hit a GL error (see `GLRenderer.injectsGLErrorOnNextFrame`).
    package func injectGLErrorForTesting() {
        backend?.injectsGLErrorOnNextFrame = true
        lastKey = nil   // the next frame must really be drawn
    }

    /// Makes the renderer act as on a driver that rejects the particle shader (`reason`), then
    /// re-applies the options, as `evaluatesParticlesOnGPU` does after a failed compile.
    package func rejectParticleProgramForTesting(_ reason: String) {
        backend?.particleProbe = .some(reason)
        applyOptions()
    }

    /// Whether the GL backend's fragment programs branch around work (`GLRenderer.branchesCheaply`,
    /// set from `GL_RENDERER`); tests force it to compare both programs on any driver.
    package var branchesCheaplyForTesting: Bool {
        get { backend?.branchesCheaply ?? false }
        set { backend?.branchesCheaply = newValue; lastKey = nil }
    }

    /// Destroys the EGL context, as a lost context leaves the renderer.
    package func destroyContextForTesting() { context.destroyForTesting() }

    /// EGL platform, device and GL strings of this renderer's context. Extension beyond Apple's API.
    public var contextInfo: [String: String] { context.info.merging(backend?.info ?? [:]) { a, _ in a } }
}

/// Why a `CARenderer` could not be made or could not render. Extension beyond Apple's API.
public enum CARendererError: Error, CustomStringConvertible {
    /// The offscreen size or scale is empty, negative, not finite, or over the size limits.
    case invalidSize(String)
    /// No OpenGL 3.3 context could be made (the message says what to install), or the
    /// renderer's context can no longer be made current: lost (a GPU reset, `EGL_CONTEXT_LOST`)
    /// or destroyed. A lost context does not come back; make a new `CARenderer`.
    case noContext(String)
    /// OpenGL reported an error while rendering or reading back (named in the message); the
    /// frame is discarded and `makeImage()` throws until a frame renders.
    case backend(String)
    /// `render()` outside `beginFrame`/`endFrame`, or `makeImage()` before a frame rendered.
    case notInFrame(String)

    public var description: String {
        switch self {
        case .invalidSize(let s): return "invalid size: \(s)"
        case .noContext(let s): return "no OpenGL context: \(s)"
        case .backend(let s): return "OpenGL backend: \(s)"
        case .notInFrame(let s): return s
        }
    }
}

/// Core Video's display timestamp, declared so Apple's `beginFrame(atTime:timeStamp:)`
/// signature compiles; the renderer does not read it.
public struct CVTimeStamp: Sendable {
    public var version: UInt32 = 0
    public var videoTimeScale: Int32 = 0
    public var videoTime: Int64 = 0
    public var hostTime: UInt64 = 0
    public var rateScalar: Double = 0
    public var videoRefreshPeriod: Int64 = 0
    public var flags: UInt64 = 0
    public var reserved: UInt64 = 0
    public init() {}
}
