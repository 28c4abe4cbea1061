import CoreGraphics

/// Per texel near a stroke: the arc length (layer units) of the nearest centreline point from
/// the start of the path and from the start of its subpath, and the distance (texels) to that
/// point. The shader turns these into `strokeStart`/`strokeEnd` trims and dashes, with the
/// line cap drawn at every cut, so animating them (or `lineDashPhase`) needs no new raster.
///
/// Beyond the open ends of a subpath the arc length continues along the end tangent (negative
/// before the start, past the length after the end) and the distance is measured across it, so
/// a cut or dash there is placed as if the line went on: a cap drawn by the raster at the path's
/// own end is cut exactly as Core Graphics would cut a dash there.
///
/// Where the stroke passes over itself the nearest centreline point decides, so a trim that
/// ends on one pass of a crossing cuts the pixels nearer to that pass (a difference from
/// stroking the trimmed path, visible only within a crossing).
enum ArcLengthField {
    static let unset: Float = -1e30

    static func compute(_ subpaths: [FlattenedSubpath], map: TexelMap, width w: Int, height h: Int, reach: Double) -> [Float] {
        var field = [Float](repeating: 0, count: w * h * 4)
        var best = [Float](repeating: .infinity, count: w * h)
        func splat(_ a: SIMD2<Double>, _ b: SIMD2<Double>, s0: Double, s1: Double, subStart: Double, extendStart: Bool, extendEnd: Bool) {
            guard a.x.isFinite, a.y.isFinite, b.x.isFinite, b.y.isFinite else { return }
            // `reach` grows with the line width, which may be any finite number (1e20 trapped
            // in Int(_:), issue 17): the conversion saturates, then the box is clipped.
            let minX = max(Int.clamped((min(a.x, b.x) - reach).rounded(.down)), 0)
            let maxX = min(Int.clamped((max(a.x, b.x) + reach).rounded(.up)), w - 1)
            let minY = max(Int.clamped((min(a.y, b.y) - reach).rounded(.down)), 0)
            let maxY = min(Int.clamped((max(a.y, b.y) + reach).rounded(.up)), h - 1)
            guard minX <= maxX, minY <= maxY else { return }
            let ab = b - a
            let l2 = ab.x * ab.x + ab.y * ab.y
            let l = l2.squareRoot()
            field.withUnsafeMutableBufferPointer { f in
                best.withUnsafeMutableBufferPointer { bst in
                    for y in minY...maxY {
                        let py = Double(y) + 0.5
                        for x in minX...maxX {
                            let px = Double(x) + 0.5
                            let vx = px - a.x, vy = py - a.y
                            let t = l2 > 0 ? (vx * ab.x + vy * ab.y) / l2 : 0
                            let tc = min(max(t, 0), 1)
                            let dx = vx - ab.x * tc, dy = vy - ab.y * tc
                            let dist = (dx * dx + dy * dy).squareRoot()
                            let k = y * w + x
                            guard Float(dist) < bst[k] else { continue }
                            bst[k] = Float(dist)
                            var tt = tc
                            var d = dist
                            if (extendStart && t < 0) || (extendEnd && t > 1), l > 0 {
                                tt = t
                                d = abs(vx * ab.y - vy * ab.x) / l
                            }
                            let s = s0 + (s1 - s0) * tt
                            f[4 * k] = Float(s)
                            f[4 * k + 1] = Float(s - subStart)
                            f[4 * k + 2] = Float(d)
                        }
                    }
                }
            }
        }
        var total = 0.0
        for s in subpaths where s.hasSegments && !s.points.isEmpty {
            let pts = s.points
            let n = pts.count
            let texel = pts.map { map.apply($0) }
            let segCount = s.isClosed ? n : n - 1
            let subStart = total
            if segCount <= 0 {
                // A dot: one point, distance to it.
                splat(texel[0], texel[0], s0: total, s1: total, subStart: subStart, extendStart: false, extendEnd: false)
                continue
            }
            var along = total
            for i in 0..<segCount {
                let a = pts[i], b = pts[(i + 1) % n]
                let len = Double(((b.x - a.x) * (b.x - a.x) + (b.y - a.y) * (b.y - a.y)).squareRoot())
                splat(texel[i], texel[(i + 1) % n], s0: along, s1: along + len, subStart: subStart,
                      extendStart: !s.isClosed && i == 0, extendEnd: !s.isClosed && i == segCount - 1)
                along += len
            }
            total = along
        }

        return field
    }
}
