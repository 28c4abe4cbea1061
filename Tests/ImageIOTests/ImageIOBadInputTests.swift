import Foundation
import Testing

/// Corrupt, cut-off and hostile files (issue 19, "Bad input"): nil from
/// CGImageSourceCreateImageAtIndex, as Apple answers, with an error naming the file — never a
/// crash or an allocation the header alone asked for.
@Suite struct ImageIOBadInputTests {
    static let jpeg: Data = {
        var bytes: [UInt8] = []
        for y in 0..<16 { for x in 0..<16 { bytes += [UInt8(x * 16), UInt8(y * 16), 90, 255] } }
        return encode(CGImage(width: 16, height: 16, rgba8Bytes: bytes, premultiplied: true)!, "public.jpeg")!
    }()

    /// Decodes every image of `data`; any image that comes back has the size the header gave.
    /// (Through `decodeImage(at:)`, which does not warn, to keep hundreds of warnings out of
    /// the test output; `CGImageSourceCreateImageAtIndex` is the same call plus the warning.)
    func decodeAll(_ data: Data) {
        guard let src = CGImageSourceCreateWithData(data as CFData, nil) else { return }
        for i in 0..<min(CGImageSourceGetCount(src), 8) {
            let props = CGImageSourceCopyPropertiesAtIndex(src, i, nil) as? [String: Any]
            if let img = try? src.decodeImage(at: i) {
                #expect(img.width == props?[kCGImagePropertyPixelWidth] as? Int)
                #expect(img.height == props?[kCGImagePropertyPixelHeight] as? Int)
            }
        }
    }

    /// Every byte of a file inverted in turn, and the file cut at every length: no crash.
    func sweep(_ data: Data) {
        for i in 0..<data.count {
            var d = data
            d[i] ^= 0xFF
            decodeAll(d)
        }
        for n in stride(from: 0, to: data.count, by: max(1, data.count / 40)) { decodeAll(data.prefix(n)) }
    }

    @Test func flippedAndCutJPEGNeverCrash() { sweep(Self.jpeg) }
    @Test func flippedAndCutWebPNeverCrash() { sweep(fixture("still-lossless.webp")); sweep(fixture("anim.webp")) }
    @Test func flippedAndCutGIFNeverCrash() { sweep(ImageIOGIFTests.disposalGIF()) }

    @Test func truncatedJPEGFileGivesAnErrorNamingIt() throws {
        // Cut inside the entropy-coded data, after the start-of-scan marker (the tables before
        // it make up most of a 16×16 JPEG).
        let sos = try #require((0..<(Self.jpeg.count - 1)).first { Self.jpeg[$0] == 0xFF && Self.jpeg[$0 + 1] == 0xDA })
        let url = try temporaryFile("cut.jpg", Self.jpeg.prefix((sos + Self.jpeg.count) / 2))
        defer { try? FileManager.default.removeItem(at: url.deletingLastPathComponent()) }
        let src = try #require(CGImageSourceCreateWithURL(url as CFURL, nil))
        #expect(CGImageSourceGetCount(src) == 1)  // the header is intact
        let (img, warnings) = CGDiagnostics.capture { CGImageSourceCreateImageAtIndex(src, 0, nil) }
        #expect(img == nil)
        #expect(warnings.contains { $0.contains(url.path) })
        #expect(throws: CGImageSourceError.self) { try src.decodeImage(at: 0) }
        do { _ = try src.decodeImage(at: 0) } catch {
            #expect(error.kind == .invalidData)
            #expect(error.file == url.path)
            #expect(error.description.hasPrefix(url.path + ": "))
        }
    }

    @Test func truncatedWebPAndGIFGiveNil() throws {
        let webp = fixture("still-lossless.webp")
        let cutWebP = try #require(CGImageSourceCreateWithData(webp.prefix(webp.count - 10) as CFData, nil))
        #expect(CGImageSourceCreateImageAtIndex(cutWebP, 0, nil) == nil)
        // A GIF cut inside its last frame: earlier frames still decode; the cut one does not.
        let gif = ImageIOGIFTests.disposalGIF()
        let src = try #require(CGImageSourceCreateWithData(gif.prefix(gif.count - 4) as CFData, nil))
        #expect(CGImageSourceGetCount(src) == 4)
        #expect(CGImageSourceGetStatus(src) == .statusIncomplete)
        #expect(CGImageSourceGetStatusAtIndex(src, 3) == .statusUnexpectedEOF)
        #expect(CGImageSourceCreateImageAtIndex(src, 2, nil) != nil)
        #expect(CGImageSourceCreateImageAtIndex(src, 3, nil) == nil)
    }

    @Test func unknownAndEmptyDataHaveNoImages() throws {
        for data in [Data(), Data("not an image at all".utf8)] {
            let src = try #require(CGImageSourceCreateWithData(data as CFData, nil))
            #expect(CGImageSourceGetType(src) == nil)
            #expect(CGImageSourceGetCount(src) == 0)
            #expect(CGImageSourceGetStatus(src) == .statusUnknownType)
            #expect(CGImageSourceCreateImageAtIndex(src, 0, nil) == nil)
            #expect(CGImageSourceCopyPropertiesAtIndex(src, 0, nil) == nil)
        }
        let png = try #require(CGImageSourceCreateWithData(encode(ImageIORoundTripTests.small, "public.png")! as CFData, nil))
        #expect(CGImageSourceCreateImageAtIndex(png, 1, nil) == nil)
        #expect(CGImageSourceCreateImageAtIndex(png, -1, nil) == nil)
        #expect(CGImageSourceCreateWithURL(URL(fileURLWithPath: "/nonexistent/x.png") as CFURL, nil) == nil)
        // A device that never ends, and a folder: refused before reading.
        #expect(CGImageSourceCreateWithURL(URL(fileURLWithPath: "/dev/zero") as CFURL, nil) == nil)
        #expect(CGImageSourceCreateWithURL(FileManager.default.temporaryDirectory as CFURL, nil) == nil)
    }

    /// A JPEG whose frame header (SOF0) claims 60000×60000: properties report it; decoding is
    /// refused from the header (more than CGImageSource.maxPixelCount), nothing allocated.
    @Test func hugeJPEGHeaderIsRefusedBeforeAllocation() throws {
        var d = Self.jpeg
        let sof = try #require((0..<(d.count - 1)).first { d[$0] == 0xFF && d[$0 + 1] == 0xC0 })
        d[sof + 5] = 0xEA; d[sof + 6] = 0x60; d[sof + 7] = 0xEA; d[sof + 8] = 0x60  // 60000
        let src = try #require(CGImageSourceCreateWithData(d as CFData, nil))
        let props = try #require(CGImageSourceCopyPropertiesAtIndex(src, 0, nil) as? [String: Any])
        #expect(props[kCGImagePropertyPixelWidth] as? Int == 60000)
        #expect(throws: CGImageSourceError(kind: .imageTooLarge, file: nil,
                                           message: "JPEG declares 60000×60000 pixels; at most \(CGImageSource.maxPixelCount) are accepted")) {
            try src.decodeImage(at: 0)
        }
    }

    @Test func hugeWebPCanvasIsRefused() throws {
        var d = fixture("anim.webp")
        for i in 24..<30 { d[i] = 0xFF }  // VP8X canvas width−1 and height−1 (24 bits each)
        let src = try #require(CGImageSourceCreateWithData(d as CFData, nil))
        #expect(CGImageSourceCreateImageAtIndex(src, 0, nil) == nil)
    }

    /// Found by fuzz-image (issue 17): 140 bytes of animated WebP whose VP8X canvas is
    /// 3,866,625 × 65 pixels, under the one-image limit, but libwebp's animation decoder keeps two
    /// canvases (current and previous), so it allocated 2 × 1 GB. Animated canvases get half the
    /// pixel limit, so the decoder's two stay within one image's worth.
    @Test func animatedWebPWhoseTwoCanvasesExceedTheLimitIsRefused() throws {
        let d = try #require(Data(base64Encoded: "UklGRoQAAABXRUJQVlA4WAoAAAACAAAAAAA7QAAAQU5JTQYAAAD/////AwBBTk1GKAAAAAAAAAAAAAEAAAEAAGQAAANWUDhMDwAAAC8BQAAABxD9j/4HIqL/AQBBTk1GKAAAAAAAAAAAAAAAAAEAAPoAAABWUDhMDwAAAC8AQAAABwAAAgAHIqL/AQA="))
        #expect(3_866_625 * 65 < CGImageSource.maxPixelCount)
        let src = try #require(CGImageSourceCreateWithData(d as CFData, nil))
        #expect(throws: CGImageSourceError(kind: .imageTooLarge, file: nil,
                                           message: "animated WebP declares 3866625×65 pixels; at most \(CGImageSource.maxPixelCount / 2) are accepted (its decoder keeps 2 canvases)")) {
            try src.decodeImage(at: 0)
        }
    }

    @Test func hugeGIFCanvasAndFramesAreRefused() throws {
        var big = GIFBuilder(width: 65535, height: 65535)
        big.frames = [.init(width: 1, height: 1, indices: [1])]
        let src = try #require(CGImageSourceCreateWithData(big.data() as CFData, nil))
        #expect(throws: CGImageSourceError(kind: .imageTooLarge, file: nil,
                                           message: "GIF declares 65535×65535 pixels; at most \(CGImageSource.maxPixelCount) are accepted")) {
            try src.decodeImage(at: 0)
        }
        // 10,000 frames, each claiming 60000×60000 on a 1×1 canvas (with one pixel of data):
        // counted from the block structure, each refused from its descriptor.
        var many = GIFBuilder(width: 1, height: 1)
        many.frames = Array(repeating: .init(width: 60000, height: 60000, indices: [1]), count: 10_000)
        let m = try #require(CGImageSourceCreateWithData(many.data() as CFData, nil))
        #expect(CGImageSourceGetCount(m) == 10_000)
        #expect(CGImageSourceCreateImageAtIndex(m, 9_999, nil) == nil)
    }

    /// 10,000 real 1×1 frames alternating red and blue: counted without decoding, and the last
    /// one composed (frames 0…9999 decoded once each).
    @Test func tenThousandFrameGIF() throws {
        var g = GIFBuilder(width: 1, height: 1)
        g.frames = (0..<10_000).map { .init(width: 1, height: 1, indices: [$0 % 2 == 0 ? 1 : 3]) }
        let src = try #require(CGImageSourceCreateWithData(g.data() as CFData, nil))
        #expect(CGImageSourceGetCount(src) == 10_000)
        let last = try #require(CGImageSourceCreateImageAtIndex(src, 9_999, nil))
        #expect(rgba(last, 0, 0) == ImageIOGIFTests.B)
    }
}
