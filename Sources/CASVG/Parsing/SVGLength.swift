import Foundation

/// A length with its unit (SVG 1.1 §7.10 "Units", CSS Values 3 absolute units at 96 px per inch).
package struct SVGLength: Equatable {
    package enum Unit: String { case none = "", px, pt, pc, mm, cm, `in`, em, ex, percent = "%" }
    package var value: Double
    package var unit: Unit

    package init(value: Double, unit: Unit) { self.value = value; self.unit = unit }

    static let zero = SVGLength(value: 0, unit: .none)

    /// Which viewport dimension a percentage refers to (SVG 1.1 §7.10): width, height, or the
    /// normalised diagonal sqrt((w² + h²)/2) for lengths that are neither (r, stroke-width).
    package enum Axis { case x, y, other }

    /// nil when the string is not a length (then the attribute's default applies and the
    /// value is reported).
    package static func parse(_ s: String) -> SVGLength? {
        var sc = SVGScanner(s)
        sc.skipSpaces()
        guard let v = sc.number(), v.isFinite else { return nil }
        let w = sc.word().lowercased()
        sc.skipSpaces()
        guard sc.atEnd, let unit = Unit(rawValue: w) else { return nil }
        return SVGLength(value: v, unit: unit)
    }

    /// The length in user units (px).
    package func resolve(_ axis: Axis, viewport: CGSize, fontSize: Double = SVGComputedStyle.initialFontSize) -> Double {
        switch unit {
        case .none, .px: return value
        case .pt: return value * 96 / 72
        case .pc: return value * 16
        case .mm: return value * 96 / 25.4
        case .cm: return value * 96 / 2.54
        case .in: return value * 96
        case .em: return value * fontSize
        case .ex: return value * fontSize / 2
        case .percent:
            let ref: Double
            switch axis {
            case .x: ref = viewport.width
            case .y: ref = viewport.height
            case .other: ref = ((viewport.width * viewport.width + viewport.height * viewport.height) / 2).squareRoot()
            }
            return value / 100 * ref
        }
    }
}
