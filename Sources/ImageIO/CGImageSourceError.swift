import CoreGraphics

/// Why an image source could not give an image. Extension beyond Apple's API (Apple's
/// `CGImageSourceCreateImageAtIndex` returns nil and logs the reason to the console; here it
/// returns nil too and warns once with this error's description, and
/// `CGImageSource.decodeImage(at:)` throws it).
public struct CGImageSourceError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Kind: Equatable, Sendable {
        /// The data is not PNG, JPEG, GIF or WebP (or is empty).
        case unknownType
        /// The decoder rejected the data (corrupt, or cut off: see the message).
        case invalidData
        /// The header declares more than `CGImageSource.maxPixelCount` pixels; nothing was
        /// allocated for them.
        case imageTooLarge
        /// The index is not below `CGImageSourceGetCount`.
        case indexOutOfRange
    }

    public let kind: Kind
    /// The file the source was created from (its path), or nil for a source made from data.
    public let file: String?
    /// The decoder's reason, e.g. libjpeg's "Premature end of JPEG file".
    public let message: String

    public init(kind: Kind, file: String?, message: String) {
        self.kind = kind
        self.file = file
        self.message = message
    }

    /// "FILE: MESSAGE" (or "image data: MESSAGE" for a source made from data).
    public var description: String { "\(file ?? "image data"): \(message)" }
}

/// A decoder's failure before the file name is attached.
struct DecodeFailure: Error {
    var kind: CGImageSourceError.Kind
    var message: String

    static func invalid(_ message: String) -> DecodeFailure { DecodeFailure(kind: .invalidData, message: message) }

    /// The refusal for a header that declares too many pixels (checked before allocating).
    static func tooLarge(_ format: String, _ width: Int, _ height: Int, buffers: Int = 1) -> DecodeFailure {
        let limit = CGImageSource.maxPixelCount / max(1, buffers)
        let why = buffers > 1 ? " (its decoder keeps \(buffers) canvases)" : ""
        return DecodeFailure(kind: .imageTooLarge,
                             message: "\(format) declares \(width)×\(height) pixels; at most \(limit) are accepted\(why)")
    }
}

/// True when `width × height` is positive and at most `CGImageSource.maxPixelCount`, so that its
/// RGBA8 storage (`CGImage.storageByteCount`) can be allocated. `buffers`: how many image-sized
/// canvases the decoder holds at once (libwebp's animation decoder keeps two), so that their sum
/// stays within the one-image limit.
func pixelCountAcceptable(_ width: Int, _ height: Int, buffers: Int = 1) -> Bool {
    guard width > 0, height > 0 else { return false }
    let (n, o) = width.multipliedReportingOverflow(by: height)
    return !o && n <= CGImageSource.maxPixelCount / max(1, buffers)
}
