/// The octagon a shape's quad is drawn as (issue 6, fill rate): the raster is cropped to the
/// texels it covers, and its corners are cut along the four diagonal lines that touch the
/// covered texels. A software rasteriser shades and blends every pixel of the quad, covered or
/// not; for the benchmark's stars the octagon is about 80 % of the bounding box.
///
/// The octagon contains every covered texel's whole square, so every pixel with coverage is
/// still shaded (its centre lies inside). With the rectangle tight, each cut line meets the
/// rectangle's edges in order, so the eight corners (`shape.vert`) form a convex polygon.
extension ShapeRaster {
    /// Crops to the covered texels, `margin` texels of empty border kept where the raster has
    /// them (bilinear sampling under perspective fades coverage over half a texel beyond the
    /// last covered one). Sets `hull`. Returns false when no texel is covered.
    mutating func cropToCoverage(margin: Int) -> Bool {
        var minX = Int.max, maxX = -1, minY = Int.max, maxY = -1
        var minSum = Int.max, maxSum = Int.min, minDiff = Int.max, maxDiff = Int.min
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
                // Corners of the covered squares [x, x+1] × [y, y+1] on this row.
                minSum = min(minSum, first + y); maxSum = max(maxSum, last + y + 2)
                minDiff = min(minDiff, first - y - 1); maxDiff = max(maxDiff, last + 1 - y)
            }
        }
        guard maxX >= 0 else { return false }
        let x0 = max(minX - margin, 0), y0 = max(minY - margin, 0)
        let x1 = min(maxX + 1 + margin, width), y1 = min(maxY + 1 + margin, height)
        let w = x1 - x0, h = y1 - y0
        // Cut lines in the cropped raster's coordinates, moved out by the margin (a margin m in
        // x and y moves x ± y by 2m).
        let m = Float(2 * margin)
        let ox = Float(x0), oy = Float(y0)
        hull = SIMD4(Float(minSum) - ox - oy - m, Float(maxSum) - ox - oy + m,
                     Float(minDiff) - ox + oy - m, Float(maxDiff) - ox + oy + m)
        guard w != width || h != height else { return true }
        coverage = Self.crop(coverage, width: width, x0: x0, y0: y0, w: w, h: h)
        if !aux.isEmpty { aux = Self.crop(aux, width: width, x0: x0, y0: y0, w: w, h: h) }
        if !field.isEmpty { field = Self.crop(field, width: width, x0: x0, y0: y0, w: w, h: h) }
        originX += x0; originY += y0
        width = w; height = h
        return true
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
