internal import CGL

/// An RGBA texture owned by the backend; deleted with this object (on the thread and context
/// that made it).
final class GLTexture {
    let id: GLuint
    let width: Int
    let height: Int
    private(set) var hasMipmaps = false

    init(width: Int, height: Int, internalFormat: Int32 = GL_RGBA8, format: Int32 = GL_RGBA,
         type: Int32 = GL_UNSIGNED_BYTE, pixels: UnsafeRawPointer? = nil) {
        var t: GLuint = 0
        glGenTextures(1, &t)
        id = t
        self.width = width
        self.height = height
        glBindTexture(E(GL_TEXTURE_2D), t)
        glPixelStorei(E(GL_UNPACK_ALIGNMENT), 1)
        glTexImage2D(E(GL_TEXTURE_2D), 0, internalFormat, GLsizei(width), GLsizei(height), 0, E(format), E(type), pixels)
        glTexParameteri(E(GL_TEXTURE_2D), E(GL_TEXTURE_WRAP_S), GL_CLAMP_TO_EDGE)
        glTexParameteri(E(GL_TEXTURE_2D), E(GL_TEXTURE_WRAP_T), GL_CLAMP_TO_EDGE)
        glTexParameteri(E(GL_TEXTURE_2D), E(GL_TEXTURE_MIN_FILTER), GL_LINEAR)
        glTexParameteri(E(GL_TEXTURE_2D), E(GL_TEXTURE_MAG_FILTER), GL_LINEAR)
        glCheck("texture \(width)×\(height)")
    }

    deinit {
        var t = id
        glDeleteTextures(1, &t)
    }

    func ensureMipmaps() {
        guard !hasMipmaps else { return }
        glBindTexture(E(GL_TEXTURE_2D), id)
        glGenerateMipmap(E(GL_TEXTURE_2D))
        hasMipmaps = true
    }
}

/// An FBO with one RGBA8 colour texture.
final class GLRenderTarget {
    let fbo: GLuint
    let texture: GLTexture
    /// A 24-bit depth renderbuffer (the main target's, for the depth pre-pass); 0 without one.
    let depth: GLuint

    init(width: Int, height: Int, depth withDepth: Bool = false) throws {
        texture = GLTexture(width: width, height: height)
        var f: GLuint = 0
        glGenFramebuffers(1, &f)
        fbo = f
        glBindFramebuffer(E(GL_FRAMEBUFFER), f)
        glFramebufferTexture2D(E(GL_FRAMEBUFFER), E(GL_COLOR_ATTACHMENT0), E(GL_TEXTURE_2D), texture.id, 0)
        var d: GLuint = 0
        if withDepth {
            glGenRenderbuffers(1, &d)
            glBindRenderbuffer(E(GL_RENDERBUFFER), d)
            glRenderbufferStorage(E(GL_RENDERBUFFER), E(GL_DEPTH_COMPONENT24), GLsizei(width), GLsizei(height))
            glFramebufferRenderbuffer(E(GL_FRAMEBUFFER), E(GL_DEPTH_ATTACHMENT), E(GL_RENDERBUFFER), d)
        }
        depth = d
        let status = glCheckFramebufferStatus(E(GL_FRAMEBUFFER))
        guard status == E(GL_FRAMEBUFFER_COMPLETE) else {
            throw GLBackendError("framebuffer \(width)×\(height) incomplete (0x\(String(status, radix: 16)))")
        }
    }

    deinit {
        var f = fbo
        glDeleteFramebuffers(1, &f)
        if depth != 0 {
            var d = depth
            glDeleteRenderbuffers(1, &d)
        }
    }

    var width: Int { texture.width }
    var height: Int { texture.height }
}
