// `JSONValue` through Swift's `Encoder`/`Decoder`: how the scene format's `Codable`
// conformances hand JSON between `JSONEncoder`/`JSONDecoder` and the scene writer and reader.
// A `Decoder` gives no bytes, only typed containers; so a scene arriving through one is first
// taken into a `JSONValue`, then read by the same reader as a file (SceneFile.load).

/// A member name as a coding key.
struct JSONKey: CodingKey {
    let stringValue: String
    init(_ s: String) { stringValue = s }
    init?(stringValue s: String) { stringValue = s }
    var intValue: Int? { nil }
    init?(intValue: Int) { return nil }
}

extension JSONValue: Codable {
    package func encode(to encoder: any Encoder) throws {
        switch self {
        case .null:
            var c = encoder.singleValueContainer()
            try c.encodeNil()
        case .bool(let b):
            var c = encoder.singleValueContainer()
            try c.encode(b)
        case .number(let d):
            var c = encoder.singleValueContainer()
            try c.encode(d)
        case .string(let s):
            var c = encoder.singleValueContainer()
            try c.encode(s)
        case .array(let items):
            var c = encoder.unkeyedContainer()
            for item in items { try c.encode(item.value) }
        case .object(let members):
            var c = encoder.container(keyedBy: JSONKey.self)
            for (k, v) in members { try c.encode(v.value, forKey: JSONKey(k)) }
        }
    }

    package init(from decoder: any Decoder) throws {
        self = try Self.decode(from: decoder, depth: 0, maxDepth: SceneLimits.default.maxJSONDepth)
    }

    /// Any JSON value, nested no deeper than `maxDepth` (the scene parser's limit, so a
    /// hostile document is refused the same way whichever way it arrives). Object members
    /// come in name order: a `Decoder` does not keep the document's order.
    static func decode(from decoder: any Decoder, depth: Int, maxDepth: Int) throws -> JSONValue {
        guard depth < maxDepth else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "JSON nested deeper than \(maxDepth) levels"))
        }
        if let o = try? decoder.container(keyedBy: JSONKey.self) {
            var members: [(key: String, value: JSONNode)] = []
            for k in o.allKeys.sorted(by: { $0.stringValue < $1.stringValue }) {
                members.append((k.stringValue, JSONNode(try decode(from: o.superDecoder(forKey: k), depth: depth + 1, maxDepth: maxDepth))))
            }
            return .object(members)
        }
        if var a = try? decoder.unkeyedContainer() {
            var items: [JSONNode] = []
            while !a.isAtEnd { items.append(JSONNode(try decode(from: a.superDecoder(), depth: depth + 1, maxDepth: maxDepth))) }
            return .array(items)
        }
        let c = try decoder.singleValueContainer()
        if c.decodeNil() { return .null }
        if let b = try? c.decode(Bool.self) { return .bool(b) }
        if let d = try? c.decode(Double.self) {
            guard d.isFinite else { throw DecodingError.dataCorruptedError(in: c, debugDescription: "number \(d) is out of range") }
            return .number(d)
        }
        if let s = try? c.decode(String.self) { return .string(s) }
        throw DecodingError.dataCorruptedError(in: c, debugDescription: "expected a JSON value")
    }
}
