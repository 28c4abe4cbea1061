import Testing
import Foundation

/// `font-variant: small-caps` and `font-kerning` in SVG text, with the suite's fonts
/// (`../shared/corpora/fonts`). Expected geometry from `hb-shape --show-extents` on those fonts
/// (HarfBuzz 6, the shaper Core Text uses here):
/// - Noto Sans (1000 units/em): "x" 529 wide, ink 0…536 high; with `smcp` it is "x.sc",
///   advance 497, ink x 1…496, 0…572 high; "X" ink 0…714 high.
/// - Noto Mono (2048 units/em) has no `smcp`: "X" advances 1229, ink x 53…1174, 0…1462 high.
/// - Noto Sans "AVA": advances 599 + 560 + 639 kerned, 639 + 600 + 639 with `kern` off; "A"
///   ink x 0…638.
@Suite(.enabled(if: SVGTextCorpusTests.fontsDir != nil, "test fonts not found (../shared/corpora/fonts)"))
struct SVGFontVariantTests {
    init() { TestFontConfiguration.install() }

    func close(_ a: CGFloat, _ b: Double, _ eps: Double = 0.05) -> Bool { abs(Double(a) - b) <= eps }

    func text(_ body: String, attributes: String) throws -> CGRect {
        inkBox(try svg(#"<text x="0" y="80" font-size="100" \#(attributes)>\#(body)</text>"#, viewBox: "0 0 300 100"))
    }

    @Test("small-caps uses the font's smcp glyphs (CSS Fonts 4 §6.10): Noto Sans \"x\" becomes x.sc, 57.2 high at 100 px, not 53.6")
    func smallCapsFromFont() throws {
        let plain = try text("x", attributes: #"font-family="Noto Sans""#)
        #expect(close(plain.minY, 80 - 53.6), "\(plain)")
        let sc = try text("x", attributes: #"font-family="Noto Sans" font-variant="small-caps""#)
        #expect(close(sc.minX, 0.1) && close(sc.maxX, 49.6), "\(sc)")
        #expect(close(sc.minY, 80 - 57.2) && close(sc.maxY, 80), "\(sc)")
        // A capital keeps its glyph: "X" is 71.4 high either way.
        let cap = try text("X", attributes: #"font-family="Noto Sans" font-variant="small-caps""#)
        #expect(close(cap.minY, 80 - 71.4), "\(cap)")
        // font-variant is inherited, and `inherit` takes the parent's (the suite's font-variant/inherit).
        let inherited = inkBox(try svg(#"<g font-variant="small-caps"><text x="0" y="80" font-family="Noto Sans" font-size="100" font-variant="inherit">x</text></g>"#, viewBox: "0 0 300 100"))
        #expect(close(inherited.minY, 80 - 57.2), "\(inherited)")
    }

    @Test("small-caps with a font without smcp is synthesised: Noto Mono \"xx\" at 100 px draws \"XX\" at 70 px")
    func smallCapsSynthesised() throws {
        let sc = try text("xx", attributes: #"font-family="Noto Mono" font-variant="small-caps""#)
        // At 70 px: X advances 1229 / 2048 × 70 = 42.01, ink 1.81…40.13, 49.97 high.
        let scale = 70.0 / 2048
        #expect(close(sc.minX, 53 * scale) && close(sc.maxX, 1229 * scale + 1174 * scale), "\(sc)")
        #expect(close(sc.minY, 80 - 1462 * scale) && close(sc.maxY, 80), "\(sc)")
        // The same outlines as capitals at 70 px.
        let capitals = inkBox(try svg(#"<text x="0" y="80" font-size="70" font-family="Noto Mono">XX</text>"#, viewBox: "0 0 300 100"))
        #expect(close(capitals.minX, Double(sc.minX)) && close(capitals.maxX, Double(sc.maxX)) && close(capitals.minY, Double(sc.minY)))
        // Capitals, digits and spaces stay at the full size: "X" is 1462 / 2048 × 100 = 71.4 high.
        let cap = try text("X", attributes: #"font-family="Noto Mono" font-variant="small-caps""#)
        #expect(close(cap.minY, 80 - 1462.0 / 20.48), "\(cap)")
    }

    @Test("Other font-variant values are reported and draw normal glyphs")
    func otherVariantsReported() throws {
        let doc = try svg(#"<text x="0" y="80" font-size="100" font-family="Noto Sans" style="font-variant: all-small-caps">x</text>"#, viewBox: "0 0 300 100")
        #expect(doc.issues.contains { $0.feature.hasPrefix("font-variant=all-small-caps") })
        #expect(close(inkBox(doc).minY, 80 - 53.6))
    }

    @Test("font-kerning is a CSS property without a presentation attribute (SVG 2 §6.6): font-kerning=\"none\" as an attribute keeps kerning, in style it turns it off")
    func kerningOnlyInStyle() throws {
        // Kerned "AVA" at 100 px: the last A starts at 59.9 + 56.0, its ink ends 63.8 further.
        let kerned = try text("AVA", attributes: #"font-family="Noto Sans""#)
        #expect(close(kerned.maxX, 115.9 + 63.8), "\(kerned)")
        let attribute = try text("AVA", attributes: #"font-family="Noto Sans" font-kerning="none""#)
        #expect(close(attribute.maxX, 115.9 + 63.8), "\(attribute)")
        // Without kerning: 63.9 + 60.0 + 63.8.
        let styled = try text("AVA", attributes: #"font-family="Noto Sans" style="font-kerning: none""#)
        #expect(close(styled.maxX, 123.9 + 63.8), "\(styled)")
    }

    /// Amiri (2048 units/em) at 204.8 px, one unit a tenth of a pixel: "ا" advances 446, its
    /// glyph box x 119…360; in an Arabic-script run the full stop is "period.ara", advance 650,
    /// box x 140…514. (Boxes from the glyf headers, which include off-curve points: the outline
    /// lies inside them.) The stop is a tspan of its own colour, so each glyph has its layer.
    @Test("The bidi paragraph's base direction is the text's direction (SVG 1.1 §10.7.4), left to right by default: a full stop after Arabic stays at the right end")
    func bidiBaseDirection() throws {
        func boxes(_ attributes: String) throws -> (alef: CGRect, stop: CGRect) {
            let doc = try svg(#"<text y="150" \#(attributes) font-family="Amiri" font-size="204.8">ا<tspan fill="red">.</tspan></text>"#, viewBox: "0 0 300 200")
            var alef = CGRect.null, stop = CGRect.null
            for l in shapeLayers(doc.layer) {
                guard let b = l.path?.boundingBoxOfPath else { continue }
                let o = rootPoint(b.origin, in: l, root: doc.layer), e = rootPoint(CGPoint(x: b.maxX, y: b.maxY), in: l, root: doc.layer)
                let r = CGRect(x: o.x, y: o.y, width: e.x - o.x, height: e.y - o.y)
                if rgba(l.fillColor) == [1, 0, 0, 1] { stop = stop.union(r) } else { alef = alef.union(r) }
            }
            return (alef, stop)
        }
        func inside(_ r: CGRect, _ lo: Double, _ hi: Double) -> Bool {
            !r.isNull && Double(r.minX) >= lo - 0.05 && Double(r.maxX) <= hi + 0.05 && r.width > 10
        }
        // Left to right: the alef from x = 0 (box 11.9 … 36.0), the stop after it at 44.6
        // (box 58.6 … 96.0). Right to left the stop would come first.
        let ltr = try boxes(#"x="0""#)
        #expect(inside(ltr.alef, 11.9, 36.0) && inside(ltr.stop, 58.6, 96.0), "\(ltr)")
        // direction="rtl": the stop left of the alef, and text-anchor start is the right edge:
        // the chunk (65.0 + 44.6 = 109.6 wide) ends at x = 150, so the stop's pen is at 40.4
        // (box 54.4 … 91.8) and the alef's at 105.4 (box 117.3 … 141.4).
        let rtl = try boxes(#"x="150" direction="rtl""#)
        #expect(inside(rtl.stop, 54.4, 91.8) && inside(rtl.alef, 117.3, 141.4), "\(rtl)")
    }

    /// Noto Sans's post table: underline position −100, thickness 50 (units/em 1000).
    @Test("text-decoration on a group propagates to the text inside (CSS Text Decoration 3 §2.1), painted with the text's paint")
    func decorationFromAncestor() throws {
        let doc = try svg(#"<g text-decoration="underline" fill="blue"><g><text x="0" y="80" font-family="Noto Sans" font-size="100" fill="red">H</text></g></g>"#, viewBox: "0 0 300 100")
        // The line under "H" (pen 0 … 74.1), centred 10 below the baseline, 5 thick.
        let box = inkBox(doc)
        #expect(close(box.minX, 0) && close(box.maxX, 74.1) && close(box.maxY, 92.5), "\(box)")
        #expect(shapeLayers(doc.layer).count == 2)
        #expect(shapeLayers(doc.layer).allSatisfy { rgba($0.fillColor) == [1, 0, 0, 1] })
    }

    /// M+ 1p (1000 units/em): "日" and "本" advance 1000 (vmtx 1000 too); HarfBuzz's vertical
    /// origin (`hb-shape --direction=ttb`) is (500, 860) for both; "日" ink x 150…850, y −77…773,
    /// "本" ink x 21…979, y −97…817.
    @Test("Ideographs stand upright in vertical text (SVG 1.1 §10.7.3): each em box hangs from the pen, centred on x")
    func uprightIdeographs() throws {
        let box = inkBox(try svg(#"<text x="100" y="0" writing-mode="tb" font-family="Mplus 1p" font-size="100">日本</text>"#, viewBox: "0 0 200 200"))
        // 日: origin (50, 86); 本: origin (50, 186).
        #expect(close(box.minX, 52.1) && close(box.maxX, 147.9), "\(box)")
        #expect(close(box.minY, 86 - 77.3) && close(box.maxY, 186 + 9.7), "\(box)")
    }
}
