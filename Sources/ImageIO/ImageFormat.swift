import CoreGraphics

/// The formats ImageIO reads here, recognised from their leading bytes (each format's
/// signature: PNG spec §5.2, JPEG's SOI marker + a marker, GIF89a's header, RIFF/WEBP).
enum ImageFormat: Sendable {
    case png, jpeg, gif, webP

    var typeIdentifier: CFString {
        switch self {
        case .png: ImageIOTypeIdentifier.png
        case .jpeg: ImageIOTypeIdentifier.jpeg
        case .gif: ImageIOTypeIdentifier.gif
        case .webP: ImageIOTypeIdentifier.webP
        }
    }

    var name: String {
        switch self {
        case .png: "PNG"
        case .jpeg: "JPEG"
        case .gif: "GIF"
        case .webP: "WebP"
        }
    }

    static func sniff(_ b: UnsafeRawBufferPointer) -> ImageFormat? {
        func starts(_ s: [UInt8], at o: Int = 0) -> Bool {
            b.count >= o + s.count && s.indices.allSatisfy { b[o + $0] == s[$0] }
        }
        if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if starts([0xFF, 0xD8, 0xFF]) { return .jpeg }
        if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) { return .gif }
        if starts(Array("RIFF".utf8)), starts(Array("WEBP".utf8), at: 8) { return .webP }
        return nil
    }
}

/// What a source knows from its headers, without decoding pixels: one entry per image.
struct FrameInfo: Sendable {
    var width: Int
    var height: Int
    var hasAlpha: Bool
    var isGray = false
    /// EXIF orientation 1…8 (JPEG), when the file has one.
    var orientation: Int?
    /// GIF / animated WebP: the frame's delay in seconds, as the file gives it.
    var delay: Double?
}

/// The parsed container: format, images and container-level facts, or why the header failed.
struct ImageContainer: Sendable {
    var format: ImageFormat?
    var frames: [FrameInfo] = []
    /// GIF / animated WebP loop count (0 = forever), when the file gives one.
    var loopCount: Int?
    /// The GIF structure (frame records), for the GIF decoder.
    var gif: GIFStructure?
    /// Why the header could not be read (the source then has no images).
    var headerError: DecodeFailure?

    static func parse(_ data: Data) -> ImageContainer {
        data.withUnsafeBytes { raw -> ImageContainer in
            guard let format = ImageFormat.sniff(raw) else {
                return ImageContainer(format: nil, headerError: DecodeFailure(
                    kind: .unknownType,
                    message: raw.isEmpty ? "empty data" : "not a PNG, JPEG, GIF or WebP file"))
            }
            var c = ImageContainer(format: format)
            let result: Result<[FrameInfo], DecodeFailure>
            switch format {
            case .png: result = PNGHeader.frames(raw)
            case .jpeg: result = JPEGCodec.frames(raw)
            case .webP:
                switch WebPCodec.container(raw) {
                case .success(let (frames, loops)): c.loopCount = loops; result = .success(frames)
                case .failure(let e): result = .failure(e)
                }
            case .gif:
                switch GIFStructure.scan(raw) {
                case .success(let g):
                    c.gif = g
                    c.loopCount = g.loopCount
                    result = .success(g.frames.map {
                        FrameInfo(width: g.width, height: g.height, hasAlpha: true, delay: Double($0.delayHundredths) / 100)
                    })
                case .failure(let e): result = .failure(e)
                }
            }
            switch result {
            case .success(let f): c.frames = f
            case .failure(let e): c.headerError = e
            }
            return c
        }
    }
}

/// PNG's IHDR (PNG spec §11.2.2): width and height at bytes 16…23, colour type at 25.
enum PNGHeader {
    static func frames(_ b: UnsafeRawBufferPointer) -> Result<[FrameInfo], DecodeFailure> {
        guard b.count >= 33, Array(b[12..<16]) == Array("IHDR".utf8) else {
            return .failure(.invalid("PNG has no IHDR chunk (file cut off or corrupt)"))
        }
        func be32(_ i: Int) -> Int { Int(b[i]) << 24 | Int(b[i + 1]) << 16 | Int(b[i + 2]) << 8 | Int(b[i + 3]) }
        let colorType = b[25]
        return .success([FrameInfo(width: be32(16), height: be32(20), hasAlpha: colorType == 4 || colorType == 6,
                                   isGray: colorType == 0 || colorType == 4)])
    }
}
