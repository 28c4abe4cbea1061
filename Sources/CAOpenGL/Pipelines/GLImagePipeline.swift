internal import CGL
import CAFrame

/// `contents` images (`Shaders/image.*`): the batch's texture (an image's own, or an atlas
/// page) on unit 1, with the batch's filter.
final class GLImagePipeline: GLPipeline {
    let stream = GLInstanceStream(ImageInstance.layout)

    func upload(_ frame: RenderFrame, on r: GLRenderer, stats: inout RenderStats) throws {
        uploadInstances(ImageInstance.self, of: frame)
    }

    func prepare(_ b: Batch, _ bindings: GLBatchBindings, on r: GLRenderer) throws -> GLProgram {
        guard case .image(let t, let filter) = b.pipeline else { throw GLBackendError("image pipeline given \(b.pipeline)") }
        let program = try r.program("image", b.variant)
        stream.bind(first: b.range.lowerBound)
        program.use()
        r.bindTexture(bindings.textures[t], unit: 1, filter: filter)
        program.set("u_texture", int: 1)
        return program
    }
}
