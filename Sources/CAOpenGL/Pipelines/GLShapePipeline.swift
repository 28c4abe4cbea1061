internal import CGL
import CAFrame

/// CAShapeLayer fills and strokes (`Shaders/shape.*`): the atlas pages the frame lists
/// (`GLShapeAtlas`, synchronised with the frame's uploads), the batch's coverage page on unit 1,
/// its exact field page on unit 2 and the compact field's auxiliary texture on unit 3.
final class GLShapePipeline: GLPipeline {
    let stream = GLInstanceStream(ShapeInstance.layout)
    let atlas = GLShapeAtlas()

    func upload(_ frame: RenderFrame, on r: GLRenderer, stats: inout RenderStats) throws {
        uploadInstances(ShapeInstance.self, of: frame)
        atlas.sync(frame)
    }

    func prepare(_ b: Batch, _ bindings: GLBatchBindings, on r: GLRenderer) throws -> GLProgram {
        guard case .shape(let page, let fieldPage) = b.pipeline else { throw GLBackendError("shape pipeline given \(b.pipeline)") }
        let pages = bindings.frame.shapePages
        let program = try r.program("shape", b.variant)
        stream.bind(first: b.range.lowerBound)
        program.use()
        guard page >= 0, page < pages.count, let cov = atlas.textures[pages[page].id] else {
            throw GLBackendError("shape batch refers to atlas page \(page), which the frame does not list")
        }
        r.bindTexture(cov, unit: 1, filter: .linear)
        program.set("u_coverage", int: 1)
        program.set("u_coverageSize", SIMD2(Float(cov.width), Float(cov.height)))
        if fieldPage >= 0, fieldPage < pages.count, let f = atlas.textures[pages[fieldPage].id] {
            r.bindTexture(f, unit: 2, filter: .linear)
            program.set("u_field", int: 2)
            program.set("u_fieldSize", SIMD2(Float(f.width), Float(f.height)))
        } else {
            program.set("u_field", int: 1)
        }
        if b.variant.contains(.shapeField), !b.variant.isDisjoint(with: [.shapeDash, .shapeRoundCap]) {
            guard let aux = atlas.auxTextures[pages[page].id] else {
                throw GLBackendError("shape batch reads the auxiliary field texture of atlas page \(page), which no upload made")
            }
            r.bindTexture(aux, unit: 3, filter: .nearest)
            program.set("u_aux", int: 3)
        }
        return program
    }
}
