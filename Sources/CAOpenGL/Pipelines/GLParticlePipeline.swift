internal import CGL
import CAFrame

/// Emitter particles computed on the GPU (issue 21, `ParticleRunInstance`): Shaders/particle.vert
/// evaluates particle i of a run from the run's one record, and the image fragment shader's
/// particle path (image.frag, `ShaderVariant.particle`) draws it from the batch's texture (an
/// atlas page or the cell's image) on unit 1, linearly filtered. Each record is bound with an
/// attribute divisor of the run's particle count, so all `count` instances of its draw read it;
/// a batch of several records (consecutive runs of one count, texture and variant) is one draw
/// per record.
final class GLParticlePipeline: GLPipeline {
    let stream = GLInstanceStream(ParticleRunInstance.layout)
    /// particle.vert + image.frag, by variant.
    private var programs: [ShaderVariant: GLProgram] = [:]

    func upload(_ frame: RenderFrame, on r: GLRenderer, stats: inout RenderStats) throws {
        uploadInstances(ParticleRunInstance.self, of: frame)
    }

    func program(_ variant: ShaderVariant) throws -> GLProgram {
        if let p = programs[variant] { return p }
        let p = try GLProgram(vertex: "particle.vert", fragment: "image.frag", defines: variant.defines)
        programs[variant] = p
        return p
    }

    func prepare(_ b: Batch, _ bindings: GLBatchBindings, on r: GLRenderer) throws -> GLProgram {
        guard case .particles(let t, _) = b.pipeline else { throw GLBackendError("particle pipeline given \(b.pipeline)") }
        guard b.variant.contains(.particle) else { throw GLBackendError("particle batch without the particle shader variant") }
        let program = try program(b.variant)
        program.use()
        r.bindTexture(bindings.textures[t], unit: 1, filter: .linear)
        program.set("u_texture", int: 1)
        return program
    }

    func drawInstances(_ b: Batch) -> (draws: Int, instances: Int) {
        guard case .particles(_, let count) = b.pipeline, count > 0 else { return (0, 0) }
        for record in b.range {
            stream.bind(first: record, divisor: count)
            glDrawArraysInstanced(E(GL_TRIANGLE_STRIP), 0, 4, GLsizei(count))
        }
        return (b.range.count, count * b.range.count)
    }
}

extension GLRenderer {
    /// Why this driver cannot draw particle runs, or nil when it can: the plain particle program
    /// (Shaders/particle.vert with image.frag) is compiled and linked once, the first time this
    /// is asked, in the renderer's context (the caller makes it current). A frame hands the
    /// backend particle records only after this said nil (`CARenderer.evaluatesParticlesOnGPU`),
    /// so a driver that rejects the shader gets CPU-simulated particles, not a failed frame.
    package func particleProgramProblem() -> String? {
        if let known = particleProbe { return known }
        var problem: String?
        if let p = pipelines.lazy.compactMap({ $0 as? GLParticlePipeline }).first {
            do { _ = try p.program(.particle) } catch { problem = "\(error)" }
        } else {
            problem = "no particle pipeline"
        }
        particleProbe = .some(problem)
        return problem
    }
}
