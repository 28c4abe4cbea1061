import QuartzCore
import ImageIO
import Foundation

/// JPEG and WebP stills (`-o still.jpg|.webp`, `--quality`), encoded through ImageIO's
/// `CGImageDestination` (libjpeg-turbo; libwebp), as an Apple program would write them.
enum StillEncoder {
    /// `quality` 0…100 (default 90) becomes ImageIO's `kCGImageDestinationLossyCompressionQuality`
    /// 0…1; for WebP, 100 is lossless. JPEG has no alpha: the frame over black.
    static func encode(_ pixels: [UInt8], width: Int, height: Int, format: StillFormat, quality: Double?) throws -> Data {
        guard let image = CGImage(width: width, height: height, rgba8Bytes: pixels, premultiplied: true) else {
            throw CLIError("\(format.rawValue) encoding of a \(width)×\(height) frame failed")
        }
        let data = NSMutableData()
        guard let dst = CGImageDestinationCreateWithData(data, format.typeIdentifier, 1, nil) else {
            throw CLIError("ImageIO cannot write \(format.typeIdentifier)")
        }
        CGImageDestinationAddImage(dst, image, [kCGImageDestinationLossyCompressionQuality: (quality ?? 90) / 100] as CFDictionary)
        guard CGImageDestinationFinalize(dst) else { throw CLIError("\(format.rawValue) encoding of a \(width)×\(height) frame failed") }
        return data as Data
    }
}
