internal import CGL

/// Reads frames back without stalling the pipeline: `glReadPixels` into one of two pixel-pack
/// buffer objects (`GL_PIXEL_PACK_BUFFER`) returns at once, and the buffer filled one frame
/// earlier is mapped and copied out instead — so frame N is read while frame N+1 renders
/// (OpenGL 4.6 core §18.2 "Reading Pixels": with a pixel pack buffer bound, the read writes into
/// the buffer object, and only mapping it waits for the copy). Extension beyond Apple's API,
/// for exporters (`carender render`).
///
/// Rows come out top row first, as `GLRenderer.readPixels()` gives them (the backend draws the
/// main target flipped). Use with the renderer's context current, on its thread.
package final class GLPixelPackReadback {
    package let width: Int
    package let height: Int
    var buffers: [GLuint]
    /// The tag of the frame each buffer holds, nil while it is free.
    var pending: [Int?]
    var nextSlot = 0

    /// `slots` buffers of `width × height` RGBA8 (2: double buffering; 3 hides a longer GPU
    /// queue at the cost of one more frame of latency).
    package init(width: Int, height: Int, slots: Int = 2) throws {
        guard width > 0, height > 0, slots >= 1 else { throw GLBackendError("readback of \(width)×\(height) with \(slots) buffers is empty") }
        self.width = width
        self.height = height
        buffers = [GLuint](repeating: 0, count: slots)
        pending = [Int?](repeating: nil, count: slots)
        glGenBuffers(GLsizei(slots), &buffers)
        for b in buffers {
            glBindBuffer(E(GL_PIXEL_PACK_BUFFER), b)
            glBufferData(E(GL_PIXEL_PACK_BUFFER), GLsizeiptr(width * height * 4), nil, E(GL_STREAM_READ))
        }
        glBindBuffer(E(GL_PIXEL_PACK_BUFFER), 0)
        if let err = GLDiagnostics.takeFirstError() {
            throw GLBackendError("OpenGL reported \(GLDiagnostics.name(err)) allocating \(slots) pixel-pack buffers of \(width)×\(height)")
        }
    }

    deinit {
        glDeleteBuffers(GLsizei(buffers.count), &buffers)
    }

    /// Starts reading `renderer`'s last frame into the next free buffer under `tag`, and hands
    /// back the oldest frame still queued once every buffer is in use (its pixels, premultiplied
    /// RGBA8, top row first). With two buffers, the call for frame N returns frame N-1.
    package func enqueue(from renderer: GLRenderer, tag: Int) throws -> (tag: Int, pixels: [UInt8])? {
        guard let main = renderer.main else { throw GLBackendError("no frame was rendered to read back") }
        guard main.width == width, main.height == height else {
            throw GLBackendError("frame \(main.width)×\(main.height) does not match the readback buffers \(width)×\(height)")
        }
        // After each call at most `slots - 1` frames stay queued, so this slot is free.
        let slot = nextSlot
        glBindFramebuffer(E(GL_READ_FRAMEBUFFER), main.fbo)
        glBindBuffer(E(GL_PIXEL_PACK_BUFFER), buffers[slot])
        glPixelStorei(E(GL_PACK_ALIGNMENT), 1)
        glReadPixels(0, 0, GLsizei(width), GLsizei(height), E(GL_RGBA), E(GL_UNSIGNED_BYTE), nil)  // offset 0 in the buffer
        glBindBuffer(E(GL_PIXEL_PACK_BUFFER), 0)
        if let err = GLDiagnostics.takeFirstError() {
            throw GLBackendError("OpenGL reported \(GLDiagnostics.name(err)) reading frame \(tag) into a pixel-pack buffer")
        }
        pending[slot] = tag
        nextSlot = (slot + 1) % buffers.count
        // Hand back the oldest once `slots` frames are queued. With two buffers that is the
        // previous frame, whose copy was queued before this frame's draws (done, or nearly).
        guard pending.allSatisfy({ $0 != nil }) else { return nil }
        let (t, p) = try collect(slot: nextSlot)
        return (tag: t, pixels: p)
    }

    /// Every frame still queued, oldest first (call after the last frame).
    package func drain() throws -> [(tag: Int, pixels: [UInt8])] {
        var out: [(tag: Int, pixels: [UInt8])] = []
        for k in 0..<buffers.count {
            let slot = (nextSlot + k) % buffers.count
            if pending[slot] != nil { let (t, p) = try collect(slot: slot); out.append((t, p)) }
        }
        return out
    }

    /// Maps the buffer (waiting for its copy to finish), copies the pixels out, frees the slot.
    func collect(slot: Int) throws -> (Int, [UInt8]) {
        guard let tag = pending[slot] else { throw GLBackendError("readback slot \(slot) holds no frame") }
        pending[slot] = nil
        let count = width * height * 4
        glBindBuffer(E(GL_PIXEL_PACK_BUFFER), buffers[slot])
        defer { glBindBuffer(E(GL_PIXEL_PACK_BUFFER), 0) }
        guard let p = glMapBufferRange(E(GL_PIXEL_PACK_BUFFER), 0, GLsizeiptr(count), GLbitfield(GL_MAP_READ_BIT)) else {
            let err = GLDiagnostics.takeFirstError().map(GLDiagnostics.name) ?? "no error code"
            throw GLBackendError("mapping the pixel-pack buffer of frame \(tag) failed (\(err))")
        }
        let pixels = [UInt8](UnsafeRawBufferPointer(start: p, count: count))
        glUnmapBuffer(E(GL_PIXEL_PACK_BUFFER))
        return (tag, pixels)
    }
}
