/// CPU box-filter downscale of premultiplied RGBA8 so an image fits a texture limit (averaging
/// premultiplied values keeps colour and coverage consistent; the aspect ratio is kept).
enum ImageDownscale {
    static func fit(_ src: [UInt8], width: Int, height: Int, maxSide: Int) -> ([UInt8], Int, Int) {
        let k = max(Double(width) / Double(maxSide), Double(height) / Double(maxSide))
        let w = max(1, min(maxSide, Int((Double(width) / k).rounded(.down))))
        let h = max(1, min(maxSide, Int((Double(height) / k).rounded(.down))))
        var out = [UInt8](repeating: 0, count: w * h * 4)
        for y in 0..<h {
            let y0 = y * height / h, y1 = max(y0 + 1, (y + 1) * height / h)
            for x in 0..<w {
                let x0 = x * width / w, x1 = max(x0 + 1, (x + 1) * width / w)
                var acc = SIMD4<UInt32>(repeating: 0)
                for sy in y0..<y1 {
                    var i = (sy * width + x0) * 4
                    for _ in x0..<x1 {
                        acc &+= SIMD4(UInt32(src[i]), UInt32(src[i + 1]), UInt32(src[i + 2]), UInt32(src[i + 3]))
                        i += 4
                    }
                }
                let n = UInt32((y1 - y0) * (x1 - x0))
                let o = (y * w + x) * 4
                let r = (acc &+ SIMD4(repeating: n / 2)) / SIMD4(repeating: n)   // rounded mean
                out[o] = UInt8(r.x); out[o + 1] = UInt8(r.y); out[o + 2] = UInt8(r.z); out[o + 3] = UInt8(r.w)
            }
        }
        return (out, w, h)
    }
}
