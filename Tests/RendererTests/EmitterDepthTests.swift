import Testing
import Foundation

/// `CAEmitterLayer.preservesDepth` (Apple: whether the layer flattens its particles into its
/// plane): kept, a particle's z (`emitterZPosition`, `zAcceleration`, latitude) moves it in the
/// layer's 3D space, so perspective makes nearer particles larger and farther from the centre
/// (docs/BEHAVIOUR.md Q3). Hand-derived: the emitter layer covers 64 × 64 with its anchor at the
/// centre (32, 32) and a transform of pure perspective m34 = −1/100; one 8 × 8 red particle at
/// (44, 32, z 50). Kept: w = 1 − 50/100 = 0.5, so its centre is 32 + 12/0.5 = 56 and it is 16 pt
/// wide (48…64). Flattened: z is dropped, w = 1, centre 44, 8 pt wide (40…48).
@Suite struct EmitterDepthTests {
    func render(preservesDepth: Bool) throws -> CGImage {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 64, height: 64)
        let e = CAEmitterLayer()
        e.frame = root.bounds
        var p = CATransform3DIdentity
        p.m34 = -1.0 / 100
        e.transform = p
        e.emitterPosition = CGPoint(x: 44, y: 32)
        e.emitterZPosition = 50
        e.preservesDepth = preservesDepth
        let c = CAEmitterCell()
        c.contents = EmitterRenderTests.whiteImage()
        c.color = solid(1, 0, 0)
        c.birthRate = 1
        c.lifetime = 100
        e.emitterCells = [c]
        root.addSublayer(e)
        return try RenderHarness.render(root, size: CGSize(width: 64, height: 64), time: 0.5)
    }

    @Test func keptDepthPutsTheParticleWherePerspectiveSendsIt() throws {
        let img = try render(preservesDepth: true)
        #expect(img.rgba(52, 32) == RGBA(255, 0, 0), "\(img.rgba(52, 32))")
        #expect(img.rgba(50, 26) == RGBA(255, 0, 0), "16 pt tall: \(img.rgba(50, 26))")
        #expect(img.rgba(44, 32) == RGBA(255, 255, 255), "\(img.rgba(44, 32))")
    }

    @Test func flattenedParticlesIgnoreZ() throws {
        let img = try render(preservesDepth: false)
        #expect(img.rgba(44, 32) == RGBA(255, 0, 0), "\(img.rgba(44, 32))")
        #expect(img.rgba(52, 32) == RGBA(255, 255, 255), "\(img.rgba(52, 32))")
    }
}
