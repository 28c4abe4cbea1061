import Foundation
import CoreGraphics

enum LottieColors {
    /// `[r, g, b(, a)]` in 0…1 (files before bodymovin 4.x used 0…255: any component above 1
    /// means that form), as an sRGB colour.
    static func color(_ v: LottieVector, alpha: Double = 1) -> CGColor {
        var c = v.v
        while c.count < 3 { c.append(0) }
        let scale = c.prefix(3).contains { $0 > 1 } ? 255.0 : 1
        func clamp(_ x: Double) -> CGFloat { CGFloat(min(max(x / scale, 0), 1)) }
        let a = c.count > 3 ? min(max(c[3] / scale, 0), 1) : 1
        return CGColor(srgbRed: clamp(c[0]), green: clamp(c[1]), blue: clamp(c[2]), alpha: CGFloat(a * alpha))
    }

    /// A solid layer's `sc`, "#rrggbb".
    static func hex(_ s: String?) -> CGColor? {
        guard var h = s?.trimmingCharacters(in: .whitespaces) else { return nil }
        if h.hasPrefix("#") { h.removeFirst() }
        guard h.count == 6 || h.count == 8, let n = UInt64(h, radix: 16) else { return nil }
        let r, g, b, a: UInt64
        if h.count == 6 { r = n >> 16 & 255; g = n >> 8 & 255; b = n & 255; a = 255 }
        else { r = n >> 24 & 255; g = n >> 16 & 255; b = n >> 8 & 255; a = n & 255 }
        return CGColor(srgbRed: CGFloat(r) / 255, green: CGFloat(g) / 255, blue: CGFloat(b) / 255, alpha: CGFloat(a) / 255)
    }

    /// A gradient's stops: `count` colour stops `[offset, r, g, b]`, then optional alpha stops
    /// `[offset, alpha]` (interpolated at the colour offsets). Returns colours and locations.
    static func gradient(_ raw: LottieVector, count: Int) -> (colors: [CGColor], locations: [NSNumber]) {
        let v = raw.v
        let n = max(1, min(count, v.count / 4))
        var alphaStops: [(Double, Double)] = []
        var k = n * 4
        while k + 1 < v.count { alphaStops.append((v[k], v[k + 1])); k += 2 }
        func alpha(at o: Double) -> Double {
            guard let first = alphaStops.first else { return 1 }
            if o <= first.0 { return first.1 }
            for i in 1..<max(alphaStops.count, 1) where i < alphaStops.count {
                let (o0, a0) = alphaStops[i - 1], (o1, a1) = alphaStops[i]
                if o <= o1 { return o1 > o0 ? a0 + (a1 - a0) * (o - o0) / (o1 - o0) : a1 }
            }
            return alphaStops.last!.1
        }
        var colors: [CGColor] = [], locations: [NSNumber] = []
        for i in 0..<n where i * 4 + 3 < v.count {
            let o = v[i * 4]
            colors.append(color(LottieVector([v[i * 4 + 1], v[i * 4 + 2], v[i * 4 + 3]]), alpha: alpha(at: o)))
            locations.append(NSNumber(value: min(max(o, 0), 1)))
        }
        return (colors, locations)
    }
}
