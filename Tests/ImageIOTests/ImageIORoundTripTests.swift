import Foundation
import Testing

/// PNG and JPEG through CGImageDestination and back through CGImageSource (Apple: "Image I/O
/// Programming Guide", Creating and Using Image Sources / Working with Image Destinations).
@Suite struct ImageIORoundTripTests {
    /// 3×2: red, green, blue / white, half-transparent red (premultiplied 128,0,0,128), clear.
    static let small = CGImage(width: 3, height: 2, rgba8Bytes: [
        255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255,
        255, 255, 255, 255, 128, 0, 0, 128, 0, 0, 0, 0,
    ], premultiplied: true)!

    @Test func pngRoundTripIsExact() throws {
        let data = try #require(encode(Self.small, "public.png"))
        let src = try #require(CGImageSourceCreateWithData(data as CFData, nil))
        #expect(CGImageSourceGetType(src) == "public.png")
        #expect(CGImageSourceGetCount(src) == 1)
        #expect(CGImageSourceGetStatus(src) == .statusComplete)
        let props = try #require(CGImageSourceCopyPropertiesAtIndex(src, 0, nil) as? [String: Any])
        #expect(props[kCGImagePropertyPixelWidth] as? Int == 3)
        #expect(props[kCGImagePropertyPixelHeight] as? Int == 2)
        #expect(props[kCGImagePropertyHasAlpha] as? Bool == true)
        let img = try #require(CGImageSourceCreateImageAtIndex(src, 0, nil))
        #expect(img.rgba8Bytes == Self.small.rgba8Bytes)
    }

    /// Flat 8×8-aligned quadrants make every JPEG block constant: only the DC coefficient is
    /// non-zero and at quality 1.0 (libjpeg quality 100) its quantiser step is 1, and 4:4:4 keeps
    /// full chroma. What is left is rounding Y, Cb, Cr to integers (≤ 0.5 each) and back: the
    /// inverse transform's coefficients add up to at most 1 + 1.772 ≈ 2.8 per channel, so each
    /// channel is within 2 (rounded), and 3 is allowed for the final rounding to 8 bits.
    @Test func jpegRoundTripWithinConversionRounding() throws {
        let colors: [[UInt8]] = [[200, 30, 40], [20, 180, 60], [40, 60, 220], [128, 128, 128]]
        var bytes: [UInt8] = []
        for y in 0..<16 { for x in 0..<16 { bytes += colors[(y / 8) * 2 + x / 8] + [255] } }
        let image = try #require(CGImage(width: 16, height: 16, rgba8Bytes: bytes, premultiplied: true))
        let data = try #require(encode(image, "public.jpeg", [kCGImageDestinationLossyCompressionQuality: 1.0] as CFDictionary))
        #expect(data.starts(with: [0xFF, 0xD8, 0xFF]))
        let src = try #require(CGImageSourceCreateWithData(data as CFData, nil))
        #expect(CGImageSourceGetType(src) == "public.jpeg")
        let props = try #require(CGImageSourceCopyPropertiesAtIndex(src, 0, nil) as? [String: Any])
        #expect(props[kCGImagePropertyPixelWidth] as? Int == 16)
        #expect(props[kCGImagePropertyHasAlpha] as? Bool == false)
        let img = try #require(CGImageSourceCreateImageAtIndex(src, 0, nil))
        #expect(img.alphaInfo == .noneSkipLast)
        for (x, y) in [(0, 0), (7, 7), (12, 3), (3, 12), (15, 15)] {
            let expected = colors[(y / 8) * 2 + x / 8]
            let got = rgba(img, x, y)
            for c in 0..<3 { #expect(abs(Int(got[c]) - Int(expected[c])) <= 3, "pixel (\(x), \(y)) channel \(c): \(got) vs \(expected)") }
            #expect(got[3] == 255)
        }
    }

    /// kCGImageDestinationLossyCompressionQuality reaches the encoder: a noisy image at 0.1 is
    /// smaller than at 1.0.
    @Test func jpegQualityOptionChangesTheOutput() throws {
        var bytes: [UInt8] = []
        var s: UInt32 = 12345
        for _ in 0..<(32 * 32) {
            s = s &* 1_103_515_245 &+ 12345
            bytes += [UInt8(s >> 24), UInt8(s >> 16 & 0xFF), UInt8(s >> 8 & 0xFF), 255]
        }
        let image = try #require(CGImage(width: 32, height: 32, rgba8Bytes: bytes, premultiplied: true))
        let low = try #require(encode(image, "public.jpeg", [kCGImageDestinationLossyCompressionQuality: 0.1] as CFDictionary))
        let high = try #require(encode(image, "public.jpeg", [kCGImageDestinationLossyCompressionQuality: 1.0] as CFDictionary))
        #expect(low.count < high.count / 2)
    }

    @Test func urlDestinationAndSourceRoundTrip() throws {
        let url = try temporaryFile("placeholder", Data()).deletingLastPathComponent().appendingPathComponent("out.png")
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let dst = try #require(CGImageDestinationCreateWithURL(url as CFURL, "public.png" as CFString, 1, nil))
        CGImageDestinationAddImage(dst, Self.small, nil)
        #expect(CGImageDestinationFinalize(dst))
        let src = try #require(CGImageSourceCreateWithURL(url as CFURL, nil))
        let img = try #require(CGImageSourceCreateImageAtIndex(src, 0, nil))
        #expect(img.rgba8Bytes == Self.small.rgba8Bytes)
    }

    /// Apple writes PNG and JPEG among others; GIF and WebP writing is not provided here: nil.
    @Test func destinationRefusesUnsupportedTypesAndEmptyFinalize() throws {
        let (gif, warnings) = CGDiagnostics.capture { CGImageDestinationCreateWithData(NSMutableData(), "com.compuserve.gif", 1, nil) }
        #expect(gif == nil)
        #expect(warnings.contains { $0.contains("com.compuserve.gif") })
        #expect(CGImageDestinationCreateWithData(NSMutableData(), "public.png", 0, nil) == nil)
        let dst = try #require(CGImageDestinationCreateWithData(NSMutableData(), "public.png", 1, nil))
        #expect(CGImageDestinationFinalize(dst) == false)
        #expect(CGImageDestinationCopyTypeIdentifiers() as? [String] == ["public.png", "public.jpeg", "org.webmproject.webp"])
    }

    /// Options this implementation does not reproduce warn, naming the key.
    @Test func unsupportedOptionsWarnByName() throws {
        let data = try #require(encode(Self.small, "public.png"))
        let (img, warnings) = CGDiagnostics.capture {
            let src = CGImageSourceCreateWithData(data as CFData, [kCGImageSourceShouldCache: true] as CFDictionary)!
            return CGImageSourceCreateImageAtIndex(src, 0, [kCGImageSourceThumbnailMaxPixelSize: 10] as CFDictionary)
        }
        #expect(img != nil)
        #expect(warnings.count == 1)
        #expect(warnings.first?.contains("kCGImageSourceThumbnailMaxPixelSize") == true)
    }

    /// The EXIF orientation tag of a JPEG's APP1 segment becomes kCGImagePropertyOrientation
    /// (the pixels are not rotated, as on Apple).
    @Test func jpegExifOrientationIsReported() throws {
        let image = try #require(CGImage(width: 8, height: 8, rgba8Bytes: [UInt8](repeating: 255, count: 256), premultiplied: true))
        let jpeg = try #require(encode(image, "public.jpeg"))
        // APP1: "Exif\0\0", big-endian TIFF header, IFD0 with one entry: 0x0112 SHORT 1 = 6.
        let tiff: [UInt8] = [0x4D, 0x4D, 0, 42, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, 6, 0, 0, 0, 0, 0, 0, 0]
        let payload = Array("Exif".utf8) + [0, 0] + tiff
        let app1: [UInt8] = [0xFF, 0xE1, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF)] + payload
        let withExif = Data([0xFF, 0xD8] + app1) + jpeg.dropFirst(2)
        let src = try #require(CGImageSourceCreateWithData(withExif as CFData, nil))
        let props = try #require(CGImageSourceCopyPropertiesAtIndex(src, 0, nil) as? [String: Any])
        #expect(props[kCGImagePropertyOrientation] as? Int == 6)
        #expect(CGImageSourceCreateImageAtIndex(src, 0, nil)?.width == 8)
    }
}
