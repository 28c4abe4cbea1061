import Testing
import CAFrame
import CASoftware

/// The CPU rasteriser against hand-derived pixel values (issue 22): analytic coverage half a
/// pixel either side of an edge, a rounded corner's coverage, premultiplied source-over.
@Suite struct SoftwareRasterTests {
    /// A frame of `w`×`h` with one main pass drawing `boxes` in one batch.
    static func frame(_ w: Int, _ h: Int, boxes: [BoxInstance], clear: SIMD4<Float> = .zero) -> RenderFrame {
        var f = RenderFrame(width: w, height: h)
        f.clearColor = clear
        f.boxes = boxes
        f.passes = [RenderPass(target: .main, kind: .draw([Batch(pipeline: .box, range: 0..<boxes.count)]))]
        return f
    }

    /// An untransformed box (plane = frame pixels), every edge antialiased.
    static func box(_ rect: SIMD4<Float>, fill: SIMD4<Float>, radii: SIMD4<Float> = .zero) -> BoxInstance {
        BoxInstance(h0: SIMD4(1, 0, 0, 0), h1: SIMD4(0, 1, 0, 0), h2: SIMD4(0, 0, 1, Float(InstanceFlags.edgeMask)),
                    rect: rect, radii: radii, fill: fill, border: .zero, params: .zero)
    }

    static func render(_ f: RenderFrame, threads: Int = 1) throws -> [UInt8] {
        let r = SoftwareRenderer(threads: threads)
        var stats = RenderStats()
        try r.render(f, stats: &stats)
        return r.readPixels()
    }

    static func pixel(_ px: [UInt8], _ w: Int, _ x: Int, _ y: Int) -> [Int] {
        (0..<4).map { Int(px[(y * w + x) * 4 + $0]) }
    }

    @Test("an edge through pixel centres covers those pixels half (0.5 × 255 → 128)")
    func halfPixelEdge() throws {
        // Opaque red from x = 10.5 to 20.5: pixel 10's centre (10.5) lies on the left edge, pixel
        // 20's on the right one: distance 0, coverage 0.5 − 0 = 0.5; pixel 9 is a pixel outside
        // (coverage 0.5 − 1 → 0), pixel 15 inside (1).
        let px = try Self.render(Self.frame(32, 32, boxes: [Self.box(SIMD4(10.5, 2, 10, 28), fill: SIMD4(1, 0, 0, 1))]))
        #expect(Self.pixel(px, 32, 9, 16) == [0, 0, 0, 0])
        #expect(Self.pixel(px, 32, 10, 16) == [128, 0, 0, 128])
        #expect(Self.pixel(px, 32, 15, 16) == [255, 0, 0, 255])
        #expect(Self.pixel(px, 32, 20, 16) == [128, 0, 0, 128])
        #expect(Self.pixel(px, 32, 21, 16) == [0, 0, 0, 0])
    }

    @Test("a rounded corner's pixel is covered by 0.5 − (distance to the arc)")
    func roundedCornerCoverage() throws {
        // A 20×20 box with radius 10 is a disc about (10, 10). Pixel (2, 3) has its centre at
        // (2.5, 3.5): √(7.5² + 6.5²) = √98.5 ≈ 9.92472 from the centre, 0.07528 inside the arc:
        // coverage 0.5 + 0.07528 = 0.57528 → 0.57528 × 255 = 146.7 → 147. Pixel (2, 2) is
        // √112.5 − 10 ≈ 0.6066 outside (coverage 0), pixel (3, 3) 0.81 inside (1).
        let px = try Self.render(Self.frame(20, 20, boxes: [Self.box(SIMD4(0, 0, 20, 20), fill: SIMD4(1, 1, 1, 1), radii: SIMD4(repeating: 10))]))
        let expected = Int(((0.5 + 10 - Double(98.5).squareRoot()) * 255).rounded())
        #expect(expected == 147)
        #expect(Self.pixel(px, 20, 2, 3) == [147, 147, 147, 147])
        #expect(Self.pixel(px, 20, 2, 2) == [0, 0, 0, 0])
        #expect(Self.pixel(px, 20, 3, 3) == [255, 255, 255, 255])
    }

    @Test("premultiplied source-over: half-transparent red over opaque blue")
    func premultipliedBlend() throws {
        // src (0.5, 0, 0, 0.5) premultiplied over dst (0, 0, 1, 1): src + dst·(1 − 0.5) =
        // (0.5, 0, 0.5, 1) → 127.5 → 128 after rounding (GL may round the blend either way: ±1).
        let px = try Self.render(Self.frame(8, 8, boxes: [Self.box(SIMD4(-4, -4, 16, 16), fill: SIMD4(0.5, 0, 0, 0.5))],
                                            clear: SIMD4(0, 0, 1, 1)))
        let p = Self.pixel(px, 8, 4, 4)
        #expect(abs(p[0] - 128) <= 1 && p[1] == 0 && abs(p[2] - 128) <= 1 && p[3] == 255, "\(p)")
    }

    @Test("bands on several threads draw the same bytes as one thread")
    func threadsAgree() throws {
        var boxes: [BoxInstance] = []
        for i in 0..<40 {
            let f = Float(i)
            boxes.append(Self.box(SIMD4(f * 3.3, f * 2.1, 40, 25), fill: SIMD4(0.2, 0.1, f / 80, 0.6), radii: SIMD4(repeating: 6)))
        }
        let f = Self.frame(200, 150, boxes: boxes)
        #expect(try Self.render(f, threads: 1) == Self.render(f, threads: 4))
    }

    @Test("a frame that names instances it does not hold is an error, not a blank frame")
    func badBatchThrows() {
        var f = Self.frame(8, 8, boxes: [])
        f.passes = [RenderPass(target: .main, kind: .draw([Batch(pipeline: .box, range: 0..<3)]))]
        #expect(throws: SoftwareBackendError.self) { try Self.render(f) }
    }
}
