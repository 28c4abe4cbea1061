/// `count` texels from column `x` of a row, with fill coverage `fill` and stroke coverage
/// `stroke` (0…255; not both 0): a run of a shape raster as the CPU backend draws it
/// (`ShapeCoverageSpans.Run` in CAFrame), defined here so that the rasteriser writes it directly.
package struct CoverageSpanRun: Sendable, Equatable {
    package var x: UInt16, count: UInt16
    package var fill: UInt8, stroke: UInt8

    @inlinable package init(x: UInt16, count: UInt16, fill: UInt8, stroke: UInt8) {
        self.x = x; self.count = count; self.fill = fill; self.stroke = stroke
    }
}

extension CoverageRasterizer {
    /// `takeResolvedRuns(evenOdd:rowStarts:runs:)` written straight as one channel's runs (fill
    /// bytes, or `stroke` bytes; the other 0) over the whole grid, which must be at most 65,535
    /// texels wide: the same bytes, neighbours of one byte joined, without the intermediate runs
    /// and the merge that converted them (issue 23: 5 % of a 9squares frame on the CPU backend).
    /// Takes every row, leaving the rasteriser clear.
    package mutating func takeResolvedSpans(evenOdd: Bool, stroke: Bool, rowStarts: inout [Int32], runs: inout [CoverageSpanRun]) {
        let w = width, h = height
        precondition(w <= Int(UInt16.max), "a grid too wide for 16-bit runs")
        rowStarts.removeAll(keepingCapacity: true)
        runs.removeAll(keepingCapacity: true)
        rowStarts.reserveCapacity(h + 1)
        runs.reserveCapacity(h * 8)
        for y in 0..<h {
            rowStarts.append(Int32(truncatingIfNeeded: runs.count))
            // The row's last run, kept out of the array until the next one cannot join it.
            var open = false, start = 0, end = 0
            var value: UInt8 = 0
            takeRow(y) { a, bits in
                Self.forEachRun(a, bits, width: w, evenOdd: evenOdd) { i, e, c in
                    let v = UInt8(c * 255 + 0.5)
                    guard v != 0 else { return }
                    if open, end == i, value == v {
                        end = e
                        return
                    }
                    if open {
                        runs.append(CoverageSpanRun(x: UInt16(truncatingIfNeeded: start), count: UInt16(truncatingIfNeeded: end - start),
                                                    fill: stroke ? 0 : value, stroke: stroke ? value : 0))
                    }
                    open = true
                    start = i; end = e; value = v
                }
            }
            if open {
                runs.append(CoverageSpanRun(x: UInt16(truncatingIfNeeded: start), count: UInt16(truncatingIfNeeded: end - start),
                                            fill: stroke ? 0 : value, stroke: stroke ? value : 0))
            }
        }
        rowStarts.append(Int32(truncatingIfNeeded: runs.count))
    }
}
