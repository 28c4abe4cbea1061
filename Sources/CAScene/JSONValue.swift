/// A parsed JSON value with the line it started on. The scene reader works on these instead of
/// `JSONSerialization`/`JSONDecoder` so that it can keep object members in file order, see
/// duplicate keys, name the line of every problem and bound the nesting depth of hostile input.
package struct JSONNode: Sendable {
    package var value: JSONValue
    package var line: Int
    /// 1-based column (in bytes) where the value starts; 0 when unknown (through a `Decoder`).
    package var column: Int = 0

    package init(_ value: JSONValue, line: Int = 0) { self.value = value; self.line = line }
    package init(_ value: JSONValue, line: Int, column: Int) { self.value = value; self.line = line; self.column = column }
}

package indirect enum JSONValue: Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONNode])
    /// Members in file order; duplicates kept (the reader reports them).
    case object([(key: String, value: JSONNode)])

    /// How a problem message names the type that was found.
    package var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}

extension JSONValue: Equatable {
    package static func == (l: JSONValue, r: JSONValue) -> Bool {
        switch (l, r) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.number(let a), .number(let b)): return a == b
        case (.string(let a), .string(let b)): return a == b
        case (.array(let a), .array(let b)): return a.count == b.count && zip(a, b).allSatisfy { $0.value == $1.value }
        case (.object(let a), .object(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value.value == $1.value.value }
        default: return false
        }
    }
}

/// A JSON syntax error with its position (1-based line and column, in bytes).
package struct JSONSyntaxError: Error, Sendable {
    package var line: Int
    package var column: Int
    package var message: String
}

/// RFC 8259 JSON over UTF-8 bytes. Never traps: every malformed input ends in a
/// `JSONSyntaxError`; nesting deeper than `maxDepth` is an error, not a stack overflow;
/// numbers beyond Double's range are errors rather than infinities.
package struct JSONParser {
    private let bytes: [UInt8]
    private var i = 0
    private var line = 1
    private var lineStart = 0
    private let maxDepth: Int

    package init(_ bytes: [UInt8], maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    package static func parse(_ bytes: [UInt8], maxDepth: Int) throws(JSONSyntaxError) -> JSONNode {
        var p = JSONParser(bytes, maxDepth: maxDepth)
        // A UTF-8 byte order mark is tolerated.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { p.i = 3; p.lineStart = 3 }
        p.skipSpace()
        guard p.i < bytes.count else { throw p.error("the file is empty") }
        let v = try p.value(depth: 0)
        p.skipSpace()
        guard p.i == bytes.count else { throw p.error("unexpected \(p.describeHere()) after the JSON value") }
        return v
    }

    private func error(_ message: String) -> JSONSyntaxError {
        JSONSyntaxError(line: line, column: i - lineStart + 1, message: message)
    }

    private func describeHere() -> String {
        guard i < bytes.count else { return "end of file" }
        let b = bytes[i]
        if b >= 0x21 && b < 0x7F { return "'\(Character(Unicode.Scalar(b)))'" }
        return "byte 0x\(String(b, radix: 16))"
    }

    private mutating func skipSpace() {
        while i < bytes.count {
            switch bytes[i] {
            case 0x20, 0x09, 0x0D: i += 1
            case 0x0A: i += 1; line += 1; lineStart = i
            default: return
            }
        }
    }

    private mutating func value(depth: Int) throws(JSONSyntaxError) -> JSONNode {
        guard depth < maxDepth else { throw error("JSON nested deeper than \(maxDepth) levels") }
        guard i < bytes.count else { throw error("unexpected end of file where a value was expected") }
        let startLine = line
        let startColumn = i - lineStart + 1
        switch bytes[i] {
        case UInt8(ascii: "{"): return JSONNode(try object(depth: depth), line: startLine, column: startColumn)
        case UInt8(ascii: "["): return JSONNode(try array(depth: depth), line: startLine, column: startColumn)
        case UInt8(ascii: "\""): return JSONNode(.string(try string()), line: startLine, column: startColumn)
        case UInt8(ascii: "t"): try literal("true"); return JSONNode(.bool(true), line: startLine, column: startColumn)
        case UInt8(ascii: "f"): try literal("false"); return JSONNode(.bool(false), line: startLine, column: startColumn)
        case UInt8(ascii: "n"): try literal("null"); return JSONNode(.null, line: startLine, column: startColumn)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return JSONNode(.number(try number()), line: startLine, column: startColumn)
        default: throw error("unexpected \(describeHere()) where a value was expected")
        }
    }

    private mutating func literal(_ word: String) throws(JSONSyntaxError) {
        let w = Array(word.utf8)
        guard bytes.count - i >= w.count, Array(bytes[i..<(i + w.count)]) == w else {
            throw error("unexpected \(describeHere()) where a value was expected")
        }
        i += w.count
    }

    private mutating func object(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        i += 1
        var members: [(key: String, value: JSONNode)] = []
        skipSpace()
        if i < bytes.count, bytes[i] == UInt8(ascii: "}") { i += 1; return .object(members) }
        while true {
            skipSpace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else {
                throw error("expected a quoted member name, found \(describeHere())")
            }
            let key = try string()
            skipSpace()
            guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { throw error("expected ':' after \"\(key)\", found \(describeHere())") }
            i += 1
            skipSpace()
            members.append((key, try value(depth: depth + 1)))
            skipSpace()
            guard i < bytes.count else { throw error("unexpected end of file inside an object") }
            if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
            if bytes[i] == UInt8(ascii: "}") { i += 1; return .object(members) }
            throw error("expected ',' or '}' after an object member, found \(describeHere())")
        }
    }

    private mutating func array(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        i += 1
        var items: [JSONNode] = []
        skipSpace()
        if i < bytes.count, bytes[i] == UInt8(ascii: "]") { i += 1; return .array(items) }
        while true {
            skipSpace()
            items.append(try value(depth: depth + 1))
            skipSpace()
            guard i < bytes.count else { throw error("unexpected end of file inside an array") }
            if bytes[i] == UInt8(ascii: ",") { i += 1; continue }
            if bytes[i] == UInt8(ascii: "]") { i += 1; return .array(items) }
            throw error("expected ',' or ']' after an array element, found \(describeHere())")
        }
    }

    private mutating func number() throws(JSONSyntaxError) -> Double {
        let start = i
        func digits(_ p: inout JSONParser) -> Int {
            let s = p.i
            while p.i < p.bytes.count, p.bytes[p.i] >= UInt8(ascii: "0"), p.bytes[p.i] <= UInt8(ascii: "9") { p.i += 1 }
            return p.i - s
        }
        if bytes[i] == UInt8(ascii: "-") { i += 1 }
        let intDigits = digits(&self)
        guard intDigits > 0 else { throw error("a number needs digits after '-'") }
        if intDigits > 1, bytes[i - intDigits] == UInt8(ascii: "0") {
            i = start
            throw error("numbers may not have leading zeros")
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: ".") {
            i += 1
            guard digits(&self) > 0 else { throw error("a number needs digits after '.'") }
        }
        if i < bytes.count, bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") {
            i += 1
            if i < bytes.count, bytes[i] == UInt8(ascii: "+") || bytes[i] == UInt8(ascii: "-") { i += 1 }
            guard digits(&self) > 0 else { throw error("a number needs digits in its exponent") }
        }
        guard i - start <= 400 else { throw error("number literal longer than 400 characters") }
        let text = String(decoding: bytes[start..<i], as: UTF8.self)
        guard let d = Double(text), d.isFinite else {
            throw error("number \(text.prefix(40)) is out of range")
        }
        return d
    }

    private mutating func hex4() throws(JSONSyntaxError) -> UInt32 {
        guard bytes.count - i >= 4 else { throw error("incomplete \\u escape") }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let b = bytes[i]
            let d: UInt32
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = UInt32(b - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = UInt32(b - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = UInt32(b - UInt8(ascii: "A") + 10)
            default: throw error("invalid hex digit in \\u escape")
            }
            v = v * 16 + d
            i += 1
        }
        return v
    }

    private mutating func string() throws(JSONSyntaxError) -> String {
        i += 1  // opening quote
        var out: [UInt8] = []
        while true {
            guard i < bytes.count else { throw error("unterminated string") }
            let b = bytes[i]
            switch b {
            case UInt8(ascii: "\""):
                i += 1
                guard let s = String(validating: out, as: UTF8.self) else { throw error("string is not valid UTF-8") }
                return s
            case UInt8(ascii: "\\"):
                i += 1
                guard i < bytes.count else { throw error("unterminated string") }
                let e = bytes[i]
                i += 1
                switch e {
                case UInt8(ascii: "\""): out.append(0x22)
                case UInt8(ascii: "\\"): out.append(0x5C)
                case UInt8(ascii: "/"): out.append(0x2F)
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try hex4()
                    if scalar >= 0xD800 && scalar < 0xDC00 {
                        guard bytes.count - i >= 2, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u") else {
                            throw error("unpaired surrogate in \\u escape")
                        }
                        i += 2
                        let low = try hex4()
                        guard low >= 0xDC00 && low < 0xE000 else { throw error("unpaired surrogate in \\u escape") }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else if scalar >= 0xDC00 && scalar < 0xE000 {
                        throw error("unpaired surrogate in \\u escape")
                    }
                    guard let u = Unicode.Scalar(scalar) else { throw error("invalid \\u escape") }
                    out.append(contentsOf: Array(String(Character(u)).utf8))
                default:
                    i -= 1
                    throw error("invalid escape \\\(Character(Unicode.Scalar(e)))")
                }
            default:
                guard b >= 0x20 else { throw error("control character in a string (escape it)") }
                out.append(b)
                i += 1
            }
        }
    }
}
