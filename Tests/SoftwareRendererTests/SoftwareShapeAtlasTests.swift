import Testing
import CAFrame
@testable import CARender
@testable import CASoftware

/// The CPU backend's shape atlas (`SoftwareShapeAtlas`): uploads copied row by row, and pages
/// dropped by one frame reused, as they are but for each upload's gutter, for a later new page
/// of their size (issue 23).
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

    @Test("a dropped page is reused for a new page of its size, as it is but for each upload's cleared one-texel frame")
    func recycledPageKeepsOnlyWhatIsRead() throws {
        let atlas = SoftwareShapeAtlas()
        atlas.sync(Self.frame([(1, 5, 4)], [Self.upload(serial: 1, page: 1, x: 0, y: 0, w: 5, h: 4)]))
        let first = try #require(atlas.coverage[1])
        #expect(first.pixels[0] == Self.word(1, 1, 7, 1))
        // Page 1 is dropped (the shape cache reset its atlas) and page 2 appears with one
        // 2×1 raster at (1, 1): the raster and the texel frame around it (what sampling reads)
        // are the fresh page's; the rest keeps the old raster, which nothing reads.
        atlas.sync(Self.frame([(2, 5, 4)], [Self.upload(serial: 2, page: 2, x: 1, y: 1, w: 2, h: 1)]))
        #expect(atlas.coverage[1] == nil)
        let second = try #require(atlas.coverage[2])
        #expect(second === first, "the dropped page's memory is reused")
        for y in 0..<4 {
            for x in 0..<5 {
                let inside = (1...2).contains(x) && y == 1
                let frame = (0...3).contains(x) && (0...2).contains(y) && !inside
                let expected = inside ? Self.word(x, 1, 7, 2) : frame ? 0 : Self.word(1 + x, 1 + y, 7, 1)
                #expect(second.pixels[y * 5 + x] == expected, "texel (\(x), \(y))")
            }
        }
        let runs = try #require(second.coverageRuns)
        #expect(runs[1 * 5 + 1] == 1 && runs[1 * 5 + 2] == 1, "the raster's own runs")
    }

    @Test("coverage runs after random uploads equal the scalar definition, whatever lay there before")
    func coverageRunsMatchScalarDefinition() throws {
        // Uploads of runs of equal fill/stroke bytes (blocks of 1…9 texels; the B and A bytes,
        // which runs ignore, vary) at random places on a 61 × 9 page, some clipped by its edges.
        let w = 61, h = 9
        var seed: UInt32 = 7
        func next(_ n: Int) -> Int { seed ^= seed << 13; seed ^= seed >> 17; seed ^= seed << 5; return Int(seed % UInt32(n)) }
        let atlas = SoftwareShapeAtlas()
        var texels = [UInt32](repeating: 0, count: w * h), runs = [UInt16](repeating: 0, count: w * h)
        for serial in 1...300 {
            let uw = 1 + next(40), uh = 1 + next(5), ux = next(w + 10) - 5, uy = next(h + 2) - 1
            var bytes: [UInt8] = []
            for _ in 0..<uh {
                var col = 0
                while col < uw {
                    let len = 1 + next(9), r = UInt8(next(3) * 127), g = UInt8(next(2) * 255)
                    for _ in 0..<min(len, uw - col) { bytes += [r, g, UInt8(next(256)), UInt8(serial % 256)] }
                    col += len
                }
            }
            atlas.sync(Self.frame([(1, w, h)], [ShapeAtlasUpload(serial: serial, page: 1, x: ux, y: uy, width: uw, height: uh,
                                                                 coverage: bytes, field: [], aux: [])]))
            // The reference: over the page's texels as the upload left them, the runs
            // recomputed texel by texel, right to left, from the rectangle's right edge, and left
            // of it while the old runs reached into it.
            let page = try #require(atlas.coverage[1])
            for i in 0..<(w * h) { texels[i] = page.pixels[i] }
            let xa = max(ux, 0), xb = min(ux + uw, w), ya = max(uy, 0), yb = min(uy + uh, h)
            guard xa < xb, ya < yb else { continue }
            for y in ya..<yb {
                var run = 0, right: UInt32 = 0, x = xb - 1
                while x >= xa || (x >= 0 && x + Int(runs[y * w + x]) > xa) {
                    let v = texels[y * w + x] & 0xFFFF
                    run = run > 0 && v == right ? run + 1 : 1
                    right = v
                    runs[y * w + x] = UInt16(run)
                    x -= 1
                }
            }
            let got = try #require(page.coverageRuns)
            for i in 0..<(w * h) where got[i] != runs[i] {
                Issue.record("upload \(serial): texel (\(i % w), \(i / w)) has run \(got[i]), expected \(runs[i])")
                return
            }
        }
    }

    @Test("an upload of runs is kept as runs; its texels, written when asked, are those of the same raster uploaded dense")
    func runsDensifyToTheDenseUpload() throws {
        // A 7×3 raster: row 0 a fill run and a stroke run, row 1 empty, row 2 both bytes.
        let spans = ShapeCoverageSpans(width: 7, height: 3, rowStarts: [0, 2, 2, 3],
                                       runs: [.init(x: 0, count: 3, fill: 200, stroke: 0), .init(x: 4, count: 2, fill: 0, stroke: 90),
                                              .init(x: 1, count: 6, fill: 17, stroke: 255)])
        let dense = spans.denseCoverage()
        #expect(dense.count == 7 * 3 * 4)
        #expect(Array(dense[0..<4]) == [200, 0, 0, 0] && Array(dense[16..<20]) == [0, 90, 0, 0] && Array(dense[(14 + 1) * 4..<(14 + 2) * 4]) == [17, 255, 0, 0])
        // Two pages start with the same old texels (recycled): one gets the runs, then writes
        // them; the other the dense upload.
        let runsAtlas = SoftwareShapeAtlas(), denseAtlas = SoftwareShapeAtlas()
        let filler = Self.upload(serial: 1, page: 1, x: 0, y: 0, w: 12, h: 6)
        runsAtlas.sync(Self.frame([(1, 12, 6)], [filler]))
        denseAtlas.sync(Self.frame([(1, 12, 6)], [filler]))
        runsAtlas.sync(Self.frame([(1, 12, 6)], [ShapeAtlasUpload(serial: 2, page: 1, x: 3, y: 2, width: 7, height: 3, coverage: [],
                                                                  field: [], aux: [], spans: spans)]))
        denseAtlas.sync(Self.frame([(1, 12, 6)], [ShapeAtlasUpload(serial: 2, page: 1, x: 3, y: 2, width: 7, height: 3, coverage: dense,
                                                                   field: [], aux: [])]))
        #expect(runsAtlas.runs[1]?[SIMD2(3, 2)] == spans, "kept as runs")
        let a = try #require(runsAtlas.coverage[1]), b = try #require(denseAtlas.coverage[1])
        #expect(a.pixels[2 * 12 + 3] == Self.word(4, 3, 7, 1), "the page is not written until asked")
        runsAtlas.densify(page: 1, at: SIMD2(3, 2))
        #expect(runsAtlas.runs[1]?[SIMD2(3, 2)] == nil)
        for i in 0..<(12 * 6) {
            #expect(a.pixels[i] == b.pixels[i] && a.coverageRuns![i] == b.coverageRuns![i], "texel (\(i % 12), \(i / 12))")
        }
        // A dense upload at the same place later replaces the runs.
        runsAtlas.sync(Self.frame([(1, 12, 6)], [ShapeAtlasUpload(serial: 3, page: 1, x: 0, y: 0, width: 2, height: 2, coverage: [],
                                                                  field: [], aux: [], spans: ShapeCoverageSpans(width: 2, height: 2, rowStarts: [0, 0, 0], runs: []))]))
        #expect(runsAtlas.runs[1]?[SIMD2(0, 0)] != nil)
        runsAtlas.sync(Self.frame([(1, 12, 6)], [Self.upload(serial: 4, page: 1, x: 0, y: 0, w: 2, h: 2)]))
        #expect(runsAtlas.runs[1]?[SIMD2(0, 0)] == nil)
        // A dropped page takes its runs with it.
        runsAtlas.sync(Self.frame([(2, 12, 6)], []))
        #expect(runsAtlas.runs[1] == nil)
    }

    @Test("runs that do not describe their raster are not kept: the rectangle is written empty, nothing read out of bounds")
    func malformedRunsAreEmpty() throws {
        let bad: [ShapeCoverageSpans] = [
            ShapeCoverageSpans(width: 4, height: 2, rowStarts: [0, 1], runs: [.init(x: 0, count: 2, fill: 9, stroke: 0)]),
            ShapeCoverageSpans(width: 4, height: 2, rowStarts: [0, 1, 1], runs: [.init(x: 3, count: 5, fill: 9, stroke: 0)]),
            ShapeCoverageSpans(width: 4, height: 2, rowStarts: [0, 2, 1], runs: [.init(x: 0, count: 1, fill: 9, stroke: 0),
                                                                                 .init(x: 1, count: 1, fill: 9, stroke: 0)]),
            ShapeCoverageSpans(width: 4, height: 2, rowStarts: [0, 1, 9], runs: [.init(x: 0, count: 1, fill: 9, stroke: 0)]),
            ShapeCoverageSpans(width: 5, height: 2, rowStarts: [0, 0, 0], runs: []),
        ]
        // Well-formed runs for a rectangle running past the page (a hostile frame): not kept
        // (an instance needing texels would expand them), the part in the page written empty.
        let past = ShapeCoverageSpans(width: 100, height: 100, rowStarts: [Int32](repeating: 0, count: 101), runs: [])
        #expect(past.isWellFormed)
        let big = SoftwareShapeAtlas()
        big.sync(Self.frame([(1, 8, 5)], [Self.upload(serial: 1, page: 1, x: 0, y: 0, w: 8, h: 5)]))
        big.sync(Self.frame([(1, 8, 5)], [ShapeAtlasUpload(serial: 2, page: 1, x: 3, y: 2, width: 100, height: 100, coverage: [],
                                                           field: [], aux: [], spans: past)]))
        #expect(big.runs[1]?[SIMD2(3, 2)] == nil)
        let bigPage = try #require(big.coverage[1])
        #expect(bigPage.pixels[2 * 8 + 3] == 0 && bigPage.pixels[4 * 8 + 7] == 0 && bigPage.pixels[0] != 0)
        for (k, s) in bad.enumerated() {
            #expect(k == 4 || !s.isWellFormed, "case \(k)")
            #expect(s.denseCoverage().allSatisfy { $0 == 0 }, "case \(k)")
            let atlas = SoftwareShapeAtlas()
            atlas.sync(Self.frame([(1, 8, 5)], [Self.upload(serial: 1, page: 1, x: 0, y: 0, w: 8, h: 5)]))
            atlas.sync(Self.frame([(1, 8, 5)], [ShapeAtlasUpload(serial: 2, page: 1, x: 2, y: 1, width: 4, height: 2, coverage: [],
                                                                 field: [], aux: [], spans: s)]))
            #expect(atlas.runs[1]?[SIMD2(2, 1)] == nil, "case \(k): kept")
            let page = try #require(atlas.coverage[1])
            for y in 1..<3 { for x in 2..<6 { #expect(page.pixels[y * 8 + x] == 0, "case \(k): texel (\(x), \(y))") } }
        }
    }

    @Test("a dropped page waits for a later frame's new page, and is freed after spareFrames frames")
    func sparePageKeptThenFreed() throws {
        let atlas = SoftwareShapeAtlas()
        atlas.sync(Self.frame([(1, 4, 3)], [Self.upload(serial: 1, page: 1, x: 0, y: 0, w: 4, h: 3)]))
        let first = try #require(atlas.coverage[1])
        // Dropped with no new page in the same frame (the cache lists its next page later).
        atlas.sync(Self.frame([], []))
        #expect(atlas.spare.count == 1)
        atlas.sync(Self.frame([(2, 4, 3)], []))
        #expect(atlas.coverage[2] === first)
        // Dropped again and never asked for: freed.
        for _ in 0...SoftwareShapeAtlas.spareFrames + 1 { atlas.sync(Self.frame([], [])) }
        #expect(atlas.spare.isEmpty)
    }

    @Test("a frame drawn from a reused page has a fresh renderer's bytes")
    func reusedPageDrawsFreshBytes() throws {
        // A ring whose scale changes every frame is rasterised again each frame; a small atlas
        // page size makes the shape cache reset (and the CPU backend reuse pages) every few frames.
        func scene(_ scale: CGFloat) -> CALayer {
            let root = CALayer()
            root.frame = CGRect(x: 0, y: 0, width: 96, height: 96)
            for k in 0..<3 {
                let s = CAShapeLayer()
                s.frame = root.bounds
                s.path = CGPath(ellipseIn: CGRect(x: 8 + 10 * k, y: 8 + 6 * k, width: 60, height: 50), transform: nil)
                s.fillColor = CGColor(red: 0.2, green: 0.4, blue: 0.9, alpha: 0.6)
                s.strokeColor = CGColor(red: 1, green: 0.5, blue: 0, alpha: 1)
                s.lineWidth = 4
                s.transform = CATransform3DMakeScale(scale, scale, 1)
                if k == 2 {
                    // Under perspective the raster is sampled bilinearly: half a texel beyond
                    // its edge, into the gutter.
                    var t = CATransform3DIdentity
                    t.m34 = -1 / 200
                    s.transform = CATransform3DRotate(CATransform3DScale(t, scale, scale, 1), 0.5, 0, 1, 0)
                }
                root.addSublayer(s)
            }
            return root
        }
        // Both renderers draw the same frames; each new page of the second's atlas is a fresh,
        // zeroed one.
        let builder = RenderTreeBuilder()
        let reusing = SoftwareRenderer(threads: 1), fresh = SoftwareRenderer(threads: 1)
        fresh.shapeAtlas.reusesPages = false
        var reused = 0
        var seen = Set<ObjectIdentifier>()
        for f in 0..<16 {
            let scale = 0.8 + 0.02 * CGFloat(f)
            // What a full atlas does (`ShapeCache.beginFrame`), every fourth frame.
            if f % 4 == 3 { builder.shapes.cache.reset() }
            let (frame, _) = builder.build(root: scene(scale), width: 96, height: 96, scale: 1)
            var stats = RenderStats()
            try reusing.render(frame, stats: &stats)
            for (id, page) in reusing.shapeAtlas.coverage where !seen.insert(ObjectIdentifier(page)).inserted {
                if f % 4 == 3, frame.shapePages.contains(where: { $0.id == id }) { reused += 1 }
            }
            try fresh.render(frame, stats: &stats)
            let a = reusing.readPixels(), b = fresh.readPixels()
            let differing = zip(a, b).filter { $0 != $1 }.count
            #expect(differing == 0, "frame \(f): \(differing) bytes differ")
        }
        #expect(reused > 0, "the atlas reset and a page was reused")
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
