import Foundation

/// A `<textPath>`'s path measured for placing glyphs along it (SVG 1.1 §10.13): the referenced
/// shape's outline (its own `transform` applied) as cubic Bézier pieces with their arc lengths,
/// so a distance along the path gives a point and the tangent's angle.
///
/// Placement follows the suite's references (resvg-test-suite, rendered by resvg in 2020), not
/// the exact arc length: every piece is a cubic (a line becomes the cubic with control points at
/// 0.33 and 0.66 of the way, a quadratic is raised), and a distance `s` into a piece of length
/// `L` is the point at parameter `t = s / L`, turned with the derivative there. On a curve that
/// parameter is not the exact arc-length inverse, so a glyph can sit a fraction of a unit off
/// its exact place; the references carry exactly that offset (docs/SVG.md "Text"), and exact
/// placement missed them by 1.1–1.8 % of pixels.
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
            add(CGPoint(x: a.x + (b.x - a.x) * 0.33, y: a.y + (b.y - a.y) * 0.33),
                CGPoint(x: a.x + (b.x - a.x) * 0.66, y: a.y + (b.y - a.y) * 0.66), b)
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
        let t = piece.length > 0 ? max(0, min(1, (d - piece.start) / piece.length)) : 0
        let p = Self.eval(piece, t), v = Self.derivative(piece, t)
        let angle = v.x == 0 && v.y == 0 ? Double(atan2(piece.p3.y - piece.p0.y, piece.p3.x - piece.p0.x))
            : Double(atan2(v.y, v.x))
        return (p, angle)
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
