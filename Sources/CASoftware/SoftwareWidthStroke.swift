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
