import Testing

struct CGImageTests {
    /// Builds an image through Apple's initializer from raw bytes.
    func image(width: Int, height: Int, bitsPerPixel: Int = 32, bytesPerRow: Int? = nil,
               space: CGColorSpace = CGColorSpaceCreateDeviceRGB(), info: CGBitmapInfo,
               bytes: [UInt8], bitsPerComponent: Int = 8) -> CGImage? {
        guard let provider = CGDataProvider(data: Data(bytes) as CFData) else { return nil }
        return CGImage(width: width, height: height, bitsPerComponent: bitsPerComponent,
                       bitsPerPixel: bitsPerPixel, bytesPerRow: bytesPerRow ?? width * bitsPerPixel / 8,
                       space: space, bitmapInfo: info, provider: provider, decode: nil,
                       shouldInterpolate: true, intent: .defaultIntent)
    }

    @Test("rgba8Bytes initializer keeps premultiplied bytes as given, tightly packed")
    func rgbaLayout() throws {
        let bytes: [UInt8] = [1, 2, 3, 255, 4, 5, 6, 200, 7, 8, 9, 10, 11, 12, 13, 255]
        let img = try #require(CGImage(width: 2, height: 2, rgba8Bytes: bytes, premultiplied: true))
        #expect(img.width == 2 && img.height == 2)
        #expect(img.bitsPerComponent == 8 && img.bitsPerPixel == 32 && img.bytesPerRow == 8)
        #expect(img.alphaInfo == .premultipliedLast)
        #expect(img.bitmapInfo.rawValue == CGImageAlphaInfo.premultipliedLast.rawValue)
        #expect(img.colorSpace?.model == .rgb)
        #expect(img.rgba8Bytes == bytes)
        #expect(img.pixel(x: 0, y: 1) == (7, 8, 9, 10))
        #expect(img.pixel(x: 1, y: 0) == (4, 5, 6, 200))
        #expect(img.pixel(x: 2, y: 0) == (0, 0, 0, 0))
        #expect(img.pixel(x: -1, y: 0) == (0, 0, 0, 0))
        #expect(!img.isOpaque)
        #expect(img.dataProvider?.data == Data(bytes))
    }

    @Test("straight alpha is premultiplied on the way in, rounded to nearest")
    func premultiplies() throws {
        let img = try #require(CGImage(width: 1, height: 1, rgba8Bytes: [255, 100, 3, 128], premultiplied: false))
        // 255·128/255 = 128; 100·128/255 = 50.2 → 50; 3·128/255 = 1.506 → 2 (not truncated to 1).
        #expect(img.rgba8Bytes == [128, 50, 2, 128])
        let opaque = try #require(CGImage(width: 1, height: 1, rgba8Bytes: [9, 8, 7, 255], premultiplied: false))
        #expect(opaque.rgba8Bytes == [9, 8, 7, 255])
        #expect(opaque.isOpaque)
    }

    @Test("bad sizes and byte counts are rejected with nil")
    func rejectsBadSizes() {
        #expect(CGImage(width: 0, height: 1, rgba8Bytes: [], premultiplied: true) == nil)
        #expect(CGImage(width: -2, height: -2, rgba8Bytes: [UInt8](repeating: 0, count: 16), premultiplied: true) == nil)
        #expect(CGImage(width: 2, height: 2, rgba8Bytes: [UInt8](repeating: 0, count: 15), premultiplied: true) == nil)
        #expect(CGImage(width: Int.max, height: 2, rgba8Bytes: [], premultiplied: true) == nil)
        #expect(CGImage(width: 1 << 20, height: 1 << 20, rgba8Bytes: [], premultiplied: true) == nil)
        let info = CGBitmapInfo(rawValue: CGImageAlphaInfo.premultipliedLast.rawValue)
        #expect(image(width: 2, height: 1, info: info, bytes: [1, 2, 3, 4]) == nil)          // provider short
        #expect(image(width: 2, height: 1, bytesPerRow: 4, info: info, bytes: [UInt8](repeating: 0, count: 8)) == nil)
        #expect(image(width: 0, height: 1, info: info, bytes: []) == nil)
        #expect(image(width: 1, height: 1, info: info, bytes: [0, 0, 0, 0, 0, 0, 0, 0], bitsPerComponent: 16) == nil)
        #expect(image(width: 1, height: 1,
                      info: info.union(.floatComponents), bytes: [0, 0, 0, 0]) == nil)
        #expect(image(width: 1, height: 1, info: CGBitmapInfo(rawValue: 31), bytes: [0, 0, 0, 0]) == nil)
    }

    @Test("Apple's initializer: BGRA (premultipliedFirst + 32-bit little endian) becomes RGBA")
    func bgraSource() throws {
        let info = CGBitmapInfo(rawValue: CGImageAlphaInfo.premultipliedFirst.rawValue).union(.byteOrder32Little)
        let img = try #require(image(width: 1, height: 1, info: info, bytes: [30, 20, 10, 40]))
        #expect(img.rgba8Bytes == [10, 20, 30, 40])
        let argb = try #require(image(width: 1, height: 1,
                                      info: CGBitmapInfo(rawValue: CGImageAlphaInfo.premultipliedFirst.rawValue),
                                      bytes: [40, 10, 20, 30]))
        #expect(argb.rgba8Bytes == [10, 20, 30, 40])
        let abgr = try #require(image(width: 1, height: 1,
                                      info: CGBitmapInfo(rawValue: CGImageAlphaInfo.last.rawValue).union(.byteOrder32Little),
                                      bytes: [255, 30, 20, 10]))
        #expect(abgr.rgba8Bytes == [10, 20, 30, 255])
    }

    @Test("row padding in bytesPerRow is skipped; opaque sources report noneSkipLast")
    func rowPaddingAndOpaque() throws {
        let info = CGBitmapInfo(rawValue: CGImageAlphaInfo.noneSkipFirst.rawValue)
        // Two rows of one XRGB pixel, 8 bytes per row (4 of padding).
        let bytes: [UInt8] = [0, 1, 2, 3, 99, 99, 99, 99, 7, 4, 5, 6]
        let img = try #require(image(width: 1, height: 2, bytesPerRow: 8, info: info, bytes: bytes))
        #expect(img.rgba8Bytes == [1, 2, 3, 255, 4, 5, 6, 255])
        #expect(img.alphaInfo == .noneSkipLast)
        #expect(img.bytesPerRow == 4)
        #expect(img.isOpaque)
    }

    @Test("24-bit RGB and 8-bit gray sources expand to RGBA")
    func rgbAndGray() throws {
        let rgb = try #require(image(width: 2, height: 1, bitsPerPixel: 24, info: [],
                                     bytes: [1, 2, 3, 4, 5, 6]))
        #expect(rgb.rgba8Bytes == [1, 2, 3, 255, 4, 5, 6, 255])
        let gray = try #require(image(width: 2, height: 1, bitsPerPixel: 8, space: CGColorSpaceCreateDeviceGray(),
                                      info: [], bytes: [10, 200]))
        #expect(gray.rgba8Bytes == [10, 10, 10, 255, 200, 200, 200, 255])
        // Gray with an alpha byte is not a supported layout.
        #expect(image(width: 1, height: 1, bitsPerPixel: 16, space: CGColorSpaceCreateDeviceGray(),
                      info: CGBitmapInfo(rawValue: CGImageAlphaInfo.premultipliedLast.rawValue),
                      bytes: [1, 2]) == nil)
    }

    @Test("images compare by identity, not by pixels")
    func identity() throws {
        let a = try #require(CGImage(width: 1, height: 1, rgba8Bytes: [0, 0, 0, 255], premultiplied: true))
        let b = try #require(CGImage(width: 1, height: 1, rgba8Bytes: [0, 0, 0, 255], premultiplied: true))
        #expect(a == a)
        #expect(a != b)
        #expect(Set([a, b, a]).count == 2)
        #expect(a.copy() === a)
    }

    @Test("cropping(to:) takes whole pixels, clips to the image, nil when empty")
    func cropping() throws {
        let bytes = (0..<9).flatMap { i -> [UInt8] in [UInt8(i), 0, 0, 255] }
        let img = try #require(CGImage(width: 3, height: 3, rgba8Bytes: bytes, premultiplied: true))
        let center = try #require(img.cropping(to: CGRect(x: 1, y: 1, width: 1, height: 1)))
        #expect(center.width == 1 && center.height == 1)
        #expect(center.rgba8Bytes == [4, 0, 0, 255])
        let grown = try #require(img.cropping(to: CGRect(x: 1.5, y: 0.2, width: 0.2, height: 1)))
        #expect(grown.width == 1 && grown.height == 2)
        #expect(grown.rgba8Bytes == [1, 0, 0, 255, 4, 0, 0, 255])
        let clipped = try #require(img.cropping(to: CGRect(x: 2, y: -5, width: 10, height: 7)))
        #expect(clipped.width == 1 && clipped.height == 2)
        #expect(img.cropping(to: CGRect(x: 5, y: 5, width: 2, height: 2)) == nil)
        #expect(img.cropping(to: CGRect(x: 0, y: 0, width: 3, height: 3)) === img)
    }

    @Test("bitmap info and rendering intent raw values match Apple's headers")
    func rawValues() {
        #expect(CGImageAlphaInfo.none.rawValue == 0)
        #expect(CGImageAlphaInfo.premultipliedLast.rawValue == 1)
        #expect(CGImageAlphaInfo.noneSkipFirst.rawValue == 6)
        #expect(CGBitmapInfo.byteOrder32Little.rawValue == 0x2000)
        #expect(CGBitmapInfo.byteOrder32Big.rawValue == 0x4000)
        #expect(CGBitmapInfo.floatComponents.rawValue == 0x100)
        #expect(CGBitmapInfo.alphaInfoMask.rawValue == 0x1F)
        #expect(CGColorRenderingIntent.perceptual.rawValue == 3)
    }
}
