import Foundation
import Testing

/// WebP through CGImageDestination (an extension beyond Apple's API: Apple's ImageIO reads
/// WebP but does not write it) and back through CGImageSource.
@Suite struct WebPEncoderTests {
    func encode(_ image: CGImage, quality: Double) throws -> Data {
        let data = NSMutableData()
        let dst = try #require(CGImageDestinationCreateWithData(data, "org.webmproject.webp", 1, nil))
        CGImageDestinationAddImage(dst, image, [kCGImageDestinationLossyCompressionQuality: quality] as CFDictionary)
        #expect(CGImageDestinationFinalize(dst))
        return data as Data
    }

    /// Quality 1.0 is lossless (WebPEncodeLosslessRGBA): the same premultiplied pixels come back,
    /// transparency included (half-transparent red stores straight 255,0,0 at alpha 128, which
    /// premultiplies back to 128,0,0,128).
    @Test func losslessRoundTripIsExactWithAlpha() throws {
        let image = try #require(CGImage(width: 3, height: 2, rgba8Bytes: [
            255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255,
            255, 255, 255, 255, 128, 0, 0, 128, 0, 0, 0, 0,
        ], premultiplied: true))
        let data = try encode(image, quality: 1.0)
        #expect(data.starts(with: Array("RIFF".utf8)))
        let src = try #require(CGImageSourceCreateWithData(data as CFData, nil))
        #expect(CGImageSourceGetType(src) == "org.webmproject.webp")
        let back = try #require(CGImageSourceCreateImageAtIndex(src, 0, nil))
        #expect(back.width == 3 && back.height == 2)
        #expect(back.rgba8Bytes == image.rgba8Bytes)
    }

    /// Lossy at quality 0.9: a flat 32×32 colour comes back within a few levels, and a lower
    /// quality gives a file no larger.
    @Test func lossyQualityIsApplied() throws {
        var noisy: [UInt8] = []
        for i in 0..<(64 * 64) { noisy += [UInt8((i * 37) & 255), UInt8((i * 91) & 255), UInt8((i * 13) & 255), 255] }
        let image = try #require(CGImage(width: 64, height: 64, rgba8Bytes: noisy, premultiplied: true))
        let high = try encode(image, quality: 0.95), low = try encode(image, quality: 0.1)
        #expect(low.count < high.count)
        let flat = try #require(CGImage(width: 32, height: 32, rgba8Bytes: Array([UInt8]([242, 107, 82, 255]).repeated(1024)), premultiplied: true))
        let src = try #require(CGImageSourceCreateWithData(try encode(flat, quality: 0.9) as CFData, nil))
        let back = try #require(CGImageSourceCreateImageAtIndex(src, 0, nil))
        let p = Array(back.rgba8Bytes[(16 * 32 + 16) * 4..<(16 * 32 + 16) * 4 + 4])
        for (c, want) in zip(p, [242, 107, 82, 255] as [Int]) { #expect(abs(Int(c) - want) <= 4, "\(p)") }
    }
}

private extension Array {
    func repeated(_ n: Int) -> [Element] { (0..<n).flatMap { _ in self } }
}
