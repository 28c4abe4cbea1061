import Testing
import Foundation
import CAFrame
@testable import CASoftware

/// The image and gradient row paths' interior loops (issue 22: `SoftwareImageInteriorRows.swift`,
/// `SoftwareGradientInteriorRows.swift`) against the row paths' general loop they specialise
/// (`SoftwareRenderer.usesInteriorLoops = false`, as `CA_SOFTWARE_INTERIOR=0`), and against the
/// per-texel port of image.frag and gradient.frag within the backends' parity bound.
@Suite struct SoftwareInteriorLoopTests {
    typealias Images = SoftwareImageGradientRowTests

    static func render(_ f: RenderFrame, interior: Bool, threads: Int = 1) throws -> [UInt8] {
        let r = SoftwareRenderer(threads: threads)
        r.usesRowPaths = true
        r.usesInteriorLoops = interior
        var stats = RenderStats()
        try r.render(f, stats: &stats)
        return r.readPixels()
    }

    /// The interior loop's pixels against the general loop's: at most `bound` levels apart in
    /// any byte (0: the same bytes), and within the parity rule of the per-texel path.
    static func expectInteriorMatches(_ f: RenderFrame, _ what: String, bound: Int = 0, texelBound: Int = 3) throws {
        let fast = try render(f, interior: true)
        let general = try render(f, interior: false)
        let d = SoftwareRowPathTests.maxDifference(fast, general)
        #expect(d <= bound, "\(what): interior loop \(d) levels from the general loop")
        let perTexel = try SoftwareRowPathTests.render(f, rowPaths: false)
        let diffs = zip(fast, perTexel).map { abs(Int($0.0) - Int($0.1)) }
        #expect(diffs.max() ?? 0 <= texelBound, "\(what): \(diffs.max() ?? 0) levels from the per-texel path")
        #expect(diffs.filter { $0 > 2 }.count * 200 <= diffs.count, "\(what): beyond the parity rule")
        #expect(try render(f, interior: true, threads: 3) == fast, "\(what): bands on several threads")
    }

    /// A rotation by `degrees` times `scale`, as an instance's h0 (image of plane x) and h1.
    static func turn(_ degrees: Float, _ scale: Float) -> (SIMD2<Float>, SIMD2<Float>) {
        let a = degrees * .pi / 180
        return (SIMD2(cos(a), sin(a)) * scale, SIMD2(-sin(a), cos(a)) * scale)
    }

    @Test("the interior pack: (lane + 128) >> 8 with an opaque tint is the float path's byte for every lane value 0…65280")
    func opaquePackIsTheFloatPack() throws {
        let tq = try #require(SoftwareImageInterior.tintFactor(SIMD4(repeating: 1)))
        #expect(tq.factors == SIMD4(repeating: 65536) && tq.opaque)
        // SoftwareImagePipeline.drawRows' k = tint / (255 · 256), coverage 1.
        let k = SIMD4<Float>(repeating: 1) * (1 / (255 * 256))
        for l in 0...UInt64(65280) {
            // R = G = B = l under an opaque alpha lane (R, B, G, A from the low end).
            let s = l | l << 16 | l << 32 | UInt64(65280) << 48
            let want = SoftwareSpanBlend.source(SoftwareFixedTexel.color(s, k) * 1)
            let got = SoftwareImageInterior.pack(s, tq)
            if got != want { Issue.record("lane \(l): \(String(got, radix: 16)), float path \(String(want, radix: 16))"); return }
        }
    }

    @Test("the interior pack with a translucent or coloured tint: within one level of the float path, colour held to alpha")
    func translucentPackWithinALevel() throws {
        let tints: [SIMD4<Float>] = [.zero, SIMD4(repeating: 0.4), SIMD4(repeating: 0.5), SIMD4(repeating: 0.73),
                                     SIMD4(repeating: 0.999), SIMD4(1, 0.5, 0.25, 1), SIMD4(0.9, 0.2, 0.6, 0.7), SIMD4(0, 1, 0.35, 0.35)]
        for t in tints {
            let tq = try #require(SoftwareImageInterior.tintFactor(t))
            #expect(!tq.opaque)
            let k = t * (1 / (255 * 256))
            for l in stride(from: UInt64(0), through: 65280, by: 7) {
                let a = max(l, 30000)
                let s = l | (l / 2) << 16 | (65280 - l) % (a + 1) << 32 | a << 48
                let want = SoftwareSpanBlend.source(SoftwareFixedTexel.color(s, k))
                let got = SoftwareImageInterior.pack(s, tq)
                for shift: UInt32 in [0, 8, 16, 24] where abs(Int((got >> shift) & 0xFF) - Int((want >> shift) & 0xFF)) > 1 {
                    Issue.record("tint \(t), lane \(l), byte \(shift / 8): \(String(got, radix: 16)) against \(String(want, radix: 16))")
                    return
                }
            }
        }
        // A tint beyond 0…1 on any channel keeps the general loop.
        #expect(SoftwareImageInterior.tintFactor(SIMD4(repeating: 1.5)) == nil)
        #expect(SoftwareImageInterior.tintFactor(SIMD4(1, 1.2, 1, 1)) == nil)
        #expect(SoftwareImageInterior.tintFactor(SIMD4(repeating: -0.1)) == nil)
        #expect(SoftwareImageInterior.tintFactor(SIMD4(0.5, .nan, 0.5, 0.5)) == nil)
    }

    @Test("opaque images magnified, minified, turned and mirrored, square and rounded: the interior loop draws the general loop's bytes")
    func opaqueImagesBitIdentical() throws {
        var images: [ImageInstance] = []
        for (k, (deg, scale)) in [(Float(0), Float(3.7)), (0, 0.62), (90, 2.5), (33, 2.1), (-61, 0.8), (180, 1.0)].enumerated() {
            let (h0, h1) = Self.turn(deg, scale)
            images.append(Images.image(SIMD4(0, 0, 16, 12), radii: k % 2 == 0 ? 0 : 3, h0: h0, h1: h1,
                                       offset: SIMD2(40 + 70 * Float(k % 3), 40 + 80 * Float(k / 3)) + 0.37))
        }
        // A mirrored copy (h0 reversed).
        images.append(Images.image(SIMD4(0, 0, 16, 12), h0: SIMD2(-2.2, 0), h1: SIMD2(0, 2.2), offset: SIMD2(230.6, 10.3)))
        try Self.expectInteriorMatches(Images.imageFrame(240, 200, images), "opaque images")
        // contentsRect beyond the image (clamped uv) and a piece of a larger shape.
        var piece = Images.image(SIMD4(20, 0, 20, 30), uv: SIMD4(0.5, 0, 1, 1), radii: 5, h0: SIMD2(2.2, 0), h1: SIMD2(0, 2.2), offset: SIMD2(3.45, 4.45))
        piece.shape = SIMD4(0, 0, 40, 30)
        let clamped = Images.image(SIMD4(0, 0, 40, 30), uv: SIMD4(-0.3, -0.2, 1.4, 1.1), h0: SIMD2(2, 0), h1: SIMD2(0, 2), offset: SIMD2(100.5, 40.25))
        try Self.expectInteriorMatches(Images.imageFrame(200, 120, [piece, clamped]), "contentsRect and pieces")
    }

    @Test("translucent images (a layer's opacity as a grey tint): within one level of the general loop")
    func translucentImagesWithinALevel() throws {
        var images: [ImageInstance] = []
        for (k, (deg, scale, tint)) in [(Float(0), Float(3.1), Float(0.4)), (0, 0.7, 0.73), (47, 1.9, 0.5), (90, 1.3, 0.999)].enumerated() {
            let (h0, h1) = Self.turn(deg, scale)
            images.append(Images.image(SIMD4(0, 0, 16, 12), tint: tint, radii: 2, h0: h0, h1: h1,
                                       offset: SIMD2(40 + 90 * Float(k % 2), 40 + 90 * Float(k / 2)) + 0.21))
        }
        try Self.expectInteriorMatches(Images.imageFrame(200, 200, images), "translucent images", bound: 1)
    }

    @Test("coloured tints (an emitter cell's colour, premultiplied) on small and large, turned images: within one level of the general loop")
    func colouredTintsWithinALevel() throws {
        var images: [ImageInstance] = []
        let tints: [SIMD4<Float>] = [SIMD4(0.9, 0.3, 0.1, 0.9), SIMD4(0.2, 0.5, 0.6, 0.6), SIMD4(1, 0.8, 0, 1), SIMD4(0.05, 0.1, 0.4, 0.45)]
        for (k, (deg, scale)) in [(Float(0), Float(1)), (0, 4.3), (33, 2.2), (0, 0.6)].enumerated() {
            let (h0, h1) = Self.turn(deg, scale)
            var image = Images.image(SIMD4(0, 0, 8, 8), h0: h0, h1: h1, offset: SIMD2(30 + 90 * Float(k % 2), 30 + 90 * Float(k / 2)) + 0.37)
            image.tint = tints[k]
            images.append(image)
        }
        try Self.expectInteriorMatches(Images.imageFrame(200, 200, images), "coloured tints", bound: 1)
    }

    @Test("clipped images and gradients keep the general loop: the same bytes")
    func clippedKeepsGeneralLoop() throws {
        let clip = ClipShape(inverse: .identity, rect: SIMD4(20, 15, 90, 70), radii: SIMD4(repeating: 12), continuous: false)
        var image = Images.image(SIMD4(0, 0, 16, 12), h0: SIMD2(6, 0), h1: SIMD2(0, 6), offset: SIMD2(5.3, 4.1))
        image.h1.w = 1
        var f = Images.imageFrame(130, 100, [image], variant: [.clip])
        f.clips = [.none, clip]
        try Self.expectInteriorMatches(f, "clipped image")
        var g = Images.gradient(SIMD4(0, 0, 100, 80), points: SIMD4(5, 5, 95, 70), row: 0, offset: SIMD2(4.6, 3.2))
        g.h1.w = 1
        var fg = Images.gradientFrame(130, 100, [g], variant: [.clip])
        fg.clips = [.none, clip]
        try Self.expectInteriorMatches(fg, "clipped gradient", texelBound: 2)
    }

    @Test("axial gradients scaled, turned, rounded, opaque and translucent ramps and opacities: the interior loop draws the general loop's bytes")
    func axialGradientsBitIdentical() throws {
        var set = Images.gradientSet()
        for (k, (deg, scale)) in [(Float(21), Float(1.3)), (-75, 0.9), (180, 1.6)].enumerated() {
            let (h0, h1) = Self.turn(deg, scale)
            set.append(Images.gradient(SIMD4(0, 0, 70, 50), points: SIMD4(3, 40, 66, 9), row: k % 2, opacity: k == 1 ? 0.45 : 1,
                                       radius: 9, h0: h0, h1: h1, offset: SIMD2(60 + 80 * Float(k), 200.4)))
        }
        try Self.expectInteriorMatches(Images.gradientFrame(300, 280, set), "axial gradients", texelBound: 2)
        // The other forms have no interior loop; their bytes are unchanged.
        try Self.expectInteriorMatches(Images.gradientFrame(200, 140, Images.gradientSet(), variant: [.radial]), "radial", texelBound: 2)
    }
}
