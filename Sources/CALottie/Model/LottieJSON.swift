import Foundation

/// A JSON value, for the parts of the bodymovin schema whose type depends on the data
/// (an animated property's `k` is a number, an array of numbers, a shape, or keyframes).
enum LottieJSON: Decodable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([LottieJSON])
    case object([String: LottieJSON])

    init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() { self = .null }
        else if let b = try? c.decode(Bool.self) { self = .bool(b) }
        else if let d = try? c.decode(Double.self) { self = .number(d) }
        else if let s = try? c.decode(String.self) { self = .string(s) }
        else if let a = try? c.decode([LottieJSON].self) { self = .array(a) }
        else { self = .object(try c.decode([String: LottieJSON].self)) }
    }

    subscript(key: String) -> LottieJSON? {
        if case .object(let o) = self { return o[key] }
        return nil
    }
    var number: Double? {
        switch self {
        case .number(let d): return d.isFinite ? d : nil
        case .bool(let b): return b ? 1 : 0
        case .array(let a): return a.first?.number
        default: return nil
        }
    }
    var array: [LottieJSON]? { if case .array(let a) = self { return a }; return nil }
    var string: String? { if case .string(let s) = self { return s }; return nil }
    var bool: Bool? {
        switch self {
        case .bool(let b): return b
        case .number(let d): return d != 0
        default: return nil
        }
    }
    /// A number or an array of numbers as a vector (a scalar is one component).
    var vector: [Double]? {
        switch self {
        case .number(let d): return d.isFinite ? [d] : nil
        case .array(let a):
            var out: [Double] = []
            out.reserveCapacity(a.count)
            for e in a { guard case .number(let d) = e, d.isFinite else { return nil }; out.append(d) }
            return out
        default: return nil
        }
    }
}

/// Finds the first JSON syntax error in `data` and reports it as a 1-based line and column
/// (Foundation's decoders report a byte offset at best). RFC 8259 grammar; depth bounded.
enum JSONSyntaxLocator {
    struct Failure: Error { var line: Int; var column: Int; var reason: String }

    static func locate(_ data: Data, maxDepth: Int = 512) -> Failure? {
        let b = [UInt8](data)
        var i = 0
        func fail(_ reason: String) -> Failure {
            var line = 1, col = 1, k = 0
            while k < min(i, b.count) {
                if b[k] == 0x0A { line += 1; col = 1 }
                else if b[k] & 0xC0 != 0x80 { col += 1 }   // count characters, not UTF-8 bytes
                k += 1
            }
            return Failure(line: line, column: col, reason: reason)
        }
        func ws() { while i < b.count, b[i] == 0x20 || b[i] == 0x0A || b[i] == 0x0D || b[i] == 0x09 { i += 1 } }
        func value(_ depth: Int) -> Failure? {
            ws()
            guard i < b.count else { return fail("unexpected end of input") }
            if depth > maxDepth { return fail("nesting deeper than \(maxDepth)") }
            switch b[i] {
            case UInt8(ascii: "{"):
                i += 1; ws()
                if i < b.count, b[i] == UInt8(ascii: "}") { i += 1; return nil }
                while true {
                    ws()
                    guard i < b.count, b[i] == UInt8(ascii: "\"") else { return fail("expected a string key") }
                    if let f = string() { return f }
                    ws()
                    guard i < b.count, b[i] == UInt8(ascii: ":") else { return fail("expected ':'") }
                    i += 1
                    if let f = value(depth + 1) { return f }
                    ws()
                    guard i < b.count else { return fail("unexpected end of input in an object") }
                    if b[i] == UInt8(ascii: ",") { i += 1; continue }
                    if b[i] == UInt8(ascii: "}") { i += 1; return nil }
                    return fail("expected ',' or '}'")
                }
            case UInt8(ascii: "["):
                i += 1; ws()
                if i < b.count, b[i] == UInt8(ascii: "]") { i += 1; return nil }
                while true {
                    if let f = value(depth + 1) { return f }
                    ws()
                    guard i < b.count else { return fail("unexpected end of input in an array") }
                    if b[i] == UInt8(ascii: ",") { i += 1; continue }
                    if b[i] == UInt8(ascii: "]") { i += 1; return nil }
                    return fail("expected ',' or ']'")
                }
            case UInt8(ascii: "\""): return string()
            case UInt8(ascii: "t"): return literal("true")
            case UInt8(ascii: "f"): return literal("false")
            case UInt8(ascii: "n"): return literal("null")
            default: return number()
            }
        }
        func literal(_ word: String) -> Failure? {
            for c in word.utf8 {
                guard i < b.count, b[i] == c else { return fail("invalid literal (expected \(word))") }
                i += 1
            }
            return nil
        }
        func string() -> Failure? {
            i += 1
            while i < b.count {
                let c = b[i]
                if c == UInt8(ascii: "\"") { i += 1; return nil }
                if c < 0x20 { return fail("control character in a string") }
                if c == UInt8(ascii: "\\") {
                    i += 1
                    guard i < b.count else { break }
                    if b[i] == UInt8(ascii: "u") {
                        for _ in 0..<4 {
                            i += 1
                            guard i < b.count, (b[i] >= 0x30 && b[i] <= 0x39) || (b[i] | 0x20 >= 0x61 && b[i] | 0x20 <= 0x66) else { return fail("bad \\u escape") }
                        }
                    } else if !"\"\\/bfnrt".utf8.contains(b[i]) { return fail("bad escape") }
                }
                i += 1
            }
            return fail("unterminated string")
        }
        func number() -> Failure? {
            let start = i
            if i < b.count, b[i] == UInt8(ascii: "-") { i += 1 }
            func digits() -> Int { let s = i; while i < b.count, b[i] >= 0x30, b[i] <= 0x39 { i += 1 }; return i - s }
            guard digits() > 0 else { i = start; return fail("unexpected character") }
            if i < b.count, b[i] == UInt8(ascii: ".") { i += 1; guard digits() > 0 else { return fail("digits expected after '.'") } }
            if i < b.count, b[i] | 0x20 == UInt8(ascii: "e") {
                i += 1
                if i < b.count, b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") { i += 1 }
                guard digits() > 0 else { return fail("digits expected in the exponent") }
            }
            return nil
        }
        if let f = value(0) { return f }
        ws()
        if i < b.count { return fail("unexpected data after the top-level value") }
        return nil
    }
}
