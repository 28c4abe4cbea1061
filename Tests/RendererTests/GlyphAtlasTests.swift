import Testing
import Foundation
import CATestSupport
import CARender

/// The glyph atlas (issue 20 "Rendering", `CARenderer.Options.usesGlyphAtlas`): a
/// `CATextLayer`'s glyphs drawn as quads sampling FreeType coverage at the pixel size the frame
/// shows. The expected values come from FreeType itself (`FontFace.coverage`, the same
/// renderer `ftgrid`/`ftview` use) and from the backing-store path the option replaces.
/// The test fonts, installed as the configuration every suite uses (`TestFontConfiguration`).
let glyphTestFonts: URL? = TestFontConfiguration.install()

@Suite(.enabled(if: glyphTestFonts != nil, "test fonts not found (../shared/corpora/fonts)"))
struct GlyphAtlasTests {
    static let size = CGSize(width: 240, height: 120)

    static func textLayer(_ string: String, fontSize: CGFloat = 40, origin: CGPoint = CGPoint(x: 10, y: 10),
                          size: CGSize = CGSize(width: 220, height: 100)) -> CATextLayer {
        _ = glyphTestFonts
        let l = CATextLayer()
        l.anchorPoint = .zero
        l.position = origin
        l.bounds = CGRect(origin: .zero, size: size)
        l.font = "NotoSans-Regular" as NSString
        l.fontSize = fontSize
        l.foregroundColor = CGColor(red: 1, green: 1, blue: 1, alpha: 1)
        l.string = string
        return l
    }

    static func root(_ sublayers: [CALayer], size: CGSize = GlyphAtlasTests.size) -> CALayer {
        let root = CALayer()
        root.anchorPoint = .zero
        root.bounds = CGRect(origin: .zero, size: size)
        for l in sublayers { root.addSublayer(l) }
        CATransaction.flush()
        return root
    }

    static func render(_ root: CALayer, glyphs: Bool, backend: CARenderer.Backend = .openGL,
                       size: CGSize = GlyphAtlasTests.size, frames: Int = 1) throws -> (pixels: [UInt8], stats: RenderStats, renderer: CARenderer) {
        var o = CARenderer.Options(backend: .openGL)
        o.usesGlyphAtlas = glyphs
        o.backend = backend
        let r = try CARenderer(offscreenSize: size, scale: 1, options: o)
        r.layer = root
        for f in 0..<frames {
            r.beginFrame(atTime: Double(f))
            try r.renderChecked()
            r.endFrame()
        }
        return (try r.makeImage().rgba8Bytes, r.statistics, r)
    }

    /// Alpha sum and ink bounding box (pixels with alpha > 0) of an RGBA8 image.
    static func ink(_ p: [UInt8], width: Int) -> (sum: Int, box: (Int, Int, Int, Int)) {
        var sum = 0, x0 = Int.max, y0 = Int.max, x1 = -1, y1 = -1
        for i in stride(from: 0, to: p.count, by: 4) where p[i + 3] > 0 {
            sum += Int(p[i + 3])
            let x = (i / 4) % width, y = (i / 4) / width
            x0 = min(x0, x); y0 = min(y0, y); x1 = max(x1, x); y1 = max(y1, y)
        }
        return (sum, (x0, y0, x1, y1))
    }

    @Test("One glyph at a whole-pixel pen: the frame's coverage is FreeType's bitmap, texel for texel")
    func coverageIsFreeTypes() throws {
        // "H" at 50 px: the pen sits at x = 10 (layer x 10 + glyph x 0), the baseline at
        // 10 + round(ascent 1.069 × 50 = 53.45) — whole pixels, so sub-pixel step 0.
        let l = Self.textLayer("H", fontSize: 50)
        let (pixels, _, _) = try Self.render(Self.root([l]), glyphs: true)
        let font = CTFontCreateWithName("NotoSans-Regular" as CFString, 50, nil)
        let glyph = font.face.glyph(for: 0x48)
        let cov = try #require(font.face.coverage(of: glyph, pixelSize: 50, subpixelX: 0))
        let w = Int(Self.size.width)
        let (sum, box) = Self.ink(pixels, width: w)
        #expect(sum == cov.coverage.reduce(0) { $0 + Int($1) })
        // The bitmap's left edge lies `left` px right of the pen (x = 10).
        var leftmost = Int.max
        for y in 0..<cov.height { for x in 0..<cov.width where cov.coverage[y * cov.width + x] > 0 { leftmost = min(leftmost, x) } }
        #expect(box.0 == 10 + cov.left + leftmost)
        #expect(box.3 - box.1 + 1 <= cov.height)
    }

    @Test("A line of text: same ink place and coverage as the backing store (within antialiasing rounding)")
    func matchesBackingStore() throws {
        let text = "Hamburgefonstiv 0123"
        let atlas = try Self.render(Self.root([Self.textLayer(text, fontSize: 20)]), glyphs: true)
        let bitmap = try Self.render(Self.root([Self.textLayer(text, fontSize: 20)]), glyphs: false)
        let w = Int(Self.size.width)
        let a = Self.ink(atlas.pixels, width: w), b = Self.ink(bitmap.pixels, width: w)
        #expect(b.sum > 0)
        // Coverage sums (total ink) within 3 %: both are exact-area coverage of the same
        // outlines; pen positions differ by the atlas's quarter-pixel quantisation.
        #expect(abs(a.sum - b.sum) * 100 <= 3 * b.sum, "atlas \(a.sum), bitmap \(b.sum)")
        #expect(abs(a.box.0 - b.box.0) <= 1 && abs(a.box.1 - b.box.1) <= 1 && abs(a.box.2 - b.box.2) <= 1 && abs(a.box.3 - b.box.3) <= 1,
                "atlas \(a.box), bitmap \(b.box)")
    }

    @Test("Emoji (a flag ligature, a ZWJ sequence; Noto Emoji's outlines by fallback) draw from the atlas as from the backing store")
    func emojiFallback() throws {
        // hb-shape NotoEmoji-Regular "🇫🇷" → one glyph (749, advance 2600/2048 em); the family
        // sequence → three emoji and two zero-width joiner glyphs.
        let text = "a🇫🇷 👨\u{200D}👩\u{200D}👧"
        let atlas = try Self.render(Self.root([Self.textLayer(text, fontSize: 24)]), glyphs: true)
        let bitmap = try Self.render(Self.root([Self.textLayer(text, fontSize: 24)]), glyphs: false)
        let w = Int(Self.size.width)
        let a = Self.ink(atlas.pixels, width: w), b = Self.ink(bitmap.pixels, width: w)
        #expect(b.sum > 0)
        #expect(abs(a.sum - b.sum) * 100 <= 3 * b.sum, "atlas \(a.sum), bitmap \(b.sum)")
        #expect(abs(a.box.2 - b.box.2) <= 1, "right ink edge: atlas \(a.box), bitmap \(b.box)")
    }

    @Test("10,000 glyphs are a handful of draw calls, and an unchanged frame renders no glyph again")
    func manyGlyphsFewDraws() throws {
        let big = CGSize(width: 1920, height: 1080)
        let words = ["Core", "Animation", "glyph", "atlas", "quads", "text", "frame", "layer"]
        var s = ""
        var k = 0
        while s.count < 12_000 { s += words[k % words.count] + " "; k += 1 }
        let l = Self.textLayer(s, fontSize: 14, origin: .zero, size: big)
        l.isWrapped = true
        let root = Self.root([l], size: big)
        let (pixels, stats, r) = try Self.render(root, glyphs: true, size: big)
        #expect(stats.drawCalls <= 4, "\(stats.drawCalls) draw calls")
        #expect(stats.instances >= 9_000, "\(stats.instances) instances")
        #expect(Self.ink(pixels, width: 1920).sum > 0)
        // Distinct glyphs × sub-pixel steps, not glyphs drawn.
        let rendered = r.builder.glyphAtlas.renderedGlyphs
        #expect(rendered < 30 * GlyphAtlas.subpixelSteps)
        l.string = s + "!"
        CATransaction.flush()
        r.beginFrame(atTime: 5)
        try r.renderChecked()
        r.endFrame()
        #expect(r.builder.glyphAtlas.renderedGlyphs <= rendered + GlyphAtlas.subpixelSteps)
    }

    @Test("Crisp under a 4× transform scale with contentsScale 1: glyphs are rendered at the shown size")
    func crispAtTransformScale() throws {
        func scene() -> CALayer {
            let l = Self.textLayer("Hi", fontSize: 12, origin: CGPoint(x: 8, y: 4), size: CGSize(width: 50, height: 25))
            l.transform = CATransform3DMakeScale(4, 4, 1)
            l.anchorPoint = .zero
            return Self.root([l])
        }
        let atlas = try Self.render(scene(), glyphs: true), bitmap = try Self.render(scene(), glyphs: false)
        // Partly covered pixels: a magnified 1× bitmap smears each edge over ~4 pixels; glyphs
        // rendered at 48 px have one antialiased pixel per edge.
        func partial(_ p: [UInt8]) -> Int { stride(from: 3, to: p.count, by: 4).filter { p[$0] > 0 && p[$0] < 255 }.count }
        let pa = partial(atlas.pixels), pb = partial(bitmap.pixels)
        #expect(pa > 0 && pa * 2 < pb, "atlas \(pa) partial pixels, bitmap \(pb)")
    }

    @Test("What the atlas cannot draw keeps the backing store: a subclass, an underline, a user's contents")
    func fallsBackToBackingStore() throws {
        final class Sub: CATextLayer {}
        func scene(_ make: () -> CATextLayer) -> CALayer { Self.root([make()]) }
        let sub = { () -> CATextLayer in
            let l = Sub(); l.anchorPoint = .zero; l.position = CGPoint(x: 10, y: 10)
            l.bounds = CGRect(x: 0, y: 0, width: 200, height: 80)
            l.font = "NotoSans-Regular" as NSString; l.fontSize = 30; l.string = "Sub"; return l
        }
        let underlined = { () -> CATextLayer in
            let l = Self.textLayer("x", fontSize: 30)
            l.string = NSAttributedString(string: "Under", attributes: [NSAttributedString.Key(kCTUnderlineStyleAttributeName): CTUnderlineStyle.single.rawValue])
            return l
        }
        for make in [sub, underlined] {
            let on = try Self.render(scene(make), glyphs: true), off = try Self.render(scene(make), glyphs: false)
            #expect(on.pixels == off.pixels)
            #expect(Self.ink(on.pixels, width: Int(Self.size.width)).sum > 0)
        }
    }

    @Test("The CPU backend draws the glyph quads as GL does (BackendParity's bar)")
    func backendParity() throws {
        let gl = try Self.render(Self.root([Self.textLayer("Parity ÅÉ 42", fontSize: 24)]), glyphs: true)
        let cpu = try Self.render(Self.root([Self.textLayer("Parity ÅÉ 42", fontSize: 24)]), glyphs: true, backend: .software)
        var worst = 0, off = 0
        for i in gl.pixels.indices {
            let d = abs(Int(gl.pixels[i]) - Int(cpu.pixels[i]))
            worst = max(worst, d)
            if d > 2 { off += 1 }
        }
        #expect(off * 200 <= gl.pixels.count / 4, "\(off) channels over 2/255, worst \(worst)")
        #expect(Self.ink(cpu.pixels, width: Int(Self.size.width)).sum > 0)
    }

    @Test("fontSize animating: every frame is drawn at the interpolated size from the atlas")
    func animatedFontSize() throws {
        let l = Self.textLayer("Grow", fontSize: 10)
        let root = Self.root([l])
        var o = CARenderer.Options(backend: .openGL)
        o.usesGlyphAtlas = true
        let r = try CARenderer(offscreenSize: Self.size, scale: 1, options: o)
        r.layer = root
        let a = CABasicAnimation(keyPath: "fontSize")
        a.fromValue = 10; a.toValue = 40; a.duration = 1
        l.add(a, forKey: "grow")
        var widths: [Int] = []
        for t in [0.0, 0.4, 0.8] {
            r.beginFrame(atTime: t)
            try r.renderChecked()
            r.endFrame()
            let box = Self.ink(try r.makeImage().rgba8Bytes, width: Int(Self.size.width)).box
            widths.append(box.2 - box.0 + 1)
        }
        #expect(widths[0] < widths[1] && widths[1] < widths[2], "\(widths)")
    }
}
