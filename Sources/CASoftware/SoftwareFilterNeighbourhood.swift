import Foundation
import CAFrame

/// The filter primitives that read a neighbourhood of each texel, as filter.frag computes them:
/// feConvolveMatrix (CA_PRIM_CONVOLVE) and feDiffuseLighting / feSpecularLighting
/// (CA_PRIM_LIGHTING).
enum SoftwareFilterNeighbourhood {
    typealias M = SoftwareFilterMath

    /// Filter Effects 1 § feConvolveMatrix. `size`: orderX, orderY; `target`: targetX, targetY;
    /// `params`: divisor, bias, edge mode (0 duplicate, 1 wrap, 2 none, within the crop),
    /// preserveAlpha. The kernel is applied rotated 180° (row-major, last value first).
    static func convolve(_ s: SIMD4<Float>, _ p: SIMD2<Float>, size: SIMD2<Float>, target: SIMD2<Float>, params: SIMD4<Float>,
                         kernel: [Float], crop: SIMD4<Float>, _ io: SoftwareFilterInputs) -> SIMD4<Float> {
        let ox = SoftwareClamp.int(size.x + 0.5), oy = SoftwareClamp.int(size.y + 0.5)
        let edgeMode = SoftwareClamp.int(params.z + 0.5)
        let keepAlpha = params.w > 0.5
        let lo = SIMD2(crop.x, crop.y), ext = SIMD2(crop.z, crop.w)
        var sum = SIMD4<Float>.zero
        if ox > 0, oy > 0 {
            for i in 0..<oy {
                for j in 0..<ox {
                    var q = p + SIMD2(Float(j) - target.x, Float(i) - target.y)
                    if edgeMode == 0 {
                        q = pointwiseMin(pointwiseMax(q, lo + 0.5), lo + ext - 0.5)   // GLSL clamp: min(max(x, lo), hi)
                    } else if edgeMode == 1 {
                        let e = SIMD2(max(ext.x, 1), max(ext.y, 1))
                        q = lo + SIMD2(SoftwareFilterPrimitives.mod(q.x - lo.x, e.x), SoftwareFilterPrimitives.mod(q.y - lo.y, e.y))
                    }
                    var v = SoftwareFilterPrimitives.inCrop(q, crop) ? io.fetch(io.source, q) : .zero
                    if keepAlpha { v = M.unpremultiply(v) }
                    let k = (oy - 1 - i) * ox + (ox - 1 - j)
                    sum += v * (k < kernel.count ? kernel[k] : 0)
                }
            }
        }
        sum /= params.x == 0 ? 1 : params.x
        if keepAlpha {
            let a = s.w
            let c = (sum.xyz + params.y).clamped(lowerBound: .zero, upperBound: SIMD3(repeating: 1))
            return SIMD4(c * a, a)
        }
        var o = M.clamp01(sum + SIMD4(repeating: params.y))
        o = SIMD4(min(o.x, o.w), min(o.y, o.w), min(o.z, o.w), o.w)
        return o
    }

    /// Filter Effects 1 § feDiffuseLighting / feSpecularLighting: the normal from the Sobel
    /// gradient of alpha (interior kernel), the light vector per light type. `params`: type (0
    /// distant, 1 point, 2 spot), surface scale, constant, specular exponent; `light`: the
    /// direction or position; `spot`: pointsAt, spot exponent; `extra`: cone cosine or −2,
    /// specular 0/1; `color`: the light's colour.
    static func light(_ s: SIMD4<Float>, _ p: SIMD2<Float>, params: SIMD4<Float>, light: SIMD4<Float>, spot: SIMD4<Float>,
                      extra: SIMD4<Float>, color: SIMD4<Float>, _ io: SoftwareFilterInputs) -> SIMD4<Float> {
        let ss = params.y
        func a(_ dx: Float, _ dy: Float) -> Float { io.fetch(io.source, p + SIMD2(dx, dy)).w }
        let a00 = a(-1, -1), a10 = a(0, -1), a20 = a(1, -1)
        let a01 = a(-1, 0), a21 = a(1, 0)
        let a02 = a(-1, 1), a12 = a(0, 1), a22 = a(1, 1)
        let nx = -ss * 0.25 * ((a20 + 2 * a21 + a22) - (a00 + 2 * a01 + a02))
        let ny = -ss * 0.25 * ((a02 + 2 * a12 + a22) - (a00 + 2 * a10 + a20))
        let n = normalize(SIMD3(nx, ny, 1))
        let type = SoftwareClamp.int(params.x + 0.5)
        let surface = SIMD3(p.x, p.y, ss * s.w)
        let l = type == 0 ? light.xyz : normalize(light.xyz - surface)
        var lc = color.xyz
        if type == 2 {
            let sdir = normalize(spot.xyz - light.xyz)
            let minusLS = -dot(l, sdir)
            lc = (minusLS <= 0 || (extra.x > -1.5 && minusLS < extra.x)) ? .zero : lc * powf(minusLS, spot.w)
        }
        let one = SIMD3<Float>(repeating: 1)
        if extra.y > 0.5 {
            let hv = normalize(l + SIMD3(0, 0, 1))
            let c = (params.z * powf(max(dot(n, hv), 0), params.w) * lc).clamped(lowerBound: .zero, upperBound: one)
            return SIMD4(c, c.max())
        }
        return SIMD4((params.z * max(dot(n, l), 0) * lc).clamped(lowerBound: .zero, upperBound: one), 1)
    }

    @inline(__always) static func dot(_ a: SIMD3<Float>, _ b: SIMD3<Float>) -> Float { (a * b).sum() }
    /// GLSL `normalize` (a zero vector gives NaN there too; here zero, which the clamps keep).
    @inline(__always) static func normalize(_ v: SIMD3<Float>) -> SIMD3<Float> {
        let l = dot(v, v).squareRoot()
        return l > 0 ? v / l : .zero
    }
}
