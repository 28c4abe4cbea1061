import Testing
import Foundation
import CARender

/// Issue 20 "Rendering" with the glyph atlas as the default path: text is drawn from FreeType
/// coverage at the on-screen size; text above `GlyphEmitter.maxPixelSize` px per em as outlines
/// through the shape pipeline; what neither draws (strokes, underlines) falls back to the
/// backing store, never blank; and a text layer is laid out once per change of its string,
/// attributes or bounds (`TextLayoutCache`), so an animated `fontSize` re-lays out only the
/// layers it animates. Expected values come from the glyph outlines (ink inside "H") and from
/// the backing-store path (same outlines, filled by Core Graphics).
@Suite(.serialized, .enabled(if: glyphTestFonts != nil, "test fonts not found (../shared/corpora/fonts)"))
struct TextDefaultPathTests {
    static func defaultRender(_ root: CALayer, size: CGSize, times: [Double] = [0]) throws -> (pixels: [UInt8], renderer: CARenderer) {
        let r = try CARenderer(offscreenSize: size, scale: 1, options: .init(backend: .openGL))
        r.layer = root
        for t in times {
            r.beginFrame(atTime: t)
            try r.renderChecked()
            r.endFrame()
        }
        return (try r.makeImage().rgba8Bytes, r)
    }

    static func alpha(_ p: [UInt8], width: Int, _ x: Int, _ y: Int) -> UInt8 { p[(y * width + x) * 4 + 3] }

    @Test("The glyph atlas is the default: a plain renderer draws text from FreeType coverage, with the backing store's ink")
    func atlasIsTheDefault() throws {
        #expect(CARenderer.Options().usesGlyphAtlas)
        let text = "Default path 0123"
        let size = GlyphAtlasTests.size
        let (pixels, r) = try Self.defaultRender(GlyphAtlasTests.root([GlyphAtlasTests.textLayer(text, fontSize: 20)]), size: size)
        #expect(r.builder.glyphAtlas.renderedGlyphs > 0)
        let bitmap = try GlyphAtlasTests.render(GlyphAtlasTests.root([GlyphAtlasTests.textLayer(text, fontSize: 20)]), glyphs: false)
        let a = GlyphAtlasTests.ink(pixels, width: Int(size.width)), b = GlyphAtlasTests.ink(bitmap.pixels, width: Int(size.width))
        #expect(b.sum > 0)
        #expect(abs(a.sum - b.sum) * 100 <= 3 * b.sum, "atlas \(a.sum), bitmap \(b.sum)")
        #expect(abs(a.box.0 - b.box.0) <= 1 && abs(a.box.2 - b.box.2) <= 1, "atlas \(a.box), bitmap \(b.box)")
    }

    @Test("Text above the atlas threshold is filled outlines through the shape pipeline: solid inside \"H\", empty between its stems")
    func largeTextAsPaths() throws {
        let size = CGSize(width: 400, height: 320)
        func scene() -> CALayer {
            GlyphAtlasTests.root([GlyphAtlasTests.textLayer("H", fontSize: 250, origin: CGPoint(x: 10, y: 10),
                                                            size: CGSize(width: 380, height: 300))], size: size)
        }
        #expect(250 > RenderTreeBuilder.glyphOutlinePixelSize)
        let (pixels, r) = try Self.defaultRender(scene(), size: size)
        #expect(r.builder.glyphOutlinesDrawn == 1)
        #expect(r.builder.glyphAtlas.renderedGlyphs == 0)
        let w = Int(size.width)
        let ink = GlyphAtlasTests.ink(pixels, width: w)
        let (x0, y0, x1, y1) = ink.box
        // "H": the crossbar crosses the middle of the glyph's box; above it, between the two
        // stems, there is no ink; the stems' middles are solid.
        #expect(Self.alpha(pixels, width: w, (x0 + x1) / 2, (y0 + y1) / 2) == 255)
        #expect(Self.alpha(pixels, width: w, (x0 + x1) / 2, y0 + (y1 - y0) / 6) == 0)
        #expect(Self.alpha(pixels, width: w, x0 + 8, y0 + (y1 - y0) / 6) == 255)
        #expect(Self.alpha(pixels, width: w, x1 - 8, y1 - (y1 - y0) / 6) == 255)
        // The same outline as the backing store fills: ink box within a pixel, ink within 1 %.
        let bitmap = try GlyphAtlasTests.render(scene(), glyphs: false, size: size)
        let b = GlyphAtlasTests.ink(bitmap.pixels, width: w)
        #expect(abs(ink.sum - b.sum) * 100 <= b.sum, "paths \(ink.sum), bitmap \(b.sum)")
        #expect(abs(x0 - b.box.0) <= 1 && abs(y0 - b.box.1) <= 1 && abs(x1 - b.box.2) <= 1 && abs(y1 - b.box.3) <= 1,
                "paths \(ink.box), bitmap \(b.box)")
    }

    @Test("Large text under a 3× transform scale stays crisp: outlines rasterised at the shown size, not a magnified bitmap")
    func largeTextCrispUnderTransformScale() throws {
        let size = CGSize(width: 420, height: 300)
        func scene() -> CALayer {
            let l = GlyphAtlasTests.textLayer("Hi", fontSize: 80, origin: CGPoint(x: 5, y: 0), size: CGSize(width: 130, height: 95))
            l.transform = CATransform3DMakeScale(3, 3, 1)
            return GlyphAtlasTests.root([l], size: size)
        }
        let (pixels, r) = try Self.defaultRender(scene(), size: size)
        #expect(r.builder.glyphOutlinesDrawn == 2)
        let bitmap = try GlyphAtlasTests.render(scene(), glyphs: false, size: size)
        func partial(_ p: [UInt8]) -> Int { stride(from: 3, to: p.count, by: 4).filter { p[$0] > 0 && p[$0] < 255 }.count }
        let pa = partial(pixels), pb = partial(bitmap.pixels)
        #expect(pa > 0 && pa * 2 < pb, "paths \(pa) partial pixels, magnified bitmap \(pb)")
    }

    @Test("No silent gap: stroked, underlined and double-underlined text falls back to the backing store and draws")
    func decorationsFallBackAndDraw() throws {
        let keyStroke = NSAttributedString.Key(kCTStrokeWidthAttributeName)
        let keyUnderline = NSAttributedString.Key(kCTUnderlineStyleAttributeName)
        let cases: [[NSAttributedString.Key: Any]] = [
            [keyStroke: 3.0], [keyStroke: -3.0],
            [keyUnderline: CTUnderlineStyle.single.rawValue], [keyUnderline: CTUnderlineStyle.double.rawValue],
        ]
        for attrs in cases {
            func scene() -> CALayer {
                let l = GlyphAtlasTests.textLayer("x", fontSize: 30)
                var a = attrs
                a[NSAttributedString.Key(kCTForegroundColorAttributeName)] = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
                l.string = NSAttributedString(string: "Deco", attributes: a)
                return GlyphAtlasTests.root([l])
            }
            let (on, r) = try Self.defaultRender(scene(), size: GlyphAtlasTests.size)
            let off = try GlyphAtlasTests.render(scene(), glyphs: false)
            #expect(r.builder.glyphAtlas.renderedGlyphs == 0, "\(attrs)")
            #expect(on == off.pixels, "\(attrs)")
            #expect(GlyphAtlasTests.ink(on, width: Int(GlyphAtlasTests.size.width)).sum > 0, "\(attrs)")
        }
    }

    @Test("Layout cache: an animated fontSize re-lays out per frame only the layers it animates")
    func animatedFontSizeReLaysOutOnlyWhatChanged() throws {
        let size = CGSize(width: 640, height: 400)
        var layers: [CATextLayer] = []
        for i in 0..<20 {
            layers.append(GlyphAtlasTests.textLayer("Label \(i)", fontSize: 14, origin: CGPoint(x: 10 + Double(i % 4) * 150, y: 10 + Double(i / 4) * 70),
                                                    size: CGSize(width: 140, height: 60)))
        }
        // The first commit lays each layer out once (its display; the renderer reuses it).
        func layouts() -> Int { layers.reduce(0) { $0 + $1.layoutCache.layoutsMade } }
        let root = GlyphAtlasTests.root(layers, size: size)
        #expect(layouts() == 20)
        let r = try CARenderer(offscreenSize: size, scale: 1, options: .init(backend: .openGL))
        r.layer = root
        for k in [3, 11] {
            let a = CABasicAnimation(keyPath: "fontSize")
            a.fromValue = 10; a.toValue = 40; a.duration = 100
            layers[k].add(a, forKey: "grow")
        }
        func frame(_ t: Double) throws -> Int {
            let before = layouts()
            r.beginFrame(atTime: t)   // commits the open transaction at the frame's time
            try r.renderChecked()
            r.endFrame()
            return layouts() - before
        }
        let start = try frame(0)
        #expect(start <= 2, "\(start)")
        for t in [1.0, 2.0, 3.0] {
            let n = try frame(t)
            #expect(n == 2, "frame at \(t): \(n) layouts")
        }
        // A new string on one still layer: that layer too, once.
        layers[0].string = "Changed"
        let changed = try frame(4), after = try frame(5)
        #expect(changed == 3 && after == 2, "\(changed), \(after)")
    }

    @Test("Layout cache: the same string, attributes and bounds give the cached lines; a changed width lays out again")
    func cacheKeys() throws {
        let l = GlyphAtlasTests.textLayer("Cache me", fontSize: 20)
        func made(_ body: () -> Void) -> Int { let n = l.layoutCache.layoutsMade; body(); return l.layoutCache.layoutsMade - n }
        var first: TextLayerLines?, second: TextLayerLines?
        #expect(made { first = l.textLayerLines() } == 1)
        #expect(made { second = l.textLayerLines() } == 0)
        #expect(first?.lines.first?.line === second?.lines.first?.line)
        l.bounds.size.width = 100
        #expect(made { _ = l.textLayerLines() } == 1)
        // A mutable attributed string may change in place: never cached.
        l.string = NSMutableAttributedString(string: "mutable")
        #expect(made { _ = l.textLayerLines(); _ = l.textLayerLines() } == 2)
    }
}
