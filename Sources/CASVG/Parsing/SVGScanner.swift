import Foundation

/// A cursor over the UTF-8 bytes of an attribute value, reading SVG's number grammar (SVG 1.1
/// §8.3.9 path data BNF and the CSS number syntax it shares): an optional sign, digits with an
/// optional fraction, an optional exponent — so `-.5e-3`, `10-20` (two numbers), `.5.5`
/// (two numbers) and `1e2` all read as SVG readers do. Separators are whitespace and at most
/// one comma.
struct SVGScanner {
    let bytes: [UInt8]
    var i = 0

    init(_ s: String) { bytes = Array(s.utf8) }
    init(bytes: [UInt8]) { self.bytes = bytes }

    var atEnd: Bool { i >= bytes.count }
    var peek: UInt8? { i < bytes.count ? bytes[i] : nil }

    static func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 || c == 0x0A || c == 0x0D || c == 0x0C }
    static func isDigit(_ c: UInt8) -> Bool { c >= 0x30 && c <= 0x39 }

    mutating func skipSpaces() { while i < bytes.count, Self.isSpace(bytes[i]) { i += 1 } }

    /// Whitespace, then at most one comma and more whitespace.
    mutating func skipSeparator() {
        skipSpaces()
        if i < bytes.count, bytes[i] == UInt8(ascii: ",") { i += 1; skipSpaces() }
    }

    /// The next number, or nil (position unchanged) when none starts here. Values beyond the
    /// Double range read as ±infinity and are rejected by callers that need finite values.
    mutating func number() -> Double? {
        let start = i
        var j = i
        if j < bytes.count, bytes[j] == UInt8(ascii: "+") || bytes[j] == UInt8(ascii: "-") { j += 1 }
        var digits = 0
        while j < bytes.count, Self.isDigit(bytes[j]) { j += 1; digits += 1 }
        if j < bytes.count, bytes[j] == UInt8(ascii: ".") {
            let k = j + 1
            var frac = 0
            var m = k
            while m < bytes.count, Self.isDigit(bytes[m]) { m += 1; frac += 1 }
            if frac > 0 || digits > 0 { j = m; digits += frac }
        }
        guard digits > 0 else { i = start; return nil }
        // Exponent only when digits follow ("1em" is 1 followed by a unit, not an exponent).
        if j < bytes.count, bytes[j] == UInt8(ascii: "e") || bytes[j] == UInt8(ascii: "E") {
            var k = j + 1
            if k < bytes.count, bytes[k] == UInt8(ascii: "+") || bytes[k] == UInt8(ascii: "-") { k += 1 }
            if k < bytes.count, Self.isDigit(bytes[k]) {
                while k < bytes.count, Self.isDigit(bytes[k]) { k += 1 }
                j = k
            }
        }
        i = j
        return Self.parseDouble(bytes[start..<j])
    }

    /// A flag of an arc command: exactly one '0' or '1' (flags need no separator: `a1 1 0 00 1 1`).
    mutating func flag() -> Bool? {
        guard i < bytes.count else { return nil }
        if bytes[i] == UInt8(ascii: "0") { i += 1; return false }
        if bytes[i] == UInt8(ascii: "1") { i += 1; return true }
        return nil
    }

    /// An identifier-like word ([A-Za-z-]+), for units and keywords.
    mutating func word() -> String {
        let s = i
        while i < bytes.count, (bytes[i] >= 0x41 && bytes[i] <= 0x5A) || (bytes[i] >= 0x61 && bytes[i] <= 0x7A) || bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "%") { i += 1 }
        return String(decoding: bytes[s..<i], as: UTF8.self)
    }

    static func parseDouble(_ s: ArraySlice<UInt8>) -> Double? {
        // Very long digit strings (hostile input) are parsed by Double(String) in linear time.
        Double(String(decoding: s, as: UTF8.self))
    }

    /// All numbers in a list like `points` or `stroke-dasharray` (comma/space separated); nil
    /// when something else is found, with the numbers read up to there in `partial`.
    static func numberList(_ s: String) -> (values: [Double], complete: Bool) {
        var sc = SVGScanner(s)
        var out: [Double] = []
        sc.skipSpaces()
        while !sc.atEnd {
            guard let n = sc.number() else { return (out, false) }
            out.append(n)
            sc.skipSeparator()
        }
        return (out, true)
    }
}
