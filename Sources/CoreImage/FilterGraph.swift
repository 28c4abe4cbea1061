import CoreGraphics
import Foundation

/// A filter graph on a layer: the SVG / CSS Filter Effects model (Filter Effects Module Level 1,
/// https://www.w3.org/TR/filter-effects-1/) as a value the render tree turns into GPU passes
/// (docs/FILTERS.md "Filter graphs"). Extension beyond Apple's API, `package` only: the SVG
/// importer puts one in a layer's `filters` array (the import builds layers and filters, not a
/// second renderer); Apple's `CIFilter`s stay the public way to filter a layer.
///
/// Everything is in the layer's own coordinates (its bounds space, the SVG user space of the
/// filtered element): the filter region, each primitive's subregion, offsets and deviations.
/// Primitives run in order; each reads earlier results by index, `SourceGraphic` (the layer's
/// drawn pixels) or `SourceAlpha`, and the last one's result is the layer's pixels.
package final class FilterGraph: @unchecked Sendable {
    /// The filter region (§ "Filter region"): nothing outside it is drawn.
    package let region: CGRect
    package let primitives: [FilterPrimitive]
    /// feImage's pictures: layers (CoreAnimation's `CALayer`, opaque here) placed in the
    /// graph's coordinates, each drawn by the renderer into a target of the region's size
    /// (`Kind.image` indexes them).
    package let images: [AnyObject]

    package init(region: CGRect, primitives: [FilterPrimitive], images: [AnyObject] = []) {
        self.region = region
        self.primitives = primitives
        self.images = images
    }

    /// Primitives after this many are not run (the importer cuts longer chains with a report):
    /// each is at least one full pass over the region.
    package static let maxPrimitives = 64
}

/// Where a primitive reads a picture from (`in`, `in2`, `feMergeNode`).
package enum FilterInput: Sendable, Equatable {
    case sourceGraphic
    case sourceAlpha
    /// The result of an earlier primitive (its index in `FilterGraph.primitives`).
    case result(Int)
    /// Transparent black (BackgroundImage, FillPaint … which are not reproduced; the importer
    /// reports them).
    case transparent
}

/// One transfer function of `feComponentTransfer` (§ "feComponentTransfer").
package enum TransferFunction: Sendable, Equatable {
    case identity
    case table([Float])
    case discrete([Float])
    case linear(slope: Float, intercept: Float)
    case gamma(amplitude: Float, exponent: Float, offset: Float)

    /// C' for C in 0…1, as the specification writes it.
    package func apply(_ c: Float) -> Float {
        let c = min(max(c, 0), 1)
        switch self {
        case .identity: return c
        case .table(let v):
            guard v.count > 1 else { return v.first.map { min(max($0, 0), 1) } ?? c }
            let n = Float(v.count - 1)
            let k = min(Int(c * n), v.count - 2)
            let t = c * n - Float(k)
            return min(max(v[k] + (v[k + 1] - v[k]) * t, 0), 1)
        case .discrete(let v):
            guard !v.isEmpty else { return c }
            let k = min(Int(c * Float(v.count)), v.count - 1)
            return min(max(v[k], 0), 1)
        case .linear(let slope, let intercept): return min(max(slope * c + intercept, 0), 1)
        case .gamma(let a, let e, let o): return min(max(a * powf(c, e) + o, 0), 1)
        }
    }
}

/// A light source of the lighting primitives (§ "Light source elements"), in layer coordinates.
package enum FilterLight: Sendable, Equatable {
    case distant(azimuth: Float, elevation: Float)
    case point(x: Float, y: Float, z: Float)
    case spot(x: Float, y: Float, z: Float, pointsAt: SIMD3<Float>, exponent: Float, cone: Float?)
}

/// One filter primitive: what it does, what it reads, where it draws.
package struct FilterPrimitive: Sendable, Equatable {
    package enum Kind: Sendable, Equatable {
        /// feOffset: moved by (dx, dy).
        case offset(dx: Double, dy: Double)
        /// feFlood: the colour (unpremultiplied sRGB with alpha) fills the subregion.
        case flood(SIMD4<Float>)
        /// feGaussianBlur: σ along x and y.
        case gaussianBlur(sx: Double, sy: Double)
        /// feBlend: `in` over `in2` with a W3C blend mode (numbered as `CIBlendMode`).
        case blend(mode: Int32)
        /// feComposite: Porter-Duff operator of `in` with `in2`; arithmetic with k1…k4.
        case composite(FilterComposite)
        /// feMerge: the inputs composited over each other in order.
        case merge
        /// feColorMatrix (all its types as one 4×5 matrix, rows r, g, b, a; column 5 the bias).
        case colorMatrix([Float])
        /// feComponentTransfer: functions for r, g, b, a.
        case componentTransfer([TransferFunction])
        /// feDropShadow: σ, offset, colour (unpremultiplied sRGB with alpha).
        case dropShadow(dx: Double, dy: Double, sx: Double, sy: Double, color: SIMD4<Float>)
        /// feMorphology: erode or dilate by radii.
        case morphology(dilate: Bool, rx: Double, ry: Double)
        /// feTile: the input's subregion `source` repeated over the primitive's subregion.
        case tile(source: CGRect)
        /// feConvolveMatrix.
        case convolve(FilterConvolve)
        /// feDiffuseLighting (specular false) or feSpecularLighting: surface scale, diffuse or
        /// specular constant, specular exponent, the light and its colour (sRGB).
        case lighting(specular: Bool, surfaceScale: Float, constant: Float, exponent: Float, light: FilterLight, color: SIMD3<Float>)
        /// feTurbulence (Filter Effects 1 § feTurbulence), evaluated in the layer's coordinates.
        case turbulence(FilterTurbulence)
        /// feDisplacementMap: `in` displaced by `in2`'s channels `x`, `y` (0 r, 1 g, 2 b, 3 a)
        /// times the scale (user units along x and y).
        case displacementMap(scaleX: Double, scaleY: Double, x: Int, y: Int)
        /// feImage: picture `images[i]` of the graph, cut to the subregion.
        case image(Int)
        /// Not reproduced (the importer reports it): the primitive's result is transparent.
        case unsupported(String)
    }

    package var kind: Kind
    package var inputs: [FilterInput]
    /// The primitive subregion (layer coordinates), already intersected with nothing: the
    /// renderer cuts it to the filter region.
    package var subregion: CGRect
    /// `color-interpolation-filters`: linearRGB (the initial value) or sRGB.
    package var linearRGB: Bool

    package init(kind: Kind, inputs: [FilterInput], subregion: CGRect, linearRGB: Bool) {
        self.kind = kind; self.inputs = inputs; self.subregion = subregion; self.linearRGB = linearRGB
    }
}

/// feComposite's operator (§ "feComposite"): Porter-Duff on premultiplied colour, or
/// result = k1·i1·i2 + k2·i1 + k3·i2 + k4.
package enum FilterComposite: Sendable, Equatable {
    case over, `in`, out, atop, xor, lighter
    case arithmetic(k1: Float, k2: Float, k3: Float, k4: Float)
}

/// feConvolveMatrix's parameters (§ "feConvolveMatrix"): the kernel (row-major, `orderX` ×
/// `orderY`, at most `maxKernel` values), target cell, divisor, bias, edge mode (0 duplicate,
/// 1 wrap, 2 none) and preserveAlpha.
package struct FilterConvolve: Sendable, Equatable {
    package static let maxKernel = 256
    package var orderX: Int, orderY: Int, targetX: Int, targetY: Int
    package var kernel: [Float]
    package var divisor: Float, bias: Float
    package var edgeMode: Int
    package var preserveAlpha: Bool
    package init(orderX: Int, orderY: Int, targetX: Int, targetY: Int, kernel: [Float], divisor: Float, bias: Float, edgeMode: Int, preserveAlpha: Bool) {
        self.orderX = orderX; self.orderY = orderY; self.targetX = targetX; self.targetY = targetY
        self.kernel = kernel; self.divisor = divisor; self.bias = bias; self.edgeMode = edgeMode; self.preserveAlpha = preserveAlpha
    }
}

/// feTurbulence's bound, shared by the importer (which reports it) and the renderer.
package enum FilterTurbulenceLimits {
    /// Octave k adds at most 2^−k of the first one's amplitude, so octaves past 16 change an
    /// 8-bit channel by less than 1/100 of a level; `numOctaves` 1e6 sums 16.
    package static let maxOctaves = 16
}

/// feTurbulence's parameters (Filter Effects 1 § feTurbulence), as the importer read them:
/// base frequencies (≥ 0), `numOctaves` (clamped by the renderer), the seed truncated towards
/// zero, `stitchTiles="stitch"`, and `type` (fractalNoise or turbulence).
package struct FilterTurbulence: Sendable, Equatable {
    package var baseFrequency: SIMD2<Double>
    package var numOctaves: Int
    package var seed: Int
    package var stitchTiles: Bool
    package var fractalNoise: Bool
    package init(baseFrequency: SIMD2<Double>, numOctaves: Int, seed: Int, stitchTiles: Bool, fractalNoise: Bool) {
        self.baseFrequency = baseFrequency; self.numOctaves = numOctaves; self.seed = seed
        self.stitchTiles = stitchTiles; self.fractalNoise = fractalNoise
    }
}
