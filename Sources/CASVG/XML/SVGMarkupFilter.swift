import Foundation

/// Removes the markup that crashed Foundation's `XMLParser` on Linux before the parser sees it.
/// CASVG now parses with libxml2's SAX API directly (`SVGXMLReader`), which does not crash on it;
/// the filter stays so that these documents import as they did (and as a second line of defence
/// should a parser glue crash again), and because none of this markup means anything to SVG.
///
/// Measured with this toolchain (issue 17): libxml2 hands some SAX callbacks a NULL string where
/// a part is absent, and Foundation's Linux glue passes it straight to `String(cString:)` — a
/// SIGSEGV in `strlen`, not an error, whether or not the delegate implements the callback:
///   - a processing instruction without data: `<?foo?>` (anywhere: prolog, content, epilog,
///     DTD internal subset), `<?xml?>`, `<?xml-stylesheet?>`;
///   - `<!NOTATION n SYSTEM "s">` / `<!NOTATION n PUBLIC "p">` (one of the two ids absent);
///   - `<!ENTITY e SYSTEM "x" NDATA n>` (an unparsed entity without a public id);
///   - `<!ATTLIST svg a CDATA #IMPLIED>` (no default value), and ENTITY-typed attributes;
///   - a processing instruction inside an entity's replacement text, literal or written with
///     character references (`<!ENTITY e "&#60;?foo?>">` then `&e;`).
/// None of these carry SVG meaning (SVG 1.1 §1.3 defines no processing instruction; notations,
/// unparsed entities and DTD attribute declarations do not affect rendering), so they are
/// blanked — replaced byte for byte with spaces, newlines kept, so the parser's line and
/// column numbers in later errors still match the input. The XML declaration (`<?xml` and
/// white space at the very start, XML 1.0 §2.8) is kept. An entity whose value holds a
/// processing instruction cannot be blanked in place, so the document is rejected with
/// `SVGError.entityExpansionLimit`.
///
/// The scan is lexical and linear: comments and CDATA sections are skipped whole (a `<?` inside
/// them is text), quoted strings inside tags and declarations are skipped (a `>` or `<?` in them
/// is not markup), and an unterminated construct is blanked to the end (the parser then reports
/// a truncated document).
enum SVGMarkupFilter {
    static func filter(_ input: [UInt8]) throws -> [UInt8] {
        var s = Scanner(b: input, out: input)
        try s.run()
        return s.out
    }

    private struct Scanner {
        let b: [UInt8]
        var out: [UInt8]
        var i = 0

        static let lt = UInt8(ascii: "<"), gt = UInt8(ascii: ">"), q = UInt8(ascii: "?")
        static let dq = UInt8(ascii: "\""), sq = UInt8(ascii: "'")

        func at(_ k: Int, _ s: StaticString) -> Bool {
            // StaticString: no allocation per call (this runs at every `<` of the document).
            let n = s.utf8CodeUnitCount
            guard k + n <= b.count else { return false }
            let u = s.utf8Start
            for j in 0..<n where b[k + j] != u[j] { return false }
            return true
        }

        func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D }

        /// Index just past the first occurrence of `s` at or after `k`, or `b.count`.
        func past(_ s: String, from k: Int) -> Int {
            let u = Array(s.utf8)
            return SVGEntityGuard.find(u, in: b, from: k).map { $0 + u.count } ?? b.count
        }

        mutating func blank(_ r: Range<Int>) {
            for k in r where out[k] != 0x0A && out[k] != 0x0D { out[k] = 0x20 }
        }

        mutating func run() throws {
            if b.starts(with: [0xEF, 0xBB, 0xBF]) { i = 3 }
            if at(i, "<?xml"), i + 5 < b.count, isSpace(b[i + 5]) {
                let end = past("?>", from: i + 5)
                if end == b.count { blank(i..<end) }
                i = end
            }
            while i < b.count {
                guard b[i] == Self.lt else { i += 1; continue }
                if at(i, "<!--") { i = past("-->", from: i + 4) }
                else if at(i, "<![CDATA[") { i = past("]]>", from: i + 9) }
                else if at(i, "<?") { let e = past("?>", from: i + 2); blank(i..<e); i = e }
                else if at(i, "<!DOCTYPE") { try doctype() }
                else { i = endOfTag(from: i + 1) }
            }
        }

        /// Index past the `>` that closes a tag or declaration, skipping quoted strings.
        func endOfTag(from k: Int) -> Int {
            var k = k
            while k < b.count {
                let c = b[k]
                if c == Self.dq || c == Self.sq {
                    k += 1
                    while k < b.count, b[k] != c { k += 1 }
                    k += 1
                } else if c == Self.gt {
                    return k + 1
                } else {
                    k += 1
                }
            }
            return b.count
        }

        mutating func doctype() throws {
            i += 9
            while i < b.count {
                let c = b[i]
                if c == Self.dq || c == Self.sq {
                    i += 1
                    while i < b.count, b[i] != c { i += 1 }
                    i += 1
                } else if c == UInt8(ascii: "[") {
                    i += 1
                    try internalSubset()
                } else if c == Self.gt {
                    i += 1; return
                } else {
                    i += 1
                }
            }
        }

        /// The DTD internal subset (XML 1.0 §2.8), up to and past its closing `]`.
        mutating func internalSubset() throws {
            while i < b.count {
                if b[i] == UInt8(ascii: "]") { i += 1; return }
                if at(i, "<!--") { i = past("-->", from: i + 4); continue }
                if at(i, "<?") { let e = past("?>", from: i + 2); blank(i..<e); i = e; continue }
                if at(i, "<!") {
                    let start = i
                    let end = endOfTag(from: i + 2)
                    i = end
                    if at(start, "<!NOTATION") || at(start, "<!ATTLIST") {
                        blank(start..<end)
                    } else if at(start, "<!ENTITY") {
                        if try entityMustGo(start..<end) { blank(start..<end) }
                    }
                    continue
                }
                i += 1
            }
        }

        /// True for an unparsed entity (`NDATA` outside quotes); throws when a quoted value
        /// holds a processing instruction once character references are decoded.
        func entityMustGo(_ r: Range<Int>) throws -> Bool {
            var k = r.lowerBound + 8
            var unquoted: [UInt8] = []
            while k < r.upperBound {
                let c = b[k]
                if c == Self.dq || c == Self.sq {
                    var e = k + 1
                    while e < r.upperBound, b[e] != c { e += 1 }
                    let value = Self.decodingCharacterReferences(b[(k + 1)..<min(e, r.upperBound)])
                    if SVGEntityGuard.find([Self.lt, Self.q], in: value, from: 0) != nil {
                        let name = String(decoding: b[(r.lowerBound + 8)..<k], as: UTF8.self)
                            .trimmingCharacters(in: .whitespacesAndNewlines)
                        throw SVGError.entityExpansionLimit(
                            "entity '\(name)' holds a processing instruction (not supported)")
                    }
                    unquoted.append(0x20)
                    k = e + 1
                } else {
                    unquoted.append(c)
                    k += 1
                }
            }
            let words = String(decoding: unquoted, as: UTF8.self).split(whereSeparator: { $0.isWhitespace || $0 == ">" })
            return words.contains("NDATA")
        }

        /// `&#60;` and `&#x3C;` replaced by the character they stand for (XML 1.0 §4.1: the
        /// parser does this when it reads an entity value); other bytes unchanged.
        static func decodingCharacterReferences(_ v: ArraySlice<UInt8>) -> [UInt8] {
            var r: [UInt8] = []
            r.reserveCapacity(v.count)
            var k = v.startIndex
            while k < v.endIndex {
                if v[k] == UInt8(ascii: "&"), k + 1 < v.endIndex, v[k + 1] == UInt8(ascii: "#"),
                   // A character reference is at most `&#x10FFFF;` plus leading zeros; looking
                   // 16 bytes ahead keeps the scan linear on a value full of unterminated `&#`.
                   let semi = v[k..<min(k + 16, v.endIndex)].firstIndex(of: UInt8(ascii: ";")) {
                    let body = String(decoding: v[(k + 2)..<semi], as: UTF8.self)
                    let scalar = body.hasPrefix("x") ? UInt32(body.dropFirst(), radix: 16) : UInt32(body, radix: 10)
                    if let scalar, let u = Unicode.Scalar(scalar) {
                        r.append(contentsOf: Array(String(Character(u)).utf8))
                        k = semi + 1
                        continue
                    }
                }
                r.append(v[k])
                k += 1
            }
            return r
        }
    }
}
