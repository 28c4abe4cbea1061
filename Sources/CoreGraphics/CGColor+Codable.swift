/// `CGColor` in the scene format's spelling (docs/SCENE-FORMAT.md, "Colours"). Apple's
/// `CGColor` is not `Codable`; this conformance is an extension beyond Apple's API.
///
/// Encoding writes `components` as an array, which reads back exactly: `[r, g, b, a]` for an
/// sRGB colour, `[gray, alpha]` for a gray one (straight alpha, as `CGColor(red:…)` takes it).
/// Decoding takes those arrays, `[r, g, b]` (alpha 1), and the string spellings
/// `"#RRGGBB"`, `"#RRGGBBAA"`, `"#RGB"`, `"black"`, `"white"`, `"clear"`. (A scene file also
/// allows `{"red": …}` objects; those are read by the scene reader, not here.)
extension CGColor: Codable {
    public init(from decoder: any Decoder) throws {
        if let s = try? decoder.singleValueContainer().decode(String.self) {
            guard let color = CGColor(named: s) ?? CGColor(hex: s) else {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                    debugDescription: "\"\(s.prefix(40))\" is not a colour: use \"#RRGGBB\", \"#RRGGBBAA\", \"#RGB\", black, white or clear"))
            }
            self = color
            return
        }
        var c = try decoder.unkeyedContainer()
        var n: [CGFloat] = []
        while !c.isAtEnd, n.count < 5 { n.append(try c.decode(CGFloat.self)) }
        switch n.count {
        case 2: self.init(gray: n[0], alpha: n[1])
        case 3: self.init(red: n[0], green: n[1], blue: n[2], alpha: 1)
        case 4: self.init(red: n[0], green: n[1], blue: n[2], alpha: n[3])
        default:
            throw DecodingError.dataCorruptedError(in: c, debugDescription:
                "a colour is [r, g, b], [r, g, b, a] or [gray, alpha]; found \(n.count == 5 ? "more than 4" : "\(n.count)") numbers")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.unkeyedContainer()
        for v in components ?? [] { try c.encode(v) }
    }

    /// `"black"`, `"white"` or `"clear"` (the scene format's colour names); nil otherwise.
    /// Package API: the scene reader and `Decodable` share it.
    package init?(named name: String) {
        switch name {
        case "black": self = .black
        case "white": self = .white
        case "clear": self = .clear
        default: return nil
        }
    }

    /// `#RGB`, `#RRGGBB` or `#RRGGBBAA`: 8-bit sRGB components, straight alpha (the CSS
    /// spelling the scene format uses); nil for anything else. Package API: the scene reader
    /// and `Decodable` share it.
    package init?(hex s: String) {
        guard s.hasPrefix("#") else { return nil }
        let digits = Array(s.utf8.dropFirst())
        guard [3, 6, 8].contains(digits.count) else { return nil }
        var vals: [Int] = []
        for d in digits {
            guard let v = Int(String(UnicodeScalar(d)), radix: 16) else { return nil }
            vals.append(v)
        }
        var comps: [CGFloat]
        if vals.count == 3 {
            comps = vals.map { CGFloat($0 * 17) / 255 } + [1]
        } else {
            comps = stride(from: 0, to: vals.count, by: 2).map { CGFloat(vals[$0] * 16 + vals[$0 + 1]) / 255 }
            if comps.count == 3 { comps.append(1) }
        }
        self.init(red: comps[0], green: comps[1], blue: comps[2], alpha: comps[3])
    }
}
