// Circular arcs, as Apple's `CGMutablePath.addArc(center:…)`, `addArc(tangent1End:…)` and
// `addRelativeArc(…)`. Arcs are stored as cubic Béziers of at most 90° each (the usual
// approximation: control points 4/3·tan(θ/4)·r along the tangents; radial error < 0.03 %).

extension CGMutablePath {
    /// Adds an arc of a circle, given its center, radius and start/end angles in radians
    /// (CGPathAddArc).
    ///
    /// Direction, exactly as Core Graphics defines it: angles are measured from the positive
    /// x axis toward the positive y axis, and `clockwise: false` sweeps from `startAngle`
    /// toward *increasing* angles, `clockwise: true` toward *decreasing* angles. Apple names
    /// the directions for a y-up (unflipped) coordinate system. In a y-down space — a UIKit
    /// view, or a layer tree on iOS — the picture is mirrored, so `clockwise: true` appears
    /// **counter-clockwise** on screen (Apple's `CGContext.addArc` discussion makes the same
    /// point about flipped coordinate systems; UIKit's `UIBezierPath` names its flag for the
    /// y-down screen and so means the opposite). The points stored are the same either way;
    /// only the on-screen wording differs.
    ///
    /// Sweep: the angle travelled is `endAngle − startAngle` (or its negative when
    /// `clockwise`) reduced into [0, 2π). Angles that differ by a non-zero multiple of 2π give
    /// a full circle in either direction, as Apple draws them: the iOS circle idiom
    /// `UIBezierPath(arcCenter:radius:startAngle: 0, endAngle: 2π, clockwise: false)` is
    /// exactly `addArc(…, startAngle: 0, endAngle: 2π, clockwise: true)` in Core Graphics'
    /// y-up terms, travelling −2π. So does a difference of 2π or more in the travelling
    /// direction. Equal angles add just the start point.
    ///
    /// Elements: if the path has a current point, a line from it to the arc's start point
    /// (omitted when the two coincide); otherwise a move to the start point. Then one cubic
    /// per ≤ 90° piece, equal pieces. A radius of 0 adds only the line/move to `center`.
    /// A negative or non-finite radius, or non-finite angles, add nothing (Apple asserts).
    public func addArc(center: CGPoint, radius: CGFloat, startAngle: CGFloat, endAngle: CGFloat,
                       clockwise: Bool, transform: CGAffineTransform = .identity) {
        guard startAngle.isFinite, endAngle.isFinite else { return }
        let twoPi = 2 * CGFloat.pi
        let raw = clockwise ? startAngle - endAngle : endAngle - startAngle
        var travel = raw
        if travel >= twoPi {
            travel = twoPi
        } else {
            travel = travel.truncatingRemainder(dividingBy: twoPi)
            if travel < 0 { travel += twoPi }
            // A whole number of turns the other way (−2π, −4π …) reduces to 0, or to a few ulps
            // when the angles were computed (−π/2 to 3π/2): that is a full circle, not a point.
            if raw < -CGFloat.pi, travel < 1e-9 * max(1, -raw) { travel = twoPi }
        }
        appendArc(center: center, radius: radius, startAngle: startAngle,
                  sweep: clockwise ? -travel : travel, transform: transform)
    }

    /// Adds an arc given a start angle and a signed sweep `delta` in radians
    /// (CGPathAddRelativeArc): positive `delta` goes toward increasing angles (counter-
    /// clockwise in y-up space, clockwise on a y-down screen). Starts with a line from the
    /// current point, or a move, as `addArc(center:…)`. |delta| is capped at 2π so a huge
    /// value cannot produce an unbounded number of elements (a deviation from Apple, which
    /// would wind round repeatedly).
    public func addRelativeArc(center: CGPoint, radius: CGFloat, startAngle: CGFloat, delta: CGFloat,
                               transform: CGAffineTransform = .identity) {
        guard startAngle.isFinite, delta.isFinite else { return }
        let twoPi = 2 * CGFloat.pi
        appendArc(center: center, radius: radius, startAngle: startAngle,
                  sweep: min(max(delta, -twoPi), twoPi), transform: transform)
    }

    /// Adds an arc tangent to the line from the current point to `tangent1End` and to the
    /// line from `tangent1End` to `tangent2End` (CGPathAddArcToPoint, PostScript `arct`).
    ///
    /// Elements: a line from the current point to the first tangent point (omitted when they
    /// coincide), then the arc (≤ 90° cubics) to the second tangent point, which becomes the
    /// current point — not `tangent2End`. When the three points are collinear, coincide, or
    /// `radius` is 0, only a line to `tangent1End` is added. With no current point, or a
    /// negative or non-finite radius, nothing is added (Apple logs/asserts in those cases).
    public func addArc(tangent1End: CGPoint, tangent2End: CGPoint, radius: CGFloat,
                       transform: CGAffineTransform = .identity) {
        guard radius >= 0, radius.isFinite, let current = elements.currentPoint else { return }
        guard tangent1End.isFinitePoint, tangent2End.isFinitePoint else { return }
        // The construction happens in user space, before `transform`; the current point is
        // stored in transformed space, so bring it back when the transform is invertible.
        let p0: CGPoint
        if transform.isIdentity {
            p0 = current
        } else {
            let det = transform.a * transform.d - transform.b * transform.c
            guard det != 0, det.isFinite else {
                addLine(to: tangent1End, transform: transform)
                return
            }
            p0 = current.applying(transform.inverted())
        }
        let p1 = tangent1End, p2 = tangent2End
        guard radius > 0, let v1 = (p0 - p1).normalizedVector, let v2 = (p2 - p1).normalizedVector else {
            addLine(to: p1, transform: transform)
            return
        }
        let cross = v1.cross(v2)
        let theta = atan2(abs(cross), v1.dot(v2))   // angle at tangent1End between the legs
        // Collinear (θ ≈ 0 going back on itself, θ ≈ π going straight on): no arc fits.
        guard theta > 1e-9, theta < CGFloat.pi - 1e-9 else {
            addLine(to: p1, transform: transform)
            return
        }
        // Half-angle forms straight from the dot and cross products (no trig round trip, so
        // a right angle gives exact tangent points): tan(θ/2) = sin θ / (1 + cos θ),
        // sin(θ/2) = √((1 − cos θ) / 2).
        let cosTheta = v1.dot(v2), sinTheta = abs(cross)
        let along = radius * (1 + cosTheta) / sinTheta
        let t1 = p1 + v1 * along, t2 = p1 + v2 * along
        guard let bisector = (v1 + v2).normalizedVector else {
            addLine(to: p1, transform: transform)
            return
        }
        let center = p1 + bisector * (radius / ((1 - cosTheta) / 2).squareRoot())
        let start = atan2(t1.y - center.y, t1.x - center.x)
        // Turning left (travel direction −v1 then v2, cross > 0) means increasing angle.
        let turn = (-v1).cross(v2)
        let sweep = (CGFloat.pi - theta) * (turn > 0 ? 1 : -1)
        appendArc(center: center, radius: radius, startAngle: start, sweep: sweep,
                  transform: transform, exactEnd: t2)
    }

    /// Shared arc emitter: line (or move) to the start point, then cubic pieces of equal
    /// angle, none above 90°. `exactEnd` replaces the computed end point (the tangent arc
    /// knows its end exactly). The whole arc is appended atomically.
    func appendArc(center: CGPoint, radius: CGFloat, startAngle: CGFloat, sweep: CGFloat,
                   transform t: CGAffineTransform, exactEnd: CGPoint? = nil) {
        guard radius >= 0, radius.isFinite, center.isFinitePoint, sweep.isFinite else { return }
        func onCircle(_ a: CGFloat) -> CGPoint {
            CGPoint(x: center.x + radius * cos(a), y: center.y + radius * sin(a))
        }
        let startPoint = onCircle(startAngle)
        var shape: [PathElement] = []
        let mappedStart = startPoint.applying(t)
        if let current = elements.currentPoint {
            if current != mappedStart { shape.append(.line(mappedStart)) }
        } else {
            shape.append(.move(mappedStart))
        }
        if radius > 0, sweep != 0 {
            let quarter = CGFloat.pi / 2
            let count = max(1, Int((abs(sweep) / quarter - 1e-9).rounded(.up)))
            let step = sweep / CGFloat(count)
            let k = 4 / 3 * tan(step / 4) * radius
            for i in 0..<count {
                let a0 = startAngle + step * CGFloat(i)
                let a1 = i == count - 1 ? startAngle + sweep : a0 + step
                let q0 = onCircle(a0)
                var q3 = onCircle(a1)
                if i == count - 1, let e = exactEnd { q3 = e }
                let c1 = q0 + CGPoint(x: -sin(a0), y: cos(a0)) * k
                let c2 = q3 - CGPoint(x: -sin(a1), y: cos(a1)) * k
                shape.append(.cubic(c1.applying(t), c2.applying(t), q3.applying(t)))
            }
        }
        elements.appendShape(shape)
    }
}
