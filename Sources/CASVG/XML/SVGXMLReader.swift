import Foundation
internal import CXMLSAX

/// Reads SVG bytes into an `SVGElement` tree with libxml2's SAX parser, called directly
/// (`CXMLSAX`): Foundation's `XMLParser` on Linux crashes on some markup (a NULL string handed
/// to `strlen`; `SVGMarkupFilter` still blanks that markup so documents parse as before) and
/// keeps 200–700 bytes per document it parses (issue 17, item 10). External entities and DTDs
/// are never loaded (external entity declarations are rewritten to empty internal ones by
/// `SVGEntityGuard`, and the parser loads no subset and no entity); entity expansion is bounded
/// by `SVGEntityGuard` before the parser sees the bytes; nesting depth and element count are
/// bounded while parsing (the parse is stopped, not continued, so a 10⁶-deep document costs one
/// pass up to the limit).
final class SVGXMLReader {
    private let limits: SVGImportLimits
    private var stack: [SVGElement] = []
    /// Namespace declarations in scope, one entry per open element (prefix → URI; "" is the
    /// default namespace), for `SVGNamespaces.resolve`.
    private var scopes: [[String: String]] = []
    private(set) var root: SVGElement?
    private var elementCount = 0
    private var limitError: SVGError?

    init(limits: SVGImportLimits) { self.limits = limits }

    static func read(_ data: Data, limits: SVGImportLimits, log: SVGIssueLog) throws -> SVGElement {
        if data.count > limits.maxInputBytes { throw SVGError.inputTooLarge(bytes: data.count, limit: limits.maxInputBytes) }
        let utf8 = try SVGTextEncoding.utf8(data)
        // Markup that crashed Foundation's XMLParser is blanked first (see SVGMarkupFilter).
        var bytes = try SVGMarkupFilter.filter([UInt8](utf8))
        for name in try SVGEntityGuard.check(&bytes, limits: limits) {
            log.add(.externalReference, "<!ENTITY \(name) SYSTEM …>", "external entity not fetched; expands to nothing")
        }
        let reader = SVGXMLReader(limits: limits)
        var status = ca_xml_status()
        var handler = ca_xml_handler(
            start_element: { ctx, name, attributes in
                Unmanaged<SVGXMLReader>.fromOpaque(ctx!).takeUnretainedValue().start(name, attributes) ? 0 : 1
            },
            end_element: { ctx, _ in
                let reader = Unmanaged<SVGXMLReader>.fromOpaque(ctx!).takeUnretainedValue()
                _ = reader.stack.popLast()
                _ = reader.scopes.popLast()
            },
            characters: { ctx, text, length in
                Unmanaged<SVGXMLReader>.fromOpaque(ctx!).takeUnretainedValue().characters(text, length, cdata: false)
            },
            cdata: { ctx, text, length in
                Unmanaged<SVGXMLReader>.fromOpaque(ctx!).takeUnretainedValue().characters(text, length, cdata: true)
            })
        let context = Unmanaged.passUnretained(reader).toOpaque()
        let failed = withExtendedLifetime(reader) {
            bytes.withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { chars in
                    ca_xml_parse(chars.baseAddress, chars.count, &handler, context, &status)
                }
            }
        }
        if let e = reader.limitError { throw e }
        if failed != 0 || !reader.stack.isEmpty {
            let message = withUnsafeBytes(of: status.message) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            let text = message.isEmpty ? "unexpected end of document" : message
            let code = status.code > 0 ? " (libxml2 error \(status.code))" : ""
            throw SVGError.malformedXML(message: text + code, line: Int(status.line), column: Int(status.column))
        }
        guard let root = reader.root else {
            throw SVGError.malformedXML(message: "no root element", line: Int(status.line), column: Int(status.column))
        }
        return root
    }

    /// One element opened; false stops the parse (a limit was reached).
    private func start(_ qualifiedName: UnsafePointer<CChar>?, _ attributes: UnsafePointer<UnsafePointer<CChar>?>?) -> Bool {
        if limitError != nil { return false }
        elementCount += 1
        if elementCount > limits.maxElements {
            limitError = .tooManyElements(limit: limits.maxElements)
            return false
        }
        if stack.count >= limits.maxDepth {
            limitError = .nestingTooDeep(limit: limits.maxDepth)
            return false
        }
        var raw: [(String, String)] = []
        var scope = scopes.last ?? [:]
        if var p = attributes {
            while let k = p[0] {
                let key = String(cString: k)
                let value = p[1].map { String(cString: $0) } ?? ""
                if key == "xmlns" { scope[""] = value } else if key.hasPrefix("xmlns:") { scope[String(key.dropFirst(6))] = value }
                raw.append((key, value))
                p += 2
            }
        }
        scopes.append(scope)
        var attrs: [String: String] = [:]
        for (key, value) in raw {
            let resolved = SVGNamespaces.attribute(key, scope: scope)
            // A plain `href` wins over `xlink:href` (SVG 2), in either order.
            if resolved == SVGNamespaces.xlinkHref { if attrs["href"] == nil { attrs["href"] = value } }
            else { attrs[resolved] = value }
        }
        let name = qualifiedName.map { String(cString: $0) } ?? ""
        let e = SVGElement(name: SVGNamespaces.element(name, scope: scope), attributes: attrs)
        if let p = stack.last { e.parent = p; p.children.append(e) } else if root == nil { root = e }
        stack.append(e)
        return true
    }

    private func characters(_ text: UnsafePointer<CChar>?, _ length: Int32, cdata: Bool) {
        guard limitError == nil, let text, length > 0, let e = stack.last else { return }
        let string = text.withMemoryRebound(to: UInt8.self, capacity: Int(length)) {
            String(decoding: UnsafeBufferPointer(start: $0, count: Int(length)), as: UTF8.self)
        }
        if e.name == "style" { e.text += string }
        textContent(string)
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
}
