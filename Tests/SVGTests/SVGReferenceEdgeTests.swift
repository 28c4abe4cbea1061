import Testing
import Foundation

/// Edge cases of the document size and of gradient `href` chains (SVG 1.1 §5.1.2, §13.2).
@Suite struct SVGReferenceEdgeTests {
    @Test("A negative width or height puts the document in error: nothing is drawn, and it is reported")
    func negativeSizeDrawsNothing() throws {
        let doc = try SVGDocument(string: """
            <svg xmlns="http://www.w3.org/2000/svg" width="-50" height="-100"><rect width="10" height="10" fill="green"/></svg>
            """)
        #expect(shapeLayers(doc.layer).isEmpty)
        #expect(doc.issues.contains { $0.kind == .invalidValue && $0.feature.hasPrefix("width=") })
        let ok = try SVGDocument(string: """
            <svg xmlns="http://www.w3.org/2000/svg" width="50" height="100"><rect width="10" height="10" fill="green"/></svg>
            """)
        #expect(shapeLayers(ok.layer).count == 1)
    }

    @Test("A radial gradient's href to a linear one inherits spread and stops, not the other kind's geometry")
    func crossKindHrefKeepsOwnGeometry() throws {
        let doc = try svg("""
            <linearGradient id="l" cx="1" x1="0.3" spreadMethod="reflect"/>
            <radialGradient id="g" href="#l"><stop offset="0" stop-color="white"/><stop offset="1" stop-color="black"/></radialGradient>
            <rect x="0" y="0" width="40" height="40" fill="url(#g)"/>
            """)
        let g = try #require(allLayers(doc.layer).compactMap { $0 as? CAGradientLayer }.first)
        #expect(g.type == .radial)
        // The centre stays at the default 50 % (not cx = 1 from the linear gradient).
        let c = g.convert(CGPoint(x: g.bounds.minX + g.startPoint.x * g.bounds.width, y: g.bounds.minY + g.startPoint.y * g.bounds.height), to: doc.layer)
        #expect(abs(c.x - 20) < 1e-9 && abs(c.y - 20) < 1e-9, "\(c)")
        // reflect came through: more than the two stops.
        #expect((g.colors?.count ?? 0) > 2)
    }
}
