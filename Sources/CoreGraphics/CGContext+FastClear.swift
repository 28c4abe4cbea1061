#if canImport(Glibc)
import Glibc
#endif

// `clear(_:)` of a pixel-aligned rectangle (the usual "clear the whole context" at the start of
// a frame) as row memsets: with no clip and an axis-aligned CTM that puts every edge of the rect
// on a pixel boundary, each pixel is either wholly inside (coverage exactly 1, so `copy` of
// transparent stores zero in every byte the layout stores) or wholly outside, which is what
// the general coverage path gives, byte for byte, at a fraction of its cost (issue 19's drawing
// benchmarks clear 1920×1080 each frame).

extension CGContext {
    /// Clears `rect` by zeroing rows when that gives the general path's bytes; false (nothing
    /// done) otherwise.
    package func clearPixelAligned(_ rect: CGRect) -> Bool {
        let ctm = gstate.ctm
        guard gstate.clip == nil, ctm.b == 0, ctm.c == 0 else { return false }
        let surface = target
        let bpp: Int
        switch surface.layout {
        case .rgba32(_, _, _, let a): guard a != nil else { return false }; bpp = 4
        case .gray8, .alpha8: bpp = 1
        }
        let d = rect.standardized.applying(ctm)
        // Raster space: x as device x, y down from the top.
        let xs = [Double(d.minX), Double(d.maxX)]
        let ys = [Double(height) - Double(d.maxY), Double(height) - Double(d.minY)]
        guard (xs + ys).allSatisfy({ $0.isFinite }) else { return false }
        // Clamp to the surface first: edges outside it need not be integral.
        let w = Double(surface.width), h = Double(surface.height)
        let x0 = min(max(xs[0], 0), w), x1 = min(max(xs[1], 0), w)
        let y0 = min(max(ys[0], 0), h), y1 = min(max(ys[1], 0), h)
        guard [x0, x1, y0, y1].allSatisfy({ $0 == $0.rounded() }) else { return false }
        let ix0 = Int(x0), ix1 = Int(x1), iy0 = Int(y0), iy1 = Int(y1)
        guard ix1 > ix0, iy1 > iy0 else { return true }
        for y in iy0..<iy1 {
            memset(surface.base + y * surface.bytesPerRow + ix0 * bpp, 0, (ix1 - ix0) * bpp)
        }
        return true
    }
}
