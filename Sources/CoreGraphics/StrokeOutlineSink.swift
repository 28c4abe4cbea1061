// Where the stroker's outline goes (issue 19's drawing speed). `StrokeOutline` makes the same
// pieces (polygons wound positively, ring pairs, round-cap/round-join circles) for two sinks:
// `PathElementSink` builds the `CGPath` that `copy(strokingWithWidth:…)` and
// `replacePathWithStrokedPath()` must return (Apple API), and `RasterPolygonSink` writes the
// polygons straight into the raster-space arrays `CoverageRasterizer.addPolygons` reads, so that
// `strokePath()` makes no outline `CGPath`, does not transform it element by element, and does not
// count and flatten it a second time.
//
// The raster sink reproduces, vertex for vertex, what the path route gave: each point mapped by the
// CTM with `CGPoint.applying` (the path route's `transformed(by:)`), consecutive equal device
// points and a closing repeat of the start dropped, and the circles' four cubics flattened with
// the fill's flattening rule (`ca_path_fill_polygons`) at the fill tolerance; then raster space (y down), polygons of
// fewer than three finite vertices dropped. The coverage, and so every drawn byte, is the same.

/// Receives the outline pieces of `StrokeOutline`.
protocol StrokeOutlineSink {
    /// A closed polygon through `points` (reversed when `reversed`), in the stroker's space.
    mutating func addPolygon(_ points: [CGPoint], reversed: Bool)
    /// A full circle of radius `radius` around `center`, wound like `addEllipse(in:)`.
    mutating func addCircle(center: CGPoint, radius: CGFloat)
}

/// The outline as path elements (move, lines, close per polygon; `PathShapes.ellipse` per circle).
struct PathElementSink: StrokeOutlineSink {
    var elements: [PathElement] = []

    mutating func addPolygon(_ points: [CGPoint], reversed: Bool) {
        guard !points.isEmpty else { return }
        if reversed {
            elements.append(.move(points[points.count - 1]))
            for p in points.dropLast().reversed() { elements.append(.line(p)) }
        } else {
            elements.append(.move(points[0]))
            for p in points.dropFirst() { elements.append(.line(p)) }
        }
        elements.append(.close)
    }

    mutating func addCircle(center c: CGPoint, radius r: CGFloat) {
        elements.append(contentsOf: PathShapes.ellipse(CGRect(x: c.x - r, y: c.y - r, width: 2 * r, height: 2 * r), .identity))
    }
}

/// The outline as raster-space polygons (y down from the top of a bitmap `height` tall) after
/// mapping the stroker's points through `transform`: polygon k is `points[ends[k - 1]..<ends[k]]`,
/// `lo`/`hi` their bounds — `CGContext.rasterize(polygons:ends:lo:hi:into:in:)`'s input. Buffers are kept between
/// strokes (`clear`), so a context's strokes stop allocating once they have grown.
package struct RasterPolygonSink: StrokeOutlineSink {
    package init() {}
    var transform: CGAffineTransform = .identity
    var height: CGFloat = 0
    /// The flattening tolerance of the circles' cubics in device pixels (the fill's).
    var tolerance: CGFloat = 0.01
    /// Past this many vertices the outline is abandoned (`overflowed`): the segment bound that
    /// keeps a hostile stroke from taking minutes or exhausting memory.
    var maxPoints = Int.max
    package var points: [SIMD2<Double>] = []
    package var ends: [Int] = []
    package var lo = SIMD2<Double>(repeating: .infinity), hi = SIMD2<Double>(repeating: -.infinity)
    package private(set) var overflowed = false
    /// The polygon being added, written straight into `points` as its vertices come (one pass,
    /// without an array of its device points first): where it starts there, how many device
    /// points it has kept (repeats dropped; non-finite ones count, as the path route's elements
    /// did), its first and last device points and whether the last was written (it was finite).
    private var polygonStart = 0, kept = 0
    private var firstDevice = CGPoint.zero, lastDevice = CGPoint.zero
    private var lastWritten = false

    /// Empties the buffers (keeping their storage) for a stroke under `transform`.
    mutating func clear(transform: CGAffineTransform, height: CGFloat, tolerance: CGFloat, maxPoints: Int) {
        self.transform = transform; self.height = height
        self.tolerance = tolerance > 1e-9 ? tolerance : 1e-9
        self.maxPoints = maxPoints
        points.removeAll(keepingCapacity: true); ends.removeAll(keepingCapacity: true)
        lo = SIMD2(repeating: .infinity); hi = SIMD2(repeating: -.infinity)
        overflowed = false
    }

    @inline(__always) private func device(_ p: CGPoint, identity: Bool) -> CGPoint {
        identity ? p : p.applying(transform)
    }

    /// Starts a polygon at the end of `points`.
    @inline(__always) private mutating func begin() {
        polygonStart = points.count
        kept = 0
        lastWritten = false
    }

    /// The fill flattening's rule for one more vertex: a repeat of the last is dropped; the rest
    /// are mapped to raster space (y down), and written when finite.
    @inline(__always) private mutating func add(_ d: CGPoint) {
        if kept > 0, lastDevice == d { return }
        if kept == 0 { firstDevice = d }
        kept += 1
        lastDevice = d
        let q = SIMD2(Double(d.x), Double(height - d.y))
        lastWritten = q.x.isFinite && q.y.isFinite
        if lastWritten { points.append(q) }
    }

    /// Closes the polygon (dropping a repeated start), then keeps it if it has three device
    /// points and, of them, three written: the fill flattening's rules (`ca_path_fill_polygons`'
    /// `finishPolygon`), whose bounds take every written point of a polygon with three device
    /// points, kept or not.
    private mutating func finish() {
        if kept > 1, lastDevice == firstDevice {
            kept -= 1
            if lastWritten { points.removeLast() }
        }
        guard kept >= 3, !overflowed else { points.removeSubrange(polygonStart...); return }
        guard polygonStart + kept <= maxPoints else {
            overflowed = true
            points.removeSubrange(polygonStart...)
            return
        }
        for q in points[polygonStart...] { lo = pointwiseMin(lo, q); hi = pointwiseMax(hi, q) }
        if points.count - polygonStart >= 3 {
            ends.append(points.count)
        } else {
            points.removeSubrange(polygonStart...)
        }
    }

    mutating func addPolygon(_ pts: [CGPoint], reversed: Bool) {
        guard !pts.isEmpty, !overflowed else { return }
        begin()
        let identity = transform.isIdentity
        if reversed {
            for i in stride(from: pts.count - 1, through: 0, by: -1) { add(device(pts[i], identity: identity)) }
        } else {
            for p in pts { add(device(p, identity: identity)) }
        }
        finish()
    }

    /// `PathShapes.ellipse`'s move and four quarter cubics, mapped and flattened as
    /// a fill's path flattens them (`ca_path_fill_polygons`).
    mutating func addCircle(center c: CGPoint, radius r: CGFloat) {
        guard !overflowed else { return }
        begin()
        let identity = transform.isIdentity
        let s = CGRect(x: c.x - r, y: c.y - r, width: 2 * r, height: 2 * r).standardized
        let right = CGPoint(x: s.maxX, y: s.midY), bottom = CGPoint(x: s.midX, y: s.maxY)
        let left = CGPoint(x: s.minX, y: s.midY), top = CGPoint(x: s.midX, y: s.minY)
        let quarters = (
            PathShapes.quarter(from: right, to: bottom, corner: CGPoint(x: s.maxX, y: s.maxY), .identity),
            PathShapes.quarter(from: bottom, to: left, corner: CGPoint(x: s.minX, y: s.maxY), .identity),
            PathShapes.quarter(from: left, to: top, corner: CGPoint(x: s.minX, y: s.minY), .identity),
            PathShapes.quarter(from: top, to: right, corner: CGPoint(x: s.maxX, y: s.minY), .identity))
        var a = device(right, identity: identity)
        // The path route drops a whole element whose points are not finite; so does this.
        guard a.x.isFinite, a.y.isFinite else { return }
        add(a)
        for q in [quarters.0, quarters.1, quarters.2, quarters.3] {
            guard case .cubic(let u1, let u2, let ub) = q else { continue }
            let c1 = device(u1, identity: identity), c2 = device(u2, identity: identity), b = device(ub, identity: identity)
            guard c1.x.isFinite, c1.y.isFinite, c2.x.isFinite, c2.y.isFinite, b.x.isFinite, b.y.isFinite else { continue }
            let m = max((a - c1 * 2 + c2).vectorLength, (c1 - c2 * 2 + b).vectorLength)
            let n = flatteningSegmentCount(degree: 3, secondDifference: m, tolerance: tolerance)
            if polygonStart + kept + n > maxPoints { overflowed = true; points.removeSubrange(polygonStart...); return }
            for i in 1...n { add(i == n ? b : cubicPoint(a, c1, c2, b, CGFloat(i) / CGFloat(n))) }
            a = b
        }
        finish()
    }
}
