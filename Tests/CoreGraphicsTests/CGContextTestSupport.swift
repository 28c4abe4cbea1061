// Helpers for the CGContext pixel tests: an RGBA context and byte access by (x, y) with y
// counted from the TOP row (row 0 of `data`, as Apple's bitmap memory is laid out).

func rgbaContext(_ w: Int, _ h: Int, info: UInt32 = CGImageAlphaInfo.premultipliedLast.rawValue) -> CGContext {
    CGContext(data: nil, width: w, height: h, bitsPerComponent: 8, bytesPerRow: 0,
              space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: info)!
}

/// The four bytes of pixel (x, row) in memory order.
func bytes(_ ctx: CGContext, _ x: Int, _ row: Int) -> [UInt8] {
    let p = ctx.data!.assumingMemoryBound(to: UInt8.self) + row * ctx.bytesPerRow + x * ctx.bitsPerPixel / 8
    return Array(UnsafeBufferPointer(start: p, count: ctx.bitsPerPixel / 8))
}
