import Testing
import Foundation

/// SVG `<text>` (SVG 1.1 §10) drawn as glyph outlines in shape layers, with the suite's fonts
/// (`../shared/corpora/fonts`). Expected geometry from Noto Sans (hb-shape --show-extents):
/// "H" advances 741 units, ink x 97…643, y 0…714; "a" advances 561; a space 260.
@Suite(.enabled(if: SVGTextCorpusTests.fontsDir != nil, "test fonts not found (../shared/corpora/fonts)"))
struct SVGTextTests {
    init() { TestFontConfiguration.install() }

    func close(_ a: CGFloat, _ b: Double, _ eps: Double = 0.05) -> Bool { abs(Double(a) - b) <= eps }

    @Test("A glyph's outline sits on the baseline at (x, y): \"H\" at 100 px spans x + 9.7…64.3, y − 71.4…y")
    func glyphOutlinePlacement() throws {
        let doc = try svg(#"<text x="10" y="80" font-family="Noto Sans" font-size="100" fill="red">H</text>"#, viewBox: "0 0 200 100")
        let box = inkBox(doc)
        #expect(close(box.minX, 19.7) && close(box.maxX, 74.3), "\(box)")
        #expect(close(box.minY, 8.6) && close(box.maxY, 80), "\(box)")
        #expect(shapeLayers(doc.layer).allSatisfy { rgba($0.fillColor) == [1, 0, 0, 1] })
    }

    @Test("text-anchor end and middle shift the chunk by its advance (74.1 px for \"H\" at 100 px)")
    func textAnchor() throws {
        let end = inkBox(try svg(#"<text x="100" y="80" font-family="Noto Sans" font-size="100" text-anchor="end">H</text>"#, viewBox: "0 0 200 100"))
        #expect(close(end.minX, 100 - 74.1 + 9.7) && close(end.maxX, 100 - 74.1 + 64.3), "\(end)")
        let middle = inkBox(try svg(#"<text x="100" y="80" font-family="Noto Sans" font-size="100" text-anchor="middle">H</text>"#, viewBox: "0 0 200 100"))
        #expect(close(middle.minX, 100 - 37.05 + 9.7), "\(middle)")
    }

    @Test("White space collapses (xml:space default); dx, letter-spacing and a tspan's x position characters")
    func positions() throws {
        // "  H   H " → "H H": the second H starts at 74.1 + 26 = 100.1 (advance + space at 100 px).
        let collapsed = inkBox(try svg(#"<text x="0" y="80" font-family="Noto Sans" font-size="100">  H   H </text>"#, viewBox: "0 0 300 100"))
        #expect(close(collapsed.maxX, 100.1 + 64.3), "\(collapsed)")
        // dx on the second character moves it and what follows; letter-spacing adds after each.
        let dx = inkBox(try svg(#"<text x="0" y="80" dx="0 10" font-family="Noto Sans" font-size="100">HH</text>"#, viewBox: "0 0 300 100"))
        #expect(close(dx.maxX, 74.1 + 10 + 64.3), "\(dx)")
        let spaced = inkBox(try svg(#"<text x="0" y="80" letter-spacing="5" font-family="Noto Sans" font-size="100">HH</text>"#, viewBox: "0 0 300 100"))
        #expect(close(spaced.maxX, 74.1 + 5 + 64.3), "\(spaced)")
        let tspan = inkBox(try svg(#"<text x="0" y="80" font-family="Noto Sans" font-size="100">H<tspan x="150">H</tspan></text>"#, viewBox: "0 0 300 100"))
        #expect(close(tspan.maxX, 150 + 64.3), "\(tspan)")
    }

    @Test("Vertical writing-mode and textLength over several chunks are reported once, not silently ignored; empty text draws nothing")
    func reported() throws {
        let doc = try svg(#"<text x="10" y="50" writing-mode="tb" font-family="Noto Sans">Hi</text><text x="1" y="1">   </text><text x="10" y="90" textLength="80">A<tspan x="50">B</tspan></text>"#)
        let features = Set(doc.issues.map(\.feature))
        #expect(features.contains("writing-mode=tb") && features.contains("textLength"))
        // "Hi"; "A" and the tspan's "B" (a style of its own): the blank text adds nothing.
        #expect(shapeLayers(doc.layer).count == 3)
    }

    /// The text's underline follows a tspan's shifted baseline (as the resvg suite's
    /// alignment-baseline/hanging-with-underline reference draws it): with the tspan 20 units
    /// lower, the underline's outline spans 20 more vertically than the unshifted one's.
    @Test("An underline follows a tspan's baseline-shift: two pieces 20 units apart")
    func underlineFollowsBaselineShift() throws {
        func underlineBox(_ shift: String) throws -> CGRect {
            let doc = try svg(#"<text x="0" y="50" text-decoration="underline" font-family="Noto Sans" font-size="20">Ab<tspan baseline-shift="\#(shift)">cd</tspan></text>"#)
            return try #require(shapeLayers(doc.layer).first?.path).boundingBoxOfPath
        }
        let plain = try underlineBox("0"), shifted = try underlineBox("-20")
        #expect(plain.height > 0 && plain.height < 3, "\(plain)")
        #expect(close(shifted.height, Double(plain.height) + 20), "\(shifted) vs \(plain)")
    }

    /// SVG 1.1 §10.5 textLength / lengthAdjust: "HH" at 100 px is 148.2 wide; at 200, `spacing`
    /// puts the 51.8 difference in the one gap, `spacingAndGlyphs` scales by 200 / 148.2.
    @Test("textLength stretches a text: spacing widens the gaps, spacingAndGlyphs scales glyphs; one character stays put")
    func textLength() throws {
        let spacing = inkBox(try svg(#"<text x="0" y="80" textLength="200" font-family="Noto Sans" font-size="100">HH</text>"#, viewBox: "0 0 300 100"))
        #expect(close(spacing.minX, 9.7) && close(spacing.maxX, 74.1 + 51.8 + 64.3), "\(spacing)")
        let glyphs = inkBox(try svg(#"<text x="0" y="80" textLength="200" lengthAdjust="spacingAndGlyphs" font-family="Noto Sans" font-size="100">HH</text>"#, viewBox: "0 0 300 100"))
        #expect(close(glyphs.minX, 9.7 * 200 / 148.2) && close(glyphs.maxX, 138.4 * 200 / 148.2), "\(glyphs)")
        // text-anchor end places the stretched length, not the natural one, before x.
        let end = inkBox(try svg(#"<text x="200" y="80" textLength="200" text-anchor="end" font-family="Noto Sans" font-size="100">HH</text>"#, viewBox: "0 0 300 100"))
        #expect(close(end.minX, 9.7), "\(end)")
        let single = inkBox(try svg(#"<text x="0" y="80" textLength="200" font-family="Noto Sans" font-size="100">H</text>"#, viewBox: "0 0 300 100"))
        #expect(close(single.maxX, 64.3), "\(single)")
    }
}
