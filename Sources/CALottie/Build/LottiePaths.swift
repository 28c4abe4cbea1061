import Foundation
import CoreGraphics

/// Path sources (`sh`, `rc`, `el`, `sr`) as CGPaths at a frame, in the direction and with the
/// starting point After Effects uses (it matters for trim paths and dashes).
enum LottiePaths {
    static func bezier(_ b: LottieBezier, into path: CGMutablePath) {
        let n = b.vertices.count
        guard n > 0 else { return }
        path.move(to: b.vertices[0])
        func seg(_ i: Int, _ j: Int) {
            let c1 = CGPoint(x: b.vertices[i].x + b.outTangents[i].x, y: b.vertices[i].y + b.outTangents[i].y)
            let c2 = CGPoint(x: b.vertices[j].x + b.inTangents[j].x, y: b.vertices[j].y + b.inTangents[j].y)
            if c1 == b.vertices[i] && c2 == b.vertices[j] { path.addLine(to: b.vertices[j]) }
            else { path.addCurve(to: b.vertices[j], control1: c1, control2: c2) }
        }
        for i in 0..<(n - 1) { seg(i, i + 1) }
        if b.closed {
            seg(n - 1, 0)
            path.closeSubpath()
        }
    }

    /// A rectangle centred at `p` of size `s` with corner radius `r`, starting at the top-right
    /// corner and running clockwise (reversed: counter-clockwise), as After Effects draws it.
    static func rectangle(center p: CGPoint, size s: CGSize, radius r0: Double, reversed: Bool, into path: CGMutablePath) {
        let w = abs(s.width), h = abs(s.height)
        let r = max(0, min(r0, min(w, h) / 2))
        let l = p.x - w / 2, t = p.y - h / 2, rt = p.x + w / 2, b = p.y + h / 2
        let k = 0.5519150244935105 * r      // the circular-arc Bézier handle length
        if r <= 0 {
            let pts = reversed ? [CGPoint(x: rt, y: t), CGPoint(x: l, y: t), CGPoint(x: l, y: b), CGPoint(x: rt, y: b)]
                               : [CGPoint(x: rt, y: t), CGPoint(x: rt, y: b), CGPoint(x: l, y: b), CGPoint(x: l, y: t)]
            path.move(to: pts[0]); for q in pts.dropFirst() { path.addLine(to: q) }; path.closeSubpath()
            return
        }
        if !reversed {
            path.move(to: CGPoint(x: rt, y: t + r))
            path.addLine(to: CGPoint(x: rt, y: b - r))
            path.addCurve(to: CGPoint(x: rt - r, y: b), control1: CGPoint(x: rt, y: b - r + k), control2: CGPoint(x: rt - r + k, y: b))
            path.addLine(to: CGPoint(x: l + r, y: b))
            path.addCurve(to: CGPoint(x: l, y: b - r), control1: CGPoint(x: l + r - k, y: b), control2: CGPoint(x: l, y: b - r + k))
            path.addLine(to: CGPoint(x: l, y: t + r))
            path.addCurve(to: CGPoint(x: l + r, y: t), control1: CGPoint(x: l, y: t + r - k), control2: CGPoint(x: l + r - k, y: t))
            path.addLine(to: CGPoint(x: rt - r, y: t))
            path.addCurve(to: CGPoint(x: rt, y: t + r), control1: CGPoint(x: rt - r + k, y: t), control2: CGPoint(x: rt, y: t + r - k))
        } else {
            path.move(to: CGPoint(x: rt - r, y: t))
            path.addLine(to: CGPoint(x: l + r, y: t))
            path.addCurve(to: CGPoint(x: l, y: t + r), control1: CGPoint(x: l + r - k, y: t), control2: CGPoint(x: l, y: t + r - k))
            path.addLine(to: CGPoint(x: l, y: b - r))
            path.addCurve(to: CGPoint(x: l + r, y: b), control1: CGPoint(x: l, y: b - r + k), control2: CGPoint(x: l + r - k, y: b))
            path.addLine(to: CGPoint(x: rt - r, y: b))
            path.addCurve(to: CGPoint(x: rt, y: b - r), control1: CGPoint(x: rt - r + k, y: b), control2: CGPoint(x: rt, y: b - r + k))
            path.addLine(to: CGPoint(x: rt, y: t + r))
            path.addCurve(to: CGPoint(x: rt - r, y: t), control1: CGPoint(x: rt, y: t + r - k), control2: CGPoint(x: rt - r + k, y: t))
        }
        path.closeSubpath()
    }

    /// An ellipse starting at its top, clockwise (reversed: counter-clockwise).
    static func ellipse(center p: CGPoint, size s: CGSize, reversed: Bool, into path: CGMutablePath) {
        let rx = abs(s.width) / 2, ry = abs(s.height) / 2
        let kx = rx * 0.5519150244935105, ky = ry * 0.5519150244935105
        let top = CGPoint(x: p.x, y: p.y - ry), right = CGPoint(x: p.x + rx, y: p.y)
        let bottom = CGPoint(x: p.x, y: p.y + ry), left = CGPoint(x: p.x - rx, y: p.y)
        path.move(to: top)
        if !reversed {
            path.addCurve(to: right, control1: CGPoint(x: top.x + kx, y: top.y), control2: CGPoint(x: right.x, y: right.y - ky))
            path.addCurve(to: bottom, control1: CGPoint(x: right.x, y: right.y + ky), control2: CGPoint(x: bottom.x + kx, y: bottom.y))
            path.addCurve(to: left, control1: CGPoint(x: bottom.x - kx, y: bottom.y), control2: CGPoint(x: left.x, y: left.y + ky))
            path.addCurve(to: top, control1: CGPoint(x: left.x, y: left.y - ky), control2: CGPoint(x: top.x - kx, y: top.y))
        } else {
            path.addCurve(to: left, control1: CGPoint(x: top.x - kx, y: top.y), control2: CGPoint(x: left.x, y: left.y - ky))
            path.addCurve(to: bottom, control1: CGPoint(x: left.x, y: left.y + ky), control2: CGPoint(x: bottom.x - kx, y: bottom.y))
            path.addCurve(to: right, control1: CGPoint(x: bottom.x + kx, y: bottom.y), control2: CGPoint(x: right.x, y: right.y + ky))
            path.addCurve(to: top, control1: CGPoint(x: right.x, y: right.y - ky), control2: CGPoint(x: top.x + kx, y: top.y))
        }
        path.closeSubpath()
    }

    /// A star (inner and outer vertices alternating) or a polygon, first point straight up
    /// from the centre then rotated by `rotation` degrees; roundness (percent) bends the edges
    /// with tangents along the circle, as lottie-web and lottie-ios do.
    static func star(center c: CGPoint, points n0: Double, outer: Double, inner: Double, outerRoundness: Double,
                     innerRoundness: Double, rotation: Double, isStar: Bool, reversed: Bool, into path: CGMutablePath) {
        let n = max(3, min(Int.clamped(n0.rounded()), 1000))
        let count = isStar ? n * 2 : n
        let step = 2 * Double.pi / Double(count)
        var angle = (rotation - 90) * .pi / 180
        var pts: [(CGPoint, Double, Double)] = []       // point, radius, roundness
        for i in 0..<count {
            let isOuter = !isStar || i % 2 == 0
            let r = isOuter ? outer : inner
            let round = (isOuter ? outerRoundness : innerRoundness) / 100
            pts.append((CGPoint(x: c.x + r * cos(angle), y: c.y + r * sin(angle)), r, round))
            angle += step * (reversed ? -1 : 1)
        }
        // Tangent length: a quarter of the edge's circle-arc share, scaled by roundness.
        let perimeterFactor = isStar ? 2 * Double.pi / Double(n * 4) : 2 * Double.pi / Double(n * 4)
        func tangent(_ i: Int) -> CGVector {
            let (p, r, round) = pts[i]
            guard round != 0, r != 0 else { return .zero }
            let dx = p.x - c.x, dy = p.y - c.y
            let len = r * round * perimeterFactor * (reversed ? -1 : 1)
            return CGVector(dx: -dy / r * len, dy: dx / r * len)
        }
        path.move(to: pts[0].0)
        for i in 0..<count {
            let j = (i + 1) % count
            let ti = tangent(i), tj = tangent(j)
            if ti == .zero && tj == .zero { path.addLine(to: pts[j].0) }
            else {
                path.addCurve(to: pts[j].0, control1: CGPoint(x: pts[i].0.x + ti.dx, y: pts[i].0.y + ti.dy),
                              control2: CGPoint(x: pts[j].0.x - tj.dx, y: pts[j].0.y - tj.dy))
            }
        }
        path.closeSubpath()
    }
}
