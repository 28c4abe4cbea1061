import CoreImage
import CAFrame
import Foundation

/// The colour filters as one affine map on linear, unpremultiplied RGBA (`ColorTransform`):
/// Core Image works in linear light, so parameters given as colours (CIColorMonochrome's,
/// CIFalseColor's) are linearised first. Luminance weights are Rec. 709's (0.2126, 0.7152,
/// 0.0722). Where Apple does not publish a formula the one used is named (docs/FILTERS.md).
enum ColorFilterMatrix {
    static let luma = SIMD4<Float>(0.2126, 0.7152, 0.0722, 0)
    static let e = [SIMD4<Float>(1, 0, 0, 0), SIMD4<Float>(0, 1, 0, 0), SIMD4<Float>(0, 0, 1, 0), SIMD4<Float>(0, 0, 0, 1)]

    static func linear(_ v: Double) -> Float {
        let c = Float(v)
        return c <= 0.04045 ? c / 12.92 : powf((c + 0.055) / 1.055, 2.4)
    }

    static func transform(_ f: CIFilter) -> ColorTransform {
        var t = ColorTransform.identity
        func num(_ key: String, _ lo: Float = -1e6, _ hi: Float = 1e6) -> Float {
            let v = f.number(key)
            guard v.isFinite else {
                RenderDiagnostics.warn("\(f.filterName).\(key) is \(v): its identity value is used")
                return .nan
            }
            return min(max(Float(v), lo), hi)
        }
        switch f.family {
        case .colorMatrix:
            // CIColorMatrix: s.r = dot(s, inputRVector) … + inputBiasVector.
            func vec(_ key: String, _ fallback: SIMD4<Float>) -> SIMD4<Float> {
                let v = f.vector(key)
                var o = fallback
                for i in 0..<min(4, v.count) where v[i].isFinite { o[i] = Float(v[i]) }
                return o
            }
            t = ColorTransform(r: vec("inputRVector", e[0]), g: vec("inputGVector", e[1]), b: vec("inputBVector", e[2]),
                               a: vec("inputAVector", e[3]), bias: vec("inputBiasVector", .zero))
        case .colorControls:
            // Saturation mixes with the luminance grey, brightness adds, contrast scales about ½.
            var sat = num(kCIInputSaturationKey), bri = num(kCIInputBrightnessKey), con = num(kCIInputContrastKey)
            if sat.isNaN { sat = 1 }
            if bri.isNaN { bri = 0 }
            if con.isNaN { con = 1 }
            var rows = (0..<3).map { i in (1 - sat) * luma + sat * e[i] }
            rows = rows.map { $0 * con }
            let b = bri * con + 0.5 * (1 - con)
            t = ColorTransform(r: rows[0], g: rows[1], b: rows[2], a: e[3], bias: SIMD4(b, b, b, 0))
        case .hueAdjust:
            // A rotation by inputAngle (radians) about the grey axis (Rodrigues' formula).
            var a = num(kCIInputAngleKey)
            if a.isNaN { a = 0 }
            let c = cosf(a), s = sinf(a), k: Float = 1 / 3, q = sqrtf(1.0 / 3.0)
            let m: [SIMD4<Float>] = [
                SIMD4(c + (1 - c) * k, (1 - c) * k - q * s, (1 - c) * k + q * s, 0),
                SIMD4((1 - c) * k + q * s, c + (1 - c) * k, (1 - c) * k - q * s, 0),
                SIMD4((1 - c) * k - q * s, (1 - c) * k + q * s, c + (1 - c) * k, 0),
            ]
            t = ColorTransform(r: m[0], g: m[1], b: m[2], a: e[3])
        case .exposureAdjust:
            // CIExposureAdjust: s.rgb × 2^EV.
            var ev = num(kCIInputEVKey, -64, 64)
            if ev.isNaN { ev = 0 }
            let k = powf(2, ev)
            t = ColorTransform(r: e[0] * k, g: e[1] * k, b: e[2] * k, a: e[3])
        case .gammaAdjust:
            // CIGammaAdjust: pow(s.rgb, inputPower).
            var p = num("inputPower", 0, 1e3)
            if p.isNaN { p = 1 }
            t.power = p
        case .sepiaTone:
            // The common sepia matrix, mixed with the original by inputIntensity.
            var i = num(kCIInputIntensityKey, 0, 1)
            if i.isNaN { i = 1 }
            let sepia: [SIMD4<Float>] = [SIMD4(0.393, 0.769, 0.189, 0), SIMD4(0.349, 0.686, 0.168, 0), SIMD4(0.272, 0.534, 0.131, 0)]
            t = ColorTransform(r: (1 - i) * e[0] + i * sepia[0], g: (1 - i) * e[1] + i * sepia[1], b: (1 - i) * e[2] + i * sepia[2], a: e[3])
        case .colorInvert:
            t = ColorTransform(r: -e[0], g: -e[1], b: -e[2], a: e[3], bias: SIMD4(1, 1, 1, 0))
        case .colorMonochrome:
            // Luminance × inputColor, mixed with the original by inputIntensity.
            var i = num(kCIInputIntensityKey, 0, 1)
            if i.isNaN { i = 1 }
            let c = f.color(kCIInputColorKey)
            let lc = SIMD3(linear(c.x), linear(c.y), linear(c.z))
            t = ColorTransform(r: (1 - i) * e[0] + i * lc.x * luma, g: (1 - i) * e[1] + i * lc.y * luma,
                               b: (1 - i) * e[2] + i * lc.z * luma, a: e[3])
        case .falseColor:
            // inputColor0 + (inputColor1 − inputColor0) × luminance.
            let c0 = f.color("inputColor0"), c1 = f.color("inputColor1")
            let l0 = SIMD3(linear(c0.x), linear(c0.y), linear(c0.z)), l1 = SIMD3(linear(c1.x), linear(c1.y), linear(c1.z))
            t = ColorTransform(r: (l1.x - l0.x) * luma, g: (l1.y - l0.y) * luma, b: (l1.z - l0.z) * luma, a: e[3],
                               bias: SIMD4(l0.x, l0.y, l0.z, 0))
        default:
            break
        }
        return t
    }
}
