import Testing
import Foundation

/// Colours (SVG 1.1 §4.2, CSS Color 3/4 forms).
@Suite struct SVGColorTests {
    func c(_ s: String) -> [Double]? {
        guard case let .rgba(r, g, b, a)? = SVGColorParser.parse(s) else { return nil }
        return [r, g, b, a].map { ($0 * 1000).rounded() / 1000 }
    }

    @Test func hexForms() {
        #expect(c("#f00") == [1, 0, 0, 1])
        #expect(c("#FF8000") == [1, 0.502, 0, 1])
        #expect(c("#0f08") == [0, 1, 0, 0.533])
        #expect(c("#00ff0080") == [0, 1, 0, 0.502])
        #expect(c("#ff") == nil)
        #expect(c("#ggg") == nil)
    }

    @Test func functionalForms() {
        #expect(c("rgb(255, 0, 128)") == [1, 0, 0.502, 1])
        #expect(c("rgb(100%, 50%, 0%)") == [1, 0.5, 0, 1])
        #expect(c("rgba(0, 0, 255, 0.5)") == [0, 0, 1, 0.5])
        #expect(c("rgb(0 0 255 / 50%)") == [0, 0, 1, 0.5])
        #expect(c("rgb(300, -5, 0)") == [1, 0, 0, 1])    // clamped (CSS Color 3 §4.2.1)
        #expect(c("hsl(120, 100%, 50%)") == [0, 1, 0, 1])
        #expect(c("hsla(240, 100%, 50%, 0.25)") == [0, 0, 1, 0.25])
        #expect(c("rgb(1, 2)") == nil)
    }

    @Test func keywords() {
        #expect(c("green") == [0, 0.502, 0, 1])
        #expect(c("  RED ") == [1, 0, 0, 1])
        #expect(c("cornflowerblue") == [0.392, 0.584, 0.929, 1])
        #expect(c("transparent") == [0, 0, 0, 0])
        #expect(SVGColorParser.parse("currentColor") == .currentColor)
        #expect(c("notacolour") == nil)
        #expect(SVGNamedColors.table.count == 147)
    }

    @Test func paints() {
        #expect(SVGPaint.parse("none") == SVGPaint.none)
        #expect(SVGPaint.parse("url(#g)") == .url(id: "#g", fallback: nil))
        #expect(SVGPaint.parse("url('#g') red") == .url(id: "#g", fallback: .color(.rgba(1, 0, 0, 1))))
        #expect(SVGPaint.parse("url(#g) none") == .url(id: "#g", fallback: SVGPaint.none))
    }
}
