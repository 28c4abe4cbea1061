import Testing
import CAFrame
@testable import CASoftware

/// The CPU backend's shadow rows (`SoftwareShadowRowPlan`) against the per-texel port of
/// box.frag's blur branch: the same sum in its telescoped form, the corners' notches read from
/// the shared kernel grid (`SoftwareShadowKernel`), blended with the 8-bit span kernel (≤ 2
/// levels, the backends' parity tolerance).
@Suite struct SoftwareShadowRowTests {
    static func shadow(_ rect: SIMD4<Float>, corner: Float, sigma: Float, scale s: SIMD2<Float> = SIMD2(1, 1),
                       offset t: SIMD2<Float> = .zero, fill: SIMD4<Float> = SIMD4(0, 0, 0, 0.5), clip: Float = 0) -> BoxInstance {
        BoxInstance(h0: SIMD4(s.x, 0, 0, 0), h1: SIMD4(0, s.y, 0, clip), h2: SIMD4(t.x, t.y, 1, Float(InstanceFlags.edgeMask)),
                    rect: rect, radii: SIMD4(corner, corner, 0, 0), fill: fill, border: .zero,
                    params: SIMD4(0, sigma, 0, 0))
    }

    static func differences(_ a: [UInt8], _ b: [UInt8]) -> (max: Int, mean: Double) {
        let d = zip(a, b).map { abs(Int($0) - Int($1)) }
        return (d.max() ?? 0, Double(d.reduce(0, +)) / Double(max(d.count, 1)))
    }

    @Test("shadow rows match the per-texel blurred shape: rounded, square, wide and narrow blurs, scaled, coloured")
    func rowsMatchTexels() throws {
        let cases: [BoxInstance] = [
            Self.shadow(SIMD4(30, 20, 80, 60), corner: 12, sigma: 3.2),
            Self.shadow(SIMD4(30, 20, 80, 60), corner: 12, sigma: 11.2),
            Self.shadow(SIMD4(40.5, 30.25, 50, 40), corner: 0, sigma: 4),
            // A large corner under a small blur: past the grid's size, the notches summed exactly.
            Self.shadow(SIMD4(20, 20, 30, 90), corner: 15, sigma: 0.4),
            // Radii past half the box: the corner zones overlap, summed exactly as box.frag.
            Self.shadow(SIMD4(10, 10, 40, 30), corner: 20, sigma: 2, scale: SIMD2(2, 1.5), offset: SIMD2(3.5, -2)),
            // A blur wider than the box: both corners' notches reach every column.
            Self.shadow(SIMD4(50.3, 40.7, 24, 18), corner: 6, sigma: 8),
            Self.shadow(SIMD4(25.5, 20.5, 70, 50), corner: 10, sigma: 3, fill: SIMD4(0.3, 0.1, 0.2, 0.6)),
        ]
        for b in cases {
            let f = SoftwareRowPathTests.frame(160, 140, boxes: [b], variant: [.blur], clear: SIMD4(0.2, 0.4, 0.6, 1))
            let rows = try SoftwareRowPathTests.render(f, rowPaths: true)
            let texels = try SoftwareRowPathTests.render(f, rowPaths: false)
            let d = Self.differences(rows, texels)
            #expect(d.max <= 2 && d.mean < 0.2, "\(b.rect) σ \(b.params.y): \(d)")
            // Not a blank frame: the shadow darkens the clear colour under its middle.
            let cx = Int((b.rect.x + b.rect.z / 2) * b.h0.x + b.h2.x), cy = Int((b.rect.y + b.rect.w / 2) * b.h1.y + b.h2.y)
            #expect(rows[(cy * 160 + cx) * 4 + 2] < 153, "\(rows[(cy * 160 + cx) * 4 + 2])")
        }
    }

    @Test("the corners' notch grid agrees with the notches summed exactly, within half an 8-bit level")
    func gridMatchesExactNotches() throws {
        var seed: UInt32 = 7
        func unit() -> Float { seed ^= seed << 13; seed ^= seed >> 17; seed ^= seed << 5; return Float(seed % 100_000) / 100_000 }
        for (sigma, c) in [(Float(3), SIMD2<Float>(10, 10)), (0.8, SIMD2(12, 12)), (11.2, SIMD2(12, 12)), (2, SIMD2(20, 8))] {
            let kernel = SoftwareShadowKernel(sigma: sigma, corner: c)
            #expect(kernel.hasNotchTable)
            var worst: Float = 0, inside: Float = 0
            for _ in 0..<4000 {
                let u = -kernel.reach + unit() * (c.x + 2 * kernel.reach), v = -kernel.reach + unit() * (c.y + 2 * kernel.reach)
                let exact = kernel.exactNotch(u: u, v: v)
                worst = max(worst, abs(kernel.gridNotch(u: u, v: v) - exact))
                inside = max(inside, exact)
            }
            #expect(worst <= 0.5 / 255, "σ \(sigma), corner \(c): \(worst * 255) levels")
            // Not an empty grid: the corner cuts a visible notch.
            #expect(inside > 0.02, "\(inside)")
            // Beyond the corner's reach N is 0.
            #expect(kernel.exactNotch(u: c.x + kernel.reach + 0.5, v: 1) == 0)
        }
        let tooFine = SoftwareShadowKernel(sigma: 0.2, corner: SIMD2(40, 40))
        #expect(!tooFine.hasNotchTable, "a grid of \(tooFine.nu)×\(tooFine.nv)")
    }

    @Test("a shadow under an opaque box skips the texels the box hides, and the frame is unchanged")
    func hiddenTexelsAreSkipped() throws {
        let w = 200, h = 160
        let box = SoftwareRowPathTests.box(SIMD4(40, 30, 110, 80), fill: SIMD4(0.9, 0.5, 0.1, 1), radii: SIMD4(repeating: 12))
        let shadow = Self.shadow(SIMD4(40, 36, 110, 80), corner: 12, sigma: 4)
        let f = SoftwareRowPathTests.frame(w, h, boxes: [shadow, box], variant: [.blur], clear: SIMD4(0.95, 0.95, 0.95, 1))
        let rows = try SoftwareRowPathTests.render(f, rowPaths: true)
        let texels = try SoftwareRowPathTests.render(f, rowPaths: false)
        let d = Self.differences(rows, texels)
        #expect(d.max <= 2, "\(d)")
        // The hole: the box's opaque texels, inside its corners' arcs.
        let r = SoftwareRenderer(threads: 1)
        var stats = RenderStats()
        try r.render(f, stats: &stats)
        let map = SoftwareViewport(viewport: SIMD4(0, 0, Float(w), Float(h)), texels: SIMD2(Float(w), Float(h)))
        let target = SoftwareTarget(width: w, height: h)
        let hole = SoftwareBoxPipeline.opaqueCover(box, SoftwareVariant([.blur]), map, target)
        #expect(!hole.isEmpty && hole.x0 > 40 && hole.x0 <= 46 && hole.x1 >= 144 && hole.x1 < 150, "\(hole)")
        // Every texel of the hole is the box's colour; just outside the box the shadow shows.
        for y in [hole.y0, (hole.y0 + hole.y1) / 2, hole.y1 - 1] {
            for x in [hole.x0, hole.x1 - 1] {
                let i = (y * w + x) * 4
                #expect(Array(rows[i..<i + 4]) == [230, 128, 26, 255], "(\(x), \(y))")
            }
        }
        let below = ((30 + 80 + 4) * w + 95) * 4
        #expect(rows[below] < 230, "\(rows[below])")
        // A translucent box hides nothing: the shadow is drawn under it as before.
        var glass = box
        glass.fill = SIMD4(0.45, 0.25, 0.05, 0.5)
        #expect(SoftwareBoxPipeline.opaqueCover(glass, SoftwareVariant([.blur]), map, target).isEmpty)
        let g = SoftwareRowPathTests.frame(w, h, boxes: [shadow, glass], variant: [.blur], clear: SIMD4(0.95, 0.95, 0.95, 1))
        #expect(Self.differences(try SoftwareRowPathTests.render(g, rowPaths: true),
                                 try SoftwareRowPathTests.render(g, rowPaths: false)).max <= 2)
    }

    @Test("shadows of one blur and corner share one kernel, kept for the next frame")
    func kernelsAreShared() throws {
        var boxes: [BoxInstance] = []
        for k in 0..<20 {
            boxes.append(Self.shadow(SIMD4(Float(k % 5) * 37.3 + 5, Float(k / 5) * 33.7 + 5, 30, 22), corner: 6, sigma: 2.4))
        }
        boxes.append(Self.shadow(SIMD4(10, 10, 30, 30), corner: 4, sigma: 2.4))
        let f = SoftwareRowPathTests.frame(200, 160, boxes: boxes, variant: [.blur])
        let r = SoftwareRenderer(threads: 2)
        var stats = RenderStats()
        try r.render(f, stats: &stats)
        #expect(r.shadowKernels.count == 2)
        let first = r.shadowKernels.kernel(sigma: 2.4, corner: SIMD2(6, 6), frame: r.frameNumber)
        try r.render(f, stats: &stats)
        #expect(r.shadowKernels.count == 2)
        #expect(r.shadowKernels.kernel(sigma: 2.4, corner: SIMD2(6, 6), frame: r.frameNumber) === first)
    }

    @Test("a clipped shadow's rows match the per-texel path")
    func clippedShadowRows() throws {
        var f = SoftwareRowPathTests.frame(160, 140, boxes: [Self.shadow(SIMD4(30, 20, 80, 60), corner: 12, sigma: 5, clip: 1)],
                                           variant: [.blur, .clip], clear: SIMD4(0.2, 0.4, 0.6, 1))
        f.clips = [.none, ClipShape(inverse: .identity, rect: SIMD4(20, 10, 70, 60), radii: SIMD4(repeating: 8), continuous: false)]
        let rows = try SoftwareRowPathTests.render(f, rowPaths: true)
        let texels = try SoftwareRowPathTests.render(f, rowPaths: false)
        #expect(Self.differences(rows, texels).max <= 2)
        // The clip cuts the shadow: far right of the clip rect the clear colour stays.
        let i = (50 * 160 + 120) * 4
        #expect(Array(rows[i..<i + 4]) == [51, 102, 153, 255])
    }
}
