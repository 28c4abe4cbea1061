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
    /// Flattening never coarser than this (device pixels), whatever `setFlatness` says.
    static let finestFlatness: CGFloat = 0.01
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
        guard let (rast, box) = rasterized(devicePath: path, in: limit) else { return nil }
        var values = rast.resolvedCoverage(evenOdd: evenOdd)
        if !(gstate.shouldAntialias && gstate.allowsAntialiasing) {
            // Aliased drawing: a pixel is painted when at least half of it is covered.
            for i in values.indices { values[i] = values[i] >= 0.5 ? 1 : 0 }
        }
        return CoverageMask(x0: box.x0, y0: box.y0, width: box.x1 - box.x0, height: box.y1 - box.y0, values: values)
    }

    /// A device-space path's edges accumulated over the pixel box it can touch within `limit`
    /// (default: `drawableBox`), not yet resolved by a fill rule; nil when it covers nothing there.
    package func rasterized(devicePath path: CGPath, in limit: PixelBox? = nil) -> (CoverageRasterizer, PixelBox)? {
        var rast = CoverageRasterizer(width: 0, height: 0)
        guard let box = rasterize(devicePath: path, into: &rast, in: limit) else { return nil }
        return (rast, box)
    }

    /// `rasterized(devicePath:in:)` into a caller's rasteriser, which must be clear (it is
    /// `reset` to the box); returns the box, or nil when nothing is covered (then `rast` is
    /// untouched).
    package func rasterize(devicePath path: CGPath, into rast: inout CoverageRasterizer, in limit: PixelBox? = nil) -> PixelBox? {
        guard !path.isEmpty else { return nil }
        let tol = min(gstate.flatness, Self.finestFlatness)
        if path.flattenedSegmentCount(tolerance: tol, limit: Self.maxSegments) > Self.maxSegments {
            CGDiagnostics.warnOnce("CGContext: a path of more than \(Self.maxSegments) segments is not drawn")
            return nil
        }
        let h = CGFloat(height)
        var flat: [CGPoint] = [], starts: [Int] = []
        path.appendFlattenedPolygons(tolerance: tol, points: &flat, starts: &starts)
        // Raster-space polygons, one flat array: polygon k is pts[ends[k - 1]..<ends[k]].
        var pts: [SIMD2<Double>] = [], ends: [Int] = []
        pts.reserveCapacity(flat.count)
        var lo = SIMD2<Double>(repeating: .infinity), hi = SIMD2<Double>(repeating: -.infinity)
        for (k, s) in starts.enumerated() {
            let e = k + 1 < starts.count ? starts[k + 1] : flat.count
            guard e - s >= 3 else { continue }
            let first = pts.count
            for p in flat[s..<e] {
                let q = SIMD2(Double(p.x), Double(h - p.y))
                guard q.x.isFinite, q.y.isFinite else { continue }
                lo = pointwiseMin(lo, q); hi = pointwiseMax(hi, q)
                pts.append(q)
            }
            if pts.count - first >= 3 {
                ends.append(pts.count)
            } else {
                pts.removeSubrange(first...)
            }
        }
        guard !ends.isEmpty else { return nil }
        let box = PixelBox(covering: lo, hi).intersection(limit ?? drawableBox)
        guard !box.isEmpty else { return nil }
        let w = box.x1 - box.x0, hh = box.y1 - box.y0
        let (count, overflow) = w.multipliedReportingOverflow(by: hh)
        guard !overflow, count <= Self.maxByteCount / 4 else { return nil }
        rast.reset(width: w, height: hh)
        rast.addPolygons(pts, ends: ends, origin: SIMD2(Double(box.x0), Double(box.y0)))
        return box
    }

    /// Full coverage of the pixels in `box` (within `drawableBox`): gradients and clears of
    /// whole areas.
    package func fullCoverage(_ box: PixelBox, in limit: PixelBox? = nil) -> CoverageMask? {
        let b = box.intersection(limit ?? drawableBox)
        guard !b.isEmpty else { return nil }
        let w = b.x1 - b.x0, h = b.y1 - b.y0
        return CoverageMask(x0: b.x0, y0: b.y0, width: w, height: h, values: [Float](repeating: 1, count: w * h))
    }

    /// The outline of the stroke of a device-space path under the current stroke state, in
    /// device space: the path is mapped back to user space, dashed and stroked there (so line
    /// width and dashes are in user units and a non-uniform CTM gives an elliptical pen, as
    /// Apple's), and the outline mapped to device space. A line width of 0 strokes one device
    /// pixel wide (Apple's "thinnest line"). Nil when the CTM is singular or nothing is drawn.
    package func strokeOutline(of devicePath: CGPath) -> CGPath? {
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
        if user.flattenedSegmentCount(tolerance: tol, limit: Self.maxSegments) > Self.maxSegments {
            CGDiagnostics.warnOnce("CGContext: a path of more than \(Self.maxSegments) segments is not stroked")
            return nil
        }
        var outline = StrokeOutline(halfWidth: lineWidth / 2, cap: s.lineCap, join: s.lineJoin, miterLimit: s.miterLimit,
                                    arcTolerance: tol)
        for sub in user.flattenedSubpaths(tolerance: tol) { outline.stroke(sub) }
        guard !outline.elements.isEmpty else { return nil }
        return CGPath(elements: ctm.isIdentity ? outline.elements : outline.elements.transformed(by: ctm))
    }
}
