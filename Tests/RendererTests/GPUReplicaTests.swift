import Testing
import Foundation
import CATestSupport

/// Issue 21: replicator copies kept on the GPU (`CARenderer.Options.usesGPUReplicas`,
/// `RenderTreeBuilder+GPUReplicas.swift`). Each scene is drawn twice on the GL backend, once
/// with the copies drawn instanced from copy 0's box and once with every copy a box of its own
/// (the CPU path, whose pixels ReplicatorTests derives by hand); the two must agree within the
/// backend parity bar (≤ 2/255 per channel on ≥ 99.5 % of the pixels: the shader composes the
/// copy's pixel map in Float where the CPU path composes it in Double), and the statistics must
/// show which path ran. Semantics: docs/BEHAVIOUR.md R1–R7 (`instanceTransform` "applied to
/// instance k-1 to produce instance k … relative to the center of this layer"; `instanceColor`
/// "The color used to multiply the source object"; the offsets "added to the … component of
/// each replicated instance").
@Suite struct GPUReplicaTests {
    static let size = CGSize(width: 120, height: 100)

    /// A frame of `root` at `time` on the GL backend with the GPU path on or off.
    static func render(_ root: CALayer, gpu: Bool, time: CFTimeInterval = 0) throws -> (CGImage, RenderStats) {
        var o = CARenderer.Options(backend: .openGL)
        o.backend = .openGL
        o.usesGPUReplicas = gpu
        let r = try CARenderer(offscreenSize: size, scale: 1, options: o)
        r.clearColor = solid(1, 1, 1)
        r.layer = root
        let img = try RenderHarness.frame(r, at: time)
        return (img, r.statistics)
    }

    /// Both paths' frames agree, and the GPU path drew `copies` copies instanced (0: it must not
    /// have been taken).
    static func expectSame(_ make: () -> CALayer, copies: Int, time: CFTimeInterval = 0,
                           sourceLocation: SourceLocation = #_sourceLocation) throws {
        let (gpu, gs) = try render(make(), gpu: true, time: time)
        let (cpu, cs) = try render(make(), gpu: false, time: time)
        let p = BackendParity(gpu.rgba8Bytes, cpu.rgba8Bytes, width: gpu.width)
        #expect(p.passes(), "\(p)", sourceLocation: sourceLocation)
        #expect(gs.gpuReplicatedCopies == copies, "GPU path copies", sourceLocation: sourceLocation)
        #expect(cs.gpuReplicatedCopies == 0, "switch off: no GPU copies", sourceLocation: sourceLocation)
        // "instances" counts every copy on both paths.
        #expect(gs.instances == cs.instances, "instances \(gs.instances) vs \(cs.instances)", sourceLocation: sourceLocation)
    }

    /// A replicator of `frame` holding one rounded, bordered 12 × 12 box at (x, y).
    static func scene(replicator frame: CGRect = CGRect(x: 0, y: 0, width: 120, height: 100),
                      box x: CGFloat = 4, _ y: CGFloat = 4, color: CGColor = solid(0.9, 0.3, 0.1),
                      _ configure: (CAReplicatorLayer) -> Void) -> CALayer {
        let root = CALayer()
        root.frame = CGRect(origin: .zero, size: size)
        let r = CAReplicatorLayer()
        r.frame = frame
        r.addSublayer(box(x, y, color))
        root.addSublayer(r)
        configure(r)
        return root
    }

    static func box(_ x: CGFloat, _ y: CGFloat, _ color: CGColor) -> CALayer {
        let b = CALayer()
        b.frame = CGRect(x: x, y: y, width: 12, height: 12)
        b.backgroundColor = color
        b.cornerRadius = 3
        b.borderWidth = 1.5
        b.borderColor = solid(0.1, 0.2, 0.6)
        return b
    }

    @Test("R1 translations: 7 copies 15 pt apart, instanced from copy 0")
    func translations() throws {
        try Self.expectSame({ Self.scene { r in
            r.instanceCount = 7
            r.instanceTransform = CATransform3DMakeTranslation(15, 2, 0)
        } }, copies: 7)
    }

    @Test("R1 rotations about the replicator's centre: 6 copies a sixth of a turn apart")
    func rotations() throws {
        try Self.expectSame({ Self.scene(replicator: CGRect(x: 20, y: 10, width: 80, height: 80), box: 34, 2) { r in
            r.instanceCount = 6
            r.instanceTransform = CATransform3DMakeRotation(.pi / 3, 0, 0, 1)
        } }, copies: 6)
    }

    @Test("R1 scale and translation: 5 copies shrinking by 0.8")
    func scales() throws {
        try Self.expectSame({ Self.scene(box: 10, 40) { r in
            r.instanceCount = 5
            r.instanceTransform = CATransform3DTranslate(CATransform3DMakeScale(0.8, 0.8, 1), 18, 0, 0)
        } }, copies: 5)
    }

    @Test("R1 non-uniform scale (a projective-variant copy map): 4 copies")
    func nonUniformScale() throws {
        try Self.expectSame({ Self.scene(box: 10, 40) { r in
            r.instanceCount = 4
            r.instanceTransform = CATransform3DTranslate(CATransform3DMakeScale(1.2, 0.8, 1), 14, 0, 0)
        } }, copies: 4)
    }

    @Test("nested replicators: 5 rows × 6 columns are one instanced draw of 30 copies, tints multiplied")
    func nested() throws {
        try Self.expectSame({
            let root = CALayer()
            root.frame = CGRect(origin: .zero, size: Self.size)
            let rows = CAReplicatorLayer()
            rows.frame = root.bounds
            rows.instanceCount = 5
            rows.instanceTransform = CATransform3DMakeTranslation(0, 18, 0)
            rows.instanceColor = solid(1, 0.9, 0.8)
            rows.instanceGreenOffset = -0.15
            let columns = CAReplicatorLayer()
            columns.frame = root.bounds
            columns.instanceCount = 6
            columns.instanceTransform = CATransform3DMakeTranslation(18, 0, 0)
            columns.instanceBlueOffset = -0.2
            columns.addSublayer(Self.box(4, 4, solid(1, 1, 1)))
            rows.addSublayer(columns)
            root.addSublayer(rows)
            return root
        }, copies: 30)
    }

    @Test("R3 instanceColor and all four offsets, clamped at 0 and 1, negative ones included")
    func coloursAndOffsets() throws {
        // Red 0.2 + 0.3k reaches 1 at k = 3 and is clamped after; green 1 − 0.25k reaches 0 at
        // k = 4; alpha 1 − 0.15k fades every copy; blue 0.5 + 0.1k.
        try Self.expectSame({ Self.scene(color: solid(1, 1, 1)) { r in
            r.instanceCount = 7
            r.instanceTransform = CATransform3DMakeTranslation(16, 0, 0)
            r.instanceColor = solid(0.2, 1, 0.5)
            r.instanceRedOffset = 0.3
            r.instanceGreenOffset = -0.25
            r.instanceBlueOffset = 0.1
            r.instanceAlphaOffset = -0.15
        } }, copies: 7)
    }

    @Test("R3 overlapping translucent copies keep their order (copy k over copy k − 1)")
    func overlappingOrder() throws {
        try Self.expectSame({ Self.scene { r in
            r.instanceCount = 8
            r.instanceTransform = CATransform3DMakeTranslation(5, 3, 0)
            r.instanceRedOffset = -0.1
            r.instanceBlueOffset = 0.12
        } }, copies: 8)
    }

    @Test("instanceCount 1 and 0: no copies to keep on the GPU; the frames still agree", arguments: [1, 0])
    func oneAndZero(count: Int) throws {
        try Self.expectSame({ Self.scene { r in
            r.instanceCount = count
            r.instanceTransform = CATransform3DMakeTranslation(15, 0, 0)
            r.instanceColor = solid(0.5, 1, 1)
        } }, copies: 0)
    }

    @Test("an image as copy 0 takes the CPU path (the GPU path draws boxes only); the frames agree")
    func imageCopy() throws {
        try Self.expectSame({ Self.scene { r in
            r.instanceCount = 4
            r.instanceTransform = CATransform3DMakeTranslation(20, 0, 0)
            r.instanceColor = solid(0.5, 1, 0.5)
            let b = r.sublayers![0]
            b.backgroundColor = nil; b.borderWidth = 0
            b.contents = Self.checker()
        } }, copies: 0)
    }

    @Test("a gradient as copy 0 takes the CPU path; the frames agree")
    func gradientCopy() throws {
        try Self.expectSame({ Self.scene { r in
            r.instanceCount = 4
            r.instanceTransform = CATransform3DMakeTranslation(20, 0, 0)
            r.instanceRedOffset = -0.2
            let g = CAGradientLayer()
            g.frame = CGRect(x: 4, y: 30, width: 14, height: 14)
            g.colors = [solid(1, 1, 0), solid(0, 0.5, 1)]
            r.addSublayer(g)
            r.sublayers![0].removeFromSuperlayer()
        } }, copies: 0)
    }

    @Test("copy 0 of two boxes takes the CPU path (copies that overlap must not be reordered)")
    func twoBoxes() throws {
        try Self.expectSame({ Self.scene { r in
            r.instanceCount = 5
            r.instanceTransform = CATransform3DMakeTranslation(6, 0, 0)
            r.addSublayer(Self.box(8, 8, solid(0.2, 0.8, 0.3)))
        } }, copies: 0)
    }

    @Test("an animated instanceColor: each frame's copies instanced, the same as the CPU path", arguments: [0.0, 0.5, 1.0])
    func animatedTint(time: Double) throws {
        try Self.expectSame({ Self.scene { r in
            r.instanceCount = 6
            r.instanceTransform = CATransform3DMakeTranslation(16, 4, 0)
            let a = CABasicAnimation(keyPath: "instanceColor")
            a.fromValue = solid(1, 0, 0)
            a.toValue = solid(0, 0, 1)
            a.duration = 1
            a.beginTime = 0
            a.fillMode = .both
            r.add(a, forKey: "tint")
        } }, copies: 6, time: time)
    }

    /// The benchmark's case: nested replicators whose outer `instanceColor` animates, drawn by
    /// one renderer frame after frame, so each frame after the first re-emits the replicator as
    /// a subtree patch and rewrites the draw's rows. Every frame must equal the CPU path's.
    @Test("an animated tint on nested replicators, frame after frame through subtree patches")
    func patchedFrames() throws {
        func make() -> CALayer {
            let root = CALayer()
            root.frame = CGRect(origin: .zero, size: Self.size)
            let rows = CAReplicatorLayer()
            rows.frame = root.bounds
            rows.instanceCount = 4
            rows.instanceTransform = CATransform3DMakeTranslation(0, 20, 0)
            let columns = CAReplicatorLayer()
            columns.frame = root.bounds
            columns.instanceCount = 5
            columns.instanceTransform = CATransform3DMakeTranslation(20, 0, 0)
            columns.instanceRedOffset = -0.15
            columns.addSublayer(Self.box(4, 4, solid(1, 1, 1)))
            rows.addSublayer(columns)
            root.addSublayer(rows)
            let a = CABasicAnimation(keyPath: "instanceColor")
            a.fromValue = solid(1, 1, 0)
            a.toValue = solid(0, 1, 1)
            a.duration = 1
            a.beginTime = 0
            a.fillMode = .both
            rows.add(a, forKey: "tint")
            return root
        }
        func renderer(gpu: Bool) throws -> CARenderer {
            var o = CARenderer.Options(backend: .openGL)
            o.backend = .openGL
            o.usesGPUReplicas = gpu
            let r = try CARenderer(offscreenSize: Self.size, scale: 1, options: o)
            r.clearColor = solid(1, 1, 1)
            r.layer = make()
            return r
        }
        let gpu = try renderer(gpu: true), cpu = try renderer(gpu: false)
        var patched = 0
        for t in [0.0, 0.25, 0.5, 0.75, 1.0] {
            let a = try RenderHarness.frame(gpu, at: t)
            let gs = gpu.statistics
            let b = try RenderHarness.frame(cpu, at: t)
            let p = BackendParity(a.rgba8Bytes, b.rgba8Bytes, width: a.width)
            #expect(p.passes(), "t = \(t): \(p)")
            #expect(gs.gpuReplicatedCopies == 20, "t = \(t)")
            patched += gs.patchedSubtrees
        }
        // The frames after the first were patches that rewrote the rows (not whole builds).
        #expect(patched > 0)
    }

    @Test("CA_GPU_REPLICAS maps onto Options.usesGPUReplicas (1 on, 0 off, unset automatic)")
    func environmentSwitch() throws {
        #expect(try CARenderer.Options(environment: ["CA_GPU_REPLICAS": "1"]).usesGPUReplicas == true)
        #expect(try CARenderer.Options(environment: ["CA_GPU_REPLICAS": "0"]).usesGPUReplicas == false)
        #expect(try CARenderer.Options(environment: [:]).usesGPUReplicas == nil)
    }

    /// Automatic: the GL backend draws the copies on a hardware driver and not on a software
    /// rasteriser (docs/PERFORMANCE.md: on llvmpipe the CPU-built copies are faster). This
    /// machine's driver is llvmpipe; emptying `softwareGLDrivers` makes it count as hardware.
    @Test("unset, the copies are drawn on the GPU for a hardware driver and built on the CPU for llvmpipe")
    func automaticChoice() throws {
        func copies(softwareDrivers: [String]?) throws -> (Int, String) {
            var o = CARenderer.Options(backend: .openGL)
            o.backend = .openGL
            if let softwareDrivers { o.softwareGLDrivers = softwareDrivers }
            let r = try CARenderer(offscreenSize: Self.size, scale: 1, options: o)
            r.layer = Self.scene { r in
                r.instanceCount = 5
                r.instanceTransform = CATransform3DMakeTranslation(15, 0, 0)
            }
            _ = try RenderHarness.frame(r, at: 0)
            return (r.statistics.gpuReplicatedCopies, (r.contextInfo["renderer"] ?? "").lowercased())
        }
        let (auto, renderer) = try copies(softwareDrivers: nil)
        let software = ["llvmpipe", "softpipe", "swrast"].contains { renderer.contains($0) }
        #expect(auto == (software ? 0 : 5), "GL_RENDERER \(renderer)")
        #expect(try copies(softwareDrivers: []).0 == 5)
    }

    @Test("the CPU backend draws every copy as a box (no GPU copies), as before")
    func cpuBackend() throws {
        var o = CARenderer.Options(backend: .openGL)
        o.backend = .software
        let r = try CARenderer(offscreenSize: Self.size, scale: 1, options: o)
        r.layer = Self.scene { r in
            r.instanceCount = 5
            r.instanceTransform = CATransform3DMakeTranslation(15, 0, 0)
        }
        _ = try RenderHarness.frame(r, at: 0)
        #expect(r.statistics.gpuReplicatedCopies == 0)
        #expect(r.statistics.instances >= 5)
    }

    /// An 8 × 8 image of four 4 × 4 squares, two blue and two yellow.
    static func checker() -> CGImage {
        var bytes = [UInt8]()
        for y in 0..<8 {
            for x in 0..<8 {
                bytes += (x < 4) == (y < 4) ? [230, 230, 50, 255] : [25, 150, 230, 255]
            }
        }
        return CGImage(width: 8, height: 8, rgba8Bytes: bytes, premultiplied: true)!
    }
}
