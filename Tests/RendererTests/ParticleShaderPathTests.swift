import Testing
import Foundation

/// Particles take the image shader's particle path (`ShaderVariant.particle`: five varyings, a
/// 0.75 px fringe; issue 21's particle floor) and draw the pixels of the general path: an
/// 8 × 8 white particle, cell colour white, centred at (40.25, 40) covers x 36.25…44.25 and
/// y 36…44. Coverage is clamp(0.5 − d) with d the pixel centre's distance outside the square
/// (negative inside): column 36 (centre 36.5, 0.25 inside) 0.75 → 191; column 44 (centre 44.5,
/// 0.25 outside) 0.25 → 64, inside the 0.75 px fringe so still drawn; column 35 (0.75 outside)
/// and 45 nothing; rows 36…43 whole, 35 and 44 nothing (0.5 outside).
@Suite struct ParticleShaderPathTests {
    func scene(color: CGColor = solid(1, 1, 1), minification: CALayerContentsFilter = .linear) -> CALayer {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 80, height: 80)
        let e = CAEmitterLayer()
        e.frame = root.bounds
        e.emitterPosition = CGPoint(x: 40.25, y: 40)
        let c = CAEmitterCell()
        c.contents = EmitterRenderTests.whiteImage()
        c.birthRate = 1
        c.lifetime = 100
        c.color = color
        c.minificationFilter = minification.rawValue
        e.emitterCells = [c]
        root.addSublayer(e)
        return root
    }

    func render(_ root: CALayer) throws -> (CGImage, RenderStats, RenderFrame) {
        let r = try CARenderer(offscreenSize: CGSize(width: 80, height: 80), options: .init(backend: .openGL))
        r.clearColor = CGColor(red: 0, green: 0, blue: 0, alpha: 0)
        r.layer = root
        let img = try RenderHarness.frame(r, at: 0.5)   // one particle: born at 0, the next at 1
        return (img, r.statistics, try #require(r.lastFrame))
    }

    func imageVariants(_ frame: RenderFrame) -> [ShaderVariant] {
        frame.passes.flatMap { pass -> [ShaderVariant] in
            guard case .draw(let batches) = pass.kind else { return [] }
            return batches.compactMap { if case .image = $0.pipeline { return $0.variant } else { return nil } }
        }
    }

    @Test("a plain particle takes the particle path; its AA fringe is the general path's (hand-derived coverage)")
    func particlePathPixels() throws {
        let (img, stats, frame) = try render(scene())
        try #require(stats.particles == 1)
        #expect(imageVariants(frame).allSatisfy { $0.contains(.particle) && $0.contains(.linearFilters) })
        for y in [36, 40, 43] {
            #expect(img.rgba(40, y) == RGBA(255, 255, 255, 255), "y \(y): \(img.rgba(40, y))")
            #expect(img.rgba(36, y).isClose(to: RGBA(191, 191, 191, 191), tolerance: 1), "y \(y): \(img.rgba(36, y))")
            #expect(img.rgba(44, y).isClose(to: RGBA(64, 64, 64, 64), tolerance: 1), "y \(y): \(img.rgba(44, y))")
            #expect(img.rgba(35, y) == RGBA(0, 0, 0, 0) && img.rgba(45, y) == RGBA(0, 0, 0, 0))
        }
        #expect(img.rgba(40, 35) == RGBA(0, 0, 0, 0) && img.rgba(40, 44) == RGBA(0, 0, 0, 0))
    }

    @Test("a nearest-filtered particle keeps the general path, with the same coverage")
    func otherFiltersKeepTheGeneralPath() throws {
        let (img, stats, frame) = try render(scene(minification: .nearest))
        try #require(stats.particles == 1)
        #expect(imageVariants(frame).allSatisfy { !$0.contains(.particle) })
        #expect(img.rgba(40, 40) == RGBA(255, 255, 255, 255))
        #expect(img.rgba(36, 40).isClose(to: RGBA(191, 191, 191, 191), tolerance: 1), "\(img.rgba(36, 40))")
        #expect(img.rgba(44, 40).isClose(to: RGBA(64, 64, 64, 64), tolerance: 1), "\(img.rgba(44, 40))")
    }
}
