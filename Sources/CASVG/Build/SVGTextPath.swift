import Foundation

/// A `<textPath>`'s path measured for placing glyphs along it (SVG 1.1 §10.13): the referenced
/// shape's outline (its own `transform` applied) as cubic Bézier pieces with their arc lengths,
/// so a distance along the path gives a point and the tangent's angle.
///
/// Placement is by exact arc length, as the specification asks ("the glyph's midpoint … at the
/// point on the path at that distance"): a line is the cubic whose control points sit at a third
/// and two thirds of the way, so its parameter is proportional to distance, and on a curve the
/// parameter for a distance is found by inverting the arc-length integral. Most of resvg's 2020
/// reference images for textPath place glyphs by `t = s / L` with lines as cubics with control
/// points at 0.33 and 0.66 (a resvg defect, fixed upstream in November 2020), up to about half a
/// unit away from the exact place; those cases are listed as expected failures rather than
/// reproduced (docs/SVG.md "Text").
struct SVGTextPath {
    /// One cubic piece and where it starts along the path.
    struct Piece {
        var p0: CGPoint, p1: CGPoint, p2: CGPoint, p3: CGPoint
        var start: Double, length: Double
    }
    private(set) var pieces: [Piece] = []
    private(set) var length = 0.0
    /// Where the text starts along the path (startOffset, resolved).
    var startOffset = 0.0

    /// Converts `path` to cubics; a move starts a new piece without joining it to the last one
    /// (the distance runs on across subpaths, as the references measure it).
    init(_ path: CGPath) {
        var current = CGPoint.zero, subpathStart = CGPoint.zero
        func add(_ c1: CGPoint, _ c2: CGPoint, _ b: CGPoint) {
            var piece = Piece(p0: current, p1: c1, p2: c2, p3: b, start: length, length: 0)
            let l = Self.arcLength(piece, 0, 1)
            current = b
            guard l.isFinite else { return }
            piece.length = l
            pieces.append(piece)
            length += l
        }
        func line(_ b: CGPoint) {
            let a = current
            add(CGPoint(x: a.x + (b.x - a.x) / 3, y: a.y + (b.y - a.y) / 3),
                CGPoint(x: a.x + (b.x - a.x) * 2 / 3, y: a.y + (b.y - a.y) * 2 / 3), b)
        }
        for e in path.elements {
            switch e {
            case .move(let p): current = p; subpathStart = p
            case .line(let p): line(p)
            case .quad(let c, let p):
                let a = current
                add(CGPoint(x: a.x + (c.x - a.x) * 2 / 3, y: a.y + (c.y - a.y) * 2 / 3),
                    CGPoint(x: p.x + (c.x - p.x) * 2 / 3, y: p.y + (c.y - p.y) * 2 / 3), p)
            case .cubic(let c1, let c2, let p): add(c1, c2, p)
            case .close: line(subpathStart)
            }
        }
    }

    /// The point at distance `d` along the path and the tangent's angle there (radians); nil
    /// off the path (glyphs whose middle falls there are not drawn, SVG 1.1 §10.13.2).
    func point(at d: Double) -> (CGPoint, Double)? {
        guard d >= 0, d <= length, d.isFinite, !pieces.isEmpty else { return nil }
        // The first piece ending at or after d (pieces are contiguous: it starts at or before
        // d); a binary search, so a path of many pieces under much text stays fast.
        var lo = 0, hi = pieces.count - 1
        while lo < hi {
            let mid = (lo + hi) / 2
            if pieces[mid].start + pieces[mid].length >= d { hi = mid } else { lo = mid + 1 }
        }
        let piece = pieces[lo]
        let t = Self.parameter(piece, atLength: d - piece.start)
        let p = Self.eval(piece, t), v = Self.derivative(piece, t)
        let angle = v.x == 0 && v.y == 0 ? Double(atan2(piece.p3.y - piece.p0.y, piece.p3.x - piece.p0.x))
            : Double(atan2(v.y, v.x))
        return (p, angle)
    }

    /// The parameter at arc length `s` into `c`: Newton steps on the arc-length integral from the
    /// proportional guess (exact at once for a line), kept inside a shrinking bracket so a
    /// degenerate derivative cannot send it off the piece.
    static func parameter(_ c: Piece, atLength s: Double) -> Double {
        guard c.length > 0 else { return 0 }
        let target = max(0, min(c.length, s))
        var lo = 0.0, hi = 1.0
        var t = target / c.length
        for _ in 0..<12 {
            let err = arcLength(c, 0, t) - target
            if abs(err) < 1e-6 { break }
            if err > 0 { hi = t } else { lo = t }
            let v = derivative(c, t)
            let speed = Double(hypot(v.x, v.y))
            var next = speed > 1e-12 ? t - err / speed : (lo + hi) / 2
            if !(next > lo && next < hi) { next = (lo + hi) / 2 }
            t = next
        }
        return t
    }

    private static func eval(_ c: Piece, _ t: Double) -> CGPoint {
        let u = 1 - t
        let w0 = u * u * u, w1 = 3 * u * u * t, w2 = 3 * u * t * t, w3 = t * t * t
        return CGPoint(x: w0 * c.p0.x + w1 * c.p1.x + w2 * c.p2.x + w3 * c.p3.x,
                       y: w0 * c.p0.y + w1 * c.p1.y + w2 * c.p2.y + w3 * c.p3.y)
    }

    private static func derivative(_ c: Piece, _ t: Double) -> CGPoint {
        let u = 1 - t
        let w0 = 3 * u * u, w1 = 6 * u * t, w2 = 3 * t * t
        return CGPoint(x: w0 * (c.p1.x - c.p0.x) + w1 * (c.p2.x - c.p1.x) + w2 * (c.p3.x - c.p2.x),
                       y: w0 * (c.p1.y - c.p0.y) + w1 * (c.p2.y - c.p1.y) + w2 * (c.p3.y - c.p2.y))
    }

    /// Arc length of `c` between parameters `t0` and `t1`: five-point Gauss–Legendre on 16
    /// equal parts (far below a thousandth of a unit off for the curves paths carry).
    static func arcLength(_ c: Piece, _ t0: Double, _ t1: Double) -> Double {
        let nodes: [(x: Double, w: Double)] = [
            (0, 0.568_888_888_888_888_9),
            (-0.538_469_310_105_683_1, 0.478_628_670_499_366_5), (0.538_469_310_105_683_1, 0.478_628_670_499_366_5),
            (-0.906_179_845_938_664_0, 0.236_926_885_056_189_1), (0.906_179_845_938_664_0, 0.236_926_885_056_189_1),
        ]
        let parts = 16
        let h = (t1 - t0) / Double(parts)
        var sum = 0.0
        for k in 0..<parts {
            let mid = t0 + h * (Double(k) + 0.5)
            for n in nodes {
                let v = derivative(c, mid + n.x * h / 2)
                sum += n.w * Double(hypot(v.x, v.y))
            }
        }
        return sum * h / 2
    }
}
