import CASurfaces

/// The GL context a `CARenderer` draws with: its own headless EGL context
/// (`init(offscreenSize:scale:)`), or one a window owns (`init(drawableSize:scale:makeContextCurrent:)`).
protocol RendererContext: AnyObject {
    /// Makes the context current on the calling thread; throws `SurfaceError` when it cannot.
    func makeCurrent() throws
    /// Platform and device strings for `CARenderer.contextInfo`.
    var info: [String: String] { get }
    /// Destroys the context as a lost one would be left (test hook).
    func destroyForTesting()
}

extension EGLHeadlessContext: RendererContext {}

/// A context made and owned elsewhere (a window's), made current by the owner's closure.
final class ExternalGLContext: RendererContext {
    let makeCurrentBody: () throws -> Void
    let info: [String: String]
    var destroyed = false

    init(info: [String: String], makeCurrent: @escaping () throws -> Void) {
        self.info = info
        makeCurrentBody = makeCurrent
    }

    func makeCurrent() throws {
        guard !destroyed else { throw SurfaceError("the window's context is gone (its window was closed)") }
        do { try makeCurrentBody() } catch let e as SurfaceError { throw e } catch { throw SurfaceError("\(error)") }
    }

    func destroyForTesting() { destroyed = true }
}
