import CAFrame

/// Shapes drawn from their raster's runs (`ShapeCoverageSpans`, issue 23) where the raster maps
/// onto the target one texel per pixel (`rowMap` with a unit column step), without a clip, a
/// field or an additive blend. Each run of one (fill, stroke) pair is one span of one colour
/// (shape.frag's `color` of those bytes, as `drawRows` keeps it), so nothing outside a run is
/// visited: a thin ring's hole, the margin of its box. The pixels `drawRows` gives the raster's
/// dense texels, byte for byte: the same target columns per raster column (the same float
/// expression, solved for its boundaries), the same source words, the same blends.
extension SoftwareShapePipeline {
    /// The first column x in `lo...hi` where `atLeast(x)` holds (`hi` when none does), for a
    /// predicate false then true along the row, starting near `guess`.
    @inline(__always)
    static func firstColumn(_ lo: Int, _ hi: Int, near guess: Int, _ atLeast: (Int) -> Bool) -> Int {
        var x = min(max(guess, lo), hi)
        while x > lo, atLeast(x &- 1) { x &-= 1 }
        while x < hi, !atLeast(x) { x &+= 1 }
        return x
    }

    /// Draws instance `i` (row map `m`, `m.x` = 1) from runs `s` into the rows of `rows`, with
    /// the source words of `table` where the instance has one (`runSources`).
    func drawRunRows(_ i: ShapeInstance, _ q: SoftwareQuad, _ m: SIMD4<Float>, _ s: ShapeCoverageSpans,
                     _ table: SoftwareRunSources?, _ ctx: SoftwarePassContext, _ rows: Range<Int>) {
        let ya = max(q.y0, rows.lowerBound), yb = min(q.y1, rows.upperBound)
        guard ya < yb else { return }
        let rw = SoftwareClamp.int(i.region.z), rh = SoftwareClamp.int(i.region.w)
        guard rw > 0, rh > 0, s.rowStarts.count == rh + 1 else { return }
        let regionW = i.region.z, regionH = i.region.w
        let opacity = i.h0.w
        let target = ctx.target
        // drawRows' raster column of target column x: ⌊m.x·x + m.y⌋ clamped to rw − 1, for
        // m.x·x + m.y in [0, regionW). Increasing in x, so a raster column range is a target
        // column range: its ends are where `px(x) ≥ column` starts to hold.
        @inline(__always) func px(_ x: Int) -> Float { m.x * Float(x) + m.y }
        // (Clamped: a finite but enormous m.y must not trap the conversion.)
        let offset = SoftwareClamp.int((-m.y).rounded(.toNearestOrAwayFromZero))
        let xa = Self.firstColumn(q.x0, q.x1, near: offset) { px($0) >= 0 }
        let xb = Self.firstColumn(xa, q.x1, near: rw &+ offset) { px($0) >= regionW }
        guard xa < xb else { return }
        // Where m.y is a whole or half number and the columns are small, m.x·x + m.y is exact
        // in floats, so raster column c begins at target column c − ⌊m.y⌋ (the usual case: a
        // raster placed on the pixel grid); else the boundaries are searched.
        let twice = m.y * 2
        let exact = twice == twice.rounded(.down) && abs(m.y) < 1_048_576 && abs(Float(q.x0)) < 1_048_576 && abs(Float(q.x1)) < 1_048_576
        let shift = exact ? -Int(m.y.rounded(.down)) : 0
        // The source words of the (fill, stroke) pairs met so far, 64 slots by a hash of the
        // pair: along an antialiased edge every texel is a run of its own with its own pair,
        // and the same pairs come back row after row (a float colour and its packing per
        // texel were most of a thin ring's cost). An instance with one colour zero and many
        // runs has every word in its table instead (`runSources`).
        let byStroke = table?.byStroke ?? false
        let words = table?.words ?? []
        withUnsafeTemporaryAllocation(of: UInt64.self, capacity: 64) { cache in
            cache.initialize(repeating: .max)
            words.withUnsafeBufferPointer { words in
                s.runs.withUnsafeBufferPointer { runs in
                    s.rowStarts.withUnsafeBufferPointer { starts in
                        for y in ya..<yb {
                            let py = m.z * Float(y) + m.w
                            guard py >= 0, py < regionH else { continue }
                            let ty = min(SoftwareClamp.int(py), rh - 1)
                            let row = target.pixels + y &* target.width
                            var k = Int(starts[ty])
                            let end = Int(starts[ty &+ 1])
                            // The columns written, for the target's extents (`noteRowExtents`).
                            var lo = Int.max, hi = Int.min
                            defer { if lo < hi { target.noteRow(y, lo, hi) } }
                            while k < end {
                                let r = runs[k]
                                k &+= 1
                                let c0 = Int(r.x), c1 = c0 &+ Int(r.count)
                                // Raster column c0 (≥ 1) begins where px ≥ c0; column 0 at the valid
                                // range's start. The last column takes the rest of the range (the clamp).
                                let x0: Int, x1: Int
                                if exact {
                                    x0 = c0 == 0 ? xa : min(max(c0 &+ shift, xa), xb)
                                    x1 = c1 >= rw ? xb : min(max(c1 &+ shift, x0), xb)
                                } else {
                                    x0 = c0 == 0 ? xa : Self.firstColumn(xa, xb, near: c0 &+ offset) { px($0) >= Float(c0) }
                                    x1 = c1 >= rw ? xb : Self.firstColumn(x0, xb, near: c1 &+ offset) { px($0) >= Float(c1) }
                                }
                                guard x0 < x1 else { continue }
                                let key = UInt32(r.fill) | UInt32(r.stroke) << 8
                                let slot = Int(truncatingIfNeeded: (key &* 40503) >> 10) & 63
                                let source: UInt32
                                if words.count == 256 {
                                    source = words[Int(byStroke ? r.stroke : r.fill)]
                                } else if UInt32(truncatingIfNeeded: cache[slot] >> 32) == key {
                                    source = UInt32(truncatingIfNeeded: cache[slot])
                                } else {
                                    let full = SoftwarePixel.unpack(key)
                                    source = SoftwareSpanBlend.source(Self.color(i, fill: full.x, stroke: full.y) * opacity)
                                    cache[slot] = UInt64(key) << 32 | UInt64(source)
                                }
                                lo = min(lo, x0)
                                hi = max(hi, x1)
                                let n = x1 &- x0
                                if n > 1 { SoftwareSpanBlend.fill(row + x0, n, source) } else { row[x0] = SoftwareSpanBlend.over(source, row[x0]) }
                            }
                        }
                    }
                }
            }
        }
    }
}

/// Run-source tables kept between frames by the colours and opacity they were made for: an
/// animation's shapes keep their colours while their rasters change (9squares' 18 rings, two
/// colours), and the tables were 2 % of a frame made afresh. Bounded; cleared when full.
final class SoftwareRunSourceCache: @unchecked Sendable {
    struct Key: Hashable {
        var fill: SIMD4<Float>, stroke: SIMD4<Float>, opacity: Float
    }
    private var tables: [Key: SoftwareRunSources] = [:]
    static let capacity = 256

    func table(for i: ShapeInstance, make: () -> SoftwareRunSources) -> SoftwareRunSources {
        let key = Key(fill: i.fill, stroke: i.stroke, opacity: i.h0.w)
        if let t = tables[key] { return t }
        if tables.count >= Self.capacity { tables.removeAll(keepingCapacity: true) }
        let t = make()
        tables[key] = t
        return t
    }
}

/// The source word of every byte of a run's one varying channel (`SoftwareShapePipeline.runSources`).
struct SoftwareRunSources {
    /// 256 words, by the byte.
    let words: [UInt32]
    /// The byte is the stroke's (the instance's fill colour is zero); else the fill's.
    let byStroke: Bool
}
