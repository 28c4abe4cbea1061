import Foundation
import CAFrame

/// A blend mode of filter.frag's CA_FILTER_BLEND (`BlendModeID`): W3C Compositing and Blending
/// Level 1 §10 separable (1–11) and non-separable (12–15) modes composited source-over (0 is
/// normal), Porter-Duff source-in, source-out, source-atop (16–18), plus-lighter and
/// plus-darker (19, 20).
struct SoftwareBlendMode {
    let mode: Int32
    init(_ mode: Int32) { self.mode = mode }

    // §10.2 separable blend functions on unpremultiplied backdrop b and source s.
    @inline(__always) static func dodge(_ b: Float, _ s: Float) -> Float { b == 0 ? 0 : (s >= 1 ? 1 : min(1, b / (1 - s))) }
    @inline(__always) static func burn(_ b: Float, _ s: Float) -> Float { b >= 1 ? 1 : (s <= 0 ? 0 : 1 - min(1, (1 - b) / s)) }
    @inline(__always) static func hard(_ b: Float, _ s: Float) -> Float { s <= 0.5 ? b * 2 * s : b + (2 * s - 1) - b * (2 * s - 1) }
    @inline(__always) static func soft(_ b: Float, _ s: Float) -> Float {
        let d = b <= 0.25 ? ((16 * b - 12) * b + 4) * b : b.squareRoot()
        return s <= 0.5 ? b - (1 - 2 * s) * b * (1 - b) : b + (2 * s - 1) * (d - b)
    }

    // §10.3 non-separable helpers (Lum weights 0.3, 0.59, 0.11).
    @inline(__always) static func lum(_ c: SIMD3<Float>) -> Float { 0.3 * c.x + 0.59 * c.y + 0.11 * c.z }
    @inline(__always) static func clipColor(_ c: SIMD3<Float>) -> SIMD3<Float> {
        var c = c
        let l = lum(c), n = c.min(), x = c.max()
        if n < 0 { c = l + (c - l) * l / (l - n) }
        if x > 1 { c = l + (c - l) * (1 - l) / (x - l) }
        return c
    }
    @inline(__always) static func setLum(_ c: SIMD3<Float>, _ l: Float) -> SIMD3<Float> { clipColor(c + (l - lum(c))) }
    @inline(__always) static func sat(_ c: SIMD3<Float>) -> Float { c.max() - c.min() }
    @inline(__always) static func setSat(_ c: SIMD3<Float>, _ s: Float) -> SIMD3<Float> {
        let mx = c.max(), mn = c.min()
        return mx > mn ? (c - mn) * s / (mx - mn) : .zero
    }

    /// B(cb, cs) of the mode (`mixFunction`).
    @inline(__always) func mix(_ b: SIMD3<Float>, _ s: SIMD3<Float>) -> SIMD3<Float> {
        typealias S = SoftwareBlendMode
        func each(_ f: (Float, Float) -> Float, _ x: SIMD3<Float>, _ y: SIMD3<Float>) -> SIMD3<Float> {
            SIMD3(f(x.x, y.x), f(x.y, y.y), f(x.z, y.z))
        }
        switch mode {
        case 1: return b * s                                     // multiply
        case 2: return b + s - b * s                             // screen
        case 3: return each(S.hard, s, b)                        // overlay: hard-light with the roles swapped
        case 4: return pointwiseMin(b, s)                        // darken
        case 5: return pointwiseMax(b, s)                        // lighten
        case 6: return each(S.dodge, b, s)                       // color-dodge
        case 7: return each(S.burn, b, s)                        // color-burn
        case 8: return each(S.soft, b, s)                        // soft-light
        case 9: return each(S.hard, b, s)                        // hard-light
        case 10: return SIMD3(abs(b.x - s.x), abs(b.y - s.y), abs(b.z - s.z))   // difference
        case 11: return b + s - 2 * b * s                        // exclusion
        case 12: return S.setLum(S.setSat(s, S.sat(b)), S.lum(b)) // hue
        case 13: return S.setLum(S.setSat(b, S.sat(s)), S.lum(b)) // saturation
        case 14: return S.setLum(s, S.lum(b))                    // color
        case 15: return S.setLum(b, S.lum(s))                    // luminosity
        default: return s
        }
    }

    /// `blend(s, b)`: premultiplied source `s` with premultiplied backdrop `b`.
    @inline(__always) func apply(_ s: SIMD4<Float>, _ b: SIMD4<Float>) -> SIMD4<Float> {
        switch mode {
        case 16: return s * b.w                                                     // source-in
        case 17: return s * (1 - b.w)                                               // source-out
        case 18:                                                                    // source-atop
            let c = s.xyz * b.w + b.xyz * (1 - s.w)
            return SIMD4(c, b.w)
        case 19: return pointwiseMin(s + b, SIMD4(repeating: 1))                    // plus-lighter
        case 20:                                                                    // plus-darker
            let ao = min(1, s.w + b.w)
            let c = (SIMD3(repeating: ao) - ((SIMD3(repeating: b.w) - b.xyz) + (SIMD3(repeating: s.w) - s.xyz)))
                .clamped(lowerBound: .zero, upperBound: SIMD3(repeating: 1))
            return SIMD4(c, ao)
        default:
            let cs = s.w > 0 ? s.xyz / s.w : .zero
            let cb = b.w > 0 ? b.xyz / b.w : .zero
            let m = mix(cb, cs).clamped(lowerBound: .zero, upperBound: SIMD3(repeating: 1))
            return SIMD4(s.xyz * (1 - b.w) + b.xyz * (1 - s.w) + s.w * b.w * m, s.w + b.w * (1 - s.w))
        }
    }
}

/// The compositing and background-filter steps of filter.frag (CA_FILTER_BLEND,
/// CA_FILTER_INSIDE): their result replaces the backdrop copy they read.
enum SoftwareFilterBlend {
    /// The source at `opacity` blended with the backdrop (`io.other`), mixed with the backdrop
    /// by the coverage of clip `clip`.
    static func blend(_ mode: SoftwareBlendMode, opacity: Float, clip: Float, _ io: SoftwareFilterInputs, _ rows: Range<Int>) {
        guard let backdrop = io.other else { return }
        io.write(rows: rows) { _, _, uv, p in
            let s = io.sample(io.source, uv), b = io.sample(backdrop, uv)
            let cover = io.clip(clip, p)
            return b + (mode.apply(s * opacity, b) - b) * cover
        }
    }

    /// Background filters: the filtered backdrop (source) inside clips `shape` and `outer` and
    /// under the mask's alpha (nothing of the mask outside `maskRect`), the backdrop elsewhere.
    static func inside(shape: Float, outer: Float, maskRect: SIMD4<Float>, _ io: SoftwareFilterInputs, _ rows: Range<Int>) {
        guard let backdrop = io.other else { return }
        io.write(rows: rows) { _, _, uv, p in
            let s = io.sample(io.source, uv), b = io.sample(backdrop, uv)
            var cover = io.clip(shape, p) * io.clip(outer, p)
            if let mask = io.mask {
                let m = (p - SIMD2(maskRect.x, maskRect.y)) / SIMD2(maskRect.z, maskRect.w)
                let inside = m.x >= 0 && m.y >= 0 && m.x <= 1 && m.y <= 1
                cover *= inside ? io.sample(mask, m).w : 0
            }
            return b + (s - b) * cover
        }
    }
}

extension SIMD4 where Scalar == Float {
    @inline(__always) var xyz: SIMD3<Float> { SIMD3(x, y, z) }
    @inline(__always) init(_ c: SIMD3<Float>, _ w: Float) { self.init(c.x, c.y, c.z, w) }
}
