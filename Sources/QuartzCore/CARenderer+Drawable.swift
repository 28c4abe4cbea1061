import CoreGraphics
import CASurfaces

/// A renderer that draws into a GL context someone else owns: a window's. This mirrors Apple's
/// `init(cglContext:options:)`, which renders into the framebuffer current in a CGL context;
/// on Linux the window (GLFW, GLX or EGL) owns the context and hands over a closure that makes
/// it current. Everything else (frame build, reuse, patching, the GL backend, `makeImage()`) is
/// the headless path unchanged: each frame is drawn into the renderer's own target and then
/// copied into the framebuffer that was bound when `render()` was called (the window's default
/// framebuffer), turned right way up. Extensions beyond Apple's API.
extension CARenderer {
    /// A renderer for a drawable of `drawableSize` points at `scale` pixels per point, in the
    /// context `makeContextCurrent` makes current (called now, and before every frame and
    /// readback). Throws as `init(offscreenSize:scale:)` does: sizes, or an OpenGL older than
    /// 3.3 core in that context; and `CARendererError.noContext` when `makeContextCurrent`
    /// throws.
    public convenience init(drawableSize: CGSize, scale: CGFloat = 1, contextInfo: [String: String] = [:],
                            options: Options = Options(), makeContextCurrent: @escaping () throws -> Void) throws {
        try self.init(size: drawableSize, scale: scale, maxTextureSize: nil, options: options, presents: true) {
            let context = ExternalGLContext(info: contextInfo, makeCurrent: makeContextCurrent)
            try context.makeCurrent()
            return context
        }
        presentsToBoundFramebuffer = true
    }

    /// Whether frames are copied into the caller's bound framebuffer (made by
    /// `init(drawableSize:scale:makeContextCurrent:)`).
    package var drawsIntoCurrentFramebuffer: Bool { presentsToBoundFramebuffer }

    /// Changes the drawable's size in pixels and the scale (a resized window, or one moved to
    /// a monitor with another content scale): `bounds` becomes the new size in points, keeping
    /// its origin, and the next frame is built anew. Throws for empty, non-finite or oversized
    /// sizes and leaves the renderer unchanged.
    public func resizeDrawable(pixelWidth w: Int, pixelHeight h: Int, scale s: CGFloat) throws {
        guard w > 0, h > 0, s.isFinite, s > 0 else {
            throw CARendererError.invalidSize("drawable \(w)×\(h) pixels at scale \(s) is empty or not finite")
        }
        guard w <= Self.maxPixelSize, h <= Self.maxPixelSize, w <= backend.maxTextureSize, h <= backend.maxTextureSize else {
            throw CARendererError.invalidSize("\(w)×\(h) pixels exceeds the limit of \(min(Self.maxPixelSize, backend.maxTextureSize)) per side")
        }
        guard w != pixelWidth || h != pixelHeight || s != scale else { return }
        pixelWidth = w
        pixelHeight = h
        scale = s
        lastKey = nil
        bounds = CGRect(origin: bounds.origin, size: CGSize(width: CGFloat(w) / s, height: CGFloat(h) / s))
    }

    /// Copies the frame into the framebuffer bound when `render()` began.
    func presentToBoundFramebuffer() throws {
        do {
            if let software {
                // The CPU backend drew the frame: its pixels go up through the window's context.
                try software.withFramePixels { pixels, w, h in
                    try backend.present(pixels: pixels, pixelWidth: w, pixelHeight: h,
                                        toFramebuffer: boundFramebuffer, width: pixelWidth, height: pixelHeight)
                }
                return
            }
            try backend.present(toFramebuffer: boundFramebuffer, width: pixelWidth, height: pixelHeight)
        } catch {
            throw CARendererError.backend("\(error)")
        }
    }

    /// The pixels of the framebuffer frames are presented into (the window's back buffer
    /// after `render()` and before the swap), premultiplied RGBA8, top row first: what the
    /// window shows. Extension beyond Apple's API, for tests comparing the window with the
    /// headless render.
    public func readPresentedPixels() throws -> CGImage {
        guard presentsToBoundFramebuffer else { throw CARendererError.notInFrame("readPresentedPixels() needs a renderer made by init(drawableSize:scale:makeContextCurrent:)") }
        do { try context.makeCurrent() } catch { throw CARendererError.noContext("\(error)") }
        let bytes: [UInt8]
        do { bytes = try backend.readFramebuffer(boundFramebuffer, width: pixelWidth, height: pixelHeight) } catch { throw CARendererError.backend("\(error)") }
        guard let img = CGImage(width: pixelWidth, height: pixelHeight, rgba8Bytes: bytes, premultiplied: true) else {
            throw CARendererError.backend("readback of \(pixelWidth)×\(pixelHeight) failed")
        }
        return img
    }
}
