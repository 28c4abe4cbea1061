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

    func setPrimitiveUniforms(_ step: FilterPrimitiveStep, _ p: GLProgram, texels: SIMD2<Float>) throws {
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
        }
    }
}
