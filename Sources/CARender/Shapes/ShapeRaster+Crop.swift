/// Rasters are cropped to the texels they cover (issue 6, fill rate): a software rasteriser
/// shades and blends every pixel of a shape's quad, covered or not, and the bounds a raster is
/// made with are grown by the stroke's reach (miters, square caps) plus a margin. Cropping also
/// packs more shapes into each atlas page, so fewer pages split the draws into batches.
///
/// (Drawing an octagon around the covered texels instead of the quad was tried: it covers about
/// 18 % fewer pixels of the benchmark's stars, but llvmpipe shades the 4×4 blocks along each of
/// its five inner diagonals once per triangle, which ate the gain.)
extension ShapeRaster {
    /// Crops to the covered texels, `margin` texels of empty border kept where the raster has
    /// them (bilinear sampling under perspective fades coverage over half a texel beyond the
    /// last covered one). A raster covering nothing is kept as it is (cached like any other,
    /// so a shape that draws nothing is not rasterised again every frame).
    mutating func cropToCoverage(margin: Int) {
        var minX = Int.max, maxX = -1, minY = Int.max, maxY = -1
        coverage.withUnsafeBufferPointer { c in
            for y in 0..<height {
                var first = -1, last = -1
                let row = y * width * 4
                for x in 0..<width where c[row + 4 * x] != 0 || c[row + 4 * x + 1] != 0 {
                    if first < 0 { first = x }
                    last = x
                }
                guard first >= 0 else { continue }
                minX = min(minX, first); maxX = max(maxX, last)
                minY = min(minY, y); maxY = y
            }
        }
        guard maxX >= 0 else { return }
        crop(toCovered: (minX, minY, maxX + 1, maxY + 1), margin: margin)
    }

    /// `cropToCoverage(margin:)` when the texels with fill or stroke coverage are known already
    /// (`covered`: x0, y0, x1, y1, one past the last; nil when there are none): the span
    /// resolve (`CoverageRasterizer.takeResolved`) reports them as it writes, so no scan of
    /// every texel is needed. The same crop as the scan finds.
    mutating func crop(toCovered covered: (x0: Int, y0: Int, x1: Int, y1: Int)?, margin: Int) {
        guard let b = covered else { return }
        let x0 = max(b.x0 - margin, 0), y0 = max(b.y0 - margin, 0)
        let x1 = min(b.x1 + margin, width), y1 = min(b.y1 + margin, height)
        let w = x1 - x0, h = y1 - y0
        guard w != width || h != height else { return }
        coverage = Self.crop(coverage, width: width, x0: x0, y0: y0, w: w, h: h)
        if !aux.isEmpty { aux = Self.crop(aux, width: width, x0: x0, y0: y0, w: w, h: h) }
        if !field.isEmpty { field = Self.crop(field, width: width, x0: x0, y0: y0, w: w, h: h) }
        originX += x0; originY += y0
        width = w; height = h
    }

    /// Rows `y0..<y0+h`, columns `x0..<x0+w` of a 4-channel raster `width` texels wide.
    static func crop<T>(_ a: [T], width: Int, x0: Int, y0: Int, w: Int, h: Int) -> [T] {
        var out: [T] = []
        out.reserveCapacity(w * h * 4)
        for y in y0..<(y0 + h) {
            let start = (y * width + x0) * 4
            out.append(contentsOf: a[start..<(start + w * 4)])
        }
        return out
    }
}
