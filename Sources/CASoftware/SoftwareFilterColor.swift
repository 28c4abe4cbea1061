import Foundation
import CAFrame

/// The per-texel colour steps of Shaders/filter.frag: CA_FILTER_COLOR (the colour matrix
/// family, in linear light on unpremultiplied colour), CA_FILTER_VIGNETTE, CA_FILTER_PIXELLATE
/// and CA_FILTER_ADD (CIBloom's sum).
enum SoftwareFilterColor {
    typealias M = SoftwareFilterMath

    /// `ColorTransform` on linear, unpremultiplied colour: the matrix, the bias, a clamp to 0…1,
    /// the power on RGB, back to sRGB, premultiplied.
    static func color(_ m: ColorTransform, _ io: SoftwareFilterInputs, _ rows: Range<Int>) {
        io.write(rows: rows) { _, _, uv, _ in
            var c = M.unpremultiply(io.sample(io.source, uv))
            c = SIMD4(M.toLinear(c.x), M.toLinear(c.y), M.toLinear(c.z), c.w)
            var o = M.clamp01(SIMD4((m.r * c).sum(), (m.g * c).sum(), (m.b * c).sum(), (m.a * c).sum()) + m.bias)
            o = SIMD4(M.toSRGB(powf(o.x, m.power)), M.toSRGB(powf(o.y, m.power)), M.toSRGB(powf(o.z, m.power)), o.w)
            return M.premultiply(o)
        }
    }

    /// CIVignette: linear RGB × clamp(1 − intensity · smoothstep(0, 1, (d / reach)²)).
    static func vignette(center: SIMD2<Float>, reach: Float, intensity: Float, _ io: SoftwareFilterInputs, _ rows: Range<Int>) {
        io.write(rows: rows) { _, _, uv, p in
            let d = (p - center).squareLength().squareRoot() / max(reach, 1e-6)
            let f = min(max(1 - intensity * smoothstep01(d * d), 0), 1)
            let c = M.unpremultiply(io.sample(io.source, uv))
            let o = SIMD4(M.toSRGB(M.toLinear(c.x) * f), M.toSRGB(M.toLinear(c.y) * f), M.toSRGB(M.toLinear(c.z) * f), c.w)
            return M.premultiply(o)
        }
    }

    /// CIPixellate: each cell of `scale` pixels on the grid through `center` takes the source's
    /// colour at the cell's centre (clamped into the target).
    static func pixellate(center: SIMD2<Float>, scale: Float, _ io: SoftwareFilterInputs, _ rows: Range<Int>) {
        let vo = SIMD2(io.viewport.x, io.viewport.y), vs = SIMD2(io.viewport.z, io.viewport.w)
        io.write(rows: rows) { _, _, _, p in
            let rel = (p - center) / scale
            let cell = SIMD2(rel.x.rounded(.down), rel.y.rounded(.down))
            let mid = center + (cell + 0.5) * scale
            let uv = ((mid - vo) / vs).clamped(lowerBound: .zero, upperBound: SIMD2(repeating: 1))
            return io.sample(io.source, uv)
        }
    }

    /// CIBloom's sum: source + weight × glow, alpha at most 1, colour at most alpha.
    static func add(weight: Float, _ io: SoftwareFilterInputs, _ rows: Range<Int>) {
        guard let glow = io.other else { return }
        io.write(rows: rows) { _, _, uv, _ in
            var o = io.sample(io.source, uv) + weight * io.sample(glow, uv)
            o.w = min(o.w, 1)
            return SIMD4(min(o.x, o.w), min(o.y, o.w), min(o.z, o.w), o.w)
        }
    }

    /// GLSL `smoothstep(0, 1, x)`.
    @inline(__always) static func smoothstep01(_ x: Float) -> Float {
        let t = min(max(x, 0), 1)
        return t * t * (3 - 2 * t)
    }
}

extension SIMD2 where Scalar == Float {
    @inline(__always) func squareLength() -> Float { x * x + y * y }
}
