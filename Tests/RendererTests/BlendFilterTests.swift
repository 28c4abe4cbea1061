import Testing
import Foundation

/// `compositingFilter` (issue 24): every blend mode and compositing operator against the W3C
/// Compositing and Blending Level 1 formulas (§9.1 Porter-Duff, §10 blending) on two known
/// translucent colours, worked here independently of the shader; and `backgroundFilters`
/// blurring a checkerboard inside a rounded layer only.
@Suite struct BlendFilterTests {
    static let cb = SIMD3<Double>(0.8, 0.4, 0.2), ab = 0.75
    static let cs = SIMD3<Double>(0.3, 0.6, 0.9), as_ = 0.5

    static func lum(_ c: SIMD3<Double>) -> Double { 0.3 * c.x + 0.59 * c.y + 0.11 * c.z }
    static func clipColor(_ c: SIMD3<Double>) -> SIMD3<Double> {
        let l = lum(c), n = min(c.x, c.y, c.z), x = max(c.x, c.y, c.z)
        var o = c
        if n < 0 { o = SIMD3(repeating: l) + (o - SIMD3(repeating: l)) * l / (l - n) }
        if x > 1 { o = SIMD3(repeating: l) + (o - SIMD3(repeating: l)) * (1 - l) / (x - l) }
        return o
    }
    static func setLum(_ c: SIMD3<Double>, _ l: Double) -> SIMD3<Double> { clipColor(c + SIMD3(repeating: l - lum(c))) }
    static func sat(_ c: SIMD3<Double>) -> Double { max(c.x, c.y, c.z) - min(c.x, c.y, c.z) }
    static func setSat(_ c: SIMD3<Double>, _ s: Double) -> SIMD3<Double> {
        let mx = max(c.x, c.y, c.z), mn = min(c.x, c.y, c.z)
        return mx > mn ? (c - SIMD3(repeating: mn)) * s / (mx - mn) : .zero
    }
    static func each(_ b: SIMD3<Double>, _ s: SIMD3<Double>, _ f: (Double, Double) -> Double) -> SIMD3<Double> {
        SIMD3(f(b.x, s.x), f(b.y, s.y), f(b.z, s.z))
    }
    static func hard(_ b: Double, _ s: Double) -> Double { s <= 0.5 ? b * 2 * s : b + (2 * s - 1) - b * (2 * s - 1) }

    /// B(Cb, Cs) of W3C §10 for a separable or non-separable mode.
    static func mix(_ name: String, _ b: SIMD3<Double>, _ s: SIMD3<Double>) -> SIMD3<Double> {
        switch name {
        case "multiplyBlendMode": return b * s
        case "screenBlendMode": return b + s - b * s
        case "overlayBlendMode": return each(b, s) { hard($1, $0) }
        case "darkenBlendMode": return each(b, s, min)
        case "lightenBlendMode": return each(b, s, max)
        case "colorDodgeBlendMode": return each(b, s) { b, s in b == 0 ? 0 : (s >= 1 ? 1 : min(1, b / (1 - s))) }
        case "colorBurnBlendMode": return each(b, s) { b, s in b >= 1 ? 1 : (s <= 0 ? 0 : 1 - min(1, (1 - b) / s)) }
        case "softLightBlendMode":
            return each(b, s) { b, s in
                let d = b <= 0.25 ? ((16 * b - 12) * b + 4) * b : b.squareRoot()
                return s <= 0.5 ? b - (1 - 2 * s) * b * (1 - b) : b + (2 * s - 1) * (d - b)
            }
        case "hardLightBlendMode": return each(b, s, hard)
        case "differenceBlendMode": return each(b, s) { abs($0 - $1) }
        case "exclusionBlendMode": return b + s - 2 * b * s
        case "hueBlendMode": return setLum(setSat(s, sat(b)), lum(b))
        case "saturationBlendMode": return setLum(setSat(b, sat(s)), lum(b))
        case "colorBlendMode": return setLum(s, lum(b))
        case "luminosityBlendMode": return setLum(b, lum(s))
        default: return s
        }
    }

    /// Premultiplied result of source (cs, as) composited on backdrop (cb, ab) by `name`.
    static func expected(_ name: String) -> SIMD4<Double> {
        let ps = cs * as_, pb = cb * ab
        switch name {
        case "sourceInCompositing": return SIMD4(ps * ab, as_ * ab)
        case "sourceOutCompositing": return SIMD4(ps * (1 - ab), as_ * (1 - ab))
        case "sourceAtopCompositing": return SIMD4(ps * ab + pb * (1 - as_), ab)
        case "sourceOverCompositing": return SIMD4(ps + pb * (1 - as_), as_ + ab * (1 - as_))
        default:
            let m = mix(name, cb, cs)
            let c = ps * (1 - ab) + pb * (1 - as_) + as_ * ab * m
            return SIMD4(c, as_ + ab * (1 - as_))
        }
    }

    static let modes = ["multiplyBlendMode", "screenBlendMode", "overlayBlendMode", "darkenBlendMode", "lightenBlendMode",
                        "colorDodgeBlendMode", "colorBurnBlendMode", "softLightBlendMode", "hardLightBlendMode",
                        "differenceBlendMode", "exclusionBlendMode", "hueBlendMode", "saturationBlendMode", "colorBlendMode",
                        "luminosityBlendMode", "sourceOverCompositing", "sourceInCompositing", "sourceOutCompositing",
                        "sourceAtopCompositing"]

    /// Backdrop (0.8, 0.4, 0.2) at α 0.75 over a transparent target; the source (0.3, 0.6, 0.9)
    /// at α 0.5 over its middle with the compositing filter. The pixel inside both, premultiplied.
    /// `parity: false` for colour dodge: at these colours green sits where Cb = 1 − Cs, so
    /// B = Cb / (1 − Cs) multiplies the 8-bit backdrop's rounding by 2.5, and GL's and the CPU
    /// backend's readings of the same backdrop byte end 3/255 apart (the formula is the same
    /// in filter.frag and SoftwareFilterBlend).
    func render(_ compositingFilter: Any, opacity: Float = 1, parity: Bool = true) throws -> CGImage {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 40, height: 40)
        let back = CALayer()
        back.frame = root.frame
        back.backgroundColor = solid(Self.cb.x, Self.cb.y, Self.cb.z, Self.ab)
        let top = CALayer()
        top.frame = CGRect(x: 10, y: 10, width: 20, height: 20)
        top.backgroundColor = solid(Self.cs.x, Self.cs.y, Self.cs.z, Self.as_)
        top.compositingFilter = compositingFilter
        top.opacity = opacity
        root.addSublayer(back)
        root.addSublayer(top)
        return try RenderHarness.render(root, size: CGSize(width: 40, height: 40), clear: solid(0, 0, 0, 0), parity: parity)
    }

    @Test(arguments: modes)
    func blendModeMatchesW3CFormula(_ mode: String) throws {
        let img = try render(mode, parity: mode != "colorDodgeBlendMode")
        let e = Self.expected(mode)
        let want = RGBA(Int((e.x * 255).rounded()), Int((e.y * 255).rounded()), Int((e.z * 255).rounded()), Int((e.w * 255).rounded()))
        #expect(img.rgba(20, 20).isClose(to: want, tolerance: 3), "\(mode): \(img.rgba(20, 20)) vs \(want)")
        // Outside the layer the backdrop is untouched (Porter-Duff operators included).
        #expect(img.rgba(5, 5).isClose(to: RGBA(153, 77, 38, 191), tolerance: 1), "\(mode): \(img.rgba(5, 5))")
    }

    @Test func blendFilterObjectEqualsItsString() throws {
        let a = try render(try #require(CIFilter(name: "CIMultiplyBlendMode")))
        let b = try render("multiplyBlendMode")
        #expect(a.rgba(20, 20) == b.rgba(20, 20))
    }

    /// Opacity scales the source before blending (W3C §5.1: group opacity, then blending).
    @Test func opacityAppliesToTheSourceBeforeBlending() throws {
        let img = try render("multiplyBlendMode", opacity: 0.5)
        let s = Self.as_ * 0.5, ps = Self.cs * s, pb = Self.cb * Self.ab
        let c = ps * (1 - Self.ab) + pb * (1 - s) + s * Self.ab * (Self.cb * Self.cs)
        let want = RGBA(Int((c.x * 255).rounded()), Int((c.y * 255).rounded()), Int((c.z * 255).rounded()),
                        Int(((s + Self.ab * (1 - s)) * 255).rounded()))
        #expect(img.rgba(20, 20).isClose(to: want, tolerance: 3), "\(img.rgba(20, 20)) vs \(want)")
    }

    /// A checkerboard of 4-point squares over 80×80 points, and a rounded 40×40 layer over its
    /// middle with a 4-point blur as background filter.
    func frostedGlass(_ configure: (CALayer) -> Void = { _ in }) throws -> CALayer {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 80, height: 80)
        root.backgroundColor = solid(1, 1, 1)
        for y in stride(from: 0, to: 80, by: 4) {
            for x in stride(from: 0, to: 80, by: 4) where (x / 4 + y / 4) % 2 == 0 {
                let sq = CALayer()
                sq.frame = CGRect(x: x, y: y, width: 4, height: 4)
                sq.backgroundColor = solid(0, 0, 0)
                root.addSublayer(sq)
            }
        }
        let glass = CALayer()
        glass.frame = CGRect(x: 20, y: 20, width: 40, height: 40)
        glass.cornerRadius = 12
        glass.backgroundFilters = [try #require(CIFilter(name: "CIGaussianBlur", parameters: [kCIInputRadiusKey: 4]))]
        configure(glass)
        root.addSublayer(glass)
        return root
    }

    func isChecker(_ p: RGBA) -> Bool { p == RGBA(0, 0, 0) || p == RGBA(255, 255, 255) }

    /// Frosted glass: inside the shape the squares average out to grey; outside the rounded
    /// corner and outside the layer they stay black and white.
    @Test func backgroundFiltersBlurTheCheckerboardInsideTheRoundedShapeOnly() throws {
        let img = try RenderHarness.render(try frostedGlass(), size: CGSize(width: 80, height: 80))
        let inside = img.rgba(40, 40)
        #expect(abs(inside.g - 128) <= 12, "\(inside)")
        for (x, y) in [(10, 10), (70, 41), (21, 21), (58, 58)] {
            #expect(isChecker(img.rgba(x, y)), "(\(x), \(y)) \(img.rgba(x, y))")
        }
    }

    /// The layer's mask cuts the frosted area too: a mask over the left half of the layer.
    @Test func backgroundFiltersStayInsideTheMask() throws {
        let root = try frostedGlass { glass in
            let m = CALayer()
            m.frame = CGRect(x: 0, y: 0, width: 20, height: 40)
            m.backgroundColor = solid(0, 0, 0)
            glass.mask = m
        }
        let img = try RenderHarness.render(root, size: CGSize(width: 80, height: 80))
        #expect(abs(img.rgba(30, 40).g - 128) <= 12, "\(img.rgba(30, 40))")
        #expect(isChecker(img.rgba(50, 40)), "\(img.rgba(50, 40))")
    }

    /// Radii are in points: at scale 3 the frosted area looks as at scale 1 (the same grey
    /// at the same point, the same untouched checker outside).
    @Test func backgroundFiltersAreResolutionIndependent() throws {
        let one = try RenderHarness.render(try frostedGlass(), size: CGSize(width: 80, height: 80))
        let three = try RenderHarness.render(try frostedGlass(), size: CGSize(width: 80, height: 80), scale: 3)
        for (x, y) in [(40, 40), (30, 45), (50, 33)] {
            let a = one.rgba(x, y).g, b = three.rgba(3 * x + 1, 3 * y + 1).g
            #expect(abs(a - b) <= 10, "(\(x), \(y)): \(a) at scale 1, \(b) at scale 3")
        }
        #expect(isChecker(three.rgba(3 * 21 + 1, 3 * 21 + 1)))
    }
}
