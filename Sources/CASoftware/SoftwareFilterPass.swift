import Foundation
import CAFrame

/// What one filter step (`RenderPass.Kind.filter`, `FilterOp`) reads and writes on the CPU, with
/// the sampling of Shaders/filter.frag: the pass is a full-target triangle (blur.vert), so each
/// target texel (x, y) is one fragment with `v_uv` at its centre; the source and the other
/// inputs cover the same frame pixels and are sampled there bilinearly with clamp-to-edge
/// (`texture()` on GL_LINEAR, GL_CLAMP_TO_EDGE targets). Every texel is written, no blending.
struct SoftwareFilterInputs {
    let source: SoftwareTarget
    /// `u_other`: a compositing filter's backdrop, CIBloom's glow, a primitive's `in2`.
    let other: SoftwareTarget?
    /// `u_mask`: a background filter's mask target.
    let mask: SoftwareTarget?
    let target: SoftwareTarget
    /// `u_viewport`: the frame pixels the target covers (x, y, w, h).
    let viewport: SIMD4<Float>
    let clips: [SoftwareClip]

    /// `v_uv` of target texel (x, y): its centre over the target's size.
    @inline(__always) func uv(_ x: Int, _ y: Int) -> SIMD2<Float> {
        SIMD2((Float(x) + 0.5) / Float(target.width), (Float(y) + 0.5) / Float(target.height))
    }

    /// `pixel()`: the frame pixel under `uv` (the target may be downscaled).
    @inline(__always) func pixel(_ uv: SIMD2<Float>) -> SIMD2<Float> {
        SIMD2(viewport.x, viewport.y) + uv * SIMD2(viewport.z, viewport.w)
    }

    /// `texture(t, uv)`: bilinear, clamped to the edge, with the sample point snapped to 1/256
    /// of a texel as GPUs' fixed-point texture units place it (llvmpipe's included). Without the
    /// snap, a point a rounding error off a texel centre mixes in a trace of the next texel,
    /// which unpremultiplying (feConvolveMatrix preserveAlpha, feComponentTransfer …) turns into
    /// that texel's whole colour beside a transparent one.
    @inline(__always) func sample(_ t: SoftwareTarget, _ uv: SIMD2<Float>) -> SIMD4<Float> {
        let x = ((uv.x * Float(t.width) - 0.5) * 256).rounded() * (1 / 256) + 0.5
        let y = ((uv.y * Float(t.height) - 0.5) * 256).rounded() * (1 / 256) + 0.5
        return t.bilinear(x, y)
    }

    /// `fetchAt(t, q)`: `t` at frame pixel `q`, transparent black outside the pass's pixels.
    @inline(__always) func fetch(_ t: SoftwareTarget, _ q: SIMD2<Float>) -> SIMD4<Float> {
        let uv = (q - SIMD2(viewport.x, viewport.y)) / SIMD2(viewport.z, viewport.w)
        guard uv.x >= 0, uv.y >= 0, uv.x <= 1, uv.y <= 1 else { return .zero }
        return sample(t, uv)
    }

    /// `clipCoverage(pixel(), index)` of a program compiled with CA_CLIP and without
    /// CA_CONTINUOUS (filter.frag's blend and inside steps): 1 for index 0; the edge width
    /// from the clip point's derivatives per target texel (`dFdx`, `dFdy` of one fragment).
    @inline(__always) func clip(_ index: Float, _ q: SIMD2<Float>) -> Float {
        let i = SoftwareClamp.int(index + 0.5)
        guard i > 0, i < clips.count else { return 1 }
        let c = clips[i]
        let h = q.x * c.i0 + q.y * c.i1 + c.i2
        let inv = 1 / h.z
        let p = SIMD2(h.x, h.y) * inv
        // Frame pixels per target texel along x and y.
        let sx = viewport.z / Float(target.width), sy = viewport.w / Float(target.height)
        let px = (SIMD2(c.i0.x, c.i0.y) - p * c.i0.z) * (inv * sx), py = (SIMD2(c.i1.x, c.i1.y) - p * c.i1.z) * (inv * sy)
        let half = SIMD2(c.rect.z, c.rect.w) * 0.5
        let f = SoftwareField.roundRect(p, SIMD2(c.rect.x, c.rect.y) + half, half, c.radii, continuous: c.continuous,
                                        continuousEnabled: false)
        return SoftwareField.coverageJ(f, px, py)
    }

    /// Writes `body(x, y, uv, pixel)` into every texel of `rows` (blending off: the colour
    /// replaces the texel, clamped and rounded as an RGBA8 attachment stores it).
    @inline(__always) func write(rows: Range<Int>, _ body: (Int, Int, SIMD2<Float>, SIMD2<Float>) -> SIMD4<Float>) {
        let w = target.width
        for y in rows where y < target.height {
            let row = target.pixels + y * w
            for x in 0..<w {
                let u = uv(x, y)
                row[x] = SoftwarePixel.pack(body(x, y, u, pixel(u)))
            }
        }
    }
}

/// The colour helpers of filter.frag.
enum SoftwareFilterMath {
    /// `unpremultiply`: colour over alpha; transparent black where alpha is 0.
    @inline(__always) static func unpremultiply(_ p: SIMD4<Float>) -> SIMD4<Float> {
        p.w > 0 ? SIMD4(p.x / p.w, p.y / p.w, p.z / p.w, p.w) : .zero
    }

    /// `toLinear`: the inverse sRGB transfer function (IEC 61966-2-1), per channel.
    @inline(__always) static func toLinear(_ c: Float) -> Float {
        c >= 0.04045 ? powf((c + 0.055) / 1.055, 2.4) : c / 12.92
    }

    /// `toSRGB`: the sRGB transfer function. A negative input gives NaN through `pow` in the
    /// shader only on the branch `mix` discards; here the branch is not taken.
    @inline(__always) static func toSRGB(_ c: Float) -> Float {
        c >= 0.0031308 ? 1.055 * powf(c, 1 / 2.4) - 0.055 : c * 12.92
    }

    @inline(__always) static func clamp01(_ v: SIMD4<Float>) -> SIMD4<Float> {
        v.clamped(lowerBound: .zero, upperBound: SIMD4(repeating: 1))
    }

    /// Premultiplies an unpremultiplied colour.
    @inline(__always) static func premultiply(_ c: SIMD4<Float>) -> SIMD4<Float> {
        SIMD4(c.x * c.w, c.y * c.w, c.z * c.w, c.w)
    }
}

extension SoftwareRenderer {
    /// Runs filter step `op` of `source` into `dst` (`GLRenderer.runFilter`'s counterpart).
    func runFilter(_ op: FilterOp, source: SoftwareTarget, other: (TargetID) throws -> SoftwareTarget, target dst: SoftwareTarget,
                   viewport vp: SIMD4<Float>, clips: [SoftwareClip], stats: inout RenderStats) throws {
        var otherTarget: SoftwareTarget? = nil
        var maskTarget: SoftwareTarget? = nil
        switch op {
        case .add(let glow, _): otherTarget = try other(glow)
        case .blend(_, let backdrop, _, _): otherTarget = try other(backdrop)
        case .inside(let backdrop, _, _, let mask, _):
            otherTarget = try other(backdrop)
            maskTarget = try mask.map(other)
        case .primitive(let step): otherTarget = try step.other.map(other)
        case .color, .blur, .vignette, .pixellate: break
        }
        // A step reading the target it writes would read texels other bands have written (GL:
        // a feedback loop, undefined); the frame writer never builds one.
        guard source !== dst, otherTarget !== dst, maskTarget !== dst else {
            throw SoftwareBackendError("filter step \(op) reads the target it writes")
        }
        let io = SoftwareFilterInputs(source: source, other: otherTarget, mask: maskTarget, target: dst, viewport: vp, clips: clips)
        switch op {
        case .color(let m): run(rows: dst.height) { SoftwareFilterColor.color(m, io, $0) }
        case .blur(let sigma, let horizontal):
            run(rows: dst.height) { rows in
                SoftwareBlur.pass(from: source, into: dst, sigma: max(sigma, 0.01), horizontal: horizontal, rows: rows,
                                  cut: SoftwareBlur.filterCut)
            }
        case .vignette(let center, let extent, let radius, let intensity):
            let halfDiagonal = 0.5 * (extent.z * extent.z + extent.w * extent.w).squareRoot()
            run(rows: dst.height) { SoftwareFilterColor.vignette(center: center, reach: max(radius, 0) * halfDiagonal, intensity: intensity, io, $0) }
        case .pixellate(let center, let scale):
            run(rows: dst.height) { SoftwareFilterColor.pixellate(center: center, scale: max(scale, 1), io, $0) }
        case .add(_, let weight): run(rows: dst.height) { SoftwareFilterColor.add(weight: weight, io, $0) }
        case .blend(let mode, _, let opacity, let clip):
            let m = SoftwareBlendMode(min(max(mode, 0), BlendModeID.count - 1))
            run(rows: dst.height) { SoftwareFilterBlend.blend(m, opacity: opacity, clip: Float(clip), io, $0) }
        case .inside(_, let shape, let outer, _, let maskRect):
            run(rows: dst.height) { SoftwareFilterBlend.inside(shape: Float(shape), outer: Float(outer), maskRect: maskRect, io, $0) }
        case .primitive(let step):
            let kernel = try SoftwareFilterPrimitives.prepare(step)
            run(rows: dst.height) { SoftwareFilterPrimitives.run(step, kernel, io, $0) }
        }
        stats.drawCalls += 1
        stats.vertices += 3
    }

    /// `.copy`: the pixels of `source` (covering `srcRect`, frame pixels) under `dst` (a target
    /// covering `vp`), nearest texel as `glBlitFramebuffer` with GL_NEAREST; the target is
    /// cleared first, so what lies outside the source stays transparent black.
    func runCopy(from source: SoftwareTarget, srcRect: SIMD4<Float>, into dst: SoftwareTarget, viewport vp: SIMD4<Float>) {
        dst.clear(.zero)
        // Source texels per frame pixel (1 but for a downscaled source, whose blit GL also scales).
        let sx = Float(source.width) / max(srcRect.z, 1), sy = Float(source.height) / max(srcRect.w, 1)
        let x0 = (vp.x - srcRect.x) * sx, y0 = (vp.y - srcRect.y) * sy
        let fx = vp.z * sx / Float(dst.width), fy = vp.w * sy / Float(dst.height)
        run(rows: dst.height) { rows in
            for y in rows where y < dst.height {
                let syf = (y0 + (Float(y) + 0.5) * fy).softwareFloor
                guard syf >= 0, syf < Float(source.height) else { continue }
                let srow = source.pixels + Int(syf) * source.width
                let drow = dst.pixels + y * dst.width
                for x in 0..<dst.width {
                    let sxf = (x0 + (Float(x) + 0.5) * fx).softwareFloor
                    guard sxf >= 0, sxf < Float(source.width) else { continue }
                    drow[x] = srow[Int(sxf)]
                }
            }
        }
    }
}
