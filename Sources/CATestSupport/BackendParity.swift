/// Pixel-by-pixel comparison of two renders of the same frame (issue 22: the CPU backend
/// against the GL backend). The brief's bar is ≤ 2/255 per channel on ≥ 99.5 % of the pixels;
/// the result keeps enough to say where and by how much two images differ.
package struct BackendParity: Sendable, CustomStringConvertible {
    /// Pixels compared.
    package var pixels = 0
    /// Pixels whose every channel is within the tolerance.
    package var within = 0
    /// The largest channel difference anywhere.
    package var maxDifference = 0
    /// The first pixel beyond the tolerance (x, y), if any.
    package var firstOutlier: (x: Int, y: Int)?
    package var tolerance = 2

    /// Share of pixels within the tolerance (1 for an empty image).
    package var fractionWithin: Double { pixels == 0 ? 1 : Double(within) / Double(pixels) }

    /// Compares premultiplied RGBA8 buffers of `width`×`height` (row 0 first); sizes that
    /// differ compare as nothing within.
    package init(_ a: [UInt8], _ b: [UInt8], width: Int, tolerance: Int = 2) {
        self.tolerance = tolerance
        guard a.count == b.count, width > 0 else { pixels = max(a.count, b.count) / 4; return }
        pixels = a.count / 4
        a.withUnsafeBufferPointer { pa in
            b.withUnsafeBufferPointer { pb in
                for p in 0..<pixels {
                    var m = 0
                    for c in 0..<4 { m = max(m, abs(Int(pa[p * 4 + c]) - Int(pb[p * 4 + c]))) }
                    maxDifference = max(maxDifference, m)
                    if m <= tolerance { within += 1 } else if firstOutlier == nil { firstOutlier = (p % width, p / width) }
                }
            }
        }
    }

    /// True when at least `fraction` of the pixels are within the tolerance.
    package func passes(fraction: Double = 0.995) -> Bool { fractionWithin >= fraction }

    package var description: String {
        let pct = (fractionWithin * 10000).rounded() / 100
        return "\(pct)% of \(pixels) pixels within \(tolerance)/255, max difference \(maxDifference)"
            + (firstOutlier.map { " (first outlier at \($0.x), \($0.y))" } ?? "")
    }
}
