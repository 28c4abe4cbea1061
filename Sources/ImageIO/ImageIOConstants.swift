// The names ImageIO's calls take and return, with Apple's string values (so a dictionary
// printed here reads as it does on Apple platforms). Apple declares them as `CFString`; here
// `CFString` is `String` (CoreGraphics), so `[kCGImagePropertyPixelWidth: …] as CFDictionary`
// and `properties[kCGImagePropertyPixelWidth] as? Int` compile unchanged.
import CoreGraphics

// MARK: - Uniform type identifiers (Apple's UTType strings for the supported formats)

/// The uniform type identifiers ImageIO reads (`CGImageSourceCopyTypeIdentifiers()`) and writes
/// (`CGImageDestinationCopyTypeIdentifiers()`), with the strings Apple uses. Extension beyond
/// Apple's API as a namespace; Apple code spells them as string literals or through
/// `UTType.png.identifier`, which give the same strings.
public enum ImageIOTypeIdentifier {
    public static let png: CFString = "public.png"
    public static let jpeg: CFString = "public.jpeg"
    public static let gif: CFString = "com.compuserve.gif"
    public static let webP: CFString = "org.webmproject.webp"
}

// MARK: - Image properties (CGImageSourceCopyPropertiesAtIndex)

/// Width of the image in pixels (an `Int`).
public let kCGImagePropertyPixelWidth: CFString = "PixelWidth"
/// Height of the image in pixels (an `Int`).
public let kCGImagePropertyPixelHeight: CFString = "PixelHeight"
/// Bits per component (an `Int`; always 8 here).
public let kCGImagePropertyDepth: CFString = "Depth"
/// Whether the image has an alpha channel (a `Bool`).
public let kCGImagePropertyHasAlpha: CFString = "HasAlpha"
/// The colour model (`kCGImagePropertyColorModelRGB` or `…Gray`).
public let kCGImagePropertyColorModel: CFString = "ColorModel"
public let kCGImagePropertyColorModelRGB: CFString = "RGB"
public let kCGImagePropertyColorModelGray: CFString = "Gray"
/// The EXIF orientation (1…8, an `Int`; the values of `CGImagePropertyOrientation`). Present for
/// JPEG files with an EXIF orientation tag. As on Apple, `CGImageSourceCreateImageAtIndex` does
/// not rotate the pixels: the caller applies the orientation.
public let kCGImagePropertyOrientation: CFString = "Orientation"
/// Size of the source's data in bytes (container properties, `CGImageSourceCopyProperties`).
public let kCGImagePropertyFileSize: CFString = "FileSize"

/// The TIFF dictionary (holds `kCGImagePropertyTIFFOrientation` for EXIF JPEGs).
public let kCGImagePropertyTIFFDictionary: CFString = "{TIFF}"
public let kCGImagePropertyTIFFOrientation: CFString = "Orientation"

/// The GIF dictionary: per frame `kCGImagePropertyGIFDelayTime` and
/// `kCGImagePropertyGIFUnclampedDelayTime`; in the container properties
/// `kCGImagePropertyGIFLoopCount` (0 = forever) when the file has a NETSCAPE2.0 loop block.
public let kCGImagePropertyGIFDictionary: CFString = "{GIF}"
/// The frame's delay in seconds (a `Double`); delays under 0.011 s (0 or 1 hundredths,
/// which browsers also refuse to honour) are reported as 0.1 s.
public let kCGImagePropertyGIFDelayTime: CFString = "DelayTime"
/// The frame's delay in seconds as the file gives it (a `Double`).
public let kCGImagePropertyGIFUnclampedDelayTime: CFString = "UnclampedDelayTime"
/// How many times the animation plays (an `Int`; 0 = forever).
public let kCGImagePropertyGIFLoopCount: CFString = "LoopCount"

/// The WebP dictionary: as the GIF one, for animated WebP (`kCGImagePropertyWebPDelayTime`,
/// `…UnclampedDelayTime` per frame; `…LoopCount`, `…CanvasPixelWidth/Height` in the container).
public let kCGImagePropertyWebPDictionary: CFString = "{WebP}"
public let kCGImagePropertyWebPDelayTime: CFString = "DelayTime"
public let kCGImagePropertyWebPUnclampedDelayTime: CFString = "UnclampedDelayTime"
public let kCGImagePropertyWebPLoopCount: CFString = "LoopCount"
public let kCGImagePropertyWebPCanvasPixelWidth: CFString = "CanvasPixelWidth"
public let kCGImagePropertyWebPCanvasPixelHeight: CFString = "CanvasPixelHeight"

/// The PNG dictionary (present, empty: no PNG-specific properties are reported).
public let kCGImagePropertyPNGDictionary: CFString = "{PNG}"
/// The JFIF dictionary (present for JPEG, empty).
public let kCGImagePropertyJFIFDictionary: CFString = "{JFIF}"

// MARK: - Source options

/// A type identifier hint. Accepted; the format is always recognised from the data itself.
public let kCGImageSourceTypeIdentifierHint: CFString = "kCGImageSourceTypeIdentifierHint"
/// Whether decoded images are cached. Accepted; this implementation keeps no decoded images
/// (GIF keeps the last composed canvas so that frames read in order cost one frame each).
public let kCGImageSourceShouldCache: CFString = "kCGImageSourceShouldCache"
/// Accepted, no effect (decoding happens at `CGImageSourceCreateImageAtIndex` either way).
public let kCGImageSourceShouldCacheImmediately: CFString = "kCGImageSourceShouldCacheImmediately"
/// Not supported (images are always 8-bit): warns once, ignored.
public let kCGImageSourceShouldAllowFloat: CFString = "kCGImageSourceShouldAllowFloat"
/// Thumbnail options: not supported (`CGImageSourceCreateThumbnailAtIndex` is not provided);
/// given to the calls here they warn once and are ignored.
public let kCGImageSourceCreateThumbnailFromImageIfAbsent: CFString = "kCGImageSourceCreateThumbnailFromImageIfAbsent"
public let kCGImageSourceCreateThumbnailFromImageAlways: CFString = "kCGImageSourceCreateThumbnailFromImageAlways"
public let kCGImageSourceThumbnailMaxPixelSize: CFString = "kCGImageSourceThumbnailMaxPixelSize"
public let kCGImageSourceCreateThumbnailWithTransform: CFString = "kCGImageSourceCreateThumbnailWithTransform"
public let kCGImageSourceSubsampleFactor: CFString = "kCGImageSourceSubsampleFactor"

// MARK: - Destination options

/// JPEG quality, 0.0 (smallest) … 1.0 (best); a `Double`, `Float`, `CGFloat`, `Int` or
/// `NSNumber`. Mapped to libjpeg's quality 1…100 (value × 100, rounded, clamped); values outside
/// 0…1 are clamped, NaN warns and uses the default 0.75 (libjpeg's default quality 75). PNG is
/// lossless and ignores it, as on Apple.
public let kCGImageDestinationLossyCompressionQuality: CFString = "kCGImageDestinationLossyCompressionQuality"
/// The background colour JPEG compositing would use. Not supported: warns once; images with
/// alpha are written to JPEG composited over black (their premultiplied colours).
public let kCGImageDestinationBackgroundColor: CFString = "kCGImageDestinationBackgroundColor"

/// The status of an image source, with Apple's raw values (`CGImageSourceGetStatus`).
public enum CGImageSourceStatus: Int32, Sendable {
    /// The data ends before the image is complete.
    case statusUnexpectedEOF = -5
    /// The data is corrupt (or declares an image too large to decode).
    case statusInvalidData = -4
    /// The data is not in a format ImageIO here reads (PNG, JPEG, GIF, WebP).
    case statusUnknownType = -3
    case statusReadingHeader = -2
    case statusIncomplete = -1
    case statusComplete = 0
}
