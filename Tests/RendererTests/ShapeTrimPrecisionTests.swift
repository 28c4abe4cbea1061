import Testing
import Foundation

/// Where `strokeEnd` cuts long paths (issue 6). The arc-length field is stored in 16 bits for
/// paths up to 16,384 texels (range included: the cap reach at both ends), a step of at most 0.25
/// px, so a cut lands within 0.125 px of its place; longer paths fall back to the exact 32-bit
/// field. Both are checked in pixels: along a serpentine of one-pixel-wide rows, each pixel
/// around the cut must show the covered length of a butt end at `strokeEnd × length`
/// (coverage of the pixel = 0.5 − (arc length at its centre − cut), clamped), within 40/255
/// (0.16 px). A 16-bit field on the longer path (a step of 1.2 px) would miss by up to 0.6 px.
@Suite struct ShapeTrimPrecisionTests {
    struct Serpentine {
        let rows: Int
        let left: Double, right: Double
        let top: Double, spacing: Double
        var rowLength: Double { right - left }
        var length: Double { Double(rows) * rowLength + Double(rows - 1) * spacing }
        var path: CGPath {
            let p = CGMutablePath()
            for k in 0..<rows {
                let y = top + Double(k) * spacing
                let (a, b) = k % 2 == 0 ? (left, right) : (right, left)
                if k == 0 { p.move(to: CGPoint(x: a, y: y)) } else { p.addLine(to: CGPoint(x: a, y: y)) }
                p.addLine(to: CGPoint(x: b, y: y))
            }
            return p
        }
        /// Arc length at the centre of pixel column `x` on row `k`.
        func arcLength(row k: Int, x: Int) -> Double {
            let start = Double(k) * (rowLength + spacing)
            let px = Double(x) + 0.5
            return start + (k % 2 == 0 ? px - left : right - px)
        }
        func pixelRow(_ k: Int) -> Int { Int((top + Double(k) * spacing).rounded(.down)) }
    }

    /// Renders the serpentine with `strokeEnd` cutting `fraction` of each listed row, and checks
    /// the five pixels around each cut.
    func expectCuts(_ s: Serpentine, size: CGSize, cuts: [(row: Int, fraction: Double)]) throws {
        for cut in cuts {
            let along = Double(cut.row) * (s.rowLength + s.spacing) + cut.fraction * s.rowLength
            let root = ShapeLayerTests.scene(size.width, size.height) { l in
                l.path = s.path
                l.fillColor = nil
                l.strokeColor = ShapeLayerTests.black
                l.lineWidth = 1
                l.strokeEnd = CGFloat(along / s.length)
            }
            let img = try RenderHarness.render(root, size: size)
            let xCut = cut.row % 2 == 0 ? s.left + cut.fraction * s.rowLength : s.right - cut.fraction * s.rowLength
            let y = s.pixelRow(cut.row)
            for x in (Int(xCut) - 2)...(Int(xCut) + 2) {
                let coverage = min(max(0.5 - (s.arcLength(row: cut.row, x: x) - along), 0), 1)
                let expected = Int((255 * (1 - coverage)).rounded())
                let got = img.rgba(x, y).r
                #expect(abs(got - expected) <= 40,
                        "path \(Int(s.length)) px, cut at \(along): pixel (\(x), \(y)) is \(got), expected \(expected)")
            }
        }
    }

    @Test func strokeEndOnA14000PixelPathLandsWithinAnEighthOfAPixel() throws {
        // 36 rows of 380 px, 3 px apart: 13,785 px, inside the 16-bit field's 16,384.
        let s = Serpentine(rows: 36, left: 10, right: 390, top: 10.5, spacing: 3)
        #expect(s.length > 13_000 && s.length < 16_000)
        try expectCuts(s, size: CGSize(width: 400, height: 130),
                       cuts: [(35, 0.3137), (34, 0.5071), (20, 0.777), (3, 0.2589), (35, 0.9123), (18, 0.1001)])
    }

    @Test func strokeEndOnA77000PixelPathFallsBackToTheExactField() throws {
        // 160 rows of 480 px, 3 px apart: 77,277 px, beyond the 16-bit field's reach.
        let s = Serpentine(rows: 160, left: 10, right: 490, top: 10.5, spacing: 3)
        #expect(s.length > 70_000)
        try expectCuts(s, size: CGSize(width: 500, height: 500),
                       cuts: [(159, 0.3137), (158, 0.5071), (120, 0.777), (80, 0.2589), (159, 0.9123), (101, 0.1001)])
    }

    @Test func exactFieldCutsDashedRoundCappedStrokes() throws {
        // The long serpentine (exact field) dashed with round caps: the cut 0.3 into row 100
        // (x = 154) ends in a half disc of radius 2; far from it the stroke is solid or absent.
        let s = Serpentine(rows: 160, left: 10, right: 490, top: 10.5, spacing: 3)
        let along = 100 * (s.rowLength + s.spacing) + 0.3 * s.rowLength
        let root = ShapeLayerTests.scene(500, 500) { l in
            l.path = s.path
            l.fillColor = nil
            l.strokeColor = ShapeLayerTests.black
            l.lineWidth = 1
            l.lineCap = .round
            l.lineDashPattern = [200_000, 1]
            l.strokeEnd = CGFloat(along / s.length)
        }
        let img = try RenderHarness.render(root, size: CGSize(width: 500, height: 500))
        let y = s.pixelRow(100)
        #expect(img.rgba(140, y).r <= 10 && img.rgba(150, y).r <= 10)
        #expect(img.rgba(158, y).r >= 245 && img.rgba(170, y).r >= 245)
    }

    @Test func perspectiveShapesCutTheirStrokeFromTheExactField() throws {
        // Under perspective the raster is sampled bilinearly, which the 16-bit field does not
        // survive: the exact field cuts it (dashes and round caps included).
        let root = ShapeLayerTests.scene { l in
            l.path = ShapeLayerTests.line(10, 50, 90, 50)
            l.fillColor = nil
            l.strokeColor = ShapeLayerTests.black
            l.lineWidth = 6
            l.lineCap = .round
            l.lineDashPattern = [1000, 1]
            l.strokeEnd = 0.5
            var t = CATransform3DIdentity
            t.m34 = -1.0 / 500
            l.transform = CATransform3DRotate(t, 20 * .pi / 180, 0, 1, 0)
        }
        let img = try ShapeLayerTests.render(root)
        #expect(ShapeLayerTests.v(img, 25, 50) <= 10, "the first half is drawn")
        #expect(ShapeLayerTests.v(img, 75, 50) >= 245, "the second half is cut")
    }
}
