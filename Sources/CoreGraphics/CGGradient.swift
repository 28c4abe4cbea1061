/// A colour ramp for `CGContext.drawLinearGradient` / `drawRadialGradient`, as Apple's
/// `CGGradient`. Colours are interpolated component-wise, unpremultiplied, in sRGB (gray colours
/// expand to equal R, G, B), between stops sorted by location. `CGShading` (function-based
/// shadings) is not provided yet.
public final class CGGradient: Sendable {
    /// Stop locations (0…1, increasing) and their straight-alpha sRGB colours.
    package let locations: [Float]
    package let colors: [SIMD4<Float>]

    /// At most this many stops: a larger count is refused (nil) rather than allocated.
    package static let maxStops = 65_536

    private init?(stops: [(Float, SIMD4<Float>)]) {
        guard !stops.isEmpty else {
            CGDiagnostics.warnOnce("CGGradient: a gradient needs at least one colour; nil returned")
            return nil
        }
        let sorted = stops.enumerated().sorted { ($0.element.0, $0.offset) < ($1.element.0, $1.offset) }.map(\.element)
        locations = sorted.map(\.0)
        colors = sorted.map(\.1)
    }

    /// A gradient of `colors` (CGColor values in a CFArray, i.e. `[c1, c2] as CFArray`) at
    /// `locations` (as many, 0…1), or spread evenly from 0 to 1 when `locations` is nil
    /// (CGGradientCreateWithColors). Nil when there is no colour or an element is not a CGColor.
    /// Locations are clamped to 0…1 (NaN → 0) and sorted. The colour space is not used: colours
    /// are converted to sRGB.
    public convenience init?(colorsSpace space: CGColorSpace?, colors: CFArray, locations: UnsafePointer<CGFloat>?) {
        let cgColors = colors.compactMap { $0 as? CGColor }
        guard cgColors.count == colors.count, cgColors.count <= Self.maxStops else { return nil }
        let n = cgColors.count
        var stops: [(Float, SIMD4<Float>)] = []
        for (i, c) in cgColors.enumerated() {
            let loc = locations.map { Self.location($0[i]) } ?? (n == 1 ? 0 : Float(i) / Float(n - 1))
            let (r, g, b, a) = c.rgba
            stops.append((loc, Self.unit(r, g, b, a)))
        }
        self.init(stops: stops)
    }

    /// A gradient of `count` colours given as components in `space` (gray: gray, alpha; RGB:
    /// red, green, blue, alpha) at `locations` (nil: evenly spread)
    /// (CGGradientCreateWithColorComponents). Nil when `count` is not positive or above
    /// `maxStops`.
    public convenience init?(colorSpace space: CGColorSpace, colorComponents components: UnsafePointer<CGFloat>,
                             locations: UnsafePointer<CGFloat>?, count: Int) {
        guard count > 0, count <= Self.maxStops else {
            CGDiagnostics.warnOnce("CGGradient: colour count \(count) outside 1…\(Self.maxStops); nil returned")
            return nil
        }
        let k = space.numberOfComponents + 1
        var stops: [(Float, SIMD4<Float>)] = []
        for i in 0..<count {
            let p = components + i * k
            let loc = locations.map { Self.location($0[i]) } ?? (count == 1 ? 0 : Float(i) / Float(count - 1))
            let c = space.model == .monochrome ? Self.unit(p[0], p[0], p[0], p[1]) : Self.unit(p[0], p[1], p[2], p[3])
            stops.append((loc, c))
        }
        self.init(stops: stops)
    }

    private static func location(_ v: CGFloat) -> Float { v.isNaN ? 0 : Float(min(max(v, 0), 1)) }

    private static func unit(_ r: CGFloat, _ g: CGFloat, _ b: CGFloat, _ a: CGFloat) -> SIMD4<Float> {
        func c(_ v: CGFloat) -> Float { v.isNaN ? 0 : Float(min(max(v, 0), 1)) }
        return SIMD4(c(r), c(g), c(b), c(a))
    }

    /// The premultiplied colour at `t` (clamped to the first and last stops).
    @inline(__always) package func color(at t: Float) -> SIMD4<Float> {
        var straight: SIMD4<Float>
        if t <= locations[0] {
            straight = colors[0]
        } else if t >= locations[locations.count - 1] {
            straight = colors[colors.count - 1]
        } else {
            var i = 1
            while locations[i] < t { i += 1 }
            let l0 = locations[i - 1], l1 = locations[i]
            // × the reciprocal rather than ÷: the span loops (CGContext+GradientSpans.swift)
            // find four pixels' f with one reciprocal and a multiply, and must agree.
            let f = l1 > l0 ? (t - l0) * (1 / (l1 - l0)) : 1
            straight = colors[i - 1] + (colors[i] - colors[i - 1]) * f
        }
        return SIMD4(straight.x * straight.w, straight.y * straight.w, straight.z * straight.w, straight.w)
    }
}
