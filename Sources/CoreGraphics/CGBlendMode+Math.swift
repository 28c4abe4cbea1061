// The blend maths of `CGBlendMode`, on premultiplied colour (SIMD4<Float>: r, g, b, a in 0…1).
//
// - Porter-Duff modes: Apple's `CGBlendMode` documentation gives each as R = … in S (source),
//   D (destination), Sa, Da, on premultiplied values; implemented as written.
// - Separable and non-separable modes: W3C Compositing and Blending Level 1, §5.8/§10:
//   co = cs·(1 − αb) + cb·(1 − αs) + αs·αb·B(Cb, Cs), αo = αs + αb·(1 − αs), with B the mode's
//   blend function on unpremultiplied colour (Cb = cb / αb, Cs = cs / αs). These are the PDF
//   blend modes Apple's documentation points to.
// - `plusLighter`: R = min(1, S + D) on every premultiplied component (Apple).
// - `plusDarker`: Apple's R = max(0, 1 − ((1 − D) + (1 − S))) is stated for opaque colour; on
//   premultiplied colour it is αo = min(1, αs + αb), co = max(0, αo − ((αb − cb) + (αs − cs))),
//   which reduces to Apple's when both are opaque (the formula WebKit uses for the same mode).

extension CGBlendMode {
    /// The result of compositing premultiplied `s` onto premultiplied `d` with this mode, for a
    /// fully covered pixel (coverage is applied by the caller, as a mix with `d`).
    @inline(__always)
    package func blend(_ s: SIMD4<Float>, _ d: SIMD4<Float>) -> SIMD4<Float> {
        let sa = s.w, da = d.w
        switch self {
        case .normal: return s + d * (1 - sa)
        case .clear: return .zero
        case .copy: return s
        case .sourceIn: return s * da
        case .sourceOut: return s * (1 - da)
        case .sourceAtop: return s * da + d * (1 - sa)
        case .destinationOver: return s * (1 - da) + d
        case .destinationIn: return d * sa
        case .destinationOut: return d * (1 - sa)
        case .destinationAtop: return s * (1 - da) + d * sa
        case .xor: return s * (1 - da) + d * (1 - sa)
        case .plusLighter: return (s + d).clamped(lowerBound: .zero, upperBound: .one)
        case .plusDarker:
            let ao = Swift.min(1, sa + da)
            var r = SIMD4<Float>(repeating: ao) - ((SIMD4(repeating: da) - d) + (SIMD4(repeating: sa) - s))
            r = r.clamped(lowerBound: .zero, upperBound: .one)
            r.w = ao
            return r
        default:
            if sa == 0 { return d }
            if da == 0 { return s }
            let cs = SIMD3(s.x, s.y, s.z) / sa, cb = SIMD3(d.x, d.y, d.z) / da
            let b = mix(cb, cs).clamped(lowerBound: .zero, upperBound: .one)
            let co = SIMD3(s.x, s.y, s.z) * (1 - da) + SIMD3(d.x, d.y, d.z) * (1 - sa) + sa * da * b
            return SIMD4(co.x, co.y, co.z, sa + da * (1 - sa))
        }
    }

    /// B(Cb, Cs) of a separable or non-separable mode (W3C Compositing §10.1, §10.2).
    @inline(__always)
    private func mix(_ cb: SIMD3<Float>, _ cs: SIMD3<Float>) -> SIMD3<Float> {
        switch self {
        case .multiply: return cb * cs
        case .screen: return cb + cs - cb * cs
        case .overlay: return Self.hardLight(cs: cb, cb: cs)
        case .darken: return pointwiseMin(cb, cs)
        case .lighten: return pointwiseMax(cb, cs)
        case .colorDodge:
            return SIMD3(Self.dodge(cb.x, cs.x), Self.dodge(cb.y, cs.y), Self.dodge(cb.z, cs.z))
        case .colorBurn:
            return SIMD3(Self.burn(cb.x, cs.x), Self.burn(cb.y, cs.y), Self.burn(cb.z, cs.z))
        case .hardLight: return Self.hardLight(cs: cs, cb: cb)
        case .softLight:
            return SIMD3(Self.soft(cb.x, cs.x), Self.soft(cb.y, cs.y), Self.soft(cb.z, cs.z))
        case .difference: return pointwiseMax(cb - cs, cs - cb)
        case .exclusion: return cb + cs - 2 * cb * cs
        case .hue: return Self.setLum(Self.setSat(cs, Self.sat(cb)), Self.lum(cb))
        case .saturation: return Self.setLum(Self.setSat(cb, Self.sat(cs)), Self.lum(cb))
        case .color: return Self.setLum(cs, Self.lum(cb))
        case .luminosity: return Self.setLum(cb, Self.lum(cs))
        default: return cs
        }
    }

    @inline(__always) private static func hardLight(cs: SIMD3<Float>, cb: SIMD3<Float>) -> SIMD3<Float> {
        let two = cs * 2
        let multiply = cb * two
        let s = two - 1
        let screen = cb + s - cb * s
        return multiply.replacing(with: screen, where: cs .> 0.5)
    }

    @inline(__always) private static func dodge(_ cb: Float, _ cs: Float) -> Float {
        if cb == 0 { return 0 }
        if cs >= 1 { return 1 }
        return Swift.min(1, cb / (1 - cs))
    }

    @inline(__always) private static func burn(_ cb: Float, _ cs: Float) -> Float {
        if cb >= 1 { return 1 }
        if cs <= 0 { return 0 }
        return 1 - Swift.min(1, (1 - cb) / cs)
    }

    @inline(__always) private static func soft(_ cb: Float, _ cs: Float) -> Float {
        if cs <= 0.5 { return cb - (1 - 2 * cs) * cb * (1 - cb) }
        let d = cb <= 0.25 ? ((16 * cb - 12) * cb + 4) * cb : cb.squareRoot()
        return cb + (2 * cs - 1) * (d - cb)
    }

    // Non-separable helpers (W3C Compositing §10.2).
    @inline(__always) private static func lum(_ c: SIMD3<Float>) -> Float { 0.3 * c.x + 0.59 * c.y + 0.11 * c.z }

    @inline(__always) private static func clipColor(_ c: SIMD3<Float>) -> SIMD3<Float> {
        let l = lum(c), n = c.min(), x = c.max()
        var c = c
        if n < 0 { c = l + (c - l) * l / (l - n) }
        if x > 1 { c = l + (c - l) * (1 - l) / (x - l) }
        return c
    }

    @inline(__always) private static func setLum(_ c: SIMD3<Float>, _ l: Float) -> SIMD3<Float> {
        clipColor(c + (l - lum(c)))
    }

    @inline(__always) private static func sat(_ c: SIMD3<Float>) -> Float { c.max() - c.min() }

    /// SetSat: the largest component becomes `s`, the smallest 0, the middle one scaled.
    @inline(__always) private static func setSat(_ c: SIMD3<Float>, _ s: Float) -> SIMD3<Float> {
        let mx = c.max(), mn = c.min()
        guard mx > mn else { return .zero }
        return (c - mn) * s / (mx - mn)
    }
}
