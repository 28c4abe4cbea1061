import CCoverage

/// Exact-area coverage of polygons on a pixel grid, by signed-area accumulation: every edge adds,
/// to the cells of each row it crosses, the part of its height that lies to the right of it
/// within the cell (and the rest to the next cell), so that a running sum along the row gives
/// each pixel's winding number integrated over its area. Resolving that sum with the non-zero
/// rule (`min(1, |w|)`) or the even-odd rule (distance of `w` to the nearest even integer)
/// gives antialiased coverage with no sampling pattern: the same quality on every edge, at any
/// angle, as Core Graphics' area coverage (CAShapeLayer is "drawn antialiased", docs/BEHAVIOUR.md N3).
///
/// Where two edges cross inside one pixel the sum is the integral of the winding number,
/// which the rules then clamp: the usual approximation of area rasterisers.
///
/// Coordinates are texel units: pixel (i, j) covers [i, i+1) × [j, j+1). Geometry outside the
/// grid is handled exactly for what lies inside (x is clamped to the grid per row, which keeps
/// the winding that edges left of the grid contribute), and coordinates are limited to
/// ±10⁷ first (`coordinateLimit` in CCoverage's EdgeAccumulation.c) so absurd input (1e30)
/// stays finite.
///
/// It lives in CoreGraphics (`package`) so that CARender's layer shapes and `CGContext`'s drawn
/// content are antialiased by one and the same code (issue 19: "layer shapes and drawn content
/// must antialias identically").
///
/// The grid is the caller's box (a path's device bounds cut to the clip, a shape's texel box),
/// not the whole target; and every cell an edge writes is marked in `touched` (one bit a cell,
/// `wordsPerRow` 64-bit words a row), so a span walk finds the next cell that can change the
/// running sum with one bit scan per 64 cells instead of a comparison per cell (the inside of a
/// shape and the hole of a ring cost nothing per pixel), and `takeRow(_:)` clears exactly the
/// cells it hands out. A `CGContext` keeps one rasteriser and `reset(width:height:)`s it per path
/// (issue 19's drawing speed: a fresh zeroed buffer per path was most of a small path's cost).
package struct CoverageRasterizer: Sendable {
    package private(set) var width: Int
    package private(set) var height: Int
    /// Row stride: two spare cells on the right receive what edges at x = width leave over.
    package private(set) var stride: Int
    package private(set) var acc: [Float]
    /// One bit per cell of `acc` (bit `i & 63` of word `row * wordsPerRow + i >> 6`): set where
    /// an edge has added to the cell since it was last cleared.
    package private(set) var touched: [UInt64]
    package private(set) var wordsPerRow: Int
    /// The work done so far: one per row an edge crosses plus the cells it crosses along the
    /// row. Time is proportional to it, whatever the shape, so a caller bounds time by bounding
    /// it (the renderer's frame work budget, `ShapeCache.frameWorkBudget`; issue 17).
    package private(set) var work = 0
    /// Past this much `work`, further edges are ignored and `isOverWorkLimit` says the result is
    /// incomplete. No limit by default (a `CGContext` draws whatever its caller asks).
    package var workLimit = Int.max
    package var isOverWorkLimit: Bool { work > workLimit }
    /// Whether vertical edges' whole rows are held back from the cells (`ca_edge_sink`'s
    /// `written`): only for the consumers that read them, the solid walk (`CGContext`'s
    /// `fillSolidSpans`) and `takeResolvedCoverage` (`CGContext`'s coverage masks: clips and
    /// the general painters), which ask for it (`holdsVerticalRunsAfterReset`) before their
    /// edges are added and take the rows with `clearingRows(holding:)`. Everything else reads
    /// cells, so it is off by default and after each walk.
    package private(set) var holdsVerticalRuns = false
    /// What the next `reset(width:height:)` sets `holdsVerticalRuns` to.
    package var holdsVerticalRunsAfterReset = false
    /// The held-back runs (`CA_VERTICAL_ROOM` of room) and how many there are.
    private var verticalRuns: [ca_vertical_run] = []
    private var verticalCount = 0
    /// One byte a row: set where the row's cells are written (all 0 when the grid is clear).
    private var written: [UInt8] = []

    package init(width: Int, height: Int) {
        self.width = width
        self.height = height
        stride = width + 2
        wordsPerRow = (width + 2 + 63) >> 6
        acc = [Float](repeating: 0, count: stride * height)
        touched = [UInt64](repeating: 0, count: wordsPerRow * height)
    }

    package mutating func clear() {
        acc.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
        touched.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
    }

    /// Makes this an empty `width` × `height` grid, reusing the storage when it is large
    /// enough. Every cell must already be clear (a fresh rasteriser, or one whose rows were all
    /// taken with `takeRow(_:)` or `clear()`ed); only the work count restarts, and vertical runs
    /// are held back from here on as `holdsVerticalRunsAfterReset` says.
    package mutating func reset(width: Int, height: Int) {
        let s = width + 2, wpr = (width + 2 + 63) >> 6
        if s * height > acc.count { acc = [Float](repeating: 0, count: s * height) }
        if wpr * height > touched.count { touched = [UInt64](repeating: 0, count: wpr * height) }
        self.width = width
        self.height = height
        stride = s
        wordsPerRow = wpr
        work = 0
        workLimit = .max
        holdsVerticalRuns = holdsVerticalRunsAfterReset
        verticalCount = 0
        if holdsVerticalRuns {
            if written.count < height { written = [UInt8](repeating: 0, count: height) }
            if verticalRuns.isEmpty { verticalRuns = [ca_vertical_run](repeating: ca_vertical_run(), count: Int(CA_VERTICAL_ROOM)) }
        }
    }

    /// Hands row `y`'s cells (`stride` of them) and touched bits (`wordsPerRow` words) to
    /// `body`, then clears both, so the rasteriser is ready for `reset(width:height:)` once every
    /// row has been taken. `body` sees only cells its bits mark as possibly non-zero.
    @inline(__always)
    package mutating func takeRow<R>(_ y: Int, _ body: (UnsafeMutablePointer<Float>, UnsafeMutablePointer<UInt64>) -> R) -> R {
        let wpr = wordsPerRow
        return clearingRow(y) { cells, bits in
            let r = body(cells, bits)
            for k in 0..<wpr {
                var b = bits[k]
                while b != 0 {
                    cells[k << 6 | b.trailingZeroBitCount] = 0
                    b &= b &- 1
                }
                bits[k] = 0
            }
            return r
        }
    }

    /// Hands row `y`'s cells and touched bits to `body`, which must leave every one of them 0
    /// (`takeRow(_:)` without its clearing pass, for a walk that clears each cell as it reads it).
    @inline(__always)
    package mutating func clearingRow<R>(_ y: Int, _ body: (UnsafeMutablePointer<Float>, UnsafeMutablePointer<UInt64>) -> R) -> R {
        precondition(!holdsVerticalRuns, "a rasteriser holding vertical runs back is read with clearingRows(holding:)")
        let s = stride, wpr = wordsPerRow
        return acc.withUnsafeMutableBufferPointer { a in
            touched.withUnsafeMutableBufferPointer { t in body(a.baseAddress! + y * s, t.baseAddress! + y * wpr) }
        }
    }

    /// Hands the whole grid's cells and touched bits to `body` (row j's cells from
    /// `j · stride`, its bits from `j · wordsPerRow`), which must leave every one of them 0, as
    /// the C solid walk does row by row: one buffer access a path instead of one a row.
    @inline(__always)
    package mutating func clearingRows<R>(_ body: (UnsafeMutablePointer<Float>, UnsafeMutablePointer<UInt64>) -> R) -> R {
        precondition(!holdsVerticalRuns, "a rasteriser holding vertical runs back is read with clearingRows(holding:)")
        return acc.withUnsafeMutableBufferPointer { a in
            touched.withUnsafeMutableBufferPointer { t in body(a.baseAddress!, t.baseAddress!) }
        }
    }

    /// `clearingRows(_:)` for a rasteriser that may hold vertical runs back: `body` also gets
    /// the rows' `written` bytes (nil when nothing is held back) and the held-back runs, and
    /// must leave every written byte 0 as well (the C solid walk does). The runs are let go
    /// after it.
    @inline(__always)
    package mutating func clearingRows<R>(holding body: (UnsafeMutablePointer<Float>, UnsafeMutablePointer<UInt64>,
                                                         UnsafeMutablePointer<UInt8>?, UnsafePointer<ca_vertical_run>?, Int) -> R) -> R {
        defer { holdsVerticalRuns = false; verticalCount = 0 }
        let (holding, count) = (holdsVerticalRuns, verticalCount)
        return acc.withUnsafeMutableBufferPointer { a in
            touched.withUnsafeMutableBufferPointer { t in
                written.withUnsafeMutableBufferPointer { rows in
                    verticalRuns.withUnsafeBufferPointer { runs in
                        holding ? body(a.baseAddress!, t.baseAddress!, rows.baseAddress!, runs.baseAddress!, count)
                                : body(a.baseAddress!, t.baseAddress!, nil, nil, 0)
                    }
                }
            }
        }
    }

    /// Adds one edge from (x0, y0) to (x1, y1). Edges going down (y increasing) add winding +1
    /// to their right.
    package mutating func addLine(_ x0: Double, _ y0: Double, _ x1: Double, _ y1: Double) {
        withEdgeSink { ca_edge_add_line($0, x0, y0, x1, y1) }
    }

    /// Adds closed polygons from one flat point array: polygon k is
    /// `points[ends[k - 1]..<ends[k]]` (the first starts at 0), each point less `origin`, every
    /// polygon's last vertex joined to its first. The same edges, in the same order, as
    /// `addLine` on each, with the buffers taken once (issue 19: a path's edges were a tenth of
    /// the 10k-rect frame, much of it per-call overhead). `bounds`, when given, holds every
    /// point (all finite): within the writer's coordinate limit the edges skip their checks.
    package mutating func addPolygons(_ points: [SIMD2<Double>], ends: ArraySlice<Int>, origin: SIMD2<Double>,
                                      bounds: (lo: SIMD2<Double>, hi: SIMD2<Double>)? = nil) {
        if holdsVerticalRuns, work == 0, verticalCount == 0 {
            // Holding runs back costs every other edge a check a row; a path with no vertical
            // edge a row tall (a star, a curve's outline) gains nothing for it.
            let useful = points.withUnsafeBufferPointer { pts in
                ends.withUnsafeBufferPointer { e in
                    UnsafeRawPointer(pts.baseAddress!).withMemoryRebound(to: Double.self, capacity: 2 * pts.count) {
                        ca_polygons_cross_rows_vertically($0, e.baseAddress, e.count) != 0
                    }
                }
            }
            if !useful { holdsVerticalRuns = false }
        }
        withEdgeSink { sink in
            points.withUnsafeBufferPointer { pts in
                ends.withUnsafeBufferPointer { e in
                    UnsafeRawPointer(pts.baseAddress!).withMemoryRebound(to: Double.self, capacity: 2 * pts.count) { xy in
                        guard let bounds else {
                            return ca_edge_add_polygons(sink, xy, e.baseAddress, e.count, origin.x, origin.y, nil, nil)
                        }
                        var lo = bounds.lo, hi = bounds.hi
                        withUnsafePointer(to: &lo) { l in
                            withUnsafePointer(to: &hi) { h in
                                l.withMemoryRebound(to: Double.self, capacity: 2) { lp in
                                    h.withMemoryRebound(to: Double.self, capacity: 2) { hp in
                                        ca_edge_add_polygons(sink, xy, e.baseAddress, e.count, origin.x, origin.y, lp, hp)
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }

    /// Runs `body` with the edge writer (`CCoverage`'s `ca_edge_sink`) on this rasteriser's
    /// cells and bits, then keeps its work count. The edge arithmetic is C (CCoverage.h): the
    /// same operations the Swift writer did (issue 19: the 10,000-rect frame's edges 1.44 G →
    /// 1.16 G instructions, the frame 177 → 163 ms).
    @inline(__always)
    private mutating func withEdgeSink(_ body: (UnsafeMutablePointer<ca_edge_sink>) -> Void) {
        let (w, h, s, wpr, limit) = (width, height, stride, wordsPerRow, workLimit)
        let holding = holdsVerticalRuns
        var done = work, count = verticalCount
        acc.withUnsafeMutableBufferPointer { buf in
            touched.withUnsafeMutableBufferPointer { bits in
                written.withUnsafeMutableBufferPointer { rows in
                    verticalRuns.withUnsafeMutableBufferPointer { runs in
                        var sink = ca_edge_sink(cells: buf.baseAddress!, bits: bits.baseAddress!, width: w, height: h,
                                                stride: s, words: wpr, work: done, workLimit: limit,
                                                written: holding ? rows.baseAddress : nil,
                                                verticals: holding ? runs.baseAddress : nil,
                                                verticalCount: count, verticalRoom: holding ? runs.count : 0)
                        body(&sink)
                        done = sink.work
                        count = sink.verticalCount
                    }
                }
            }
        }
        work = done
        verticalCount = count
    }

    /// Adds a closed polygon (the last vertex joins the first).
    package mutating func addPolygon(_ pts: [SIMD2<Double>]) {
        guard pts.count >= 3 else { return }
        pts.withUnsafeBufferPointer { addClosed($0, reversed: false) }
    }

    /// Adds a closed polygon wound so that its signed area is positive: a union of such pieces
    /// resolves with the non-zero rule to exactly the union (the stroker's pieces).
    package mutating func addPositivePolygon(_ pts: [SIMD2<Double>]) {
        guard pts.count >= 3 else { return }
        pts.withUnsafeBufferPointer { addPositive($0) }
    }

    /// The same from a buffer (a stroker's disc, made without an array).
    package mutating func addPositivePolygon(_ pts: UnsafeBufferPointer<SIMD2<Double>>) {
        guard pts.count >= 3 else { return }
        addPositive(pts)
    }

    /// The ring between two closed loops, `inner` inside `outer`: winding 1 between them and 0
    /// inside `inner`, whichever way each is given (the one of larger area is added wound
    /// positively, the other negatively). Nothing when either area is zero or not finite.
    package mutating func addRing(_ outer: [SIMD2<Double>], _ inner: [SIMD2<Double>]) {
        guard outer.count >= 3, inner.count >= 3 else { return }
        func area(_ pts: UnsafeBufferPointer<SIMD2<Double>>) -> Double {
            var a = 0.0
            var prev = pts[pts.count - 1]
            for p in pts { a += prev.x * p.y - p.x * prev.y; prev = p }
            return a
        }
        outer.withUnsafeBufferPointer { o in
            inner.withUnsafeBufferPointer { i in
                let ao = area(o), ai = area(i)
                guard ao.isFinite, ai.isFinite, ao != 0, ai != 0 else { return }
                let (big, bigArea, small, smallArea) = abs(ao) >= abs(ai) ? (o, ao, i, ai) : (i, ai, o, ao)
                addClosed(big, reversed: bigArea < 0)
                addClosed(small, reversed: smallArea > 0)
            }
        }
    }

    /// `addPositivePolygon` of the quadrilateral a, b, c, d, without an array (a stroke adds one
    /// per segment, and the arrays were a large part of stroking a flattened curve).
    package mutating func addPositiveQuad(_ a: SIMD2<Double>, _ b: SIMD2<Double>, _ c: SIMD2<Double>, _ d: SIMD2<Double>) {
        withUnsafeTemporaryAllocation(of: SIMD2<Double>.self, capacity: 4) { buf in
            buf[0] = a; buf[1] = b; buf[2] = c; buf[3] = d
            addPositive(UnsafeBufferPointer(buf))
        }
    }

    /// `addPositivePolygon` of the triangle a, b, c, without an array.
    package mutating func addPositiveTriangle(_ a: SIMD2<Double>, _ b: SIMD2<Double>, _ c: SIMD2<Double>) {
        withUnsafeTemporaryAllocation(of: SIMD2<Double>.self, capacity: 3) { buf in
            buf[0] = a; buf[1] = b; buf[2] = c
            addPositive(UnsafeBufferPointer(buf))
        }
    }

    /// The polygon in `pts` (at least 3 vertices) in the order that makes its area positive;
    /// nothing for a zero or non-finite area.
    private mutating func addPositive(_ pts: UnsafeBufferPointer<SIMD2<Double>>) {
        var area = 0.0
        var prev = pts[pts.count - 1]
        for p in pts { area += prev.x * p.y - p.x * prev.y; prev = p }
        guard area.isFinite, area != 0 else { return }
        addClosed(pts, reversed: area < 0)
    }

    /// The edges of the closed polygon `pts`, every vertex joined to the next and the last to
    /// the first (`reversed`: the same polygon walked the other way, the edges `addPolygon` of
    /// the reversed array adds, in its order), through one edge sink.
    private mutating func addClosed(_ pts: UnsafeBufferPointer<SIMD2<Double>>, reversed: Bool) {
        withEdgeSink { sink in
            UnsafeRawPointer(pts.baseAddress!).withMemoryRebound(to: Double.self, capacity: 2 * pts.count) { xy in
                ca_edge_add_closed(sink, xy, pts.count, reversed ? 1 : 0)
            }
        }
    }

    /// A pixel's coverage from its integrated winding number: non-zero clamps |w| to 1, even-odd
    /// takes the distance of |w| to the nearest even integer, and a sum within 2⁻¹² of full is
    /// full (float noise). The one rule every resolver uses: CCoverage's `ca_coverage_of_winding`,
    /// which the C walks inline too, so the rule is written once.
    @inline(__always)
    static func coverage(winding sum: Float, evenOdd: Bool) -> Float {
        ca_coverage_of_winding(sum, evenOdd ? 1 : 0)
    }

    /// `CA_FULL_COVERAGE_SLACK` (CCoverage.h): a running sum within 2⁻¹² of 1 is coverage 1.
    package static let fullCoverageSlack: Float = CA_FULL_COVERAGE_SLACK

    /// Writes the coverage, 0…255, into every `channels`-th byte of `out` starting at `channel`
    /// (out has width × height × channels bytes, rows top first).
    package func resolve(evenOdd: Bool, into out: inout [UInt8], channels: Int, channel: Int) {
        let w = width, s = stride
        acc.withUnsafeBufferPointer { a in
            out.withUnsafeMutableBufferPointer { o in
                for y in 0..<height {
                    var sum: Float = 0
                    let base = y * s
                    var oi = y * w * channels + channel
                    for x in 0..<w {
                        sum += a[base + x]
                        o[oi] = UInt8(Self.coverage(winding: sum, evenOdd: evenOdd) * 255 + 0.5)
                        oi += channels
                    }
                }
            }
        }
    }

    /// `resolve(evenOdd:into:channels:channel:)` walked over the touched cells only, taking
    /// every row (`takeRow(_:)`), so the rasteriser is left clear for `reset(width:height:)`.
    /// Between two touched cells the running sum does not change (an untouched cell is 0), so
    /// each run gets the byte the dense walk gives every texel of it: the same sums, in the
    /// same order, the same rounding. Bytes of runs whose coverage rounds to 0 are not written:
    /// `out` must hold 0 there already (a fresh buffer). The hole of a ring and the inside of a
    /// shape cost one run each instead of a pass per texel (issue 23: a stroked ring's raster
    /// is mostly hole).
    ///
    /// Returns the texels given non-zero coverage as a box (x0, y0, x1, y1; x1 and y1 one past
    /// the last), nil when none: the crop a caller would otherwise find by scanning `out`.
    package mutating func takeResolved(evenOdd: Bool, into out: inout [UInt8], channels: Int,
                                       channel: Int) -> (x0: Int, y0: Int, x1: Int, y1: Int)? {
        let w = width, h = height
        precondition(out.count >= w * h * channels && channel < channels, "output smaller than the grid")
        var minX = Int.max, maxX = -1, minY = Int.max, maxY = -1
        out.withUnsafeMutableBufferPointer { o in
            let base = o.baseAddress!
            for y in 0..<h {
                let row = base + y * w * channels + channel
                let (first, last) = takeRow(y) { a, bits -> (Int, Int) in
                    var first = -1, last = -1
                    Self.forEachRun(a, bits, width: w, evenOdd: evenOdd) { i, e, c in
                        let v = UInt8(c * 255 + 0.5)
                        if v != 0 {
                            var p = row + i * channels
                            for _ in i..<e { p.pointee = v; p += channels }
                            if first < 0 { first = i }
                            last = e - 1
                        }
                    }
                    return (first, last)
                }
                guard first >= 0 else { continue }
                minX = min(minX, first); maxX = max(maxX, last)
                minY = min(minY, y); maxY = y
            }
        }
        return maxX >= 0 ? (minX, minY, maxX + 1, maxY + 1) : nil
    }

    /// `takeResolved(evenOdd:into:channels:channel:)` as runs instead of bytes: for every row,
    /// the runs of texels whose coverage byte (the same `UInt8(c · 255 + 0.5)`) is not 0, as
    /// (first, end, byte), neighbouring runs of one byte joined; row y's are
    /// `runs[rowStarts[y]..<rowStarts[y + 1]]`. Takes every row, leaving the rasteriser clear.
    /// Returns the box of the texels given coverage, as `takeResolved` does.
    package mutating func takeResolvedRuns(evenOdd: Bool, rowStarts: inout [Int32],
                                           runs: inout [(x0: Int32, x1: Int32, value: UInt8)]) -> (x0: Int, y0: Int, x1: Int, y1: Int)? {
        let w = width, h = height
        rowStarts.removeAll(keepingCapacity: true)
        runs.removeAll(keepingCapacity: true)
        rowStarts.reserveCapacity(h + 1)
        // (A shape's outline crosses most rows twice, its antialiased edge a few texels each.)
        runs.reserveCapacity(h * 8)
        var minX = Int.max, maxX = -1, minY = Int.max, maxY = -1
        for y in 0..<h {
            rowStarts.append(Int32(truncatingIfNeeded: runs.count))
            let rowStart = runs.count
            takeRow(y) { a, bits in
                Self.forEachRun(a, bits, width: w, evenOdd: evenOdd) { i, e, c in
                    let v = UInt8(c * 255 + 0.5)
                    guard v != 0 else { return }
                    if runs.count > rowStart, let last = runs.last, last.x1 == Int32(i), last.value == v {
                        runs[runs.count - 1].x1 = Int32(e)
                    } else {
                        runs.append((Int32(i), Int32(e), v))
                    }
                }
            }
            guard runs.count > rowStart else { continue }
            minX = min(minX, Int(runs[rowStart].x0)); maxX = max(maxX, Int(runs[runs.count - 1].x1) - 1)
            minY = min(minY, y); maxY = y
        }
        rowStarts.append(Int32(truncatingIfNeeded: runs.count))
        return maxX >= 0 ? (minX, minY, maxX + 1, maxY + 1) : nil
    }

    /// The first cell in `from..<end` whose touched bit is set (`end` if none): an untouched
    /// cell is 0 and leaves the running sum as it is.
    @inline(__always)
    package static func nextTouched(_ bits: UnsafeMutablePointer<UInt64>, from: Int, end: Int) -> Int {
        guard from < end else { return end }
        var k = from >> 6
        var word = bits[k] & (~0 << UInt64(from & 63))
        while word == 0 {
            k += 1
            if k << 6 >= end { return end }
            word = bits[k]
        }
        return min(k << 6 | word.trailingZeroBitCount, end)
    }

    /// `resolvedCoverage(evenOdd:)` walked over the touched cells only, taking every row
    /// (`takeRow(_:)`), so the rasteriser is left clear for `reset(width:height:)`: the same
    /// sums in the same order (an untouched cell adds 0), each run of equal coverage written at
    /// once, the inside of a shape without a sum per pixel. Every value is written once (the
    /// cells before a row's first touched one as zeros, then each run), not cleared first.
    ///
    /// `fullRuns`, when given, receives two entries a row: the first and one-past-last column
    /// of the row's longest run of coverage exactly 1 (equal when there is none), which lets a
    /// painter under a clip skip reading the coverage where it is 1 (`ClipMask.fullRuns`).
    ///
    /// Rows that hold only held-back vertical runs (`holdsVerticalRuns`) are worked out once
    /// for every row that shares them and copied down: the values their cells would have given.
    package mutating func takeResolvedCoverage(evenOdd: Bool, fullRuns: UnsafeMutablePointer<Int32>? = nil) -> [Float] {
        let (w, h, s, wpr) = (width, height, stride, wordsPerRow)
        // The walk is C (CCoverage's `ca_resolve_coverage`): the same runs, the same sums.
        return [Float](unsafeUninitializedCapacity: w * h) { out, count in
            clearingRows(holding: { cells, bits, written, runs, runCount in
                ca_resolve_coverage(cells, bits, w, h, s, wpr, evenOdd ? 1 : 0, out.baseAddress, fullRuns, written, runs, runCount)
            })
            count = w * h
        }
    }

    /// Walks a taken row (`takeRow(_:)`'s cells and bits, `w` cells) as runs of equal
    /// coverage: `body(i, e, c)` for cells `i..<e`, from the first touched cell on, c resolved
    /// with `coverage(winding:evenOdd:)` from the running sum (0 included). Between two touched
    /// cells the sum does not change: an untouched cell is 0, and so is a touched one that holds
    /// 0 (a run continues through it).
    @inline(__always)
    package static func forEachRun(_ a: UnsafeMutablePointer<Float>, _ bits: UnsafeMutablePointer<UInt64>, width w: Int,
                                   evenOdd: Bool, _ body: (_ i: Int, _ e: Int, _ c: Float) -> Void) {
        var sum: Float = 0
        // Before the first touched cell the sum is 0.
        var i = nextTouched(bits, from: 0, end: w)
        while i < w {
            sum += a[i]
            var e = nextTouched(bits, from: i + 1, end: w)
            // A touched cell that holds 0 (a share that came to 0, or shares that cancelled)
            // leaves the sum as it is, so the run goes on through it instead of splitting.
            while e < w, a[e] == 0 { e = nextTouched(bits, from: e + 1, end: w) }
            body(i, e, coverage(winding: sum, evenOdd: evenOdd))
            i = e
        }
    }

    /// One row's touched cells in order (`words` bit words): `body(i, value)` for each cell
    /// before `w`, every touched cell and bit word zeroed as it is read (the spare cells past
    /// `w` as well), so the row is left clear. The walk both run walks share.
    @inline(__always)
    package static func takeTouched(_ a: UnsafeMutablePointer<Float>, _ bits: UnsafeMutablePointer<UInt64>, words: Int,
                                    width w: Int, _ body: (_ i: Int, _ c: Float) -> Void) {
        for k in 0..<words {
            var word = bits[k]
            guard word != 0 else { continue }
            bits[k] = 0
            repeat {
                let i = k << 6 | word.trailingZeroBitCount
                word &= word &- 1
                let c = a[i]
                a[i] = 0
                if i < w { body(i, c) }
            } while word != 0
        }
    }

    /// The coverage of every pixel, 0…1, row by row (rows top first, `width` values a row),
    /// resolved with the same rules as `resolve(evenOdd:into:channels:channel:)` but not
    /// quantised: what `CGContext` composites with.
    package func resolvedCoverage(evenOdd: Bool) -> [Float] {
        let w = width, s = stride
        var out = [Float](repeating: 0, count: w * height)
        acc.withUnsafeBufferPointer { a in
            out.withUnsafeMutableBufferPointer { o in
                for y in 0..<height {
                    var sum: Float = 0
                    let base = y * s
                    let ob = y * w
                    for x in 0..<w {
                        sum += a[base + x]
                        o[ob + x] = Self.coverage(winding: sum, evenOdd: evenOdd)
                    }
                }
            }
        }
        return out
    }
}
