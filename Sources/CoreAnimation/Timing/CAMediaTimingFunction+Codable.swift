// `CAMediaTimingFunction` as the scene format writes it (docs/SCENE-FORMAT.md, "Values"):
// the name of a predefined curve when the control points are one (`"easeIn"`), otherwise
// `[c1x, c1y, c2x, c2y]`. Apple's class is NSSecureCoding, not `Codable`; this conformance is
// an extension beyond its API. The decoding initializer is in the class body (it must be
// `required`); the rules it uses are here.

extension CAMediaTimingFunctionName: Codable {
    /// The five names Apple predefines (docs/BEHAVIOUR.md B1), in the order the scene format lists them.
    package static let predefined: [CAMediaTimingFunctionName] = [.linear, .easeIn, .easeOut, .easeInEaseOut, .default]
}

extension CAMediaTimingFunction: Codable {
    /// The predefined functions, made once, to name a function by its control points.
    private static let predefinedFunctions = CAMediaTimingFunctionName.predefined.map { ($0, CAMediaTimingFunction(name: $0)) }

    /// The predefined name whose control points these are (`.easeIn` for a custom function
    /// with (0.42, 0) (1, 1) too); nil for other curves. Not Apple API.
    package var predefinedName: CAMediaTimingFunctionName? {
        Self.predefinedFunctions.first { $0.1.isEqual(self) }?.0
    }

    /// `[c1x, c1y, c2x, c2y]`, as `getControlPoint(at:values:)` reports P1 and P2. Not Apple API.
    package var controlPoints: [Float] {
        var p: [Float] = [0, 0]
        var out: [Float] = []
        for i in 1...2 { getControlPoint(at: i, values: &p); out += p }
        return out
    }

    /// The points `init(from:)` builds the function from: a predefined name's, or four numbers.
    static func decodeControlPoints(from decoder: any Decoder) throws -> [Float] {
        if let s = try? decoder.singleValueContainer().decode(String.self) {
            let name = CAMediaTimingFunctionName(rawValue: s)
            guard let f = predefinedFunctions.first(where: { $0.0 == name })?.1 else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription:
                    "\"\(s.prefix(40))\" is not a timing function name: use one of "
                    + CAMediaTimingFunctionName.predefined.map { "\"\($0.rawValue)\"" }.joined(separator: ", ") + " or [c1x, c1y, c2x, c2y]"))
            }
            return f.controlPoints
        }
        var c = try decoder.unkeyedContainer()
        var p: [Float] = []
        while !c.isAtEnd, p.count <= 4 { p.append(try c.decode(Float.self)) }
        guard p.count == 4 else {
            throw DecodingError.dataCorruptedError(in: c, debugDescription:
                "a timing function is a name or [c1x, c1y, c2x, c2y]; found \(p.count > 4 ? "more than 4" : "\(p.count)") numbers")
        }
        return p
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        if let name = predefinedName { try c.encode(name) } else { try c.encode(controlPoints) }
    }
}
