internal import CGL
import CAFrame

/// Opaque `CATransformLayer` planes through the depth buffer (`DepthPlane`; the builder's
/// `RenderTreeBuilder+DepthPlanes.swift`).
///
/// Each plane's box batch has its plane's depth. The planes of one transform layer (a group)
/// take the paint-order depths their instances span in the main pass — from the first's to
/// the last's (`orderDepth` in common.glsl) — with the farthest point of the group at the
/// first and the nearest at the last, so the group stays behind what is painted after it and
/// in front of what is painted before, as every other instance. Before the pass draws, the
/// planes' opaque interiors (`interior(of:)`, the depth pre-pass's) are written into depth at
/// their 3D depth; the planes are then drawn, in the order of their centres, depth-tested
/// against those and nudged a little nearer (`bias`) so that a plane never fails against its
/// own interior, in two phases (the pass loop in `GLRenderer.swift`, box.frag's
/// `u_planeFringe`): every plane's opaque pixels, writing depth, then every plane's
/// antialiased fringe, blended. Where two planes cross, each pixel keeps the nearer one, and a
/// nearer plane's edge lies over a farther plane whatever order they come in.
extension GLRenderer {
    /// The depth span of each group: (depth of its first instance's paint order, of its last).
    static func depthPlaneSpans(_ frame: RenderFrame, _ batches: [Batch], orderScale: Float) -> [Int32: SIMD2<Float>] {
        var first: [Int32: Int] = [:], last: [Int32: Int] = [:]
        var order = 0
        for b in batches {
            defer { order += instancesDrawn(b, frame) }
            guard b.depthPlane >= 0, Int(b.depthPlane) < frame.depthPlanes.count else { continue }
            let g = frame.depthPlanes[Int(b.depthPlane)].group
            if first[g] == nil { first[g] = order }
            last[g] = order + b.range.count - 1
        }
        var spans: [Int32: SIMD2<Float>] = [:]
        for (g, f) in first {
            let l = last[g] ?? f
            spans[g] = SIMD2(1 - Float(f + 1) * orderScale, 1 - Float(l + 1) * orderScale)
        }
        return spans
    }

    /// Whether `batches` hold depth planes.
    static func hasDepthPlanes(_ batches: [Batch]) -> Bool { batches.contains { $0.depthPlane >= 0 } }

    /// The uniforms of a plane's draw: its depth ratio and (far, near, bias) of its group.
    static func setDepthPlane(_ program: GLProgram, _ plane: DepthPlane, span: SIMD2<Float>, bias: Float) {
        program.set("u_planeNum", plane.numerator)
        program.set("u_planeDen", plane.denominator)
        program.set("u_planeRange", SIMD4(span.x, span.y, bias, 0))
    }

    /// How much nearer a plane is drawn than its own interior in depth: a ten-thousandth of its
    /// group's span, at least a few steps of a 24-bit depth buffer.
    static func depthPlaneBias(_ span: SIMD2<Float>) -> Float { max(abs(span.x - span.y) * 1e-4, 5e-7) }

    /// Writes the planes' interiors into depth (colour writes off, depth test LESS), each at
    /// its plane's depth; returns how many.
    func drawDepthPlaneInteriors(_ frame: RenderFrame, _ batches: [Batch], spans: [Int32: SIMD2<Float>],
                                 viewport: SIMD4<Float>, flip: Float, stats: inout RenderStats) throws -> Int {
        var drawn = 0
        let program = try self.program("box", [.depthPrepass, .planeDepth])
        glEnable(E(GL_DEPTH_TEST))
        glDepthFunc(E(GL_LESS))
        glDepthMask(GLboolean(GL_TRUE))
        glColorMask(GLboolean(GL_FALSE), GLboolean(GL_FALSE), GLboolean(GL_FALSE), GLboolean(GL_FALSE))
        defer { glColorMask(GLboolean(GL_TRUE), GLboolean(GL_TRUE), GLboolean(GL_TRUE), GLboolean(GL_TRUE)) }
        for b in batches where b.depthPlane >= 0 && Int(b.depthPlane) < frame.depthPlanes.count {
            let plane = frame.depthPlanes[Int(b.depthPlane)]
            guard let span = spans[plane.group] else { continue }
            let interiors = b.range.compactMap { Self.interior(of: frame.boxes[$0]) }
            guard !interiors.isEmpty else { continue }
            prepassStream.upload(interiors)
            prepassStream.bind(first: 0)
            program.use()
            program.set("u_viewport", viewport)
            program.set("u_flip", flip)
            program.set("u_clips", int: Self.clipTextureUnit)
            program.set("u_orderBase", 0)
            program.set("u_orderScale", 0)
            Self.setDepthPlane(program, plane, span: span, bias: 0)
            glDrawArraysInstanced(E(GL_TRIANGLE_STRIP), 0, 4, GLsizei(interiors.count))
            stats.drawCalls += 1
            stats.vertices += 4 * interiors.count
            drawn += interiors.count
        }
        glCheck("depth planes")
        return drawn
    }
}
