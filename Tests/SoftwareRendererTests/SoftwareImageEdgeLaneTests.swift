import Testing
import CAFrame
@testable import CASoftware
import CFloatLanes

/// The image row path's four-lane edges and turned interiors (issue 22:
/// `SoftwareImageEdgeLanes.swift`, `SoftwareImageInteriorSpan.rotatedRun`) against the scalar
/// loops they replace (`SoftwareRenderer.usesInteriorLoops = false`): the lanes repeat the
/// scalar float operations, so with an opaque tint (where the interior loop's pack is the float
/// path's) the bytes must be the same.
@Suite struct SoftwareImageEdgeLaneTests {
    typealias Images = SoftwareImageGradientRowTests
    typealias Interior = SoftwareInteriorLoopTests

    /// A small deterministic generator (the tests' cases must not change between runs).
    struct Rand {
        var state: UInt64
        mutating func next() -> Float {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Float(state >> 40) / Float(1 << 24)
        }
    }

    /// `count` sprites of the test picture (or a cell of it) scattered over a w × h frame,
    /// each turned, scaled and offset by a fraction of a pixel, some with rounded corners.
    static func sprites(_ count: Int, _ w: Int, _ h: Int, seed: UInt64, tint: (inout Rand) -> SIMD4<Float>) -> [ImageInstance] {
        var r = Rand(state: seed)
        var out: [ImageInstance] = []
        for k in 0..<count {
            let deg = r.next() * 360, scale = 0.4 + r.next() * 2.6
            let (h0, h1) = Interior.turn(deg, scale)
            let side = SIMD2<Float>(8 + Float(k % 3) * 4, 8 + Float(k % 2) * 4)
            // A quarter of them sample a cell of the picture (an atlas cell's uv), some beyond it.
            let uv: SIMD4<Float> = k % 4 == 1 ? SIMD4(0.25, 0.2, 0.75, 0.9) : k % 7 == 3 ? SIMD4(-0.2, 0, 1.1, 1.2) : SIMD4(0, 0, 1, 1)
            var image = Images.image(SIMD4(0, 0, side.x, side.y), uv: uv, radii: [0, 0, 1.5, 4][k % 4], h0: h0, h1: h1,
                                     offset: SIMD2(r.next() * Float(w), r.next() * Float(h)))
            image.tint = tint(&r)
            out.append(image)
        }
        return out
    }

    @Test("300 small turned sprites (8–12 texels, scales 0.4–3, rounded or square, atlas cells, clamped uv), opaque tint: the lanes draw the scalar loops' bytes")
    func opaqueSpritesBitIdentical() throws {
        let images = Self.sprites(300, 220, 160, seed: 7) { _ in SIMD4(repeating: 1) }
        try Interior.expectInteriorMatches(Images.imageFrame(220, 160, images), "opaque sprites")
    }

    @Test("sprites under an edge-mask program with every edge soft: the lanes draw the scalar loops' bytes")
    func edgeMaskProgram() throws {
        let images = Self.sprites(120, 160, 120, seed: 11) { _ in SIMD4(repeating: 1) }
        try Interior.expectInteriorMatches(Images.imageFrame(160, 120, images, variant: [.edgeMask]), "edge-mask sprites")
    }

    @Test("sprites with an emitter cell's coloured, translucent tints: within a level of the scalar loops (the interior loop's fixed-point pack)")
    func tintedSprites() throws {
        let images = Self.sprites(300, 220, 160, seed: 23) { r in
            let a = 0.2 + r.next() * 0.8
            return SIMD4(r.next() * a, r.next() * a, r.next() * a, a)
        }
        try Interior.expectInteriorMatches(Images.imageFrame(220, 160, images), "tinted sprites", bound: 1)
    }

    @Test("which instances the edge lanes draw: bilinear, unclipped, no perspective or continuous-corner program, every edge soft")
    func laneChoice() {
        let plain = SoftwareVariant([])
        #expect(SoftwareImageEdgeLanes.apply(.linear, clipped: false, variant: plain, aaMask: 15))
        #expect(SoftwareImageEdgeLanes.apply(.linear, clipped: false, variant: plain, aaMask: 5))
        #expect(!SoftwareImageEdgeLanes.apply(.nearest, clipped: false, variant: plain, aaMask: 15))
        #expect(!SoftwareImageEdgeLanes.apply(.fetch, clipped: false, variant: plain, aaMask: 15))
        #expect(!SoftwareImageEdgeLanes.apply(.trilinear(0, 1, 0.5), clipped: false, variant: plain, aaMask: 15))
        #expect(!SoftwareImageEdgeLanes.apply(.linear, clipped: true, variant: plain, aaMask: 15))
        #expect(!SoftwareImageEdgeLanes.apply(.linear, clipped: false, variant: SoftwareVariant([.projective]), aaMask: 15))
        #expect(!SoftwareImageEdgeLanes.apply(.linear, clipped: false, variant: SoftwareVariant([.continuous]), aaMask: 15))
        #expect(SoftwareImageEdgeLanes.apply(.linear, clipped: false, variant: SoftwareVariant([.edgeMask]), aaMask: 15))
        #expect(!SoftwareImageEdgeLanes.apply(.linear, clipped: false, variant: SoftwareVariant([.edgeMask]), aaMask: 5))
    }

    @Test("the four-lane floor is softwareFloor's, negative and fractional values included")
    func floorLanes() {
        let values: [Float] = [-2.5, -1, -0.75, -0.5, -1e-7, 0, 1e-7, 0.5, 0.999, 1, 1.5, 255.49, 4095.999, -4096.25]
        for k in stride(from: 0, to: values.count - 3, by: 1) {
            let v = SIMD4(values[k], values[k + 1], values[k + 2], values[k + 3])
            let f = v.softwareFloorLanes
            for j in 0..<4 { #expect(f[j] == v[j].softwareFloor, "\(v[j])") }
        }
    }
}

extension SoftwareImageEdgeLaneTests {
    @Test("images one texel wide or high (the lanes' clamped-pair sampler) and 2×2: the scalar loops' bytes")
    func thinImages() throws {
        for (w, h) in [(1, 5), (6, 1), (1, 1), (2, 2)] {
            var bytes = [UInt8](repeating: 0, count: w * h * 4)
            for k in 0..<(w * h) {
                let a = 255 - (k * 40) % 200
                bytes[k * 4] = UInt8((k * 97 % 256) * a / 255); bytes[k * 4 + 1] = UInt8((k * 31 % 256) * a / 255)
                bytes[k * 4 + 2] = UInt8((k * 59 % 256) * a / 255); bytes[k * 4 + 3] = UInt8(a)
            }
            var f = Images.imageFrame(120, 100, Self.sprites(40, 120, 100, seed: UInt64(w * 10 + h)) { _ in SIMD4(repeating: 1) })
            f.textures = [CGImageBox(width: w, height: h, bytes: bytes).image]
            try Interior.expectInteriorMatches(f, "\(w)×\(h) image")
        }
    }
}

extension SoftwareImageEdgeLaneTests {
    @Test("four samples weighed, transposed and packed in SSE2 (ca_bilinear_rgba4, ca_bilinear_pack4) equal the scalar sample and pack of each")
    func packedLanesAreScalar() throws {
        var r = Rand(state: 99)
        let w = 9, h = 7
        // Premultiplied texels: each colour at most its alpha.
        var texels = [UInt32](repeating: 0, count: w * h)
        for k in texels.indices {
            let a = UInt32(r.next() * 256) & 0xFF
            let c = { UInt32(Float(a) * r.next()) }
            texels[k] = c() | c() << 8 | c() << 16 | a << 24
        }
        let tints: [SIMD4<Float>] = [SIMD4(repeating: 1), SIMD4(repeating: 0.5), SIMD4(0.9, 0.3, 0.1, 0.9), SIMD4(1, 1, 0.2, 1),
                                     SIMD4(0.01, 0.7, 0.33, 0.8), .zero]
        try texels.withUnsafeMutableBufferPointer { buf in
            let base = try #require(buf.baseAddress)
            for tint in tints {
                let tq = try #require(SoftwareImageInterior.tintFactor(tint))
                for _ in 0..<500 {
                    var offsets = SIMD4<Int32>.zero, w00 = offsets, w10 = offsets, w01 = offsets, w11 = offsets
                    var want = SIMD4<UInt32>.zero, sums: [SIMD4<UInt16>] = []
                    for k in 0..<4 {
                        let x = Int(r.next() * Float(w - 1)), y = Int(r.next() * Float(h - 1))
                        let wx = Int32(r.next() * 257), wy = Int32(r.next() * 257)
                        offsets[k] = Int32(y * w + x)
                        w11[k] = (wx * wy + 128) >> 8; w10[k] = wx - w11[k]; w01[k] = wy - w11[k]; w00[k] = 256 - wx - wy + w11[k]
                        let top = base + y * w + x, bottom = top + w
                        let upper = UInt64(top[0]) | UInt64(top[1]) << 32, lower = UInt64(bottom[0]) | UInt64(bottom[1]) << 32
                        let s = SoftwareImageInterior.bilinear(upper, lower, w00[k], w10[k], w01[k], w11[k])
                        sums.append(s)
                        want[k] = SoftwareImageInterior.pack(s, tq)
                    }
                    let got = unsafeBitCast(ca_bilinear_pack4(base, offsets, w, w00, w10, w01, w11,
                                                              tq.lanes16, tq.whole16, tq.opaque ? 1 : 0),
                                            to: SIMD4<UInt32>.self)
                    #expect(got == want, "tint \(tint)")
                    let c = ca_bilinear_rgba4(base, offsets, w, w00, w10, w01, w11)
                    for k in 0..<4 {
                        #expect(SIMD4(c.r[k], c.g[k], c.b[k], c.a[k]) == SIMD4<Float>(Float(sums[k].x), Float(sums[k].y), Float(sums[k].z), Float(sums[k].w)))
                    }
                    if got != want { return }
                }
            }
        }
    }
}
