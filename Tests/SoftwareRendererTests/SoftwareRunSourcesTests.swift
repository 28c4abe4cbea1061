import Testing
import CAFrame
@testable import CASoftware

/// Issue 23: a shape drawn from runs with one of its two colours zero takes each run's source
/// word from a table of the other channel's 256 bytes (`SoftwareShapePipeline.runSources`).
/// Each word must be the one shape.frag's colour gives for that byte, whatever the zero
/// colour's byte: the words the per-band cache computes from both bytes.
@Suite struct SoftwareRunSourcesTests {
    static func instance(fill: SIMD4<Float>, stroke: SIMD4<Float>, opacity: Float) -> ShapeInstance {
        ShapeInstance(h0: SIMD4(1, 0, 0, opacity), h1: SIMD4(0, 1, 0, 0), h2: SIMD4(0, 0, 1, 0), region: SIMD4(0, 0, 300, 1),
                      fill: fill, stroke: stroke, trim: .zero, dash: .zero, params: .zero)
    }

    /// One row of `n` one-texel runs with every (fill, stroke) pair drawn from `bytes`.
    static func spans(_ n: Int, fill: (Int) -> UInt8, stroke: (Int) -> UInt8) -> ShapeCoverageSpans {
        let runs = (0..<n).map { ShapeCoverageSpans.Run(x: UInt16($0), count: 1, fill: fill($0), stroke: stroke($0)) }
        return ShapeCoverageSpans(width: n, height: 1, rowStarts: [0, Int32(n)], runs: runs)
    }

    /// The word the per-band cache of `drawRunRows` computes for a run's two bytes.
    static func cached(_ i: ShapeInstance, _ f: UInt8, _ s: UInt8) -> UInt32 {
        let full = SoftwarePixel.unpack(UInt32(f) | UInt32(s) << 8)
        return SoftwareSpanBlend.source(SoftwareShapePipeline.color(i, fill: full.x, stroke: full.y) * i.h0.w)
    }

    @Test("a stroke without a fill: the stroke byte's word, whatever the fill byte", arguments: [Float(1), 0.37])
    func strokeOnly(_ opacity: Float) throws {
        let i = Self.instance(fill: .zero, stroke: SIMD4(0.12, 0.55, 0.8, 0.9), opacity: opacity)
        let table = try #require(SoftwareShapePipeline.runSources(i, Self.spans(300, fill: { UInt8($0 % 7 * 30) }, stroke: { UInt8($0 % 256) })))
        #expect(table.byStroke && table.words.count == 256)
        for s in 0..<256 {
            for f in [0, 1, 128, 255] {
                #expect(table.words[s] == Self.cached(i, UInt8(f), UInt8(s)), "stroke \(s), fill \(f)")
            }
        }
    }

    @Test("a fill without a stroke: the fill byte's word, whatever the stroke byte")
    func fillOnly() throws {
        let i = Self.instance(fill: SIMD4(0.7, 0.2, 0.1, 0.75), stroke: .zero, opacity: 0.8)
        let table = try #require(SoftwareShapePipeline.runSources(i, Self.spans(300, fill: { UInt8($0 % 256) }, stroke: { _ in 0 })))
        #expect(!table.byStroke)
        for f in 0..<256 {
            for s in [0, 3, 255] { #expect(table.words[f] == Self.cached(i, UInt8(f), UInt8(s)), "fill \(f), stroke \(s)") }
        }
    }

    @Test("no table where both colours draw, or for a raster of few runs")
    func noTable() {
        let both = Self.instance(fill: SIMD4(0.5, 0.5, 0.5, 0.5), stroke: SIMD4(0, 0, 1, 1), opacity: 1)
        #expect(SoftwareShapePipeline.runSources(both, Self.spans(300, fill: { _ in 9 }, stroke: { _ in 3 })) == nil)
        let strokeOnly = Self.instance(fill: .zero, stroke: SIMD4(0, 0, 1, 1), opacity: 1)
        #expect(SoftwareShapePipeline.runSources(strokeOnly, Self.spans(40, fill: { _ in 0 }, stroke: { _ in 3 })) == nil)
        #expect(SoftwareShapePipeline.runSources(strokeOnly, nil) == nil)
    }
}
