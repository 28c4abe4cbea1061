internal import CGL
import CAFrame

/// Backgrounds, borders and analytic shadows (`Shaders/box.*`): instances only.
package final class GLBoxPipeline: GLPipeline {
    let stream = GLInstanceStream(BoxInstance.layout)

    func upload(_ frame: RenderFrame, on r: GLRenderer, stats: inout RenderStats) throws {
        uploadInstances(BoxInstance.self, of: frame)
    }

    func prepare(_ b: Batch, _ bindings: GLBatchBindings, on r: GLRenderer) throws -> GLProgram {
        // The interior early-out where the driver branches cheaply and a box of the batch has an
        // interior: the 10,000 replicated 15 × 8.5 px boxes, which have none, paid 4 % more GPU
        // time for its test (docs/PERFORMANCE.md).
        let early = r.branchesCheaply && !b.variant.contains(.projective) && Self.hasInterior(bindings.frame.boxes, b.range)
        let program = try r.program("box", b.variant, interiorEarly: early)
        stream.bind(first: b.range.lowerBound)
        program.use()
        return program
    }

    /// Whether a box of `range` has an interior at least 4 px across inside its corner zones
    /// (continuous corners' 1.528665 × radius), its border and half a pixel: `box.frag`'s
    /// early-out region. Stops at the first such box.
    package static func hasInterior(_ boxes: [BoxInstance], _ range: Range<Int>) -> Bool {
        guard range.lowerBound >= 0, range.upperBound <= boxes.count else { return false }
        for i in range {
            let b = boxes[i]
            let ppu = (abs(b.h0.x * b.h1.y - b.h0.y * b.h1.x)).squareRoot() / max(abs(b.h2.z), 1e-9)
            guard ppu.isFinite, ppu > 0 else { continue }
            let corner = max(max(b.radii.x, b.radii.y), max(b.radii.z, b.radii.w)) * 1.528665
            let inset = corner + max(b.params.x, 0) + (0.5 + 2) / ppu
            if min(b.rect.z, b.rect.w) * 0.5 > inset { return true }
        }
        return false
    }
}
