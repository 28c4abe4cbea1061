import CoreGraphics

/// The framebuffer a `CAOpenGLLayer` draws into (extension beyond Apple's API: Apple's hooks take
/// a `CGLContextObj` and `CGLPixelFormatObj`, which do not exist on Linux). The renderer makes a
/// framebuffer object at the layer's pixel size, binds it (with the viewport set to it) before
/// calling the hook, and owns it: the layer draws with OpenGL 3.3 core and leaves the binding.
public struct CAOpenGLDrawable: Sendable, Equatable {
    /// The framebuffer object's name (`GL_FRAMEBUFFER`), bound when the hook runs.
    public let framebuffer: UInt32
    /// Its size in pixels: the layer's bounds × `contentsScale`, rounded up.
    public let pixelWidth: Int
    public let pixelHeight: Int

    public init(framebuffer: UInt32, pixelWidth: Int, pixelHeight: Int) {
        self.framebuffer = framebuffer
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
    }
}

/// A layer whose content is drawn with OpenGL (Apple's `CAOpenGLLayer`), with a Linux spelling
/// of its hooks: `canDraw(inGLContext:forLayerTime:displayTime:)` and
/// `draw(inGLContext:forLayerTime:displayTime:)` take a `CAOpenGLDrawable` (the framebuffer
/// the renderer provides) where Apple's take CGL objects (extension beyond Apple's API).
///
/// The renderer calls the hooks while it builds the frame, in a GL 3.3 core context of its own
/// (headless EGL, shared by every GL layer of the process, so the layer's GL state never meets
/// the renderer's), then shows the pixels like `contents` (premultiplied RGBA; bottom row first,
/// as GL's framebuffer is, so GL's y up is the layer's visual up). With `isAsynchronous` the
/// hooks run for every frame (the frame is then built anew each time); otherwise at the first
/// frame, after `setNeedsDisplay()`, and when the pixel size changes. The same path serves
/// offscreen rendering, both backends and the window.
///
/// ```swift
/// final class TriangleLayer: CAOpenGLLayer {
///     override func draw(inGLContext ctx: CAOpenGLDrawable, forLayerTime t: CFTimeInterval, displayTime: CFTimeInterval) {
///         glClearColor(0, 0, 0, 1); glClear(GLbitfield(GL_COLOR_BUFFER_BIT))
///         // … a program and a vertex array drawing a triangle rotated by t …
///     }
/// }
/// ```
open class CAOpenGLLayer: CALayer {
    package var glState = OpenGLLayerState()
    /// The picture the renderer last drew, with its pixel size, the `glState.generation` it
    /// was drawn for and the frame's media time (kept on the model layer, which the renderer asks).
    package var glPicture: (image: CGImage, width: Int, height: Int, generation: UInt64, time: CFTimeInterval)?

    public override init() { super.init() }

    public required init(layer: Any) {
        super.init(layer: layer)
        if let other = layer as? CAOpenGLLayer { glState = other.glState }
    }

    public required init?(coder: NSCoder) { super.init(coder: coder) }

    /// Whether the layer is drawn for every frame (Apple: "If true, the receiver is updated
    /// automatically"). Default false, as Apple's.
    public var isAsynchronous: Bool {
        get { glState.isAsynchronous }
        set {
            var s = glState
            s.isAsynchronous = newValue
            updateLayerValue(self, "asynchronous", \.glState, s)
        }
    }

    package override class func makePropertyTable() -> PropertyTable {
        var t = super.makePropertyTable()
        t.add("asynchronous", \CAOpenGLLayer.isAsynchronous, .none)
        return t
    }

    /// Whether the layer can draw now; false keeps the last picture. Default true.
    /// Linux spelling of Apple's `canDraw(inCGLContext:pixelFormat:forLayerTime:displayTime:)`.
    open func canDraw(inGLContext context: CAOpenGLDrawable, forLayerTime t: CFTimeInterval, displayTime: CFTimeInterval) -> Bool {
        true
    }

    /// Draws the layer with OpenGL into `context.framebuffer` (bound, viewport set, cleared to
    /// transparent). `t` is the layer's local time, `displayTime` the frame's media time.
    /// The default draws nothing. Linux spelling of Apple's
    /// `draw(inCGLContext:pixelFormat:forLayerTime:displayTime:)`.
    open func draw(inGLContext context: CAOpenGLDrawable, forLayerTime t: CFTimeInterval, displayTime: CFTimeInterval) {}

    /// `display()` of a GL layer asks the renderer to call the hooks at its next frame (the
    /// drawing needs the renderer's GL context, so it happens there).
    open override func display() {
        dirtyRect = .null
        glState.generation &+= 1
        if !isPresentationCopy { TransactionStack.current.touch(self) }
    }
}

/// The stored values of a `CAOpenGLLayer` and what the renderer last drew for it.
package struct OpenGLLayerState: Equatable {
    var isAsynchronous = false
    /// Bumped by `display()`: the renderer redraws when it differs from the drawn picture's.
    package var generation: UInt64 = 1
}
