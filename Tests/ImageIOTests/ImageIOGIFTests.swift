import Foundation
import Testing

/// GIF frames composed with the disposal methods of the GIF89a spec (§23, Graphic Control
/// Extension: 1 leave, 2 restore to background — transparent, as Apple and browsers do —, 3
/// restore to previous), on GIFs written byte by byte (GIFBuilder).
@Suite struct ImageIOGIFTests {
    static let R: [UInt8] = [255, 0, 0, 255], G: [UInt8] = [0, 255, 0, 255], B: [UInt8] = [0, 0, 255, 255]
    static let T: [UInt8] = [0, 0, 0, 0]

    /// 3×1 canvas; palette 0 black, 1 red, 2 green, 3 blue.
    static func disposalGIF() -> Data {
        var g = GIFBuilder(width: 3, height: 1)
        g.loopCount = 5
        g.frames = [
            .init(width: 3, height: 1, indices: [1, 1, 1], disposal: 1, delayHundredths: 10),
            .init(x: 1, width: 1, height: 1, indices: [2], disposal: 2, delayHundredths: 0),
            .init(x: 2, width: 1, height: 1, indices: [3], disposal: 3, delayHundredths: 5),
            .init(x: 0, width: 2, height: 1, indices: [0, 3], transparentIndex: 0, delayHundredths: 7),
        ]
        return g.data()
    }

    func row(_ img: CGImage) -> [[UInt8]] { (0..<img.width).map { rgba(img, $0, 0) } }

    @Test func framesComposeWithDisposalMethods() throws {
        let src = try #require(CGImageSourceCreateWithData(Self.disposalGIF() as CFData, nil))
        #expect(CGImageSourceGetType(src) == "com.compuserve.gif")
        #expect(CGImageSourceGetCount(src) == 4)
        let (R, G, B, T) = (Self.R, Self.G, Self.B, Self.T)
        // 0: all red. 1: green over the middle (then disposed to transparent). 2: blue at the
        // right (then the canvas before it comes back). 3: index 0 is transparent, so x = 0 keeps
        // red; blue at x = 1.
        let expected = [[R, R, R], [R, G, R], [R, T, B], [R, B, R]]
        for i in 0..<4 {
            let img = try #require(CGImageSourceCreateImageAtIndex(src, i, nil))
            #expect(row(img) == expected[i], "frame \(i)")
        }
        // Out of order (from the start again, and from the cached canvas) gives the same.
        for i in [3, 1, 2, 0, 3] {
            let img = try #require(CGImageSourceCreateImageAtIndex(src, i, nil))
            #expect(row(img) == expected[i], "frame \(i) again")
        }
    }

    @Test func delaysAndLoopCount() throws {
        let src = try #require(CGImageSourceCreateWithData(Self.disposalGIF() as CFData, nil))
        func gif(_ i: Int) -> [String: Any]? {
            (CGImageSourceCopyPropertiesAtIndex(src, i, nil) as? [String: Any])?[kCGImagePropertyGIFDictionary] as? [String: Any]
        }
        #expect(gif(0)?[kCGImagePropertyGIFDelayTime] as? Double == 0.1)
        #expect(gif(2)?[kCGImagePropertyGIFUnclampedDelayTime] as? Double == 0.05)
        // A zero delay is reported as 0.1 s, unclamped 0.
        #expect(gif(1)?[kCGImagePropertyGIFDelayTime] as? Double == 0.1)
        #expect(gif(1)?[kCGImagePropertyGIFUnclampedDelayTime] as? Double == 0)
        let container = try #require(CGImageSourceCopyProperties(src, nil) as? [String: Any])
        #expect((container[kCGImagePropertyGIFDictionary] as? [String: Any])?[kCGImagePropertyGIFLoopCount] as? Int == 5)
        let p = try #require(CGImageSourceCopyPropertiesAtIndex(src, 0, nil) as? [String: Any])
        #expect(p[kCGImagePropertyPixelWidth] as? Int == 3)
    }

    /// An interlaced frame's rows arrive in four passes (rows 0, 8 / 4 / 2, 6 / 1, 3, 5, 7 of a
    /// 9-row frame); each row y is given palette entry y % 3 + 1.
    @Test func interlacedRowsLandInPlace() throws {
        let order = [0, 8, 4, 2, 6, 1, 3, 5, 7]
        var g = GIFBuilder(width: 1, height: 9)
        g.frames = [.init(width: 1, height: 9, indices: order.map { UInt8($0 % 3 + 1) }, interlaced: true)]
        let src = try #require(CGImageSourceCreateWithData(g.data() as CFData, nil))
        let img = try #require(CGImageSourceCreateImageAtIndex(src, 0, nil))
        let colors = [Self.R, Self.G, Self.B]
        for y in 0..<9 { #expect(rgba(img, 0, y) == colors[y % 3], "row \(y)") }
    }

    /// A frame reaching past the canvas is clipped to it (GIF89a §20).
    @Test func framesAreClippedToTheCanvas() throws {
        var g = GIFBuilder(width: 2, height: 1)
        g.frames = [.init(x: 1, width: 3, height: 2, indices: [3, 2, 2, 2, 2, 2])]
        let src = try #require(CGImageSourceCreateWithData(g.data() as CFData, nil))
        let img = try #require(CGImageSourceCreateImageAtIndex(src, 0, nil))
        #expect(row(img) == [Self.T, Self.B])
    }
}
