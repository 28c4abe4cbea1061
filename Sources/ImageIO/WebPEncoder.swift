// WebP output through libwebp's simple encoding API (WebPEncodeRGBA / WebPEncodeLosslessRGBA,
// https://developers.google.com/speed/webp/docs/api#simple_encoding_api). Apple's ImageIO
// reads WebP but does not write it; writing it is an extension beyond Apple's API, reached
// through the same CGImageDestination functions with the type "org.webmproject.webp".
internal import CWebP
import CoreGraphics
import Foundation

extension WebPCodec {
    /// One still image, straight alpha (WebP stores un-premultiplied colours). `quality` is
    /// ImageIO's 0…1 (default 0.75): below 1 lossy at libwebp quality × 100; 1 lossless.
    static func encode(_ image: CGImage, quality: Double?) -> Result<Data, DecodeFailure> {
        let w = image.width, h = image.height
        guard w <= 16383, h <= 16383 else {
            return .failure(.invalid("WebP holds at most 16383×16383 pixels; the image is \(w)×\(h)"))
        }
        var pixels = image.rgba8Bytes
        var i = 0
        while i < pixels.count {
            let a = Int(pixels[i + 3])
            if a != 0 && a != 255 {
                for c in 0..<3 { pixels[i + c] = UInt8(min(255, (Int(pixels[i + c]) * 255 + a / 2) / a)) }
            }
            i += 4
        }
        let q = min(max(quality ?? 0.75, 0), 1)
        var out: UnsafeMutablePointer<UInt8>? = nil
        let size = pixels.withUnsafeBufferPointer { p -> Int in
            q >= 1 ? Int(WebPEncodeLosslessRGBA(p.baseAddress!, Int32(w), Int32(h), Int32(w * 4), &out))
                   : Int(WebPEncodeRGBA(p.baseAddress!, Int32(w), Int32(h), Int32(w * 4), Float(q * 100), &out))
        }
        defer { if let out { WebPFree(out) } }
        guard size > 0, let out else { return .failure(.invalid("WebP encoding of a \(w)×\(h) image failed")) }
        return .success(Data(bytes: out, count: size))
    }
}
