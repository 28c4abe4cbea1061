import Testing
import Foundation

/// `instanceColor` multiplies the copy as one picture (docs/BEHAVIOUR.md R3): Apple's
/// `instanceColor` "Defines the color used to multiply the source object". Where translucent
/// pieces of one copy overlap, fading the composed copy differs from fading each piece: the
/// lower piece must not show more through the upper one. White clear colour, scale 1; expected
/// pixels derived by hand (premultiplied source-over).
@Suite struct ReplicatorFlattenedColorTests {
    static let size = CGSize(width: 100, height: 40)

    /// Two copies 40 pt apart; copy 1 at alpha 0.5 (`instanceAlphaOffset` −0.5). Each copy: a
    /// red box at x 5…25 and a blue box over it at x 15…35 (overlap 15…25), both at `alpha`.
    func scene(alpha: CGFloat, _ configure: (CAReplicatorLayer) -> Void = { _ in }) -> CALayer {
        let root = CALayer()
        root.frame = CGRect(origin: .zero, size: Self.size)
        let r = CAReplicatorLayer()
        r.frame = root.bounds
        r.instanceCount = 2
        r.instanceTransform = CATransform3DMakeTranslation(40, 0, 0)
        r.instanceAlphaOffset = -0.5
        let red = CALayer()
        red.frame = CGRect(x: 5, y: 5, width: 20, height: 20)
        red.backgroundColor = solid(1, 0, 0, alpha)
        let blue = CALayer()
        blue.frame = CGRect(x: 15, y: 5, width: 20, height: 20)
        blue.backgroundColor = solid(0, 0, 1, alpha)
        r.addSublayer(red)
        r.addSublayer(blue)
        root.addSublayer(r)
        configure(r)
        return root
    }

    func render(_ root: CALayer) throws -> (CGImage, RenderStats) {
        let r = try CARenderer(offscreenSize: Self.size, scale: 1, options: .init(backend: .openGL))
        r.clearColor = solid(1, 1, 1)
        r.layer = root
        let img = try RenderHarness.frame(r, at: 0)
        return (img, r.statistics)
    }

    @Test("R3: a translucent copy of overlapping translucent sublayers is composed, then faded (instanceColor doc)")
    func translucentPiecesFadeAsOnePicture() throws {
        let (img, stats) = try render(scene(alpha: 0.5))
        // Copy 0 (alpha 1), overlap: blue 0.5 over red 0.5 over white = (0.25·255+…):
        // premultiplied (0.25, 0, 0.5, 0.75) + 0.25 white = (0.5, 0.25, 0.75) → (128, 64, 191).
        #expect(img.rgba(20, 15).isClose(to: RGBA(128, 64, 191)), "\(img.rgba(20, 15))")
        // Copy 1, overlap: the composed (0.25, 0, 0.5, 0.75) at alpha 0.5 is
        // (0.125, 0, 0.25, 0.375), over white + 0.625 = (0.75, 0.625, 0.875) → (191, 159, 223).
        // (Fading each piece would give (191, 143, 207): the red showing more through the blue.)
        #expect(img.rgba(60, 15).isClose(to: RGBA(191, 159, 223)), "\(img.rgba(60, 15))")
        // Copy 1, red alone: (0.25, 0, 0, 0.25) over white + 0.75 → (1, 0.75, 0.75) → (255, 191, 191).
        #expect(img.rgba(50, 15).isClose(to: RGBA(255, 191, 191)), "\(img.rgba(50, 15))")
        // Copy 1, blue alone: (191, 191, 255).
        #expect(img.rgba(70, 15).isClose(to: RGBA(191, 191, 255)), "\(img.rgba(70, 15))")
        #expect(stats.offscreenPasses >= 1, "copy 1 is composed in a target of its own: \(stats)")
    }

    @Test("R3: opaque overlapping sublayers in a half-transparent copy: the lower one does not show through")
    func opaquePiecesFadeAsOnePicture() throws {
        let (img, _) = try render(scene(alpha: 1))
        #expect(img.rgba(20, 15) == RGBA(0, 0, 255, 255))
        // Copy 1's overlap is the blue box alone at 0.5 over white: (128, 128, 255), not
        // (128, 64, 191) as with each box faded.
        #expect(img.rgba(60, 15).isClose(to: RGBA(128, 128, 255)), "\(img.rgba(60, 15))")
        #expect(img.rgba(50, 15).isClose(to: RGBA(255, 128, 128)), "\(img.rgba(50, 15))")
    }

    @Test("R3: the colour part of instanceColor still multiplies each piece; with alpha 1 no copy needs a target")
    func opaqueTintStaysInstanced() throws {
        let (img, stats) = try render(scene(alpha: 1) { r in
            r.instanceAlphaOffset = 0
            r.instanceColor = solid(1, 0.5, 0.5)
        })
        // Blue × (1, 0.5, 0.5) = (0, 0, 128); red × it = (255, 0, 0).
        #expect(img.rgba(60, 15).isClose(to: RGBA(0, 0, 128)), "\(img.rgba(60, 15))")
        #expect(img.rgba(50, 15).isClose(to: RGBA(255, 0, 0)), "\(img.rgba(50, 15))")
        #expect(stats.offscreenPasses == 0, "\(stats)")
        #expect(stats.layersVisited == 4, "root, replicator, two boxes walked once (R7): \(stats.layersVisited)")
    }

    @Test("R3/R7: a translucent copy of one piece keeps the instanced path (no target, one walk)")
    func singlePieceStaysInstanced() throws {
        let root = CALayer()
        root.frame = CGRect(origin: .zero, size: Self.size)
        let r = CAReplicatorLayer()
        r.frame = root.bounds
        r.instanceCount = 3
        r.instanceTransform = CATransform3DMakeTranslation(20, 0, 0)
        r.instanceAlphaOffset = -0.5
        let box = CALayer()
        box.frame = CGRect(x: 5, y: 5, width: 10, height: 10)
        box.backgroundColor = solid(1, 0, 0)
        box.borderWidth = 2
        box.borderColor = solid(0, 0, 1)
        r.addSublayer(box)
        root.addSublayer(r)
        let (img, stats) = try render(root)
        #expect(stats.offscreenPasses == 0 && stats.layersVisited == 3, "\(stats)")
        #expect(img.rgba(30, 10).isClose(to: RGBA(255, 128, 128)), "\(img.rgba(30, 10))")
    }
}
