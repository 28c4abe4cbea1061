internal import CGL
import CAFrame

/// The filter chain's passes (`RenderPass.Kind.filter`, `.copy`; docs/FILTERS.md): each step is
/// a full-target triangle (blur.vert) with `filter.frag` compiled for its family alone (and
/// for a blend, its mode), or `blur.frag` cut at 3σ; a copy is a framebuffer blit.
extension GLRenderer {
    /// The program of a filter step, compiled on first use.
    func filterProgram(_ op: FilterOp) throws -> GLProgram {
        let key: String
        let defines: [String]
        switch op {
        case .color: key = "color"; defines = ["CA_FILTER_COLOR"]
        case .blur: key = "blur"; defines = ["CA_FILTER_BLUR"]
        case .vignette: key = "vignette"; defines = ["CA_FILTER_VIGNETTE"]
        case .pixellate: key = "pixellate"; defines = ["CA_FILTER_PIXELLATE"]
        case .add: key = "add"; defines = ["CA_FILTER_ADD"]
        case .blend(let mode, _, _, _):
            let m = min(max(mode, 0), BlendModeID.count - 1)
            key = "blend\(m)"; defines = ["CA_FILTER_BLEND", "CA_CLIP", "CA_BLEND_\(m)"]
        case .inside(_, _, _, let mask, _):
            key = mask == nil ? "inside" : "insideMask"
            defines = ["CA_FILTER_INSIDE", "CA_CLIP"] + (mask == nil ? [] : ["CA_MASK"])
        case .primitive(let step): return try primitiveProgram(step)
        }
        if let p = filterPrograms[key] { return p }
        let fragment: String
        if case .blur = op { fragment = "blur.frag" } else { fragment = "filter.frag" }
        let p = try GLProgram(vertex: "blur.vert", fragment: fragment, defines: defines)
        filterPrograms[key] = p
        return p
    }

    /// Draws filter step `op` of `source` into the bound target (viewport already set).
    func runFilter(_ op: FilterOp, source: GLTexture, other: (TargetID) -> GLTexture?, viewport vp: SIMD4<Float>,
                   texels: SIMD2<Float>, stats: inout RenderStats) throws {
        let p = try filterProgram(op)
        glDisable(E(GL_BLEND))
        defer { glEnable(E(GL_BLEND)) }
        p.use()
        bindTexture(source, unit: 1, filter: .linear)
        p.set("u_source", int: 1)
        p.set("u_viewport", vp)
        p.set("u_flip", 1)
        p.set("u_clips", int: Self.clipTextureUnit)
        func bindOther(_ t: TargetID) throws {
            guard let tex = other(t) else { throw GLBackendError("filter input \(t) is not offscreen") }
            bindTexture(tex, unit: 2, filter: .linear)
            p.set("u_other", int: 2)
        }
        var keepAlive: [GLTexture] = []
        switch op {
        case .color(let m):
            for (i, row) in [m.r, m.g, m.b, m.a, m.bias].enumerated() { p.set("u_rows[\(i)]", row) }
            p.set("u_power", m.power)
        case .blur(let sigma, let horizontal):
            p.set("u_sigma", max(sigma, 0.01))
            p.set("u_step", horizontal ? SIMD2(1 / texels.x, 0) : SIMD2(0, 1 / texels.y))
        case .vignette(let center, let extent, let radius, let intensity):
            let halfDiagonal = 0.5 * (extent.z * extent.z + extent.w * extent.w).squareRoot()
            p.set("u_params", SIMD4(center.x, center.y, max(radius, 0) * halfDiagonal, intensity))
        case .pixellate(let center, let scale):
            p.set("u_params", SIMD4(center.x, center.y, max(scale, 1), 0))
        case .add(let glow, let weight):
            try bindOther(glow)
            p.set("u_params", SIMD4(weight, 0, 0, 0))
        case .blend(_, let backdrop, let opacity, let clip):
            try bindOther(backdrop)
            p.set("u_params", SIMD4(opacity, Float(clip), 0, 0))
        case .inside(let backdrop, let shape, let outer, let mask, let maskRect):
            try bindOther(backdrop)
            p.set("u_params", SIMD4(Float(shape), Float(outer), 0, 0))
            if let mask {
                guard let tex = other(mask) else { throw GLBackendError("filter mask \(mask) is not offscreen") }
                bindTexture(tex, unit: 3, filter: .linear)
                p.set("u_mask", int: 3)
                p.set("u_extent", maskRect)
            }
        case .primitive(let step):
            let uploadsBefore = turbulenceUploads
            keepAlive = try setPrimitiveUniforms(step, p, texels: texels)
            stats.textureUploads += turbulenceUploads - uploadsBefore
            if let t = step.other { try bindOther(t) }
        }
        glDrawArrays(E(GL_TRIANGLES), 0, 3)
        withExtendedLifetime(keepAlive) {}
        stats.drawCalls += 1
        stats.vertices += 3
    }

    /// Copies the pixels of a source framebuffer under `dst` (frame pixels) into the bound
    /// draw framebuffer `dstFBO` (a target covering `dst`). `srcRect` is the source's rect in
    /// frame pixels; `srcFlip` −1 for a window's default framebuffer (row 0 at the bottom).
    func runCopy(from srcFBO: GLuint, srcRect: SIMD4<Float>, srcFlip: Float, into dstFBO: GLuint, dst: SIMD4<Float>,
                 texels: SIMD2<Float>) {
        glBindFramebuffer(E(GL_DRAW_FRAMEBUFFER), dstFBO)
        glClearColor(0, 0, 0, 0)
        glClear(GLbitfield(GL_COLOR_BUFFER_BIT))
        glBindFramebuffer(E(GL_READ_FRAMEBUFFER), srcFBO)
        let x0 = GLint(dst.x - srcRect.x), x1 = GLint(dst.x + dst.z - srcRect.x)
        var y0 = GLint(dst.y - srcRect.y), y1 = GLint(dst.y + dst.w - srcRect.y)
        var d0: GLint = 0, d1 = GLint(texels.y)
        if srcFlip < 0 {
            let h = GLint(srcRect.w)
            (y0, y1) = (h - y1, h - y0)
            (d0, d1) = (d1, d0)
        }
        glBlitFramebuffer(x0, y0, x1, y1, 0, d0, GLint(texels.x), d1, GLbitfield(GL_COLOR_BUFFER_BIT), E(GL_NEAREST))
        glBindFramebuffer(E(GL_FRAMEBUFFER), dstFBO)
    }
}
