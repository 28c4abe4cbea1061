import CAFrame

/// `contents` images: Shaders/image.vert and image.frag on the CPU (per-pixel choice between
/// the minification and magnification filter, nearest / bilinear / trilinear, atlas cells,
/// contentsRect clamped to the image's edge texels, the layer's rounded shape). Instances
/// without perspective are drawn by their row plan (`SoftwareImageRows.swift`) unless
/// `SoftwareRenderer.usesRowPaths` is off.
struct SoftwareImagePipeline: SoftwareQuadBatch {
    let instances: ArraySlice<ImageInstance>
    let quads: [SoftwareQuad]
    /// The instances by the rows they touch (`SoftwareRowIndex`).
    let rowIndex: SoftwareRowIndex
    let variant: SoftwareVariant
    let additive: Bool
    let texture: SoftwareTexture
    let filter: TextureFilter
    /// Per instance, its row plan where it is drawn without perspective (`SoftwareImageRows`).
    let plans: [SoftwareImageRowPlan?]
    /// Whether row plans draw their interiors with the specialised loop
    /// (`SoftwareRenderer.usesInteriorLoops`).
    let interiorLoops: Bool

    init(_ all: [ImageInstance], _ b: Batch, _ map: SoftwareViewport, _ target: SoftwareTarget, texture: SoftwareTexture,
         filter: TextureFilter, rowPaths: Bool = true, interiorLoops: Bool = true) {
        instances = all[b.range]
        self.interiorLoops = interiorLoops
        variant = SoftwareVariant(b.variant)
        additive = b.variant.contains(.additive)
        self.texture = texture
        self.filter = filter
        quads = instances.map { i in
            // image.vert: only sides on the shape's edge grow for antialiasing.
            let m = 1.5 / max(softwarePlaneScale(i.h0, i.h1, i.h2), 1e-6)
            let lo = SIMD2(i.rect.x, i.rect.y), hi = lo + SIMD2(i.rect.z, i.rect.w)
            let slo = SIMD2(i.shape.x, i.shape.y), shi = slo + SIMD2(i.shape.z, i.shape.w)
            let g0 = SIMD2<Float>(lo.x <= slo.x + 1e-3 ? m : 0, lo.y <= slo.y + 1e-3 ? m : 0)
            let g1 = SIMD2<Float>(hi.x >= shi.x - 1e-3 ? m : 0, hi.y >= shi.y - 1e-3 ? m : 0)
            return SoftwareQuad(map: map.planeToTexel(i.h0, i.h1, i.h2), lo: lo - g0, hi: hi + g1, width: target.width, height: target.height)
        }
        let pixelRows = quads.map { q in q.y0 < q.y1 ? q.y0..<q.y1 : 0..<0 }
        rowIndex = SoftwareRowIndex(count: pixelRows.count, height: target.height) { pixelRows[$0] }
        let v = variant, add = additive
        plans = rowPaths ? zip(instances, quads).map { i, q in
            SoftwareImageRowPlan(i, q, v, additive: add, texture: texture, filter: filter)
        } : Array(repeating: nil, count: quads.count)
    }

    func draw(_ ctx: SoftwarePassContext, _ rows: Range<Int>) {
        let v = variant
        let target = ctx.target
        let tex = texture
        let size = SIMD2(Float(tex.width), Float(tex.height))
        // Three texels more than a row: the edge lanes write in fours (`drawRows`).
        let scratch = UnsafeMutablePointer<UInt32>.allocate(capacity: target.width + 3)
        defer { scratch.deallocate() }
        for k in rowIndex.candidates(rows) {
            let q = quads[k]
            if q.y1 <= rows.lowerBound || q.y0 >= rows.upperBound { continue }
            let i = instances[instances.startIndex + k]
            if let plan = plans[k] {
                drawRows(i, plan, q, ctx, rows, scratch)
                continue
            }
            let flags = Int(SoftwareClamp.int(i.h2.w + 0.5))
            let aa = flags & Int(InstanceFlags.edgeMask)
            let continuous = flags & Int(InstanceFlags.continuousCorners) != 0
            let mask = Int(InstanceFlags.filterMask)
            let minMode = (flags >> Int(InstanceFlags.minificationFilterShift)) & mask
            let magMode = (flags >> Int(InstanceFlags.magnificationFilterShift)) & mask
            let ppu = softwarePlaneScale(i.h0, i.h1, i.h2)
            let lo = SIMD2(i.rect.x, i.rect.y)
            let rsize = SIMD2(max(i.rect.z, 1e-9), max(i.rect.w, 1e-9))
            let uv0 = SIMD2(i.uv.x, i.uv.y), duv = SIMD2(i.uv.z, i.uv.w) - uv0
            let aOrigin = SIMD2(i.atlas.x, i.atlas.y), aSize = SIMD2(i.atlas.z, i.atlas.w)
            q.forEachTexel(rows: rows) { x, y, p, px, py in
                let cov = SoftwareField.shapeCoverage(p, px, py, pxPerUnit: ppu, rect: i.shape, radii: i.shapeRadii,
                                                      continuous: continuous, aaMask: aa, v)
                let raw = uv0 + (p - lo) / rsize * duv
                let uv = SIMD2(SoftwareField.clamp01(raw.x), SoftwareField.clamp01(raw.y))
                let gx = px / rsize * duv * aSize, gy = py / rsize * duv * aSize
                let dx = gx * size, dy = gy * size
                let minified = max((dx * dx).sum(), (dy * dy).sum()) > 1 + 1e-4
                let mode = minified ? minMode : magMode
                var c: SIMD4<Float>
                if mode == 1 {
                    // Nearest within the image (edge texels extend), as texelFetch in the shader.
                    let imageSize = aSize * size
                    let tx = min(max(SoftwareClamp.int((uv.x * imageSize.x).softwareFloor), 0), SoftwareClamp.int(imageSize.x + 0.5) - 1)
                    let ty = min(max(SoftwareClamp.int((uv.y * imageSize.y).softwareFloor), 0), SoftwareClamp.int(imageSize.y + 0.5) - 1)
                    c = tex.levels[0].texel(tx + SoftwareClamp.int(aOrigin.x * size.x + 0.5), ty + SoftwareClamp.int(aOrigin.y * size.y + 0.5))
                } else {
                    let tc = aOrigin + uv * aSize
                    switch filter {
                    case .nearest: c = tex.nearest(tc)
                    case .linear: c = tex.linear(tc)
                    case .trilinear: c = mode == 2 ? tex.trilinear(tc, gx, gy) : tex.linear(tc)
                    }
                }
                target.blend(x, y, c * i.tint * (cov * ctx.clip(i.h1.w, x, y, v)), additive: additive)
            }
        }
    }
}
