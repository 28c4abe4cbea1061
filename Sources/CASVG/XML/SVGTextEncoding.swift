import Foundation

/// Brings the input to valid UTF-8 before the XML parser sees it.
///
/// Measured with this toolchain: Foundation's `XMLParser` on Linux crashes (a trap inside
/// `_NSXMLParserStartElementNs`, not an error) when an attribute name holds bytes that are not
/// UTF-8, e.g. `<t x="" y="" \u{D5}x="` — libxml2 passes the bytes on in recovery and
/// Foundation's string conversion traps. So invalid UTF-8 is rejected here with an `SVGError`.
/// UTF-16 (with a byte-order mark) and declared Latin-1 / Windows-1252 / ASCII documents are
/// transcoded to UTF-8 first, and their declaration rewritten to match.
enum SVGTextEncoding {
    static func utf8(_ data: Data) throws -> Data {
        let bytes = [UInt8](data.prefix(4))
        if bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF]) {
            guard let s = String(data: data, encoding: .utf16) else {
                throw SVGError.malformedXML(message: "invalid UTF-16", line: 0, column: 0)
            }
            return Data(rewriteDeclaration(s).utf8)
        }
        let head = String(decoding: data.prefix(200), as: UTF8.self).lowercased()
        if head.hasPrefix("<?xml"), let r = head.range(of: "encoding=") {
            let rest = head[r.upperBound...].dropFirst()
            let name = String(rest.prefix { $0 != "\"" && $0 != "'" })
            let single: String.Encoding?
            switch name {
            case "iso-8859-1", "latin1", "iso_8859-1", "l1": single = .isoLatin1
            case "windows-1252", "cp1252": single = .windowsCP1252
            case "us-ascii", "ascii": single = .ascii
            default: single = nil
            }
            if let single, let s = String(data: data, encoding: single) {
                return Data(rewriteDeclaration(s).utf8)
            }
        }
        if let bad = firstInvalidUTF8(data) {
            let line = data.prefix(bad).reduce(1) { $0 + ($1 == 0x0A ? 1 : 0) }
            throw SVGError.malformedXML(message: "not valid UTF-8 (byte offset \(bad))", line: line, column: 0)
        }
        return data
    }

    /// `encoding="…"` in the XML declaration replaced by UTF-8.
    static func rewriteDeclaration(_ s: String) -> String {
        var text = s.hasPrefix("\u{FEFF}") ? String(s.dropFirst()) : s
        guard text.hasPrefix("<?xml"), let end = text.range(of: "?>") else { return text }
        let decl = String(text[..<end.lowerBound])
        let fixed = decl.replacingOccurrences(of: #"encoding\s*=\s*["'][^"']*["']"#, with: "encoding=\"UTF-8\"", options: .regularExpression)
        text.replaceSubrange(text.startIndex..<end.lowerBound, with: fixed)
        return text
    }

    /// Offset of the first byte that is not part of a well-formed UTF-8 sequence, or nil.
    static func firstInvalidUTF8(_ data: Data) -> Int? {
        var offset = 0
        var iterator = data.makeIterator()
        var decoder = UTF8()
        var lastGood = 0
        while true {
            switch decoder.decode(&iterator) {
            case let .scalarValue(v):
                offset += UTF8.width(v)
                lastGood = offset
            case .emptyInput:
                return nil
            case .error:
                return lastGood
            }
        }
    }
}
