import Foundation

/// The part of JSON Schema (draft 2020-12) that docs/scene.schema.json uses, enough to check a
/// document against it in a test: `$ref` to `#/$defs/…`, `type`, `const`, `enum`, `required`,
/// `properties`, `patternProperties`, `additionalProperties`, `items`, `minItems`, `maxItems`,
/// `minimum`, `maximum`, `exclusiveMinimum`, `allOf`, `anyOf`, `if`/`then`. An unknown keyword is
/// itself an error, so the schema cannot grow past what this checks without the test noticing.
struct MiniJSONSchema {
    let root: JSONValue
    static let annotations: Set<String> = ["$schema", "$id", "title", "description", "$defs"]

    init(_ text: String) throws { root = try JSONParser.parse(Array(text.utf8), maxDepth: 512).value }

    /// Every violation, as "path: what".
    func violations(of instance: JSONValue) -> [String] {
        var out: [String] = []
        check(instance, root, "$", &out)
        return out
    }

    private func member(_ o: [(key: String, value: JSONNode)], _ k: String) -> JSONValue? { o.first { $0.key == k }?.value.value }

    private func resolve(_ ref: String) -> JSONValue? {
        guard ref.hasPrefix("#/$defs/"), case .object(let top) = root, case .object(let defs)? = member(top, "$defs") else { return nil }
        return member(defs, String(ref.dropFirst("#/$defs/".count)))
    }

    private func equal(_ a: JSONValue, _ b: JSONValue) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case let (.bool(x), .bool(y)): return x == y
        case let (.number(x), .number(y)): return x == y
        case let (.string(x), .string(y)): return x == y
        case let (.array(x), .array(y)): return x.count == y.count && zip(x, y).allSatisfy { equal($0.value, $1.value) }
        case let (.object(x), .object(y)):
            return x.count == y.count && x.allSatisfy { m in member(y, m.key).map { equal(m.value.value, $0) } ?? false }
        default: return false
        }
    }

    private func isType(_ v: JSONValue, _ t: String) -> Bool {
        switch (t, v) {
        case ("null", .null), ("boolean", .bool), ("number", .number), ("string", .string), ("array", .array), ("object", .object): return true
        case ("integer", .number(let d)): return d == d.rounded()
        default: return false
        }
    }

    private func valid(_ v: JSONValue, _ s: JSONValue) -> Bool {
        var out: [String] = []
        check(v, s, "", &out)
        return out.isEmpty
    }

    private func check(_ v: JSONValue, _ schema: JSONValue, _ path: String, _ out: inout [String]) {
        if case .bool(let b) = schema { if !b { out.append("\(path): not allowed") }; return }
        guard case .object(let s) = schema else { out.append("\(path): schema is not an object"); return }
        for (key, node) in s {
            let k = node.value
            switch key {
            case _ where Self.annotations.contains(key): break
            case "$ref":
                guard case .string(let r) = k, let target = resolve(r) else { out.append("\(path): unresolved $ref"); break }
                check(v, target, path, &out)
            case "type":
                let types: [String]
                switch k {
                case .string(let t): types = [t]
                case .array(let a): types = a.compactMap { if case .string(let t) = $0.value { t } else { nil } }
                default: types = []
                }
                if !types.contains(where: { isType(v, $0) }) { out.append("\(path): expected \(types.joined(separator: "|")), found \(v.typeName)") }
            case "const": if !equal(v, k) { out.append("\(path): not the constant") }
            case "enum":
                if case .array(let a) = k, !a.contains(where: { equal(v, $0.value) }) { out.append("\(path): not one of the enum") }
            case "required":
                if case .object(let o) = v, case .array(let names) = k {
                    for n in names { if case .string(let name) = n.value, member(o, name) == nil { out.append("\(path): missing \(name)") } }
                }
            case "properties", "patternProperties", "additionalProperties":
                guard case .object(let o) = v, key == "properties" else { break }
                var props: [(key: String, value: JSONNode)] = []
                if case .object(let p) = k { props = p }
                var patterns: [(key: String, value: JSONNode)] = []
                if case .object(let p)? = member(s, "patternProperties") { patterns = p }
                let additional = member(s, "additionalProperties")
                for m in o {
                    var matched = false
                    if let ps = member(props, m.key) { check(m.value.value, ps, "\(path).\(m.key)", &out); matched = true }
                    for p in patterns where m.key.range(of: p.key, options: .regularExpression) != nil {
                        check(m.value.value, p.value.value, "\(path).\(m.key)", &out); matched = true
                    }
                    if !matched, let additional { check(m.value.value, additional, "\(path).\(m.key)", &out) }
                }
            case "items":
                if case .array(let a) = v { for (i, item) in a.enumerated() { check(item.value, k, "\(path)[\(i)]", &out) } }
            case "minItems": if case .array(let a) = v, case .number(let n) = k, Double(a.count) < n { out.append("\(path): fewer than \(n) items") }
            case "maxItems": if case .array(let a) = v, case .number(let n) = k, Double(a.count) > n { out.append("\(path): more than \(n) items") }
            case "minimum": if case .number(let d) = v, case .number(let n) = k, d < n { out.append("\(path): below \(n)") }
            case "maximum": if case .number(let d) = v, case .number(let n) = k, d > n { out.append("\(path): above \(n)") }
            case "exclusiveMinimum": if case .number(let d) = v, case .number(let n) = k, d <= n { out.append("\(path): not above \(n)") }
            case "allOf":
                if case .array(let a) = k { for sub in a { check(v, sub.value, path, &out) } }
            case "anyOf":
                if case .array(let a) = k, !a.contains(where: { valid(v, $0.value) }) { out.append("\(path): matches none of anyOf") }
            case "if":
                if valid(v, k), let then = member(s, "then") { check(v, then, path, &out) }
            case "then": break
            default: out.append("\(path): the test's validator does not know the keyword \(key)")
            }
        }
    }
}
