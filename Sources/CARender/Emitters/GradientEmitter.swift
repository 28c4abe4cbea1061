import CoreGraphics
import CoreAnimation
import CAFrame

/// A CAGradientLayer's colours as one ramp row and one instance.
///
/// The ramp holds `GradientInstance.rampWidth` premultiplied RGBA texels in 32-bit float:
/// colours interpolate *unpremultiplied* and are premultiplied afterwards, as Core Animation
/// does (a fade from white to `clear`, transparent black, passes through grey; one to
/// red at alpha 0 keeps the hue). Float texels keep the fractions between 8-bit levels so
/// the shader's dither can spread them (an 8-bit ramp would band before any dither).
/// No colours draw nothing; one colour fills the layer.
final class GradientEmitter: ContentEmitter {
    /// Ramp rows of this frame by their colours and locations, so identical gradients share one.
    var rampIndex: [[Double]: Int] = [:]
    /// Ramps computed in earlier frames, by the same key (emptied when it reaches the limit).
    var rampCache: [[Double]: [Float]] = [:]
    static let rampCacheLimit = 1024

    func claims(_ copy: CALayer) -> Bool { copy is CAGradientLayer }
    var claimRule: ContentClaimRule { .byClass }

    func beginFrame(_ out: FrameWriter) { rampIndex.removeAll(keepingCapacity: true) }

    func emit(_ layer: CALayer, _ copy: CALayer, at site: DrawSite, into out: FrameWriter) {
        guard let layer = copy as? CAGradientLayer else { return }
        let colors = (layer.colors ?? []).compactMap { $0 as? CGColor }
        guard !colors.isEmpty else { return }
        let locations = layer.locations?.map(\.doubleValue)
        let key = colors.flatMap { c -> [Double] in let v = c.rgba; return [v.red, v.green, v.blue, v.alpha].map(Double.init) }
            + [.infinity] + (locations ?? [])
        let row: Int
        if let r = rampIndex[key] {
            row = r
        } else {
            row = out.frame.gradientRampRows
            // Ramps change only when colours or locations do (a commit or an animation of them),
            // so they are kept across frames rather than interpolated again each frame.
            if let cached = rampCache[key] {
                out.frame.gradientRamps.append(contentsOf: cached)
            } else {
                let ramp = Self.gradientRamp(colors: colors, locations: locations)
                if rampCache.count >= Self.rampCacheLimit { rampCache.removeAll(keepingCapacity: true) }
                rampCache[key] = ramp
                out.frame.gradientRamps.append(contentsOf: ramp)
            }
            rampIndex[key] = row
        }
        let b = copy.state.bounds.standardized
        let g = layer.gradient
        let sp = CGPoint(x: b.minX + g.startPoint.x * b.width, y: b.minY + g.startPoint.y * b.height)
        let ep = CGPoint(x: b.minX + g.endPoint.x * b.width, y: b.minY + g.endPoint.y * b.height)
        var kind: Float = g.type == .radial ? 1 : g.type == .conic ? 2 : 0
        var points = SIMD4(Float(sp.x), Float(sp.y), Float(ep.x), Float(ep.y))
        var radius: Float = 0
        if g.type == .radial, let f = g.focalPoint, let focal = Self.focal(centre: sp, through: ep, focal: f, bounds: b) {
            // The focal form (GradientLayerState.focalPoint): points carry the circle's centre
            // and the focal point, params.w the circle's radius.
            kind = 3
            points = focal.points
            radius = focal.radius
        }
        let aa: UInt32 = copy.state.allowsEdgeAntialiasing ? UInt32(copy.state.edgeAntialiasingMask.rawValue & 15) : 0
        let p = site.h.packed(SIMD3(0, Float(site.clip), Float(aa | (copy.state.cornerCurve == .continuous ? 16 : 0))))
        // Like contents, a gradient is cut by the corner radius only under masksToBounds
        // (cornerRadius doc: it "applies only to the background color and border").
        let gi = GradientInstance(h0: p.0, h1: p.1, h2: p.2, rect: b.simd, radii: copy.state.masksToBounds ? site.radii : .zero,
                                  points: points, params: SIMD4(kind, Float(row), site.opacity, radius))
        var v = ShaderVariant.of(clip: gi.h1.w, flags: gi.h2.w, h0: gi.h0, h1: gi.h1, h2: gi.h2)
        if gi.params.x == 1 { v.insert(.radial) } else if gi.params.x == 2 { v.insert(.conic) }
        // Both bits: the focal radial form (gradient.frag's CA_RADIAL && CA_CONIC).
        else if gi.params.x == 3 { v.insert(.radial); v.insert(.conic) }
        out.frame.gradients.append(gi)
        out.appendBatch(.gradient, variant: v, index: out.frame.gradients.count - 1)
    }

    /// The focal form's instance values: (centre, focal point) in the plane and the radius
    /// |endPoint − startPoint|. The focal point is pulled toward the centre to 0.999 of the
    /// radius (the shader's quadratic needs it strictly inside); nil for a zero or non-finite
    /// radius or a non-finite focal point (the plain radial form is drawn instead).
    static func focal(centre c: CGPoint, through e: CGPoint, focal f: CGPoint, bounds b: CGRect) -> (points: SIMD4<Float>, radius: Float)? {
        let r = Double(hypot(e.x - c.x, e.y - c.y))
        var fp = CGPoint(x: b.minX + f.x * b.width, y: b.minY + f.y * b.height)
        guard r > 0, r.isFinite, fp.x.isFinite, fp.y.isFinite else { return nil }
        let d = Double(hypot(fp.x - c.x, fp.y - c.y))
        let limit = 0.999 * r
        if d > limit {
            let k = CGFloat(limit / d)
            fp = CGPoint(x: c.x + (fp.x - c.x) * k, y: c.y + (fp.y - c.y) * k)
        }
        return (SIMD4(Float(c.x), Float(c.y), Float(fp.x), Float(fp.y)), Float(r))
    }

    /// One ramp row (`rampWidth` × RGBA floats, premultiplied). `locations` apply when there is
    /// one per colour and all are finite (else the colours spread evenly, as for nil); stops
    /// out of order are sorted, as CGGradient requires them increasing.
    static func gradientRamp(colors: [CGColor], locations: [Double]?) -> [Float] {
        var stops: [(loc: Double, c: (red: CGFloat, green: CGFloat, blue: CGFloat, alpha: CGFloat))]
        if let l = locations, l.count == colors.count, l.allSatisfy(\.isFinite) {
            stops = zip(l, colors.map(\.rgba)).map { ($0, $1) }
            stops.sort { $0.loc < $1.loc }
        } else {
            let n = colors.count
            stops = colors.enumerated().map { (n > 1 ? Double($0.offset) / Double(n - 1) : 0, $0.element.rgba) }
        }
        let n = GradientInstance.rampWidth
        var out = [Float]()
        out.reserveCapacity(n * 4)
        var k = 0
        for i in 0..<n {
            let t = Double(i) / Double(n - 1)
            while k + 1 < stops.count, stops[k + 1].loc <= t { k += 1 }
            let a = stops[k].c
            var b = a
            var f = 0.0
            if t > stops[k].loc, k + 1 < stops.count {
                b = stops[k + 1].c
                let span = stops[k + 1].loc - stops[k].loc
                f = span > 0 ? (t - stops[k].loc) / span : 1
            }
            func mix(_ x: CGFloat, _ y: CGFloat) -> Double { Double(x) + (Double(y) - Double(x)) * f }
            let alpha = min(max(mix(a.alpha, b.alpha), 0), 1)
            func ch(_ x: CGFloat, _ y: CGFloat) -> Float { Float(min(max(mix(x, y), 0), 1) * alpha) }
            out.append(contentsOf: [ch(a.red, b.red), ch(a.green, b.green), ch(a.blue, b.blue), Float(alpha)])
        }
        return out
    }
}
