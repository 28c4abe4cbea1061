import Foundation
import CFloatLanes

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
        if src.width == dst.width, src.height == dst.height {
            // Texel for texel: every tap's bilinear read lies on the row (or column) of texel
            // centres, so pair i's two texels get w·(1 − f) and w·f with f = w1/w — that is w0
            // and w1 — and the pass is the discrete Gaussian exp(k·j²), j = −n…n, over texels
            // clamped to the edge, divided by the same total. Summed directly in float lanes
            // (`direct`): the same weights, rounded differently (a bilinear read per tap per
            // channel was three quarters of the filter scene on this backend).
            var kernel = [Float](repeating: 0, count: n + 1)
            kernel[0] = 1
            for j in stride(from: 1, through: n, by: 1) { kernel[j] = expf(k * Float(j * j)) }
            direct(from: src, into: dst, kernel: kernel, total: total, horizontal: horizontal, rows: rows)
            return
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

    /// The blur of a same-size pass over output rows `rows`: `kernel[j]` weighs the texels j
    /// either side (kernel[0] the centre), texels beyond the edge repeat the edge texel, and
    /// the sum is divided by `total`. Across, each source row is unpacked to floats once (padded
    /// by the kernel's reach); down, texels are unpacked as they are read. Taps are summed as
    /// symmetric pairs, four channels a lane.
    static func direct(from src: SoftwareTarget, into dst: SoftwareTarget, kernel: [Float], total: Float, horizontal: Bool,
                       rows: Range<Int>) {
        let w = src.width, h = src.height, n = kernel.count - 1
        let rows = rows.clamped(to: 0..<h)
        guard !rows.isEmpty else { return }
        let scale = 1 / total
        kernel.withUnsafeBufferPointer { kp in
            let k = kp.baseAddress!
            if horizontal {
                // One source row, padded by n clamped texels either side.
                let line = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: w + 2 * n)
                defer { line.deallocate() }
                for y in rows {
                    let row = src.pixels + y * w
                    for i in 0..<(w + 2 * n) { line[i] = ca_unpack_bytes4(row[min(max(i - n, 0), w - 1)]) }
                    let out = dst.pixels + y * w
                    for x in 0..<w {
                        let c = line + (x + n)
                        var acc = c[0] * k[0]
                        var j = 1
                        while j <= n { acc += (c[j] + c[-j]) * k[j]; j += 1 }
                        out[x] = SoftwarePixel.pack(acc * (scale / 255))
                    }
                }
            } else {
                // The sums a row at a time, the kernel's rows outer so each step streams two
                // source rows (clamped to the edge), unpacked as they are read: a float copy of
                // the band and its reach was megabytes allocated per band and pass, and four
                // times the memory traffic.
                let acc = UnsafeMutablePointer<SIMD4<Float>>.allocate(capacity: w)
                defer { acc.deallocate() }
                @inline(__always) func row(_ r: Int) -> UnsafeMutablePointer<UInt32> { src.pixels + min(max(r, 0), h - 1) * w }
                for y in rows {
                    let centre = row(y), k0 = k[0]
                    for x in 0..<w { acc[x] = ca_unpack_bytes4(centre[x]) * k0 }
                    var j = 1
                    while j <= n {
                        let below = row(y + j), above = row(y - j), kj = k[j]
                        for x in 0..<w { acc[x] += (ca_unpack_bytes4(below[x]) + ca_unpack_bytes4(above[x])) * kj }
                        j += 1
                    }
                    let out = dst.pixels + y * w
                    for x in 0..<w { out[x] = SoftwarePixel.pack(acc[x] * (scale / 255)) }
                }
            }
        }
    }
}
