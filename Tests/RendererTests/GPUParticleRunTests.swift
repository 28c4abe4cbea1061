import Testing
import Foundation

/// Issue 21's record path: emitter layers whose cells are constant-rate emission runs are
/// written as one `ParticleRunInstance` per run, and the GL backend's particle pipeline
/// (Shaders/particle.vert) computes each particle from it. The particles must be the CPU
/// simulation's (`EmitterSimulation.born`, the same splitmix64 keys): each scene is rendered with
/// the path forced on (`Options.usesGPUParticles = true`, on this machine's llvmpipe too) and off, on
/// the same GL backend, and the frames must agree within the parity rule — at most 2/255 per
/// channel on at least 99.5 % of pixels (float on the GPU against Double on the CPU moves an
/// edge's coverage by a level now and then). Each forced frame must also have used records
/// (`RenderStats.gpuParticleRuns`), so a silent fall-back to the CPU path fails.
@Suite struct GPUParticleRunTests {
    static let size = CGSize(width: 96, height: 96)

    /// An 8 × 8 image of four coloured quadrants (red, green, blue, translucent white), so a
    /// wrong turn, mirror or uv shows.
    static func quadrantImage() -> CGImage {
        var px = [UInt8]()
        for y in 0..<8 {
            for x in 0..<8 {
                switch (x < 4, y < 4) {
                case (true, true): px += [255, 0, 0, 255]
                case (false, true): px += [0, 255, 0, 255]
                case (true, false): px += [0, 0, 255, 255]
                case (false, false): px += [128, 128, 128, 128]
                }
            }
        }
        return CGImage(width: 8, height: 8, rgba8Bytes: px, premultiplied: true)!
    }

    static func cell(_ configure: (CAEmitterCell) -> Void = { _ in }) -> CAEmitterCell {
        let c = CAEmitterCell()
        c.contents = quadrantImage()
        c.birthRate = 40
        c.lifetime = 3
        c.lifetimeRange = 1.5
        c.velocity = 12
        c.velocityRange = 6
        c.emissionRange = 2 * .pi
        c.color = CGColor(red: 1, green: 0.8, blue: 0.6, alpha: 0.9)
        configure(c)
        return c
    }

    static func scene(cells: [CAEmitterCell], _ configure: (CAEmitterLayer) -> Void = { _ in }) -> CALayer {
        let root = CALayer()
        root.frame = CGRect(origin: .zero, size: size)
        let e = CAEmitterLayer()
        e.frame = root.bounds
        e.emitterPosition = CGPoint(x: 48, y: 48)
        e.emitterCells = cells
        configure(e)
        root.addSublayer(e)
        return root
    }

    /// The frame at media time `t` with the record path on or off, its statistics and frame.
    static func render(_ root: CALayer, at t: Double, gpu: Bool) throws -> (CGImage, RenderStats, RenderFrame) {
        var o = CARenderer.Options(backend: .openGL)
        o.backend = .openGL
        o.usesGPUParticles = gpu
        let r = try CARenderer(offscreenSize: size, scale: 1, options: o)
        r.clearColor = CGColor(red: 0.1, green: 0.1, blue: 0.1, alpha: 1)
        r.layer = root
        let img = try RenderHarness.frame(r, at: t)
        return (img, r.statistics, try #require(r.lastFrame))
    }

    /// Renders both ways and checks the parity rule, that the GPU frame used `runs` records and
    /// no image instances for particles, and that the CPU frame drew particles at all.
    static func expectParity(_ name: String, _ root: CALayer, at t: Double, runs: Int,
                             sourceLocation: SourceLocation = #_sourceLocation) throws {
        let (cpu, cpuStats, _) = try render(root, at: t, gpu: false)
        let (gpu, gpuStats, gpuFrame) = try render(root, at: t, gpu: true)
        #expect(cpuStats.particles > 0 && cpuStats.gpuParticleRuns == 0, "\(name): CPU path drew \(cpuStats.particles)",
                sourceLocation: sourceLocation)
        #expect(gpuStats.gpuParticleRuns == runs && gpuFrame.particleRuns.count == runs && gpuFrame.images.isEmpty,
                "\(name): \(gpuStats.gpuParticleRuns) runs, \(gpuFrame.particleRuns.count) records, \(gpuFrame.images.count) images",
                sourceLocation: sourceLocation)
        // The record path draws every birth of the window (some as nothing): at least the CPU's.
        #expect(gpuStats.particles >= cpuStats.particles, sourceLocation: sourceLocation)
        let (fraction, _) = Golden.compare(cpu, gpu, threshold: 2)
        #expect(fraction <= 0.005, "\(name): \(fraction * 100) % of pixels differ by more than 2/255", sourceLocation: sourceLocation)
        // Not a blank frame agreeing with a blank frame.
        let background = cpu.rgba(0, 0)
        var painted = 0
        for y in 0..<cpu.height { for x in 0..<cpu.width where cpu.rgba(x, y) != background { painted += 1 } }
        #expect(painted > 100, "\(name): only \(painted) pixels painted", sourceLocation: sourceLocation)
    }

    @Test("rectangle surface, spin, scale and colour ranges and speeds, lifetime range (unordered)")
    func rectangleSpinColours() throws {
        let root = Self.scene(cells: [Self.cell { c in
            c.spin = 2; c.spinRange = 3
            c.scale = 1.2; c.scaleRange = 0.5; c.scaleSpeed = -0.2
            c.redRange = 0.3; c.greenRange = 0.4; c.blueRange = 0.2; c.alphaRange = 0.2
            c.redSpeed = -0.1; c.greenSpeed = 0.2; c.alphaSpeed = -0.15
            c.yAcceleration = 4
        }]) { e in
            e.emitterShape = .rectangle; e.emitterMode = .surface; e.emitterSize = CGSize(width: 40, height: 20)
        }
        for t in [0.7, 2.5, 4.25] { try Self.expectParity("rectangle t=\(t)", root, at: t, runs: 1) }
    }

    @Test("additive circle outline and the layer's multipliers and opacity")
    func additiveCircle() throws {
        let root = Self.scene(cells: [Self.cell { c in c.alphaRange = 0.5; c.scale = 0.8 }]) { e in
            e.renderMode = .additive
            e.emitterShape = .circle; e.emitterMode = .outline; e.emitterSize = CGSize(width: 20, height: 0)
            e.velocity = 1.5; e.scale = 1.3; e.spin = 2; e.lifetime = 0.8; e.birthRate = 1.5
            e.opacity = 0.7
        }
        try Self.expectParity("additive", root, at: 3.3, runs: 1)
    }

    @Test("oldestFirst and oldestLast draw their one run in their order (sphere volume, line points)")
    func ordered() throws {
        for mode in [CAEmitterLayerRenderMode.oldestFirst, .oldestLast] {
            let sphere = Self.scene(cells: [Self.cell { c in c.velocity = 4; c.scale = 2.5; c.alphaRange = 0.4 }]) { e in
                e.renderMode = mode
                e.emitterShape = .sphere; e.emitterMode = .volume; e.emitterSize = CGSize(width: 25, height: 0)
            }
            try Self.expectParity("\(mode.rawValue) sphere", sphere, at: 2.2, runs: 1)
            let line = Self.scene(cells: [Self.cell { c in c.scale = 2 }]) { e in
                e.renderMode = mode
                e.emitterShape = .line; e.emitterMode = .points; e.emitterSize = CGSize(width: 50, height: 0)
            }
            try Self.expectParity("\(mode.rawValue) line", line, at: 1.6, runs: 1)
        }
    }

    @Test("masksToBounds cuts record-path particles as it cuts simulated ones (cuboid outline)")
    func masksToBounds() throws {
        let root = Self.scene(cells: [Self.cell { c in c.velocity = 25 }]) { e in
            e.frame = CGRect(x: 20, y: 20, width: 50, height: 40)
            e.emitterPosition = CGPoint(x: 25, y: 20)
            e.masksToBounds = true
            e.emitterShape = .cuboid; e.emitterMode = .outline; e.emitterSize = CGSize(width: 30, height: 20); e.emitterDepth = 10
        }
        try Self.expectParity("masksToBounds", root, at: 2.0, runs: 1)
    }

    @Test("a large layer time (10,000 s): ages relative to the run's first particle, computed in Double")
    func largeTime() throws {
        let root = Self.scene(cells: [Self.cell { c in c.xAcceleration = -3; c.spin = 1.5; c.spinRange = 1 }]) { e in
            e.emitterShape = .cuboid; e.emitterMode = .surface; e.emitterSize = CGSize(width: 30, height: 30); e.emitterDepth = 10
        }
        // An opaque layer above the emitter: the depth pre-pass writes its interior, and every
        // particle of the run (gl_InstanceID 0…count−1) must be behind it in paint order.
        let cover = CALayer()
        cover.frame = CGRect(x: 30, y: 30, width: 30, height: 30)
        cover.backgroundColor = CGColor(red: 0, green: 0, blue: 0.5, alpha: 1)
        root.addSublayer(cover)
        try Self.expectParity("t=10000", root, at: 10_000.37, runs: 1)
        let (img, _, _) = try Self.render(root, at: 10_000.37, gpu: true)
        for (x, y) in [(35, 35), (45, 45), (55, 40)] { #expect(img.rgba(x, y) == RGBA(0, 0, 128), "(\(x), \(y)): \(img.rgba(x, y))") }
    }

    @Test("two cells (unordered): one run each, drawn cell by cell; a rotated layer")
    func twoCellsRotated() throws {
        let a = Self.cell { c in c.color = CGColor(red: 0.2, green: 0.9, blue: 0.3, alpha: 1) }
        let b = Self.cell { c in c.birthRate = 25; c.scale = 1.6; c.emissionLongitude = 1; c.emissionRange = 0.5 }
        let root = Self.scene(cells: [a, b]) { e in
            e.setAffineTransform(CGAffineTransform(rotationAngle: 0.5))
            e.emitterShape = .rectangle; e.emitterMode = .outline; e.emitterSize = CGSize(width: 30, height: 30)
        }
        try Self.expectParity("two cells", root, at: 2.9, runs: 2)
    }

    /// Layers the record path does not take are simulated as before (no records).
    @Test("sub-cells, backToFront and a replicator keep the CPU simulation")
    func fallBacks() throws {
        let parent = Self.cell { c in c.emitterCells = [Self.cell { s in s.birthRate = 2; s.lifetime = 0.5 }] }
        let withSubCells = Self.scene(cells: [parent])
        let backToFront = Self.scene(cells: [Self.cell()]) { e in e.renderMode = .backToFront }
        let replicator = CAReplicatorLayer()
        replicator.frame = CGRect(origin: .zero, size: Self.size)
        replicator.instanceCount = 2
        replicator.instanceTransform = CATransform3DMakeTranslation(10, 0, 0)
        replicator.addSublayer(Self.scene(cells: [Self.cell()]).sublayers![0])
        for (name, root) in [("sub-cells", withSubCells), ("backToFront", backToFront), ("replicator", replicator)] {
            let (_, stats, frame) = try Self.render(root, at: 1.5, gpu: true)
            #expect(stats.particles > 0, "\(name)")
            #expect(stats.gpuParticleRuns == 0 && frame.particleRuns.isEmpty, "\(name): \(stats.gpuParticleRuns) runs")
        }
    }

    /// The CPU backend never receives records, whatever the option says.
    @Test("a driver that rejects the particle shader keeps the CPU simulation, with one warning naming it")
    func rejectedShaderSimulates() throws {
        let root = Self.scene(cells: [Self.cell()])
        let (cpu, _, _) = try Self.render(root, at: 2, gpu: false)
        var o = CARenderer.Options(backend: .openGL)
        o.backend = .openGL
        o.usesGPUParticles = true
        let r = try CARenderer(offscreenSize: Self.size, scale: 1, options: o)
        r.clearColor = CGColor(red: 0.1, green: 0.1, blue: 0.1, alpha: 1)
        r.layer = root
        let reason = "injected compile error \(UUID().uuidString)"
        let (img, log) = try RenderDiagnostics.capture {
            r.rejectParticleProgramForTesting(reason)
            return try RenderHarness.frame(r, at: 2)
        }
        #expect(r.statistics.gpuParticleRuns == 0 && r.statistics.particles > 0)
        #expect(log.filter { $0.contains(reason) }.count == 1, "\(log)")
        // The very frame the CPU simulation draws: no pixel off by even 1/255.
        #expect(Golden.compare(cpu, img, threshold: 0).0 == 0)
    }

    @Test("the CPU backend simulates even with usesGPUParticles forced on")
    func cpuBackendSimulates() throws {
        var o = CARenderer.Options(backend: .openGL)
        o.backend = .software
        o.usesGPUParticles = true
        let r = try CARenderer(offscreenSize: Self.size, scale: 1, options: o)
        r.layer = Self.scene(cells: [Self.cell()])
        _ = try RenderHarness.frame(r, at: 1.5)
        #expect(r.statistics.particles > 0 && r.statistics.gpuParticleRuns == 0)
    }

    /// Positions beyond Float's range (a huge layer velocity) are dropped on both paths, not drawn
    /// as NaN quads, and nothing crashes.
    @Test("particles beyond Float's range are not drawn on either path")
    func nonFiniteInFloat() throws {
        let root = Self.scene(cells: [Self.cell { c in c.velocityRange = 0 }]) { e in e.velocity = 1e38 }
        // At 1.51 s the youngest particle is 0.01 s old: 1.2e37 pt away on the CPU (off screen),
        // beyond Float on the GPU (dropped). Every pixel is the clear colour either way.
        let (cpu, _, _) = try Self.render(root, at: 1.51, gpu: false)
        let (gpu, stats, _) = try Self.render(root, at: 1.51, gpu: true)
        #expect(stats.gpuParticleRuns == 1)
        #expect(Golden.compare(cpu, gpu, threshold: 0).fraction == 0)
        #expect(gpu.rgba(48, 48) == gpu.rgba(0, 0))
    }

    @Test("CA_GPU_PARTICLES maps onto Options.usesGPUParticles (1 on, 0 off, unset automatic)")
    func environment() throws {
        #expect(try CARenderer.Options(environment: ["CA_GPU_PARTICLES": "1"]).usesGPUParticles == true)
        #expect(try CARenderer.Options(environment: ["CA_GPU_PARTICLES": "0"]).usesGPUParticles == false)
        #expect(try CARenderer.Options(environment: [:]).usesGPUParticles == nil)
    }
}
