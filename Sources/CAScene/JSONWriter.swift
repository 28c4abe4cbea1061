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

    /// The value on one line, when it is short (≤ 72 characters) and holds no more than
    /// 16 numbers per array; nil otherwise.
    private static func inline(_ v: JSONValue) -> String? {
        switch v {
        case .array(let a):
            guard a.count <= 16 else { return nil }
            var parts: [String] = []
            for e in a { guard let s = inline(e.value) else { return nil }; parts.append(s) }
            let s = "[" + parts.joined(separator: ", ") + "]"
            return s.count <= 72 || a.allSatisfy({ if case .number = $0.value { return true } else { return false } }) ? s : nil
        case .object(let m):
            var parts: [String] = []
            for kv in m {
                guard let s = inline(kv.value.value) else { return nil }
                parts.append(quoted(kv.key) + ": " + s)
            }
            let s = "{" + parts.joined(separator: ", ") + "}"
            return s.count <= 72 ? s : nil
        default:
            var s = ""
            write(v, indent: 0, into: &s)
            return s
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
            if let s = inline(v) { out += s; return }
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
            if let s = inline(v) { out += s; return }
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
