internal import CGL
import CAFrame

/// The shape atlas on the GPU (issue 6): one texture per `ShapeAtlasPage` of the frame (RGBA8
/// coverage: fill, stroke, compact arc length in R, G, B+A; RGBA32F exact arc-length fields),
/// created zeroed when a page first appears, written only where a frame brings new rasters, and
/// freed when a frame no longer lists it. A coverage page gets its auxiliary RGBA8 texture (the
/// compact field's subpath arc length and distance) when the first upload with `aux` texels
/// arrives for it.
final class GLShapeAtlas {
    var textures: [Int: GLTexture] = [:]
    var auxTextures: [Int: GLTexture] = [:]
    /// The last upload applied (see `ShapeAtlasUpload.serial`).
    var appliedSerial = 0

    func sync(_ frame: RenderFrame) {
        if textures.count != frame.shapePages.count || frame.shapePages.contains(where: { textures[$0.id] == nil }) {
            let live = Set(frame.shapePages.map(\.id))
            textures = textures.filter { live.contains($0.key) }
            auxTextures = auxTextures.filter { live.contains($0.key) }
            for p in frame.shapePages where textures[p.id] == nil {
                if p.isField {
                    let zeros = [Float](repeating: 0, count: p.width * p.height * 4)
                    textures[p.id] = zeros.withUnsafeBytes {
                        GLTexture(width: p.width, height: p.height, internalFormat: GL_RGBA32F, format: GL_RGBA, type: GL_FLOAT, pixels: $0.baseAddress)
                    }
                } else {
                    textures[p.id] = Self.zeroedRGBA8(p.width, p.height)
                }
            }
        }
        guard !frame.shapeUploads.isEmpty else { return }
        glPixelStorei(E(GL_UNPACK_ALIGNMENT), 1)
        for u in frame.shapeUploads where u.serial > appliedSerial {
            appliedSerial = u.serial
            guard let t = textures[u.page] else { continue }
            glBindTexture(E(GL_TEXTURE_2D), t.id)
            if u.field.isEmpty {
                // (Runs are made for the CPU backend; expanded here should one reach GL.)
                u.denseCoverage.withUnsafeBytes {
                    glTexSubImage2D(E(GL_TEXTURE_2D), 0, GLint(u.x), GLint(u.y), GLsizei(u.width), GLsizei(u.height), E(GL_RGBA),
                                    E(GL_UNSIGNED_BYTE), $0.baseAddress)
                }
                if !u.aux.isEmpty {
                    let a: GLTexture
                    if let existing = auxTextures[u.page] {
                        a = existing
                    } else {
                        a = Self.zeroedRGBA8(t.width, t.height)
                        auxTextures[u.page] = a
                    }
                    glBindTexture(E(GL_TEXTURE_2D), a.id)
                    u.aux.withUnsafeBytes {
                        glTexSubImage2D(E(GL_TEXTURE_2D), 0, GLint(u.x), GLint(u.y), GLsizei(u.width), GLsizei(u.height), E(GL_RGBA),
                                        E(GL_UNSIGNED_BYTE), $0.baseAddress)
                    }
                }
            } else {
                u.field.withUnsafeBytes {
                    glTexSubImage2D(E(GL_TEXTURE_2D), 0, GLint(u.x), GLint(u.y), GLsizei(u.width), GLsizei(u.height), E(GL_RGBA),
                                    E(GL_FLOAT), $0.baseAddress)
                }
            }
        }
        glCheck("shape atlas upload")
    }

    /// A zeroed RGBA8 page (zero coverage in the gutters that bilinear sampling reaches).
    /// RGBA8 because llvmpipe samples its native format much faster than RG8.
    static func zeroedRGBA8(_ width: Int, _ height: Int) -> GLTexture {
        let zeros = [UInt8](repeating: 0, count: width * height * 4)
        return zeros.withUnsafeBytes {
            GLTexture(width: width, height: height, internalFormat: GL_RGBA8, format: GL_RGBA, type: GL_UNSIGNED_BYTE, pixels: $0.baseAddress)
        }
    }
}
