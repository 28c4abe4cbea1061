/// Writes `JSONValue`s as readable, deterministic JSON: two-space indentation, members in the
/// order given, short arrays and objects of plain values on one line, numbers in the shortest
/// form that reads back to the same Double (so a written scene reloads bit-exactly).
package enum JSONWriter {
    package static func write(_ v: JSONValue) -> String {
        var out = ""
        write(v, indent: 0, into: &out)
        out += "\n"
        return out
    }

    package static func number(_ d: Double) -> String {
        if d == d.rounded(), abs(d) < 1e15 { return String(Int64(d)) }
        return "\(d)"
    }

    package static func quoted(_ s: String) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if u.value < 0x20 { out += "\\u" + String(repeating: "0", count: 4 - String(u.value, radix: 16).count) + String(u.value, radix: 16) }
                else { out.unicodeScalars.append(u) }
            }
        }
        return out + "\""
    }

    private static func isPlain(_ v: JSONValue) -> Bool {
        switch v {
        case .array, .object: return false
        default: return true
        }
    }

    /// One line when every element is a plain value and there are at most 16 of them.
    private static func inline(_ v: JSONValue) -> Bool {
        switch v {
        case .array(let a): return a.count <= 16 && a.allSatisfy { isPlain($0.value) }
        case .object(let m): return m.count <= 4 && m.allSatisfy { isPlain($0.value.value) }
        default: return true
        }
    }

    private static func write(_ v: JSONValue, indent: Int, into out: inout String) {
        switch v {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .number(let d): out += number(d)
        case .string(let s): out += quoted(s)
        case .array(let a):
            if a.isEmpty { out += "[]"; return }
            if inline(v) {
                out += "[" + a.map { e -> String in var s = ""; write(e.value, indent: 0, into: &s); return s }.joined(separator: ", ") + "]"
                return
            }
            out += "[\n"
            let pad = String(repeating: "  ", count: indent + 1)
            for (k, e) in a.enumerated() {
                out += pad
                write(e.value, indent: indent + 1, into: &out)
                out += k == a.count - 1 ? "\n" : ",\n"
            }
            out += String(repeating: "  ", count: indent) + "]"
        case .object(let m):
            if m.isEmpty { out += "{}"; return }
            if inline(v) {
                out += "{" + m.map { kv -> String in
                    var s = quoted(kv.key) + ": "
                    write(kv.value.value, indent: 0, into: &s)
                    return s
                }.joined(separator: ", ") + "}"
                return
            }
            out += "{\n"
            let pad = String(repeating: "  ", count: indent + 1)
            for (k, kv) in m.enumerated() {
                out += pad + quoted(kv.key) + ": "
                write(kv.value.value, indent: indent + 1, into: &out)
                out += k == m.count - 1 ? "\n" : ",\n"
            }
            out += String(repeating: "  ", count: indent) + "}"
        }
    }
}
