import Testing
import CAFrame
@testable import CASoftware

/// The CPU backend's shadow rows (`SoftwareShadowRowPlan`) against the per-texel port of
/// box.frag's blur branch: the same sum, its kernel CDF read from a table (≤ 1 level apart).
@Suite struct SoftwareShadowRowTests {
    static func shadow(_ rect: SIMD4<Float>, corner: Float, sigma: Float, scale s: SIMD2<Float> = SIMD2(1, 1),
                       offset t: SIMD2<Float> = .zero) -> BoxInstance {
        BoxInstance(h0: SIMD4(s.x, 0, 0, 0), h1: SIMD4(0, s.y, 0, 0), h2: SIMD4(t.x, t.y, 1, Float(InstanceFlags.edgeMask)),
                    rect: rect, radii: SIMD4(corner, corner, 0, 0), fill: SIMD4(0, 0, 0, 0.5), border: .zero,
                    params: SIMD4(0, sigma, 0, 0))
    }

    @Test("shadow rows match the per-texel blurred shape: rounded, square, wide and narrow blurs, scaled")
    func rowsMatchTexels() throws {
        let cases: [BoxInstance] = [
            Self.shadow(SIMD4(30, 20, 80, 60), corner: 12, sigma: 3.2),
            Self.shadow(SIMD4(30, 20, 80, 60), corner: 12, sigma: 11.2),
            Self.shadow(SIMD4(40.5, 30.25, 50, 40), corner: 0, sigma: 4),
            Self.shadow(SIMD4(20, 20, 30, 90), corner: 15, sigma: 0.4),
            Self.shadow(SIMD4(10, 10, 40, 30), corner: 20, sigma: 2, scale: SIMD2(2, 1.5), offset: SIMD2(3.5, -2)),
        ]
        for b in cases {
            let f = SoftwareRowPathTests.frame(160, 140, boxes: [b], variant: [.blur], clear: SIMD4(0.2, 0.4, 0.6, 1))
            let rows = try SoftwareRowPathTests.render(f, rowPaths: true)
            let texels = try SoftwareRowPathTests.render(f, rowPaths: false)
            #expect(SoftwareRowPathTests.maxDifference(rows, texels) <= 1, "\(b.rect) σ \(b.params.y)")
            // Not a blank frame: the shadow darkens the clear colour under its middle.
            let cx = Int((b.rect.x + b.rect.z / 2) * b.h0.x + b.h2.x), cy = Int((b.rect.y + b.rect.w / 2) * b.h1.y + b.h2.y)
            #expect(rows[(cy * 160 + cx) * 4 + 2] < 153, "\(rows[(cy * 160 + cx) * 4 + 2])")
        }
    }
}
