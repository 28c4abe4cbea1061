internal import CGLFW
internal import CEGL
import QuartzCore
import Foundation

/// A desktop window (GLFW 3.3, OpenGL 3.3+ core) that shows a layer tree at the display's
/// refresh rate, through the same `CARenderer` and GL backend as the headless path. Extension
/// beyond Apple's API: on Apple platforms a `CALayer` is shown by a view or window of AppKit or
/// UIKit; this type plays that part on Linux.
///
/// - The window's `layer` fills the window: on resize its frame becomes the window's bounds in
///   points (with actions disabled, as AppKit resizes a view's backing layer), and its
///   `contentsScale` follows the window's content scale (HiDPI: pixels per point).
/// - `run()` is the display loop: each frame polls events (delivered to `eventHandler`), fires
///   the display links (`displayLink(_:)`, or any `CADisplayLink` added to the main run loop while the
///   window is open), commits the implicit transaction, runs the timing engine's frame step,
///   renders and swaps with vsync; `statistics` collects frame times and dropped frames.
/// - The close button and Escape (`closesOnEscape`) close it; `close()` may be called at any
///   time, from a display link or event handler too (the window closes when that frame ends).
///
/// GLFW wants its calls on one thread, the main one (it requires it on macOS), so the type is
/// main-actor isolated: every GLFW call is made on the main actor. In an app that is the main
/// thread. Under `swift test` on Linux the main actor's serial executor runs on another thread;
/// GLFW's X11 backend accepts that, since its calls never overlap and the GL context is made
/// current before each frame. Without a display, `init` throws `WindowError.noDisplay`.
@MainActor
public final class LayerWindow {
    /// How a window is made. Extension beyond Apple's API.
    public struct Configuration {
        public var title = "Core Animation"
        /// The window's size in points (pixels = points × content scale).
        public var size = CGSize(width: 640, height: 360)
        public var resizable = true
        /// Swap interval 1: each swap waits for the display's refresh. Without it (or where the
        /// driver ignores it, as under Xvfb) the loop sleeps to the refresh rate itself.
        public var vsync = true
        /// Shown on screen. Hidden windows still render (tests).
        public var visible = true
        /// Pixels per point; nil: the monitor's content scale (GLFW: Xft.dpi ÷ 96 on X11).
        public var contentScale: CGFloat? = nil
        /// Refresh rate in Hz; nil: the primary monitor's video mode (60 if it reports none).
        public var refreshRate: Double? = nil
        /// Frame times advance exactly one refresh interval per frame from `simulatedStartTime`
        /// instead of following the clock, and the loop never sleeps: display-link ticks and
        /// frames are deterministic (tests, recordings). Nil: real time.
        public var simulatedStartTime: CFTimeInterval? = nil
        /// Which API makes the OpenGL context: GLX first, then EGL (`.automatic`), or one.
        public var contextAPI = ContextAPI.automatic
        /// Escape requests closing, as the close button does.
        public var closesOnEscape = true
        /// `statistics` is printed to standard output when the window closes.
        public var printsStatisticsOnClose = false
        /// Colour the window is cleared to behind the layer (premultiplied); opaque black by default.
        public var clearColor: CGColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
        /// Which backend draws the frames (`CARenderer.Options.backend`): by default automatic,
        /// the CPU backend where the window's OpenGL is a software rasteriser (llvmpipe under
        /// Xvfb) and OpenGL on a GPU. The window's context presents the frames either way.
        public var backend: CARenderer.Backend = .automatic

        public init() {}
    }

    /// The window system API for the OpenGL context.
    public enum ContextAPI: Sendable {
        /// GLX, and EGL when no GLX context can be made (an X server without GLX).
        case automatic
        case glx
        case egl
    }

    /// The layer tree shown; it fills the window.
    public var layer: CALayer? {
        didSet {
            renderer.layer = layer
            fitLayer()
        }
    }
    /// Receives events on the main thread (see `WindowEvent`).
    public var eventHandler: ((WindowEvent) -> Void)?
    /// The renderer drawing into this window (the headless renderer's code path).
    public let renderer: CARenderer
    /// Frame times and dropped frames so far.
    public private(set) var statistics: FrameStatistics
    /// The window's size in points.
    public private(set) var size: CGSize
    /// Pixels per point.
    public private(set) var contentsScale: CGFloat
    /// The display's refresh rate the loop runs at.
    public let refreshRate: Double
    /// Whether the window was closed (or is closing at the end of this frame).
    public var isClosed: Bool { handleBox.handle == nil || closePending }
    /// The OpenGL context's API (GLX or EGL), version and renderer strings.
    public let contextInfo: [String: String]

    public let configuration: Configuration
    let handleBox: HandleBox
    private let driver: DisplayLinkDriver
    private var pacer: FramePacer
    var pendingEvents: [WindowEvent] = []
    var pressedButtons: [Int] = []
    var resizePending = false
    private var inFrame = false
    private var closePending = false
    private var closeRequestedThisFrame = false

    /// Opens a window titled `title` of `size` points.
    public convenience init(title: String = "Core Animation", size: CGSize = CGSize(width: 640, height: 360)) throws {
        var c = Configuration()
        c.title = title
        c.size = size
        try self.init(configuration: c)
    }

    /// Opens a window. Throws `WindowError.noDisplay` without a display, `.noContext` when the
    /// display cannot give an OpenGL 3.3 core context.
    public init(configuration: Configuration) throws {
        let c = configuration
        guard c.size.width.isFinite, c.size.height.isFinite, c.size.width >= 1, c.size.height >= 1,
              c.size.width <= 16_384, c.size.height <= 16_384 else {
            throw WindowError.renderer("window size \(c.size) must be finite, at least 1×1 and at most 16384 points per side")
        }
        if let s = c.contentScale, !(s.isFinite && s > 0 && s <= 8) {
            throw WindowError.renderer("contentScale \(s) must be finite, > 0 and ≤ 8")
        }
        try GLFWRuntime.initialize()
        let monitorScale: CGFloat = {
            guard let m = glfwGetPrimaryMonitor() else { return 1 }
            var sx: Float = 1, sy: Float = 1
            glfwGetMonitorContentScale(m, &sx, &sy)
            return sx.isFinite && sx > 0 ? CGFloat(sx) : 1
        }()
        let wantedScale = c.contentScale ?? monitorScale
        let apis: [ContextAPI] = c.contextAPI == .automatic ? [.glx, .egl] : [c.contextAPI]
        var failures: [String] = []
        var made: (OpaquePointer, ContextAPI)?
        for api in apis {
            glfwDefaultWindowHints()
            glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3)
            glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3)
            glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE)
            glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE)
            glfwWindowHint(GLFW_CONTEXT_CREATION_API, api == .egl ? GLFW_EGL_CONTEXT_API : GLFW_NATIVE_CONTEXT_API)
            glfwWindowHint(GLFW_RESIZABLE, c.resizable ? GLFW_TRUE : GLFW_FALSE)
            glfwWindowHint(GLFW_VISIBLE, c.visible ? GLFW_TRUE : GLFW_FALSE)
            glfwWindowHint(GLFW_DOUBLEBUFFER, GLFW_TRUE)
            glfwWindowHint(GLFW_RED_BITS, 8); glfwWindowHint(GLFW_GREEN_BITS, 8); glfwWindowHint(GLFW_BLUE_BITS, 8)
            _ = GLFWRuntime.takeError()
            // On X11 window coordinates are pixels: ask for points × scale.
            let w = Int32((c.size.width * wantedScale).rounded()), h = Int32((c.size.height * wantedScale).rounded())
            if let win = glfwCreateWindow(max(w, 1), max(h, 1), c.title, nil, nil) {
                made = (win, api)
                break
            }
            failures.append("\(api == .egl ? "EGL" : "GLX"): \(GLFWRuntime.describeLastError("glfwCreateWindow failed"))")
        }
        guard let (handle, api) = made else {
            throw WindowError.noContext("no OpenGL 3.3 core window context (\(failures.joined(separator: "; "))); "
                + "the X server needs GLX (or EGL for X11) and a Mesa or vendor driver: apt-get install -y libgl1-mesa-dri libglx-mesa0 libegl-mesa0")
        }
        let box = HandleBox(handle: handle, usesEGL: api == .egl)
        handleBox = box
        self.configuration = c
        glfwMakeContextCurrent(handle)
        glfwSwapInterval(c.vsync ? 1 : 0)
        let rate: Double = c.refreshRate ?? {
            guard let m = glfwGetPrimaryMonitor(), let mode = glfwGetVideoMode(m), mode.pointee.refreshRate > 0 else { return 60 }
            return Double(mode.pointee.refreshRate)
        }()
        refreshRate = rate.isFinite && rate >= 1 ? rate : 60
        pacer = FramePacer(refreshRate: refreshRate)
        statistics = FrameStatistics(refreshInterval: 1 / refreshRate)
        driver = DisplayLinkDriver(refreshRate: refreshRate)
        let m = Self.measure(handle, override: c.contentScale)
        size = m.points
        contentsScale = m.scale
        do {
            renderer = try CARenderer(drawableSize: m.points, scale: m.scale, contextInfo: ["api": api == .egl ? "EGL" : "GLX"],
                                      options: .init(backend: c.backend)) {
                try LayerWindow.makeCurrent(box)
            }
            try renderer.resizeDrawable(pixelWidth: m.pixelWidth, pixelHeight: m.pixelHeight, scale: m.scale)
        } catch {
            glfwDestroyWindow(handle)
            box.handle = nil
            throw WindowError.noContext("\(error)")
        }
        renderer.clearColor = c.clearColor
        contextInfo = renderer.contextInfo
        // Unmanaged: GLFW's user pointer is a void* (the C API, not a speed choice); unretained,
        // as the window owns the handle and destroys it before it goes.
        glfwSetWindowUserPointer(handle, Unmanaged.passUnretained(self).toOpaque())
        installCallbacks(handle)
        if CADisplayLinkSources.main == nil { CADisplayLinkSources.main = driver }
    }

    isolated deinit {
        destroy()
    }

    // MARK: Display links

    /// A display link driven by this window's frames (as macOS 14's `NSView.displayLink(target:
    /// selector:)` ties a link to the view's display). Start it with `add(to: .main, forMode:
    /// .common)` as on Apple platforms. Any `CADisplayLink` added to the main run loop while this
    /// is the first open window follows its frames too. Extension beyond Apple's API.
    public func displayLink(_ handler: @escaping (CADisplayLink) -> Void) -> CADisplayLink {
        let link = CADisplayLink(handler)
        link.displaySource = driver
        link.nativeFramesPerSecond = refreshRate
        return link
    }

    /// The media time the next frame will be shown at (its display links' `targetTimestamp`):
    /// the time for changes made in event handlers, such as pausing with Apple's recipe.
    public var nextFrameTime: CFTimeInterval {
        if let t = configuration.simulatedStartTime { return (pacer.lastPresent ?? t) + pacer.interval }
        return pacer.frameTimes(now: Self.clock()).targetTimestamp
    }

    /// The display links this window drives now.
    public var displayLinks: [CADisplayLink] { driver.links }

    // MARK: Frames

    /// Runs the display loop until the window closes.
    public func run() {
        while !isClosed {
            do {
                _ = try runFrame()
            } catch WindowError.closed {
                break
            } catch {
                FileHandle.standardError.write(Data("LayerWindow: \(error)\n".utf8))
                break
            }
        }
    }

    /// Runs `count` frames of the display loop (fewer if the window closes). Extension for
    /// tests and tools.
    public func run(frames count: Int) throws {
        for _ in 0..<max(count, 0) where !isClosed { _ = try runFrame() }
    }

    /// One turn of the display loop: poll events and deliver them, fire display links, commit,
    /// step, render, swap, pace. Returns false once the window has closed.
    @discardableResult
    public func runFrame() throws -> Bool {
        guard let handle = handleBox.handle else { throw WindowError.closed }
        let workStart = Self.clock()
        inFrame = true
        defer {
            inFrame = false
            if closePending { destroy() }
        }
        glfwPollEvents()
        deliverEvents()
        if closePending { return false }
        if resizePending { applyResize(handle) }
        if renderer.pixelSize.width == 0 || size.width <= 0 { return true }
        let now = configuration.simulatedStartTime.map { pacer.lastPresent == nil ? $0 : pacer.lastPresent! } ?? Self.clock()
        let (timestamp, target) = pacer.frameTimes(now: now)
        CAMediaClock.withFrameTime(timestamp) {
            CATransaction.flush()
            TimingEngine.step(to: timestamp)
        }
        driver.fire(timestamp: timestamp, interval: pacer.interval)
        if closePending { return false }
        try drawFrame(atTime: target)
        let work = Self.clock() - workStart
        glfwSwapBuffers(handle)
        let previous = pacer.lastPresent
        let swapped = configuration.simulatedStartTime != nil ? target : Self.clock()
        let (present, sleepUntil) = pacer.frameSwapped(now: swapped)
        if configuration.simulatedStartTime == nil, let until = sleepUntil { Self.sleep(until: until) }
        statistics.record(interval: previous.map { present - $0 }, work: work,
                          build: renderer.statistics.buildSeconds, gl: renderer.statistics.glSeconds)
        statistics.droppedFrames = pacer.droppedFrames
        return true
    }

    /// Commits, steps the timing engine to media time `t` and renders the layer into the
    /// window's back buffer, without swapping: `readPixels()` then returns what the next
    /// `swapBuffers()` shows. Extension for tests and tools (pinned-time frames).
    public func drawFrame(atTime t: CFTimeInterval) throws {
        guard handleBox.handle != nil else { throw WindowError.closed }
        renderer.beginFrame(atTime: t)
        defer { renderer.endFrame() }
        do { try renderer.renderChecked() } catch { throw WindowError.renderer("\(error)") }
    }

    /// The window's back buffer after `drawFrame(atTime:)`: premultiplied RGBA8, top row first.
    public func readPixels() throws -> CGImage {
        guard handleBox.handle != nil else { throw WindowError.closed }
        do { return try renderer.readPresentedPixels() } catch { throw WindowError.renderer("\(error)") }
    }

    /// Shows the back buffer (waits for the display's refresh with vsync).
    public func swapBuffers() throws {
        guard let handle = handleBox.handle else { throw WindowError.closed }
        glfwSwapBuffers(handle)
    }

    // MARK: Size

    /// Resizes the window to `size` points (the layer follows on the next frame, or at once
    /// with `processEvents()`).
    public func setSize(_ newSize: CGSize) throws {
        guard let handle = handleBox.handle else { throw WindowError.closed }
        guard newSize.width.isFinite, newSize.height.isFinite, newSize.width >= 1, newSize.height >= 1,
              newSize.width <= 16_384, newSize.height <= 16_384 else {
            throw WindowError.renderer("window size \(newSize) must be finite and between 1 and 16384 points per side")
        }
        let ratio = Self.windowToPixels(handle)
        glfwSetWindowSize(handle, Int32((newSize.width * contentsScale / ratio).rounded()), Int32((newSize.height * contentsScale / ratio).rounded()))
        resizePending = true
    }

    /// Polls and delivers pending events and applies a pending resize, without drawing.
    public func processEvents(waitingUpTo seconds: Double = 0) throws {
        guard let handle = handleBox.handle else { throw WindowError.closed }
        if seconds > 0 { glfwWaitEventsTimeout(seconds) } else { glfwPollEvents() }
        deliverEvents()
        if resizePending, handleBox.handle != nil { applyResize(handle) }
        if closePending, !inFrame { destroy() }
    }

    // MARK: Closing

    /// Closes the window: at once outside a frame, at the end of the frame when called from a
    /// display link or event handler. Safe to call more than once.
    public func close() {
        guard handleBox.handle != nil else { return }
        closePending = true
        if !inFrame { destroy() }
    }

    /// Keeps the window open after `WindowEvent.closeRequested` (call it from the handler).
    public func cancelClose() {
        guard let handle = handleBox.handle else { return }
        glfwSetWindowShouldClose(handle, GLFW_FALSE)
        closePending = false
    }

    /// Releases the OpenGL context current on this thread (a window's), so a headless
    /// `CARenderer` can make its EGL context current: glvnd lets one thread have a GLX or an
    /// EGL context current, not both. The window makes its context current again by itself.
    public static func releaseCurrentContext() {
        if GLFWRuntime.isInitialised { glfwMakeContextCurrent(nil) }
    }

    private func destroy() {
        guard let handle = handleBox.handle else { return }
        handleBox.handle = nil
        closePending = false
        glfwSetWindowUserPointer(handle, nil)
        if CADisplayLinkSources.main === driver { CADisplayLinkSources.main = nil }
        driver.removeAll()
        glfwDestroyWindow(handle)
        if configuration.printsStatisticsOnClose { print(statistics) }
    }

    // MARK: Internals

    /// The handle, shared with the renderer's make-current closure, which must fail once the
    /// window is gone.
    final class HandleBox {
        var handle: OpaquePointer?
        let usesEGL: Bool
        init(handle: OpaquePointer, usesEGL: Bool) { self.handle = handle; self.usesEGL = usesEGL }
    }

    nonisolated static func makeCurrent(_ box: HandleBox) throws {
        guard let h = box.handle else { throw WindowError.closed }
        // glvnd refuses a GLX context while an EGL one (a headless renderer's) is current.
        if !box.usesEGL, eglGetCurrentContext() != nil {
            eglMakeCurrent(eglGetCurrentDisplay(), nil, nil, nil)
        }
        _ = GLFWRuntime.takeError()
        glfwMakeContextCurrent(h)
        if let e = GLFWRuntime.takeError() {
            throw WindowError.noContext("the window's context cannot be made current: \(e.text)")
        }
    }

    struct Measure {
        var points: CGSize
        var pixelWidth: Int
        var pixelHeight: Int
        var scale: CGFloat
    }

    /// Framebuffer pixels per window coordinate (1 on X11, 2 on a Retina Mac).
    static func windowToPixels(_ h: OpaquePointer) -> CGFloat {
        var fw: Int32 = 0, fh: Int32 = 0, ww: Int32 = 0, wh: Int32 = 0
        glfwGetFramebufferSize(h, &fw, &fh)
        glfwGetWindowSize(h, &ww, &wh)
        return ww > 0 && fw > 0 ? CGFloat(fw) / CGFloat(ww) : 1
    }

    static func measure(_ h: OpaquePointer, override: CGFloat?) -> Measure {
        var fw: Int32 = 0, fh: Int32 = 0
        glfwGetFramebufferSize(h, &fw, &fh)
        var sx: Float = 1, sy: Float = 1
        glfwGetWindowContentScale(h, &sx, &sy)
        let ratio = windowToPixels(h)
        let scale = override ?? (ratio != 1 ? ratio : (sx.isFinite && sx > 0 ? CGFloat(sx) : 1))
        return Measure(points: CGSize(width: CGFloat(fw) / scale, height: CGFloat(fh) / scale),
                       pixelWidth: Int(fw), pixelHeight: Int(fh), scale: scale)
    }

    private func applyResize(_ handle: OpaquePointer) {
        resizePending = false
        let m = Self.measure(handle, override: configuration.contentScale)
        guard m.pixelWidth > 0, m.pixelHeight > 0 else { return }   // minimised: keep the last size
        guard m.pixelWidth != renderer.pixelSize.width || m.pixelHeight != renderer.pixelSize.height || m.scale != contentsScale else { return }
        do {
            try renderer.resizeDrawable(pixelWidth: m.pixelWidth, pixelHeight: m.pixelHeight, scale: m.scale)
        } catch {
            FileHandle.standardError.write(Data("LayerWindow: resize to \(m.pixelWidth)×\(m.pixelHeight) ignored: \(error)\n".utf8))
            return
        }
        // Mesa's software GLX (Xvfb, llvmpipe) reallocates a window's buffers at a swap, not
        // when the window is resized: swap once (showing the last frame again) so the next
        // frame is drawn at the new size rather than clipped to the old one.
        if (try? Self.makeCurrent(handleBox)) != nil { glfwSwapBuffers(handle) }
        size = m.points
        contentsScale = m.scale
        fitLayer()
        eventHandler?(.resized(size: size, scale: contentsScale))
    }

    /// The layer fills the window; its contentsScale follows the window's (no implicit animation).
    private func fitLayer() {
        guard let layer else { return }
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        layer.frame = CGRect(origin: .zero, size: size)
        layer.contentsScale = contentsScale
        CATransaction.commit()
    }

    private func deliverEvents() {
        let events = pendingEvents
        pendingEvents = []
        for e in events {
            if handleBox.handle == nil { return }
            eventHandler?(e)
            if e == .closeRequested, let h = handleBox.handle, glfwWindowShouldClose(h) == GLFW_TRUE { close() }
        }
    }

    func enqueue(_ e: WindowEvent) { pendingEvents.append(e) }

    static func clock() -> Double { CACurrentMediaTime() }

    static func sleep(until t: Double) {
        let d = t - clock()
        guard d > 0, d < 1 else { return }
        usleep(UInt32(d * 1_000_000))
    }

}

extension LayerWindow {
    /// Sets the window's title (no effect once closed).
    public func setTitle(_ title: String) {
        guard let h = handle else { return }
        glfwSetWindowTitle(h, title)
    }

    var handle: OpaquePointer? { handleBox.handle }
}
