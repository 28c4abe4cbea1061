import Foundation
import CoreGraphics
import CoreAnimation
import CARender
import CASurfaces
internal import CGL

// CAOpenGLLayer's drawing (issue 19): the renderer gives the builder a drawer that runs a GL
// layer's hooks in a headless EGL context of its own (one per thread, so the layer's GL state
// never meets the renderer's), into a framebuffer object of the layer's pixel size, and reads
// the pixels back; the builder draws them like contents. The renderer's own context is current
// again afterwards. The same path serves both backends and the window.

extension CARenderer {
    /// Installs the GL layer drawer in this renderer's builder (called once, from `init`).
    func installOpenGLLayerDrawing() {
        builder.openGLLayerDrawer = { [weak self] layer, w, h, t, display in
            let image = OpenGLLayerDrawing.draw(layer, width: w, height: h, layerTime: t, displayTime: display)
            // Back to the renderer's context (an offscreen CPU backend has none: release ours
            // instead; a window's CPU backend presents through the window's).
            if let self, self.software == nil || self.presentsToBoundFramebuffer {
                try? self.context.makeCurrent()
            } else {
                OpenGLLayerDrawing.releaseCurrent()
            }
            return image
        }
    }
}

/// The GL side of `CAOpenGLLayer`.
enum OpenGLLayerDrawing {
    private static let key = "CAOpenGLLayer.context"

    /// This thread's context for GL layers (made at first use).
    static func context() -> EGLHeadlessContext? {
        if let box = Thread.current.threadDictionary[key] as? ContextBox { return box.context }
        let made = try? EGLHeadlessContext(platforms: EGLPlatformChoice.allCases)
        if made == nil { RenderDiagnostics.warn("CAOpenGLLayer: no headless EGL context with OpenGL 3.3 core can be made; GL layers are not drawn") }
        Thread.current.threadDictionary[key] = ContextBox(context: made)
        return made
    }

    static func releaseCurrent() {
        (Thread.current.threadDictionary[key] as? ContextBox)?.context?.releaseCurrent()
    }

    /// Runs the hooks into a `width`×`height` framebuffer and reads it back (rows flipped so the
    /// image's first row is GL's top). nil when no context can be made, the framebuffer is not
    /// complete, or `canDraw` says no.
    static func draw(_ layer: CAOpenGLLayer, width w: Int, height h: Int, layerTime t: CFTimeInterval,
                     displayTime: CFTimeInterval) -> CGImage? {
        guard let ctx = context(), (try? ctx.makeCurrent()) != nil else { return nil }
        var tex: GLuint = 0, fbo: GLuint = 0
        glGenTextures(1, &tex)
        glBindTexture(GLenum(GL_TEXTURE_2D), tex)
        glTexImage2D(GLenum(GL_TEXTURE_2D), 0, GL_RGBA8, GLsizei(w), GLsizei(h), 0, GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), nil)
        glGenFramebuffers(1, &fbo)
        glBindFramebuffer(GLenum(GL_FRAMEBUFFER), fbo)
        glFramebufferTexture2D(GLenum(GL_FRAMEBUFFER), GLenum(GL_COLOR_ATTACHMENT0), GLenum(GL_TEXTURE_2D), tex, 0)
        defer {
            glBindFramebuffer(GLenum(GL_FRAMEBUFFER), 0)
            glDeleteFramebuffers(1, &fbo)
            glDeleteTextures(1, &tex)
        }
        guard glCheckFramebufferStatus(GLenum(GL_FRAMEBUFFER)) == GLenum(GL_FRAMEBUFFER_COMPLETE) else {
            RenderDiagnostics.warn("CAOpenGLLayer: a \(w)×\(h) framebuffer is not complete; the layer is not drawn")
            return nil
        }
        glViewport(0, 0, GLsizei(w), GLsizei(h))
        glClearColor(0, 0, 0, 0)
        glClear(GLbitfield(GL_COLOR_BUFFER_BIT))
        let drawable = CAOpenGLDrawable(framebuffer: fbo, pixelWidth: w, pixelHeight: h)
        guard layer.canDraw(inGLContext: drawable, forLayerTime: t, displayTime: displayTime) else { return nil }
        layer.draw(inGLContext: drawable, forLayerTime: t, displayTime: displayTime)
        // The layer may have bound something else: read from its framebuffer.
        glBindFramebuffer(GLenum(GL_READ_FRAMEBUFFER), fbo)
        glPixelStorei(GLenum(GL_PACK_ALIGNMENT), 1)
        var rows = [UInt8](repeating: 0, count: w * h * 4)
        rows.withUnsafeMutableBytes { glReadPixels(0, 0, GLsizei(w), GLsizei(h), GLenum(GL_RGBA), GLenum(GL_UNSIGNED_BYTE), $0.baseAddress) }
        var flipped = [UInt8](repeating: 0, count: w * h * 4)
        let stride = w * 4
        for y in 0..<h {
            flipped.withUnsafeMutableBytes { d in
                rows.withUnsafeBytes { s in
                    d.baseAddress!.advanced(by: y * stride).copyMemory(from: s.baseAddress!.advanced(by: (h - 1 - y) * stride), byteCount: stride)
                }
            }
        }
        return CGImage(width: w, height: h, premultipliedRGBA: flipped, alphaInfo: .premultipliedLast,
                       shouldInterpolate: true, intent: .defaultIntent)
    }
}

/// Holds a thread's GL-layer context (or the failure to make one) in its thread dictionary.
private final class ContextBox {
    let context: EGLHeadlessContext?
    init(context: EGLHeadlessContext?) { self.context = context }
}
