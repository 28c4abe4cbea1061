import Testing

/// Bitmap contexts: creation rules, layouts, coordinates, snapshots (Apple:
/// CGContext.init(data:width:height:bitsPerComponent:bytesPerRow:space:bitmapInfo:),
/// "Supported Pixel Formats" in the Quartz 2D Programming Guide, CGBitmapContextCreateImage).
@Suite struct CGContextBitmapTests {
    @Test("nil data allocates a zeroed bitmap; properties report the creation parameters")
    func allocates() {
        let ctx = CGContext(data: nil, width: 7, height: 3, bitsPerComponent: 8, bytesPerRow: 0,
                            space: CGColorSpaceCreateDeviceRGB(),
                            bitmapInfo: CGImageAlphaInfo.premultipliedFirst.rawValue | CGBitmapInfo.byteOrder32Little.rawValue)
        #expect(ctx != nil)
        guard let ctx else { return }
        #expect(ctx.width == 7 && ctx.height == 3)
        #expect(ctx.bytesPerRow == 28)
        #expect(ctx.bitsPerComponent == 8 && ctx.bitsPerPixel == 32)
        #expect(ctx.alphaInfo == .premultipliedFirst)
        #expect(ctx.bitmapInfo.contains(.byteOrder32Little))
        #expect(ctx.colorSpace == CGColorSpaceCreateDeviceRGB())
        #expect(ctx.ctm == .identity)
        #expect((0..<3).allSatisfy { row in (0..<7).allSatisfy { bytes(ctx, $0, row) == [0, 0, 0, 0] } })
    }

    @Test("invalid combinations give nil, as Apple's unsupported parameter combination")
    func invalid() {
        let rgb = CGColorSpaceCreateDeviceRGB(), gray = CGColorSpaceCreateDeviceGray()
        let pl = CGImageAlphaInfo.premultipliedLast.rawValue
        func make(_ w: Int, _ h: Int, _ bpc: Int, _ bpr: Int, _ s: CGColorSpace, _ i: UInt32) -> CGContext? {
            CGContext(data: nil, width: w, height: h, bitsPerComponent: bpc, bytesPerRow: bpr, space: s, bitmapInfo: i)
        }
        #expect(make(0, 10, 8, 0, rgb, pl) == nil)
        #expect(make(10, -1, 8, 0, rgb, pl) == nil)
        #expect(make(10, 10, 16, 0, rgb, pl) == nil)
        #expect(make(10, 10, 8, 39, rgb, pl) == nil)          // row shorter than 10 × 4 bytes
        #expect(make(10, 10, 8, -4, rgb, pl) == nil)
        #expect(make(10, 10, 8, 0, rgb, CGImageAlphaInfo.last.rawValue) == nil)   // straight alpha
        #expect(make(10, 10, 8, 0, rgb, CGImageAlphaInfo.none.rawValue) == nil)   // 24-bit RGB
        #expect(make(10, 10, 8, 0, gray, pl) == nil)
        #expect(make(10, 10, 8, 0, rgb, pl | CGBitmapInfo.floatComponents.rawValue) == nil)
        #expect(make(10, 10, 8, 0, rgb, pl | CGBitmapInfo.byteOrder16Little.rawValue) == nil)
        #expect(make(10, 10, 8, 0, rgb, 31) == nil)            // undefined alpha info
        #expect(make(10, 10, 8, 44, rgb, pl)?.bytesPerRow == 44)
        #expect(make(10, 10, 8, 0, gray, CGImageAlphaInfo.none.rawValue)?.bitsPerPixel == 8)
        let mask = make(10, 10, 8, 0, rgb, CGImageAlphaInfo.alphaOnly.rawValue)
        #expect(mask?.bitsPerPixel == 8 && mask?.colorSpace == nil)
    }

    @Test("100,000 × 100,000 gives nil without allocating (40 GB over the 2 GiB cap)")
    func absurdSize() {
        let ctx = CGContext(data: nil, width: 100_000, height: 100_000, bitsPerComponent: 8, bytesPerRow: 0,
                            space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue)
        #expect(ctx == nil)
        let overflow = CGContext(data: nil, width: Int.max / 2, height: 3, bitsPerComponent: 8, bytesPerRow: 0,
                                 space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue)
        #expect(overflow == nil)
    }

    @Test("drawing goes into caller memory; y is up: a rect at the bottom lands in the last rows")
    func callerMemoryAndOrigin() {
        var buf = [UInt8](repeating: 0, count: 4 * 4 * 4)
        buf.withUnsafeMutableBytes { raw in
            let ctx = CGContext(data: raw.baseAddress, width: 4, height: 4, bitsPerComponent: 8, bytesPerRow: 16,
                                space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: CGImageAlphaInfo.premultipliedLast.rawValue)!
            #expect(ctx.data == raw.baseAddress)
            ctx.setFillColor(red: 1, green: 0, blue: 0, alpha: 1)
            ctx.fill(CGRect(x: 0, y: 0, width: 4, height: 1))   // bottom row in Apple's y-up space
        }
        #expect(Array(buf[48..<52]) == [255, 0, 0, 255])      // row 3 = the last row in memory
        #expect(Array(buf[0..<4]) == [0, 0, 0, 0])
    }

    @Test("byte orders: premultipliedFirst + little-endian stores B, G, R, A; noneSkipFirst stores X, R, G, B")
    func byteOrders() {
        let bgra = rgbaContext(1, 1, info: CGImageAlphaInfo.premultipliedFirst.rawValue | CGBitmapInfo.byteOrder32Little.rawValue)
        bgra.setFillColor(red: 1, green: 0.5, blue: 0, alpha: 1)
        bgra.fill(CGRect(x: 0, y: 0, width: 1, height: 1))
        #expect(bytes(bgra, 0, 0) == [0, 128, 255, 255])
        let xrgb = rgbaContext(1, 1, info: CGImageAlphaInfo.noneSkipFirst.rawValue)
        xrgb.setFillColor(red: 0, green: 0, blue: 1, alpha: 0.5)   // over black: half blue
        xrgb.fill(CGRect(x: 0, y: 0, width: 1, height: 1))
        #expect(Array(bytes(xrgb, 0, 0)[1...]) == [0, 0, 128])
    }

    @Test("gray and alpha-only contexts")
    func grayAndMask() {
        let gray = CGContext(data: nil, width: 2, height: 1, bitsPerComponent: 8, bytesPerRow: 0,
                             space: CGColorSpaceCreateDeviceGray(), bitmapInfo: CGImageAlphaInfo.none.rawValue)!
        gray.setFillColor(gray: 1, alpha: 1)
        gray.fill(CGRect(x: 0, y: 0, width: 2, height: 1))
        gray.setFillColor(gray: 0, alpha: 0.5)
        gray.fill(CGRect(x: 1, y: 0, width: 1, height: 1))
        #expect(bytes(gray, 0, 0) == [255] && bytes(gray, 1, 0) == [128])
        let mask = CGContext(data: nil, width: 1, height: 1, bitsPerComponent: 8, bytesPerRow: 0,
                             space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: CGImageAlphaInfo.alphaOnly.rawValue)!
        mask.setFillColor(red: 1, green: 1, blue: 1, alpha: 0.25)
        mask.fill(CGRect(x: 0, y: 0, width: 1, height: 1))
        #expect(bytes(mask, 0, 0) == [64])
    }

    @Test("makeImage is a snapshot: later drawing does not change it; rows stay top first")
    func snapshot() {
        let ctx = rgbaContext(2, 2)
        ctx.setFillColor(red: 0, green: 1, blue: 0, alpha: 1)
        ctx.fill(CGRect(x: 0, y: 1, width: 2, height: 1))     // top row (y up)
        let image = ctx.makeImage()!
        ctx.fill(CGRect(x: 0, y: 0, width: 2, height: 2))
        #expect(image.width == 2 && image.height == 2)
        #expect(image.pixel(x: 0, y: 0) == (0, 255, 0, 255))
        #expect(image.pixel(x: 1, y: 1) == (0, 0, 0, 0))
        #expect(ctx.makeImage()!.pixel(x: 1, y: 1) == (0, 255, 0, 255))
    }

    @Test("a rect edge on a half pixel gives half coverage (exact-area antialiasing)")
    func halfPixelEdge() {
        let ctx = rgbaContext(4, 1)
        ctx.setFillColor(red: 0, green: 0, blue: 1, alpha: 1)
        ctx.fill(CGRect(x: 0, y: 0, width: 2.5, height: 1))
        #expect(bytes(ctx, 1, 0) == [0, 0, 255, 255])
        #expect(bytes(ctx, 2, 0) == [0, 0, 128, 128])           // 0.5 × 255 rounded
        #expect(bytes(ctx, 3, 0) == [0, 0, 0, 0])
    }

    @Test("clear(_:) makes the rect transparent whatever the blend mode and alpha")
    func clearRect() {
        let ctx = rgbaContext(3, 1)
        ctx.setFillColor(red: 1, green: 1, blue: 1, alpha: 1)
        ctx.fill(CGRect(x: 0, y: 0, width: 3, height: 1))
        ctx.setAlpha(0.1)
        ctx.setBlendMode(.multiply)
        ctx.clear(CGRect(x: 1, y: 0, width: 1, height: 1))
        #expect(bytes(ctx, 0, 0) == [255, 255, 255, 255])
        #expect(bytes(ctx, 1, 0) == [0, 0, 0, 0])
    }
}
