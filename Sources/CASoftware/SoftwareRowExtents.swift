/// Where an offscreen target holds anything: per row, the columns outside which every texel is
/// still the zero its clearing pass left (issue 23).
///
/// A masked Lottie layer is drawn into a target the size of its bounds and its mask into
/// another, and both are put back texel by texel (`SoftwareCompositePipeline.drawAligned`).
/// Most of those texels are zero (cactus: 84 % of the groups of four a frame), and reading them
/// (two targets of 720 KB a layer, a frame) was most of the composite's time, skipped or not.
/// The draws say which columns of each row they can have written; the composite reads only
/// those, where both the source and the mask can be non-zero. (Blocks of 64 columns, one bit
/// each, were tried instead: cactus's content is not sparse by blocks, and its instructions
/// went up 9 %.) The extents are upper bounds (a quad's whole width where a batch draws within its
/// quads, a shape's runs where it is drawn from them), so a texel outside them is zero; where a
/// pass cannot say (a blur, a filter, a copy, a batch of unknown reach), the rows are unknown
/// and read whole, as before.
extension SoftwareTarget {
    /// At a draw pass that clears the target (to zero): every row empty.
    func startRowExtents() {
        if rowExtentStorage == nil {
            rowExtentStorage = .allocate(capacity: height)
            ownsRowExtentStorage = true
        }
        let e = rowExtentStorage!
        e.initialize(repeating: SIMD2(Int32.max, Int32.min), count: height)
        setRowExtents(e)
    }

    /// After a pass that writes without saying where: nothing known.
    func forgetRowExtents() { setRowExtents(nil) }

    /// Columns `x0..<x1` of row `y` may have been written (only the band that draws row `y`
    /// notes it: no two threads touch one row).
    @inline(__always)
    func noteRow(_ y: Int, _ x0: Int, _ x1: Int) {
        guard let e = rowExtents, y >= 0, y < height, x0 < x1 else { return }
        let lo = Int32(clamping: max(x0, 0)), hi = Int32(clamping: min(x1, width))
        e[y] = SIMD2(min(e[y].x, lo), max(e[y].y, hi))
    }

    /// Row `y`'s columns that may be non-zero, within `lo..<hi` (empty: none).
    @inline(__always)
    func rowRange(_ y: Int, within lo: Int, _ hi: Int) -> Range<Int> {
        guard let e = rowExtents, y >= 0, y < height else { return lo..<max(lo, hi) }
        let a = max(lo, Int(e[y].x)), b = min(hi, Int(e[y].y))
        return a < b ? a..<b : lo..<lo
    }
}

extension SoftwareBatchWork {
    /// Notes in `target` (which keeps extents) the columns its draws in `rows` can have
    /// written: unknown here, so whole rows.
    func noteRowExtents(_ target: SoftwareTarget, _ rows: Range<Int>) {
        for y in rows { target.noteRow(y, 0, target.width) }
    }
}

extension SoftwareQuadBatch {
    /// Each quad's columns on the rows it covers (its draw stays inside its bounds).
    func noteRowExtents(_ target: SoftwareTarget, _ rows: Range<Int>) {
        noteQuadColumns(target, rows, quads.indices)
    }

    /// The columns of quads `ks` on the rows of `rows` they cover.
    func noteQuadColumns<S: Sequence<Int>>(_ target: SoftwareTarget, _ rows: Range<Int>, _ ks: S) {
        for k in ks {
            let q = quads[k]
            let ya = max(q.y0, rows.lowerBound), yb = min(q.y1, rows.upperBound)
            guard ya < yb, q.x0 < q.x1 else { continue }
            for y in ya..<yb { target.noteRow(y, q.x0, q.x1) }
        }
    }
}
