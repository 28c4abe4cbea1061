import CAFrame

/// Offscreen results put back: Shaders/composite.vert and composite.frag on the CPU (group
/// opacity, shadow colour from the source's alpha, mask targets, the transition cross-fade).
struct SoftwareCompositePipeline: SoftwareBatchWork {
    let instances: ArraySlice<CompositeInstance>
    let quads: [SoftwareQuad]
    let variant: SoftwareVariant
    let additive: Bool
    let source: SoftwareTarget
    let mask: SoftwareTarget?

    init(_ all: [CompositeInstance], _ b: Batch, _ map: SoftwareViewport, _ target: SoftwareTarget, source: SoftwareTarget,
         mask: SoftwareTarget?) {
        instances = all[b.range]
        variant = SoftwareVariant(b.variant)
        additive = b.variant.contains(.additive)
        self.source = source
        self.mask = mask
        // The plane is the frame itself (identity map).
        let id = map.planeToTexel(SIMD4(1, 0, 0, 0), SIMD4(0, 1, 0, 0), SIMD4(0, 0, 1, 0))
        quads = instances.map { i in
            SoftwareQuad(map: id, lo: SIMD2(i.dst.x, i.dst.y), hi: SIMD2(i.dst.x + i.dst.z, i.dst.y + i.dst.w),
                         width: target.width, height: target.height)
        }
    }

    func draw(_ ctx: SoftwarePassContext, _ rows: Range<Int>) {
        let v = variant
        let target = ctx.target
        let src = source
        let sSize = SIMD2(Float(src.width), Float(src.height))
        for (k, i) in instances.enumerated() {
            let q = quads[k]
            if q.y1 <= rows.lowerBound || q.y0 >= rows.upperBound { continue }
            let mode = SoftwareClamp.int(i.params.z + 0.5)
            let dlo = SIMD2(i.dst.x, i.dst.y), dsize = SIMD2(i.dst.z, i.dst.w)
            let slo = SIMD2(i.src.x, i.src.y), ssize = SIMD2(max(i.src.z, 1), max(i.src.w, 1))
            q.forEachTexel(rows: rows) { x, y, p, _, _ in
                let uv = (p - dlo) / dsize
                let s = src.bilinear(uv.x * sSize.x, uv.y * sSize.y)
                var c: SIMD4<Float>
                if mode == 2 {
                    if let m = mask {
                        let mv = m.bilinear(uv.x * Float(m.width), uv.y * Float(m.height))
                        c = mv + (s - mv) * i.color.w
                    } else {
                        c = s * i.color.w
                    }
                } else {
                    c = mode == 1 ? i.color * s.w : s * i.color.w
                    if let m = mask {
                        // Nothing of the mask exists outside its target (docs/BEHAVIOUR.md M8).
                        let muv = (p - slo) / ssize
                        let inside = muv.x >= 0 && muv.y >= 0 && muv.x <= 1 && muv.y <= 1
                        c *= inside ? m.bilinear(muv.x * Float(m.width), muv.y * Float(m.height)).w : 0
                    }
                }
                target.blend(x, y, c * ctx.clip(i.params.y, x, y, v), additive: additive)
            }
        }
    }
}
