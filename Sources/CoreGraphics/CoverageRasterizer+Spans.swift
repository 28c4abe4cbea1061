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
    ///
    /// The walk is `forEachRun`'s, by the touched bits themselves rather than a search from each
    /// cell: a touched cell's run reaches the next touched cell (or the row's end), so each cell
    /// is summed, resolved and cleared in one visit, and a run is written when the next touched
    /// cell is found. There are at most as many runs as touched cells, so the output is
    /// allocated once to that count and written through a pointer (issue 23: this function was
    /// 15 % of a 9squares frame's CPU time, the search and the array's checks most of it).
    package mutating func takeResolvedSpans(evenOdd: Bool, stroke: Bool, rowStarts: inout [Int32], runs: inout [CoverageSpanRun]) {
        let w = width, h = height, wpr = wordsPerRow
        precondition(w <= Int(UInt16.max), "a grid too wide for 16-bit runs")
        let bound = touched.withUnsafeBufferPointer { t -> Int in
            var c = 0
            for k in 0..<(wpr * h) { c &+= t[k].nonzeroBitCount }
            return c
        }
        var starts = [Int32](repeating: 0, count: h + 1)
        runs = [CoverageSpanRun](unsafeUninitializedCapacity: bound) { out, count in
            var n = 0
            starts.withUnsafeMutableBufferPointer { st in
                for y in 0..<h {
                    st[y] = Int32(truncatingIfNeeded: n)
                    n = clearingRow(y) { cells, bits in
                        Self.spanRow(cells: cells, bits: bits, words: wpr, width: w, evenOdd: evenOdd, stroke: stroke,
                                     out: out.baseAddress!, count: n)
                    }
                }
                st[h] = Int32(truncatingIfNeeded: n)
            }
            count = n
        }
        rowStarts = starts
    }

    /// One row of `takeResolvedSpans`: its runs written at `out[count...]`, its cells and bits
    /// cleared; returns the new count.
    @inline(__always)
    private static func spanRow(cells: UnsafeMutablePointer<Float>, bits: UnsafeMutablePointer<UInt64>, words: Int, width w: Int,
                                evenOdd: Bool, stroke: Bool, out: UnsafeMutablePointer<CoverageSpanRun>, count: Int) -> Int {
        var n = count
        var sum: Float = 0
        // The last touched cell's run, waiting for the next touched cell to end it.
        var pending = -1
        var pendingValue: UInt8 = 0
        // The last run written in this row, which a following run of the same byte extends.
        var open = false
        @inline(__always) func emit(_ i: Int, _ e: Int, _ v: UInt8) {
            guard v != 0 else { return }
            if open, Int(out[n - 1].x) &+ Int(out[n - 1].count) == i, stroke ? out[n - 1].stroke == v : out[n - 1].fill == v {
                out[n - 1].count = UInt16(truncatingIfNeeded: e - Int(out[n - 1].x))
                return
            }
            out[n] = CoverageSpanRun(x: UInt16(truncatingIfNeeded: i), count: UInt16(truncatingIfNeeded: e - i),
                                     fill: stroke ? 0 : v, stroke: stroke ? v : 0)
            n &+= 1
            open = true
        }
        // (Cells past the grid, the two spare ones, are cleared but not resolved.)
        CoverageRasterizer.takeTouched(cells, bits, words: words, width: w) { i, c in
            if pending >= 0 { emit(pending, i, pendingValue) }
            sum += c
            pending = i
            pendingValue = UInt8(CoverageRasterizer.coverage(winding: sum, evenOdd: evenOdd) * 255 + 0.5)
        }
        if pending >= 0 { emit(pending, w, pendingValue) }
        return n
    }
}
