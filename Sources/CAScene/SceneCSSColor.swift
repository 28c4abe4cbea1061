import CoreGraphics
import Foundation

/// Colour strings of CSS Color Module Level 4 (https://www.w3.org/TR/css-color-4/) that scene
/// files accept besides `#hex`: the 148 named colours (§6.1, `rebeccapurple` and the
/// grey/gray spellings included) and `transparent`, and the functional forms `rgb()`/`rgba()`
/// (§5.1: numbers 0…255 or percentages, alpha 0…1 or a percentage, comma- or space-separated
/// with `/` before alpha) and `hsl()`/`hsla()` (§7: hue in degrees or with `deg`, `rad`, `grad`,
/// `turn`; saturation and lightness as percentages). All sRGB, straight alpha.
package enum SceneCSSColor {
    package static let names: [String: UInt32] = [
        "aliceblue": 0xf0f8ff,
        "antiquewhite": 0xfaebd7,
        "aqua": 0x00ffff,
        "aquamarine": 0x7fffd4,
        "azure": 0xf0ffff,
        "beige": 0xf5f5dc,
        "bisque": 0xffe4c4,
        "black": 0x000000,
        "blanchedalmond": 0xffebcd,
        "blue": 0x0000ff,
        "blueviolet": 0x8a2be2,
        "brown": 0xa52a2a,
        "burlywood": 0xdeb887,
        "cadetblue": 0x5f9ea0,
        "chartreuse": 0x7fff00,
        "chocolate": 0xd2691e,
        "coral": 0xff7f50,
        "cornflowerblue": 0x6495ed,
        "cornsilk": 0xfff8dc,
        "crimson": 0xdc143c,
        "cyan": 0x00ffff,
        "darkblue": 0x00008b,
        "darkcyan": 0x008b8b,
        "darkgoldenrod": 0xb8860b,
        "darkgray": 0xa9a9a9,
        "darkgreen": 0x006400,
        "darkgrey": 0xa9a9a9,
        "darkkhaki": 0xbdb76b,
        "darkmagenta": 0x8b008b,
        "darkolivegreen": 0x556b2f,
        "darkorange": 0xff8c00,
        "darkorchid": 0x9932cc,
        "darkred": 0x8b0000,
        "darksalmon": 0xe9967a,
        "darkseagreen": 0x8fbc8f,
        "darkslateblue": 0x483d8b,
        "darkslategray": 0x2f4f4f,
        "darkslategrey": 0x2f4f4f,
        "darkturquoise": 0x00ced1,
        "darkviolet": 0x9400d3,
        "deeppink": 0xff1493,
        "deepskyblue": 0x00bfff,
        "dimgray": 0x696969,
        "dimgrey": 0x696969,
        "dodgerblue": 0x1e90ff,
        "firebrick": 0xb22222,
        "floralwhite": 0xfffaf0,
        "forestgreen": 0x228b22,
        "fuchsia": 0xff00ff,
        "gainsboro": 0xdcdcdc,
        "ghostwhite": 0xf8f8ff,
        "gold": 0xffd700,
        "goldenrod": 0xdaa520,
        "gray": 0x808080,
        "green": 0x008000,
        "greenyellow": 0xadff2f,
        "grey": 0x808080,
        "honeydew": 0xf0fff0,
        "hotpink": 0xff69b4,
        "indianred": 0xcd5c5c,
        "indigo": 0x4b0082,
        "ivory": 0xfffff0,
        "khaki": 0xf0e68c,
        "lavender": 0xe6e6fa,
        "lavenderblush": 0xfff0f5,
        "lawngreen": 0x7cfc00,
        "lemonchiffon": 0xfffacd,
        "lightblue": 0xadd8e6,
        "lightcoral": 0xf08080,
        "lightcyan": 0xe0ffff,
        "lightgoldenrodyellow": 0xfafad2,
        "lightgray": 0xd3d3d3,
        "lightgreen": 0x90ee90,
        "lightgrey": 0xd3d3d3,
        "lightpink": 0xffb6c1,
        "lightsalmon": 0xffa07a,
        "lightseagreen": 0x20b2aa,
        "lightskyblue": 0x87cefa,
        "lightslategray": 0x778899,
        "lightslategrey": 0x778899,
        "lightsteelblue": 0xb0c4de,
        "lightyellow": 0xffffe0,
        "lime": 0x00ff00,
        "limegreen": 0x32cd32,
        "linen": 0xfaf0e6,
        "magenta": 0xff00ff,
        "maroon": 0x800000,
        "mediumaquamarine": 0x66cdaa,
        "mediumblue": 0x0000cd,
        "mediumorchid": 0xba55d3,
        "mediumpurple": 0x9370db,
        "mediumseagreen": 0x3cb371,
        "mediumslateblue": 0x7b68ee,
        "mediumspringgreen": 0x00fa9a,
        "mediumturquoise": 0x48d1cc,
        "mediumvioletred": 0xc71585,
        "midnightblue": 0x191970,
        "mintcream": 0xf5fffa,
        "mistyrose": 0xffe4e1,
        "moccasin": 0xffe4b5,
        "navajowhite": 0xffdead,
        "navy": 0x000080,
        "oldlace": 0xfdf5e6,
        "olive": 0x808000,
        "olivedrab": 0x6b8e23,
        "orange": 0xffa500,
        "orangered": 0xff4500,
        "orchid": 0xda70d6,
        "palegoldenrod": 0xeee8aa,
        "palegreen": 0x98fb98,
        "paleturquoise": 0xafeeee,
        "palevioletred": 0xdb7093,
        "papayawhip": 0xffefd5,
        "peachpuff": 0xffdab9,
        "peru": 0xcd853f,
        "pink": 0xffc0cb,
        "plum": 0xdda0dd,
        "powderblue": 0xb0e0e6,
        "purple": 0x800080,
        "rebeccapurple": 0x663399,
        "red": 0xff0000,
        "rosybrown": 0xbc8f8f,
        "royalblue": 0x4169e1,
        "saddlebrown": 0x8b4513,
        "salmon": 0xfa8072,
        "sandybrown": 0xf4a460,
        "seagreen": 0x2e8b57,
        "seashell": 0xfff5ee,
        "sienna": 0xa0522d,
        "silver": 0xc0c0c0,
        "skyblue": 0x87ceeb,
        "slateblue": 0x6a5acd,
        "slategray": 0x708090,
        "slategrey": 0x708090,
        "snow": 0xfffafa,
        "springgreen": 0x00ff7f,
        "steelblue": 0x4682b4,
        "tan": 0xd2b48c,
        "teal": 0x008080,
        "thistle": 0xd8bfd8,
        "tomato": 0xff6347,
        "turquoise": 0x40e0d0,
        "violet": 0xee82ee,
        "wheat": 0xf5deb3,
        "white": 0xffffff,
        "whitesmoke": 0xf5f5f5,
        "yellow": 0xffff00,
        "yellowgreen": 0x9acd32,
    ]

    /// The colour a CSS string names; nil when it is none of the forms above.
    package static func parse(_ text: String) -> CGColor? {
        let s = text.trimmingCharacters(in: .whitespaces).lowercased()
        if s == "transparent" { return CGColor(red: 0, green: 0, blue: 0, alpha: 0) }
        if let v = names[s] {
            return CGColor(red: Double(v >> 16 & 255) / 255, green: Double(v >> 8 & 255) / 255, blue: Double(v & 255) / 255, alpha: 1)
        }
        guard let open = s.firstIndex(of: "("), s.hasSuffix(")") else { return nil }
        let fn = s[..<open].trimmingCharacters(in: .whitespaces)
        let body = s[s.index(after: open)..<s.index(before: s.endIndex)]
        // Components split on commas, spaces and the slash before alpha.
        var parts: [String] = []
        var alphaIndex: Int?
        for (i, chunk) in body.split(separator: "/", omittingEmptySubsequences: false).enumerated() {
            if i > 1 { return nil }
            if i == 1 { alphaIndex = parts.count }
            parts += chunk.split(whereSeparator: { $0 == "," || $0 == " " }).map(String.init)
        }
        if let alphaIndex, alphaIndex != 3 || parts.count != 4 { return nil }
        guard parts.count == 3 || parts.count == 4 else { return nil }
        let alpha: Double
        if parts.count == 4 {
            guard let a = fraction(parts[3], scale: 1) else { return nil }
            alpha = a
        } else { alpha = 1 }
        switch fn {
        case "rgb", "rgba":
            guard let r = fraction(parts[0], scale: 255), let g = fraction(parts[1], scale: 255), let b = fraction(parts[2], scale: 255) else { return nil }
            return CGColor(red: r, green: g, blue: b, alpha: alpha)
        case "hsl", "hsla":
            guard let h = hue(parts[0]), parts[1].hasSuffix("%"), parts[2].hasSuffix("%"),
                  let sat = fraction(parts[1], scale: 1), let l = fraction(parts[2], scale: 1) else { return nil }
            // CSS Color 4 §7.1, hslToRgb.
            func f(_ n: Double) -> Double {
                let k = (n + h / 30).truncatingRemainder(dividingBy: 12)
                let a = sat * min(l, 1 - l)
                return l - a * max(-1, min(k - 3, 9 - k, 1))
            }
            return CGColor(red: f(0), green: f(8), blue: f(4), alpha: alpha)
        default:
            return nil
        }
    }

    /// A number over `scale`, or a percentage, clamped to 0…1; nil when not a finite number.
    static func fraction(_ t: String, scale: Double) -> Double? {
        let pct = t.hasSuffix("%")
        guard let v = Double(pct ? String(t.dropLast()) : t), v.isFinite else { return nil }
        return min(max(pct ? v / 100 : v / scale, 0), 1)
    }

    /// A hue in degrees, from a number (degrees) or an angle with a unit, in 0..<360.
    static func hue(_ t: String) -> Double? {
        guard let turns = SceneAngle.parse(t, bareUnit: 1.0 / 360) else { return nil }
        let d = (turns * 360).truncatingRemainder(dividingBy: 360)
        return d < 0 ? d + 360 : d
    }
}

/// Angles with CSS units (CSS Values 4 §7.1: `deg`, `grad`, `rad`, `turn`), as scene files
/// accept them wherever an angle is read: `"90deg"`, `"0.25turn"`, `"1.2rad"`, `"100grad"`.
/// A bare number keeps the API's unit (radians for Core Animation's angles).
package enum SceneAngle {
    /// The angle in turns; a unitless string counts `bareUnit` turns per unit. Nil when not
    /// an angle.
    package static func parse(_ text: String, bareUnit: Double) -> Double? {
        let t = text.trimmingCharacters(in: .whitespaces).lowercased()
        for (unit, turns) in [("grad", 1.0 / 400), ("deg", 1.0 / 360), ("rad", 1 / (2 * Double.pi)), ("turn", 1.0)] where t.hasSuffix(unit) {
            guard let v = Double(t.dropLast(unit.count).trimmingCharacters(in: .whitespaces)), v.isFinite else { return nil }
            return v * turns
        }
        guard let v = Double(t), v.isFinite else { return nil }
        return v * bareUnit
    }

    /// Radians from `"90deg"`, `"0.25turn"`, `"1.2rad"`, `"100grad"` or a numeric string.
    package static func radians(_ text: String) -> Double? {
        parse(text, bareUnit: 1 / (2 * Double.pi)).map { $0 * 2 * Double.pi }
    }
}

extension SceneReader {
    /// An angle: a number (radians, the API's unit) or a string with a CSS unit (`"90deg"`,
    /// `"0.25turn"`, `"1.2rad"`, `"100grad"`), as radians.
    func angle(_ node: JSONNode, _ path: String) -> Double? {
        if case .string(let s) = node.value {
            if let r = SceneAngle.radians(s) { return r }
            problem(path, node, "\"\(s.prefix(40))\" is not an angle: a number of radians, or a string with a unit such as \"90deg\", \"0.25turn\", \"1.2rad\"")
            return nil
        }
        guard case .number(let d) = node.value else {
            problem(path, node, "expected an angle (radians, or \"90deg\", \"0.25turn\", \"1.2rad\"), found \(node.value.typeName)")
            return nil
        }
        return d
    }

    /// Colour components are 0…1 (Core Graphics'); an array with a component above 1 (and
    /// all within 0…255) is almost surely 8-bit values: the problem names the fix.
    func checkUnitComponents(_ n: [Double], _ node: JSONNode, _ path: String) -> Bool {
        guard n.contains(where: { $0 > 1 }) else { return true }
        if n.allSatisfy({ $0 >= 0 && $0 <= 255 }) {
            let fixed = n.enumerated().map { i, v in i == 3 ? JSONWriter.number(v) : JSONWriter.number((v / 255 * 1000).rounded() / 1000) }
            let hex = n.prefix(3).map { String(format: "%02x", Int($0.rounded())) }.joined()
            problem(path, node, "colour components are 0…1, not 0…255: write [\(fixed.joined(separator: ", "))] (each divided by 255) or \"#\(hex)\"")
        } else {
            problem(path, node, "colour components are 0…1")
        }
        return false
    }
}
