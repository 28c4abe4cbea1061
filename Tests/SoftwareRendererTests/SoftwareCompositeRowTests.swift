import Testing
import CAFrame
@testable import CASoftware

/// The composite row paths for targets put back by a translation and scale
/// (`SoftwareCompositePipeline.drawTranslated`, issue 22: a blurred layer's target at a
/// fractional offset) and texel for texel (`drawAligned`) against the per-texel port of
/// composite.frag (`usesRowPaths = false`): the lanes repeat its float operations, so the bytes
/// must be the same.
@Suite struct SoftwareCompositeRowTests {
    typealias R = SoftwareRasterTests

    /// Target 0 (`tw`×`th`) holds three translucent and opaque boxes on whole texels, side by
    /// side (drawn alike by the box row plans and the per-texel loop, so only the composites
    /// differ between the two renders); `composites` put it back onto a main target holding a
    /// half-transparent background (so the blend reads it).
    static func frame(_ tw: Int, _ th: Int, _ composites: [CompositeInstance], variant: ShaderVariant = []) -> RenderFrame {
        var f = RenderFrame(width: 96, height: 80)
        f.clearColor = SIMD4(0.1, 0.2, 0.05, 0.5)
        f.targets = [OffscreenTarget(x: 0, y: 0, width: tw, height: th)]
        let hw = Float(tw / 2), hh = Float(th / 2)
        f.boxes = [R.box(SIMD4(0, 0, hw, Float(th)), fill: SIMD4(0.2, 0.1, 0.4, 0.6)),
                   R.box(SIMD4(hw, 0, Float(tw) - hw, hh), fill: SIMD4(0.9, 0.3, 0, 0.9)),
                   R.box(SIMD4(hw, hh, Float(tw) - hw, Float(th) - hh), fill: SIMD4(0, 0.7, 0.7, 1))]
        f.composites = composites
        f.passes = [
            RenderPass(target: .offscreen(0), kind: .draw([Batch(pipeline: .box, range: 0..<f.boxes.count)])),
            RenderPass(target: .main, kind: .draw([Batch(pipeline: .composite(source: .offscreen(0), mask: nil), variant: variant,
                                                         range: 0..<composites.count)])),
        ]
        return f
    }

    static func render(_ f: RenderFrame, rowPaths: Bool, threads: Int = 1) throws -> [UInt8] {
        try SoftwareRowPathTests.render(f, rowPaths: rowPaths, threads: threads)
    }

    @Test("targets put back at fractional offsets, scaled up and down, faded, partly off the frame: the row path draws the per-texel bytes")
    func translatedCompositesBitIdentical() throws {
        let src = SIMD4<Float>(0, 0, 30, 22)
        let composites = [
            CompositeInstance(dst: SIMD4(4.37, 3.81, 30, 22), src: src, color: SIMD4(repeating: 1), params: .zero),
            CompositeInstance(dst: SIMD4(40.5, 10.25, 45.3, 31.1), src: src, color: SIMD4(repeating: 0.63), params: .zero),
            CompositeInstance(dst: SIMD4(20.9, 50.6, 17.2, 11.9), src: src, color: SIMD4(repeating: 0.9), params: .zero),
            CompositeInstance(dst: SIMD4(80.2, -6.7, 30, 22), src: src, color: SIMD4(repeating: 1), params: .zero),
            CompositeInstance(dst: SIMD4(-9.45, 60.1, 30, 22), src: src, color: SIMD4(repeating: 0.4), params: .zero),
        ]
        let f = Self.frame(30, 22, composites)
        let fast = try Self.render(f, rowPaths: true), reference = try Self.render(f, rowPaths: false)
        #expect(zip(fast, reference).filter { $0.0 != $0.1 }.count == 0, "bytes differing from the per-texel loop")
        #expect(try Self.render(f, rowPaths: true, threads: 3) == fast, "bands on several threads")
        // The composites drew something: the frame is not the background alone.
        let empty = try Self.render(Self.frame(30, 22, []), rowPaths: true)
        #expect(zip(fast, empty).filter { $0.0 != $0.1 }.count > 2000)
    }

    @Test("a clipped composite keeps the per-texel loop (the clip's coverage per texel): the same bytes")
    func clippedCompositeKeepsTexelLoop() throws {
        var f = Self.frame(30, 22, [CompositeInstance(dst: SIMD4(10.3, 9.7, 40, 30), src: SIMD4(0, 0, 30, 22),
                                                      color: SIMD4(repeating: 1), params: SIMD4(0, 1, 0, 0))], variant: [.clip])
        f.clips = [.none, ClipShape(inverse: .identity, rect: SIMD4(15, 12, 25, 20), radii: SIMD4(repeating: 6), continuous: false)]
        let fast = try Self.render(f, rowPaths: true), reference = try Self.render(f, rowPaths: false)
        #expect(zip(fast, reference).filter { $0.0 != $0.1 }.count == 0, "bytes differing from the per-texel loop")
    }

    @Test("targets put back texel for texel (drawAligned's float lanes), opaque and faded: the per-texel bytes")
    func alignedCompositesBitIdentical() throws {
        func at(_ x: Float, _ y: Float) -> SIMD4<Float> { SIMD4(x, y, 30, 22) }
        let composites = [
            CompositeInstance(dst: at(5, 4), src: at(5, 4), color: SIMD4(repeating: 1), params: .zero),
            CompositeInstance(dst: at(20, 10), src: at(20, 10), color: SIMD4(repeating: 1), params: .zero),
            CompositeInstance(dst: at(50, 30), src: at(50, 30), color: SIMD4(repeating: 0.7), params: .zero),
            CompositeInstance(dst: at(80, 70), src: at(80, 70), color: SIMD4(repeating: 1), params: .zero),
        ]
        let f = Self.frame(30, 22, composites)
        let fast = try Self.render(f, rowPaths: true), reference = try Self.render(f, rowPaths: false)
        #expect(zip(fast, reference).filter { $0.0 != $0.1 }.count == 0, "bytes differing from the per-texel loop")
        let empty = try Self.render(Self.frame(30, 22, []), rowPaths: true)
        #expect(zip(fast, empty).filter { $0.0 != $0.1 }.count > 2000)
    }
}
