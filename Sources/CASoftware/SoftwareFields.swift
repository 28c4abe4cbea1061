import Foundation
import CAFrame

// The coverage maths of Shaders/common.glsl, ported to Swift: signed distance fields of rounded
// rectangles (circular and continuous corners) with their plane gradients, and the coverage
// they give half a pixel either side of the edge. The shaders are the specification; these
// follow their formulas line by line so that both backends draw the same pixels.

/// Which optional shader features a batch's program has (`ShaderVariant`), as plain Bools.
struct SoftwareVariant {
    var projective: Bool
    var continuous: Bool
    var edgeMask: Bool
    var border: Bool
    var blur: Bool
    var clip: Bool

    init(_ v: ShaderVariant) {
        projective = v.contains(.projective); continuous = v.contains(.continuous); edgeMask = v.contains(.edgeMask)
        border = v.contains(.border); blur = v.contains(.blur); clip = v.contains(.clip)
    }
}

enum SoftwareField {
    /// `roundRectField`: (distance, gradient) of a rectangle centred at `c` with half size `e`
    /// and corner radii `r` (minXminY, maxXminY, maxXmaxY, minXmaxY); negative inside.
    /// Continuous corners: the n = 3.3 superellipse over 1.528665·r (docs/BEHAVIOUR.md N6).
    @inline(__always)
    static func roundRect(_ p: SIMD2<Float>, _ c: SIMD2<Float>, _ e: SIMD2<Float>, _ r: SIMD4<Float>, continuous: Bool,
                          continuousEnabled: Bool) -> SIMD3<Float> {
        let d = p - c
        let side = SIMD2<Float>(d.x < 0 ? -1 : 1, d.y < 0 ? -1 : 1)
        let rad: Float = d.x < 0 ? (d.y < 0 ? r.x : r.w) : (d.y < 0 ? r.y : r.z)
        var inset = rad
        if continuousEnabled && continuous && rad > 0 {
            let ext = min(rad * 1.528665, min(e.x, e.y))
            let q = vabs(d) - e + ext
            if q.x > 0 && q.y > 0 {
                let u = q / ext
                let n = powf(powf(u.x, 3.3) + powf(u.y, 3.3), 1 / 3.3)
                let np = powf(n, -2.3)
                return SIMD3((n - 1) * ext, powf(u.x, 2.3) * np * side.x, powf(u.y, 2.3) * np * side.y)
            }
            inset = ext
        }
        let q = vabs(d) - e + inset
        if q.x > 0 && q.y > 0 {
            let l = (q * q).sum().squareRoot()
            return SIMD3(l - rad, q.x / l * side.x, q.y / l * side.y)
        }
        return q.x > q.y ? SIMD3(max(q.x, q.y) - inset, side.x, 0) : SIMD3(max(q.x, q.y) - inset, 0, side.y)
    }

    /// `shapeField`: the exact field with gradient where the program has CA_PROJECTIVE or
    /// CA_CONTINUOUS; otherwise the branch-free distance (gradient (1, 0)).
    @inline(__always)
    static func shape(_ p: SIMD2<Float>, _ c: SIMD2<Float>, _ e: SIMD2<Float>, _ r: SIMD4<Float>, continuous: Bool,
                      _ v: SoftwareVariant) -> SIMD3<Float> {
        if v.projective || v.continuous {
            return roundRect(p, c, e, r, continuous: continuous, continuousEnabled: v.continuous)
        }
        let d = p - c
        let rad: Float = d.x < 0 ? (d.y < 0 ? r.x : r.w) : (d.y < 0 ? r.y : r.z)
        let q = vabs(d) - e + rad
        let m = SIMD2(max(q.x, 0), max(q.y, 0))
        return SIMD3((m * m).sum().squareRoot() + min(max(q.x, q.y), 0) - rad, 1, 0)
    }

    /// `coverageJ`: coverage through the point's screen derivatives `px`, `py`.
    @inline(__always)
    static func coverageJ(_ f: SIMD3<Float>, _ px: SIMD2<Float>, _ py: SIMD2<Float>) -> Float {
        let gx = f.y * px.x + f.z * px.y, gy = f.y * py.x + f.z * py.y
        let w = (gx * gx + gy * gy).squareRoot()
        return clamp01(0.5 - f.x / max(w, 1e-6))
    }

    /// `coverage`: derivatives under CA_PROJECTIVE, else the instance's constant scale.
    @inline(__always)
    static func coverage(_ f: SIMD3<Float>, _ px: SIMD2<Float>, _ py: SIMD2<Float>, pxPerUnit: Float, _ v: SoftwareVariant) -> Float {
        if v.projective { return coverageJ(f, px, py) }
        let g = (f.y * f.y + f.z * f.z).squareRoot()
        return clamp01(0.5 - f.x * pxPerUnit / max(g, 1e-6))
    }

    @inline(__always)
    static func nearestEdgeBit(_ p: SIMD2<Float>, _ rect: SIMD4<Float>) -> Int {
        let half = SIMD2(rect.z, rect.w) * 0.5
        let d = p - (SIMD2(rect.x, rect.y) + half)
        let o = vabs(d) - half
        return o.x > o.y ? (d.x < 0 ? 1 : 2) : (d.y < 0 ? 4 : 8)
    }

    /// `edgeCoverage`: with CA_EDGE_MASK, edges whose bit is off are hard (docs/BEHAVIOUR.md N5).
    @inline(__always)
    static func edgeCoverage(_ f: SIMD3<Float>, _ p: SIMD2<Float>, _ px: SIMD2<Float>, _ py: SIMD2<Float>, pxPerUnit: Float,
                             rect: SIMD4<Float>, aaMask: Int, _ v: SoftwareVariant) -> Float {
        let soft = coverage(f, px, py, pxPerUnit: pxPerUnit, v)
        if v.edgeMask {
            if aaMask == 15 || (aaMask & nearestEdgeBit(p, rect)) != 0 { return soft }
            return f.x <= 0 ? 1 : 0
        }
        return soft
    }

    /// `shapeCoverage`.
    @inline(__always)
    static func shapeCoverage(_ p: SIMD2<Float>, _ px: SIMD2<Float>, _ py: SIMD2<Float>, pxPerUnit: Float, rect: SIMD4<Float>,
                              radii: SIMD4<Float>, continuous: Bool, aaMask: Int, _ v: SoftwareVariant) -> Float {
        let half = SIMD2(rect.z, rect.w) * 0.5
        let f = shape(p, SIMD2(rect.x, rect.y) + half, half, radii, continuous: continuous, v)
        return edgeCoverage(f, p, px, py, pxPerUnit: pxPerUnit, rect: rect, aaMask: aaMask, v)
    }

    @inline(__always) static func clamp01(_ x: Float) -> Float { x > 0 ? (x < 1 ? x : 1) : 0 }

    /// `clamp01` lane by lane, with its selects (NaN to 0): the four-wide loops' clamp.
    @inline(__always) static func clamp01(_ v: SIMD4<Float>) -> SIMD4<Float> { v.clampedToUnit }
}

/// Component-wise |v| (GLSL `abs` of a vec2).
@inline(__always) func vabs(_ v: SIMD2<Float>) -> SIMD2<Float> { SIMD2(abs(v.x), abs(v.y)) }
