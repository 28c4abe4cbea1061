import Foundation
import Testing

/// WebP files made by libwebp's own tools (Fixtures/README.md), decoded through CGImageSource.
@Suite struct ImageIOWebPTests {
    /// still.pam's pixels (straight alpha): red, green, blue, white / black, red at alpha 128,
    /// transparent, grey 128. Lossless WebP keeps them; stored premultiplied, red at alpha 128
    /// becomes 255 · 128 / 255 = 128.
    @Test func losslessStillDecodesExactly() throws {
        let src = try #require(CGImageSourceCreateWithData(fixture("still-lossless.webp") as CFData, nil))
        #expect(CGImageSourceGetType(src) == "org.webmproject.webp")
        #expect(CGImageSourceGetCount(src) == 1)
        let props = try #require(CGImageSourceCopyPropertiesAtIndex(src, 0, nil) as? [String: Any])
        #expect(props[kCGImagePropertyPixelWidth] as? Int == 4)
        #expect(props[kCGImagePropertyPixelHeight] as? Int == 2)
        #expect(props[kCGImagePropertyHasAlpha] as? Bool == true)
        let img = try #require(CGImageSourceCreateImageAtIndex(src, 0, nil))
        #expect(img.rgba8Bytes == [
            255, 0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 255, 255, 255,
            0, 0, 0, 255, 128, 0, 0, 128, 0, 0, 0, 0, 128, 128, 128, 255,
        ])
    }

    /// Animated WebP: each image is the canvas after that frame is composed, with the frame
    /// durations (100 ms, 250 ms) and the loop count (3) from the file. img2webp stores frame 2
    /// (a blue left column, a transparent right column) as frame 1 disposed to the background
    /// (flags 0x03) plus a 1×2 blue rectangle blended at x = 0, so the composed second image is
    /// f2.pam exactly: blue, transparent.
    @Test func animatedFramesAreComposed() throws {
        let src = try #require(CGImageSourceCreateWithData(fixture("anim.webp") as CFData, nil))
        #expect(CGImageSourceGetCount(src) == 2)
        let red: [UInt8] = [255, 0, 0, 255], blue: [UInt8] = [0, 0, 255, 255], clear: [UInt8] = [0, 0, 0, 0]
        let f0 = try #require(CGImageSourceCreateImageAtIndex(src, 0, nil))
        #expect([rgba(f0, 0, 0), rgba(f0, 1, 0), rgba(f0, 0, 1), rgba(f0, 1, 1)] == [red, red, red, red])
        let f1 = try #require(CGImageSourceCreateImageAtIndex(src, 1, nil))
        #expect([rgba(f1, 0, 0), rgba(f1, 1, 0), rgba(f1, 0, 1), rgba(f1, 1, 1)] == [blue, clear, blue, clear])
        let p1 = try #require(CGImageSourceCopyPropertiesAtIndex(src, 1, nil) as? [String: Any])
        let webp = try #require(p1[kCGImagePropertyWebPDictionary] as? [String: Any])
        #expect(webp[kCGImagePropertyWebPUnclampedDelayTime] as? Double == 0.25)
        let container = try #require(CGImageSourceCopyProperties(src, nil) as? [String: Any])
        let cw = try #require(container[kCGImagePropertyWebPDictionary] as? [String: Any])
        #expect(cw[kCGImagePropertyWebPLoopCount] as? Int == 3)
        #expect(CGImageSourceCreateImageAtIndex(src, 2, nil) == nil)
    }
}
