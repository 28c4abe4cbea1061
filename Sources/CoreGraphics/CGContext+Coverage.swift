// From device-space geometry to per-pixel coverage: paths are flattened, mapped to raster space
// (y down, row 0 at the top) and rasterised by `CoverageRasterizer` (exact area, the same code
// that antialiases CAShapeLayer), over the part of the bitmap the geometry and clip can reach.

/// Coverage (0…1) over a rectangle of the raster: pixel (x0 + i, y0 + j) is `values[j * width + i]`.
package struct CoverageMask {
    package var x0: Int
    package var y0: Int
    package var width: Int
    package var height: Int
    package var values: [Float]
    /// Per row, columns `fullRuns[2j] ..< fullRuns[2j + 1]` (relative to `x0`) where every value
    /// is exactly 1, when the maker knows them (a rasterised path); nil when not.
    package var fullRuns: [Int32]? = nil

    /// `fullRuns` of a mask that is 1 everywhere: every row's columns 0 ..< `width`.
    static func wholeRows(width: Int, height: Int) -> [Int32] {
        let w = Int32(truncatingIfNeeded: width)
        return (0..<(2 * max(0, height))).map { $0 & 1 == 0 ? 0 : w }
    }

    @inline(__always) package func value(_ x: Int, _ y: Int) -> Float {
        let i = x - x0, j = y - y0
        guard i >= 0, j >= 0, i < width, j < height else { return 0 }
        return values[j * width + i]
    }
}

/// A pixel rectangle of the raster, half-open.
package struct PixelBox: Equatable, Sendable {
    package var x0: Int, y0: Int, x1: Int, y1: Int
    package var isEmpty: Bool { x1 <= x0 || y1 <= y0 }
    package func intersection(_ o: PixelBox) -> PixelBox {
        PixelBox(x0: max(x0, o.x0), y0: max(y0, o.y0), x1: min(x1, o.x1), y1: min(y1, o.y1))
    }
    /// The pixels a raster-space rectangle touches (NaN/infinite: empty).
    package init(x0: Int, y0: Int, x1: Int, y1: Int) { self.x0 = x0; self.y0 = y0; self.x1 = x1; self.y1 = y1 }
    package init(covering lo: SIMD2<Double>, _ hi: SIMD2<Double>) {
        let lim = 1e9
        guard lo.x <= hi.x, lo.y <= hi.y else { self.init(x0: 0, y0: 0, x1: 0, y1: 0); return }
        self.init(x0: Int.clamped(max(lo.x, -lim).rounded(.down)), y0: Int.clamped(max(lo.y, -lim).rounded(.down)),
                  x1: Int.clamped(min(hi.x, lim).rounded(.up)), y1: Int.clamped(min(hi.y, lim).rounded(.up)))
    }
}

extension CGContext {
    /// Flattening never coarser than this (device pixels), whatever `setFlatness` says. Apple
    /// documents values below 1 as "highly accurate curves" (`setFlatness(_:)`). The chords are
    /// centred on the curve (`centredCurvePoint` in CCoverage's PathWalk.h), so a twentieth of a
    /// pixel keeps a radius-10 disc's covered area within 0.1 px² of πr² and the Cairo
    /// differential above its floor (99.60 %), as a fortieth did with chords that cut inside
    /// the curve; 0.1 misses both (−0.6 px², 99.44 %). Issue 19: 0.71× the chords of 0.025, the
    /// 1,000-star frame 0.87× its time.
    static let finestFlatness: CGFloat = 0.05
    /// The same bound for the arcs of round joins and caps, whose points stay on the pen's circle
    /// (an outline's bounds are the pen's, as `copy(strokingWithWidth:…)` promises): their
    /// chords cut inside it, so they keep the finer tolerance that held a round cap's area
    /// within a quarter pixel of its half disc's.
    static let finestArcFlatness: CGFloat = 0.025
    /// A path that would flatten into more segments than this is not drawn (with a warning):
    /// the bound that keeps a hostile path from taking minutes.
    package static let maxSegments = 20_000_000

    /// The pixels drawing may touch: the bitmap (or the target layer), cut to the clip's box.
    package var drawableBox: PixelBox {
        var b = PixelBox(x0: 0, y0: 0, x1: width, y1: height)
        if let c = gstate.clip { b = b.intersection(c.box) }
        return b
    }

    /// The coverage of a device-space path filled with `evenOdd` or non-zero, within `limit`
    /// (default: `drawableBox`); nil when it covers nothing there.
    package func coverage(ofDevicePath path: CGPath, evenOdd: Bool, in limit: PixelBox? = nil) -> CoverageMask? {
        // The context's scratch rasteriser, taken clear and left clear (every row is taken).
        withScratchRasterizer { rast in
            // Vertical edges' whole rows held back: the resolve works out the rows they alone
            // cover once and copies them down (a card's or a rounded rect's sides; CCoverage.h).
            rast.holdsVerticalRunsAfterReset = true
            guard let box = rasterize(devicePath: path, into: &rast, in: limit) else { return nil }
            return Self.resolve(&rast, box: box, evenOdd: evenOdd,
                                aliased: !(gstate.shouldAntialias && gstate.allowsAntialiasing))
        }
    }

    /// The coverage `rast` holds over `box`, with each row's longest run of full coverage,
    /// every row taken (the rasteriser is left clear). Aliased: a pixel is painted when at least
    /// half of it is covered (a run of 1s stays one, so the full runs still hold).
    static func resolve(_ rast: inout CoverageRasterizer, box: PixelBox, evenOdd: Bool, aliased: Bool) -> CoverageMask {
        var runs = [Int32](repeating: 0, count: 2 * (box.y1 - box.y0))
        var values = runs.withUnsafeMutableBufferPointer { rast.takeResolvedCoverage(evenOdd: evenOdd, fullRuns: $0.baseAddress!) }
        if aliased {
            for i in values.indices { values[i] = values[i] >= 0.5 ? 1 : 0 }
        }
        return CoverageMask(x0: box.x0, y0: box.y0, width: box.x1 - box.x0, height: box.y1 - box.y0, values: values, fullRuns: runs)
    }

    /// A device-space path's edges accumulated, not yet resolved by a fill rule, over the pixel
    /// box it can touch within `limit` (default: `drawableBox`), into a caller's rasteriser,
    /// which must be clear (it is `reset` to the box); returns the box, or nil when nothing is
    /// covered (then `rast` is untouched).
    package func rasterize(devicePath path: CGPath, into rast: inout CoverageRasterizer, in limit: PixelBox? = nil) -> PixelBox? {
        withScratchPolygons { polygons in
            guard makeRasterPolygons(ofDevicePath: path, into: &polygons) else { return nil }
            return rasterize(polygons: polygons.points, ends: polygons.usedEnds, lo: polygons.lo, hi: polygons.hi, into: &rast, in: limit)
        }
    }

    /// Runs `body` on the context's polygon buffers, moved out while in use and kept for the
    /// next path unless one huge path grew them past `maxScratchCells` entries.
    private func withScratchPolygons<R>(_ body: (inout FillPolygons) -> R) -> R {
        var polygons = fillScratch
        fillScratch = FillPolygons()
        defer {
            // (An element record is 56 bytes, a vertex 16: a quarter as many records are kept.)
            if polygons.points.capacity <= Self.maxScratchCells, polygons.items.count <= Self.maxScratchCells / 4 {
                fillScratch = polygons
            }
        }
        return body(&polygons)
    }

    /// A device-space path as the raster-space polygons `rasterize(polygons:…)` takes (flattened
    /// at the fill tolerance, y down, polygons of fewer than three finite vertices dropped) with
    /// their bounds; nil for a path of more than `maxSegments` segments (with a warning).
    package func rasterPolygons(ofDevicePath path: CGPath)
        -> (points: [SIMD2<Double>], ends: [Int], lo: SIMD2<Double>, hi: SIMD2<Double>)? {
        withScratchPolygons { polygons in
            guard makeRasterPolygons(ofDevicePath: path, into: &polygons) else { return nil }
            return (Array(polygons.points[..<polygons.pointCount]), Array(polygons.usedEnds), polygons.lo, polygons.hi)
        }
    }

    /// `rasterPolygons(ofDevicePath:)` into reused buffers (emptied first, their storage kept):
    /// false for an empty path or one of more than `maxSegments` segments.
    func makeRasterPolygons(ofDevicePath path: CGPath, into polygons: inout FillPolygons) -> Bool {
        guard !path.isEmpty else { return false }
        let tol = min(gstate.flatness, Self.finestFlatness)
        guard polygons.set(flattening: path, tolerance: tol, height: CGFloat(height), limit: Self.maxSegments) else {
            CGDiagnostics.warnOnce("CGContext: a path of more than \(Self.maxSegments) segments is not drawn")
            return false
        }
        return true
    }

    /// Raster-space polygons (polygon k is `pts[ends[k - 1]..<ends[k]]`, bounds `lo`…`hi`) into
    /// a clear rasteriser, over the pixels they can touch within `limit` (default:
    /// `drawableBox`): the tail of `rasterize(devicePath:into:in:)`, shared with strokes, whose
    /// outline is built as such polygons directly (StrokeOutliner.swift).
    package func rasterize(polygons pts: [SIMD2<Double>], ends: ArraySlice<Int>, lo: SIMD2<Double>, hi: SIMD2<Double>,
                           into rast: inout CoverageRasterizer, in limit: PixelBox? = nil) -> PixelBox? {
        guard !ends.isEmpty else { return nil }
        let box = PixelBox(covering: lo, hi).intersection(limit ?? drawableBox)
        guard !box.isEmpty else { return nil }
        let w = box.x1 - box.x0, hh = box.y1 - box.y0
        let (count, overflow) = w.multipliedReportingOverflow(by: hh)
        guard !overflow, count <= Self.maxByteCount / 4 else { return nil }
        rast.reset(width: w, height: hh)
        rast.addPolygons(pts, ends: ends, origin: SIMD2(Double(box.x0), Double(box.y0)), bounds: (lo, hi))
        return box
    }

    /// `coverage(ofDevicePath:evenOdd:in:)` for raster-space polygons.
    func coverage(ofPolygons sink: RasterPolygonSink, evenOdd: Bool, in limit: PixelBox? = nil) -> CoverageMask? {
        withScratchRasterizer { rast in
            guard let box = rasterize(polygons: sink.points, ends: sink.ends[...], lo: sink.lo, hi: sink.hi,
                                      into: &rast, in: limit) else { return nil }
            return Self.resolve(&rast, box: box, evenOdd: evenOdd,
                                aliased: !(gstate.shouldAntialias && gstate.allowsAntialiasing))
        }
    }

    /// Full coverage of the pixels in `box` (within `drawableBox`): gradients and clears of
    /// whole areas.
    package func fullCoverage(_ box: PixelBox, in limit: PixelBox? = nil) -> CoverageMask? {
        let b = box.intersection(limit ?? drawableBox)
        guard !b.isEmpty else { return nil }
        let w = b.x1 - b.x0, h = b.y1 - b.y0
        return CoverageMask(x0: b.x0, y0: b.y0, width: w, height: h, values: [Float](repeating: 1, count: w * h),
                            fullRuns: CoverageMask.wholeRows(width: w, height: h))
    }

    /// The outline of the stroke of a device-space path under the current stroke state, in
    /// device space: the path is mapped back to user space, dashed and stroked there (so line
    /// width and dashes are in user units and a non-uniform CTM gives an elliptical pen, as
    /// Apple's), and the outline mapped to device space. A line width of 0 strokes one device
    /// pixel wide (Apple's "thinnest line"). Nil when the CTM is singular or nothing is drawn.
    package func strokeOutline(of devicePath: CGPath) -> CGPath? {
        guard let setup = strokeSetup(devicePath) else { return nil }
        let elements = outliner.outlineElements(of: setup.user, tolerance: setup.tolerance, halfWidth: setup.lineWidth / 2,
                                                cap: gstate.lineCap, join: gstate.lineJoin, miterLimit: gstate.miterLimit,
                                                arcTolerance: setup.arcTolerance)
        releaseOutlinerIfGrown()
        guard !elements.isEmpty else { return nil }
        return CGPath(elements: setup.ctm.isIdentity ? elements : elements.transformed(by: setup.ctm))
    }

    /// The same outline as `strokeOutline(of:)`, built straight into raster-space polygons (the
    /// context's `strokeScratch`, returned for `rasterize(polygons:…)`): the same vertices, so
    /// the same coverage, without the outline path, its element-by-element transform, and its
    /// second count and flatten. Nil when nothing is drawn; an outline of more than `maxSegments`
    /// vertices is not drawn (with a warning), as a path of as many segments is not.
    package func strokePolygons(of devicePath: CGPath) -> RasterPolygonSink? {
        guard let setup = strokeSetup(devicePath) else { return nil }
        var sink = RasterPolygonSink()
        swap(&sink, &strokeScratch)
        outliner.rasterPolygons(of: setup.user, tolerance: setup.tolerance, halfWidth: setup.lineWidth / 2,
                                cap: gstate.lineCap, join: gstate.lineJoin, miterLimit: gstate.miterLimit,
                                arcTolerance: setup.arcTolerance, transform: setup.ctm, height: CGFloat(height),
                                circleTolerance: min(gstate.flatness, Self.finestFlatness), maxPoints: Self.maxSegments,
                                into: &sink)
        // The arrays are kept for the next stroke unless one huge stroke grew them.
        if sink.points.capacity <= Self.maxScratchPoints { strokeScratch = sink } else { strokeScratch = RasterPolygonSink() }
        releaseOutlinerIfGrown()
        if sink.overflowed {
            CGDiagnostics.warnOnce("CGContext: a path of more than \(Self.maxSegments) segments is not drawn")
            return nil
        }
        return sink.ends.isEmpty ? nil : sink
    }

    /// Stroke outlines' buffers are kept between strokes up to this many vertices (16 MB).
    static let maxScratchPoints = 1 << 20

    /// Lets the stroker go after a stroke that grew its arrays past `maxScratchPoints`, so one
    /// huge stroke does not pin them.
    private func releaseOutlinerIfGrown() {
        if let o = strokeOutliner, o.retainedCapacity > Self.maxScratchPoints { strokeOutliner = nil }
    }

    /// What both stroke sinks start from: the user-space (dashed) path, the CTM to map the
    /// outline back, the line width (a hairline: 1, in device space) and the flattening
    /// tolerances in user units (curves; joins' and caps' arcs). Nil when the CTM is singular or
    /// the path too big to stroke.
    private func strokeSetup(_ devicePath: CGPath)
        -> (user: CGPath, ctm: CGAffineTransform, lineWidth: CGFloat, tolerance: CGFloat, arcTolerance: CGFloat)? {
        let s = gstate
        var ctm = s.ctm
        var lineWidth = s.lineWidth
        let det = ctm.a * ctm.d - ctm.b * ctm.c
        guard det.isFinite, abs(det) > 1e-12 else { return nil }
        var user = CGPath(elements: ctm.isIdentity ? devicePath.elements : devicePath.elements.transformed(by: ctm.inverted()))
        if !s.dashLengths.isEmpty {
            // Dash lengths are user-space lengths, hairlines included.
            user = user.copy(dashingWithPhase: s.dashPhase, lengths: s.dashLengths)
        }
        if lineWidth == 0 {
            // A hairline is one device pixel wide: stroke the (dashed) path in device space.
            if !ctm.isIdentity { user = CGPath(elements: user.elements.transformed(by: ctm)) }
            ctm = .identity
            lineWidth = 1
        }
        // Largest stretch of the CTM (its largest singular value), to flatten finely enough in
        // device pixels.
        let p = ctm.a * ctm.a + ctm.b * ctm.b, q = ctm.c * ctm.c + ctm.d * ctm.d
        let r = ctm.a * ctm.c + ctm.b * ctm.d
        let maxScale = (((p + q) + ((p - q) * (p - q) + 4 * r * r).squareRoot()) / 2).squareRoot()
        guard maxScale.isFinite, maxScale > 0 else { return nil }
        let tol = min(s.flatness, Self.finestFlatness) / maxScale
        if !user.flattensWithin(Self.maxSegments, tolerance: tol) {
            CGDiagnostics.warnOnce("CGContext: a path of more than \(Self.maxSegments) segments is not stroked")
            return nil
        }
        return (user, ctm, lineWidth, tol, min(s.flatness, Self.finestArcFlatness) / maxScale)
    }
}
