import Testing
import CAFrame
@testable import CASoftware

/// Offscreen targets' row extents (`SoftwareRowExtents.swift`, issue 23): the columns of each
/// row a pass can have written, which the texel-aligned composite (`drawAligned`) reads alone.
/// A texel outside them must be zero, so the composite must give the bytes of the per-texel
/// loop that reads every texel (`usesRowPaths = false`).
@Suite struct SoftwareRowExtentsTests {
    typealias R = SoftwareRasterTests

    @Test("extents start empty at a clearing pass, grow by the columns noted, and are forgotten whole")
    func extentSemantics() {
        let t = SoftwareTarget(width: 40, height: 6)
        #expect(t.rowExtents == nil)
        #expect(t.rowRange(2, within: 0, 40) == 0..<40, "unknown: the whole row")
        t.startRowExtents()
        #expect(t.rowRange(2, within: 0, 40).isEmpty, "cleared: nothing")
        t.noteRow(2, 10, 14)
        t.noteRow(2, 30, 33)
        t.noteRow(3, -5, 100)
        #expect(t.rowRange(2, within: 0, 40) == 10..<33)
        #expect(t.rowRange(2, within: 12, 20) == 12..<20)
        #expect(t.rowRange(2, within: 34, 40).isEmpty)
        #expect(t.rowRange(3, within: 0, 40) == 0..<40, "clamped to the row")
        #expect(t.rowRange(4, within: 0, 40).isEmpty)
        t.forgetRowExtents()
        #expect(t.rowRange(4, within: 0, 40) == 0..<40)
    }

    /// Target 0: boxes on both sides of some rows, a second pass that does not clear adding
    /// one in between; target 1: a translucent mask box over part of it; target 2: target 0
    /// blurred (a pass that does not say where it writes). All three put back texel for texel
    /// onto a background, 0 through the mask.
    static func frame() -> RenderFrame {
        var f = RenderFrame(width: 80, height: 64)
        f.clearColor = SIMD4(0.1, 0.2, 0.05, 0.5)
        f.targets = [OffscreenTarget(x: 0, y: 0, width: 48, height: 40), OffscreenTarget(x: 0, y: 0, width: 48, height: 40),
                     OffscreenTarget(x: 0, y: 0, width: 48, height: 40)]
        f.boxes = [R.box(SIMD4(2, 3, 8, 17), fill: SIMD4(0.2, 0.1, 0.4, 0.6)),
                   R.box(SIMD4(30.5, 10, 9.5, 25), fill: SIMD4(0.9, 0.3, 0, 0.9), radii: SIMD4(repeating: 3)),
                   R.box(SIMD4(15, 25, 5, 5), fill: SIMD4(0, 0.7, 0.7, 1)),
                   R.box(SIMD4(5, 0, 30, 30), fill: SIMD4(0, 0, 0, 0.8))]
        let at = SIMD4<Float>(0, 0, 48, 40)
        f.composites = [CompositeInstance(dst: at, src: at, color: SIMD4(repeating: 1), params: .zero),
                        CompositeInstance(dst: SIMD4(30, 20, 48, 40), src: SIMD4(30, 20, 48, 40), color: SIMD4(repeating: 0.8), params: .zero)]
        f.passes = [
            RenderPass(target: .offscreen(0), kind: .draw([Batch(pipeline: .box, range: 0..<2)])),
            RenderPass(target: .offscreen(0), kind: .draw([Batch(pipeline: .box, range: 2..<3)]), clears: false),
            RenderPass(target: .offscreen(1), kind: .draw([Batch(pipeline: .box, range: 3..<4)])),
            RenderPass(target: .offscreen(2), kind: .blur(source: .offscreen(0), sigma: 2, horizontal: true)),
            RenderPass(target: .main, kind: .draw([Batch(pipeline: .composite(source: .offscreen(0), mask: .offscreen(1)), range: 0..<1),
                                                   Batch(pipeline: .composite(source: .offscreen(2), mask: nil), range: 1..<2)])),
        ]
        return f
    }

    @Test("masked and blurred targets put back texel for texel read within their extents: the per-texel bytes", arguments: [1, 3])
    func compositesWithinExtentsBitIdentical(threads: Int) throws {
        let f = Self.frame()
        let fast = try SoftwareRowPathTests.render(f, rowPaths: true, threads: threads)
        let reference = try SoftwareRowPathTests.render(f, rowPaths: false, threads: threads)
        #expect(zip(fast, reference).filter { $0.0 != $0.1 }.count == 0, "bytes differing from the per-texel loop")
        // Something of each composite reached the frame.
        var none = f
        none.composites = []
        none.passes[4] = RenderPass(target: .main, kind: .draw([]))
        let background = try SoftwareRowPathTests.render(none, rowPaths: true)
        #expect(zip(fast, background).filter { $0.0 != $0.1 }.count > 600)
    }

    @Test("a draw pass notes its quads' columns; the blur's target is left unknown")
    func extentsAfterAFrame() throws {
        let r = SoftwareRenderer(threads: 1)
        r.keepsTargetsForTesting = true
        var stats = RenderStats()
        try r.render(Self.frame(), stats: &stats)
        let targets = r.lastTargetsForTesting
        #expect(targets.count == 3)
        // Row 12 of target 0: the first box (x 2…10) and the second (x 30.5…40) only, each
        // quad a texel wider on both sides (its antialiasing margin).
        #expect(targets[0].rowRange(12, within: 0, 48) == 1..<41)
        #expect(targets[0].rowRange(27, within: 0, 48) == 14..<41, "the second pass's box added")
        #expect(targets[0].rowRange(38, within: 0, 48).isEmpty)
        #expect(targets[1].rowRange(10, within: 0, 48) == 4..<36)
        #expect(targets[2].rowExtents == nil)
    }
}
