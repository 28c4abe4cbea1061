import Testing

// CoreGraphics comes from Imports.swift (see there why it is not imported here).

/// Builds PNG files by hand: signature, chunks with their CRC-32, and a zlib stream made of
/// *stored* (uncompressed) deflate blocks with its Adler-32, so the tests need no zlib.
enum PNGBuilder {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    static func adler32(_ bytes: [UInt8]) -> UInt32 {
        var a: UInt32 = 1, b: UInt32 = 0
        for x in bytes { a = (a + UInt32(x)) % 65521; b = (b + a) % 65521 }
        return b << 16 | a
    }

    static func be32(_ v: UInt32) -> [UInt8] {
        [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)]
    }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typeAndData = Array(type.utf8) + data
        return be32(UInt32(data.count)) + typeAndData + be32(referenceCRC32(typeAndData))
    }

    static func ihdr(width: UInt32, height: UInt32, bitDepth: UInt8, colorType: UInt8,
                     interlace: UInt8 = 0) -> [UInt8] {
        chunk("IHDR", be32(width) + be32(height) + [bitDepth, colorType, 0, 0, interlace])
    }

    /// A zlib stream holding `raw` in stored blocks (at most 65535 bytes each).
    static func zlibStored(_ raw: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var start = 0
        repeat {
            let n = min(65535, raw.count - start)
            let final: UInt8 = start + n == raw.count ? 1 : 0
            out += [final, UInt8(n & 0xFF), UInt8(n >> 8), UInt8(~n & 0xFF), UInt8((~n >> 8) & 0xFF)]
            out += raw[start..<(start + n)]
            start += n
        } while start < raw.count
        return out + be32(adler32(raw))
    }

    /// A whole PNG: IHDR, `extra` chunks (PLTE, tRNS, ...), one IDAT over `rows` (each row
    /// already starting with its filter byte), IEND.
    static func png(width: UInt32, height: UInt32, bitDepth: UInt8, colorType: UInt8,
                    interlace: UInt8 = 0, extra: [[UInt8]] = [], rows: [UInt8]) -> Data {
        var bytes = signature + ihdr(width: width, height: height, bitDepth: bitDepth,
                                     colorType: colorType, interlace: interlace)
        for c in extra { bytes += c }
        bytes += chunk("IDAT", zlibStored(rows))
        bytes += chunk("IEND", [])
        return Data(bytes)
    }
}

struct CGImagePNGTests {
    /// The error `decodePNG` throws for `data`, or nil (recorded as an issue) if it decodes.
    func decodeError(_ data: Data, sourceLocation: SourceLocation = #_sourceLocation) -> CGImagePNGError? {
        #expect(throws: CGImagePNGError.self, sourceLocation: sourceLocation) { try CGImage.decodePNG(data) }
    }

    @Test("round trip of a small translucent image keeps the premultiplied bytes")
    func roundTripSmall() throws {
        // Premultiplied RGBA: opaque, half, nearly transparent, fully transparent, odd values.
        let bytes: [UInt8] = [255, 0, 0, 255, 0, 64, 128, 128, 3, 2, 1, 5,
                              0, 0, 0, 0, 100, 50, 25, 200, 7, 7, 7, 7]
        let img = try #require(CGImage(width: 3, height: 2, rgba8Bytes: bytes, premultiplied: true))
        let png = try #require(img.pngData())
        #expect(png.prefix(8) == Data(PNGBuilder.signature))
        // IHDR: 3×2, 8 bits, colour type 6 (RGBA), not interlaced.
        #expect(Array(png[16..<29]) == [0, 0, 0, 3, 0, 0, 0, 2, 8, 6, 0, 0, 0])
        // An sRGB chunk is written.
        #expect(png.range(of: Data("sRGB".utf8)) != nil)
        let back = try #require(CGImage(pngData: png))
        #expect(back.width == 3 && back.height == 2)
        #expect(back.alphaInfo == .premultipliedLast)
        #expect(!back.isOpaque)
        for (a, b) in zip(back.rgba8Bytes, bytes) { #expect(abs(Int(a) - Int(b)) <= 1) }
        // In fact exact: un-premultiplying with rounding and premultiplying again is lossless
        // for valid premultiplied data.
        #expect(back.rgba8Bytes == bytes)
    }

    @Test("every valid premultiplied (colour, alpha) pair survives a round trip exactly")
    func roundTripExhaustive() throws {
        var bytes = [UInt8]()
        for a in 0...255 {
            for c in 0...a {
                bytes += [UInt8(c), UInt8(a - c), UInt8(c / 2), UInt8(a)]
            }
        }
        let pixels = bytes.count / 4                  // 32896 = 256 · 128.5
        bytes += [UInt8](repeating: 0, count: (256 * 129 - pixels) * 4)
        let img = try #require(CGImage(width: 256, height: 129, rgba8Bytes: bytes, premultiplied: true))
        let back = try CGImage.decodePNG(try img.encodePNG())
        #expect(back.rgba8Bytes == bytes)
    }

    @Test("opaque images are written as RGB and read back as noneSkipLast")
    func opaqueAsRGB() throws {
        var rng = SplitMix64(state: 7)
        var bytes = [UInt8]()
        for _ in 0..<(17 * 5) { bytes += [UInt8.random(in: 0...255, using: &rng), UInt8.random(in: 0...255, using: &rng),
                                          UInt8.random(in: 0...255, using: &rng), 255] }
        let img = try #require(CGImage(width: 17, height: 5, rgba8Bytes: bytes, premultiplied: true))
        let png = try #require(img.pngData())
        #expect(png[25] == 2)                         // colour type 2: RGB, no alpha channel
        let back = try #require(CGImage(pngData: png))
        #expect(back.alphaInfo == .noneSkipLast)
        #expect(back.isOpaque)
        #expect(back.rgba8Bytes == bytes)
    }

    @Test("a hand-built 8-bit RGBA PNG decodes and is premultiplied")
    func handBuiltRGBA() throws {
        // Straight alpha in the file; filter type 0 (None) on both rows.
        let rows: [UInt8] = [0, 255, 0, 0, 255, 0, 255, 0, 128,
                             0, 0, 0, 255, 0, 10, 20, 30, 51]
        let png = PNGBuilder.png(width: 2, height: 2, bitDepth: 8, colorType: 6, rows: rows)
        let img = try CGImage.decodePNG(png)
        #expect(img.width == 2 && img.height == 2)
        #expect(img.alphaInfo == .premultipliedLast)
        #expect(img.pixel(x: 0, y: 0) == (255, 0, 0, 255))
        #expect(img.pixel(x: 1, y: 0) == (0, 128, 0, 128))      // 255·128/255
        #expect(img.pixel(x: 0, y: 1) == (0, 0, 0, 0))          // colour under alpha 0 dropped
        #expect(img.pixel(x: 1, y: 1) == (2, 4, 6, 51))         // 10·0.2, 20·0.2, 30·0.2
    }

    @Test("grey, palette with tRNS, 16-bit and interlaced PNGs convert to RGBA8")
    func otherFormats() throws {
        // 8-bit grey, no alpha: grey replicated, opaque.
        let grey = try CGImage.decodePNG(
            PNGBuilder.png(width: 3, height: 1, bitDepth: 8, colorType: 0, rows: [0, 0, 128, 255]))
        #expect(grey.rgba8Bytes == [0, 0, 0, 255, 128, 128, 128, 255, 255, 255, 255, 255])
        #expect(grey.alphaInfo == .noneSkipLast)

        // 1-bit palette: entry 0 opaque red, entry 1 green at alpha 128 (tRNS); pixels 0, 1, 1.
        let palette = try CGImage.decodePNG(PNGBuilder.png(
            width: 3, height: 1, bitDepth: 1, colorType: 3,
            extra: [PNGBuilder.chunk("PLTE", [255, 0, 0, 0, 255, 0]), PNGBuilder.chunk("tRNS", [255, 128])],
            rows: [0, 0b0110_0000]))
        #expect(palette.rgba8Bytes == [255, 0, 0, 255, 0, 128, 0, 128, 0, 128, 0, 128])
        #expect(palette.alphaInfo == .premultipliedLast)

        // 16-bit grey without gAMA/sRGB: taken as sRGB-encoded, so 0x8080 → 128 (not brightened
        // as it would be if read as linear light).
        let grey16 = try CGImage.decodePNG(PNGBuilder.png(
            width: 3, height: 1, bitDepth: 16, colorType: 0, rows: [0, 0x00, 0x00, 0x80, 0x80, 0xFF, 0xFF]))
        #expect(grey16.rgba8Bytes == [0, 0, 0, 255, 128, 128, 128, 255, 255, 255, 255, 255])

        // 16-bit RGBA, one pixel: (0xFFFF, 0x8080, 0, alpha 0x8080) → about (128, 64, 0, 128).
        let rgba16 = try CGImage.decodePNG(PNGBuilder.png(
            width: 1, height: 1, bitDepth: 16, colorType: 6,
            rows: [0, 0xFF, 0xFF, 0x80, 0x80, 0x00, 0x00, 0x80, 0x80]))
        let p = rgba16.pixel(x: 0, y: 0)
        #expect(p.a == 128 && p.b == 0)
        #expect(abs(Int(p.r) - 128) <= 1 && abs(Int(p.g) - 64) <= 1)

        // Adam7-interlaced 1×1: only pass 1 holds data.
        let interlaced = try CGImage.decodePNG(PNGBuilder.png(
            width: 1, height: 1, bitDepth: 8, colorType: 2, interlace: 1, rows: [0, 9, 99, 199]))
        #expect(interlaced.rgba8Bytes == [9, 99, 199, 255])
    }

    @Test("empty data gives nil, and decodePNG throws emptyData")
    func emptyData() throws {
        #expect(CGImage(pngData: Data()) == nil)
        let error = try #require(decodeError(Data()))
        #expect(error.kind == .emptyData)
        #expect(!error.message.isEmpty)
    }

    @Test("random bytes, with or without a PNG signature, give nil and libpng's message")
    func randomBytes() throws {
        var rng = SplitMix64(state: 42)
        for length in [1, 7, 8, 9, 33, 100, 1000, 4096] {
            let noise = (0..<length).map { _ in UInt8.random(in: 0...255, using: &rng) }
            for bytes in [noise, PNGBuilder.signature + noise] {
                #expect(CGImage(pngData: Data(bytes)) == nil)
                let error = try #require(decodeError(Data(bytes)))
                #expect(error.kind == .invalidData)
                #expect(!error.message.isEmpty)
            }
        }
        let notPNG = try #require(decodeError(Data("GIF89a, certainly not a PNG".utf8)))
        #expect(notPNG.message.localizedCaseInsensitiveContains("png"))
    }

    @Test("every truncation of a valid PNG before its IEND chunk is rejected")
    func truncated() throws {
        var rng = SplitMix64(state: 3)
        let bytes = (0..<(16 * 16 * 4)).map { _ in UInt8.random(in: 0...255, using: &rng) }
        let img = try #require(CGImage(width: 16, height: 16, rgba8Bytes: bytes, premultiplied: false))
        let png = try img.encodePNG()
        #expect(CGImage(pngData: png) != nil)
        // Prefixes that end after the image data (only IEND missing) do decode: libpng's
        // simplified reader stops once it has every row.
        let iend = try #require(png.range(of: Data("IEND".utf8))).lowerBound - 4   // length field
        for length in 0..<iend {
            let cut = png.prefix(length)
            #expect(CGImage(pngData: cut) == nil, "prefix of \(length) bytes decoded")
        }
        let error = try #require(decodeError(png.prefix(iend - 20)))
        #expect(error.kind == .invalidData)
        #expect(!error.message.isEmpty)
    }

    @Test("a flipped bit in the image data or header is caught (CRC)")
    func corruptedChunks() throws {
        let png = PNGBuilder.png(width: 2, height: 1, bitDepth: 8, colorType: 2, rows: [0, 1, 2, 3, 4, 5, 6])
        #expect(CGImage(pngData: png) != nil)
        var header = png
        header[18] ^= 0x01                            // inside IHDR's width
        #expect(CGImage(pngData: header) == nil)
        var body = png
        body[body.count - 20] ^= 0x10                 // inside IDAT
        #expect(CGImage(pngData: body) == nil)
    }

    @Test("a header declaring 100000×100000 pixels is rejected before pixel memory is allocated")
    func oversizedHeader() throws {
        // A well-formed file (correct CRCs, tiny IDAT) whose IHDR asks for 40 GB of RGBA.
        let huge = PNGBuilder.png(width: 100_000, height: 100_000, bitDepth: 8, colorType: 6, rows: [0, 0, 0, 0, 0])
        #expect(CGImage(pngData: huge) == nil)
        let error = try #require(decodeError(huge))
        #expect(error.kind == .imageTooLarge)
        #expect(error.message.contains("100000×100000"))

        // Just over the cap (16385 × 16384) is rejected the same way; libpng's own limits
        // (over 1,000,000 per side, zero) report through libpng's message.
        let over = PNGBuilder.png(width: 16385, height: 16384, bitDepth: 8, colorType: 0, rows: [0, 0])
        #expect(decodeError(over)?.kind == .imageTooLarge)
        for (w, h) in [(2_000_000, 1), (0, 1), (UInt32(1) << 31, 1)] as [(UInt32, UInt32)] {
            let bad = PNGBuilder.png(width: w, height: h, bitDepth: 8, colorType: 0, rows: [0, 0])
            let e = try #require(decodeError(bad))
            #expect(e.kind == .invalidData)
            #expect(!e.message.isEmpty)
        }
    }

    @Test("encoding an image wider than libpng accepts fails with libpng's message, not a trap")
    func encodeFailure() throws {
        let img = try #require(CGImage(width: 1_000_001, height: 1,
                                       rgba8Bytes: [UInt8](repeating: 255, count: 4_000_004), premultiplied: true))
        #expect(img.pngData() == nil)
        let error = try #require(#expect(throws: CGImagePNGError.self) { try img.encodePNG() })
        #expect(error.kind == .encodingFailed)
        #expect(!error.message.isEmpty)
    }

    @Test("contentsOfPNGFile reads a file; missing and corrupt files throw")
    func file() throws {
        let dir = FileManager.default.temporaryDirectory
            .appendingPathComponent("CGImagePNGTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }

        let img = try #require(CGImage(width: 2, height: 1, rgba8Bytes: [1, 2, 3, 4, 50, 60, 70, 80],
                                       premultiplied: true))
        let good = dir.appendingPathComponent("good.png")
        try #require(img.pngData()).write(to: good)
        let back = try CGImage(contentsOfPNGFile: good.path)
        #expect(back.rgba8Bytes == img.rgba8Bytes)

        #expect(throws: (any Error).self) { try CGImage(contentsOfPNGFile: dir.appendingPathComponent("none.png").path) }

        let bad = dir.appendingPathComponent("bad.png")
        try Data("not a png".utf8).write(to: bad)
        #expect(throws: CGImagePNGError.self) { try CGImage(contentsOfPNGFile: bad.path) }
    }
}
