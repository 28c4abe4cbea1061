import Testing
import Foundation

/// XML namespaces (Namespaces in XML 1.0; SVG 1.1 §1.1): elements are SVG by the namespace
/// their prefix is bound to, not by the prefix's spelling; attributes in XLink likewise.
@Suite struct SVGNamespaceTests {
    @Test("A prefix bound to the SVG namespace is SVG; an unprefixed element under another default namespace is foreign")
    func prefixedAndForeignElements() throws {
        let doc = try SVGDocument(string: """
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">
              <s:g xmlns="http://www.example.org/notsvg" xmlns:s="http://www.w3.org/2000/svg">
                <s:rect width="10" height="10" fill="lime"/>
                <rect width="20" height="20" fill="red"/>
              </s:g>
            </svg>
            """)
        let fills = shapeLayers(doc.layer).map { rgba($0.fillColor) }
        #expect(fills == [[0, 1, 0, 1]], "\(fills)")
    }

    @Test("href in the XLink namespace under any prefix is href; xlink: bound elsewhere is not")
    func xlinkByNamespace() throws {
        let doc = try SVGDocument(string: """
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">
              <defs><rect id="r" width="10" height="10" fill="lime"/></defs>
              <use xmlns:q="http://www.w3.org/1999/xlink" q:href="#r"/>
              <use xmlns:xlink="http://example.org/notxlink" xlink:href="#r" x="50"/>
            </svg>
            """)
        #expect(shapeLayers(doc.layer).count == 1)
    }

    @Test("Without namespace declarations, unprefixed names, svg: and xlink: keep their usual meaning")
    func lenientWithoutDeclarations() throws {
        let doc = try SVGDocument(string: """
            <svg viewBox="0 0 100 100"><defs><rect id="r" width="10" height="10"/></defs><use xlink:href="#r"/><svg:circle r="5"/></svg>
            """)
        #expect(shapeLayers(doc.layer).count == 2)
    }
}
