import Testing
import Foundation

/// Lengths and units (SVG 1.1 §7.10), viewBox and preserveAspectRatio (§7.7–7.8), document size.
@Suite struct SVGUnitsAndViewBoxTests {
    let vp = CGSize(width: 200, height: 100)

    @Test func absoluteUnitsAt96PerInch() throws {
        func px(_ s: String) -> Double { (SVGLength.parse(s)!.resolve(.x, viewport: vp) * 1e4).rounded() / 1e4 }
        #expect(px("10") == 10)
        #expect(px("10px") == 10)
        #expect(px("1in") == 96)
        #expect(px("2.54cm") == 96)
        #expect(px("25.4mm") == 96)
        #expect(px("72pt") == 96)
        #expect(px("6pc") == 96)
        // em and ex against the initial font size, 12 px (resvg's default; SVGComputedStyle).
        #expect(px("2em") == 24)
        #expect(px("2ex") == 12)
        #expect(px("1e1px") == 10)
        #expect(SVGLength.parse("10 px") == nil)
        #expect(SVGLength.parse("px") == nil)
        #expect(SVGLength.parse("10furlongs") == nil)
    }

    @Test func percentagesByAxis() {
        let l = SVGLength(value: 50, unit: .percent)
        #expect(l.resolve(.x, viewport: vp) == 100)
        #expect(l.resolve(.y, viewport: vp) == 50)
        // sqrt((200² + 100²) / 2) = 158.114; half of it:
        #expect((l.resolve(.other, viewport: vp) * 1000).rounded() / 1000 == 79.057)
    }

    @Test func preserveAspectRatioForms() {
        let vb = CGRect(x: 0, y: 0, width: 100, height: 50)
        let port = CGSize(width: 200, height: 200)
        func m(_ s: String?) -> [CGFloat] {
            let t = SVGAspectRatio.parse(s)!.transform(viewBox: vb, viewport: port)
            return [t.a, t.d, t.tx, t.ty]
        }
        #expect(m(nil) == [2, 2, 0, 50])                    // xMidYMid meet
        #expect(m("xMinYMin") == [2, 2, 0, 0])
        #expect(m("xMaxYMax meet") == [2, 2, 0, 100])
        #expect(m("xMidYMid slice") == [4, 4, -100, 0])
        #expect(m("xMinYMax slice") == [4, 4, 0, 0])
        #expect(m("none") == [2, 4, 0, 0])
        #expect(SVGAspectRatio.parse("xMidYmid") == nil)
        // A viewBox origin moves the content: viewBox 10 10 100 50 at scale 2.
        let t = SVGAspectRatio().transform(viewBox: CGRect(x: 10, y: 10, width: 100, height: 50), viewport: port)
        #expect(CGPoint(x: 10, y: 10).applying(t) == CGPoint(x: 0, y: 50))
    }

    @Test func viewBoxValidation() {
        #expect(SVGAspectRatio.viewBox("0 0 10 20") == CGRect(x: 0, y: 0, width: 10, height: 20))
        #expect(SVGAspectRatio.viewBox("0,0,10,20") == CGRect(x: 0, y: 0, width: 10, height: 20))
        #expect(SVGAspectRatio.viewBox("0 0 0 20") == nil)
        #expect(SVGAspectRatio.viewBox("0 0 -1 20") == nil)
        #expect(SVGAspectRatio.viewBox("0 0 10") == nil)
    }

    @Test func documentSize() throws {
        #expect(try svg("", viewBox: "0 0 200 100").size == CGSize(width: 200, height: 100))
        #expect(try svg("", viewBox: "0 0 200 100", extra: "width=\"400\"").size == CGSize(width: 400, height: 200))
        #expect(try svg("", viewBox: "0 0 200 100", extra: "height=\"1in\"").size == CGSize(width: 192, height: 96))
        #expect(try svg("", viewBox: "0 0 200 100", extra: "width=\"50%\" height=\"100%\"").size == CGSize(width: 100, height: 100))
        #expect(try SVGDocument(string: "<svg xmlns=\"http://www.w3.org/2000/svg\"/>").size == CGSize(width: 100, height: 100))
        let doc = try svg("", viewBox: "0 0 200 100", extra: "width=\"30mm\" height=\"20mm\"")
        #expect((doc.size.width * 1000).rounded() / 1000 == 113.386)
        #expect(doc.layer.bounds == CGRect(origin: .zero, size: doc.size))
        #expect(doc.layer.masksToBounds)
    }

    @Test func viewBoxMapsUserSpaceIntoLayerSpace() throws {
        // viewBox 0 0 50 50 into 100 × 200 (xMidYMid meet: scale 2, 50 down).
        let doc = try svg("<rect x=\"10\" y=\"20\" width=\"5\" height=\"5\" fill=\"red\"/>", viewBox: "0 0 50 50",
                          extra: "width=\"100\" height=\"200\"")
        let shape = try #require(shapeLayers(doc.layer).first)
        #expect(shape.convert(CGPoint(x: 10, y: 20), to: doc.layer) == CGPoint(x: 20, y: 90))
        #expect(shape.convert(CGPoint(x: 15, y: 25), to: doc.layer) == CGPoint(x: 30, y: 100))
    }
}
