import Testing
import Foundation
import CARender

/// Colour emoji (issue 20 "Rendering": "colour emoji in an RGBA atlas"; "Must show": emoji, ZWJ
/// sequences and flags). A bitmap-only colour font's strike is loaded by FreeType
/// (`FT_LOAD_COLOR`), scaled to the size shown and drawn in its own colours by every path: the
/// glyph atlas on GL and on the CPU backend, and the backing store (`usesGlyphAtlas` off, as
/// `CA_GLYPH_ATLAS=0`). As on Apple platforms the text colour does not tint a colour glyph.
///
/// Expected colours are read off the fonts' own bitmaps: `ColorBitmapTest.ttf`
/// (tools/fonts/make-color-test-font.py: a 32 ppem sbix strike, left half opaque red, right half
/// opaque blue) and Noto Color Emoji's 😀 (a yellow face: about (250, 205…225, 45) on its
/// forehead) and 🇫🇷 (blue (0, 45, 155), white, red (235, 35, 50) thirds), checked with
/// fontTools on the font file. Noto Color Emoji is what tools/install-deps.sh installs
/// (fonts-noto-color-emoji); its tests are skipped, with that note, where it is absent.
@Suite(.serialized, .enabled(if: glyphTestFonts != nil, "test fonts not found (../shared/corpora/fonts)"))
struct ColorEmojiTests {
    static let notoColorEmoji = "/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf"
    static var hasNotoColorEmoji: Bool { FileManager.default.fileExists(atPath: notoColorEmoji) }
    static let testFontURL = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fonts/ColorBitmapTest.ttf")

    static func cgFont(_ path: String) throws -> CGFont {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        return try #require(CGFont(CGDataProvider(data: data as CFData)!))
    }

    /// A text layer at (10, 10) in `font`, its text colour blue: a tinted colour glyph would
    /// lose its red and green.
    static func layer(_ string: String, font: CGFont, size: CGFloat) -> CATextLayer {
        let l = GlyphAtlasTests.textLayer(string, fontSize: size)
        l.font = font
        l.foregroundColor = CGColor(red: 0, green: 0, blue: 1, alpha: 1)
        return l
    }

    /// The three paths that draw text: the glyph atlas on GL and on the CPU backend, and the
    /// layer's backing store (the atlas turned off).
    static let paths: [(name: String, atlas: Bool, backend: CARenderer.Backend)] =
        [("atlas GL", true, .openGL), ("atlas CPU", true, .software), ("backing store", false, .openGL)]

    static func pixel(_ p: [UInt8], _ x: Int, _ y: Int, width: Int = Int(GlyphAtlasTests.size.width)) -> (r: Int, g: Int, b: Int, a: Int) {
        let i = (y * width + x) * 4
        return (Int(p[i]), Int(p[i + 1]), Int(p[i + 2]), Int(p[i + 3]))
    }

    @Test("A bitmap-only colour font loads as a colour face, its strikes listed (no longer refused)")
    func colourFaceLoads() throws {
        let data = try Data(contentsOf: Self.testFontURL)
        let face = try #require(FontFace(data: data, sourceName: "ColorBitmapTest.ttf"))
        #expect(face.isColorBitmap)
        #expect(face.colorStrikes == [32])
        let g = face.glyph(for: 0x1F600)
        #expect(g != 0)
        // At its strike's size the bitmap is the strike, pixel for pixel: 32×32, on the baseline.
        let bm = try #require(face.colorGlyph(g, pixelSize: 32))
        #expect(bm.width == 32 && bm.height == 32 && bm.left == 0 && bm.top == 32)
        #expect(Array(bm.rgba[0..<4]) == [255, 0, 0, 255])
        #expect(Array(bm.rgba[(31 * 32 + 31) * 4..<(31 * 32 + 32) * 4]) == [0, 0, 255, 255])
        // Half the size: 16×16 by area averaging, the halves still pure (each output pixel
        // covers 2×2 pixels of one half).
        let half = try #require(face.colorGlyph(g, pixelSize: 16))
        #expect(half.width == 16 && half.height == 16 && half.top == 16)
        #expect(Array(half.rgba[0..<4]) == [255, 0, 0, 255])
        #expect(Array(half.rgba[15 * 4..<16 * 4]) == [0, 0, 255, 255])
        // Bad sizes: nil, no crash.
        for s in [0.0, -5, .nan, .infinity, 1e9] { #expect(face.colorGlyph(g, pixelSize: s) == nil) }
    }

    @Test("The colour test font's emoji in its own colours (red left half, blue right half), text colour not applied, on every path",
          arguments: [0, 1, 2])
    func testFontInItsColours(path: Int) throws {
        let (name, atlas, backend) = Self.paths[path]
        let font = try Self.cgFont(Self.testFontURL.path)
        let (pixels, _, _) = try GlyphAtlasTests.render(GlyphAtlasTests.root([Self.layer("\u{1F600}", font: font, size: 32)]),
                                                        glyphs: atlas, backend: backend)
        let ink = GlyphAtlasTests.ink(pixels, width: Int(GlyphAtlasTests.size.width))
        let (x0, y0, x1, y1) = ink.box
        // The 32 px strike at 32 px: 32 px wide (one more column where the backing store's pen
        // falls between pixels). It stands 32 px on the baseline (10 + ascent 0.8 × 32 = 35.6),
        // above the font's 25.6 px ascent, so the layer's top edge (y = 10) cuts it, as the
        // backing store's bounds do: rows 10…35.
        #expect((32...33).contains(x1 - x0 + 1) && y0 == 10 && (35...36).contains(y1), "\(name): \(ink.box)")
        let midY = (y0 + y1) / 2
        for x in [x0 + 3, x0 + 12] {
            let p = Self.pixel(pixels, x, midY)
            #expect(p == (255, 0, 0, 255), "\(name) left half at \(x): \(p)")
        }
        for x in [x1 - 12, x1 - 3] {
            let p = Self.pixel(pixels, x, midY)
            #expect(p == (0, 0, 255, 255), "\(name) right half at \(x): \(p)")
        }
    }

    @Test("A translucent text colour fades a colour glyph by its alpha only (foreground (0, 1, 0, 0.5))")
    func alphaOnly() throws {
        let font = try Self.cgFont(Self.testFontURL.path)
        let l = Self.layer("\u{1F600}", font: font, size: 32)
        l.foregroundColor = CGColor(red: 0, green: 1, blue: 0, alpha: 0.5)
        let (pixels, _, _) = try GlyphAtlasTests.render(GlyphAtlasTests.root([l]), glyphs: true)
        let (x0, y0, x1, y1) = GlyphAtlasTests.ink(pixels, width: Int(GlyphAtlasTests.size.width)).box
        let p = Self.pixel(pixels, x0 + 5, (y0 + y1) / 2)
        // Premultiplied red at half alpha: (127 or 128, 0, 0, same).
        #expect((127...128).contains(p.r) && p.g == 0 && p.b == 0 && p.a == p.r, "\(p)")
        _ = x1
    }

    @Test("😀 from Noto Color Emoji in its yellow (hand-checked channel ratios on the forehead), on every path", arguments: [0, 1, 2])
    func grinningFaceIsYellow(path: Int) throws {
        guard Self.hasNotoColorEmoji else {
            print("ColorEmojiTests: \(Self.notoColorEmoji) absent (tools/install-deps.sh installs fonts-noto-color-emoji): skipped")
            return
        }
        let (name, atlas, backend) = Self.paths[path]
        let font = try Self.cgFont(Self.notoColorEmoji)
        let (pixels, _, _) = try GlyphAtlasTests.render(GlyphAtlasTests.root([Self.layer("\u{1F600}", font: font, size: 64)]),
                                                        glyphs: atlas, backend: backend)
        let (x0, y0, x1, y1) = GlyphAtlasTests.ink(pixels, width: Int(GlyphAtlasTests.size.width)).box
        // The strike's ink (alpha > 0: columns 9…125, rows 7…118 of 136×128 at 109 ppem) scaled
        // to 64 px: 117 × 64/109 ≈ 69 by 112 × 64/109 ≈ 66, plus the resampled fringe.
        #expect(abs((x1 - x0 + 1) - 69) <= 2 && abs((y1 - y0 + 1) - 66) <= 2, "\(name): \((x0, y0, x1, y1))")
        // The forehead: centre column, a fifth down (the bitmap's (68, 25): (251, 212, 46)).
        let fx = (x0 + x1) / 2, fy = y0 + (y1 - y0) / 5
        for (x, y) in [(fx, fy), (fx - 3, fy), (fx + 3, fy + 2)] {
            let p = Self.pixel(pixels, x, y)
            let r = Double(p.r), g = Double(p.g), b = Double(p.b)
            #expect(p.a == 255 && r >= 235 && g / r > 0.75 && g / r < 0.95 && b / r < 0.3, "\(name) at (\(x), \(y)): \(p)")
        }
    }

    @Test("🇫🇷 shapes to one glyph through HarfBuzz and draws blue, white and red thirds; 👨‍👩‍👧 is one glyph too")
    func flagAndZWJSequence() throws {
        guard Self.hasNotoColorEmoji else {
            print("ColorEmojiTests: \(Self.notoColorEmoji) absent (tools/install-deps.sh installs fonts-noto-color-emoji): skipped")
            return
        }
        let font = try Self.cgFont(Self.notoColorEmoji)
        let ctFont = CTFontCreateWithGraphicsFont(font, 64, nil, nil)
        for (s, scalars) in [("\u{1F1EB}\u{1F1F7}", 2), ("\u{1F468}\u{200D}\u{1F469}\u{200D}\u{1F467}", 5)] {
            let str = NSAttributedString(string: s, attributes: [NSAttributedString.Key(kCTFontAttributeName as String): ctFont])
            let line = CTLineCreateWithAttributedString(str)
            #expect(s.unicodeScalars.count == scalars)
            #expect(CTLineGetGlyphCount(line) == 1, "\(s): \(CTLineGetGlyphCount(line)) glyphs")
        }
        for (name, atlas, backend) in Self.paths {
            let (pixels, _, _) = try GlyphAtlasTests.render(GlyphAtlasTests.root([Self.layer("\u{1F1EB}\u{1F1F7}", font: font, size: 64)]),
                                                            glyphs: atlas, backend: backend)
            let (x0, y0, x1, y1) = GlyphAtlasTests.ink(pixels, width: Int(GlyphAtlasTests.size.width)).box
            let w = x1 - x0 + 1, midY = (y0 + y1) / 2
            let blue = Self.pixel(pixels, x0 + w / 6, midY), white = Self.pixel(pixels, x0 + w / 2, midY),
                red = Self.pixel(pixels, x0 + 5 * w / 6, midY)
            #expect(blue.b >= 120 && blue.r <= 40 && blue.g <= 80, "\(name) blue: \(blue)")
            #expect(white.r >= 225 && white.g >= 225 && white.b >= 225, "\(name) white: \(white)")
            #expect(red.r >= 200 && red.g <= 70 && red.b <= 80, "\(name) red: \(red)")
        }
    }

    @Test("fontconfig fallback picks the installed colour emoji font for emoji (a registry of its own, the system's configuration)")
    func fallbackPicksColourFont() throws {
        guard Self.hasNotoColorEmoji else {
            print("ColorEmojiTests: \(Self.notoColorEmoji) absent (tools/install-deps.sh installs fonts-noto-color-emoji): skipped")
            return
        }
        let registry = FontRegistry()
        registry.useFontDirectories([URL(fileURLWithPath: Self.notoColorEmoji).deletingLastPathComponent(), glyphTestFonts!])
        let face = try #require(registry.colorEmojiFace(for: 0x1F600))
        #expect(face.isColorBitmap && face.familyName == "Noto Color Emoji")
        #expect(registry.colorEmojiFace(for: 0x1F1EB) === face)
        // A character no colour font has: nil (the ordinary fallback takes it).
        #expect(registry.colorEmojiFace(for: 0x41) == nil)
    }

    @Test("No colour emoji font: the outline fallback (Noto Emoji) draws the emoji, with one warning naming the gap")
    func missingColourFontFallsBackToOutlines() throws {
        // The tests' configuration holds only ../shared/corpora/fonts: no colour font there.
        let str = NSAttributedString(string: "a\u{1F600}b\u{1F603}\u{1F604}",
                                     attributes: [NSAttributedString.Key(kCTFontAttributeName as String): CTFontCreateWithName("NotoSans-Regular" as CFString, 30, nil)])
        let (line, warnings) = TextDiagnostics.capture { CTLineCreateWithAttributedString(str) }
        let gaps = warnings.filter { $0.contains("no colour emoji font") }
        #expect(gaps.count == 1, "\(warnings)")
        let runs = CTLineGetGlyphRuns(line) as! [CTRun]
        let emojiFaces = runs.map(\.font.face).filter { $0.hasGlyph(for: 0x1F600) }
        #expect(!emojiFaces.isEmpty && emojiFaces.allSatisfy { !$0.isColorBitmap && $0.familyName == "Noto Emoji" }, "\(runs.map(\.font.face.familyName))")
        // And it draws (in the text colour: an outline glyph).
        let (pixels, _) = try TextDefaultPathTests.defaultRender(GlyphAtlasTests.root([GlyphAtlasTests.textLayer("\u{1F600}", fontSize: 40)]),
                                                                 size: GlyphAtlasTests.size)
        #expect(GlyphAtlasTests.ink(pixels, width: Int(GlyphAtlasTests.size.width)).sum > 0)
    }

    @Test("A colour glyph larger than the atlas's largest colour size is its cell magnified, not dropped (200 px per em)")
    func largeColourGlyphIsMagnified() throws {
        let font = try Self.cgFont(Self.testFontURL.path)
        let size = CGSize(width: 260, height: 260)
        let l = Self.layer("\u{1F600}", font: font, size: 200)
        l.bounds.size = CGSize(width: 240, height: 240)
        let (pixels, _, _) = try GlyphAtlasTests.render(GlyphAtlasTests.root([l], size: size), glyphs: true, size: size)
        let (x0, y0, x1, y1) = GlyphAtlasTests.ink(pixels, width: Int(size.width)).box
        // 32 px strike at 200 px: 200 px wide (cell made at 192 px, magnified by 200/192); its
        // top cut by the layer's top edge (y = 10) 160 px (the ascent) above the baseline.
        #expect(abs((x1 - x0 + 1) - 200) <= 3 && y0 == 10 && abs(y1 - 169) <= 2, "\((x0, y0, x1, y1))")
        let mid = (y0 + y1) / 2
        #expect(Self.pixel(pixels, x0 + 20, mid, width: 260) == (255, 0, 0, 255))
        #expect(Self.pixel(pixels, x1 - 20, mid, width: 260) == (0, 0, 255, 255))
    }
}
