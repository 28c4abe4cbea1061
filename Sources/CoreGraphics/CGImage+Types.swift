// Bitmap description types used by `CGImage`, with Apple's names and raw values
// (CoreGraphics/CGImage.h, CGColorSpace.h).

/// Where alpha sits in a pixel and whether colours are premultiplied by it
/// (Apple's `CGImageAlphaInfo`, same raw values).
public enum CGImageAlphaInfo: UInt32, Sendable, Hashable {
    /// No alpha channel.
    case none = 0
    /// Alpha is the last component; colour components are premultiplied (RGBA).
    case premultipliedLast = 1
    /// Alpha is the first component; colour components are premultiplied (ARGB).
    case premultipliedFirst = 2
    /// Alpha is the last component, colours not premultiplied ("straight").
    case last = 3
    /// Alpha is the first component, colours not premultiplied.
    case first = 4
    /// No alpha; the last byte of each pixel is padding (RGBX).
    case noneSkipLast = 5
    /// No alpha; the first byte of each pixel is padding (XRGB).
    case noneSkipFirst = 6
    /// Only an alpha channel (a mask).
    case alphaOnly = 7
}

/// Byte order of a pixel's components (Apple's `CGImageByteOrderInfo`, same raw values).
public enum CGImageByteOrderInfo: UInt32, Sendable, Hashable {
    case orderMask = 0x7000
    case orderDefault = 0
    case order16Little = 0x1000
    case order32Little = 0x2000
    case order16Big = 0x3000
    case order32Big = 0x4000
}

/// Layout flags of a bitmap: alpha info in the low 5 bits, float flag, byte order
/// (Apple's `CGBitmapInfo`, an `OptionSet` over `UInt32` with the same masks and values).
public struct CGBitmapInfo: OptionSet, Sendable, Hashable {
    public let rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public static let alphaInfoMask = CGBitmapInfo(rawValue: 0x1F)
    public static let floatInfoMask = CGBitmapInfo(rawValue: 0xF00)
    public static let floatComponents = CGBitmapInfo(rawValue: 1 << 8)
    public static let byteOrderMask = CGBitmapInfo(rawValue: 0x7000)
    public static let byteOrderDefault = CGBitmapInfo([])
    public static let byteOrder16Little = CGBitmapInfo(rawValue: 1 << 12)
    public static let byteOrder32Little = CGBitmapInfo(rawValue: 2 << 12)
    public static let byteOrder16Big = CGBitmapInfo(rawValue: 3 << 12)
    public static let byteOrder32Big = CGBitmapInfo(rawValue: 4 << 12)
    /// Host byte order: little-endian on every platform this package runs on.
    public static let byteOrder16Host = byteOrder16Little
    public static let byteOrder32Host = byteOrder32Little

    /// The alpha info encoded in the low bits (nil for a value Apple does not define).
    var alphaInfo: CGImageAlphaInfo? { CGImageAlphaInfo(rawValue: rawValue & Self.alphaInfoMask.rawValue) }
    /// The byte-order field (nil for a value Apple does not define).
    var byteOrder: CGImageByteOrderInfo? {
        CGImageByteOrderInfo(rawValue: rawValue & Self.byteOrderMask.rawValue)
    }
}

/// How colours outside the destination gamut are mapped (Apple's `CGColorRenderingIntent`,
/// same raw values). Stored on images for source compatibility; the renderer composites in
/// sRGB and does not act on it.
public enum CGColorRenderingIntent: Int32, Sendable, Hashable {
    case defaultIntent = 0
    case absoluteColorimetric = 1
    case relativeColorimetric = 2
    case perceptual = 3
    case saturation = 4
}
