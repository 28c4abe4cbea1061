// A filled path's polygons, straight from its elements to the raster-space vertices the edge
// writer reads (issue 19's drawing speed): the elements copied into `CCoverage`'s plain records,
// then `ca_path_fill_polygons` (PathPolygons.h) walks, flattens and maps them in one pass. The
// Swift route it replaces (`forEachSegment` into a device-space vertex array, then a second
// pass mapping each polygon to raster space) spent ~170 instructions a vertex on array and
// closure bookkeeping, 8 % of the 10,000-rounded-rect frame.
import CCoverage

/// A fill's raster-space polygons (`CGContext.makeRasterPolygons`): kept by the context and
/// reused path after path, so that a fill allocates nothing once its arrays have grown.
struct FillPolygons {
    /// The path's elements as `ca_path_item`s (spare room past the path's count).
    var items: [ca_path_item] = []
    /// Polygon k is `points[ends[k - 1]..<ends[k]]` (the first from 0), y measured down from
    /// the top of the bitmap; entries past `pointCount` (and ends past `polygonCount`) are spare
    /// room, their values left over.
    var points: [SIMD2<Double>] = []
    var ends: [Int] = []
    var pointCount = 0, polygonCount = 0
    /// The bounds of the polygons' vertices (see `ca_path_fill_polygons` for which count).
    var lo = SIMD2<Double>(repeating: .infinity), hi = SIMD2<Double>(repeating: -.infinity)

    /// The polygons' ends (`ends` without its spare room).
    var usedEnds: ArraySlice<Int> { ends[..<polygonCount] }

    /// Replaces the polygons with `path`'s subpaths, flattened at `tolerance` (device pixels;
    /// at least 10⁻⁹) as raster-space polygons of a bitmap `height` rows tall; false (and no
    /// polygons) when the path flattens into more than `limit` segments.
    ///
    /// The vertices are those of `flattenedSubpaths(tolerance:)`'s rule mapped to raster space
    /// (`ca_path_fill_polygons` lists the rules), but for curves' inner chord vertices, which
    /// are centred on the curve (CCoverage's PathWalk.h: the chords of `flattenedSubpaths` all
    /// cut inside the bend, and a fill loses area on every curve). The segments are counted first (`ca_path_segment_count`),
    /// to refuse a huge path and to size the vertex array, so each curve's count is worked out
    /// twice: a seventh of the flattening's instructions, 1 % of the 10,000-rect frame.
    mutating func set(flattening path: CGPath, tolerance: CGFloat, height: CGFloat, limit: Int) -> Bool {
        pointCount = 0; polygonCount = 0
        lo = SIMD2(repeating: .infinity); hi = SIMD2(repeating: -.infinity)
        let count = path.writeItems(into: &items)
        let segments = items.withUnsafeBufferPointer { ca_path_segment_count($0.baseAddress, count, Double(tolerance), limit) }
        guard segments <= limit else { return false }
        // A vertex is begun or added at most once a segment plus once an element (see
        // PathPolygons.h); a polygon ends at most once an element, plus one.
        let room = segments + count + 1
        if points.count < room {
            points.append(contentsOf: repeatElement(SIMD2<Double>(), count: max(room, 2 * points.count) - points.count))
        }
        if ends.count < count + 1 {
            ends.append(contentsOf: repeatElement(0, count: max(count + 1, 2 * ends.count) - ends.count))
        }
        var result = ca_fill_polygons()
        items.withUnsafeBufferPointer { items in
            points.withUnsafeMutableBufferPointer { pts in
                ends.withUnsafeMutableBufferPointer { ends in
                    UnsafeMutableRawPointer(pts.baseAddress!).withMemoryRebound(to: Double.self, capacity: 2 * pts.count) { xy in
                        result.xy = xy
                        result.ends = ends.baseAddress
                        ca_path_fill_polygons(items.baseAddress, count, Double(tolerance), Double(height), &result)
                    }
                }
            }
        }
        pointCount = result.points; polygonCount = result.polygons
        lo = SIMD2(result.lo.0, result.lo.1); hi = SIMD2(result.hi.0, result.hi.1)
        return true
    }
}

extension CGPath {
    /// Writes the elements as `CCoverage`'s plain records into `items` (grown as needed, at least
    /// doubling; entries past the returned count are spare room) and returns how many: what the
    /// C flattening of fills and strokes reads.
    func writeItems(into items: inout [ca_path_item]) -> Int {
        let elements = self.elements
        let count = elements.count
        if items.count < count {
            items.append(contentsOf: repeatElement(ca_path_item(), count: max(count, 2 * items.count) - items.count))
        }
        items.withUnsafeMutableBufferPointer { out in
            for (k, e) in elements.enumerated() {
                switch e {
                case .move(let p): out[k] = ca_path_item(kind: 0, p: (p.x, p.y, 0, 0, 0, 0))
                case .line(let p): out[k] = ca_path_item(kind: 1, p: (p.x, p.y, 0, 0, 0, 0))
                case .quad(let c, let p): out[k] = ca_path_item(kind: 2, p: (c.x, c.y, p.x, p.y, 0, 0))
                case .cubic(let c1, let c2, let p): out[k] = ca_path_item(kind: 3, p: (c1.x, c1.y, c2.x, c2.y, p.x, p.y))
                case .close: out[k] = ca_path_item(kind: 4, p: (0, 0, 0, 0, 0, 0))
                }
            }
        }
        return count
    }
}
