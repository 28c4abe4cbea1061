import CoreGraphics
import CAFrame

/// A layer-space → raster-texel affine map: `x' = a·x + c·y + tx`, `y' = b·x + d·y + ty`
/// (CGAffineTransform's convention).
struct TexelMap: Hashable {
    var a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double

    @inline(__always) func apply(_ p: CGPoint) -> SIMD2<Double> {
        let x = Double(p.x), y = Double(p.y)
        return SIMD2(a * x + c * y + tx, b * x + d * y + ty)
    }

    /// The larger singular value of the linear part: texels per layer unit along the most
    /// stretched direction (what flattening tolerance and circle subdivision must respect).
    var maxScale: Double {
        let s1 = a * a + b * b + c * c + d * d
        let det = a * d - b * c
        let disc = max(s1 * s1 - 4 * det * det, 0).squareRoot()
        return ((s1 + disc) / 2).squareRoot()
    }
}

/// How a stroke is rasterised: Core Animation's `lineWidth`, `lineCap`, `lineJoin`,
/// `miterLimit` (the dash pattern, `lineDashPhase`, `strokeStart` and `strokeEnd` are applied
/// per pixel in the shader, from the arc-length field, so they animate without a new raster).
struct ShapeStrokeStyle: Hashable {
    /// Half the line width in layer units; 0 is a hairline (one texel wide at any scale).
    var halfWidth: Double
    var cap: CGLineCap
    var join: CGLineJoin
    var miterLimit: Double
    /// A dash pattern applied on the CPU before stroking (patterns the shader cannot take).
    var cpuDash: [Double]? = nil
    var cpuDashPhase: Double = 0

    /// Half width in texels for `map`.
    func texelHalfWidth(_ scale: Double) -> Double { halfWidth > 0 ? halfWidth * scale : 0.5 }
}

/// The rasterised coverage of one shape at one placement: `coverage` is RGBA8, rows top first:
/// fill coverage in R, stroke coverage in G and, with a compact arc-length field, the arc length
/// from the path start in B, A (16 bits, see `CompactArcLengthField`); `aux` (RGBA8, same layout)
/// holds the compact field's arc length from the subpath start and distance from the centreline.
/// Paths too long for 16 bits, and perspective rasters, keep the exact field in `field` (RGBA32F:
/// arc length from the path start, arc length from the subpath start, both in layer units, and
/// distance from the centreline in texels). Trims and dashes read the field.
struct ShapeRaster {
    var originX: Int
    var originY: Int
    var width: Int
    var height: Int
    var coverage: [UInt8]
    var field: [Float]
    /// The compact field's second texture (empty without a compact field).
    var aux: [UInt8] = []
    /// Decoding of the compact field: arc length = value × `fieldScale.y` + `fieldScale.x`.
    var fieldScale: SIMD2<Double> = .zero
    /// Arc length of the whole (flattened) path in layer units: strokeStart/strokeEnd scale it.
    var totalLength: Double
    /// Flattened segments rasterised (the benchmark reports time per path).
    var segments: Int
    /// The rasterising work it took (`CoverageRasterizer.work`, plus the texels the
    /// arc-length or gauge field visits): what the frame work budget counts.
    var work = 0
    /// Set on a width-free raster (`Request.widthFree`): the largest half width, in texels, whose
    /// stroke it can draw. Its G channel only marks the texels that stroke reaches.
    var widthFree: Double? = nil
    /// The coverage as runs, `coverage` then empty (`Request.sparse`).
    var spans: ShapeCoverageSpans? = nil
}

/// Builds `ShapeRaster`s: flattening to a tolerance in texels (so a zoomed shape is re-flattened
/// finer, never faceted), filling with the path's rule, stroking into positive pieces whose
/// non-zero union is the stroke (so a translucent stroke crossing itself is blended once), and
/// the arc-length field.
enum ShapeRasterizer {
    /// Curves are flattened to within this many texels of the true curve.
    static let tolerance = 0.1
    /// Paths with more elements, or more flattened segments, than this are not drawn (with a
    /// warning): bounded time for hostile input (1,000,000 segments).
    static let maxSegments = 200_000

    struct Request {
        var path: CGPath
        var fill: Bool
        var evenOdd: Bool
        var stroke: ShapeStrokeStyle?
        var field: Bool
        /// Keep the exact RGBA32F field even when the compact one would do (perspective rasters
        /// are sampled bilinearly, which the split 16-bit encoding does not survive).
        var wideField = false
        var map: TexelMap
        /// Texel rectangle the raster may cover (x0, y0, x1, y1): the visible part of the target.
        var limit: (Int, Int, Int, Int)
        /// Make a width-free raster, for strokes up to this half width in texels, when the path
        /// allows one exactly (`widthFreeAllowed`); otherwise the usual raster is made.
        var widthFree: Double? = nil
        /// The work this raster may take (`ShapeRaster.work`): past it, the raster is abandoned
        /// (`Failure.overBudget`). The frame's remaining work budget (`ShapeCache`).
        var workLimit = Int.max
        /// Resolve every texel of the raster's box in a fresh accumulation buffer and scan it for
        /// the crop, as before issue 23's span resolve (`CoverageRasterizer.takeResolved`),
        /// which gives the same bytes: kept as the reference the tests compare against.
        var denseResolve = false
        /// A plain fill or stroke (no field) comes out as runs (`ShapeRaster.spans`), not
        /// dense texels: for the CPU backend (`ShapeCoverageSpans`). The same raster, placed
        /// the same.
        var sparse = false
        /// The raster's box in texels (x0, y0, x1, y1), fixed before the raster is made: the
        /// atlas place of a raster made after the walk that drew it (`ShapeCache.reserve`,
        /// issue 23). Geometry outside it is cut, and a sparse raster keeps the whole box (no
        /// crop to its covered texels), so it fills the place it was given.
        var box: (Int, Int, Int, Int)? = nil
        /// Stroke only the part of the path between these fractions of its length
        /// (`StrokeTrim`): strokeStart and strokeEnd applied to the geometry, for a backend that
        /// rasterises a trimmed stroke each frame (the CPU backend) rather than cutting a
        /// raster of the whole stroke with its arc-length field. The fill is not trimmed.
        var trim: (Double, Double)? = nil
    }

    /// A scratch rasteriser larger than this many cells (16 MB of `Float`s) is not kept
    /// between rasters, so one huge shape does not pin its buffer.
    static let maxScratchCells = 4 << 20

    /// Whether a width-free raster can draw this stroke exactly at every width (`GaugeField`):
    /// a real width (not a hairline), dashes the shader makes, a placement that is a similarity
    /// (the stroke as wide in every direction), and no subpath that is only a dot.
    static func widthFreeAllowed(_ subpaths: [FlattenedSubpath], style: ShapeStrokeStyle, map: TexelMap) -> Bool {
        guard style.halfWidth > 0, style.cpuDash == nil, !subpaths.isEmpty else { return false }
        let tol = 1e-6 * max(abs(map.a) + abs(map.b) + abs(map.c) + abs(map.d), 1e-12)
        let similar = (abs(map.a - map.d) <= tol && abs(map.b + map.c) <= tol) || (abs(map.a + map.d) <= tol && abs(map.b - map.c) <= tol)
        guard similar else { return false }
        return subpaths.allSatisfy { !$0.hasSegments || PieceStroker.segments($0).count >= 1 }
    }

    enum Failure: Error { case tooComplex(Int), empty, overBudget }

    /// The texels the arc-length and gauge fields visit: each segment's box grown by `reach`,
    /// clipped to the raster. Counted before computing a field, which a wide stroke makes
    /// visit the whole raster once per segment.
    static func fieldWork(_ subpaths: [FlattenedSubpath], map: TexelMap, width w: Int, height h: Int, reach: Double) -> Int {
        var work = 0
        for sp in subpaths where sp.hasSegments && sp.points.count > 1 {
            var prev = map.apply(sp.points[sp.points.count - 1])
            for (i, p) in sp.points.enumerated() {
                let q = map.apply(p)
                defer { prev = q }
                if i == 0 && !sp.isClosed { continue }
                guard q.x.isFinite, q.y.isFinite, prev.x.isFinite, prev.y.isFinite else { continue }
                let x0 = max(Int.clamped((min(q.x, prev.x) - reach).rounded(.down)), 0)
                let x1 = min(Int.clamped((max(q.x, prev.x) + reach).rounded(.up)), w - 1)
                let y0 = max(Int.clamped((min(q.y, prev.y) - reach).rounded(.down)), 0)
                let y1 = min(Int.clamped((max(q.y, prev.y) + reach).rounded(.up)), h - 1)
                guard x0 <= x1, y0 <= y1 else { continue }
                work &+= (x1 - x0 + 1) * (y1 - y0 + 1)
            }
        }
        return work
    }

    static func rasterize(_ r: Request) -> Result<ShapeRaster, Failure> {
        var scratch = CoverageRasterizer(width: 0, height: 0)
        return rasterize(r, scratch: &scratch)
    }

    /// Rasterises with `scratch`'s accumulation buffer (issue 23: allocating and zeroing a
    /// buffer the size of the raster's box was a pass over every texel per raster). `scratch`
    /// must be clear (fresh, or left by this function); it is handed back clear after a
    /// successful span-resolved raster and replaced by an empty one otherwise.
    static func rasterize(_ r: Request, scratch: inout CoverageRasterizer) -> Result<ShapeRaster, Failure> {
        var bytes: [UInt8] = []
        return rasterize(r, scratch: &scratch, resolveBuffer: &bytes)
    }

    /// `rasterize(_:scratch:)` resolving plain fills and strokes into `resolveBuffer` (kept
    /// zeroed between calls, grown as needed) and copying out only the covered texels (issue
    /// 23: the raster's zeroed box and its cropped copy were two fresh buffers per raster,
    /// and their page faults a fifth of a 9squares frame on the CPU backend).
    static func rasterize(_ r: Request, scratch: inout CoverageRasterizer, resolveBuffer: inout [UInt8]) -> Result<ShapeRaster, Failure> {
        var pool = RasterBytePool()
        return rasterize(r, scratch: &scratch, resolveBuffer: &resolveBuffer, pool: &pool)
    }

    /// `rasterize(_:scratch:resolveBuffer:)` copying the covered texels out into an array
    /// from `pool` (`RasterBytePool`): the same raster.
    static func rasterize(_ r: Request, scratch: inout CoverageRasterizer, resolveBuffer: inout [UInt8],
                          pool: inout RasterBytePool) -> Result<ShapeRaster, Failure> {
        // Moved out, so it is uniquely referenced while written; put back only when clear.
        var rast = scratch
        scratch = CoverageRasterizer(width: 0, height: 0)
        let result = rasterize(r, rast: &rast, bytes: &resolveBuffer, pool: &pool)
        // A raster refused as empty added no edges: its rasteriser is clear too.
        var clear = false
        switch result {
        case .success, .failure(.empty): clear = !r.denseResolve
        default: break
        }
        if clear, rast.acc.count <= maxScratchCells { scratch = rast }
        return result
    }

    /// The resolve buffer is kept up to this many bytes (16 MB); a larger raster resolves into
    /// a buffer of its own.
    static let maxResolveBytes = 16 << 20

    private static func rasterize(_ r: Request, rast: inout CoverageRasterizer, bytes: inout [UInt8],
                                  pool: inout RasterBytePool) -> Result<ShapeRaster, Failure> {
        guard r.path.elements.count <= maxSegments else { return .failure(.tooComplex(r.path.elements.count)) }
        let scale = max(r.map.maxScale, 1e-12)
        var strokePath = r.path
        if let s = r.stroke, let dash = s.cpuDash {
            strokePath = r.path.copy(dashingWithPhase: CGFloat(s.cpuDashPhase), lengths: dash.map { CGFloat($0) })
        }
        let tol = CGFloat(tolerance / scale)
        // The limit is checked before flattening (curves can flatten into up to 512 segments each).
        let estimate = (r.fill ? r.path.flattenedSegmentCount(tolerance: tol, limit: maxSegments) : 0)
            + (r.stroke == nil || (strokePath === r.path && r.fill) ? 0 : strokePath.flattenedSegmentCount(tolerance: tol, limit: maxSegments))
        guard estimate <= maxSegments else { return .failure(.tooComplex(estimate)) }
        let fillSubpaths = r.fill ? r.path.flattenedSubpaths(tolerance: tol) : []
        var strokeSubpaths = r.stroke == nil ? [] : (strokePath === r.path && r.fill ? fillSubpaths : strokePath.flattenedSubpaths(tolerance: tol))
        if let t = r.trim, r.stroke != nil { strokeSubpaths = StrokeTrim.trimmed(strokeSubpaths, from: t.0, to: t.1) }
        let segments = fillSubpaths.reduce(0) { $0 + $1.points.count } + (strokePath === r.path && r.fill ? 0 : strokeSubpaths.reduce(0) { $0 + $1.points.count })
        guard segments <= maxSegments else { return .failure(.tooComplex(segments)) }

        // Bounds in texels: the fill's points, the stroke's grown by how far it can reach.
        var lo = SIMD2(Double.infinity, Double.infinity), hi = -lo
        func grow(_ subs: [FlattenedSubpath], _ pad: Double) {
            for s in subs where s.hasSegments || pad > 0 {
                for p in s.points {
                    let q = r.map.apply(p)
                    guard q.x.isFinite, q.y.isFinite else { continue }
                    lo = pointwiseMin(lo, q - pad); hi = pointwiseMax(hi, q + pad)
                }
            }
        }
        grow(fillSubpaths, 1)
        var widthFree: Double? = nil
        if let s = r.stroke, let m = r.widthFree, widthFreeAllowed(strokeSubpaths, style: s, map: r.map) {
            widthFree = m
        }
        if let s = r.stroke {
            let hw = widthFree ?? s.texelHalfWidth(scale)
            var reach = hw * (s.cap == .square ? 2.0.squareRoot() : 1)
            if s.join == .miter { reach = max(reach, hw * max(s.miterLimit, 1)) }
            grow(strokeSubpaths, reach + 2)
        }
        guard lo.x <= hi.x, lo.y <= hi.y else { return .failure(.empty) }
        var x0 = max(Int(max(lo.x, -1e9).rounded(.down)), r.limit.0), y0 = max(Int(max(lo.y, -1e9).rounded(.down)), r.limit.1)
        var x1 = min(Int(min(hi.x, 1e9).rounded(.up)), r.limit.2), y1 = min(Int(min(hi.y, 1e9).rounded(.up)), r.limit.3)
        if let b = r.box { (x0, y0, x1, y1) = b }
        guard x1 > x0, y1 > y0 else { return .failure(.empty) }
        let w = x1 - x0, h = y1 - y0
        // Texel positions relative to the raster's origin.
        var map = r.map
        map.tx -= Double(x0); map.ty -= Double(y0)

        // Clearing, resolving and cropping visit every texel: once each, per channel resolved.
        // (The span resolve visits only touched cells, but the zeroed output and the crop's copy
        // still cover the box: the area stays counted, an upper bound.)
        // (Saturating: without a limit rectangle, w and h can each be 2e9.)
        let areaWork = Int.clamped(Double(w) * Double(h) * Double(1 + (r.fill ? 1 : 0) + (r.stroke != nil ? 1 : 0)))
        guard areaWork <= r.workLimit else { return .failure(.overBudget) }
        // Plain fills and strokes (span resolves, no field written into the raster) resolve into
        // the kept buffer, which rows `w` texels wide fit; the rest into a zeroed one of their own.
        let plain = !r.denseResolve && widthFree == nil && !r.field
        let sparse = r.sparse && plain && w <= ShapeCoverageSpans.maximumSide && h <= ShapeCoverageSpans.maximumSide
        let buffered = !sparse && plain && Double(w) * Double(h) * 4 <= Double(maxResolveBytes)
        if buffered, bytes.count < w * h * 4 { bytes = [UInt8](repeating: 0, count: w * h * 4) }
        var out = ShapeRaster(originX: x0, originY: y0, width: w, height: h,
                              coverage: buffered || sparse ? [] : [UInt8](repeating: 0, count: w * h * 4), field: [], totalLength: 0,
                              segments: segments)
        /// The fill's and the stroke's runs (`sparse`).
        var fillRuns: (starts: [Int32], runs: [(x0: Int32, x1: Int32, value: UInt8)])? = nil
        var strokeRuns: (starts: [Int32], runs: [(x0: Int32, x1: Int32, value: UInt8)])? = nil
        /// A fill alone or a stroke alone in a box fixed in advance: its runs are the raster's
        /// (`CoverageRasterizer.takeResolvedSpans`), nothing to merge or crop.
        let direct = sparse && r.box != nil && !(r.fill && r.stroke != nil)
        var directSpans: ShapeCoverageSpans? = nil
        if r.denseResolve { rast = CoverageRasterizer(width: w, height: h) } else { rast.reset(width: w, height: h) }
        rast.workLimit = r.workLimit - areaWork
        /// The texels the span resolves gave coverage (nil: none yet, or resolved densely).
        var covered: (x0: Int, y0: Int, x1: Int, y1: Int)? = nil
        // The kept buffer goes back zeroed however this returns: only the covered box was written.
        defer { if buffered, let b = covered { clearBox(b, width: w, in: &bytes) } }
        func resolve(evenOdd: Bool, channel: Int) {
            if r.denseResolve {
                rast.resolve(evenOdd: evenOdd, into: &out.coverage, channels: 4, channel: channel)
            } else if direct {
                var starts: [Int32] = [], runs: [ShapeCoverageSpans.Run] = []
                rast.takeResolvedSpans(evenOdd: evenOdd, stroke: channel == 1, rowStarts: &starts, runs: &runs)
                directSpans = ShapeCoverageSpans(width: w, height: h, rowStarts: starts, runs: runs)
            } else if sparse {
                var starts: [Int32] = [], runs: [(x0: Int32, x1: Int32, value: UInt8)] = []
                if let b = rast.takeResolvedRuns(evenOdd: evenOdd, rowStarts: &starts, runs: &runs) {
                    covered = covered.map { (min($0.x0, b.x0), min($0.y0, b.y0), max($0.x1, b.x1), max($0.y1, b.y1)) } ?? b
                }
                if channel == 0 { fillRuns = (starts, runs) } else { strokeRuns = (starts, runs) }
            } else if let b = buffered ? rast.takeResolved(evenOdd: evenOdd, into: &bytes, channels: 4, channel: channel)
                                       : rast.takeResolved(evenOdd: evenOdd, into: &out.coverage, channels: 4, channel: channel) {
                covered = covered.map { (min($0.x0, b.x0), min($0.y0, b.y0), max($0.x1, b.x1), max($0.y1, b.y1)) } ?? b
            }
        }
        if r.fill {
            for s in fillSubpaths where s.points.count >= 3 {
                rast.addPolygon(s.points.map { map.apply($0) })
            }
            guard !rast.isOverWorkLimit else { return .failure(.overBudget) }
            resolve(evenOdd: r.evenOdd, channel: 0)
        }
        out.totalLength = strokeSubpaths.reduce(0) { $0 + arcLength($1) }
        if let m = widthFree, let style = r.stroke {
            // The gauge field out to the widest stroke (and its square caps), and G marking the
            // texels that stroke reaches, so cropping keeps them and the shader reads the field.
            let reach = m * 2.0.squareRoot() + 2
            out.work = areaWork + rast.work + fieldWork(strokeSubpaths, map: map, width: w, height: h, reach: reach)
            guard out.work <= r.workLimit else { return .failure(.overBudget) }
            let (field, gauge) = GaugeField.compute(strokeSubpaths, style: style, map: map, width: w, height: h, reach: reach)
            let bound = Float(m + 1)
            for k in 0..<(w * h) where gauge[k] <= bound { out.coverage[4 * k + 1] = 255 }
            out.field = field
            out.widthFree = m
            // G was written texel by texel, not by a span resolve: the crop scans for it.
            out.cropToCoverage(margin: r.wideField ? 1 : 0)
            return .success(out)
        } else if let style = r.stroke {
            // (A span resolve of the fill left the rasteriser clear.)
            if r.denseResolve { rast.clear() }
            var stroker = PieceStroker(style: style, map: map, scale: scale)
            for s in strokeSubpaths { stroker.stroke(s, into: &rast) }
            guard !rast.isOverWorkLimit else { return .failure(.overBudget) }
            resolve(evenOdd: false, channel: 1)
            out.work = areaWork + rast.work
            if r.field {
                let hw = style.texelHalfWidth(scale), reach = hw * 1.5 + 2
                out.work += fieldWork(strokeSubpaths, map: map, width: w, height: h, reach: reach)
                guard out.work <= r.workLimit else { return .failure(.overBudget) }
                let field = ArcLengthField.compute(strokeSubpaths, map: map, width: w, height: h, reach: reach)
                let encoding = CompactArcLengthField(totalLength: out.totalLength, reachTexels: reach, scale: scale, halfWidthTexels: hw)
                if !r.wideField, let encoding {
                    out.aux = encoding.encode(field, into: &out.coverage)
                    out.fieldScale = SIMD2(encoding.offset, encoding.range)
                } else {
                    out.field = field
                }
            }
        }
        if r.stroke == nil { out.work = areaWork + rast.work }
        if r.denseResolve {
            out.cropToCoverage(margin: r.wideField ? 1 : 0)
        } else if sparse {
            // The covered box and its margin, as the buffered copy crops it; nothing covered, or
            // a box fixed in advance: the whole box.
            let m = r.wideField ? 1 : 0
            let b = r.box != nil ? (0, 0, w, h)
                : covered.map { (max($0.x0 - m, 0), max($0.y0 - m, 0), min($0.x1 + m, w), min($0.y1 + m, h)) } ?? (0, 0, w, h)
            out.spans = directSpans ?? Self.mergedSpans(fill: fillRuns, stroke: strokeRuns, box: b)
            out.originX += b.0; out.originY += b.1
            out.width = b.2 - b.0; out.height = b.3 - b.1
        } else if buffered {
            // The covered box and its margin copied out of the kept buffer: the raster
            // `crop(toCovered:margin:)` gives. One that covers nothing keeps its whole box.
            if let b = covered {
                let m = r.wideField ? 1 : 0
                let cx0 = max(b.x0 - m, 0), cy0 = max(b.y0 - m, 0), cx1 = min(b.x1 + m, w), cy1 = min(b.y1 + m, h)
                let cw = cx1 - cx0, ch = cy1 - cy0
                // Rows of the covered box into `dst` (`cw × ch` texels).
                func copyBox(into dst: UnsafeMutablePointer<UInt8>) {
                    bytes.withUnsafeBufferPointer { src in
                        for y in 0..<ch {
                            (dst + y * cw * 4).update(from: src.baseAddress! + ((cy0 + y) * w + cx0) * 4, count: cw * 4)
                        }
                    }
                }
                if var kept = pool.take(count: cw * ch * 4) {
                    kept.withUnsafeMutableBufferPointer { copyBox(into: $0.baseAddress!) }
                    out.coverage = kept
                } else {
                    out.coverage = [UInt8](unsafeUninitializedCapacity: cw * ch * 4) { dst, n in
                        // (`update` of trivial bytes initialises them.)
                        copyBox(into: dst.baseAddress!)
                        n = cw * ch * 4
                    }
                }
                out.originX += cx0; out.originY += cy0
                out.width = cw; out.height = ch
            } else {
                out.coverage = [UInt8](repeating: 0, count: w * h * 4)
            }
        } else {
            // The span resolves wrote every R and G byte there is: their box is the crop.
            out.crop(toCovered: covered, margin: r.wideField ? 1 : 0)
        }
        return .success(out)
    }

    /// The fill's and the stroke's runs (`CoverageRasterizer.takeResolvedRuns`, either absent)
    /// joined into runs of equal (fill, stroke) bytes over box `box` (x0, y0, x1, y1 of the
    /// raster's grid), columns and rows counted from the box: the texels `takeResolved` writes
    /// into channels 0 and 1, cropped to the box.
    static func mergedSpans(fill: (starts: [Int32], runs: [(x0: Int32, x1: Int32, value: UInt8)])?,
                            stroke: (starts: [Int32], runs: [(x0: Int32, x1: Int32, value: UInt8)])?,
                            box: (Int, Int, Int, Int)) -> ShapeCoverageSpans {
        let (bx0, by0, bx1, by1) = box
        let w = bx1 - bx0, h = by1 - by0
        // One channel (a fill alone or a stroke alone, the usual case): its runs are the
        // raster's, neighbours of one byte already joined; only moved into the box.
        if fill == nil || stroke == nil, let only = fill ?? stroke {
            let isFill = fill != nil
            var starts = [Int32](repeating: 0, count: h + 1)
            var out: [ShapeCoverageSpans.Run] = []
            out.reserveCapacity(only.runs.count)
            only.runs.withUnsafeBufferPointer { runs in
                for y in by0..<by1 {
                    starts[y - by0] = Int32(out.count)
                    guard y + 1 < only.starts.count else { continue }
                    for k in Int(only.starts[y])..<Int(only.starts[y + 1]) {
                        let r = runs[k]
                        let a = max(Int(r.x0), bx0), b = min(Int(r.x1), bx1)
                        guard a < b else { continue }
                        out.append(ShapeCoverageSpans.Run(x: UInt16(truncatingIfNeeded: a - bx0), count: UInt16(truncatingIfNeeded: b - a),
                                                          fill: isFill ? r.value : 0, stroke: isFill ? 0 : r.value))
                    }
                }
            }
            starts[h] = Int32(out.count)
            return ShapeCoverageSpans(width: w, height: h, rowStarts: starts, runs: out)
        }
        var starts: [Int32] = []
        starts.reserveCapacity(h + 1)
        var out: [ShapeCoverageSpans.Run] = []
        let none: [(x0: Int32, x1: Int32, value: UInt8)] = []
        func rowRuns(_ c: (starts: [Int32], runs: [(x0: Int32, x1: Int32, value: UInt8)])?, _ y: Int) -> ArraySlice<(x0: Int32, x1: Int32, value: UInt8)> {
            guard let c, y + 1 < c.starts.count else { return none[...] }
            return c.runs[Int(c.starts[y])..<Int(c.starts[y + 1])]
        }
        func emit(_ x0: Int, _ x1: Int, _ f: UInt8, _ s: UInt8) {
            let a = max(x0, bx0), b = min(x1, bx1)
            guard a < b, f != 0 || s != 0 else { return }
            let x = a - bx0
            if let last = out.last, out.count > Int(starts[starts.count - 1]), Int(last.x) + Int(last.count) == x,
               last.fill == f, last.stroke == s {
                out[out.count - 1].count += UInt16(b - a)
            } else {
                out.append(ShapeCoverageSpans.Run(x: UInt16(x), count: UInt16(b - a), fill: f, stroke: s))
            }
        }
        for y in by0..<by1 {
            starts.append(Int32(out.count))
            let fr = rowRuns(fill, y), sr = rowRuns(stroke, y)
            if sr.isEmpty { for r in fr { emit(Int(r.x0), Int(r.x1), r.value, 0) }; continue }
            if fr.isEmpty { for r in sr { emit(Int(r.x0), Int(r.x1), 0, r.value) }; continue }
            // Both: walk the boundaries of the two lists.
            var i = fr.startIndex, j = sr.startIndex
            var x = min(Int(fr[i].x0), Int(sr[j].x0))
            while i < fr.endIndex || j < sr.endIndex {
                let f = i < fr.endIndex ? fr[i] : nil, s = j < sr.endIndex ? sr[j] : nil
                // The next boundary after x among the current runs' starts and ends.
                var next = Int.max
                var fv: UInt8 = 0, sv: UInt8 = 0
                if let f { if Int(f.x0) > x { next = min(next, Int(f.x0)) } else { fv = f.value; next = min(next, Int(f.x1)) } }
                if let s { if Int(s.x0) > x { next = min(next, Int(s.x0)) } else { sv = s.value; next = min(next, Int(s.x1)) } }
                emit(x, next, fv, sv)
                x = next
                if let f, Int(f.x1) <= x { i += 1 }
                if let s, Int(s.x1) <= x { j += 1 }
            }
        }
        starts.append(Int32(out.count))
        return ShapeCoverageSpans(width: w, height: h, rowStarts: starts, runs: out)
    }

    /// Zeroes the texels of box `b` (x0, y0, x1, y1) of a 4-channel buffer `width` texels wide.
    static func clearBox(_ b: (x0: Int, y0: Int, x1: Int, y1: Int), width: Int, in bytes: inout [UInt8]) {
        bytes.withUnsafeMutableBufferPointer { p in
            for y in b.y0..<b.y1 { (p.baseAddress! + (y * width + b.x0) * 4).update(repeating: 0, count: (b.x1 - b.x0) * 4) }
        }
    }

    static func arcLength(_ s: FlattenedSubpath) -> Double {
        guard s.hasSegments, s.points.count > 1 else { return 0 }
        var l = 0.0
        for i in 1..<s.points.count { l += Double(s.points[i - 1].distance(to: s.points[i])) }
        if s.isClosed { l += Double(s.points[s.points.count - 1].distance(to: s.points[0])) }
        return l
    }
}

extension CGPoint {
    @inline(__always) fileprivate func distance(to o: CGPoint) -> CGFloat {
        let dx = x - o.x, dy = y - o.y
        return (dx * dx + dy * dy).squareRoot()
    }
}
