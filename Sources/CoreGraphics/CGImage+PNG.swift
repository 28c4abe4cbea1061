// PNG decoding and encoding for CGImage, through libpng's *simplified* API (png_image_*).
// The classic libpng API reports errors by longjmp, which Swift frames cannot survive; the
// simplified API catches its own longjmps internally and reports failure by return value,
// with a message in `png_image.message`.
internal import CPNG

/// Why PNG decoding or encoding failed. Extension beyond Apple's API (Apple reads and
/// writes PNG through ImageIO's `CGImageSource` / `CGImageDestination`, which report
/// failure by returning nil).
public struct CGImagePNGError: Error, Equatable, Sendable, CustomStringConvertible {
    public enum Kind: Equatable, Sendable {
        /// The data was empty.
        case emptyData
        /// libpng rejected the data (not a PNG, truncated, corrupt, bad CRC, ...).
        case invalidData
        /// The header declares more than `CGImage.maxPNGPixelCount` pixels; nothing was
        /// allocated for them.
        case imageTooLarge
        /// libpng could not encode the image.
        case encodingFailed
    }

    public let kind: Kind
    /// A human-readable reason; for `.invalidData` and `.encodingFailed` this is libpng's
    /// own message (`png_image.message`), e.g. "Not a PNG file".
    public let message: String

    public init(kind: Kind, message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { "CGImagePNGError.\(kind): \(message)" }
}

extension CGImage {
    /// Largest image accepted when decoding PNG data, in pixels (16384 × 16384, i.e. 1 GiB
    /// of RGBA8). A header that declares more is rejected before any pixel memory is
    /// allocated, so a tiny crafted file cannot ask for gigabytes.
    public static let maxPNGPixelCount = 16384 * 16384

    /// Extension beyond Apple's API (Apple decodes PNG through ImageIO's
    /// `CGImageSourceCreateWithData` + `CGImageSourceCreateImageAtIndex`): an image from
    /// PNG-encoded bytes, or nil when the data is empty, not a PNG, truncated, corrupt, or
    /// declares more than `maxPNGPixelCount` pixels. Never traps on bad input. Use
    /// `decodePNG(_:)` to learn why decoding failed.
    ///
    /// Every PNG colour type and bit depth is accepted (grey, grey + alpha, palette with or
    /// without `tRNS`, RGB, RGBA; 1 to 16 bits): libpng converts it to 8-bit sRGB RGBA, which
    /// is then premultiplied (rounded to nearest) into this image's stored form. A file with
    /// a `gAMA`/`cHRM`/`sRGB` chunk is converted to sRGB accordingly; a 16-bit file without
    /// one is taken as sRGB-encoded (`PNG_IMAGE_FLAG_16BIT_sRGB`; libpng's default would
    /// treat it as linear and brighten it). Images without alpha (and without `tRNS`) report
    /// `alphaInfo == .noneSkipLast`; others `.premultipliedLast`. Embedded ICC profiles and
    /// ancillary text chunks are ignored. libpng's simplified reader stops once the image
    /// data is complete, so a file cut off after its last IDAT (missing only `IEND`) still
    /// decodes; a cut anywhere earlier fails. Hostile files are refused as `.invalidData`
    /// before libpng allocates for them: a chunk before the image data declaring more bytes
    /// than the data holds, and image data too small to inflate to the declared size
    /// (deflate expands at most 1032:1), so a small file costs little memory (issue 17).
    public convenience init?(pngData: Data) {
        guard case .success(let d) = CGImage.decodePNGPixels(pngData) else { return nil }
        self.init(width: d.width, height: d.height, premultipliedRGBA: d.bytes, alphaInfo: d.alphaInfo,
                  shouldInterpolate: true, intent: .defaultIntent)
    }

    /// Extension beyond Apple's API (Apple uses ImageIO's `CGImageSourceCreateWithURL`): the
    /// PNG file at `path`, decoded as `init?(pngData:)` does. Throws Foundation's error when
    /// the file cannot be read, and `CGImagePNGError` when its contents cannot be decoded.
    public convenience init(contentsOfPNGFile path: String) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        let d = try CGImage.decodePNGPixels(data).get()
        self.init(width: d.width, height: d.height, premultipliedRGBA: d.bytes, alphaInfo: d.alphaInfo,
                  shouldInterpolate: true, intent: .defaultIntent)
    }

    /// Extension beyond Apple's API (see `init?(pngData:)`, which this mirrors): decodes PNG
    /// data, throwing a `CGImagePNGError` that carries libpng's message on failure.
    public static func decodePNG(_ data: Data) throws(CGImagePNGError) -> CGImage {
        let d = try decodePNGPixels(data).get()
        return CGImage(width: d.width, height: d.height, premultipliedRGBA: d.bytes, alphaInfo: d.alphaInfo,
                       shouldInterpolate: true, intent: .defaultIntent)
    }

    /// Extension beyond Apple's API (Apple encodes through ImageIO's
    /// `CGImageDestinationCreateWithData` + `CGImageDestinationAddImage`): this image as an
    /// 8-bit, non-interlaced sRGB PNG (with an `sRGB` chunk), or nil if libpng fails (for
    /// instance a width over libpng's limit of 1,000,000 pixels).
    ///
    /// Colours are un-premultiplied (rounded to nearest; fully transparent pixels become
    /// (0, 0, 0, 0)), since PNG stores straight alpha. An image whose every alpha is 255 is
    /// written as RGB without an alpha channel. Decoding the result gives back exactly the
    /// stored premultiplied bytes whenever they are valid (each colour ≤ its alpha).
    public func pngData() -> Data? {
        try? encodePNG()
    }

    // MARK: - Implementation

    struct DecodedPNG {
        var width: Int
        var height: Int
        /// Premultiplied RGBA8, tightly packed, rows top to bottom.
        var bytes: [UInt8]
        var alphaInfo: CGImageAlphaInfo
    }

    /// PNG_FORMAT_RGBA and PNG_FORMAT_RGB are composite macros (`PNG_FORMAT_RGB |
    /// PNG_FORMAT_FLAG_ALPHA`) that Swift does not import: spelled out here.
    private static let formatRGBA = UInt32(PNG_FORMAT_FLAG_COLOR | PNG_FORMAT_FLAG_ALPHA)   // 3
    private static let formatRGB = UInt32(PNG_FORMAT_FLAG_COLOR)                             // 2

    /// Decodes into premultiplied RGBA8. A `Result` rather than `throws` because the work runs
    /// inside `Data.withUnsafeBytes`, whose `rethrows` would erase the error type.
    static func decodePNGPixels(_ data: Data) -> Result<DecodedPNG, CGImagePNGError> {
        guard !data.isEmpty else {
            return .failure(CGImagePNGError(kind: .emptyData, message: "empty data"))
        }
        return data.withUnsafeBytes { (raw: UnsafeRawBufferPointer) -> Result<DecodedPNG, CGImagePNGError> in
            // libpng's memory reader keeps pointing into `raw` until finish_read returns, so
            // the whole decode stays inside this closure.
            // Bounds what libpng allocates for a small hostile file (see PNGChunkScan).
            let scan: PNGChunkScan
            switch scanPNGChunks(raw) {
            case .success(let s): scan = s
            case .failure(let e): return .failure(e)
            }
            var image = png_image()
            image.version = UInt32(PNG_IMAGE_VERSION)
            // On failure begin_read has already freed whatever it allocated.
            guard png_image_begin_read_from_memory(&image, raw.baseAddress, raw.count) != 0 else {
                return .failure(CGImagePNGError(kind: .invalidData, message: libpngMessage(image)))
            }
            // From here until finish_read, `image` owns libpng memory: free it on early exits.
            let width = Int(image.width), height = Int(image.height)
            let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
            guard width > 0, height > 0, !overflow, pixels <= maxPNGPixelCount,
                  let byteCount = storageByteCount(width: width, height: height)
            else {
                png_image_free(&image)
                return .failure(CGImagePNGError(
                    kind: .imageTooLarge,
                    message: "PNG declares \(width)×\(height) pixels; at most \(maxPNGPixelCount) are accepted"))
            }
            guard !scan.imageDataTooSmall(width: width, height: height) else {
                png_image_free(&image)
                return .failure(CGImagePNGError(
                    kind: .invalidData,
                    message: "\(scan.idatBytes) bytes of image data cannot hold \(width)×\(height) pixels (deflate expands at most \(PNGChunkScan.maxDeflateRatio):1)"))
            }
            let sourceHasAlpha = image.format & UInt32(PNG_FORMAT_FLAG_ALPHA) != 0
            image.format = formatRGBA
            // Must be set after begin_read, which initializes `flags`.
            image.flags |= UInt32(PNG_IMAGE_FLAG_16BIT_sRGB)
            // width ≤ 16384², so the stride (width · 4) fits png_int_32.
            var bytes = [UInt8](repeating: 0, count: byteCount)
            let ok = bytes.withUnsafeMutableBytes { buf in
                // finish_read frees `image` whether it succeeds or not.
                png_image_finish_read(&image, nil, buf.baseAddress, Int32(width * 4), nil)
            }
            guard ok != 0 else {
                return .failure(CGImagePNGError(kind: .invalidData, message: libpngMessage(image)))
            }
            // libpng gives straight (un-associated) alpha for 8-bit output: premultiply.
            if sourceHasAlpha {
                bytes.withUnsafeMutableBufferPointer { buf in
                    var i = 0
                    while i < buf.count {
                        let a = buf[i + 3]
                        if a == 0 {
                            buf[i] = 0; buf[i + 1] = 0; buf[i + 2] = 0
                        } else if a != 255 {
                            buf[i] = premultiply(buf[i], a)
                            buf[i + 1] = premultiply(buf[i + 1], a)
                            buf[i + 2] = premultiply(buf[i + 2], a)
                        }
                        i += 4
                    }
                }
            }
            return .success(DecodedPNG(width: width, height: height, bytes: bytes,
                                       alphaInfo: sourceHasAlpha ? .premultipliedLast : .noneSkipLast))
        }
    }

    /// Encodes as described at `pngData()`, throwing libpng's message on failure (`package`
    /// so tests can see why an encode failed).
    package func encodePNG() throws(CGImagePNGError) -> Data {
        let opaque = isOpaque
        let channels = opaque ? 3 : 4
        let (stride, o1) = width.multipliedReportingOverflow(by: channels)
        guard !o1, stride <= Int(Int32.max), width <= Int(UInt32.max), height <= Int(UInt32.max) else {
            throw CGImagePNGError(kind: .encodingFailed, message: "image too wide to encode")
        }
        // Straight-alpha RGBA (or RGB when opaque), as PNG stores it.
        var pixels = [UInt8](repeating: 0, count: stride * height)
        withUnsafeRGBA8Bytes { src in
            pixels.withUnsafeMutableBufferPointer { dst in
                var s = 0, d = 0
                let n = src.count
                if opaque {
                    while s < n {
                        dst[d] = src[s]; dst[d + 1] = src[s + 1]; dst[d + 2] = src[s + 2]
                        s += 4; d += 3
                    }
                } else {
                    while s < n {
                        let a = src[s + 3]
                        if a == 255 {
                            dst[d] = src[s]; dst[d + 1] = src[s + 1]; dst[d + 2] = src[s + 2]
                        } else if a != 0 {
                            dst[d] = unpremultiply(src[s], a)
                            dst[d + 1] = unpremultiply(src[s + 1], a)
                            dst[d + 2] = unpremultiply(src[s + 2], a)
                        } // a == 0: stays (0, 0, 0, 0)
                        dst[d + 3] = a
                        s += 4; d += 4
                    }
                }
            }
        }

        func makeImage() -> png_image {
            var image = png_image()
            image.version = UInt32(PNG_IMAGE_VERSION)
            image.width = UInt32(width)
            image.height = UInt32(height)
            image.format = opaque ? CGImage.formatRGB : CGImage.formatRGBA
            image.flags = 0  // sRGB colour space: libpng writes an sRGB chunk
            return image
        }

        // One compression pass in the usual case: a buffer sized from zlib's deflateBound-like
        // estimate (PNG_ZLIB_MAX_SIZE) for the filtered data plus chunk overhead. If libpng
        // still needs more it says how much, and a second pass uses exactly that.
        let filtered = pixels.count + height   // one filter byte per row
        let zlibMax = filtered + (filtered + 7) / 8 + (filtered + 63) / 64 + 11
        var capacity = zlibMax + zlibMax / 512 + 1024
        for _ in 0..<2 {
            var image = makeImage()
            var out = Data(count: capacity)
            var size = capacity
            let ok = out.withUnsafeMutableBytes { dst in
                pixels.withUnsafeBytes { src in
                    png_image_write_to_memory(&image, dst.baseAddress, &size, 0, src.baseAddress,
                                              Int32(stride), nil)
                }
            }
            // write_to_memory frees `image` itself in every case.
            if ok != 0 {
                out.count = size
                return out
            }
            guard size > capacity else {
                throw CGImagePNGError(kind: .encodingFailed, message: CGImage.libpngMessage(image))
            }
            capacity = size
        }
        throw CGImagePNGError(kind: .encodingFailed, message: "PNG output buffer still too small")
    }

    /// `png_image.message`: a NUL-terminated `char[64]`, imported as a tuple.
    private static func libpngMessage(_ image: png_image) -> String {
        var message = image.message
        let bytes = withUnsafeBytes(of: &message) { Array($0.prefix(while: { $0 != 0 })) }
        return bytes.isEmpty ? "libpng reported no message" : String(decoding: bytes, as: UTF8.self)
    }
}

/// c · 255 / a, rounded to nearest and clamped to 255 (a stored colour above its alpha is
/// not valid premultiplied data, but is tolerated). `a` must be non-zero.
@inline(__always) private func unpremultiply(_ c: UInt8, _ a: UInt8) -> UInt8 {
    let v = (UInt32(c) * 255 + UInt32(a) / 2) / UInt32(a)
    return UInt8(min(v, 255))
}
