import Foundation
import Testing

/// CAExport's PNG writer (issue 5, export throughput): every PNG it writes must be valid (strict
/// inflate, CRCs, Adler-32), decode through libpng to the same pixels as libpng's own writer,
/// and be the same bytes for the same pixels.
@Suite struct PNGFrameEncoderTests {
    /// Premultiplied RGBA8 from a function of (x, y) giving straight colour and alpha.
    static func image(_ width: Int, _ height: Int, _ pixel: (Int, Int) -> (UInt8, UInt8, UInt8, UInt8)) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let (r, g, b, a) = pixel(x, y)
                let i = (y * width + x) * 4
                for (k, c) in [r, g, b].enumerated() { bytes[i + k] = UInt8((Int(c) * Int(a) + 127) / 255) }
                bytes[i + 3] = a
            }
        }
        return bytes
    }

    /// Encodes, checks the file strictly and against libpng, and returns it.
    @discardableResult
    static func roundTrip(_ pixels: [UInt8], _ width: Int, _ height: Int,
                          sourceLocation: SourceLocation = #_sourceLocation) throws -> (png: Data, inspected: InspectedPNG) {
        let png = try PNGFrameEncoder.encode(premultipliedRGBA: pixels, width: width, height: height)
        let inspected = try InspectedPNG(png)
        #expect(inspected.width == width && inspected.height == height, sourceLocation: sourceLocation)
        #expect(inspected.chunkTypes == ["IHDR", "sRGB", "IDAT", "IEND"], sourceLocation: sourceLocation)
        let opaque = stride(from: 3, to: pixels.count, by: 4).allSatisfy { pixels[$0] == 255 }
        #expect(inspected.colorType == (opaque ? 2 : 6), "RGB exactly when every pixel is opaque", sourceLocation: sourceLocation)
        #expect(stride(from: 0, to: inspected.scanlines.count, by: width * (opaque ? 3 : 4) + 1).allSatisfy { inspected.scanlines[$0] == 1 },
                "every row uses the Sub filter", sourceLocation: sourceLocation)
        #expect(inspected.straightRGBA == InspectedPNG.straight(fromPremultiplied: pixels), "stored straight colour", sourceLocation: sourceLocation)
        // libpng reads it back as the same image as libpng's own writer produces.
        let decoded = try #require(CGImage(pngData: png), sourceLocation: sourceLocation)
        let reference = try #require(CGImage(width: width, height: height, rgba8Bytes: pixels, premultiplied: true)?.pngData())
        let referenceDecoded = try #require(CGImage(pngData: reference))
        #expect(decoded.rgba8Bytes == referenceDecoded.rgba8Bytes, "libpng decodes the same pixels", sourceLocation: sourceLocation)
        if opaque { #expect(decoded.rgba8Bytes == pixels, "opaque pixels come back exactly", sourceLocation: sourceLocation) }
        return (png, inspected)
    }

    @Test func flatColourCompressesToRunsAndRoundTrips() throws {
        let (w, h) = (640, 360)
        let (png, inspected) = try Self.roundTrip(Self.image(w, h) { _, _ in (200, 30, 90, 255) }, w, h)
        #expect(inspected.firstBlockType == 2, "a dynamic Huffman block")
        // Each row is its first pixel and zeros, all runs: under 0.5 % of the 691,560 raw bytes.
        #expect(png.count < (w * 3 + 1) * h / 200, "\(png.count) bytes")
    }

    @Test func repeatedRowsMatchOneRowBack() throws {
        // A horizontal gradient (every row the same): after Sub each row is irregular but equal
        // to the one above, which only the one-row distance finds.
        let (w, h) = (600, 300)
        let (png, _) = try Self.roundTrip(Self.image(w, h) { x, _ in (UInt8(x * 255 / 599), 80, UInt8(255 - x * 255 / 599), 255) }, w, h)
        #expect(png.count < (w * 3 + 1) * h / 50, "\(png.count) bytes")
    }

    @Test func gradientWithNoiseSpansSeveralBlocks() throws {
        // A dithered diagonal gradient like the demo's background: mostly literals, several
        // deflate blocks (each holds ~256 KiB of scanlines), flat cards in between.
        var rng = SplitMix64(state: 7)
        let (w, h) = (800, 400)
        let pixels = Self.image(w, h) { x, y in
            if (100..<300).contains(x), (50..<150).contains(y) { return (240, 200, 60, 255) }
            let base = (x + y) / 10, n = UInt8(rng.int(2))
            return (UInt8(30 + base % 40) &+ n, UInt8(20 + base % 30) &+ n, 60 &+ n, 255)
        }
        let (png, _) = try Self.roundTrip(pixels, w, h)
        #expect(png.count < pixels.count / 3, "\(png.count) bytes")
    }

    @Test func incompressibleBytesFallBackToStoredBlocks() throws {
        var rng = SplitMix64(state: 42)
        let (w, h) = (300, 200)
        let pixels = Self.image(w, h) { _, _ in (UInt8(rng.int(256)), UInt8(rng.int(256)), UInt8(rng.int(256)), 255) }
        let (png, inspected) = try Self.roundTrip(pixels, w, h)
        #expect(inspected.firstBlockType == 0, "stored: a Huffman code would only add bits")
        // Raw scanlines plus 5 bytes per 64 KiB stored block, the zlib frame and the chunks.
        let raw = (w * 3 + 1) * h
        #expect(png.count <= raw + 5 * (raw / 65535 + 2) + 6 + 8 + 25 + 13 + 12 + 12, "\(png.count) bytes for \(raw) raw")
    }

    @Test func onePixelOpaqueAndTranslucent() throws {
        try Self.roundTrip([10, 20, 30, 255], 1, 1)
        try Self.roundTrip([10, 20, 30, 128], 1, 1)
        try Self.roundTrip([0, 0, 0, 0], 1, 1)
    }

    @Test func veryWideAndVeryTall() throws {
        var rng = SplitMix64(state: 3)
        // One row 20,000 pixels wide, and 3 rows 12,000 wide with transparency: a row is then
        // 48,001 bytes, beyond deflate's 32 KiB window, so only runs may be matched.
        try Self.roundTrip(Self.image(20000, 1) { x, _ in (UInt8(x / 100 % 256), 9, UInt8(rng.int(2)), 255) }, 20000, 1)
        try Self.roundTrip(Self.image(12000, 3) { x, _ in (UInt8(x % 256), UInt8(x / 7 % 256), 3, x % 5 == 0 ? 128 : 255) }, 12000, 3)
        // One pixel wide, 5,000 tall: rows of 4 bytes, many rows per block.
        try Self.roundTrip(Self.image(1, 5000) { _, y in (UInt8(y / 40 % 256), UInt8(rng.int(3)), 7, 255) }, 1, 5000)
    }

    @Test func translucentPixelsStoreStraightAlpha() throws {
        var rng = SplitMix64(state: 11)
        let (w, h) = (97, 61)   // odd width: the filter's two-pixel words end with a single pixel
        let pixels = Self.image(w, h) { x, y in
            let a: UInt8 = x < 10 ? 0 : y < 10 ? 255 : UInt8(rng.int(256))
            return (UInt8(rng.int(256)), UInt8(x * 2), UInt8(y * 4), a)
        }
        let (_, inspected) = try Self.roundTrip(pixels, w, h)
        #expect(inspected.colorType == 6)
        // Fully transparent pixels store zero colour.
        #expect(inspected.straightRGBA[0..<4] == [0, 0, 0, 0])
    }

    @Test func opaqueTopThenTranslucentRowIsRGBA() throws {
        // The writer starts as RGB and starts again as RGBA at the first translucent pixel.
        let (w, h) = (200, 900)
        let pixels = Self.image(w, h) { x, y in y == 850 && x == 199 ? (1, 2, 3, 4) : (50, 60, UInt8(y % 256), 255) }
        let (_, inspected) = try Self.roundTrip(pixels, w, h)
        #expect(inspected.colorType == 6)
    }

    @Test func samePixelsGiveSameBytes() throws {
        var rng = SplitMix64(state: 5)
        let (w, h) = (500, 300)
        let pixels = Self.image(w, h) { x, y in (UInt8((x + y) / 4 % 256) &+ UInt8(rng.int(2)), 90, UInt8(y % 256), x > 400 ? 200 : 255) }
        let a = try PNGFrameEncoder.encode(premultipliedRGBA: pixels, width: w, height: h)
        let b = try PNGFrameEncoder.encode(premultipliedRGBA: pixels, width: w, height: h)
        #expect(a == b)
    }

    @Test func wrongBufferSizesAndDimensionsThrow() {
        let tooShort = #expect(throws: PNGEncodingError.self) {
            try PNGFrameEncoder.encode(premultipliedRGBA: [UInt8](repeating: 0, count: 15), width: 2, height: 2)
        }
        #expect(tooShort?.message == "PNG encoding: 15 bytes for 2×2 pixels (RGBA8 needs 16)")
        #expect(throws: PNGEncodingError.self) {
            try PNGFrameEncoder.encode(premultipliedRGBA: [UInt8](repeating: 0, count: 20), width: 2, height: 2)
        }
        let zero = #expect(throws: PNGEncodingError.self) { try PNGFrameEncoder.encode(premultipliedRGBA: [], width: 0, height: 0) }
        #expect(zero?.message.contains("0×0") == true)
        #expect(throws: PNGEncodingError.self) { try PNGFrameEncoder.encode(premultipliedRGBA: [], width: -3, height: 2) }
        // A size whose byte count overflows Int is refused before any arithmetic traps.
        let huge = #expect(throws: PNGEncodingError.self) {
            try PNGFrameEncoder.encode(premultipliedRGBA: [1, 2, 3, 4], width: Int(Int32.max), height: Int(Int32.max))
        }
        #expect(huge?.message.contains("more than Int.max") == true)
    }
}
