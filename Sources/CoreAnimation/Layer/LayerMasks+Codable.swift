// `CACornerMask` and `CAEdgeAntialiasingMask` as arrays of option names, the scene format's
// spelling (docs/SCENE-FORMAT.md, "Values"): `["layerMinXMinYCorner", "layerMaxXMaxYCorner"]`.
// Apple's option sets are not `Codable`; these conformances are extensions beyond its API.

/// An option set of four named bits (bit i is `1 << i`), coded as the names of its set bits.
package protocol NamedBitOptions: OptionSet where RawValue: FixedWidthInteger {
    /// The Swift names of bits 0…3, in bit order.
    static var optionNames: [String] { get }
}

extension NamedBitOptions {
    /// The names of the set bits, in bit order; nil when a bit beyond the named four is set.
    package var optionNameList: [String]? {
        let known = RawValue((1 << Self.optionNames.count) - 1)
        guard rawValue & ~known == 0 else { return nil }
        return Self.optionNames.indices.filter { rawValue & RawValue(1 << $0) != 0 }.map { Self.optionNames[$0] }
    }

    /// The options named; nil when a name is not one of `optionNames`.
    package init?(optionNames names: [String]) {
        var bits: RawValue = 0
        for n in names {
            guard let k = Self.optionNames.firstIndex(of: n) else { return nil }
            bits |= RawValue(1 << k)
        }
        self.init(rawValue: bits)
    }

    /// Decodes an array of names or, as scene files also allow, the raw number 0…15.
    package init(decodingNamesFrom decoder: any Decoder) throws {
        let limit = (1 << Self.optionNames.count) - 1
        if let n = try? decoder.singleValueContainer().decode(Int.self) {
            guard n >= 0, n <= limit else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                    debugDescription: "\(Self.self) is an array of names or a number 0…\(limit); found \(n)"))
            }
            self.init(rawValue: RawValue(n))
            return
        }
        var c = try decoder.unkeyedContainer()
        var names: [String] = []
        while !c.isAtEnd, names.count <= Self.optionNames.count * 4 { names.append(try c.decode(String.self)) }
        guard let options = Self(optionNames: names) else {
            let bad = names.first { !Self.optionNames.contains($0) } ?? ""
            throw DecodingError.dataCorruptedError(in: c, debugDescription:
                "\"\(bad.prefix(40))\" is not one of " + Self.optionNames.joined(separator: ", "))
        }
        self = options
    }

    package func encodeNames(to encoder: any Encoder) throws {
        guard let names = optionNameList else {
            throw EncodingError.invalidValue(self, .init(codingPath: encoder.codingPath,
                debugDescription: "\(Self.self)(rawValue: \(rawValue)) has bits other than " + Self.optionNames.joined(separator: ", ")))
        }
        var c = encoder.singleValueContainer()
        try c.encode(names)
    }
}

extension CACornerMask: NamedBitOptions, Codable {
    package static let optionNames = ["layerMinXMinYCorner", "layerMaxXMinYCorner", "layerMinXMaxYCorner", "layerMaxXMaxYCorner"]
    public init(from decoder: any Decoder) throws { try self.init(decodingNamesFrom: decoder) }
    public func encode(to encoder: any Encoder) throws { try encodeNames(to: encoder) }
}

extension CAEdgeAntialiasingMask: NamedBitOptions, Codable {
    package static let optionNames = ["layerLeftEdge", "layerRightEdge", "layerBottomEdge", "layerTopEdge"]
    public init(from decoder: any Decoder) throws { try self.init(decodingNamesFrom: decoder) }
    public func encode(to encoder: any Encoder) throws { try encodeNames(to: encoder) }
}
