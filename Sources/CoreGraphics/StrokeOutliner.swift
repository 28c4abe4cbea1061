// The stroker (issue 19's drawing speed): `StrokeOutline.c` builds the pieces of a stroke
// outline (see `copy(strokingWithWidth:…)` for their shapes) either straight into the raster-space
// polygons `CoverageRasterizer.addPolygons` reads (`strokePath()`: no outline `CGPath`, no
// element-by-element transform, no second count and flatten) or as stroker-space pieces that
// become the outline path (`copy(strokingWithWidth:…)`, `replacePathWithStrokedPath()`). Both
// come from one geometry, so a stroke paints exactly the bytes its outline path fills.
//
// The raster route follows the fill flattening's rules vertex for vertex: each point mapped by
// the CTM as `CGPoint.applying` maps it, consecutive equal device points and a closing repeat of
// the start dropped, circles' four cubics flattened as `ca_path_fill_polygons` flattens them at
// the fill tolerance; then raster space (y down), polygons of fewer than three finite vertices
// dropped. The Swift stroker this replaced gave the same vertices to the bit (the benchmark's
// checksums did not move) at two and a half times the instructions (stars: ~200 M a frame against
// ~80 M, the flattening included). Curves' inner chord vertices, the centre line's and the
// circles', are since centred on the curve as the fill's are (PathWalk.h).

import CCoverage

/// The C stroker and the arrays it keeps from stroke to stroke (freed with this object).
package final class StrokeOutliner {
    private var c = ca_stroker()
    /// The stroked path's elements as `ca_path_item`s (spare room past the count).
    private var items: [ca_path_item] = []

    package init() {}
    deinit { ca_stroker_free(&c) }

    /// The most elements any of the stroker's kept arrays has room for.
    package var retainedCapacity: Int {
        max(c.xyCapacity, c.endsCapacity, c.segCapacity, c.flatCapacity, c.rightCapacity, c.polyCapacity, items.count)
    }

    /// The outline of `path` (its curves flattened at `tolerance` under `flattenedSubpaths`'
    /// rules, their inner vertices centred as a fill's are)
    /// stroked with half width `hw`, as path elements in the path's space: each polygon a move,
    /// lines and a close; each circle (round dots and cusps) the move, four quarter cubics and
    /// close of `addEllipse(in:)`.
    package func outlineElements(of path: CGPath, tolerance: CGFloat, halfWidth hw: CGFloat, cap: CGLineCap,
                                 join: CGLineJoin, miterLimit: CGFloat, arcTolerance: CGFloat) -> [PathElement] {
        ca_stroker_begin(&c, Int32(CA_STROKE_PIECES), Double(hw), cap.rawValue, join.rawValue, Double(miterLimit),
                         Double(arcTolerance), 1, 0, 0, 1, 0, 0, 1, 0, 1, Int.max)
        add(path, tolerance: tolerance)
        var out: [PathElement] = []
        out.reserveCapacity(c.points + 2 * c.polygons)
        let xy = c.xy
        func point(_ i: Int) -> CGPoint { CGPoint(x: xy![2 * i], y: xy![2 * i + 1]) }
        var start = 0
        for k in 0..<c.polygons {
            let end = c.ends[k]
            out.append(.move(point(start)))
            if c.kinds[k] == UInt8(CA_PIECE_CIRCLE) {
                for q in 0..<4 {
                    out.append(.cubic(point(start + 1 + 3 * q), point(start + 2 + 3 * q), point(start + 3 + 3 * q)))
                }
            } else {
                for i in (start + 1)..<max(end, start + 1) { out.append(.line(point(i))) }
            }
            out.append(.close)
            start = end
        }
        return out
    }

    /// The outline of `path` (flattened at `tolerance` in its own space) as raster-space polygons
    /// in `sink` (its arrays emptied first, their storage kept): mapped through `transform`, y
    /// down from the top of a bitmap `height` tall, circles flattened at `circleTolerance` (device
    /// pixels), abandoned (`overflowed`) past `maxPoints` vertices.
    package func rasterPolygons(of path: CGPath, tolerance: CGFloat, halfWidth hw: CGFloat, cap: CGLineCap,
                                join: CGLineJoin, miterLimit: CGFloat, arcTolerance: CGFloat, transform t: CGAffineTransform,
                                height: CGFloat, circleTolerance: CGFloat, maxPoints: Int, into sink: inout RasterPolygonSink) {
        ca_stroker_begin(&c, Int32(CA_STROKE_RASTER), Double(hw), cap.rawValue, join.rawValue, Double(miterLimit),
                         Double(arcTolerance), Double(t.a), Double(t.b), Double(t.c), Double(t.d), Double(t.tx),
                         Double(t.ty), t.isIdentity ? 1 : 0, Double(height), Double(circleTolerance), maxPoints)
        add(path, tolerance: tolerance)
        sink.points.removeAll(keepingCapacity: true)
        sink.ends.removeAll(keepingCapacity: true)
        sink.overflowed = c.overflowed != 0
        sink.lo = SIMD2(c.lo.0, c.lo.1)
        sink.hi = SIMD2(c.hi.0, c.hi.1)
        guard !sink.overflowed, c.polygons > 0 else { return }
        UnsafeRawPointer(c.xy!).withMemoryRebound(to: SIMD2<Double>.self, capacity: c.points) {
            sink.points.append(contentsOf: UnsafeBufferPointer(start: $0, count: c.points))
        }
        sink.ends.append(contentsOf: UnsafeBufferPointer(start: c.ends, count: c.polygons))
    }

    private func add(_ path: CGPath, tolerance: CGFloat) {
        let count = path.writeItems(into: &items)
        items.withUnsafeBufferPointer { ca_stroker_add_path(&c, $0.baseAddress, count, Double(tolerance)) }
    }
}

/// A stroke outline as raster-space polygons (y down from the top of the bitmap): polygon k is
/// `points[ends[k - 1]..<ends[k]]`, `lo`/`hi` their bounds — `CGContext.rasterize(polygons:…)`'s
/// input. A context keeps one between strokes, so its arrays stop growing.
package struct RasterPolygonSink {
    package init() {}
    package var points: [SIMD2<Double>] = []
    package var ends: [Int] = []
    package var lo = SIMD2<Double>(repeating: .infinity), hi = SIMD2<Double>(repeating: -.infinity)
    /// True when the outline passed its vertex bound and was abandoned.
    package var overflowed = false
}
