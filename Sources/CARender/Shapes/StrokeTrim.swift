import CoreGraphics

/// The part of a flattened centreline between two fractions of its length, as separate open
/// pieces: what a stroke trimmed by `strokeStart`/`strokeEnd` strokes ("the relative location at
/// which to begin/stop stroking the path", CAShapeLayer), each piece capped at its ends with the
/// layer's line cap as Core Graphics caps a path's open ends. The length runs over the subpaths
/// in order, closing segments included; a closed subpath wholly inside the range stays closed
/// (its joins all round), one that is cut becomes an open piece. Vertices keep whether they are
/// corners, and a piece that keeps a subpath's own open end keeps that end's true tangent (an
/// open subpath's caps are cut across it).
///
/// The CPU backend rasterises a trimmed stroke from these each frame (`ShapeRasterizer.Request.trim`),
/// as rlottie trims and rasterises: a small raster of the visible part instead of a raster of
/// the whole path with an arc-length field cut per pixel (issue 23: TwitterHeart's fourteen
/// dots travelling along lines).
enum StrokeTrim {
    static func trimmed(_ subpaths: [FlattenedSubpath], from s0: Double, to s1: Double) -> [FlattenedSubpath] {
        var out: [FlattenedSubpath] = []
        walk(subpaths, from: s0, to: s1, whole: { out.append($0) }) { sub, lo, hi, length in
            var points: [CGPoint] = [], corners: [Bool] = []
            let (startTangent, endTangent) = piece(of: sub, from: lo, to: hi, length: length) { p, corner in
                points.append(p)
                corners.append(corner)
            }
            guard points.count >= 2 else { return }
            corners[corners.count - 1] = true
            out.append(FlattenedSubpath(points: points, isCorner: corners, isClosed: false, hasSegments: true,
                                        startTangent: startTangent, endTangent: endTangent))
        }
        return out
    }

    /// Every point of `trimmed(subpaths, from: s0, to: s1)`, in order, without building the
    /// pieces (the box of a trimmed stroke's raster, found for every such stroke every frame).
    static func forEachPoint(_ subpaths: [FlattenedSubpath], from s0: Double, to s1: Double, _ body: (CGPoint) -> Void) {
        walk(subpaths, from: s0, to: s1, whole: { for p in $0.points { body(p) } }) { sub, lo, hi, length in
            _ = piece(of: sub, from: lo, to: hi, length: length) { p, _ in body(p) }
        }
    }

    /// The subpaths between arc lengths s0 × total and s1 × total: those wholly inside to
    /// `whole`, those cut to `cut` with the lengths (relative to the subpath) to cut them at.
    @inline(__always)
    private static func walk(_ subpaths: [FlattenedSubpath], from s0: Double, to s1: Double, whole: (FlattenedSubpath) -> Void,
                             cut: (FlattenedSubpath, Double, Double, Double) -> Void) {
        var total = 0.0
        for sub in subpaths { total += ShapeRasterizer.arcLength(sub) }
        guard total > 0, total.isFinite, s0.isFinite, s1.isFinite, s0 < s1 else { return }
        let a = s0 * total, b = s1 * total
        var base = 0.0
        for sub in subpaths {
            let length = ShapeRasterizer.arcLength(sub)
            defer { base += length }
            guard sub.hasSegments, sub.points.count > 1, length > 0 else { continue }
            let lo = a - base, hi = b - base
            guard hi > 0, lo < length else { continue }
            if lo <= 0, hi >= length {
                whole(sub)
                continue
            }
            cut(sub, lo, hi, length)
        }
    }

    /// The points of the open piece of `sub` between arc lengths `lo` and `hi` (not the whole
    /// of it), each with whether it is a corner, to `point`: none, or at least two (the last
    /// always a corner in the piece). Returns the piece's start and end tangents.
    @inline(__always)
    private static func piece(of sub: FlattenedSubpath, from lo: Double, to hi: Double, length: Double,
                              _ point: (CGPoint, Bool) -> Void) -> (CGPoint, CGPoint) {
        let pts = sub.points
        let n = sub.isClosed ? pts.count : pts.count - 1
        var started = false
        var startTangent = CGPoint.zero, endTangent = CGPoint.zero
        var s = 0.0
        for i in 0..<n {
            let p = pts[i], q = pts[(i + 1) % pts.count]
            let dx = Double(q.x - p.x), dy = Double(q.y - p.y)
            let l = (dx * dx + dy * dy).squareRoot()
            let e = s + l
            defer { s = e }
            guard l > 0, e > lo else { continue }
            if s >= hi { break }
            let dir = CGPoint(x: dx / l, y: dy / l)
            func at(_ d: Double) -> CGPoint { CGPoint(x: Double(p.x) + dx * d / l, y: Double(p.y) + dy * d / l) }
            if !started {
                started = true
                point(lo > s ? at(lo - s) : p, true)
                startTangent = lo <= 0 && !sub.isClosed && sub.startTangent != .zero ? sub.startTangent : dir
            }
            if e <= hi {
                point(q, sub.isCorner[(i + 1) % pts.count])
            } else {
                point(at(hi - s), true)
            }
            endTangent = dir
            if e >= hi { break }
        }
        if hi >= length, !sub.isClosed, sub.endTangent != .zero { endTangent = sub.endTangent }
        return (startTangent, endTangent)
    }
}
