internal import CGL
import CAFrame

/// Offscreen results placed on their parent target (`Shaders/composite.*`): the source target
/// on unit 1, the mask target (if any) on unit 2.
final class GLCompositePipeline: GLPipeline {
    let stream = GLInstanceStream(CompositeInstance.layout)

    func upload(_ frame: RenderFrame, on r: GLRenderer, stats: inout RenderStats) throws {
        uploadInstances(CompositeInstance.self, of: frame)
    }

    func prepare(_ b: Batch, _ bindings: GLBatchBindings, on r: GLRenderer) throws -> GLProgram {
        guard case .composite(let source, let mask) = b.pipeline else { throw GLBackendError("composite pipeline given \(b.pipeline)") }
        // A composite with a mask target always needs the mask code, whoever built the batch.
        let program = try r.program("composite", mask == nil ? b.variant : b.variant.union(.mask))
        stream.bind(first: b.range.lowerBound)
        program.use()
        guard let s = bindings.target(source) else { throw GLBackendError("composite source \(source) is not offscreen") }
        r.bindTexture(s, unit: 1, filter: .linear)
        program.set("u_source", int: 1)
        if let mask, let m = bindings.target(mask) {
            r.bindTexture(m, unit: 2, filter: .linear)
            program.set("u_mask", int: 2)
        } else {
            program.set("u_mask", int: 1)
        }
        return program
    }
}
