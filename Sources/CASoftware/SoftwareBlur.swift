import Foundation

/// One direction of the separable Gaussian blur pass (Shaders/blur.frag): the kernel cut at
/// 2.5σ and renormalised, taps two texels at a time through bilinear filtering, at most 256
/// texels either side. Writes without blending, as the GL pass (blending off). A filter's blur
/// (`FilterOp.blur`, blur.frag with CA_FILTER_BLUR) is the same pass cut at 3σ.
enum SoftwareBlur {
    /// The shadow cut (blur.frag's CUT), in σ.
    static let shadowCut: Float = 2.5
    /// CIGaussianBlur's and CIBloom's cut (CA_FILTER_BLUR), where the kernel's tail is 0.27 %.
    static let filterCut: Float = 3

    static func pass(from src: SoftwareTarget, into dst: SoftwareTarget, sigma: Float, horizontal: Bool, rows: Range<Int>,
                     cut: Float = shadowCut) {
        let n = Int(min((cut * sigma + 1e-3).rounded(.down), 256))
        let k = -0.5 / (sigma * sigma)
        // Tap offsets and weights, as the shader's loop makes them.
        var taps: [(o: Float, w: Float)] = []
        var total: Float = 1
        var i = 1
        while i <= n {
            let w0 = expf(k * Float(i * i))
            let w1: Float = i + 1 <= n ? expf(k * Float((i + 1) * (i + 1))) : 0
            let w = w0 + w1
            taps.append((Float(i) + w1 / w, w))
            total += 2 * w
            i += 2
        }
        let sx = Float(src.width) / Float(dst.width), sy = Float(src.height) / Float(dst.height)
        for y in rows where y < dst.height {
            for x in 0..<dst.width {
                let cx = (Float(x) + 0.5) * sx, cy = (Float(y) + 0.5) * sy
                var sum = src.bilinear(cx, cy)
                for t in taps {
                    let a = horizontal ? src.bilinear(cx + t.o, cy) : src.bilinear(cx, cy + t.o)
                    let b = horizontal ? src.bilinear(cx - t.o, cy) : src.bilinear(cx, cy - t.o)
                    sum += (a + b) * t.w
                }
                dst.pixels[y * dst.width + x] = SoftwarePixel.pack(sum / total)
            }
        }
    }
}
