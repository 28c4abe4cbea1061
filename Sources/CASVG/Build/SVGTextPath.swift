import Foundation

/// A `<textPath>`'s path measured for placing glyphs along it (SVG 1.1 §10.13): the referenced
/// shape's outline (its own `transform` applied), flattened into segments with their
/// cumulative lengths, so a distance along the path gives a point and the tangent's angle.
struct SVGTextPath {
    /// Polyline points of each subpath joined (a move starts a new piece: no segment joins them).
    private var segments: [(a: CGPoint, b: CGPoint, start: Double, length: Double)] = []
    private(set) var length = 0.0
    /// Where the text starts along the path (startOffset, resolved).
    var startOffset = 0.0

    /// Flattens `path`: curves in 64 straight pieces each (enough for glyph placement at the
    /// sizes text uses: the pieces' chords deviate far less than a pixel from a 500 px curve).
    init(_ path: CGPath) {
        var current = CGPoint.zero, subpathStart = CGPoint.zero
        func add(_ b: CGPoint) {
            let l = Double(hypot(b.x - current.x, b.y - current.y))
            if l > 0, l.isFinite {
                segments.append((current, b, length, l))
                length += l
            }
            current = b
        }
        for e in path.elements {
            switch e {
            case .move(let p): current = p; subpathStart = p
            case .line(let p): add(p)
            case .quad(let c, let p):
                let p0 = current
                for i in 1...64 {
                    let t = CGFloat(i) / 64, u = 1 - t
                    add(CGPoint(x: u * u * p0.x + 2 * u * t * c.x + t * t * p.x, y: u * u * p0.y + 2 * u * t * c.y + t * t * p.y))
                }
            case .cubic(let c1, let c2, let p):
                let p0 = current
                for i in 1...64 {
                    let t = CGFloat(i) / 64, u = 1 - t
                    let x = u * u * u * p0.x + 3 * u * u * t * c1.x + 3 * u * t * t * c2.x + t * t * t * p.x
                    let y = u * u * u * p0.y + 3 * u * u * t * c1.y + 3 * u * t * t * c2.y + t * t * t * p.y
                    add(CGPoint(x: x, y: y))
                }
            case .close: add(subpathStart)
            }
        }
    }

    /// The point at distance `d` along the path and the tangent's angle there (radians); nil
    /// off the path (glyphs whose middle falls there are not drawn, SVG 1.1 §10.13.2).
    func point(at d: Double) -> (CGPoint, Double)? {
        guard d >= 0, d <= length, !segments.isEmpty else { return nil }
        var lo = 0, hi = segments.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if segments[mid].start <= d { lo = mid } else { hi = mid - 1 }
        }
        let s = segments[lo]
        let f = CGFloat(max(0, min(1, (d - s.start) / s.length)))
        let p = CGPoint(x: s.a.x + (s.b.x - s.a.x) * f, y: s.a.y + (s.b.y - s.a.y) * f)
        return (p, Double(atan2(s.b.y - s.a.y, s.b.x - s.a.x)))
    }
}
