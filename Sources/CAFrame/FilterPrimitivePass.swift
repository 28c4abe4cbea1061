import CoreGraphics

/// One primitive of a filter graph (SVG / CSS Filter Effects, docs/FILTERS.md "Filter graphs"),
/// run by a `RenderPass.Kind.filter` pass as `FilterOp.primitive`: the pass reads its source
/// (the primitive's `in`) and `other` (its `in2`, when it has one) at the same frame pixels and
/// writes every texel of its target; outside `crop` (the primitive subregion cut to the filter
/// region, frame pixels x, y, w, h) it writes transparent black. Colours are premultiplied, in
/// whatever colour space the graph chose for the primitive (`convert` passes switch it).
package struct FilterPrimitiveStep: Sendable, Equatable {
    package var op: FilterPrimitiveOp
    package var other: TargetID?
    package var crop: SIMD4<Float>

    package init(_ op: FilterPrimitiveOp, other: TargetID? = nil, crop: SIMD4<Float>) {
        self.op = op; self.other = other; self.crop = crop
    }

    /// The shader family (`Shaders/filter.frag`'s `CA_PRIM_…` define): one program each.
    package var family: String {
        switch op {
        case .offset: return "OFFSET"
        case .flood: return "FLOOD"
        case .composite: return "COMPOSITE"
        case .arithmetic: return "ARITHMETIC"
        case .blend(let m): return "BLEND_\(min(max(m, 0), BlendModeID.count - 1))"
        case .matrix: return "MATRIX"
        case .transfer: return "TRANSFER"
        case .convert(let toLinear): return toLinear ? "TO_LINEAR" : "TO_SRGB"
        case .morphology(_, let dilate): return dilate ? "DILATE" : "ERODE"
        case .tile: return "TILE"
        case .copy: return "COPY"
        case .convolve: return "CONVOLVE"
        case .lighting: return "LIGHTING"
        case .turbulence: return "TURBULENCE"
        case .displacement: return "DISPLACEMENT"
        }
    }
}

package enum FilterPrimitiveOp: Sendable, Equatable {
    /// The source moved by (dx, dy) frame pixels (feOffset; drop shadows).
    case offset(SIMD2<Float>)
    /// A premultiplied colour (feFlood).
    case flood(SIMD4<Float>)
    /// Porter-Duff of source (in) with other (in2): 0 over, 1 in, 2 out, 3 atop, 4 xor, 5 lighter.
    case composite(Int32)
    /// k1·i1·i2 + k2·i1 + k3·i2 + k4 on premultiplied colour, clamped (feComposite arithmetic).
    case arithmetic(SIMD4<Float>)
    /// Source (top) blended over other (backdrop) with W3C mode `BlendModeID` (feBlend).
    case blend(Int32)
    /// An affine map of unpremultiplied colour, no transfer function (feColorMatrix, CSS
    /// colour functions; the graph converts to linear first when it works there).
    case matrix(ColorTransform)
    /// Per-channel transfer functions of unpremultiplied colour (feComponentTransfer): the
    /// table has `FilterTransferTable.size` samples per channel.
    case transfer(FilterTransferTable)
    /// Unpremultiplied colour through the sRGB transfer function or its inverse.
    case convert(toLinear: Bool)
    /// The minimum (erode) or maximum (dilate) over a (2rx+1)×(2ry+1) window (feMorphology),
    /// radii in frame pixels.
    case morphology(SIMD2<Float>, dilate: Bool)
    /// The source's `tile` rectangle (frame pixels) repeated (feTile).
    case tile(SIMD4<Float>)
    /// feConvolveMatrix: `size` (orderX, orderY), `target` cell, `kernel` row-major (at most
    /// 256 values), `params` (divisor, bias, edge mode 0 duplicate / 1 wrap / 2 none within the
    /// crop, preserveAlpha 0/1).
    case convolve(size: SIMD2<Float>, target: SIMD2<Float>, params: SIMD4<Float>, kernel: [Float])
    /// feDiffuseLighting / feSpecularLighting: `params` (light type 0 distant / 1 point / 2 spot,
    /// surface scale, constant, specular exponent), `light` (distant: unit vector to the light;
    /// else its position, frame pixels), `spot` (pointsAt xyz, spot exponent), `extra` (cosine
    /// of the cone or −2, specular 0/1), `color` (the light's colour in the primitive's space).
    case lighting(params: SIMD4<Float>, light: SIMD4<Float>, spot: SIMD4<Float>, extra: SIMD4<Float>, color: SIMD4<Float>)
    /// feTurbulence: the noise of `FilterTurbulenceStep` (the pass reads no input).
    case turbulence(FilterTurbulenceStep)
    /// feDisplacementMap: the source read at p + (X − ½)·`xAxis` + (Y − ½)·`yAxis`, X and Y
    /// channels `channels` (0 r … 3 a) of the map (`other`, unpremultiplied); the axes are the
    /// user-space vectors (scale, 0) and (0, scale) in frame pixels.
    case displacement(xAxis: SIMD2<Float>, yAxis: SIMD2<Float>, channels: SIMD2<Int32>)
    /// The source as it is, cut to the crop (a primitive subregion; an upsampled blur).
    case copy
}

/// feComponentTransfer's four functions sampled at `size` evenly spaced inputs; the shader
/// interpolates between samples (a table or a line is exact; discrete steps are placed at the
/// nearest sample, within 1/(size − 1) of the input).
package struct FilterTransferTable: Sendable, Equatable {
    package static let size = 64
    /// `size` entries of (r, g, b, a).
    package var samples: [SIMD4<Float>]
    package init(samples: [SIMD4<Float>]) { self.samples = samples }
}
