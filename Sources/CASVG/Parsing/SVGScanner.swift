import Foundation

/// A cursor over the UTF-8 bytes of an attribute value, reading SVG's number grammar (SVG 1.1
/// §8.3.9 path data BNF and the CSS number syntax it shares): an optional sign, digits with an
/// optional fraction, an optional exponent — so `-.5e-3`, `10-20` (two numbers), `.5.5`
/// (two numbers) and `1e2` all read as SVG readers do. Separators are whitespace and at most
/// one comma.
struct SVGScanner {
    /// Owns a copy of the bytes; `bytes` points into it. Reading through a buffer pointer keeps
    /// per-byte access free of reference counting (an `[UInt8]` subscript retains and releases
    /// in debug builds: 1M path segments took 11 s in a debug build, measured, against 2 s
    /// this way).
    final class Storage {
        let buffer: UnsafeMutableBufferPointer<UInt8>
        init<C: Collection>(_ c: C) where C.Element == UInt8 {
            buffer = .allocate(capacity: max(c.count, 1))
            _ = buffer.initialize(from: c)
        }
        deinit { buffer.deallocate() }
    }
    private let storage: Storage
    let bytes: UnsafeBufferPointer<UInt8>
    var i = 0

    init(_ s: String) { self.init(bytes: s.utf8) }
    init<C: Collection>(bytes c: C) where C.Element == UInt8 {
        storage = Storage(c)
        bytes = UnsafeBufferPointer(start: storage.buffer.baseAddress, count: c.count)
    }

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
    ///
    /// Fast path (Clinger 1990): with at most 15 significant digits and a decimal exponent
    /// within ±22, mantissa and power of ten are both exact doubles, so one multiplication or
    /// division gives the correctly rounded value without building a String; anything else
    /// goes through `Double(String)`.
    mutating func number() -> Double? {
        let start = i
        var j = i
        var negative = false
        if j < bytes.count, bytes[j] == UInt8(ascii: "+") || bytes[j] == UInt8(ascii: "-") {
            negative = bytes[j] == UInt8(ascii: "-"); j += 1
        }
        var mantissa: UInt64 = 0
        var significant = 0
        var digits = 0
        var scale = 0
        while j < bytes.count, Self.isDigit(bytes[j]) {
            if significant < 19 {
                mantissa = mantissa * 10 + UInt64(bytes[j] - 0x30)
                if mantissa > 0 { significant += 1 }
            } else {
                scale += 1; significant += 1
            }
            j += 1; digits += 1
        }
        if j < bytes.count, bytes[j] == UInt8(ascii: ".") {
            var m = j + 1
            var frac = 0
            while m < bytes.count, Self.isDigit(bytes[m]) {
                if significant < 19 {
                    mantissa = mantissa * 10 + UInt64(bytes[m] - 0x30)
                    if mantissa > 0 { significant += 1 }
                    scale -= 1
                } else {
                    significant += 1
                }
                m += 1; frac += 1
            }
            if frac > 0 || digits > 0 { j = m; digits += frac }
        }
        guard digits > 0 else { i = start; return nil }
        // Exponent only when digits follow ("1em" is 1 followed by a unit, not an exponent).
        var exponent = 0
        var exponentOverflow = false
        if j < bytes.count, bytes[j] == UInt8(ascii: "e") || bytes[j] == UInt8(ascii: "E") {
            var k = j + 1
            var expNegative = false
            if k < bytes.count, bytes[k] == UInt8(ascii: "+") || bytes[k] == UInt8(ascii: "-") {
                expNegative = bytes[k] == UInt8(ascii: "-"); k += 1
            }
            if k < bytes.count, Self.isDigit(bytes[k]) {
                while k < bytes.count, Self.isDigit(bytes[k]) {
                    if exponent < 100_000 { exponent = exponent * 10 + Int(bytes[k] - 0x30) } else { exponentOverflow = true }
                    k += 1
                }
                if expNegative { exponent = -exponent }
                j = k
            }
        }
        i = j
        let e10 = scale + exponent
        if significant <= 15, !exponentOverflow, abs(e10) <= 22 {
            var v = Double(mantissa)
            v = e10 >= 0 ? v * Self.powersOfTen[e10] : v / Self.powersOfTen[-e10]
            return negative ? -v : v
        }
        if mantissa == 0, significant == 0 { return negative ? -0.0 : 0 }
        return Self.parseDouble(bytes[start..<j])
    }

    static let powersOfTen: [Double] = (0...22).map { k in (0..<k).reduce(1.0) { a, _ in a * 10 } }

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

    static func parseDouble(_ s: Slice<UnsafeBufferPointer<UInt8>>) -> Double? {
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
