import Foundation
import CoreGraphics

/// Merge paths (`mm`) as After Effects defines them, for a fill that paints the merged paths:
/// mode 1 "merge" puts the paths into one path filled with the fill's rule; mode 2 "add" is the
/// union of the paths' filled areas; mode 5 "exclude intersections" keeps what an odd number of
/// paths cover. These are drawn without path boolean operations, by the fill rule alone:
///
/// - add: every path item is turned so that its signed area is positive, then the items are
///   filled non-zero together. For items whose own winding numbers are 0 or 1 (a shape, with
///   holes wound the other way), the sum is positive exactly where one of them covers: the union.
/// - exclude intersections: the items filled even-odd together (parity of the covering count).
///
/// Subtract (3) and intersect (4) need the boolean operations themselves and are drawn unmerged,
/// as lottie-ios draws every merge mode (neither of its engines merges: the corpus's
/// `issue_965` and `issue_1895` snapshots show the paths unmerged in both).
enum LottieMergePaths {
    /// The item's path turned to a positive signed area (in the path's own coordinates).
    static func orientedPositive(_ path: CGPath) -> CGPath {
        signedArea(path) < 0 ? reversed(path) : path
    }

    /// The signed area enclosed by `path` (each subpath closed), by the shoelace formula over
    /// the path with curves sampled at 16 points each: only its sign is used.
    static func signedArea(_ path: CGPath) -> Double {
        var area = 0.0
        var start = CGPoint.zero, last = CGPoint.zero
        func edge(_ a: CGPoint, _ b: CGPoint) { area += Double(a.x * b.y - b.x * a.y) }
        for e in path.elements {
            switch e {
            case .move(let p):
                edge(last, start); start = p; last = p
            case .line(let p):
                edge(last, p); last = p
            case let .quad(c, p):
                var prev = last
                for k in 1...16 {
                    let t = CGFloat(k) / 16, u = 1 - t
                    let q = CGPoint(x: u * u * last.x + 2 * u * t * c.x + t * t * p.x, y: u * u * last.y + 2 * u * t * c.y + t * t * p.y)
                    edge(prev, q); prev = q
                }
                last = p
            case let .cubic(c1, c2, p):
                var prev = last
                for k in 1...16 {
                    let t = CGFloat(k) / 16, u = 1 - t
                    let a = u * u * u, b = 3 * u * u * t, c = 3 * u * t * t, d = t * t * t
                    let q = CGPoint(x: a * last.x + b * c1.x + c * c2.x + d * p.x, y: a * last.y + b * c1.y + c * c2.y + d * p.y)
                    edge(prev, q); prev = q
                }
                last = p
            case .close:
                edge(last, start); last = start
            }
        }
        edge(last, start)
        return area.isFinite ? area / 2 : 0
    }

    /// `path` with every subpath traversed backwards (curves with their control points swapped);
    /// closed subpaths stay closed. The starting point moves to each subpath's end, which a fill
    /// does not see.
    static func reversed(_ path: CGPath) -> CGPath {
        let out = CGMutablePath()
        var start = CGPoint.zero
        var segments: [(from: CGPoint, element: PathElement)] = []
        var last = CGPoint.zero
        var open = false
        func flush(closed: Bool) {
            guard open else { return }
            out.move(to: last)
            for (from, e) in segments.reversed() {
                switch e {
                case .line: out.addLine(to: from)
                case .quad(let c, _): out.addQuadCurve(to: from, control: c)
                case let .cubic(c1, c2, _): out.addCurve(to: from, control1: c2, control2: c1)
                default: break
                }
            }
            if closed { out.closeSubpath() }
            segments = []
            open = false
        }
        for e in path.elements {
            switch e {
            case .move(let p):
                flush(closed: false)
                start = p; last = p; open = true
            case .line(let p), .quad(_, let p), .cubic(_, _, let p):
                if !open { start = last; open = true }
                segments.append((last, e)); last = p
            case .close:
                flush(closed: true)
                last = start
            }
        }
        flush(closed: false)
        return out
    }
}
