import Testing
import Foundation

/// Style cascade (CSS 2.1 §6.4; SVG 1.1 §6.4 presentation attributes): presentation attribute <
/// style sheet (by specificity) < style attribute; inheritance; `inherit`; `currentColor`.
@Suite struct SVGStyleTests {
    func fill(_ doc: SVGDocument, _ i: Int = 0) -> [Double] { rgba(shapeLayers(doc.layer)[i].fillColor) }

    @Test func cascadeOrder() throws {
        let css = "<style>rect { fill: blue } .c { fill: lime } #r { fill: yellow }</style>"
        #expect(fill(try svg(css + "<rect width=\"10\" height=\"10\" fill=\"red\"/>")) == [0, 0, 1, 1])
        #expect(fill(try svg(css + "<rect class=\"c\" width=\"10\" height=\"10\" fill=\"red\"/>")) == [0, 1, 0, 1])
        #expect(fill(try svg(css + "<rect id=\"r\" class=\"c\" width=\"10\" height=\"10\"/>")) == [1, 1, 0, 1])
        #expect(fill(try svg(css + "<rect id=\"r\" style=\"fill: #f00\" width=\"10\" height=\"10\"/>")) == [1, 0, 0, 1])
    }

    @Test func inheritanceAndInherit() throws {
        let doc = try svg("<g fill=\"red\" stroke=\"blue\" stroke-width=\"4\" opacity=\"0.5\"><rect width=\"10\" height=\"10\"/></g>")
        let s = try #require(shapeLayers(doc.layer).first)
        #expect(rgba(s.fillColor) == [1, 0, 0, 1])
        #expect(rgba(s.strokeColor) == [0, 0, 1, 1])
        #expect(s.lineWidth == 4)
        // opacity is not inherited: the shape keeps 1, the group has 0.5.
        #expect(s.opacity == 1)
        #expect(allLayers(doc.layer).contains { $0.opacity == 0.5 })
        // `inherit` takes the parent's value even for a property that is not inherited.
        let d2 = try svg("<g fill=\"lime\"><rect fill=\"red\" width=\"10\" height=\"10\"><title>x</title></rect><g fill=\"red\"><rect fill=\"inherit\" width=\"10\" height=\"10\"/></g></g>")
        #expect(fill(d2, 1) == [1, 0, 0, 1])
    }

    @Test func currentColorUsesTheElementsColor() throws {
        let doc = try svg("<g color=\"red\"><rect color=\"lime\" fill=\"currentColor\" stroke=\"currentColor\" width=\"10\" height=\"10\"/><rect fill=\"currentColor\" width=\"10\" height=\"10\"/></g>")
        let s = shapeLayers(doc.layer)
        #expect(rgba(s[0].fillColor) == [0, 1, 0, 1])
        #expect(rgba(s[0].strokeColor) == [0, 1, 0, 1])
        #expect(rgba(s[1].fillColor) == [1, 0, 0, 1])
    }

    @Test func opacitiesFoldIntoColours() throws {
        let doc = try svg("<rect width=\"10\" height=\"10\" fill=\"rgba(255,0,0,0.5)\" fill-opacity=\"0.5\" stroke=\"blue\" stroke-opacity=\"25%\"/>")
        let s = try #require(shapeLayers(doc.layer).first)
        #expect(rgba(s.fillColor) == [1, 0, 0, 0.25])
        #expect(rgba(s.strokeColor) == [0, 0, 1, 0.25])
    }

    @Test func strokePropertiesReachTheShapeLayer() throws {
        let doc = try svg("<path d=\"M0 0 L10 0\" stroke=\"black\" stroke-width=\"2\" stroke-linecap=\"round\" stroke-linejoin=\"bevel\" stroke-miterlimit=\"7\" stroke-dasharray=\"5, 3 2\" stroke-dashoffset=\"1.5\" fill-rule=\"evenodd\"/>")
        let s = try #require(shapeLayers(doc.layer).first)
        #expect(s.lineWidth == 2)
        #expect(s.lineCap == .round)
        #expect(s.lineJoin == .bevel)
        #expect(s.miterLimit == 7)
        // An odd count repeats: 5 3 2 5 3 2.
        #expect(s.lineDashPattern?.map(\.doubleValue) == [5, 3, 2, 5, 3, 2])
        #expect(s.lineDashPhase == 1.5)
        #expect(s.fillRule == .evenOdd)
        // SVG defaults: miter limit 4 (CAShapeLayer's is 10), butt caps, no stroke.
        let d = try #require(shapeLayers(try svg("<rect width=\"1\" height=\"1\" stroke=\"red\"/>").layer).first)
        #expect(d.miterLimit == 4)
        #expect(d.lineCap == .butt)
        #expect(shapeLayers(try svg("<rect width=\"1\" height=\"1\"/>").layer).first?.strokeColor == nil)
    }

    @Test func invalidDashArraysDrawSolid() throws {
        for dash in ["5 -1", "0 0"] {
            let s = try #require(shapeLayers(try svg("<path d=\"M0 0 L10 0\" stroke=\"black\" stroke-dasharray=\"\(dash)\"/>").layer).first)
            #expect(s.lineDashPattern == nil)
        }
    }

    @Test func displayAndVisibility() throws {
        let doc = try svg("<g display=\"none\"><rect width=\"10\" height=\"10\"/></g><g visibility=\"hidden\"><rect width=\"10\" height=\"10\"/><rect visibility=\"visible\" fill=\"lime\" width=\"10\" height=\"10\"/></g>")
        let s = shapeLayers(doc.layer)
        #expect(s.count == 1)
        #expect(rgba(s.first?.fillColor) == [0, 1, 0, 1])
    }

    @Test func unknownPropertiesAreReported() throws {
        let doc = try svg("<rect width=\"10\" height=\"10\" style=\"zoom: 2; font-family: serif\"/>")
        #expect(doc.issues.contains { $0.feature == "property zoom" && $0.kind == .unsupportedFeature })
        #expect(!doc.issues.contains { $0.feature.contains("font-family") })
        let css = try svg("<style>g + rect { fill: red }</style><rect width=\"1\" height=\"1\"/>")
        #expect(css.issues.contains { $0.feature == "CSS selector \"g + rect\"" })
    }

    /// CSS Selectors 3 §6.3 (attribute selectors) and §8.1 (descendant and child combinators).
    @Test func attributeSelectorsAndCombinators() throws {
        let doc = try svg("""
            <style>[x] { fill: #00f } rect[y="2"] { fill: #0f0 } svg > rect { stroke: #f00 } g rect { stroke: #0f0 } g > g > rect { stroke-width: 3 }</style>
            <rect x="1" width="1" height="1"/><rect y="2" width="1" height="1"/>
            <g><g><rect width="1" height="1"/></g></g>
            """)
        #expect(doc.issues.isEmpty, "\(doc.issues)")
        let s = shapeLayers(doc.layer)
        #expect(s.count == 3)
        #expect(rgba(s[0].fillColor) == [0, 0, 1, 1] && rgba(s[0].strokeColor) == [1, 0, 0, 1])
        #expect(rgba(s[1].fillColor) == [0, 1, 0, 1])
        #expect(rgba(s[2].fillColor) == [0, 0, 0, 1] && rgba(s[2].strokeColor) == [0, 1, 0, 1] && s[2].lineWidth == 3)
    }
}

/// Issue 17 item 6: 50,000 rules × 50,000 elements took minutes because every rule was tried on
/// every element. Rules are now found by the element's id, classes and type, so the work per
/// element is bounded by the rules that can match it (a count, not a clock).
@Suite struct SVGStyleSheetIndexTests {
    @Test func anElementTriesOnlyTheRulesThatCanMatchIt() {
        var css = ""
        for i in 0..<50_000 { css += ".c\(i) { fill: red } " }
        css += "#only { fill: blue } rect { stroke: red } * { opacity: 1 }"
        let sheet = SVGStyleSheet(css: css)
        // Its class's rule, the type rule and the universal rule; the id's rule when it has it.
        #expect(sheet.candidateCount(name: "rect", id: nil, classAttribute: "c123") == 3)
        #expect(sheet.candidateCount(name: "rect", id: "only", classAttribute: "c1 c2") == 5)
        #expect(sheet.candidateCount(name: "circle", id: nil, classAttribute: nil) == 1)
    }

    @Test func aCompoundRuleIsFoundThroughItsMostSelectivePart() throws {
        // Filed under its id (then first class, then type); the cascade still checks the rest.
        let css = "<style>rect.a.b { fill: lime } circle#x.a { fill: blue } .b { stroke: blue }</style>"
        let doc = try svg(css + "<rect class=\"b a\" width=\"10\" height=\"10\"/><rect class=\"a\" width=\"10\" height=\"10\" fill=\"red\"/>")
        let s = shapeLayers(doc.layer)
        #expect(rgba(s[0].fillColor) == [0, 1, 0, 1])
        #expect(rgba(s[0].strokeColor) == [0, 0, 1, 1])
        #expect(rgba(s[1].fillColor) == [1, 0, 0, 1])
        let sheet = SVGStyleSheet(css: "circle#x.a { fill: blue }")
        #expect(sheet.candidateCount(name: "rect", id: "x", classAttribute: "a") == 1)
        #expect(sheet.candidateCount(name: "rect", id: "y", classAttribute: "a") == 0)
    }

    @Test func manyRulesAndManyElementsImport() throws {
        // Scaled down from the issue's 50,000 × 50,000 so the debug test stays short; the
        // bound above is what makes the full size linear.
        var css = "<style>"
        for i in 0..<5_000 { css += ".c\(i) { fill: rgb(0, \(i % 256), 0) } " }
        css += "</style>"
        var body = ""
        for i in 0..<5_000 { body += "<rect class=\"c\(i)\" width=\"1\" height=\"1\"/>" }
        let doc = try svg(css + body)
        let s = shapeLayers(doc.layer)
        #expect(s.count == 5_000)
        #expect(abs(rgba(s[300].fillColor)[1] - Double(300 % 256) / 255) < 0.001)
    }
}
