import Testing
import Foundation

/// `<textPath>` (SVG 1.1 §10.13): each glyph's middle on the path, turned with the tangent there,
/// with the suite's fonts. Noto Sans "H" (hb-shape --show-extents): advance 741 units, ink x
/// 97…643, y 0…714. Distances along the path are exact arc lengths (docs/SVG.md "Text").
@Suite(.enabled(if: SVGTextCorpusTests.fontsDir != nil, "test fonts not found (../shared/corpora/fonts)"))
struct SVGTextPathTests {
    init() { TestFontConfiguration.install() }

    @Test("On a straight horizontal path a glyph sits exactly where plain text with x = startOffset puts it (arc length, SVG 1.1 §10.13.2)")
    func straightPathMatchesPlainText() throws {
        let plain = inkBox(try svg(#"<text x="20" y="80" font-family="Noto Sans" font-size="100">H</text>"#, viewBox: "0 0 300 100"))
        let onPath = inkBox(try svg(#"""
            <defs><path id="p" d="M 0 80 L 300 80"/></defs>
            <text font-family="Noto Sans" font-size="100"><textPath href="#p" startOffset="20">H</textPath></text>
            """#, viewBox: "0 0 300 100"))
        // Plain: x + 9.7 … x + 64.3, y − 71.4 … y.
        #expect(abs(plain.minX - 29.7) < 0.05 && abs(plain.maxX - 84.3) < 0.05, "\(plain)")
        // On the path the middle's distance is 20 + 37.05 = 57.05, which on this line is x 57.05:
        // the same ink box as plain text at x 20, upright, same baseline. (resvg's 2020 references
        // put it 0.55 behind, at t = s / L of a line cubic with control points at 0.33 and 0.66.)
        #expect(abs(onPath.minX - 29.7) < 0.05 && abs(onPath.maxX - 84.3) < 0.05, "\(onPath) vs \(plain)")
        #expect(abs(onPath.minY - plain.minY) < 0.01 && abs(onPath.maxY - plain.maxY) < 0.01, "\(onPath) vs \(plain)")
    }

    @Test("On a circle a glyph's middle at startOffset + half its advance lies on the circle, turned with the tangent")
    func glyphOnCircle() throws {
        // r = 50 about (100, 100), starting at (150, 100) and turning toward +y. "H" at 20 px
        // advances 14.82; startOffset 71.13 puts its middle at 78.54 = a quarter turn: the
        // bottom (100, 150), where the path runs toward −x, so the glyph is upside down: its ink
        // (local x −5.47…5.45 about the middle, 0…14.28 above the baseline) lands at
        // x 94.55…105.47, y 150…164.28. 78.54 is the end of the first quarter's cubic (t ≈ 1),
        // where the cubic's point and tangent are the circle's.
        let box = inkBox(try svg(#"""
            <defs><circle id="c" cx="100" cy="100" r="50"/></defs>
            <text font-family="Noto Sans" font-size="20"><textPath href="#c" startOffset="71.13">H</textPath></text>
            """#, viewBox: "0 0 200 200"))
        #expect(abs(box.minX - 94.55) <= 0.1 && abs(box.maxX - 105.47) <= 0.1, "\(box)")
        #expect(abs(box.width - 10.92) < 0.1, "\(box)")
        #expect(abs(box.minY - 150) < 0.1 && abs(box.maxY - 164.28) < 0.1, "\(box)")
    }

    @Test("On a cubic whose control points bunch at one end, glyphs are spaced by arc length, not by the curve's parameter")
    func spacingByArcLengthOnACurve() throws {
        // A straight path written as a cubic with both control points near the start: its
        // parameter runs slowly there (t = ½ is at x 270 of 300), but the distance along it is
        // still x. Each "H" (advance 14.82 at 20 px) must therefore land where it would on the
        // plain line "L": the ink of "HH" spans 20 + 1.94 … 20 + 14.82 + 12.86.
        func box(_ d: String) throws -> CGRect {
            inkBox(try svg("""
                <defs><path id="p" d="\(d)"/></defs>
                <text font-family="Noto Sans" font-size="20"><textPath href="#p" startOffset="20">HH</textPath></text>
                """, viewBox: "0 0 300 100"))
        }
        let line = try box("M 0 50 L 300 50")
        let curve = try box("M 0 50 C 1 50 2 50 300 50")
        #expect(abs(line.minX - 21.94) < 0.05 && abs(line.maxX - 47.68) < 0.05, "\(line)")
        #expect(abs(curve.minX - line.minX) < 0.05 && abs(curve.maxX - line.maxX) < 0.05, "\(curve) vs \(line)")
    }

    @Test("A glyph whose middle falls past the path's end is not drawn (SVG 1.1 §10.13.2)")
    func pastTheEnd() throws {
        let doc = try svg(#"""
            <defs><path id="p" d="M 0 80 L 50 80"/></defs>
            <text font-family="Noto Sans" font-size="100"><textPath href="#p">HH</textPath></text>
            """#, viewBox: "0 0 300 100")
        // The first H's middle (37.05) is on the 50-unit path; the second's (111.15) is not.
        let box = inkBox(doc)
        #expect(box.maxX < 70, "\(box)")
    }

    @Test("text-decoration on a textPath is drawn along it, one piece per glyph, and no longer reported")
    func underlineOnPath() throws {
        let doc = try svg(#"""
            <defs><path id="p" d="M 0 50 L 300 50"/></defs>
            <text font-family="Noto Sans" font-size="100" text-decoration="underline"><textPath href="#p">H</textPath></text>
            """#, viewBox: "0 0 300 100")
        let box = inkBox(doc)
        // Noto Sans underline (post table): centred 100 units below the baseline, 50 thick →
        // 7.5 to 12.5 below it at 100 px; the piece spans the glyph's advance, whose middle is
        // at x 37.05: x 0…74.1.
        #expect(abs(box.maxY - 62.5) < 0.05, "\(box)")
        #expect(abs(box.minX) < 0.05 && abs(box.maxX - 74.1) < 0.05, "\(box)")
        #expect(!doc.issues.contains { $0.feature.contains("text-decoration") }, "\(doc.issues)")
    }
}
