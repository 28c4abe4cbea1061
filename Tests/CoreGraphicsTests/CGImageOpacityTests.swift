import Testing
@testable import CoreGraphics

/// `CGImage.isOpaque` is found sixteen pixels a step (`allAlphaOpaque`): the same answer as a
/// byte-by-byte scan, wherever the one translucent pixel lies and whatever the pixel count.
@Suite struct CGImageOpacityTests {
    @Test("one translucent alpha anywhere makes the image not opaque; none, opaque")
    func scanFindsEveryAlpha() {
        for n in [1, 3, 15, 16, 17, 31, 32, 33, 64, 100] {
            let opaque = [UInt8](repeating: 255, count: n * 4)
            #expect(CGImage.allAlphaOpaque(opaque), "\(n) opaque pixels")
            for k in 0..<n {
                var b = opaque
                b[k * 4 + 3] = 254
                #expect(!CGImage.allAlphaOpaque(b), "\(n) pixels, pixel \(k) translucent")
                // A colour byte below 255 changes nothing.
                var c = opaque
                c[k * 4] = 0; c[k * 4 + 1] = 7; c[k * 4 + 2] = 254
                #expect(CGImage.allAlphaOpaque(c), "\(n) pixels, pixel \(k) coloured")
            }
        }
        let img = CGImage(width: 5, height: 4, rgba8Bytes: [UInt8](repeating: 255, count: 80), premultiplied: true)
        #expect(img?.isOpaque == true)
    }
}
