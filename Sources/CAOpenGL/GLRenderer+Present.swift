internal import CGL

/// Presenting a frame into a framebuffer someone else owns (a window's default framebuffer),
/// for renderers that draw into a context they did not make. The frame is still drawn into the
/// renderer's own target first, exactly as headless, and then copied: the pixels on screen are
/// the pixels `readPixels()` returns, and an unchanged frame can be shown again without
/// re-executing it (a window's back buffer is undefined after a swap).
extension GLRenderer {
    /// The framebuffer bound for drawing in the current context (0: the default framebuffer).
    package func drawFramebufferBinding() -> UInt32 {
        var fbo: GLint = 0
        glGetIntegerv(E(GL_DRAW_FRAMEBUFFER_BINDING), &fbo)
        return UInt32(bitPattern: fbo)
    }

    /// Copies the last frame into `framebuffer` (0: the current context's default framebuffer)
    /// covering `width`×`height` pixels from its lower-left corner, turned the right way up:
    /// the renderer's target holds row 0 = top (so `readPixels` needs no flip), while a window
    /// shows GL row 0 at the bottom. Stretches (linear filtering) when the sizes differ. Leaves
    /// `framebuffer` bound for drawing. Throws on a GL error.
    package func present(toFramebuffer framebuffer: UInt32, width: Int, height: Int) throws {
        guard let main else { throw GLBackendError("present before any frame was rendered") }
        guard width > 0, height > 0 else { throw GLBackendError("present into an empty \(width)×\(height) framebuffer") }
        glBindFramebuffer(E(GL_READ_FRAMEBUFFER), main.fbo)
        glBindFramebuffer(E(GL_DRAW_FRAMEBUFFER), framebuffer)
        // Setting the viewport is also what makes drivers without resize events (Mesa's
        // software GLX, Xvfb) re-read the window's size and reallocate its buffers.
        glViewport(0, 0, GLsizei(width), GLsizei(height))
        let same = width == main.width && height == main.height
        glBlitFramebuffer(0, 0, GLint(main.width), GLint(main.height),
                          0, GLint(height), GLint(width), 0,
                          GLbitfield(GL_COLOR_BUFFER_BIT), E(same ? GL_NEAREST : GL_LINEAR))
        glBindFramebuffer(E(GL_FRAMEBUFFER), framebuffer)
        try checkError("presenting the frame into framebuffer \(framebuffer)")
    }

    /// Presents a frame drawn elsewhere (the CPU backend's, for a window whose renderer draws on
    /// the CPU): `pixels` (premultiplied RGBA8, top row first, `pixelWidth`×`pixelHeight`) go
    /// into this renderer's target, which holds row 0 = top as its own frames do, and are then
    /// presented as `present(toFramebuffer:width:height:)` presents those.
    package func present(pixels: UnsafeRawPointer, pixelWidth pw: Int, pixelHeight ph: Int,
                         toFramebuffer framebuffer: UInt32, width: Int, height: Int) throws {
        if main == nil || main!.width != pw || main!.height != ph { main = try GLRenderTarget(width: pw, height: ph) }
        glBindTexture(E(GL_TEXTURE_2D), main!.texture.id)
        glPixelStorei(E(GL_UNPACK_ALIGNMENT), 1)
        glTexSubImage2D(E(GL_TEXTURE_2D), 0, 0, 0, GLsizei(pw), GLsizei(ph), E(GL_RGBA), E(GL_UNSIGNED_BYTE), pixels)
        try checkError("uploading a \(pw)×\(ph) frame to present")
        try present(toFramebuffer: framebuffer, width: width, height: height)
    }

    /// RGBA8 of `framebuffer`'s colour buffer (0: the default framebuffer's back buffer), top
    /// row first, `width`×`height` pixels from its lower-left corner. For tests that compare
    /// what a window shows with the headless render.
    package func readFramebuffer(_ framebuffer: UInt32, width: Int, height: Int) throws -> [UInt8] {
        guard width > 0, height > 0 else { return [] }
        glBindFramebuffer(E(GL_READ_FRAMEBUFFER), framebuffer)
        if framebuffer == 0 { glReadBuffer(E(GL_BACK)) }
        glPixelStorei(E(GL_PACK_ALIGNMENT), 1)
        let row = width * 4
        var bottomUp = [UInt8](repeating: 0, count: row * height)
        bottomUp.withUnsafeMutableBytes {
            glReadPixels(0, 0, GLsizei(width), GLsizei(height), E(GL_RGBA), E(GL_UNSIGNED_BYTE), $0.baseAddress)
        }
        try checkError("reading framebuffer \(framebuffer)")
        var out = [UInt8](repeating: 0, count: row * height)
        for y in 0..<height {
            out[(y * row)..<((y + 1) * row)] = bottomUp[((height - 1 - y) * row)..<((height - y) * row)]
        }
        return out
    }
}
