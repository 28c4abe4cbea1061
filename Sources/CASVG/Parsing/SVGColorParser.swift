import Foundation

/// A colour value as SVG/CSS writes it, not yet resolved against `color` (`currentColor`).
package enum SVGColorValue: Equatable {
    /// Straight (not premultiplied) sRGB components in [0, 1].
    case rgba(Double, Double, Double, Double)
    case currentColor
}

/// Colours (SVG 1.1 §4.2 `<color>`, CSS Color 3/4 as browsers and resvg accept them): `#rgb`,
/// `#rgba`, `#rrggbb`, `#rrggbbaa`, `rgb()`/`rgba()` with integers, percentages or decimals and
/// an optional alpha, `hsl()`/`hsla()`, the 147 keywords, `transparent`, `currentColor`.
/// Components outside their range are clamped (CSS Color 3 §4.2.1).
package enum SVGColorParser {
    package static func parse(_ raw: String) -> SVGColorValue? {
        let s = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        let lower = s.lowercased()
        if lower == "currentcolor" { return .currentColor }
        if lower == "transparent" { return .rgba(0, 0, 0, 0) }
        if lower.hasPrefix("#") { return hex(String(lower.dropFirst())) }
        if let v = SVGNamedColors.table[lower] {
            return .rgba(Double((v >> 16) & 255) / 255, Double((v >> 8) & 255) / 255, Double(v & 255) / 255, 1)
        }
        if let open = lower.firstIndex(of: "("), lower.hasSuffix(")") {
            let fn = lower[..<open].trimmingCharacters(in: .whitespaces)
            let inner = String(lower[lower.index(after: open)..<lower.index(before: lower.endIndex)])
            // Comma or space separated, with an optional "/ alpha" (CSS Color 4).
            let parts = inner.replacingOccurrences(of: "/", with: " ").split(whereSeparator: { $0 == "," || $0 == " " || $0 == "\t" || $0 == "\n" }).map(String.init)
            switch fn {
            case "rgb", "rgba":
                guard parts.count == 3 || parts.count == 4 else { return nil }
                var c: [Double] = []
                for p in parts.prefix(3) {
                    if p.hasSuffix("%") { guard let v = Double(p.dropLast()) else { return nil }; c.append(v / 100) }
                    else { guard let v = Double(p) else { return nil }; c.append(v / 255) }
                }
                guard let a = parts.count == 4 ? alpha(parts[3]) : 1 else { return nil }
                return .rgba(clamp01(c[0]), clamp01(c[1]), clamp01(c[2]), a)
            case "hsl", "hsla":
                guard parts.count == 3 || parts.count == 4,
                      let h = Double(parts[0].replacingOccurrences(of: "deg", with: "")),
                      parts[1].hasSuffix("%"), parts[2].hasSuffix("%"),
                      let sat = Double(parts[1].dropLast()), let l = Double(parts[2].dropLast()),
                      let a = parts.count == 4 ? alpha(parts[3]) : 1 else { return nil }
                let (r, g, b) = hslToRGB(h, clamp01(sat / 100), clamp01(l / 100))
                return .rgba(r, g, b, a)
            default: return nil
            }
        }
        return nil
    }

    static func alpha(_ p: String) -> Double? {
        if p.hasSuffix("%") { return Double(p.dropLast()).map { clamp01($0 / 100) } }
        return Double(p).map(clamp01)
    }

    static func clamp01(_ v: Double) -> Double { v.isNaN ? 0 : min(max(v, 0), 1) }

    static func hex(_ h: String) -> SVGColorValue? {
        let digits = h.compactMap { $0.hexDigitValue }
        guard digits.count == h.count else { return nil }
        func d(_ i: Int) -> Double { Double(digits[i]) }
        switch digits.count {
        case 3: return .rgba(d(0) * 17 / 255, d(1) * 17 / 255, d(2) * 17 / 255, 1)
        case 4: return .rgba(d(0) * 17 / 255, d(1) * 17 / 255, d(2) * 17 / 255, d(3) * 17 / 255)
        case 6: return .rgba((d(0) * 16 + d(1)) / 255, (d(2) * 16 + d(3)) / 255, (d(4) * 16 + d(5)) / 255, 1)
        case 8: return .rgba((d(0) * 16 + d(1)) / 255, (d(2) * 16 + d(3)) / 255, (d(4) * 16 + d(5)) / 255, (d(6) * 16 + d(7)) / 255)
        default: return nil
        }
    }

    /// CSS Color 3 §4.2.4 HSL → RGB.
    static func hslToRGB(_ hDeg: Double, _ s: Double, _ l: Double) -> (Double, Double, Double) {
        var h = hDeg.truncatingRemainder(dividingBy: 360) / 360
        if h < 0 { h += 1 }
        let m2 = l <= 0.5 ? l * (s + 1) : l + s - l * s
        let m1 = l * 2 - m2
        func hue(_ hIn: Double) -> Double {
            var h = hIn
            if h < 0 { h += 1 }
            if h > 1 { h -= 1 }
            if h * 6 < 1 { return m1 + (m2 - m1) * h * 6 }
            if h * 2 < 1 { return m2 }
            if h * 3 < 2 { return m1 + (m2 - m1) * (2.0 / 3 - h) * 6 }
            return m1
        }
        return (hue(h + 1.0 / 3), hue(h), hue(h - 1.0 / 3))
    }
}
