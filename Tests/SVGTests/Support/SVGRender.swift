import Testing
import Foundation

/// Renders an imported SVG document headless at a pixel size, over white. One renderer per
/// (size, scale), reused: GL contexts belong to one thread, so callers use a cache from one
/// test function only.
final class SVGRenderCache {
    private var renderers: [String: CARenderer] = [:]

    func render(_ doc: SVGDocument, pixelWidth: Int, pixelHeight: Int) throws -> CGImage {
        let scale = CGFloat(pixelWidth) / doc.size.width
        let size = CGSize(width: doc.size.width, height: CGFloat(pixelHeight) / scale)
        let key = "\(size.width)x\(size.height)@\(scale)"
        let r: CARenderer
        if let cached = renderers[key] {
            r = cached
        } else {
            r = try CARenderer(offscreenSize: size, scale: scale, options: .init(backend: .openGL))
            r.clearColor = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
            renderers[key] = r
        }
        r.layer = doc.layer
        r.beginFrame(atTime: 0)
        try r.renderChecked()
        r.endFrame()
        r.layer = nil
        return try r.makeImage()
    }
}

/// Pixel comparison of the conformance corpus: both images composited on white, a pixel
/// differs when any channel differs by more than `threshold` (issue 6: 32).
enum SVGImageDiff {
    /// Premultiplied RGBA8 over white → RGB8.
    static func onWhite(_ img: CGImage) -> [UInt8] {
        let src = img.rgba8Bytes
        var out = [UInt8](repeating: 255, count: img.width * img.height * 3)
        src.withUnsafeBufferPointer { s in
            out.withUnsafeMutableBufferPointer { o in
                var j = 0
                var i = 0
                while i < s.count {
                    let inv = 255 - Int(s[i + 3])
                    o[j] = UInt8(min(255, Int(s[i]) + inv))
                    o[j + 1] = UInt8(min(255, Int(s[i + 1]) + inv))
                    o[j + 2] = UInt8(min(255, Int(s[i + 2]) + inv))
                    i += 4; j += 3
                }
            }
        }
        return out
    }

    /// The fraction of pixels that differ by more than `threshold` in any channel; 1 when the
    /// sizes differ.
    static func differingFraction(_ a: CGImage, _ b: CGImage, threshold: Int = 32) -> Double {
        guard a.width == b.width, a.height == b.height else { return 1 }
        let x = onWhite(a), y = onWhite(b)
        var bad = 0
        x.withUnsafeBufferPointer { p in
            y.withUnsafeBufferPointer { q in
                var i = 0
                while i < p.count {
                    if abs(Int(p[i]) - Int(q[i])) > threshold || abs(Int(p[i + 1]) - Int(q[i + 1])) > threshold
                        || abs(Int(p[i + 2]) - Int(q[i + 2])) > threshold { bad += 1 }
                    i += 3
                }
            }
        }
        return Double(bad) / Double(a.width * a.height)
    }
}
