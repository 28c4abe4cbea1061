internal import CGL
import CAFrame

/// Backgrounds, borders and analytic shadows (`Shaders/box.*`): instances only.
final class GLBoxPipeline: GLPipeline {
    let stream = GLInstanceStream(BoxInstance.layout)

    func upload(_ frame: RenderFrame, on r: GLRenderer, stats: inout RenderStats) throws {
        uploadInstances(BoxInstance.self, of: frame)
    }

    func prepare(_ b: Batch, _ bindings: GLBatchBindings, on r: GLRenderer) throws -> GLProgram {
        let program = try r.program("box", b.variant)
        stream.bind(first: b.range.lowerBound)
        program.use()
        return program
    }
}
