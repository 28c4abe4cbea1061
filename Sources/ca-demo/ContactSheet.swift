import QuartzCore

/// A grid of frames, each downscaled by averaging, on a dark background: one PNG a person can
/// look at to see the whole animation.
enum ContactSheet {
    static func make(_ frames: [CGImage], columns: Int, thumbnailScale: Double) -> CGImage {
        let fw = frames[0].width, fh = frames[0].height
        let step = max(1, Int((1 / thumbnailScale).rounded()))
        let tw = fw / step, th = fh / step
        let gap = 4
        let rows = (frames.count + columns - 1) / columns
        let w = columns * tw + (columns + 1) * gap, h = rows * th + (rows + 1) * gap
        var out = [UInt8](repeating: 0, count: w * h * 4)
        for i in stride(from: 0, to: out.count, by: 4) { out[i] = 24; out[i + 1] = 24; out[i + 2] = 28; out[i + 3] = 255 }
        for (n, f) in frames.enumerated() {
            let src = f.rgba8Bytes
            let ox = gap + (n % columns) * (tw + gap), oy = gap + (n / columns) * (th + gap)
            for y in 0..<th {
                for x in 0..<tw {
                    var acc = [0, 0, 0, 0]
                    for sy in 0..<step { for sx in 0..<step {
                        let i = ((y * step + sy) * fw + x * step + sx) * 4
                        for c in 0..<4 { acc[c] += Int(src[i + c]) }
                    } }
                    let o = ((oy + y) * w + ox + x) * 4
                    let a = acc[3] / (step * step)
                    // Over the dark sheet (premultiplied source).
                    for c in 0..<3 { out[o + c] = UInt8(min(255, acc[c] / (step * step) + Int(out[o + c]) * (255 - a) / 255)) }
                    out[o + 3] = 255
                }
            }
        }
        return CGImage(width: w, height: h, rgba8Bytes: out, premultiplied: true)!
    }
}
