import Testing
import CAFrame
@testable import CASoftware

/// The CPU backend's shape atlas (`SoftwareShapeAtlas`): uploads copied row by row, and pages
/// dropped by one frame reused, cleared, for a new page of their size (issue 23).
@Suite struct SoftwareShapeAtlasTests {
    /// A frame listing `pages` (id, width, height; coverage pages) and `uploads`.
    static func frame(_ pages: [(Int, Int, Int)], _ uploads: [ShapeAtlasUpload]) -> RenderFrame {
        var f = RenderFrame(width: 4, height: 4)
        f.shapePages = pages.map { ShapeAtlasPage(id: $0.0, width: $0.1, height: $0.2, isField: false) }
        f.shapeUploads = uploads
        return f
    }

    /// An upload of `w × h` texels whose bytes are R = 1 + column, G = 1 + row, B = 7, A = serial.
    static func upload(serial: Int, page: Int, x: Int, y: Int, w: Int, h: Int) -> ShapeAtlasUpload {
        var bytes: [UInt8] = []
        for row in 0..<h { for col in 0..<w { bytes += [UInt8(1 + col), UInt8(1 + row), 7, UInt8(serial)] } }
        return ShapeAtlasUpload(serial: serial, page: page, x: x, y: y, width: w, height: h, coverage: bytes, field: [], aux: [])
    }

    /// The texel word `SoftwareTarget` holds for bytes R, G, B, A (R in the low byte).
    static func word(_ r: Int, _ g: Int, _ b: Int, _ a: Int) -> UInt32 {
        UInt32(r) | UInt32(g) << 8 | UInt32(b) << 16 | UInt32(a) << 24
    }

    @Test("an upload lands texel by texel at its rectangle, R in the low byte, clipped to the page")
    func uploadCopiedAndClipped() throws {
        let atlas = SoftwareShapeAtlas()
        // 3×2 at (-1, 3) on a 4×4 page: column 0 and row 1 fall outside.
        atlas.sync(Self.frame([(1, 4, 4)], [Self.upload(serial: 1, page: 1, x: -1, y: 3, w: 3, h: 2)]))
        let page = try #require(atlas.coverage[1])
        for y in 0..<4 {
            for x in 0..<4 {
                // Texel (x, 3) for x in 0...1 holds the upload's column x + 1, row 0.
                let expected: UInt32 = y == 3 && x <= 1 ? Self.word(x + 2, 1, 7, 1) : 0
                #expect(page.pixels[y * 4 + x] == expected, "texel (\(x), \(y))")
            }
        }
    }

    @Test("a page dropped and a new page of its size in one frame: the new page starts empty")
    func recycledPageIsCleared() throws {
        let atlas = SoftwareShapeAtlas()
        atlas.sync(Self.frame([(1, 4, 3)], [Self.upload(serial: 1, page: 1, x: 0, y: 0, w: 4, h: 3)]))
        let first = try #require(atlas.coverage[1])
        #expect(first.pixels[0] == Self.word(1, 1, 7, 1))
        // Page 1 is dropped (the shape cache reset its atlas) and page 2 appears with one
        // smaller raster: outside it, every texel and every run is 0 as on a fresh page.
        atlas.sync(Self.frame([(2, 4, 3)], [Self.upload(serial: 2, page: 2, x: 1, y: 1, w: 1, h: 1)]))
        #expect(atlas.coverage[1] == nil)
        let second = try #require(atlas.coverage[2])
        #expect(second === first, "the dropped page's memory is reused")
        let runs = try #require(second.coverageRuns)
        for y in 0..<3 {
            for x in 0..<4 {
                let inside = x == 1 && y == 1
                #expect(second.pixels[y * 4 + x] == (inside ? Self.word(1, 1, 7, 2) : 0), "texel (\(x), \(y))")
                if !inside { #expect(runs[y * 4 + x] == 0, "run at (\(x), \(y))") }
            }
        }
    }

    @Test("a dropped page of another size is not reused")
    func otherSizeNotReused() throws {
        let atlas = SoftwareShapeAtlas()
        atlas.sync(Self.frame([(1, 4, 3)], [Self.upload(serial: 1, page: 1, x: 0, y: 0, w: 4, h: 3)]))
        let first = try #require(atlas.coverage[1])
        atlas.sync(Self.frame([(2, 5, 3)], []))
        let second = try #require(atlas.coverage[2])
        #expect(second !== first)
        #expect(second.width == 5 && second.height == 3)
        #expect((0..<15).allSatisfy { second.pixels[$0] == 0 })
    }
}
