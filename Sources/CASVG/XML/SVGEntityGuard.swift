import Foundation

/// Billion-laughs defence, independent of the XML library's own (measured: libxml2 behind
/// Foundation's `XMLParser` on Linux does expand internal entities inside attribute values,
/// and stops with error 89 "entity amplification" only from about 10⁴ characters; a
/// smaller build-up still expands). Before parsing, the DOCTYPE's internal subset is scanned:
/// every `<!ENTITY name "value">` gets its fully expanded length computed (references followed,
/// cycles detected), and the document is rejected when any entity would expand beyond
/// `maxEntityExpansion` characters, when there are more than `maxEntityDeclarations`, or when a
/// parameter entity (`%name;`) is declared. External entities (`SYSTEM`/`PUBLIC`) are never
/// fetched: their declarations are rewritten in place to empty internal entities (same byte
/// length, so the parser's line and column numbers still match the input), which is what the
/// import promises ("expands to nothing"), and they are reported.
enum SVGEntityGuard {
    struct Declared { var value: String; var external: Bool }

    /// Throws `SVGError.entityExpansionLimit` for a hostile subset; returns the names of
    /// external entities (reported as issues, never fetched), whose declarations it has
    /// rewritten to `""` followed by spaces.
    static func check(_ bytes: inout [UInt8], limits: SVGImportLimits) throws -> [String] {
        guard let doctype = find(Array("<!DOCTYPE".utf8), in: bytes, from: 0) else { return [] }
        // The internal subset runs from the first '[' after DOCTYPE to the matching "]".
        var i = doctype
        var sawBracket = false
        while i < bytes.count, bytes[i] != UInt8(ascii: ">") {
            if bytes[i] == UInt8(ascii: "[") { sawBracket = true; break }
            i += 1
        }
        guard sawBracket else { return [] }
        var decls: [String: Declared] = [:]
        var count = 0
        var pos = i
        while let start = find(Array("<!ENTITY".utf8), in: bytes, from: pos) {
            count += 1
            if count > limits.maxEntityDeclarations {
                throw SVGError.entityExpansionLimit("more than \(limits.maxEntityDeclarations) entity declarations")
            }
            var j = start + 8
            skipSpace(bytes, &j)
            if j < bytes.count, bytes[j] == UInt8(ascii: "%") {
                throw SVGError.entityExpansionLimit("parameter entities are not supported")
            }
            let name = readName(bytes, &j)
            skipSpace(bytes, &j)
            guard j < bytes.count else { break }
            if bytes[j] == UInt8(ascii: "\"") || bytes[j] == UInt8(ascii: "'") {
                let q = bytes[j]
                var k = j + 1
                while k < bytes.count, bytes[k] != q { k += 1 }
                let value = String(decoding: bytes[(j + 1)..<min(k, bytes.count)], as: UTF8.self)
                decls[name] = Declared(value: value, external: false)
                pos = k + 1
            } else {
                decls[name] = Declared(value: "", external: true)
                pos = blankExternalID(&bytes, from: j)
            }
        }
        // Expanded length of each entity, following references, with a cycle check.
        var memo: [String: Int] = [:]
        var visiting: Set<String> = []
        func expanded(_ name: String) throws -> Int {
            if let m = memo[name] { return m }
            guard let d = decls[name], !d.external else { return 0 }
            if !visiting.insert(name).inserted {
                throw SVGError.entityExpansionLimit("entity '\(name)' refers to itself")
            }
            var total = 0
            var literal = 0
            var s = d.value.unicodeScalars[...]
            while let c = s.first {
                s = s.dropFirst()
                if c == "&", let semi = s.firstIndex(of: ";") {
                    let ref = String(String.UnicodeScalarView(s[s.startIndex..<semi]))
                    s = s[s.index(after: semi)...]
                    if ref.hasPrefix("#") || ["lt", "gt", "amp", "apos", "quot"].contains(ref) {
                        literal += 1
                    } else {
                        total += try expanded(ref)
                    }
                } else {
                    literal += 1
                }
                if total + literal > limits.maxEntityExpansion {
                    throw SVGError.entityExpansionLimit(
                        "entity '\(name)' expands beyond \(limits.maxEntityExpansion) characters")
                }
            }
            visiting.remove(name)
            memo[name] = total + literal
            return total + literal
        }
        for name in decls.keys.sorted() { _ = try expanded(name) }
        return decls.filter { $0.value.external }.keys.sorted()
    }

    /// Rewrites `SYSTEM "uri"` / `PUBLIC "id" "uri"` (and anything else up to the declaration's
    /// `>`, quoted strings skipped) as `""` and spaces; returns the index after the `>`.
    static func blankExternalID(_ b: inout [UInt8], from start: Int) -> Int {
        var k = start
        while k < b.count, b[k] != UInt8(ascii: ">") {
            if b[k] == UInt8(ascii: "\"") || b[k] == UInt8(ascii: "'") {
                let q = b[k]
                k += 1
                while k < b.count, b[k] != q { k += 1 }
            }
            if k < b.count { k += 1 }
        }
        guard k - start >= 2 else { return k }
        b[start] = UInt8(ascii: "\"")
        b[start + 1] = UInt8(ascii: "\"")
        for i in (start + 2)..<k where b[i] != 0x0A && b[i] != 0x0D { b[i] = 0x20 }
        return min(k + 1, b.count)
    }

    static func find(_ needle: [UInt8], in hay: [UInt8], from: Int) -> Int? {
        guard needle.count <= hay.count, from <= hay.count - needle.count else { return nil }
        var i = from
        let last = hay.count - needle.count
        while i <= last {
            if hay[i] == needle[0] {
                var k = 1
                while k < needle.count, hay[i + k] == needle[k] { k += 1 }
                if k == needle.count { return i }
            }
            i += 1
        }
        return nil
    }

    static func skipSpace(_ b: [UInt8], _ i: inout Int) {
        while i < b.count, b[i] == 0x20 || b[i] == 0x09 || b[i] == 0x0A || b[i] == 0x0D { i += 1 }
    }

    static func readName(_ b: [UInt8], _ i: inout Int) -> String {
        let s = i
        while i < b.count, !(b[i] == 0x20 || b[i] == 0x09 || b[i] == 0x0A || b[i] == 0x0D || b[i] == UInt8(ascii: ">")) { i += 1 }
        return String(decoding: b[s..<i], as: UTF8.self)
    }
}
