import Testing
import Foundation

/// `CAEmitterLayer` particles on the GPU (issue 21): where a particle lands, its size and
/// tint, determinism across seeds and between direct and sequential rendering, and additive
/// blending. Expected pixels follow from the model documented on `EmitterSimulation`:
/// particle n born at n / birthRate, centred at the emitter position for velocity 0.
@Suite struct EmitterRenderTests {
    /// An opaque white `side`² image: a particle shows its cell's colour exactly.
    static func whiteImage(_ side: Int = 8) -> CGImage {
        CGImage(width: side, height: side, rgba8Bytes: [UInt8](repeating: 255, count: side * side * 4), premultiplied: true)!
    }

    func scene(_ configure: (CAEmitterLayer, CAEmitterCell) -> Void) -> CALayer {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 64, height: 64)
        let e = CAEmitterLayer()
        e.frame = root.bounds
        e.emitterPosition = CGPoint(x: 20, y: 20)
        let c = CAEmitterCell()
        c.contents = Self.whiteImage()
        c.birthRate = 1
        c.lifetime = 100
        configure(e, c)
        e.emitterCells = [c]
        root.addSublayer(e)
        return root
    }

    func bytes(_ image: CGImage) -> [UInt8] { image.withUnsafeRGBA8Bytes { Array($0) } }

    /// One particle (born at 0; the next at 1), velocity 0: an 8 × 8 quad of the cell's colour
    /// centred on the emitter position (Apple: the cell colour multiplies the contents).
    @Test func aParticleIsItsImageTintedByItsColourAtItsPosition() throws {
        let root = scene { _, c in c.color = solid(1, 0, 0) }
        let img = try RenderHarness.render(root, size: CGSize(width: 64, height: 64), time: 0.5)
        #expect(img.rgba(20, 20) == RGBA(255, 0, 0))
        #expect(img.rgba(16, 16) == RGBA(255, 0, 0) && img.rgba(23, 23) == RGBA(255, 0, 0))
        #expect(img.rgba(14, 20) == RGBA(255, 255, 255) && img.rgba(25, 20) == RGBA(255, 255, 255))
        // scale 2 (cell) doubles it: 16 × 16 from 12 to 28.
        let big = scene { e, c in c.color = solid(0, 0, 1); c.scale = 2 }
        let img2 = try RenderHarness.render(big, size: CGSize(width: 64, height: 64), time: 0.5)
        #expect(img2.rgba(12, 12) == RGBA(0, 0, 255) && img2.rgba(27, 27) == RGBA(0, 0, 255))
        #expect(img2.rgba(10, 20) == RGBA(255, 255, 255))
    }

    /// A particle moves with its velocity: velocity 10 along +x, age 1.5 → 15 pt right.
    @Test func particlesMoveWithTime() throws {
        let root = scene { _, c in c.color = solid(0, 0.5, 0); c.velocity = 10; c.lifetime = 1.6 }
        let frames = try RenderHarness.renderFrames(root, size: CGSize(width: 64, height: 64), times: [0.5, 1.5])
        #expect(frames[0].rgba(25, 20).isClose(to: RGBA(0, 128, 0), tolerance: 1))   // centre 25
        #expect(frames[1].rgba(35, 20).isClose(to: RGBA(0, 128, 0), tolerance: 1))   // centre 35 (the one born at 1 is at 25)
        #expect(frames[1].rgba(25, 20).isClose(to: RGBA(0, 128, 0), tolerance: 1))
        #expect(frames[1].rgba(45, 20) == RGBA(255, 255, 255))
    }

    func spray(seed: UInt32) -> CALayer {
        scene { e, c in
            e.seed = seed
            e.emitterPosition = CGPoint(x: 32, y: 32)
            c.birthRate = 20; c.lifetime = 2; c.velocity = 15; c.velocityRange = 10
            c.emissionRange = 2 * .pi; c.spin = 1; c.spinRange = 2
            c.color = solid(0.2, 0.4, 0.8); c.redRange = 0.2; c.alphaSpeed = -0.3; c.scale = 0.5
        }
    }

    /// Equal seeds → equal frames; different seeds → different frames (CAEmitterLayer `seed`).
    @Test func equalSeedsRenderEqualFramesAndDifferentSeedsDiffer() throws {
        let size = CGSize(width: 64, height: 64)
        let a = try RenderHarness.render(spray(seed: 3), size: size, time: 7.3)
        let b = try RenderHarness.render(spray(seed: 3), size: size, time: 7.3)
        let c = try RenderHarness.render(spray(seed: 4), size: size, time: 7.3)
        #expect(bytes(a) == bytes(b))
        #expect(bytes(a) != bytes(c))
    }

    /// Frame t rendered directly equals frame t reached by rendering every frame before it
    /// (sharded video rendering must agree).
    @Test func directFrameEqualsSequentialFrame() throws {
        let size = CGSize(width: 64, height: 64)
        let root = spray(seed: 9)
        let times = (0...30).map { Double($0) / 10 }
        let sequential = try RenderHarness.renderFrames(root, size: size, times: times)
        let direct = try RenderHarness.render(spray(seed: 9), size: size, time: 3.0)
        #expect(bytes(sequential.last!) == bytes(direct))
        // And the frames do change with time (not a reused picture).
        #expect(bytes(sequential[29]) != bytes(sequential[30]))
    }

    /// The same while the layer's `birthRate` and a cell's velocity animate (explicit begin
    /// times, so both trees have the same timeline): births integrate the animated rate on a
    /// fixed grid, and each particle keeps the values of its birth (docs/BEHAVIOUR.md Q4).
    @Test func directFrameEqualsSequentialFrameWhileBirthRateAnimates() throws {
        func animated() -> CALayer {
            let root = spray(seed: 5)
            let e = root.sublayers![0] as! CAEmitterLayer
            e.emitterCells![0].name = "spark"
            let a = CAKeyframeAnimation(keyPath: "birthRate")
            a.values = [0.1, 3, 0.5]; a.duration = 1.5; a.beginTime = 0.2; a.repeatCount = .infinity
            e.add(a, forKey: "rate")
            let v = CABasicAnimation(keyPath: "emitterCells.spark.velocity")
            v.fromValue = 0; v.toValue = 30; v.duration = 1; v.beginTime = 0.1; v.autoreverses = true; v.repeatCount = .infinity
            e.add(v, forKey: "v")
            return root
        }
        let size = CGSize(width: 64, height: 64)
        let times = (0...30).map { Double($0) / 10 }
        let sequential = try RenderHarness.renderFrames(animated(), size: size, times: times)
        let direct = try RenderHarness.render(animated(), size: size, time: 3.0)
        #expect(bytes(sequential.last!) == bytes(direct))
        // The animation shows: the unanimated spray differs.
        let plain = try RenderHarness.render(spray(seed: 5), size: size, time: 3.0)
        #expect(bytes(plain) != bytes(direct))
    }

    /// "The particles … are drawn above the layer's background color and border" (CAEmitterLayer
    /// doc); the border is above the sublayers, so particles cover a sublayer too. A line emitter
    /// in points mode emits at its two ends, x = 5 and x = 59, inside a 10 pt blue border; then
    /// a particle at (20, 20) over a green sublayer.
    @Test func particlesAreDrawnAboveTheBorderAndSublayers() throws {
        let bordered = scene { e, c in
            e.borderWidth = 10
            e.borderColor = solid(0, 0, 1)
            e.emitterShape = .line
            e.emitterMode = .points
            e.emitterSize = CGSize(width: 54, height: 0)
            e.emitterPosition = CGPoint(x: 32, y: 32)
            c.color = solid(1, 0, 0)
            c.birthRate = 40
        }
        let img = try RenderHarness.render(bordered, size: CGSize(width: 64, height: 64), time: 0.5)
        #expect(img.rgba(5, 32) == RGBA(255, 0, 0))     // a particle over the border
        #expect(img.rgba(59, 32) == RGBA(255, 0, 0))
        #expect(img.rgba(5, 2) == RGBA(0, 0, 255))      // the border elsewhere
        let covered = scene { e, c in
            c.color = solid(1, 0, 0)
            let sub = CALayer()
            sub.frame = CGRect(x: 10, y: 10, width: 30, height: 30)
            sub.backgroundColor = solid(0, 1, 0)
            e.addSublayer(sub)
        }
        let img2 = try RenderHarness.render(covered, size: CGSize(width: 64, height: 64), time: 0.5)
        #expect(img2.rgba(20, 20) == RGBA(255, 0, 0))   // the particle over the sublayer
        #expect(img2.rgba(12, 36) == RGBA(0, 255, 0))   // the sublayer elsewhere
    }

    /// `renderMode` additive: overlapping particles add (GL ONE, ONE), where unordered
    /// composites them source-over. Two particles of red 0.4 on black: 0.4 vs 0.8.
    @Test func additiveIsBrighterThanUnorderedWhereParticlesOverlap() throws {
        func frame(_ mode: CAEmitterLayerRenderMode) throws -> CGImage {
            let root = scene { e, c in e.renderMode = mode; c.birthRate = 2; c.color = solid(0.4, 0, 0) }
            return try RenderHarness.render(root, size: CGSize(width: 64, height: 64), time: 0.6, clear: solid(0, 0, 0))
        }
        let unordered = try frame(.unordered), additive = try frame(.additive)
        #expect(unordered.rgba(20, 20).isClose(to: RGBA(102, 0, 0), tolerance: 1))
        #expect(additive.rgba(20, 20).isClose(to: RGBA(204, 0, 0), tolerance: 1))
        #expect(additive.rgba(40, 40) == RGBA(0, 0, 0))
    }

    /// Cells without image contents draw nothing (as on Apple); the layer's background still draws.
    @Test func cellsWithoutContentsDrawNothing() throws {
        let root = scene { e, c in c.contents = nil; e.backgroundColor = solid(0, 1, 0) }
        let img = try RenderHarness.render(root, size: CGSize(width: 64, height: 64), time: 0.5)
        #expect(img.rgba(20, 20) == RGBA(0, 255, 0))
    }

    /// birthRate 1e9 × lifetime 1e9 renders a capped frame with one warning, no hang.
    @Test func hugeEmittersRenderCapped() throws {
        let root = scene { _, c in c.birthRate = 1e9; c.lifetime = 1e9; c.color = solid(1, 0, 0) }
        let r = try CARenderer(offscreenSize: CGSize(width: 64, height: 64), scale: 1, options: .init(backend: .openGL))
        r.layer = root
        let (_, warnings) = try Diagnostics.capture { try RenderHarness.frame(r, at: 10) }
        #expect(r.statistics.particles == EmitterSimulation.maxParticles)
        #expect(warnings.contains { $0.contains("\(EmitterSimulation.maxParticles) live particles") })
    }
}

/// The layer's own compositing applies to its particles: `masksToBounds` cuts them to its
/// bounds, and its opacity fades them (also when the layer is isolated as a group).
@Suite struct EmitterCompositingTests {
    func scene(_ configure: (CAEmitterLayer) -> Void) -> CALayer {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 64, height: 64)
        let e = CAEmitterLayer()
        e.frame = CGRect(x: 10, y: 10, width: 20, height: 20)
        e.emitterPosition = CGPoint(x: 0, y: 10)   // on the layer's left edge
        let c = CAEmitterCell()
        c.contents = EmitterRenderTests.whiteImage()
        c.birthRate = 1
        c.lifetime = 100
        c.color = solid(1, 0, 0)
        e.emitterCells = [c]
        configure(e)
        root.addSublayer(e)
        return root
    }

    @Test func masksToBoundsCutsParticles() throws {
        let open = try RenderHarness.render(scene { _ in }, size: CGSize(width: 64, height: 64), time: 0.5)
        #expect(open.rgba(7, 20) == RGBA(255, 0, 0) && open.rgba(12, 20) == RGBA(255, 0, 0))
        let cut = try RenderHarness.render(scene { $0.masksToBounds = true }, size: CGSize(width: 64, height: 64), time: 0.5)
        #expect(cut.rgba(7, 20) == RGBA(255, 255, 255) && cut.rgba(12, 20) == RGBA(255, 0, 0))
    }

    /// Opacity 0.5: red over white at half, 255, 128, 128 (±1); the same when a sublayer makes
    /// the layer an isolated group.
    @Test func opacityFadesParticles() throws {
        let faded = try RenderHarness.render(scene { $0.opacity = 0.5 }, size: CGSize(width: 64, height: 64), time: 0.5)
        #expect(faded.rgba(12, 20).isClose(to: RGBA(255, 128, 128), tolerance: 1))
        let group = try RenderHarness.render(scene { e in
            e.opacity = 0.5
            let sub = CALayer()
            sub.frame = CGRect(x: 15, y: 15, width: 4, height: 4)
            sub.backgroundColor = solid(0, 0, 1)
            e.addSublayer(sub)
        }, size: CGSize(width: 64, height: 64), time: 0.5)
        #expect(group.rgba(12, 20).isClose(to: RGBA(255, 128, 128), tolerance: 1))
        #expect(group.rgba(7, 20).isClose(to: RGBA(255, 128, 128), tolerance: 1))   // outside the bounds, still drawn
    }
}
