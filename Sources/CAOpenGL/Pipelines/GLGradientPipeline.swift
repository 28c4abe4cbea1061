internal import CGL
import CAFrame

/// CAGradientLayer (`Shaders/gradient.*`): the frame's colour ramps, one row per gradient, in
/// an RGBA32F texture on unit 1 (the fractions between 8-bit levels survive for the shader's
/// dither). Uploaded only when the ramps change: an animated gradient position is not a new
/// upload.
final class GLGradientPipeline: GLPipeline {
    let stream = GLInstanceStream(GradientInstance.layout)
    var rampTexture: GLTexture?
    /// The ramps `rampTexture` holds.
    var uploadedRamps: [Float] = []

    func upload(_ frame: RenderFrame, on r: GLRenderer, stats: inout RenderStats) throws {
        uploadInstances(GradientInstance.self, of: frame)
        guard !frame.gradients.isEmpty else { return }
        let rows = max(frame.gradientRampRows, 1)
        if rampTexture == nil || rampTexture!.height != rows {
            rampTexture = GLTexture(width: GradientInstance.rampWidth, height: rows, internalFormat: GL_RGBA32F,
                                    format: GL_RGBA, type: GL_FLOAT)
            uploadedRamps = []
        } else if frame.gradientRamps == uploadedRamps {
            return
        }
        glBindTexture(E(GL_TEXTURE_2D), rampTexture!.id)
        frame.gradientRamps.withUnsafeBytes {
            glTexSubImage2D(E(GL_TEXTURE_2D), 0, 0, 0, GLsizei(GradientInstance.rampWidth), GLsizei(frame.gradientRampRows),
                            E(GL_RGBA), E(GL_FLOAT), $0.baseAddress)
        }
        glCheck("gradient ramps")
        uploadedRamps = frame.gradientRamps
        stats.textureUploads += 1
        stats.textureUploadBytes += GradientInstance.rampWidth * frame.gradientRampRows * 16
    }

    func prepare(_ b: Batch, _ bindings: GLBatchBindings, on r: GLRenderer) throws -> GLProgram {
        let program = try r.program("gradient", b.variant)
        stream.bind(first: b.range.lowerBound)
        program.use()
        if let t = rampTexture { r.bindTexture(t, unit: 1, filter: .linear) }
        program.set("u_ramps", int: 1)
        program.set("u_rampRows", Float(max(rampTexture?.height ?? 1, 1)))
        return program
    }
}
