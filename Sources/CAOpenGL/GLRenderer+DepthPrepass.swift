internal import CGL
import CAFrame

/// The main pass's depth pre-pass (issue 4: "opaque content drawn front to back with depth
/// testing saves ~45% of overdraw on llvmpipe").
///
/// Every instance of the main pass gets a depth from its paint order (later nearer,
/// `orderDepth` in common.glsl). The interiors of opaque boxes — an opaque background, not
/// clipped or blurred, inset past its corners, its border unless that is
/// opaque too, and the antialiased fringe — are drawn first, nearest first, writing depth only;
/// the pass then draws as before with the depth test on, so llvmpipe skips shading and blending
/// the pixels a later opaque layer covers. Nothing else changes: a covered pixel ends as the
/// covering layer's colour either way, and no fragment shader discards or writes depth.
extension GLRenderer {
    /// The opaque interiors among `batches` (each with its paint order − ½ in `params.w`: just
    /// behind its own instance, so that passes the test, and in front of every earlier one,
    /// which fails it), nearest first, and the depth
    /// step per instance, 2 / (instances + 1).
    static func opaqueInteriors(_ frame: RenderFrame, _ batches: [Batch]) -> ([BoxInstance], Float) {
        let total = batches.reduce(0) { $0 + instancesDrawn($1, frame) }
        var out: [BoxInstance] = []
        var order = 0
        for b in batches {
            defer { order += instancesDrawn(b, frame) }
            // Depth planes write their own depth (`GLRenderer+DepthPlanes.swift`); replicated
            // copies are tinted in the shader, so their box's fill does not tell if they are
            // opaque (they are drawn, only not culled against).
            guard case .box = b.pipeline, b.depthPlane < 0, b.replica < 0 else { continue }
            for i in b.range {
                if var inner = interior(of: frame.boxes[i]) {
                    inner.params.w = Float(order + (i - b.range.lowerBound)) - 0.5
                    out.append(inner)
                }
            }
        }
        guard !out.isEmpty else { return ([], 0) }
        out.reverse()
        return (out, 2 / Float(total + 1))
    }

    /// The opaque interior of a box instance as an instance of its own (square corners, no
    /// border), or nil when it has none worth drawing.
    static func interior(of b: BoxInstance) -> BoxInstance? {
        let flags = UInt32(max(b.h2.w, 0))
        guard b.fill.w >= 1, flags & 64 == 0, b.params.y <= 0, b.h1.w == 0 else { return nil }
        let affine = b.h0.z == 0 && b.h1.z == 0
        let minScale: Float
        if affine {
            guard b.h2.z > 0 else { return nil }
            minScale = smallerSingularValue(b.h0.x / b.h2.z, b.h1.x / b.h2.z, b.h0.y / b.h2.z, b.h1.y / b.h2.z)
        } else {
            // A plane under perspective (a CATransformLayer's opaque sublayer, issue 21): its
            // pixels per plane unit vary; the least over the rectangle's corners, where the
            // homogeneous w (affine in the plane) is at its extremes.
            guard let s = projectiveMinScale(b) else { return nil }
            minScale = s
        }
        guard minScale > 1e-6, minScale.isFinite else { return nil }
        let radius = max(max(b.radii.x, b.radii.y), max(b.radii.z, b.radii.w)) * (flags & 16 != 0 ? 1.53 : 1)
        let border: Float = flags & 32 == 0 && b.border.w < 1 ? b.params.x : 0
        // Under perspective the antialiased fringe is 1.5 px either way (box.vert's projective
        // fringe): twice that, for the scale varying between the corners.
        let inset = radius + border + (affine ? 1.5 : 3) / minScale
        var inner = b
        let w = b.rect.z - 2 * inset, h = b.rect.w - 2 * inset
        // At least a few pixels each way, or the pass costs more than it saves.
        guard w * minScale >= 4, h * minScale >= 4 else { return nil }
        inner.rect = SIMD4(b.rect.x + inset, b.rect.y + inset, w, h)
        inner.radii = .zero
        inner.border = .zero
        return inner
    }

    /// The smaller singular value of the 2×2 matrix ((a, c), (b, d)).
    static func smallerSingularValue(_ a: Float, _ c: Float, _ b: Float, _ d: Float) -> Float {
        let s1 = a * a + b * b + c * c + d * d, det = a * d - b * c
        return ((s1 - max(s1 * s1 - 4 * det * det, 0).squareRoot()) / 2).squareRoot()
    }

    /// The least pixels per plane unit of a projective box over its rectangle's corners (the
    /// Jacobian of the homogeneous divide there); nil when a corner is at or behind w = 0.
    static func projectiveMinScale(_ b: BoxInstance) -> Float? {
        var least = Float.infinity
        for (x, y) in [(b.rect.x, b.rect.y), (b.rect.x + b.rect.z, b.rect.y),
                       (b.rect.x, b.rect.y + b.rect.w), (b.rect.x + b.rect.z, b.rect.y + b.rect.w)] {
            let X = x * b.h0.x + y * b.h1.x + b.h2.x, Y = x * b.h0.y + y * b.h1.y + b.h2.y
            let W = x * b.h0.z + y * b.h1.z + b.h2.z
            guard W > 1e-6, W.isFinite else { return nil }
            let px = X / W, py = Y / W
            let s = smallerSingularValue((b.h0.x - px * b.h0.z) / W, (b.h1.x - px * b.h1.z) / W,
                                         (b.h0.y - py * b.h0.z) / W, (b.h1.y - py * b.h1.z) / W)
            least = min(least, s)
        }
        return least.isFinite ? least : nil
    }

    /// Draws the interiors into depth only (colour writes off), nearest first.
    func drawPrepass(_ interiors: [BoxInstance], viewport: SIMD4<Float>, flip: Float, orderScale: Float,
                     stats: inout RenderStats) throws {
        prepassStream.upload(interiors)
        prepassStream.bind(first: 0)
        let program = try self.program("box", [.depthPrepass])
        program.use()
        program.set("u_viewport", viewport)
        program.set("u_flip", flip)
        program.set("u_clips", int: Self.clipTextureUnit)
        program.set("u_orderBase", 0)
        program.set("u_orderScale", orderScale)
        glEnable(E(GL_DEPTH_TEST))
        glDepthFunc(E(GL_LESS))
        glColorMask(GLboolean(GL_FALSE), GLboolean(GL_FALSE), GLboolean(GL_FALSE), GLboolean(GL_FALSE))
        glDrawArraysInstanced(E(GL_TRIANGLE_STRIP), 0, 4, GLsizei(interiors.count))
        glColorMask(GLboolean(GL_TRUE), GLboolean(GL_TRUE), GLboolean(GL_TRUE), GLboolean(GL_TRUE))
        stats.drawCalls += 1
        stats.vertices += 4 * interiors.count
        stats.opaqueInteriors = interiors.count
        glCheck("depth pre-pass")
    }
}
