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
        let shading = RadialShading(gradient, startCenter: startCenter, startRadius: startRadius, endCenter: endCenter,
                                    endRadius: endRadius, options: options)
        if paintRadialGradientSpans(shading) { return }
        paint(.shader { x, y in shading.color(at: toUser(x, y)) }) { fullCoverage($0, in: $0) }
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

/// A PDF radial (type 3) shading of a `CGGradient` in user space, as `drawRadialGradient` paints
/// it: each point takes the colour of the largest t whose interpolated circle passes through it
/// (with a radius not below 0), the end colours extended past t = 0 and 1 only with the
/// options. The general loop and the span loop (CGContext+RadialGradientSpans.swift) both ask it.
package struct RadialShading {
    let gradient: CGGradient
    let c0: SIMD2<Double>, cd: SIMD2<Double>
    let r0: Double, dr: Double
    /// The quadratic's leading coefficient, |cd|² − dr², and its reciprocal.
    let a: Double, inverseA: Double
    let before: Bool, after: Bool

    init(_ gradient: CGGradient, startCenter: CGPoint, startRadius: CGFloat, endCenter: CGPoint, endRadius: CGFloat,
         options: CGGradientDrawingOptions) {
        self.gradient = gradient
        c0 = SIMD2(Double(startCenter.x), Double(startCenter.y))
        cd = SIMD2(Double(endCenter.x), Double(endCenter.y)) - c0
        r0 = Double(startRadius)
        dr = Double(endRadius) - r0
        a = (cd * cd).sum() - dr * dr
        inverseA = 1 / a
        before = options.contains(.drawsBeforeStartLocation)
        after = options.contains(.drawsAfterEndLocation)
    }

    /// The premultiplied colour at user-space point `p` (clear where no circle passes).
    @inline(__always) func color(at p: SIMD2<Double>) -> SIMD4<Float> {
        let pd = p - c0
        let b = (pd * cd).sum() + r0 * dr
        let c = (pd * pd).sum() - r0 * r0
        // Solve a·t² − 2b·t + c = 0 for the circle through p; try the larger root first (the
        // other only where the larger one paints nothing: most pixels need one root).
        if abs(a) < 1e-12 {
            guard abs(b) > 1e-12 else { return .zero }
            return shade(c / (2 * b)) ?? .zero
        }
        let disc = b * b - a * c
        guard disc >= 0 else { return .zero }
        let s = disc.squareRoot()
        // (b ± s)/a: the larger is b + s over a positive a, b − s over a negative one.
        let larger = a > 0 ? s : -s
        if let v = shade((b + larger) * inverseA) { return v }
        return shade((b - larger) * inverseA) ?? .zero
    }

    /// The colour of root t, nil where its circle's radius is negative or it lies past an end
    /// the options leave unpainted (then the other root is tried).
    @inline(__always) private func shade(_ t: Double) -> SIMD4<Float>? {
        guard r0 + t * dr >= 0 else { return nil }
        if t > 1 { return after ? gradient.color(at: 1) : nil }
        if t < 0 { return before ? gradient.color(at: 0) : nil }
        return gradient.color(at: Float(t))
    }
}
