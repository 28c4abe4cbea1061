/// Texels of a band that a later instance of the same batch paints opaquely (issue 22: the
/// 200 overlapping opaque gradients of the gradients scene computed every texel of every layer,
/// about twice the frame, though half of them were overwritten by a later layer).
///
/// Source-over of a texel whose alpha byte is 255 stores it whatever the target held
/// (`SoftwareSpanBlend`: D·0 added), so anything an earlier instance of the batch writes there
/// is replaced: an instance may skip the texels that the instances after it paint opaquely,
/// and the frame's bytes stay the same. Per band, the instances meeting it are walked from the
/// last to the first; each row keeps the union of the opaque intervals seen so far (up to
/// `SoftwareHiddenSpans.capacity` of them, the narrowest dropped when more would be needed:
/// hiding less is always correct), and each instance's rows take a copy of it before its own
/// opaque interval is added.
struct SoftwareOcclusion {
    /// Bands meeting more instances than this draw without (their hidden sets would pass
    /// 12 MB over a stripe of 32 rows).
    static let maximumCandidates = 8_192
    private var spans: [SoftwareHiddenSpans] = []
    /// Per candidate position: its first row in the band, its row count, and where its rows'
    /// spans start in `spans`.
    private var firstRow: [Int] = [], rowCount: [Int] = [], start: [Int] = []

    /// `candidates`: the instances that may meet `band`, in paint order; `rows(k)`: the rows
    /// instance k may paint; `opaque(k, y)`: the texels x in a..<b of row y that instance k
    /// paints with alpha 255 (nil or an empty interval for none).
    init(candidates: [Int], band: Range<Int>, rows: (Int) -> Range<Int>, opaque: (Int, Int) -> (Int, Int)?) {
        let n = candidates.count
        firstRow = [Int](repeating: 0, count: n)
        rowCount = [Int](repeating: 0, count: n)
        start = [Int](repeating: 0, count: n)
        var total = 0
        for p in 0..<n {
            let r = rows(candidates[p]).clamped(to: band)
            firstRow[p] = r.lowerBound; rowCount[p] = r.count; start[p] = total
            total += r.count
        }
        spans = [SoftwareHiddenSpans](repeating: SoftwareHiddenSpans(), count: total)
        var union = [SoftwareHiddenSpans](repeating: SoftwareHiddenSpans(), count: band.count)
        for p in Swift.stride(from: n - 1, through: 0, by: -1) {
            let k = candidates[p], y0 = firstRow[p]
            for y in y0..<(y0 + rowCount[p]) {
                let u = y - band.lowerBound
                spans[start[p] + y - y0] = union[u]
                if let (a, b) = opaque(k, y) { union[u].insert(a, b) }
            }
        }
    }

    /// The texels of row `y` that instances after the candidate at `position` paint opaquely.
    @inline(__always) func hidden(position p: Int, row y: Int) -> SoftwareHiddenSpans {
        let r = y - firstRow[p]
        guard r >= 0, r < rowCount[p] else { return SoftwareHiddenSpans() }
        return spans[start[p] + r]
    }
}

/// What one instance may skip in each row of a band: its share of the band's occlusion.
struct SoftwareRowHiding {
    var occlusion: SoftwareOcclusion?
    /// The instance's position in the band's candidate list.
    var position = 0

    static let none = SoftwareRowHiding()

    /// The texels of row `y` the instance may skip.
    @inline(__always) func at(_ y: Int) -> SoftwareHiddenSpans {
        occlusion?.hidden(position: position, row: y) ?? SoftwareHiddenSpans()
    }
}

/// Up to four disjoint intervals of a row's texels, ascending, none touching another.
struct SoftwareHiddenSpans {
    static let capacity = 4
    private(set) var lo = SIMD4<Int32>(repeating: 0), hi = SIMD4<Int32>(repeating: 0)
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }

    /// Adds texels a..<b, merged with every interval it overlaps or touches; when that leaves
    /// more intervals than `capacity`, the narrowest is dropped.
    mutating func insert(_ a0: Int, _ b0: Int) {
        guard a0 < b0 else { return }
        var a = Int32(clamping: a0), b = Int32(clamping: b0)
        var nl = SIMD8<Int32>(repeating: 0), nh = SIMD8<Int32>(repeating: 0)
        var n = 0, placed = false
        for k in 0..<count {
            let l = lo[k], h = hi[k]
            if h < a {
                nl[n] = l; nh[n] = h; n += 1
            } else if l > b {
                if !placed { nl[n] = a; nh[n] = b; n += 1; placed = true }
                nl[n] = l; nh[n] = h; n += 1
            } else {
                a = min(a, l); b = max(b, h)
            }
        }
        if !placed { nl[n] = a; nh[n] = b; n += 1 }
        if n > Self.capacity {
            var narrowest = 0
            for k in 1..<n where nh[k] - nl[k] < nh[narrowest] - nl[narrowest] { narrowest = k }
            for k in narrowest..<(n - 1) { nl[k] = nl[k + 1]; nh[k] = nh[k + 1] }
            n -= 1
        }
        for k in 0..<n { lo[k] = nl[k]; hi[k] = nh[k] }
        count = n
    }

    /// Calls `body(x0, x1)` for each piece of a..<b outside the intervals, ascending.
    @inline(__always) func forEachVisible(_ a: Int, _ b: Int, _ body: (Int, Int) -> Void) {
        var x = a
        for k in 0..<count {
            let l = Int(lo[k]), h = Int(hi[k])
            if h <= x { continue }
            if l >= b { break }
            if l > x { body(x, l) }
            x = h
            if x >= b { return }
        }
        if x < b { body(x, b) }
    }
}
