import CoreGraphics
import Foundation

/// One step of a layer's filter chain (`CALayer.filters`, `backgroundFilters`,
/// `compositingFilter`; docs/FILTERS.md), run by a `RenderPass.Kind.filter` pass: the pass reads
/// its source target and writes every texel of its own target (no blending), the two covering
/// the same frame pixels. Colours are premultiplied in the targets; the colour steps work on
/// unpremultiplied colour in linear light, as Core Image's working space does.
package enum FilterOp: Sendable, Equatable {
    /// An affine colour map on linear, unpremultiplied RGBA, then a power on RGB
    /// (CIColorMatrix, CIColorControls, CIHueAdjust, CIExposureAdjust, CIGammaAdjust,
    /// CISepiaTone, CIColorInvert, CIColorMonochrome, CIFalseColor).
    case color(ColorTransform)
    /// One direction of a separable Gaussian (CIGaussianBlur, CIBloom's glow): σ in texels, the
    /// kernel cut at 3σ (shadows cut at 2.5σ, `RenderPass.Kind.blur`).
    case blur(sigma: Float, horizontal: Bool)
    /// CIVignette: RGB × (1 − intensity · smoothstep(0, 1, (d / r)²)), d the distance from
    /// `center` (frame pixels), r = `radius` × half the diagonal of `extent` (x, y, w, h in frame
    /// pixels; the layer's bounds on screen).
    case vignette(center: SIMD2<Float>, extent: SIMD4<Float>, radius: Float, intensity: Float)
    /// CIPixellate: squares of `scale` pixels on a grid through `center` (frame pixels), each
    /// the colour sampled at its centre.
    case pixellate(center: SIMD2<Float>, scale: Float)
    /// CIBloom: source + `weight` × `glow` (the blurred source), clamped to valid premultiplied.
    case add(glow: TargetID, weight: Float)
    /// A compositing filter: the source (the layer, at `opacity`) over `backdrop` (what was
    /// drawn below it, copied) with the W3C blend mode or Porter-Duff operator `mode`
    /// (`BlendModeID`), then mixed with the backdrop by the coverage of clip `clip` (the
    /// layer's outer clip): the result replaces the backdrop (`ShaderVariant.replace`).
    case blend(mode: Int32, backdrop: TargetID, opacity: Float, clip: Int32)
    /// Background filters: the filtered backdrop (source) inside clip `shape` (the layer's rounded
    /// bounds), clip `outer` and the alpha of target `mask` (the layer's mask, covering
    /// `maskRect` in frame pixels; nothing of it outside), the unfiltered `backdrop` elsewhere;
    /// the result replaces it.
    case inside(backdrop: TargetID, shape: Int32, outer: Int32, mask: TargetID?, maskRect: SIMD4<Float>)
    /// A filter graph's primitive (SVG / CSS Filter Effects; `FilterPrimitivePass.swift`).
    case primitive(FilterPrimitiveStep)

    /// The targets besides the pass's source that the step samples.
    package var samples: [TargetID] {
        switch self {
        case .add(let glow, _): return [glow]
        case .blend(_, let backdrop, _, _): return [backdrop]
        case .inside(let backdrop, _, _, let mask, _): return [backdrop] + (mask.map { [$0] } ?? [])
        case .primitive(let p): return p.other.map { [$0] } ?? []
        case .color, .blur, .vignette, .pixellate: return []
        }
    }
}

/// out.rgba = M · c + bias, with c linear and unpremultiplied; then rgb = pow(rgb, power).
/// Rows of M: `r`, `g`, `b`, `a` (dot products with c).
package struct ColorTransform: Sendable, Equatable {
    package var r: SIMD4<Float>, g: SIMD4<Float>, b: SIMD4<Float>, a: SIMD4<Float>
    package var bias: SIMD4<Float>
    package var power: Float = 1

    package init(r: SIMD4<Float>, g: SIMD4<Float>, b: SIMD4<Float>, a: SIMD4<Float>, bias: SIMD4<Float> = .zero, power: Float = 1) {
        self.r = r; self.g = g; self.b = b; self.a = a; self.bias = bias; self.power = power
    }

    package static let identity = ColorTransform(r: SIMD4(1, 0, 0, 0), g: SIMD4(0, 1, 0, 0), b: SIMD4(0, 0, 1, 0), a: SIMD4(0, 0, 0, 1))

    /// Applies the map to a linear, unpremultiplied colour (the shader's arithmetic, for tests
    /// and a CPU backend).
    package func apply(_ c: SIMD4<Float>) -> SIMD4<Float> {
        var o = SIMD4((r * c).sum(), (g * c).sum(), (b * c).sum(), (a * c).sum()) + bias
        o = o.clamped(lowerBound: .zero, upperBound: SIMD4(repeating: 1))
        if power != 1 {
            o = SIMD4(powf(o.x, power), powf(o.y, power), powf(o.z, power), o.w)
        }
        return o
    }
}

/// Blend modes of `FilterOp.blend`, numbered as `Shaders/filter.frag` numbers them (the same
/// numbers as Core Image's `CIBlendMode` in this package): W3C Compositing and Blending Level 1
/// §10 (separable 1–11, non-separable 12–15), Porter-Duff §9.1 (0, 16–18), plus-lighter and
/// plus-darker (19, 20).
package enum BlendModeID {
    package static let count: Int32 = 21
    package static let sourceIn: Int32 = 16, sourceOut: Int32 = 17, sourceAtop: Int32 = 18
}
