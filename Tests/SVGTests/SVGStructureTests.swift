import Testing
import Foundation

/// The layer tree an import produces: shapes, groups, use/defs/symbol, gradients, clips, masks.
@Suite struct SVGStructureTests {
    @Test func basicShapesBecomeShapeLayersWithSVGStartPoints() throws {
        let doc = try svg("""
            <rect x="10" y="20" width="30" height="40"/>
            <rect x="0" y="0" width="20" height="10" rx="2"/>
            <circle cx="50" cy="50" r="10"/>
            <ellipse cx="50" cy="50" rx="20"/>
            <line x1="1" y1="2" x2="3" y2="4" stroke="black"/>
            <polyline points="0,0 10,0 10,10 5" stroke="black"/>
            <polygon points="0 0 10 0 10 10"/>
            """)
        let s = shapeLayers(doc.layer)
        #expect(s.count == 7)
        #expect(dump(s[0].path) == ["M 10 20", "L 40 20", "L 40 60", "L 10 60", "Z"])
        #expect(dump(s[1].path).first == "M 2 0")
        #expect(dump(s[1].path)[1] == "L 18 0")
        #expect(dump(s[1].path).count == 10)
        #expect(dump(s[2].path).first == "M 60 50")
        #expect(dump(s[2].path)[1] == "C 60 55.5228 55.5228 60 50 60")
        // ellipse with only rx: ry = rx (SVG 2 auto).
        #expect(dump(s[3].path)[1] == "C 70 61.0457 61.0457 70 50 70")
        #expect(dump(s[4].path) == ["M 1 2", "L 3 4"])
        #expect(s[4].fillColor == nil)
        #expect(dump(s[5].path) == ["M 0 0", "L 10 0", "L 10 10"])
        #expect(dump(s[6].path) == ["M 0 0", "L 10 0", "L 10 10", "Z"])
        #expect(doc.issues.contains { $0.feature == "points" })
    }

    @Test func zeroSizedShapesDrawNothing() throws {
        let doc = try svg("<rect width=\"0\" height=\"10\"/><circle r=\"-1\"/><ellipse rx=\"0\" ry=\"5\"/><polyline points=\"1 1\"/>")
        #expect(shapeLayers(doc.layer).isEmpty)
    }

    @Test func groupsCarryTransformAndOpacity() throws {
        let doc = try svg("<g transform=\"translate(10 20) scale(2)\" opacity=\"0.25\"><rect x=\"1\" y=\"1\" width=\"4\" height=\"4\"/></g>")
        let s = try #require(shapeLayers(doc.layer).first)
        let group = try #require(s.superlayer)
        #expect(group.opacity == 0.25)
        #expect(group.affineTransform() == CGAffineTransform(a: 2, b: 0, c: 0, d: 2, tx: 0, ty: 0))
        #expect(s.convert(CGPoint(x: 1, y: 1), to: doc.layer) == CGPoint(x: 12, y: 22))
        #expect(s.convert(CGPoint(x: 5, y: 5), to: doc.layer) == CGPoint(x: 20, y: 30))
    }

    @Test func transformOrigin() throws {
        let doc = try svg("<rect x=\"80\" y=\"80\" width=\"40\" height=\"40\" transform=\"rotate(90)\" transform-origin=\"center\"/>", viewBox: "0 0 200 200")
        let s = try #require(shapeLayers(doc.layer).first)
        // About (100, 100): (80, 80) → (120, 80).
        let p = s.convert(CGPoint(x: 80, y: 80), to: doc.layer)
        #expect(abs(p.x - 120) < 1e-9 && abs(p.y - 80) < 1e-9)
    }

    @Test func useDefsAndSymbol() throws {
        let doc = try svg("""
            <defs><rect id="r" width="10" height="10" fill="red"/><g id="g2"><use href="#r" x="1"/></g></defs>
            <use xlink:href="#r" x="20" y="30"/>
            <use href="#g2" y="5" fill="blue"/>
            <symbol id="s" viewBox="0 0 10 10"><circle cx="5" cy="5" r="5"/></symbol>
            <use href="#s" x="50" y="50" width="20" height="20"/>
            """)
        let s = shapeLayers(doc.layer)
        #expect(s.count == 3)
        #expect(s[0].convert(CGPoint(x: 0, y: 0), to: doc.layer) == CGPoint(x: 20, y: 30))
        #expect(s[1].convert(CGPoint(x: 0, y: 0), to: doc.layer) == CGPoint(x: 1, y: 5))
        #expect(rgba(s[1].fillColor) == [1, 0, 0, 1])   // the rect's own fill beats the use's
        // Symbol content scaled 2× into the use's 20 × 20 viewport at (50, 50).
        #expect(s[2].convert(CGPoint(x: 10, y: 5), to: doc.layer) == CGPoint(x: 70, y: 60))
    }

    @Test func useCyclesAreReportedNotFollowed() throws {
        let doc = try svg("<g id=\"a\"><use href=\"#b\"/></g><g id=\"b\"><use href=\"#a\"/><rect width=\"1\" height=\"1\"/></g><use id=\"self\" href=\"#self\"/>")
        #expect(doc.issues.contains { $0.kind == .brokenReference && $0.detail.contains("cycle") })
        #expect(!shapeLayers(doc.layer).isEmpty)
    }

    @Test func linearGradientFill() throws {
        let doc = try svg("""
            <linearGradient id="g" x1="0" y1="0" x2="1" y2="0"><stop offset="0.2" stop-color="red"/><stop offset="80%" stop-color="blue" stop-opacity="0.5"/></linearGradient>
            <rect x="10" y="10" width="50" height="20" fill="url(#g)" fill-opacity="0.5"/>
            """)
        let g = try #require(allLayers(doc.layer).compactMap { $0 as? CAGradientLayer }.first)
        #expect(g.type == .axial)
        #expect(g.locations?.map(\.doubleValue) == [0.2, 0.8])
        #expect((g.colors as? [CGColor])?.map(rgba) == [[1, 0, 0, 0.5], [0, 0, 1, 0.25]])
        // The gradient vector's ends land at the bounding box's left and right edges.
        let start = CGPoint(x: g.bounds.minX + g.startPoint.x * g.bounds.width, y: g.bounds.minY + g.startPoint.y * g.bounds.height)
        let end = CGPoint(x: g.bounds.minX + g.endPoint.x * g.bounds.width, y: g.bounds.minY + g.endPoint.y * g.bounds.height)
        let ps = g.convert(start, to: doc.layer), pe = g.convert(end, to: doc.layer)
        #expect(abs(ps.x - 10) < 1e-9 && abs(pe.x - 60) < 1e-9)
        // Masked by the shape: the holder's mask is an opaque shape layer with the rect path.
        let mask = try #require(g.superlayer?.mask as? CAShapeLayer)
        #expect(dump(mask.path) == ["M 10 10", "L 60 10", "L 60 30", "L 10 30", "Z"])
        #expect(rgba(mask.fillColor) == [0, 0, 0, 1])
    }

    @Test func spreadMethodsRepeatStops() throws {
        let doc = try svg("""
            <linearGradient id="g" x2="0.5" spreadMethod="reflect"><stop offset="0" stop-color="red"/><stop offset="1" stop-color="blue"/></linearGradient>
            <rect width="100" height="10" fill="url(#g)"/>
            """)
        let g = try #require(allLayers(doc.layer).compactMap { $0 as? CAGradientLayer }.first)
        // The painted area is the box plus a 1-unit antialiasing margin, x ∈ [−1, 101]: with a
        // 50-unit period that spans periods −1 ..< 3, odd ones mirrored (blue→red).
        #expect(g.locations?.map(\.doubleValue) == [0, 0.25, 0.25, 0.5, 0.5, 0.75, 0.75, 1])
        let red: [Double] = [1, 0, 0, 1], blue: [Double] = [0, 0, 1, 1]
        #expect((g.colors as? [CGColor])?.map(rgba) == [blue, red, red, blue, blue, red, red, blue])
        // The expanded vector runs from x = −50 to x = 150.
        let s = g.convert(CGPoint(x: g.bounds.minX + g.startPoint.x * g.bounds.width, y: 0), to: doc.layer)
        let e = g.convert(CGPoint(x: g.bounds.minX + g.endPoint.x * g.bounds.width, y: 0), to: doc.layer)
        #expect(abs(s.x + 50) < 1e-9 && abs(e.x - 150) < 1e-9)
    }

    @Test func radialGradientAndFocalPointReport() throws {
        let doc = try svg("""
            <radialGradient id="g" cx="0.5" cy="0.5" r="0.5" fx="0.3"><stop offset="0" stop-color="white"/><stop offset="1" stop-color="black"/></radialGradient>
            <rect x="0" y="0" width="40" height="20" fill="url(#g)"/>
            """)
        let g = try #require(allLayers(doc.layer).compactMap { $0 as? CAGradientLayer }.first)
        #expect(g.type == .radial)
        let c = g.convert(CGPoint(x: g.bounds.minX + g.startPoint.x * g.bounds.width, y: g.bounds.minY + g.startPoint.y * g.bounds.height), to: doc.layer)
        #expect(abs(c.x - 20) < 1e-9 && abs(c.y - 10) < 1e-9)
        // The focal point is drawn now (the layer's focal form), not reported.
        #expect(!doc.issues.contains { $0.feature == "radialGradient fx/fy" })
        let f = try #require(g.gradient.focalPoint)
        let fp = g.convert(CGPoint(x: g.bounds.minX + f.x * g.bounds.width, y: g.bounds.minY + f.y * g.bounds.height), to: doc.layer)
        #expect(abs(fp.x - 12) < 1e-9 && abs(fp.y - 10) < 1e-9)
    }

    @Test func gradientEdgeCases() throws {
        // No stops: none. One stop: solid. Zero-length vector: last stop.
        let none = try svg("<linearGradient id=\"g\"/><rect width=\"10\" height=\"10\" fill=\"url(#g)\"/>")
        #expect(shapeLayers(none.layer).isEmpty)
        let one = try svg("<linearGradient id=\"g\"><stop stop-color=\"lime\"/></linearGradient><rect width=\"10\" height=\"10\" fill=\"url(#g)\"/>")
        #expect(rgba(shapeLayers(one.layer).first?.fillColor) == [0, 1, 0, 1])
        let zero = try svg("<linearGradient id=\"g\" x2=\"0\"><stop stop-color=\"red\"/><stop offset=\"1\" stop-color=\"blue\"/></linearGradient><rect width=\"10\" height=\"10\" fill=\"url(#g)\"/>")
        #expect(rgba(shapeLayers(zero.layer).first?.fillColor) == [0, 0, 1, 1])
        // Missing paint server with a fallback colour.
        let fb = try svg("<rect width=\"10\" height=\"10\" fill=\"url(#nope) lime\"/>")
        #expect(rgba(shapeLayers(fb.layer).first?.fillColor) == [0, 1, 0, 1])
        #expect(fb.issues.contains { $0.kind == .brokenReference })
        // href chain: attributes and stops inherited.
        let chain = try svg("<linearGradient id=\"a\" spreadMethod=\"repeat\"><stop stop-color=\"red\"/><stop offset=\"1\" stop-color=\"blue\"/></linearGradient><linearGradient id=\"b\" href=\"#a\" x2=\"0.5\"/><rect width=\"10\" height=\"10\" fill=\"url(#b)\"/>")
        let g = try #require(allLayers(chain.layer).compactMap { $0 as? CAGradientLayer }.first)
        #expect(g.locations?.count == 8)   // repeat: periods −1 ..< 3 of a 5-unit vector over x ∈ [−1, 11]
    }

    @Test func clipPathBecomesAnOpaqueShapeMask() throws {
        let doc = try svg("""
            <clipPath id="c" clip-rule="evenodd"><rect x="5" y="5" width="10" height="10" fill="none" stroke="red" opacity="0.1"/></clipPath>
            <rect width="20" height="20" fill="green" clip-path="url(#c)"/>
            """)
        let masked = try #require(allLayers(doc.layer).first { $0.mask != nil })
        let clipShape = try #require(shapeLayers(masked.mask!).first)
        #expect(rgba(clipShape.fillColor) == [0, 0, 0, 1])
        #expect(clipShape.strokeColor == nil)
        #expect(clipShape.fillRule == .evenOdd)
        #expect(clipShape.convert(CGPoint(x: 5, y: 5), to: doc.layer) == CGPoint(x: 5, y: 5))
    }

    @Test func luminanceMaskColoursBecomeAlpha() throws {
        let doc = try svg("""
            <mask id="m"><rect width="10" height="10" fill="white"/><rect x="10" width="10" height="10" fill="rgb(0,128,0)" fill-opacity="0.5"/></mask>
            <mask id="a" mask-type="alpha"><rect width="10" height="10" fill="rgb(0,128,0)" fill-opacity="0.5"/></mask>
            <rect width="20" height="20" fill="green" mask="url(#m)"/>
            <rect width="20" height="20" fill="green" mask="url(#a)"/>
            """)
        let masked = allLayers(doc.layer).filter { $0.mask != nil }
        #expect(masked.count == 2)
        let lum = shapeLayers(masked[0].mask!)
        #expect(rgba(lum[0].fillColor) == [0, 0, 0, 1])
        // 0.7154 × 128/255 × 0.5 = 0.180
        #expect(rgba(lum[1].fillColor) == [0, 0, 0, 0.18])
        #expect(rgba(shapeLayers(masked[1].mask!)[0].fillColor) == [0, 0.502, 0, 0.5])
        #expect(masked[0].mask!.masksToBounds)    // the mask region
        #expect(doc.issues.contains { $0.kind == .approximated && $0.feature == "mask (luminance)" })
    }

    @Test func unsupportedElementsAreReported() throws {
        // (`<text>` is drawn since issue 20: SVGTextTests; `<filter>` since issue 24: SVGFilterTests.)
        // (`<image>` and `<pattern>` are drawn since issue 24; a file image in a document made
        // from data has no folder to be read from: SVGImageTests.)
        let doc = try svg("<tspan>stray</tspan><image href=\"x.png\"/><filter id=\"f\"/><foo/>")
        let features = Set(doc.issues.map(\.feature))
        #expect(features.isSuperset(of: ["<tspan>", "<foo>", "<image href=\"x.png\">"]))
        #expect(!features.contains("<filter>"))
    }
}
