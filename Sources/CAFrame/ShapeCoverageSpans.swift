import CoreGraphics

/// A shape raster's coverage as runs of texels with equal fill and stroke coverage, rows top
/// first, texels without coverage left out (issue 23). A raster that changes every frame — a
/// Lottie layer scaling, 9squares' 18 thin rings — is mostly hole and margin: as dense RGBA8 it
/// was 816,000 texels a frame written, copied into the atlas page, scanned for runs and read
/// back where drawn, for some 27,000 texels a frame that draw anything. As runs it is the
/// texels that draw and nothing else. The CPU backend draws such a raster straight from its
/// runs where it maps onto the target one texel per pixel; anywhere else (rotation,
/// perspective, a clip, an additive blend) and on the GL backend it is expanded to the dense
/// texels it stands for (`denseCoverage()`), byte for byte.
package struct ShapeCoverageSpans: Sendable, Equatable {
    /// `count` texels from column `x` of a row, with fill coverage `fill` and stroke coverage
    /// `stroke` (0…255; not both 0). Defined beside the rasteriser that writes it
    /// (`CoverageRasterizer.takeResolvedSpans`).
    package typealias Run = CoverageSpanRun

    package var width: Int, height: Int
    /// Row y's runs are `runs[rowStarts[y]..<rowStarts[y + 1]]`, left to right, disjoint.
    package var rowStarts: [Int32]
    package var runs: [Run]

    /// The largest raster side runs can describe (columns and counts are 16-bit).
    package static let maximumSide = Int(UInt16.max)

    @inlinable package init(width: Int, height: Int, rowStarts: [Int32], runs: [Run]) {
        self.width = width; self.height = height; self.rowStarts = rowStarts; self.runs = runs
    }

    /// Whether the runs describe a raster: one start per row and one past the last, from 0 up
    /// to the run count without going back, each run inside the row. A backend draws only
    /// well-formed runs (a frame can come from elsewhere than the builder, as a test double's).
    package var isWellFormed: Bool {
        guard width >= 0, height >= 0, rowStarts.count == height + 1, rowStarts.first == 0,
              Int(rowStarts[height]) == runs.count else { return false }
        for y in 0..<height where rowStarts[y] > rowStarts[y + 1] { return false }
        for r in runs where Int(r.x) + Int(r.count) > width { return false }
        return true
    }

    /// The dense RGBA8 rows (top first) these runs stand for: R the fill coverage, G the
    /// stroke coverage, B and A 0 (all 0 for runs that are not well-formed).
    package func denseCoverage() -> [UInt8] {
        var out = [UInt8](repeating: 0, count: max(width, 0) * max(height, 0) * 4)
        guard isWellFormed else { return out }
        out.withUnsafeMutableBufferPointer { o in
            for y in 0..<height {
                for k in Int(rowStarts[y])..<Int(rowStarts[y + 1]) {
                    let r = runs[k]
                    let x0 = Int(r.x), x1 = min(x0 + Int(r.count), width)
                    guard x0 < x1 else { continue }
                    for x in x0..<x1 {
                        o[(y * width + x) * 4] = r.fill
                        o[(y * width + x) * 4 + 1] = r.stroke
                    }
                }
            }
        }
        return out
    }
}
