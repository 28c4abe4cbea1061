import Synchronization

/// An immutable bitmap image, as Apple's `CGImage`.
///
/// Storage: every image holds its pixels as **8-bit RGBA, premultiplied alpha, tightly
/// packed** (`bytesPerRow == width * 4`), rows top to bottom (row 0 is the first row of the
/// source data, as Apple's image space). Sources in other supported layouts are converted
/// once, when the image is created; the properties (`alphaInfo`, `bitmapInfo`,
/// `bytesPerRow`, `colorSpace`) then describe this stored form, not the provider's — a
/// deviation from Apple, which reports the layout it was given. Storing one layout lets the
/// renderer upload any image straight into a premultiplied-alpha texture.
///
/// A class, as on Apple, and compared by identity (`==` is `===`): the renderer caches
/// textures per image object, and two images with equal pixels are still two images.
/// Immutable, so `Sendable`.
public final class CGImage: Hashable, Sendable, CustomStringConvertible {
    public let width: Int
    public let height: Int
    /// Always 8.
    public var bitsPerComponent: Int { 8 }
    /// Always 32.
    public var bitsPerPixel: Int { 32 }
    /// Always `width * 4` (the storage is tightly packed).
    public var bytesPerRow: Int { width * 4 }
    /// `.premultipliedLast`, or `.noneSkipLast` when the source had no alpha (every stored
    /// alpha is then 255).
    public let alphaInfo: CGImageAlphaInfo
    /// `alphaInfo` with the default (big-endian, i.e. R, G, B, A byte) order.
    public var bitmapInfo: CGBitmapInfo { CGBitmapInfo(rawValue: alphaInfo.rawValue) }
    /// Always `.orderDefault` (bytes R, G, B, A in memory).
    public var byteOrderInfo: CGImageByteOrderInfo { .orderDefault }
    /// sRGB: gray sources are expanded to RGB when the image is created.
    public var colorSpace: CGColorSpace? { CGColorSpace.srgbSpace }
    public let shouldInterpolate: Bool
    public let renderingIntent: CGColorRenderingIntent
    /// Always false: image masks are not supported.
    public var isMask: Bool { false }
    /// Always nil: a decode array given at creation is not applied (see the initializer).
    public var decode: UnsafePointer<CGFloat>? { nil }

    /// The stored pixels: premultiplied RGBA8, `width * height * 4` bytes.
    private let storage: [UInt8]
    /// True when every stored alpha is 255 (a PNG is then written without alpha; a clip mask
    /// ignores alpha). Found on first use and kept (`opacity`: 0 not yet known, 1 opaque, 2
    /// not): a renderer reads its frame back into a new image every frame, and a scan of every
    /// alpha at creation was 2 % of a 512² Lottie frame that never asked (issue 23).
    package var isOpaque: Bool {
        switch opacity.load(ordering: .relaxed) {
        case 1: return true
        case 2: return false
        default:
            let opaque = Self.allAlphaOpaque(storage)
            opacity.store(opaque ? 1 : 2, ordering: .relaxed)
            return opaque
        }
    }
    private let opacity = Atomic<UInt8>(0)

    /// Largest pixel buffer accepted, in bytes (2 GiB): anything bigger is treated as a
    /// mistake (a negative size cast to unsigned, a swapped argument) rather than allocated.
    package static let maxByteCount = 1 << 31

    /// The designated initializer: takes the stored form as is (no validation, no copy).
    /// `package` so that decoders (PNG here, ImageIO's JPEG/WebP/GIF) can hand over a buffer
    /// they built without a second pass.
    package init(width: Int, height: Int, premultipliedRGBA: [UInt8], alphaInfo: CGImageAlphaInfo,
                 shouldInterpolate: Bool, intent: CGColorRenderingIntent) {
        self.width = width
        self.height = height
        storage = premultipliedRGBA
        self.alphaInfo = alphaInfo
        self.shouldInterpolate = shouldInterpolate
        renderingIntent = intent
    }

    /// Whether every fourth byte (from byte 3) is 255. Sixteen pixels a step, their words
    /// ANDed and the alpha bytes compared once; the same answer as the byte loop.
    static func allAlphaOpaque(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { raw in
            let n = raw.count / 4
            var i = 0
            let alpha = SIMD4<UInt32>(repeating: 0xFF00_0000)
            #if _endian(little)
            while i + 16 <= n {
                let p = raw.baseAddress! + i * 4
                let v = p.loadUnaligned(as: SIMD4<UInt32>.self) & p.loadUnaligned(fromByteOffset: 16, as: SIMD4<UInt32>.self)
                    & p.loadUnaligned(fromByteOffset: 32, as: SIMD4<UInt32>.self) & p.loadUnaligned(fromByteOffset: 48, as: SIMD4<UInt32>.self)
                if (v & alpha) != alpha { return false }
                i += 16
            }
            #endif
            while i < n {
                if raw[i * 4 + 3] != 255 { return false }
                i += 1
            }
            return true
        }
    }

    /// `width * height * 4`, or nil when a size is not positive or the product overflows
    /// or exceeds `maxByteCount`.
    static func storageByteCount(width: Int, height: Int) -> Int? {
        guard width > 0, height > 0 else { return nil }
        let (row, o1) = width.multipliedReportingOverflow(by: 4)
        let (total, o2) = row.multipliedReportingOverflow(by: height)
        guard !o1, !o2, total <= maxByteCount else { return nil }
        return total
    }

    /// Apple's bitmap initializer (CGImageCreate). Returns nil — as Apple does for bad
    /// parameters — when a size is not positive or absurdly large, `bytesPerRow` is too small
    /// for a row, the provider holds fewer bytes than the rows need, or the layout is not one
    /// of those supported:
    /// - RGB space, 8 bits per component, 32 bits per pixel, alpha info `.premultipliedLast`,
    ///   `.premultipliedFirst`, `.last`, `.first`, `.noneSkipLast` or `.noneSkipFirst`, byte
    ///   order default / `.byteOrder32Big` (components in the order named) or
    ///   `.byteOrder32Little` (reversed, e.g. `.premultipliedFirst` + little = B, G, R, A bytes);
    /// - RGB space, 8 bits per component, 24 bits per pixel, `.none` (R, G, B bytes);
    /// - gray space, 8 bits per component, 8 bits per pixel, `.none`.
    /// Float components and 16-bit byte orders are rejected. Straight-alpha sources are
    /// premultiplied on the way in (rounded to nearest). `decode` is accepted for source
    /// compatibility but not applied.
    public convenience init?(width: Int, height: Int, bitsPerComponent: Int, bitsPerPixel: Int,
                             bytesPerRow: Int, space: CGColorSpace, bitmapInfo: CGBitmapInfo,
                             provider: CGDataProvider, decode: UnsafePointer<CGFloat>?,
                             shouldInterpolate: Bool, intent: CGColorRenderingIntent) {
        guard let outCount = CGImage.storageByteCount(width: width, height: height),
              bitsPerComponent == 8, !bitmapInfo.contains(.floatComponents),
              let alpha = bitmapInfo.alphaInfo, let order = bitmapInfo.byteOrder,
              let data = provider.data
        else { return nil }
        let bytesPerPixel: Int
        switch (space.model, bitsPerPixel, alpha) {
        case (.rgb, 32, .premultipliedLast), (.rgb, 32, .premultipliedFirst), (.rgb, 32, .last),
             (.rgb, 32, .first), (.rgb, 32, .noneSkipLast), (.rgb, 32, .noneSkipFirst):
            guard order == .orderDefault || order == .order32Big || order == .order32Little else { return nil }
            bytesPerPixel = 4
        case (.rgb, 24, .none):
            guard order == .orderDefault else { return nil }
            bytesPerPixel = 3
        case (.monochrome, 8, .none):
            guard order == .orderDefault else { return nil }
            bytesPerPixel = 1
        default:
            return nil
        }
        let (rowBytes, o1) = width.multipliedReportingOverflow(by: bytesPerPixel)
        guard !o1, bytesPerRow >= rowBytes else { return nil }
        let (lastRowStart, o2) = bytesPerRow.multipliedReportingOverflow(by: height - 1)
        let (needed, o3) = lastRowStart.addingReportingOverflow(rowBytes)
        guard !o2, !o3, data.count >= needed else { return nil }

        // Byte offsets of R, G, B, A inside one source pixel (A = nil: opaque).
        let offsets: (r: Int, g: Int, b: Int, a: Int?)
        let little = order == .order32Little
        switch alpha {
        case .premultipliedLast, .last: offsets = little ? (3, 2, 1, 0) : (0, 1, 2, 3)
        case .premultipliedFirst, .first: offsets = little ? (2, 1, 0, 3) : (1, 2, 3, 0)
        case .noneSkipLast: offsets = little ? (3, 2, 1, nil) : (0, 1, 2, nil)
        case .noneSkipFirst: offsets = little ? (2, 1, 0, nil) : (1, 2, 3, nil)
        case .none: offsets = bytesPerPixel == 1 ? (0, 0, 0, nil) : (0, 1, 2, nil)
        case .alphaOnly: return nil
        }
        let straight = alpha == .last || alpha == .first
        var out = [UInt8](repeating: 0, count: outCount)
        data.withUnsafeBytes { (src: UnsafeRawBufferPointer) in
            out.withUnsafeMutableBufferPointer { dst in
                var o = 0
                for y in 0..<height {
                    var s = y * bytesPerRow
                    for _ in 0..<width {
                        var r = src[s + offsets.r], g = src[s + offsets.g], b = src[s + offsets.b]
                        var a: UInt8 = 255
                        if let ai = offsets.a { a = src[s + ai] }
                        if straight, a != 255 {
                            r = premultiply(r, a); g = premultiply(g, a); b = premultiply(b, a)
                        }
                        dst[o] = r; dst[o + 1] = g; dst[o + 2] = b; dst[o + 3] = a
                        o += 4
                        s += bytesPerPixel
                    }
                }
            }
        }
        let hasAlpha = offsets.a != nil
        self.init(width: width, height: height, premultipliedRGBA: out,
                  alphaInfo: hasAlpha ? .premultipliedLast : .noneSkipLast,
                  shouldInterpolate: shouldInterpolate, intent: intent)
    }

    /// Extension beyond Apple's API: an image from tightly packed 8-bit RGBA bytes, rows top
    /// to bottom (`width * height * 4` of them). `premultiplied` says whether the colour bytes
    /// are already multiplied by alpha; if not, they are premultiplied here (rounded to
    /// nearest). Nil when a size is not positive or too large, or the byte count is wrong.
    public convenience init?(width: Int, height: Int, rgba8Bytes: [UInt8], premultiplied: Bool) {
        guard let count = CGImage.storageByteCount(width: width, height: height),
              rgba8Bytes.count == count else { return nil }
        var bytes = rgba8Bytes
        if !premultiplied { CGImage.premultiplyRGBA8InPlace(&bytes) }
        self.init(width: width, height: height, premultipliedRGBA: bytes, alphaInfo: .premultipliedLast,
                  shouldInterpolate: true, intent: .defaultIntent)
    }

    /// Premultiplies straight-alpha 8-bit RGBA in place (rounded to nearest), so a decoder that
    /// owns its pixel array can hand it to `init(width:height:premultipliedRGBA:…)` without a
    /// second image-sized copy (a 16k² image is 1 GiB; a copy doubles the peak).
    package static func premultiplyRGBA8InPlace(_ bytes: inout [UInt8]) {
        bytes.withUnsafeMutableBufferPointer { buf in
            var i = 0
            while i + 3 < buf.count {
                let a = buf[i + 3]
                if a != 255 {
                    buf[i] = premultiply(buf[i], a)
                    buf[i + 1] = premultiply(buf[i + 1], a)
                    buf[i + 2] = premultiply(buf[i + 2], a)
                }
                i += 4
            }
        }
    }

    /// Extension beyond Apple's API: the stored pixels — 8-bit RGBA, **premultiplied**,
    /// tightly packed (`width * 4` bytes per row), rows top to bottom.
    public var rgba8Bytes: [UInt8] { storage }

    /// The stored bytes without copying, for texture upload (same layout as `rgba8Bytes`).
    package func withUnsafeRGBA8Bytes<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try storage.withUnsafeBytes(body)
    }

    /// The premultiplied RGBA of one pixel, (0, 0) being the first pixel of the first row;
    /// (0, 0, 0, 0) outside the image.
    package func pixel(x: Int, y: Int) -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
        guard x >= 0, y >= 0, x < width, y < height else { return (0, 0, 0, 0) }
        let i = (y * width + x) * 4
        return (storage[i], storage[i + 1], storage[i + 2], storage[i + 3])
    }

    /// A provider over the stored bytes (premultiplied RGBA8, tightly packed), matching the
    /// properties this image reports.
    public var dataProvider: CGDataProvider? { CGDataProvider(data: Data(storage)) }

    /// The sub-image in `rect` (CGImageCreateWithImageInRect), in pixel coordinates with
    /// (0, 0) the first pixel of the first row. As Apple documents: the rect is made integral
    /// (`CGRectIntegral`: outward to whole pixels), intersected with the image bounds, and an
    /// empty result gives nil.
    public func cropping(to rect: CGRect) -> CGImage? {
        let r = rect.standardized
        guard !r.isNull, r.minX.isFinite, r.minY.isFinite, r.maxX.isFinite, r.maxY.isFinite else { return nil }
        let x0 = max(0, r.minX.rounded(.down)), y0 = max(0, r.minY.rounded(.down))
        let x1 = min(CGFloat(width), r.maxX.rounded(.up)), y1 = min(CGFloat(height), r.maxY.rounded(.up))
        guard x1 > x0, y1 > y0 else { return nil }
        let (ix, iy, w, h) = (Int(x0), Int(y0), Int(x1 - x0), Int(y1 - y0))
        if ix == 0, iy == 0, w == width, h == height { return self }
        var out = [UInt8]()
        out.reserveCapacity(w * h * 4)
        for row in iy..<(iy + h) {
            let start = (row * width + ix) * 4
            out.append(contentsOf: storage[start..<(start + w * 4)])
        }
        return CGImage(width: w, height: h, premultipliedRGBA: out, alphaInfo: alphaInfo,
                       shouldInterpolate: shouldInterpolate, intent: renderingIntent)
    }

    /// Apple's `copy()`: an immutable image is its own copy.
    public func copy() -> CGImage? { self }

    public static func == (l: CGImage, r: CGImage) -> Bool { l === r }
    public func hash(into h: inout Hasher) { h.combine(ObjectIdentifier(self)) }

    public var description: String { "CGImage(\(width)×\(height), premultiplied RGBA8)" }
}

/// c · a / 255, rounded to nearest.
@inline(__always) func premultiply(_ c: UInt8, _ a: UInt8) -> UInt8 {
    UInt8((UInt32(c) * UInt32(a) + 127) / 255)
}
