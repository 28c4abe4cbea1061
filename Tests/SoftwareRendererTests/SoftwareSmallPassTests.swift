import Testing
@testable import CASoftware

/// `SoftwareRenderer.isSmallPass`: a draw pass whose target and instances are small runs on the
/// calling thread alone (waking the others cost more than they saved: Lottie's TwitterHeart,
/// PinJump's 32×32 offscreen passes). The bands are independent, so the bytes are the same
/// either way; what is checked here is which passes count as small.
@Suite struct SoftwareSmallPassTests {
    struct Work: SoftwareBatchWork {
        var texels: Int?
        func draw(_ ctx: SoftwarePassContext, _ rows: Range<Int>) {}
        var boundsTexels: Int? { texels }
    }

    @Test("small: a 512×512 target under the work bound; not: a 1080p target, too much work, or work of unknown size")
    func whichPassesAreSmall() {
        let small = SoftwareTarget(width: 512, height: 512), large = SoftwareTarget(width: 1920, height: 1080)
        #expect(SoftwareRenderer.isSmallPass(small, [Work(texels: 3_300), Work(texels: 90_000)]))
        #expect(SoftwareRenderer.isSmallPass(small, []))
        #expect(SoftwareRenderer.isSmallPass(SoftwareTarget(width: 32, height: 32), [Work(texels: 256)]))
        #expect(!SoftwareRenderer.isSmallPass(small, [Work(texels: 90_000), Work(texels: 90_000)]), "over smallPassWork")
        #expect(!SoftwareRenderer.isSmallPass(large, [Work(texels: 100)]), "over smallPassTexels")
        #expect(!SoftwareRenderer.isSmallPass(small, [Work(texels: 100), Work(texels: nil)]), "unknown work counts as large")
    }

    struct QuadWork: SoftwareQuadBatch {
        var quads: [SoftwareQuad]
        func draw(_ ctx: SoftwarePassContext, _ rows: Range<Int>) {}
    }

    @Test("a batch of quads reports their texels and the rectangle around them, also as a plain batch")
    func quadBatchBounds() throws {
        var a = SoftwareQuad.empty, b = SoftwareQuad.empty
        a.x0 = 10; a.x1 = 30; a.y0 = 5; a.y1 = 15
        b.x0 = 40; b.x1 = 44; b.y0 = 20; b.y1 = 24
        let work: SoftwareBatchWork = QuadWork(quads: [a, .empty, b])
        #expect(work.boundsTexels == 216)
        let bounds = try #require(work.pixelBounds)
        let corners: [Int] = [bounds.x0, bounds.y0, bounds.x1, bounds.y1]
        #expect(corners == [10, 5, 44, 24])
        let none = try #require((QuadWork(quads: [.empty]) as SoftwareBatchWork).pixelBounds)
        #expect(none.isEmpty)
        #expect((Work(texels: 5) as SoftwareBatchWork).pixelBounds == nil, "a batch without quads has unknown bounds")
    }

    @Test("a quad's bounds are counted once each, empty ones not at all")
    func quadBounds() {
        var a = SoftwareQuad.empty, b = SoftwareQuad.empty
        a.x0 = 10; a.x1 = 30; a.y0 = 5; a.y1 = 15     // 20 × 10
        b.x0 = 0; b.x1 = 4; b.y0 = 0; b.y1 = 4        // 4 × 4
        #expect(SoftwareQuad.boundsTexels([a, b, .empty]) == 216)
    }
}
