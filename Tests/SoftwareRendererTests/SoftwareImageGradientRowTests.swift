import Testing
import CAFrame
@testable import CASoftware

/// The CPU backend's image and gradient row paths (issue 22: `SoftwareImageRows.swift`,
/// `SoftwareGradientRows.swift`) against the per-texel port of image.frag and gradient.frag
/// they replace (`SoftwareRenderer.usesRowPaths = false`, as `CA_SOFTWARE_SPANS=0`).
@Suite struct SoftwareImageGradientRowTests {
    typealias Rows = SoftwareRowPathTests

    /// A 16×12 opaque-and-translucent premultiplied test picture: every texel differs from its
    /// neighbours, so any wrong texel, weight or edge clamp shows.
    static let picture: CGImageBox = {
        let w = 16, h = 12
        var bytes = [UInt8](repeating: 0, count: w * h * 4)
        for y in 0..<h {
            for x in 0..<w {
                let a = x < 12 ? 255 : 128 + 8 * y
                let i = (y * w + x) * 4
                bytes[i] = UInt8(((x * 37 + y * 11) % 256) * a / 255)
                bytes[i + 1] = UInt8(((x * 5 + y * 53) % 256) * a / 255)
                bytes[i + 2] = UInt8(((x * 91 + y * 7) % 256) * a / 255)
                bytes[i + 3] = UInt8(a)
            }
        }
        return CGImageBox(width: w, height: h, bytes: bytes)
    }()

    /// An image instance of plane rect `rect` mapped to frame pixels by h0, h1 (linear part)
    /// and offset t.
    static func image(_ rect: SIMD4<Float>, uv: SIMD4<Float> = SIMD4(0, 0, 1, 1), tint: Float = 1,
                      radii: Float = 0, h0: SIMD2<Float> = SIMD2(1, 0), h1: SIMD2<Float> = SIMD2(0, 1),
                      offset t: SIMD2<Float>, minFilter: UInt32 = 0, magFilter: UInt32 = 0) -> ImageInstance {
        let flags = InstanceFlags.edgeMask | minFilter << InstanceFlags.minificationFilterShift
            | magFilter << InstanceFlags.magnificationFilterShift
        return ImageInstance(h0: SIMD4(h0.x, h0.y, 0, 0), h1: SIMD4(h1.x, h1.y, 0, 0), h2: SIMD4(t.x, t.y, 1, Float(flags)),
                             rect: rect, uv: uv, tint: SIMD4(repeating: tint), shape: rect, shapeRadii: SIMD4(repeating: radii))
    }

    static func imageFrame(_ w: Int, _ h: Int, _ images: [ImageInstance], filter: TextureFilter = .linear,
                           variant: ShaderVariant = []) -> RenderFrame {
        var f = RenderFrame(width: w, height: h)
        f.clearColor = SIMD4(0.2, 0.3, 0.1, 1)
        f.textures = [picture.image]
        f.images = images
        f.passes = [RenderPass(target: .main, kind: .draw([Batch(pipeline: .image(texture: 0, filter: filter), variant: variant, range: 0..<images.count)]))]
        return f
    }

    /// Row paths against the per-texel path: every byte within `bound` levels and at least
    /// 99.5 % within 2 (the backends' parity bound), some bytes different (the row path did
    /// draw), and the same bytes from bands on several threads.
    ///
    /// Gradients compute the per-texel path's float colour, so only the 8-bit blend differs:
    /// one level a blend, 2 in all (as `SoftwareRowPathTests`' boxes). Images weigh texels in
    /// 1/256ths (as GL implementations do): the weights' rounding moves a sample by up to
    /// ½ level per axis and ≈ 1 level through the rounded product weight where the four texels
    /// differ by 255 in a checkerboard, so their bound is 3.
    static func expectRowsMatchTexels(_ f: RenderFrame, _ what: String, bound: Int = 2) throws {
        let fast = try Rows.render(f, rowPaths: true)
        let reference = try Rows.render(f, rowPaths: false)
        #expect(fast.count == reference.count)
        let diffs = zip(fast, reference).map { abs(Int($0.0) - Int($0.1)) }
        let beyond2 = diffs.filter { $0 > 2 }.count
        #expect(diffs.max() ?? 0 <= bound, "\(what): max \(diffs.max() ?? 0), \(beyond2) bytes beyond 2")
        #expect(beyond2 * 200 <= diffs.count, "\(what): \(beyond2) of \(diffs.count) bytes beyond 2")
        #expect(fast != reference, "\(what): the row path drew nothing of its own")
        #expect(try Rows.render(f, rowPaths: true, threads: 3) == fast, "\(what)")
    }

    @Test("images scaled up and down, linear and trilinear, translucent and rounded: rows draw the per-texel pixels")
    func scaledImages() throws {
        // image.frag: magnified (one texel over several pixels) and minified (several texels a pixel).
        let up = [Self.image(SIMD4(0, 0, 16, 12), tint: 1, radii: 3, h0: SIMD2(7.3, 0), h1: SIMD2(0, 6.1), offset: SIMD2(3.2, 4.7)),
                  Self.image(SIMD4(0, 0, 50, 40), tint: 0.6, h0: SIMD2(1.9, 0), h1: SIMD2(0, 2.3), offset: SIMD2(20.5, 90.25))]
        try Self.expectRowsMatchTexels(Self.imageFrame(160, 190, up), "magnified, linear", bound: 3)
        // 1.6–3.3 texels a pixel: minified (the trilinear level mixes levels 0 and 1, 1 and 2).
        let down = [Self.image(SIMD4(0, 0, 16, 12), tint: 0.8, radii: 2, h0: SIMD2(0.61, 0), h1: SIMD2(0, 0.55), offset: SIMD2(3.37, 2.71)),
                    Self.image(SIMD4(0, 0, 16, 12), tint: 1, h0: SIMD2(0.3, 0), h1: SIMD2(0, 0.45), offset: SIMD2(20.13, 10.91))]
        try Self.expectRowsMatchTexels(Self.imageFrame(40, 30, down), "minified, linear", bound: 3)
        // Trilinear minification (contentsMinificationFilter = .trilinear: mode 2, mipmapped batch).
        let tri = down.map { var i = $0; i.h2.w = Float(InstanceFlags.edgeMask | 2 << InstanceFlags.minificationFilterShift); return i }
        try Self.expectRowsMatchTexels(Self.imageFrame(40, 30, tri, filter: .trilinear), "minified, trilinear", bound: 3)
    }

    @Test("an image turned 90° and mirrored: rows draw the per-texel pixels")
    func rotatedImages() throws {
        // Plane x runs down the target, plane y to the left (a 90° turn), and a mirrored copy.
        let turned = [Self.image(SIMD4(0, 0, 30, 20), tint: 0.9, radii: 4, h0: SIMD2(0, 2.5), h1: SIMD2(-3, 0), offset: SIMD2(70.3, 5.1)),
                      Self.image(SIMD4(0, 0, 30, 20), h0: SIMD2(-1.5, 0), h1: SIMD2(0, 1.5), offset: SIMD2(140.6, 90.2))]
        try Self.expectRowsMatchTexels(Self.imageFrame(150, 130, turned), "rotated 90°, mirrored", bound: 3)
    }

    @Test("contentsRect inside and beyond the image: rows draw the per-texel pixels, clamped to the edge texels")
    func contentsRects() throws {
        let images = [Self.image(SIMD4(0, 0, 40, 30), uv: SIMD4(0.25, 0.2, 0.75, 0.9), h0: SIMD2(2, 0), h1: SIMD2(0, 2), offset: SIMD2(1.5, 2.5)),
                      Self.image(SIMD4(0, 0, 40, 30), uv: SIMD4(-0.3, -0.2, 1.4, 1.1), tint: 0.7, h0: SIMD2(2, 0), h1: SIMD2(0, 2), offset: SIMD2(60.5, 40.25))]
        try Self.expectRowsMatchTexels(Self.imageFrame(150, 110, images), "contentsRect", bound: 3)
        // Two pieces of one rounded shape (as a nine-part image's): each is drawn only over its
        // own rect, though the shape's interior spans both.
        var left = Self.image(SIMD4(0, 0, 20, 30), uv: SIMD4(0, 0, 0.5, 1), radii: 5, h0: SIMD2(2.2, 0), h1: SIMD2(0, 2.2), offset: SIMD2(3.45, 4.45))
        var right = Self.image(SIMD4(20, 0, 20, 30), uv: SIMD4(0.5, 0, 1, 1), tint: 0.8, radii: 5, h0: SIMD2(2.2, 0), h1: SIMD2(0, 2.2), offset: SIMD2(3.45, 4.45))
        left.shape = SIMD4(0, 0, 40, 30); right.shape = SIMD4(0, 0, 40, 30)
        try Self.expectRowsMatchTexels(Self.imageFrame(100, 80, [left, right]), "pieces of one shape", bound: 3)
    }

    @Test("nearest against linear magnification: rows draw the per-texel pixels")
    func nearestAndLinear() throws {
        // magnificationFilter = .nearest: image.frag's texelFetch (mode 1) in a linear batch,
        // and a nearest batch (GL_NEAREST sampler) minified.
        let mag = [Self.image(SIMD4(0, 0, 16, 12), h0: SIMD2(5.5, 0), h1: SIMD2(0, 5.5), offset: SIMD2(2.3, 1.1), magFilter: 1),
                   Self.image(SIMD4(0, 0, 16, 12), tint: 0.5, h0: SIMD2(5.5, 0), h1: SIMD2(0, 5.5), offset: SIMD2(60.7, 40.4), magFilter: 0)]
        try Self.expectRowsMatchTexels(Self.imageFrame(160, 120, mag), "magnified, nearest and linear", bound: 3)
        let small = [Self.image(SIMD4(0, 0, 16, 12), radii: 2, h0: SIMD2(0.7, 0), h1: SIMD2(0, 0.6), offset: SIMD2(1.23, 0.93), minFilter: 0)]
        try Self.expectRowsMatchTexels(Self.imageFrame(20, 20, small, filter: .nearest), "minified, nearest batch")
    }

    @Test("magnified by 10 without rotation: texels near an image corner are that texel exactly, nearest and linear")
    func cornerTexelsExact() throws {
        // Pixel (2, 2) has its centre 0.25 texels from the image's corner: nearest reads texel
        // (0, 0); linear's neighbours there are clamped to the edge (GL_CLAMP_TO_EDGE, contents
        // samples clamp to the image), so both read texel (0, 0) alone: (0, 0, 0, 255).
        // Pixel (55, 2) lies in texel (5, 0): nearest gives it exactly, (185, 25, 199, 255).
        for mode: UInt32 in [0, 1] {
            let f = Self.imageFrame(160, 120, [Self.image(SIMD4(0, 0, 16, 12), h0: SIMD2(10, 0), h1: SIMD2(0, 10), offset: .zero, magFilter: mode)])
            let px = try Rows.render(f, rowPaths: true)
            #expect(Array(px[(2 * 160 + 2) * 4..<(2 * 160 + 2) * 4 + 4]) == [0, 0, 0, 255], "mode \(mode)")
            if mode == 1 {
                #expect(Array(px[(2 * 160 + 55) * 4..<(2 * 160 + 55) * 4 + 4]) == [185, 25, 199, 255])
            }
        }
    }

    @Test("an image with perspective keeps the per-texel path; one without gets a row plan")
    func perspectiveKeepsTexelPath() {
        let flat = Self.image(SIMD4(0, 0, 16, 12), offset: SIMD2(4, 4))
        var tilted = flat
        tilted.h0.z = 0.002  // w grows along plane x: a perspective map
        let map = SoftwareViewport(viewport: SIMD4(0, 0, 64, 64), texels: SIMD2(64, 64))
        let texture = SoftwareTexture(Self.picture.image)
        func plan(_ i: ImageInstance, _ variant: ShaderVariant) -> SoftwareImageRowPlan? {
            let q = SoftwareQuad(map: map.planeToTexel(i.h0, i.h1, i.h2), lo: SIMD2(0, 0), hi: SIMD2(16, 12), width: 64, height: 64)
            return SoftwareImageRowPlan(i, q, SoftwareVariant(variant), additive: false, texture: texture, filter: .linear)
        }
        #expect(plan(flat, []) != nil)
        #expect(plan(tilted, [.projective]) == nil)
        #expect(plan(tilted, []) == nil)
    }

    // MARK: Gradients

    /// A ramp row of `GradientInstance.rampWidth` premultiplied texels through `stops`
    /// (location, colour), linear between them, as `RenderFrame.gradientRamps` holds.
    static func ramp(_ stops: [(Float, SIMD4<Float>)]) -> [Float] {
        let w = GradientInstance.rampWidth
        var out: [Float] = []
        for k in 0..<w {
            let t = Float(k) / Float(w - 1)
            var c = stops[0].1
            for (a, b) in zip(stops, stops.dropFirst()) where t >= a.0 && t <= b.0 {
                c = b.0 > a.0 ? a.1 + (b.1 - a.1) * ((t - a.0) / (b.0 - a.0)) : b.1
            }
            if t > stops.last!.0 { c = stops.last!.1 }
            out += [c.x, c.y, c.z, c.w]
        }
        return out
    }

    static func gradient(_ rect: SIMD4<Float>, points: SIMD4<Float>, row: Int, opacity: Float = 1, radius: Float = 0,
                         h0: SIMD2<Float> = SIMD2(1, 0), h1: SIMD2<Float> = SIMD2(0, 1), offset t: SIMD2<Float>,
                         focalRadius: Float = 0) -> GradientInstance {
        GradientInstance(h0: SIMD4(h0.x, h0.y, 0, 0), h1: SIMD4(h1.x, h1.y, 0, 0), h2: SIMD4(t.x, t.y, 1, Float(InstanceFlags.edgeMask)),
                         rect: rect, radii: SIMD4(repeating: radius), points: points,
                         params: SIMD4(0, Float(row), opacity, focalRadius))
    }

    static func gradientFrame(_ w: Int, _ h: Int, _ gradients: [GradientInstance], variant: ShaderVariant = []) -> RenderFrame {
        var f = RenderFrame(width: w, height: h)
        f.clearColor = SIMD4(0.1, 0.1, 0.3, 1)
        // Row 0: three opaque stops at 0, 0.2 and 1 (CAGradientLayer.locations); row 1: a
        // translucent ramp, stops at 0.3 and 0.6, held beyond them.
        f.gradientRamps = ramp([(0, SIMD4(1, 0, 0, 1)), (0.2, SIMD4(0, 1, 0, 1)), (1, SIMD4(0, 0, 1, 1))])
            + ramp([(0, SIMD4(0.5, 0.4, 0, 0.5)), (0.3, SIMD4(0.5, 0.4, 0, 0.5)), (0.6, SIMD4(0, 0.1, 0.6, 0.8)), (1, SIMD4(0, 0.1, 0.6, 0.8))])
        f.gradients = gradients
        f.passes = [RenderPass(target: .main, kind: .draw([Batch(pipeline: .gradient, variant: variant, range: 0..<gradients.count)]))]
        return f
    }

    /// Each kind's instances: axis-aligned, scaled, turned 90°, rounded, translucent. The focal
    /// form's points are (centre, focal point) with the focal point inside the circle of radius
    /// params.w, as gradient.frag requires (outside it the root is ill-conditioned).
    static func gradientSet(focal: Bool = false) -> [GradientInstance] {
        [Self.gradient(SIMD4(0, 0, 90, 60), points: focal ? SIMD4(45, 30, 55, 36) : SIMD4(10, 5, 80, 50), row: 0, radius: 10,
                       offset: SIMD2(3.3, 2.6), focalRadius: focal ? 40 : 0),
         Self.gradient(SIMD4(0, 0, 60, 40), points: focal ? SIMD4(30, 20, 36, 23) : SIMD4(30, 20, 50, 35), row: 1, opacity: 0.7, radius: 6,
                       h0: SIMD2(1.4, 0), h1: SIMD2(0, 0.8), offset: SIMD2(100.5, 10.2), focalRadius: focal ? 25 : 0),
         Self.gradient(SIMD4(0, 0, 50, 40), points: focal ? SIMD4(25, 20, 19, 15) : SIMD4(5, 35, 45, 5), row: 0, opacity: 0.9, radius: 8,
                       h0: SIMD2(0, 1.2), h1: SIMD2(-1.1, 0), offset: SIMD2(60.7, 70.1), focalRadius: focal ? 20 : 0)]
    }

    @Test("axial, radial, conic and focal gradients with locations and rounded corners: rows draw the per-texel pixels")
    func gradientsMatchPerTexelPath() throws {
        let set = Self.gradientSet()
        try Self.expectRowsMatchTexels(Self.gradientFrame(200, 140, set), "axial")
        try Self.expectRowsMatchTexels(Self.gradientFrame(200, 140, set, variant: [.radial]), "radial")
        try Self.expectRowsMatchTexels(Self.gradientFrame(200, 140, set, variant: [.conic]), "conic")
        try Self.expectRowsMatchTexels(Self.gradientFrame(200, 140, Self.gradientSet(focal: true), variant: [.radial, .conic]), "focal")
    }

    @Test("an axial ramp from black to white: the texel at x = 50 of 100 is 0.505 (±½ level of dither)")
    func axialValue() throws {
        // gradient.frag: t = (50.5 − 0) / 100 at the texel centre; the ramp is linear, so the
        // colour is 0.505 · 255 = 128.8 plus the dither's ±0.5 level before rounding: 128 or 129.
        var f = Self.gradientFrame(100, 10, [Self.gradient(SIMD4(0, 0, 100, 10), points: SIMD4(0, 0, 100, 0), row: 0, offset: .zero)])
        f.gradientRamps = Self.ramp([(0, SIMD4(0, 0, 0, 1)), (1, SIMD4(1, 1, 1, 1))])
        let px = try Rows.render(f, rowPaths: true)
        let i = (5 * 100 + 50) * 4
        #expect((128...129).contains(px[i]) && px[i] == px[i + 1] && px[i + 1] == px[i + 2] && px[i + 3] == 255, "\(px[i..<i + 4])")
    }
}

/// A CGImage made outside the Testing file's imports (see Imports.swift).
struct CGImageBox: @unchecked Sendable {
    let image: CGImage
    init(width: Int, height: Int, bytes: [UInt8]) {
        image = CGImage(width: width, height: height, rgba8Bytes: bytes, premultiplied: true)!
    }
}
