import Testing
import Foundation

/// Markers, paint-order, patterns, mix-blend-mode, isolation and conditional processing
/// (issue 24), each imported as layers and checked on pixels whose values follow from the spec.
@Suite struct SVGPaintingImportTests {
    static func render(_ doc: SVGDocument) throws -> CGImage {
        try SVGRenderCache().render(doc, pixelWidth: Int(doc.size.width), pixelHeight: Int(doc.size.height))
    }
    static func pixel(_ img: CGImage, _ x: Int, _ y: Int) -> [Int] { SVGImageTests.pixel(img, x, y) }
    static func near(_ a: [Int], _ b: [Int], _ tol: Int = 8) -> Bool { SVGImageTests.near(a, b, tol) }
    static func doc(_ body: String, _ w: Int = 40, _ h: Int = 40) throws -> SVGDocument {
        try SVGDocument(string: "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(w)\" height=\"\(h)\">\(body)</svg>")
    }

    // MARK: Markers (SVG 1.1 §11.6)

    @Test func markersSitOnEveryVertexRotatedByOrientAuto() throws {
        // A 4 × 4 marker whose right half is green, refX/refY at its centre, orient="auto":
        // at the start of a line going down (+90°) the green half points down.
        let d = try Self.doc("""
            <marker id="m" markerWidth="4" markerHeight="4" refX="2" refY="2" orient="auto" markerUnits="userSpaceOnUse">
              <rect x="2" width="2" height="4" fill="#0f0"/></marker>
            <path d="M 10 10 L 10 30 L 30 30" stroke="none" fill="none"
                  marker-start="url(#m)" marker-mid="url(#m)" marker-end="url(#m)"/>
            """)
        #expect(d.issues.isEmpty, "\(d.issues)")
        let img = try Self.render(d)
        #expect(Self.near(Self.pixel(img, 10, 11), [0, 255, 0]))     // start, pointing down
        #expect(Self.near(Self.pixel(img, 10, 8), [255, 255, 255]))  // its other half: empty
        #expect(Self.near(Self.pixel(img, 31, 30), [0, 255, 0]))     // end, pointing right
        #expect(Self.near(Self.pixel(img, 28, 30), [255, 255, 255]))
        // Mid vertex (10, 30): the bisector of down (90°) and right (0°) is 45°, so the green half
        // covers (10.5, 30.5) (0.7 along the bisector) and not (8.5, 28.5) (−2.1 along it).
        #expect(Self.near(Self.pixel(img, 10, 30), [0, 255, 0]))
        #expect(Self.near(Self.pixel(img, 8, 28), [255, 255, 255]))
    }

    @Test func markerVerticesFollowSubpathsAndClosePaths() {
        let p = CGMutablePath()
        p.move(to: CGPoint(x: 0, y: 0)); p.addLine(to: CGPoint(x: 10, y: 0)); p.addLine(to: CGPoint(x: 10, y: 10))
        p.closeSubpath()
        p.move(to: CGPoint(x: 20, y: 0)); p.addLine(to: CGPoint(x: 20, y: 5))
        let v = SVGMarkerGeometry.vertices(p)
        #expect(v.map(\.0) == [CGPoint(x: 0, y: 0), CGPoint(x: 10, y: 0), CGPoint(x: 10, y: 10), CGPoint(x: 0, y: 0),
                               CGPoint(x: 20, y: 0), CGPoint(x: 20, y: 5)])
        func deg(_ r: Double) -> Int { Int((r * 180 / .pi).rounded()) }
        // (10, 0): in 0°, out 90° → 45°. The closing segment runs at 225°: the start bisects
        // 225° and 0° (→ 292.5°, i.e. −67.5°), the closing vertex too.
        #expect(deg(v[1].1) == 45)
        #expect((deg(v[0].1) + 360) % 360 == 293 || (deg(v[0].1) + 360) % 360 == 292)
        #expect(deg(v[4].1) == 90 && deg(v[5].1) == 90)
    }

    @Test func paintOrderPutsTheStrokeUnderTheFill() throws {
        let d = try Self.doc("<rect x=\"10\" y=\"10\" width=\"20\" height=\"20\" fill=\"#00f\" stroke=\"#f00\" stroke-width=\"6\" style=\"paint-order: stroke\"/>")
        let img = try Self.render(d)
        // Inside the rectangle's edge the fill covers the stroke's inner half.
        #expect(Self.near(Self.pixel(img, 11, 20), [0, 0, 255]))
        #expect(Self.near(Self.pixel(img, 8, 20), [255, 0, 0]))
        let normal = try Self.render(try Self.doc("<rect x=\"10\" y=\"10\" width=\"20\" height=\"20\" fill=\"#00f\" stroke=\"#f00\" stroke-width=\"6\"/>"))
        #expect(Self.near(Self.pixel(normal, 11, 20), [255, 0, 0]))
    }

    @Test func markersOnAHugePathStopAtTheElementBudget() throws {
        var limits = SVGImportLimits()
        limits.maxElements = 500
        let d = "M 0 0 " + (0..<20_000).map { "L \($0 % 40) \($0 % 37)" }.joined(separator: " ")
        let doc = try SVGDocument(string: """
            <svg xmlns="http://www.w3.org/2000/svg" width="40" height="40">
            <marker id="m"><rect width="1" height="1"/><rect width="1" height="1"/></marker>
            <path d="\(d)" marker-mid="url(#m)"/></svg>
            """, limits: limits)
        #expect(doc.issues.contains { $0.kind == .limitReached && $0.feature == "element count" })
        #expect(shapeLayers(doc.layer).count <= 500)
    }

    // MARK: Patterns (SVG 1.1 §13.3)

    @Test func patternTilesRepeatAcrossTheShape() throws {
        let d = try Self.doc("""
            <pattern id="p" patternUnits="userSpaceOnUse" width="10" height="10">
              <rect width="5" height="5" fill="#0f0"/></pattern>
            <rect width="40" height="40" fill="url(#p)"/>
            """)
        #expect(d.issues.isEmpty, "\(d.issues)")
        let img = try Self.render(d)
        for (x, y) in [(2, 2), (12, 2), (22, 32), (32, 12)] { #expect(Self.near(Self.pixel(img, x, y), [0, 255, 0]), "\(x),\(y)") }
        for (x, y) in [(7, 7), (17, 2), (2, 17), (37, 37)] { #expect(Self.near(Self.pixel(img, x, y), [255, 255, 255]), "\(x),\(y)") }
    }

    @Test func objectBoundingBoxPatternAndPatternTransform() throws {
        // Tile = a quarter of the 20 × 20 box at (10, 10), moved by patternTransform 5 px right.
        let d = try Self.doc("""
            <pattern id="p" width="0.5" height="0.5" patternTransform="translate(5 0)">
              <rect width="5" height="10" fill="#00f"/></pattern>
            <rect x="10" y="10" width="20" height="20" fill="url(#p)"/>
            """)
        let img = try Self.render(d)
        #expect(Self.near(Self.pixel(img, 17, 12), [0, 0, 255]))
        #expect(Self.near(Self.pixel(img, 12, 12), [255, 255, 255]))
        #expect(Self.near(Self.pixel(img, 27, 27), [0, 0, 255]))
        #expect(Self.near(Self.pixel(img, 5, 5), [255, 255, 255]))   // outside the shape
    }

    @Test func tinyPatternTilesAreBoundedAndReported() throws {
        let d = try Self.doc("""
            <pattern id="p" patternUnits="userSpaceOnUse" width="0.001" height="0.001"><rect width="1" height="1"/></pattern>
            <rect width="40" height="40" fill="url(#p)"/>
            """)
        #expect(d.issues.contains { $0.kind == .limitReached && $0.feature == "<pattern> tiles" })
    }

    @Test func selfReferencingPatternContentIsCut() throws {
        let d = try Self.doc("""
            <pattern id="p" patternUnits="userSpaceOnUse" width="10" height="10">
              <rect width="10" height="10" fill="url(#p)" stroke="#0f0"/></pattern>
            <rect width="40" height="40" fill="url(#p)"/>
            """)
        #expect(d.issues.contains { $0.kind == .brokenReference && $0.feature == "<pattern>" })
    }

    // MARK: Blending (Compositing and Blending 1 §3)

    @Test func mixBlendModeMultiplyUsesTheCompositingFilter() throws {
        // Multiply: B × S. Yellow (1, 1, 0) over cyan (0, 1, 1) gives green (0, 1, 0).
        let d = try Self.doc("""
            <rect width="40" height="40" fill="#0ff"/>
            <rect x="10" y="10" width="20" height="20" fill="#ff0" style="mix-blend-mode: multiply"/>
            """)
        #expect(allLayers(d.layer).contains { ($0.compositingFilter as? String) == "multiplyBlendMode" })
        let img = try Self.render(d)
        #expect(Self.near(Self.pixel(img, 20, 20), [0, 255, 0]))
        #expect(Self.near(Self.pixel(img, 5, 5), [0, 255, 255]))
    }

    @Test func blendAndIsolationAreCSSPropertiesOnly() throws {
        // As presentation attributes they are ignored (resvg's painting/isolation/as-property).
        let attr = try Self.doc("<g isolation=\"isolate\"><rect width=\"4\" height=\"4\" mix-blend-mode=\"screen\"/></g>")
        #expect(!allLayers(attr.layer).contains { $0.compositingFilter != nil })
        #expect(!allLayers(attr.layer).contains { $0.opacity < 1 })
        let css = try Self.doc("<g style=\"isolation: isolate\"><rect width=\"4\" height=\"4\"/><rect width=\"4\" height=\"4\" style=\"mix-blend-mode: color-dodge\"/></g>")
        let filters = allLayers(css.layer).compactMap { $0.compositingFilter as? String }
        #expect(filters == ["colorDodgeBlendMode"])
        // The isolated group (and the document root, since something blends) composite offscreen.
        #expect(allLayers(css.layer).filter { $0.opacity < 1 && $0.allowsGroupOpacity }.count == 2)
    }

    @Test func theDocumentRootIsAnIsolatedGroup() throws {
        // Screen over white is white; the root is isolated (Compositing 1 §3.2), so the rect
        // blends with a transparent backdrop: B(0, Cs) weighted by αb = 0 leaves the source,
        // blue, which is then drawn over the white the renderer clears to.
        let d = try Self.doc("<rect x=\"10\" y=\"10\" width=\"20\" height=\"20\" fill=\"#00f\" style=\"mix-blend-mode: screen\"/>")
        let img = try Self.render(d)
        #expect(Self.near(Self.pixel(img, 20, 20), [0, 0, 255]))
    }

    @Test func whatIsNotReproducedWarnsOnce() throws {
        let (_, warnings) = try Diagnostics.capture {
            _ = try Self.doc("<unheardOfElement24/><unheardOfElement24/>")
            _ = try Self.doc("<unheardOfElement24/>")
        }
        // Captured repeats included: one issue per document, so two warnings; the log prints it once.
        #expect(warnings.filter { $0.contains("<unheardOfElement24>") }.count == 2)
    }

    // MARK: Conditional processing (SVG 1.1 §5.8)

    @Test func switchDrawsTheFirstChildWhoseConditionsHold() throws {
        let d = try Self.doc("""
            <switch><rect width="40" height="40" fill="#f00" requiredExtensions="http://example.org/x"/>
            <rect width="40" height="40" fill="#f00" systemLanguage="ru-RU"/>
            <rect width="40" height="40" fill="#0f0" systemLanguage="ru, en-GB"/>
            <rect width="40" height="40" fill="#f00"/></switch>
            <rect width="4" height="4" fill="#f00" systemLanguage="de"/>
            """)
        let img = try Self.render(d)
        #expect(Self.near(Self.pixel(img, 2, 2), [0, 255, 0]))
        #expect(shapeLayers(d.layer).count == 1)
    }

    @Test func cssTransformPropertyReplacesTheAttribute() throws {
        let d = try Self.doc("<rect width=\"10\" height=\"10\" fill=\"#00f\" transform=\"translate(30 30)\" style=\"transform: scale(2)\"/>")
        let img = try Self.render(d)
        #expect(Self.near(Self.pixel(img, 15, 15), [0, 0, 255]))
        #expect(Self.near(Self.pixel(img, 35, 35), [255, 255, 255]))
    }
}
