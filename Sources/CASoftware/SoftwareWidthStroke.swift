import CAFrame

/// shape.frag's stroke coverage from a width-free field (`CA_SHAPE_WIDE_FIELD` with
/// `CA_SHAPE_WIDTH_FIELD`, no dashes: a `lineWidth` animation, issue 22) with the instance's
/// constants worked out once instead of per texel: the field's origin, half width, cap, trims.
/// The per-texel operations are `SoftwareShapePipeline.nearestStroke`'s, in the same order, so
/// the coverage is the same float.
struct SoftwareWidthStroke {
    let fieldX: Int, fieldY: Int
    let halfWidth: Float
    let cap: Int
    let roundCap: Bool
    let trimStart: Float, trimEnd: Float
    let scale: Float

    init(_ i: ShapeInstance, roundCap: Bool) {
        fieldX = SoftwareClamp.int(i.trim.x)
        fieldY = SoftwareClamp.int(i.trim.y)
        halfWidth = i.params.x
        cap = SoftwareClamp.int(i.params.z + 0.5) & 3
        self.roundCap = roundCap
        trimStart = i.trim.z
        trimEnd = i.trim.w
        scale = i.params.y
    }

    /// `capCoverage` of shape.frag.
    @inline(__always) func capCoverage(_ e0: Float, _ d: Float) -> Float {
        if roundCap { return e0 <= 0 ? 1 : SoftwareField.clamp01(0.5 - ((e0 * e0 + d * d).squareRoot() - halfWidth)) }
        let e = cap == 2 ? e0 - halfWidth : e0
        return SoftwareField.clamp01(0.5 - e)
    }

    /// The coverage at a texel whose field value is `f` (arc length, subpath arc length, gauge,
    /// distance beyond an open end).
    @inline(__always) func coverage(_ f: SIMD4<Float>) -> Float {
        let cs = min(SoftwareField.clamp01(halfWidth - f.z + 0.5), capCoverage(f.w, f.z))
        let e = max(trimStart - f.x, f.x - trimEnd)
        return min(cs, capCoverage(e * scale, f.z))
    }
}

extension SoftwareWidthStroke {
    /// `coverage` of four texels at once, one field channel a vector (`x` arc length, `z` gauge,
    /// `w` distance beyond an open end): the same float operations lane by lane, each `min`,
    /// `max` and clamp the select Swift's scalar one makes (`min(a, b)` is `b < a ? b : a`), so
    /// the same coverage bits.
    @inline(__always) func coverage(x: SIMD4<Float>, z: SIMD4<Float>, w: SIMD4<Float>) -> SIMD4<Float> {
        let band = SoftwareField.clamp01(halfWidth - z + 0.5)
        let cs = Self.lanesMin(band, capCoverage(w, z))
        let e = Self.lanesMax(trimStart - x, x - trimEnd)
        return Self.lanesMin(cs, capCoverage(e * scale, z))
    }

    /// `capCoverage` of four texels.
    @inline(__always) func capCoverage(_ e0: SIMD4<Float>, _ d: SIMD4<Float>) -> SIMD4<Float> {
        if roundCap {
            return SoftwareField.clamp01(0.5 - ((e0 * e0 + d * d).squareRoot() - halfWidth)).replacing(with: 1, where: e0 .<= 0)
        }
        return SoftwareField.clamp01(0.5 - (cap == 2 ? e0 - halfWidth : e0))
    }

    /// Swift's `min(a, b)` lane by lane.
    @inline(__always) static func lanesMin(_ a: SIMD4<Float>, _ b: SIMD4<Float>) -> SIMD4<Float> { a.replacing(with: b, where: b .< a) }

    /// Swift's `max(a, b)` lane by lane (`b >= a ? b : a`).
    @inline(__always) static func lanesMax(_ a: SIMD4<Float>, _ b: SIMD4<Float>) -> SIMD4<Float> { a.replacing(with: b, where: b .>= a) }
}
