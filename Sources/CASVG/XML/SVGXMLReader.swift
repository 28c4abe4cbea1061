import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Reads SVG bytes into an `SVGElement` tree with Foundation's `XMLParser` (libxml2 on
/// Linux). External entities and DTDs are never loaded (`shouldResolveExternalEntities =
/// false`); entity expansion is bounded by `SVGEntityGuard` before the parser sees the bytes;
/// nesting depth and element count are bounded while parsing (the parse is aborted, not
/// continued, so a 10⁶-deep document costs one pass up to the limit).
final class SVGXMLReader: NSObject, XMLParserDelegate {
    private let limits: SVGImportLimits
    private var stack: [SVGElement] = []
    private(set) var root: SVGElement?
    private var elementCount = 0
    private var limitError: SVGError?

    init(limits: SVGImportLimits) { self.limits = limits }

    static func read(_ data: Data, limits: SVGImportLimits, log: SVGIssueLog) throws -> SVGElement {
        if data.count > limits.maxInputBytes { throw SVGError.inputTooLarge(bytes: data.count, limit: limits.maxInputBytes) }
        let utf8 = try SVGTextEncoding.utf8(data)
        // Markup that crashes XMLParser on Linux is blanked first (see SVGMarkupFilter).
        let bytes = try SVGMarkupFilter.filter([UInt8](utf8))
        let data = Data(bytes)
        for name in try SVGEntityGuard.check(bytes, limits: limits) {
            log.add(.externalReference, "<!ENTITY \(name) SYSTEM …>", "external entity not fetched; expands to nothing")
        }
        let reader = SVGXMLReader(limits: limits)
        let parser = XMLParser(data: data)
        parser.shouldResolveExternalEntities = false
        parser.shouldProcessNamespaces = false
        parser.shouldReportNamespacePrefixes = false
        parser.delegate = reader
        let ok = parser.parse()
        if let e = reader.limitError { throw e }
        // Measured on Linux: `parse()` can return true for a truncated document while
        // `parserError` is set, so both are checked.
        if !ok || parser.parserError != nil || !reader.stack.isEmpty {
            let message = parser.parserError.map { ($0 as NSError).localizedDescription } ?? "unexpected end of document"
            let code = parser.parserError.map { " (libxml2 error \(($0 as NSError).code))" } ?? ""
            throw SVGError.malformedXML(message: message + code, line: parser.lineNumber, column: parser.columnNumber)
        }
        guard let root = reader.root else {
            throw SVGError.malformedXML(message: "no root element", line: parser.lineNumber, column: parser.columnNumber)
        }
        return root
    }

    /// `svg:rect` → `rect`; other prefixes are kept (foreign elements).
    static func localName(_ q: String) -> String {
        if q.hasPrefix("svg:") { return String(q.dropFirst(4)) }
        return q
    }

    func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]) {
        elementCount += 1
        if elementCount > limits.maxElements {
            limitError = .tooManyElements(limit: limits.maxElements)
            parser.abortParsing(); return
        }
        if stack.count >= limits.maxDepth {
            limitError = .nestingTooDeep(limit: limits.maxDepth)
            parser.abortParsing(); return
        }
        var attrs: [String: String] = [:]
        attrs.reserveCapacity(attributeDict.count)
        for (k, v) in attributeDict {
            if k == "xlink:href" { if attrs["href"] == nil { attrs["href"] = v } }
            else if k.hasPrefix("svg:") { attrs[String(k.dropFirst(4))] = v }
            else { attrs[k] = v }
        }
        let e = SVGElement(name: Self.localName(elementName), attributes: attrs)
        if let p = stack.last { e.parent = p; p.children.append(e) } else if root == nil { root = e }
        stack.append(e)
    }

    func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
        _ = stack.popLast()
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if let e = stack.last, e.name == "style" { e.text += string }
        textContent(string)
    }

    func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
        if let e = stack.last, e.name == "style" { e.text += String(decoding: CDATABlock, as: UTF8.self) }
        textContent(String(decoding: CDATABlock, as: UTF8.self))
    }

    /// Elements whose character data is text to draw (SVG 1.1 §10), kept in document order as
    /// `#text` children so that text and `<tspan>`s interleave as written.
    static let textContainers: Set<String> = ["text", "tspan", "textPath", "a"]

    private func textContent(_ string: String) {
        guard let e = stack.last, Self.textContainers.contains(e.name),
              e.name != "a" || stack.dropLast().contains(where: { $0.name == "text" }) else { return }
        if let last = e.children.last, last.name == SVGElement.textNodeName {
            last.text += string
            return
        }
        elementCount += 1
        if elementCount > limits.maxElements {
            limitError = .tooManyElements(limit: limits.maxElements)
            return
        }
        let t = SVGElement(name: SVGElement.textNodeName, attributes: [:])
        t.text = string
        t.parent = e
        e.children.append(t)
    }

    func parser(_ parser: XMLParser, resolveExternalEntityName name: String, systemID: String?) -> Data? { nil }
}
