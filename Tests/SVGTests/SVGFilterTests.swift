import Testing
import Foundation

/// SVG filter effects (Filter Effects Module Level 1, issue 24; docs/FILTERS.md "Filter
/// graphs"): imported as a filter graph on a layer and drawn by the GPU filter passes. Expected
/// pixels are derived by hand from the specification's formulas, over white, in 8-bit sRGB.
@Suite struct SVGFilterTests {
    /// Renders a 100×100 document and returns its pixels over white (RGB8, row-major).
    func render(_ body: String) throws -> (rgb: [UInt8], doc: SVGDocument) {
        let doc = try SVGDocument(string: "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"100\" height=\"100\">\(body)</svg>")
        let img = try SVGRenderCache().render(doc, pixelWidth: 100, pixelHeight: 100)
        return (SVGImageDiff.onWhite(img), doc)
    }

    func pixel(_ rgb: [UInt8], _ x: Int, _ y: Int) -> SIMD3<Int> {
        let i = (y * 100 + x) * 3
        return SIMD3(Int(rgb[i]), Int(rgb[i + 1]), Int(rgb[i + 2]))
    }

    func expectNear(_ p: SIMD3<Int>, _ q: SIMD3<Double>, _ tol: Double = 2, sourceLocation: SourceLocation = #_sourceLocation) {
        let ok = abs(Double(p.x) - q.x) <= tol && abs(Double(p.y) - q.y) <= tol && abs(Double(p.z) - q.z) <= tol
        #expect(ok, "pixel \(p) expected \(q) ± \(tol)", sourceLocation: sourceLocation)
    }

    @Test("feFlood fills the primitive subregion with flood-color at flood-opacity (Filter Effects 1 § feFlood)")
    func floodFillsSubregion() throws {
        let (rgb, _) = try render("""
            <filter id="f" filterUnits="userSpaceOnUse" x="10" y="10" width="40" height="30">
              <feFlood flood-color="#ff0000" flood-opacity="0.5"/>
            </filter>
            <rect x="20" y="20" width="10" height="10" fill="blue" filter="url(#f)"/>
            """)
        // Red at alpha 0.5 over white: (255, 127.5, 127.5); outside the region: white.
        expectNear(pixel(rgb, 15, 15), SIMD3(255, 127.5, 127.5))
        expectNear(pixel(rgb, 45, 35), SIMD3(255, 127.5, 127.5))
        expectNear(pixel(rgb, 55, 15), SIMD3(255, 255, 255))
        expectNear(pixel(rgb, 15, 45), SIMD3(255, 255, 255))
    }

    @Test("feOffset moves the source graphic by dx, dy (Filter Effects 1 § feOffset)")
    func offsetShifts() throws {
        let (rgb, _) = try render("""
            <filter id="f" filterUnits="userSpaceOnUse" x="0" y="0" width="100" height="100">
              <feOffset dx="30" dy="20"/>
            </filter>
            <rect x="10" y="10" width="20" height="20" fill="#000000" filter="url(#f)"/>
            """)
        expectNear(pixel(rgb, 45, 35), SIMD3(0, 0, 0))       // (15, 15) moved by (30, 20)
        expectNear(pixel(rgb, 15, 15), SIMD3(255, 255, 255)) // nothing left where it was
        expectNear(pixel(rgb, 61, 35), SIMD3(255, 255, 255)) // right of the moved rect
    }

    @Test("feComposite arithmetic: k1·i1·i2 + k2·i1 + k3·i2 + k4, clamped (Filter Effects 1 § feComposite)")
    func compositeArithmetic() throws {
        let (rgb, _) = try render("""
            <filter id="f" filterUnits="userSpaceOnUse" x="0" y="0" width="100" height="100" color-interpolation-filters="sRGB">
              <feFlood flood-color="rgb(51,102,153)" result="a"/>
              <feFlood flood-color="rgb(255,0,0)" result="b"/>
              <feComposite in="a" in2="b" operator="arithmetic" k1="0.5" k2="0.5" k3="0.25" k4="0.1"/>
            </filter>
            <rect x="10" y="10" width="20" height="20" filter="url(#f)"/>
            """)
        // a = (0.2, 0.4, 0.6, 1), b = (1, 0, 0, 1):
        // r = 0.5·0.2·1 + 0.5·0.2 + 0.25·1 + 0.1 = 0.55; g = 0.2 + 0.1 = 0.3; b = 0.3 + 0.1 = 0.4;
        // a = 0.5 + 0.5 + 0.25 + 0.1 → 1.
        expectNear(pixel(rgb, 50, 50), SIMD3(0.55 * 255, 0.3 * 255, 0.4 * 255))
    }

    @Test("feComposite in keeps in where in2 is opaque (Porter-Duff, Filter Effects 1 § feComposite)")
    func compositeIn() throws {
        let (rgb, _) = try render("""
            <filter id="f" filterUnits="userSpaceOnUse" x="0" y="0" width="100" height="100">
              <feFlood flood-color="#00ff00" result="green"/>
              <feComposite in="green" in2="SourceAlpha" operator="in"/>
            </filter>
            <rect x="20" y="20" width="20" height="20" fill="blue" filter="url(#f)"/>
            """)
        expectNear(pixel(rgb, 30, 30), SIMD3(0, 255, 0))
        expectNear(pixel(rgb, 60, 60), SIMD3(255, 255, 255))
    }

    @Test("color-interpolation-filters: linearRGB (the initial value) and sRGB give different matrices' results")
    func colorInterpolationFilters() throws {
        func half(_ space: String) -> String {
            """
            <filter id="f\(space)" color-interpolation-filters="\(space)">
              <feColorMatrix type="matrix" values="0.5 0 0 0 0  0 1 0 0 0  0 0 1 0 0  0 0 0 1 0"/>
            </filter>
            """
        }
        let (rgb, _) = try render(half("linearRGB") + half("sRGB") + """
            <rect x="10" y="10" width="30" height="30" fill="#ff0000" filter="url(#flinearRGB)"/>
            <rect x="60" y="10" width="30" height="30" fill="#ff0000" filter="url(#fsRGB)"/>
            """)
        // linearRGB: 1 → ×0.5 = 0.5 linear → sRGB 0.7354 (187.5); sRGB: 0.5 (127.5).
        expectNear(pixel(rgb, 25, 25), SIMD3(187.5, 0, 0))
        expectNear(pixel(rgb, 75, 25), SIMD3(127.5, 0, 0))
    }

    @Test("feComponentTransfer table and feBlend multiply on known colours (sRGB)")
    func componentTransferAndBlend() throws {
        let (rgb, _) = try render("""
            <filter id="t" color-interpolation-filters="sRGB">
              <feComponentTransfer><feFuncR type="table" tableValues="1 0"/><feFuncG type="linear" slope="0.5" intercept="0.25"/></feComponentTransfer>
            </filter>
            <filter id="m" filterUnits="userSpaceOnUse" x="50" y="50" width="50" height="50" color-interpolation-filters="sRGB">
              <feFlood flood-color="rgb(128,255,64)" result="top"/>
              <feBlend in="top" in2="SourceGraphic" mode="multiply"/>
            </filter>
            <rect x="10" y="10" width="30" height="30" fill="rgb(51,204,0)" filter="url(#t)"/>
            <rect x="60" y="60" width="30" height="30" fill="rgb(255,128,255)" filter="url(#m)"/>
            """)
        // r: table (1, 0) at 0.2 → 0.8 (204); g: 0.5·0.8 + 0.25 = 0.65 (165.75); b unchanged 0.
        expectNear(pixel(rgb, 25, 25), SIMD3(204, 165.75, 0))
        // multiply: (128·255, 255·128, 64·255) / 255 = (128, 128, 64) inside the rect; outside it
        // the flood over nothing: (128, 255, 64).
        expectNear(pixel(rgb, 75, 75), SIMD3(128, 128, 64))
        expectNear(pixel(rgb, 55, 75), SIMD3(128, 255, 64))
        expectNear(pixel(rgb, 45, 75), SIMD3(255, 255, 255))
    }

    @Test("CSS filter functions: grayscale(1) and opacity(0.5) (Filter Effects 1 § filter functions)")
    func cssFunctions() throws {
        let (rgb, _) = try render("""
            <rect x="10" y="10" width="30" height="30" fill="#ff0000" filter="grayscale(1)"/>
            <rect x="60" y="10" width="30" height="30" fill="#0000ff" filter="opacity(0.5)"/>
            """)
        // grayscale(1) on sRGB red: 0.2126 (54.2) in every channel.
        expectNear(pixel(rgb, 25, 25), SIMD3(54.2, 54.2, 54.2))
        expectNear(pixel(rgb, 75, 25), SIMD3(127.5, 127.5, 255))
    }

    @Test("feGaussianBlur of a step edge follows the Gaussian integral (σ = 4: 50 % at the edge, 84 % one σ inside)")
    func blurStepEdge() throws {
        let (rgb, _) = try render("""
            <filter id="f" filterUnits="userSpaceOnUse" x="0" y="0" width="100" height="100" color-interpolation-filters="sRGB">
              <feGaussianBlur stdDeviation="4 0"/>
            </filter>
            <rect x="50" y="0" width="60" height="100" fill="#000000" filter="url(#f)"/>
            """)
        // Coverage Φ(x/σ) of black at pixel centre offsets from the edge at x = 50:
        // x = 49.5 → Φ(−0.125) = 0.450; x = 53.5 → Φ(0.875) = 0.809. White minus 255·coverage.
        expectNear(pixel(rgb, 49, 50), SIMD3(repeating: 255 * (1 - 0.450)), 4)
        expectNear(pixel(rgb, 53, 50), SIMD3(repeating: 255 * (1 - 0.809)), 4)
    }

    @Test("feDiffuseLighting on a flat surface: kd · (N·L) · lighting-color, opaque (Filter Effects 1 § feDiffuseLighting)")
    func diffuseLightingFlat() throws {
        let (rgb, _) = try render("""
            <filter id="f" color-interpolation-filters="sRGB">
              <feDiffuseLighting surfaceScale="0" diffuseConstant="0.5" lighting-color="#ffffff">
                <feDistantLight azimuth="0" elevation="90"/>
              </feDiffuseLighting>
            </filter>
            <rect x="20" y="20" width="60" height="60" filter="url(#f)"/>
            """)
        // N = (0, 0, 1), L = (0, 0, 1): 0.5 · 1 · 1 = 0.5 in every channel, alpha 1.
        expectNear(pixel(rgb, 50, 50), SIMD3(repeating: 127.5))
    }

    @Test("a filter reference to nothing hides the element (Filter Effects 1 § filter property)")
    func brokenReferenceHides() throws {
        let (rgb, doc) = try render("<rect x=\"10\" y=\"10\" width=\"30\" height=\"30\" filter=\"url(#missing)\"/>")
        expectNear(pixel(rgb, 25, 25), SIMD3(255, 255, 255))
        #expect(doc.issues.contains { $0.kind == .brokenReference })
    }

    // MARK: Bad input (issue 24): bounded, reported, never a hang.

    @Test("a 10,000-primitive filter chain is cut to FilterGraph.maxPrimitives and reported")
    func longChainIsCut() throws {
        let chain = String(repeating: "<feOffset dx=\"0.001\"/>", count: 10_000)
        let (rgb, doc) = try render("""
            <filter id="f">\(chain)</filter>
            <rect x="10" y="10" width="30" height="30" fill="#000000" filter="url(#f)"/>
            """)
        #expect(doc.issues.contains { $0.kind == .limitReached && $0.feature.contains("primitives") })
        expectNear(pixel(rgb, 25, 25), SIMD3(0, 0, 0))
    }

    @Test("a 10,000-long CSS filter list is cut to SVGBuilder.maxFilterListItems and reported")
    func longFunctionList() throws {
        let list = String(repeating: "invert(0) ", count: 10_000)
        let (rgb, doc) = try render("<rect x=\"10\" y=\"10\" width=\"30\" height=\"30\" fill=\"#000000\" filter=\"\(list)\"/>")
        expectNear(pixel(rgb, 25, 25), SIMD3(0, 0, 0))
        #expect(doc.issues.contains { $0.kind == .limitReached && $0.feature == "filter list" })
    }

    @Test("a filter region 1e7 px wide is cut to the visible area, with a warning")
    func hugeRegionIsBounded() throws {
        let ((rgb, _), warnings) = try Diagnostics.capture { try render("""
            <filter id="f" filterUnits="userSpaceOnUse" x="-5000000" y="0" width="10000000" height="100">
              <feFlood flood-color="#0000ff"/>
            </filter>
            <rect x="10" y="10" width="30" height="30" filter="url(#f)"/>
            """) }
        expectNear(pixel(rgb, 90, 50), SIMD3(0, 0, 255))
        #expect(warnings.contains { $0.contains("filter region") })
    }

    @Test("feConvolveMatrix order 1e4 is reported, not run (feTurbulence's and feImage's bad input: SVGFilterSourceTests)")
    func hostilePrimitivesAreBounded() throws {
        let (rgb, doc) = try render("""
            <filter id="c"><feConvolveMatrix order="10000" kernelMatrix="1"/></filter>
            <rect x="10" y="60" width="30" height="30" filter="url(#c)"/>
            """)
        #expect(doc.issues.contains { $0.feature == "<feConvolveMatrix>" })
        // Its result is transparent: nothing drawn.
        expectNear(pixel(rgb, 25, 75), SIMD3(255, 255, 255))
    }
}
