import Testing
import CAFrame

/// The frame format stands alone (issue 16): this target depends on CAFrame only — no layer,
/// no builder, no GL — and builds frames by hand as a second backend or a test double would,
/// against the contract `RenderFrame.problems` spells out.
@Suite struct FrameContractTests {
    static let plane = (h0: SIMD4<Float>(1, 0, 0, 0), h1: SIMD4<Float>(0, 1, 0, 0), h2: SIMD4<Float>(0, 0, 1, 0))

    static func box(clip: Float = 0) -> BoxInstance {
        BoxInstance(h0: plane.h0, h1: SIMD4(0, 1, 0, clip), h2: plane.h2, rect: SIMD4(0, 0, 10, 10),
                    radii: .zero, fill: SIMD4(1, 0, 0, 1), border: .zero, params: .zero)
    }

    /// A frame a builder could hand over: two boxes drawn offscreen, composited onto the main
    /// target, and one box on top.
    static func wellFormed() -> RenderFrame {
        var f = RenderFrame(width: 64, height: 48)
        f.boxes = [box(), box(), box()]
        f.targets = [OffscreenTarget(x: 0, y: 0, width: 32, height: 32)]
        f.composites = [CompositeInstance(dst: SIMD4(0, 0, 32, 32), src: SIMD4(0, 0, 32, 32), color: SIMD4(1, 1, 1, 1), params: .zero)]
        f.passes = [
            RenderPass(target: .offscreen(0), kind: .draw([Batch(pipeline: .box, range: 0..<2)])),
            RenderPass(target: .main, kind: .draw([Batch(pipeline: .composite(source: .offscreen(0), mask: nil), range: 0..<1),
                                                     Batch(pipeline: .box, range: 2..<3)])),
        ]
        return f
    }

    @Test func aWellFormedFrameHasNoProblems() {
        #expect(Self.wellFormed().problems == [])
    }

    @Test func everyBrokenPromiseIsNamed() {
        var f = Self.wellFormed()
        f.passes.swapAt(0, 1)   // composited before it is drawn
        f.boxes[2] = Self.box(clip: 3)   // no such clip
        f.passes.append(RenderPass(target: .offscreen(7), kind: .draw([Batch(pipeline: .box, range: 0..<9)])))
        f.passes.append(RenderPass(target: .main, kind: .draw([Batch(pipeline: .image(texture: 0, filter: .linear), range: 0..<0)])))
        f.passes.append(RenderPass(target: .main, kind: .blur(source: .offscreen(5), sigma: 2, horizontal: true)))
        f.gradientRamps = [0, 0, 0]
        let p = f.problems
        #expect(p.contains { $0.contains("samples off0, which is not drawn before this pass") }, "\(p)")
        #expect(p.contains { $0.contains("box 2 has clip index 3.0 of 1") }, "\(p)")
        #expect(p.contains { $0.contains("draws into missing target off7") }, "\(p)")
        #expect(p.contains { $0.contains("covers 0..<9 of 3 instances") }, "\(p)")
        #expect(p.contains { $0.contains("samples missing texture 0") }, "\(p)")
        #expect(p.contains { $0.contains("blurs off5 before it is drawn") }, "\(p)")
        #expect(p.contains { $0.contains("not whole rows") }, "\(p)")
    }

    /// Filter steps and backdrop copies (issue 24): a step reads only targets drawn before it,
    /// and a continued pass (`clears` false) follows a pass of its target.
    @Test func filterAndCopyPassesFollowTheContract() {
        var f = Self.wellFormed()
        f.targets += [OffscreenTarget(x: 0, y: 0, width: 32, height: 32), OffscreenTarget(x: 0, y: 0, width: 32, height: 32)]
        f.passes.insert(RenderPass(target: .offscreen(1), kind: .copy(source: .offscreen(0))), at: 1)
        f.passes.insert(RenderPass(target: .offscreen(2), kind: .filter(source: .offscreen(0),
                        .blend(mode: 1, backdrop: .offscreen(1), opacity: 1, clip: 0))), at: 2)
        #expect(f.problems == [])
        var bad = f
        bad.passes[2] = RenderPass(target: .offscreen(2), kind: .filter(source: .offscreen(0), .add(glow: .offscreen(2), weight: 1)))
        #expect(bad.problems.contains { $0.contains("filters off2, which is not drawn before this pass") }, "\(bad.problems)")
        bad.passes[1] = RenderPass(target: .offscreen(1), kind: .copy(source: .offscreen(2)))
        #expect(bad.problems.contains { $0.contains("copies off2 before it is drawn") }, "\(bad.problems)")
    }

    /// The colour step's arithmetic, as the shader does it (a CPU backend can reuse it).
    @Test func colorTransformAppliesRowsBiasClampAndPower() {
        var t = ColorTransform(r: SIMD4(0, 1, 0, 0), g: SIMD4(1, 0, 0, 0), b: SIMD4(0, 0, 2, 0), a: SIMD4(0, 0, 0, 1),
                               bias: SIMD4(0, 0, 0.25, 0))
        #expect(t.apply(SIMD4(0.25, 0.5, 0.5, 1)) == SIMD4(0.5, 0.25, 1, 1))
        t = .identity
        t.power = 2
        #expect(t.apply(SIMD4(0.5, 1, 0, 0.5)) == SIMD4(0.25, 1, 0, 0.5))
    }

    @Test func homographyMapsWithoutALayer() {
        let h = Homography(r0: SIMD3(2, 0, 0), r1: SIMD3(0, 3, 0), r2: SIMD3(5, 7, 1))
        #expect(h.map(1, 1) == SIMD2(7, 10))
        #expect(Homography.identity.map(4, 5) == SIMD2(4, 5))
    }
}
