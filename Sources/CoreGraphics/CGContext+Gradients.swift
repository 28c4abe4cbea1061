// Gradients (CGContextDrawLinearGradient / DrawRadialGradient): they paint the whole clip,
// evaluated at each device pixel's centre mapped back to user space. Options extend the end
// colours past the start and end; without them nothing is painted there (PDF axial and radial
// shadings with Extend false, which Apple's gradients are).

extension CGContext {
    /// Paints `gradient` along the line from `start` to `end` (user space) across the clip.
    /// Equal points paint nothing.
    public func drawLinearGradient(_ gradient: CGGradient, start: CGPoint, end: CGPoint,
                                   options: CGGradientDrawingOptions) {
        let dx = Double(end.x - start.x), dy = Double(end.y - start.y)
        let len2 = dx * dx + dy * dy
        guard len2 > 0, len2.isFinite, start.x.isFinite, start.y.isFinite,
              let toUser = rasterToUser() else { return }
        let sx = Double(start.x), sy = Double(start.y)
        let before = options.contains(.drawsBeforeStartLocation), after = options.contains(.drawsAfterEndLocation)
        if paintLinearGradientSpans(gradient, sx: sx, sy: sy, dx: dx, dy: dy, len2: len2, before: before, after: after) { return }
        paint(.shader { x, y in
            let p = toUser(x, y)
            let t = ((p.x - sx) * dx + (p.y - sy) * dy) / len2
            if t < 0, !before { return .zero }
            if t > 1, !after { return .zero }
            return gradient.color(at: Float(t))
        }) { fullCoverage($0, in: $0) }
    }

    /// Paints `gradient` between the circle (`startCenter`, `startRadius`) and the circle
    /// (`endCenter`, `endRadius`) in user space, as a PDF radial (type 3) shading: each point
    /// takes the colour of the largest t whose interpolated circle passes through it. Negative
    /// or non-finite radii paint nothing.
    public func drawRadialGradient(_ gradient: CGGradient, startCenter: CGPoint, startRadius: CGFloat,
                                   endCenter: CGPoint, endRadius: CGFloat, options: CGGradientDrawingOptions) {
        guard startRadius >= 0, endRadius >= 0, startRadius.isFinite, endRadius.isFinite,
              startCenter.x.isFinite, startCenter.y.isFinite, endCenter.x.isFinite, endCenter.y.isFinite,
              let toUser = rasterToUser() else { return }
        let c0 = SIMD2(Double(startCenter.x), Double(startCenter.y))
        let cd = SIMD2(Double(endCenter.x), Double(endCenter.y)) - c0
        let r0 = Double(startRadius), dr = Double(endRadius) - r0
        let a = (cd * cd).sum() - dr * dr
        let before = options.contains(.drawsBeforeStartLocation), after = options.contains(.drawsAfterEndLocation)
        paint(.shader { x, y in
            let p = toUser(x, y)
            let pd = SIMD2(p.x, p.y) - c0
            let b = (pd * cd).sum() + r0 * dr
            let c = (pd * pd).sum() - r0 * r0
            // Solve a·t² − 2b·t + c = 0 for the circle through p; try the larger root first.
            var roots: (Double, Double)
            if abs(a) < 1e-12 {
                guard abs(b) > 1e-12 else { return .zero }
                let t = c / (2 * b)
                roots = (t, t)
            } else {
                let disc = b * b - a * c
                guard disc >= 0 else { return .zero }
                let s = disc.squareRoot()
                let t1 = (b + s) / a, t2 = (b - s) / a
                roots = t1 >= t2 ? (t1, t2) : (t2, t1)
            }
            for t in [roots.0, roots.1] {
                guard r0 + t * dr >= 0 else { continue }
                if t > 1 { if after { return gradient.color(at: 1) } else { continue } }
                if t < 0 { if before { return gradient.color(at: 0) } else { continue } }
                return gradient.color(at: Float(t))
            }
            return .zero
        }) { fullCoverage($0, in: $0) }
    }

    /// Raster pixel centre → user space, or nil when the CTM is singular.
    package func rasterToUser() -> ((Int, Int) -> SIMD2<Double>)? {
        let ctm = gstate.ctm
        let det = ctm.a * ctm.d - ctm.b * ctm.c
        guard det.isFinite, abs(det) > 1e-12 else { return nil }
        let inv = ctm.inverted()
        let (a, b, c, d, tx, ty) = (Double(inv.a), Double(inv.b), Double(inv.c), Double(inv.d), Double(inv.tx), Double(inv.ty))
        let H = Double(height)
        return { px, py in
            let dx = Double(px) + 0.5, dy = H - (Double(py) + 0.5)
            return SIMD2(a * dx + c * dy + tx, b * dx + d * dy + ty)
        }
    }
}
