import Foundation

typealias SVGRGBA = (r: Double, g: Double, b: Double, a: Double)

/// A linear or radial gradient with its `href` chain resolved (SVG 1.1 §13.2: attributes and
/// stops not given on a gradient come from the one it references).
struct SVGGradientSpec {
    enum Kind {
        case linear(x1: SVGLength, y1: SVGLength, x2: SVGLength, y2: SVGLength)
        case radial(cx: SVGLength, cy: SVGLength, r: SVGLength, fx: SVGLength?, fy: SVGLength?, fr: SVGLength)
    }
    enum Spread: String { case pad, reflect, `repeat` }
    var kind: Kind
    var objectBoundingBox = true
    var transform = CGAffineTransform.identity
    var spread = Spread.pad
    /// Offsets clamped to [0, 1] and made non-decreasing (SVG 1.1 §13.2.4); colours straight
    /// (not premultiplied), stop-opacity folded into alpha.
    var stops: [(offset: Double, color: SVGRGBA)] = []
}

/// What Core Animation can draw for a gradient: `CAGradientLayer` (axial or radial, stops as
/// `colors`/`locations`) placed with the gradient's coordinate system as its layer transform
/// (gradientTransform, then the bounding-box mapping for `objectBoundingBox`), masked by the
/// shape. Differences handled here, each reported:
/// - `spreadMethod="reflect"`/`"repeat"`: CAGradientLayer only pads. The stops are repeated
///   (mirrored for reflect) across as many periods as the painted area needs, which is exact;
///   beyond 32 periods the gradient pads instead.
/// - A focal point (`fx`, `fy`) away from the centre: the layer's package focal form
///   (`GradientLayerState.focalPoint`, drawn by both backends), the point moved just inside the
///   circle when outside (SVG 1.1 §13.2.3). A focal radius `fr` remaps the stops and moves the
///   focal point to the cone's apex, which is exact.
/// - Zero-length vector or zero radius: the last stop's colour (SVG 1.1 §13.2.2/§13.2.3).
enum SVGGradientLayers {
    static let maxPeriods = 32

    enum Output {
        case none
        case solid(SVGRGBA)
        case layer(CAGradientLayer)
    }

    /// - Parameters:
    ///   - bbox: the element's geometry bounding box (for objectBoundingBox units).
    ///   - extent: the user-space area the paint must cover (the fill or the stroke outline).
    ///   - convert: applied to every colour (identity, or luminance-to-alpha inside masks).
    static func make(_ g: SVGGradientSpec, opacity: Double, bbox: CGRect, extent: CGRect, viewport: CGSize,
                     log: SVGIssueLog, convert: (SVGRGBA) -> SVGRGBA) -> Output {
        guard let last = g.stops.last else { return .none }
        func faded(_ c: SVGRGBA) -> SVGRGBA { (c.r, c.g, c.b, c.a * opacity) }
        if g.stops.count == 1 { return .solid(convert(faded(last.color))) }
        var units = CGAffineTransform.identity
        var vp = viewport
        if g.objectBoundingBox {
            // SVG 1.1 §7.11: objectBoundingBox needs a box with area; otherwise the paint is not used.
            guard bbox.width > 0, bbox.height > 0 else { return .none }
            units = CGAffineTransform(a: bbox.width, b: 0, c: 0, d: bbox.height, tx: bbox.minX, ty: bbox.minY)
            vp = CGSize(width: 1, height: 1)
        }
        func len(_ l: SVGLength, _ axis: SVGLength.Axis) -> Double {
            g.objectBoundingBox && l.unit == .percent ? l.value / 100 : l.resolve(axis, viewport: vp)
        }
        let total = g.transform.concatenating(units)
        guard abs(SVGLayerPlacement.determinant(total)) > 1e-12 else {
            log.add(.invalidValue, "gradientTransform", "not invertible; the paint is not drawn")
            return .none
        }
        let rect = extent.applying(total.inverted())
        guard rect.width > 0, rect.height > 0, rect.width.isFinite, rect.height.isFinite else { return .none }

        var stops = g.stops.map { ($0.offset, faded($0.color)) }
        let layer = CAGradientLayer()
        switch g.kind {
        case let .linear(x1, y1, x2, y2):
            var p1 = CGPoint(x: len(x1, .x), y: len(y1, .y))
            var p2 = CGPoint(x: len(x2, .x), y: len(y2, .y))
            let axis = CGPoint(x: p2.x - p1.x, y: p2.y - p1.y)
            let l2 = axis.x * axis.x + axis.y * axis.y
            guard l2 > 0 else { return .solid(convert(faded(last.color))) }
            if g.spread != .pad {
                let corners = [CGPoint(x: rect.minX, y: rect.minY), CGPoint(x: rect.maxX, y: rect.minY),
                               CGPoint(x: rect.minX, y: rect.maxY), CGPoint(x: rect.maxX, y: rect.maxY)]
                let ts = corners.map { (($0.x - p1.x) * axis.x + ($0.y - p1.y) * axis.y) / l2 }
                let k0 = ts.min()!.rounded(.down), k1 = ts.max()!.rounded(.up)
                // A tiny axis makes k0, k1 any size (Int(_:) trapped on 1e150, issue 17): they
                // saturate at ±1e12, far beyond `maxPeriods`, so `repeated` pads instead.
                if let expanded = repeated(stops, from: Int.clamped(max(k0, -1e12)), to: Int.clamped(min(k1, 1e12)),
                                           reflect: g.spread == .reflect, log: log) {
                    stops = expanded
                    let a = p1
                    p1 = CGPoint(x: a.x + k0 * axis.x, y: a.y + k0 * axis.y)
                    p2 = CGPoint(x: a.x + k1 * axis.x, y: a.y + k1 * axis.y)
                }
            }
            // Pad before a first offset shared by several stops: SVG paints the first stop's
            // colour there, CAGradientLayer the last of the tied stops. The vector is extended
            // back over the painted area with the first colour pinned at its start.
            if g.spread == .pad, stops.count > 1, stops[0].0 == stops[1].0 {
                let corners = [CGPoint(x: rect.minX, y: rect.minY), CGPoint(x: rect.maxX, y: rect.minY),
                               CGPoint(x: rect.minX, y: rect.maxY), CGPoint(x: rect.maxX, y: rect.maxY)]
                let tmin = corners.map { (($0.x - p1.x) * axis.x + ($0.y - p1.y) * axis.y) / l2 }.min()!
                if tmin < stops[0].0 {
                    let a = min(tmin, 0)
                    stops = [(0, stops[0].1)] + stops.map { (($0.0 - a) / (1 - a), $0.1) }
                    let o = p1
                    p1 = CGPoint(x: o.x + a * axis.x, y: o.y + a * axis.y)
                }
            }
            layer.type = .axial
            layer.startPoint = unit(p1, rect)
            layer.endPoint = unit(p2, rect)
        case let .radial(cxL, cyL, rL, fxL, fyL, frL):
            let c = CGPoint(x: len(cxL, .x), y: len(cyL, .y))
            var r = len(rL, .other)
            var f = CGPoint(x: fxL.map { len($0, .x) } ?? c.x, y: fyL.map { len($0, .y) } ?? c.y)
            let fr = len(frL, .other)
            guard r > 0, r.isFinite else { return .solid(convert(faded(last.color))) }
            if !f.x.isFinite || !f.y.isFinite { f = c }
            // A focal point outside the circle moves onto the line to it, just inside the
            // circle (SVG 1.1 §13.2.3; 0.999 r as resvg does, so the cone stays defined).
            let fd = hypot(f.x - c.x, f.y - c.y)
            if fd > 0.999 * r {
                let k = 0.999 * r / fd
                f = CGPoint(x: c.x + (f.x - c.x) * k, y: c.y + (f.y - c.y) * k)
            }
            if fr > 0 {
                if fr >= r {
                    return .solid(convert(faded(last.color)))
                }
                // t_CA = d / r, t_SVG = (d − fr)/(r − fr): offset o sits at (fr + o·(r − fr))/r.
                // With a focal point, the same remapping holds from the cone's apex, where the
                // interpolated radius reaches 0: f − fr/(r − fr)·(c − f).
                stops = stops.map { ((fr + $0.0 * (r - fr)) / r, $0.1) }
                stops.insert((0, stops[0].1), at: 0)
                let k = fr / (r - fr)
                f = CGPoint(x: f.x - k * (c.x - f.x), y: f.y - k * (c.y - f.y))
                let ad = hypot(f.x - c.x, f.y - c.y)
                if ad > 0.999 * r {
                    log.add(.approximated, "radialGradient fr", "the focal circle reaches outside the circle; its cone is drawn from just inside")
                    let q = 0.999 * r / ad
                    f = CGPoint(x: c.x + (f.x - c.x) * q, y: c.y + (f.y - c.y) * q)
                }
            }
            let focal = hypot(f.x - c.x, f.y - c.y) > 1e-9 * r
            if g.spread != .pad {
                let corners = [CGPoint(x: rect.minX, y: rect.minY), CGPoint(x: rect.maxX, y: rect.minY),
                               CGPoint(x: rect.minX, y: rect.maxY), CGPoint(x: rect.maxX, y: rect.maxY)]
                // The discs t ≤ k grow nested and convex, so the rectangle's largest t is at a corner.
                let tmax = corners.map { focal ? focalT($0, centre: c, radius: r, focal: f) : hypot($0.x - c.x, $0.y - c.y) / r }.max()!
                let k1 = max(1, tmax.rounded(.up))
                // Saturating, as above: a tiny radius makes k1 any size, or infinite.
                if k1 > 1, let expanded = repeated(stops, from: 0, to: Int.clamped(min(k1, 1e12)), reflect: g.spread == .reflect, log: log) {
                    stops = expanded
                    r *= k1
                }
            }
            layer.type = .radial
            layer.startPoint = unit(c, rect)
            if focal {
                // The focal form (GradientLayerState.focalPoint): the circle through endPoint.
                // A repeated spread scaled r by k; the cone's circle at t = k is centred at
                // f + k(c − f), the focal point staying where it is.
                let k = r / len(rL, .other)
                let ck = CGPoint(x: f.x + (c.x - f.x) * k, y: f.y + (c.y - f.y) * k)
                layer.startPoint = unit(ck, rect)
                layer.endPoint = unit(CGPoint(x: ck.x + r, y: ck.y), rect)
                layer.gradient.focalPoint = unit(f, rect)
            } else {
                layer.endPoint = unit(CGPoint(x: c.x + r, y: c.y + r), rect)
            }
        }
        layer.colors = stops.map { let v = convert($0.1); return CGColor(srgbRed: v.r, green: v.g, blue: v.b, alpha: v.a) }
        layer.locations = stops.map { NSNumber(value: $0.0) }
        SVGLayerPlacement.place(layer, rect: rect, transform: total)
        return .layer(layer)
    }

    /// The focal radial gradient's t at `p` (SVG 1.1 §13.2.3; as gradient.frag's focal form):
    /// the largest t with |p − f − t(c − f)| = t·r, the focal point strictly inside the circle.
    static func focalT(_ p: CGPoint, centre c: CGPoint, radius r: Double, focal f: CGPoint) -> Double {
        let dx = Double(p.x - f.x), dy = Double(p.y - f.y), ex = Double(c.x - f.x), ey = Double(c.y - f.y)
        let a = min(ex * ex + ey * ey - r * r, -1e-12)
        let b = dx * ex + dy * ey
        return (b - (max(b * b - a * (dx * dx + dy * dy), 0)).squareRoot()) / a
    }

    static func unit(_ p: CGPoint, _ r: CGRect) -> CGPoint {
        CGPoint(x: (p.x - r.minX) / r.width, y: (p.y - r.minY) / r.height)
    }

    /// Stops repeated over periods k0..<k1 of the gradient vector, rescaled into [0, 1];
    /// every odd period mirrored for reflect. nil (pad, reported) past `maxPeriods`.
    static func repeated(_ stops: [(Double, SVGRGBA)], from k0: Int, to k1: Int, reflect: Bool,
                         log: SVGIssueLog) -> [(Double, SVGRGBA)]? {
        let n = k1 - k0
        guard n >= 1 else { return nil }
        guard n <= maxPeriods else {
            log.add(.limitReached, "spreadMethod", "more than \(maxPeriods) gradient periods across the shape; padded instead")
            return nil
        }
        // A period's stops span [0, 1] exactly: the ends repeat the end colours.
        guard let first = stops.first, let last = stops.last else { return nil }
        var base = stops
        if first.0 > 0 { base.insert((0, first.1), at: 0) }
        if last.0 < 1 { base.append((1, last.1)) }
        var out: [(Double, SVGRGBA)] = []
        for k in k0..<k1 {
            let mirrored = reflect && (k % 2 != 0)
            let period: [(Double, SVGRGBA)] = mirrored ? base.reversed().map { (1 - $0.0, $0.1) } : base
            for s in period {
                let loc: Double = (Double(k - k0) + s.0) / Double(n)
                out.append((loc, s.1))
            }
        }
        return out
    }
}
