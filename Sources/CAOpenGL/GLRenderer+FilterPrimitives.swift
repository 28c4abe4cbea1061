internal import CGL
import CAFrame

/// Filter-graph primitives (`FilterOp.primitive`, docs/FILTERS.md "Filter graphs"): each family
/// is `filter.frag` compiled with its own `CA_PRIM_<family>` define (and `CA_FILTER_BLEND` with
/// the mode for feBlend), so a pass runs only its primitive's code.
extension GLRenderer {
    func primitiveProgram(_ step: FilterPrimitiveStep) throws -> GLProgram {
        let family = step.family
        let key = "prim-" + family
        if let p = filterPrograms[key] { return p }
        var defines = ["CA_FILTER_PRIMITIVE", "CA_PRIM_" + family]
        if case .blend(let m) = step.op {
            defines = ["CA_FILTER_PRIMITIVE", "CA_PRIM_BLEND", "CA_FILTER_BLEND", "CA_BLEND_\(min(max(m, 0), BlendModeID.count - 1))"]
        }
        let p = try GLProgram(vertex: "blur.vert", fragment: "filter.frag", defines: defines)
        filterPrograms[key] = p
        return p
    }

    /// Sets the step's uniforms; returns the textures the draw reads that must live until it is
    /// issued (feTurbulence's lattice).
    func setPrimitiveUniforms(_ step: FilterPrimitiveStep, _ p: GLProgram, texels: SIMD2<Float>) throws -> [GLTexture] {
        p.set("u_crop", step.crop)
        switch step.op {
        case .offset(let d): p.set("u_params", SIMD4(d.x, d.y, 0, 0))
        case .flood(let c): p.set("u_params", c)
        case .composite(let op): p.set("u_params", SIMD4(Float(op), 0, 0, 0))
        case .arithmetic(let k): p.set("u_params", k)
        case .blend: p.set("u_params", SIMD4(1, 0, 0, 0))
        case .matrix(let m):
            for (i, row) in [m.r, m.g, m.b, m.a, m.bias].enumerated() { p.set("u_rows[\(i)]", row) }
        case .transfer(let table):
            for (i, v) in table.samples.prefix(FilterTransferTable.size).enumerated() { p.set("u_table[\(i)]", v) }
        case .convert, .copy: break
        case .morphology(let r, _): p.set("u_params", SIMD4(r.x, r.y, 0, 0))
        case .tile(let rect): p.set("u_params", rect)
        case .lighting(let params, let light, let spot, let extra, let color):
            p.set("u_params", params); p.set("u_extent", light)
            p.set("u_rows[0]", spot); p.set("u_rows[1]", extra); p.set("u_rows[2]", color)
        case .convolve(let size, let target, let params, let kernel):
            p.set("u_params", SIMD4(size.x, size.y, target.x, target.y))
            p.set("u_extent", params)
            var k = kernel.prefix(256).map { $0 }
            while k.count % 4 != 0 { k.append(0) }
            for i in stride(from: 0, to: k.count, by: 4) { p.set("u_table[\(i / 4)]", SIMD4(k[i], k[i + 1], k[i + 2], k[i + 3])) }
        case .turbulence(let tb):
            return [setTurbulenceUniforms(tb, p)]
        case .displacement(let xAxis, let yAxis, let channels):
            p.set("u_params", SIMD4(xAxis.x, xAxis.y, yAxis.x, yAxis.y))
            p.set("u_extent", SIMD4(Float(channels.x), Float(channels.y), 0, 0))
        }
        return []
    }

    /// feTurbulence (`CA_PRIM_TURBULENCE`): the lattice as a 256 × 3 RGBA32F texture on unit 3
    /// (read with texelFetch), u_params (frequency x, y, octaves, fractal), u_extent (stitch
    /// width, height, wrapX, wrapY), u_rows[0…2] the frame → user-space rows, u_rows[3].x 1 when
    /// stitching.
    private func setTurbulenceUniforms(_ tb: FilterTurbulenceStep, _ p: GLProgram) -> GLTexture {
        let tex = turbulenceTexture(tb.lattice)
        bindTexture(tex, unit: 3, filter: .nearest)
        p.set("u_lattice", int: 3)
        p.set("u_params", SIMD4(tb.frequency.x, tb.frequency.y, Float(tb.octaves), tb.fractal ? 1 : 0))
        let s = tb.stitch
        p.set("u_extent", SIMD4(Float(s?.width ?? 0), Float(s?.height ?? 0), Float(s?.wrapX ?? 0), Float(s?.wrapY ?? 0)))
        for (i, r) in tb.inverse.prefix(3).enumerated() { p.set("u_rows[\(i)]", r) }
        p.set("u_rows[3]", SIMD4(s == nil ? 0 : 1, 0, 0, 0))
        return tex
    }

    /// The lattice's texture, uploaded the first time its seed is drawn and kept (the table
    /// depends only on the seed): an animated feTurbulence filter uploads nothing per frame.
    /// At most `TurbulenceLattice.cacheLimit` are kept; past that the cache starts over.
    private func turbulenceTexture(_ lattice: TurbulenceLattice) -> GLTexture {
        if let t = turbulenceTextures[lattice.seed] { return t }
        if turbulenceTextures.count >= TurbulenceLattice.cacheLimit { turbulenceTextures.removeAll() }
        let texels = lattice.texels
        let tex = texels.withUnsafeBytes { raw in
            GLTexture(width: TurbulenceLattice.size, height: 3, internalFormat: GL_RGBA32F, format: GL_RGBA, type: GL_FLOAT,
                      pixels: raw.baseAddress)
        }
        turbulenceTextures[lattice.seed] = tex
        turbulenceUploads += 1
        return tex
    }
}
