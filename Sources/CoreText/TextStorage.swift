import CoreGraphics
import Foundation
import CHarfBuzz

/// An attributed text prepared for layout, once: its UTF-16 units, one scalar per unit,
/// the text HarfBuzz shapes (controls replaced), and its attribute spans resolved to
/// `TextAttributes`. Immutable and shared by the lines and frames made from it.
/// It keeps the text as an `AttributedText` value, never an `NSAttributedString` (whose
/// attribute values Foundation on Linux never releases; AttributedText.swift).
package final class TextStorage: @unchecked Sendable {
    package let text: AttributedText
    package let units: [UInt16]
    package let scalars: [UInt32]
    package let continuation: [Bool]
    /// `units` with controls made shapeable: line and paragraph separators and other C0/C1
    /// controls become U+200B (zero width), tabs a space (widened to the next tab stop by `CTLine`).
    package let shapingUnits: [UInt16]
    package let spans: [(range: Range<Int>, attributes: TextAttributes)]
    /// The span of each unit.
    private let spanOfUnit: [Int32]

    /// The longest text laid out (UTF-16 units); longer strings are cut there with a warning.
    /// HarfBuzz indexes with 32-bit integers; this keeps far below and bounds memory.
    package static let maxLength = 1 << 26

    package var count: Int { units.count }

    /// A user's attributed string, read once into an `AttributedText`.
    package convenience init(_ string: NSAttributedString) { self.init(AttributedText(string)) }

    package init(_ source: AttributedText) {
        var source = source
        if source.length > Self.maxLength {
            TextDiagnostics.warnOnce("text of \(source.length) UTF-16 units is cut to \(Self.maxLength) for layout")
            source = source.substring(0..<Self.maxLength)
        }
        text = source
        let u = source.units
        units = u
        (scalars, continuation) = UTF16Text.scalars(u)
        var shaping = u
        for i in 0..<shaping.count {
            let c = shaping[i]
            if c < 0x20 || (c >= 0x7F && c < 0xA0) || c == 0x2028 || c == 0x2029 {
                // A tab shapes as a space; the line moves its pen to the next tab stop (CTLine).
                shaping[i] = c == 0x09 ? 0x20 : 0x200B
            } else if continuation[i] == false, scalars[i] == 0xFFFD, UTF16.isLeadSurrogate(c) || UTF16.isTrailSurrogate(c) {
                shaping[i] = 0xFFFD  // an unpaired surrogate shapes as the replacement character
            }
        }
        shapingUnits = shaping
        var spans: [(Range<Int>, TextAttributes)] = []
        var spanOfUnit = [Int32](repeating: 0, count: u.count)
        var fallbackFont: CTFont?
        let defaultFont = { () -> CTFont in
            if let f = fallbackFont { return f }
            let f = defaultCTFont(); fallbackFont = f; return f
        }
        for run in source.runs where !run.range.isEmpty {
            spans.append((run.range, TextAttributes(run.attributes, defaultFont: defaultFont)))
        }
        if spans.isEmpty && !u.isEmpty { spans.append((0..<u.count, TextAttributes([:], defaultFont: defaultFont))) }
        for (i, s) in spans.enumerated() { for j in s.0 { spanOfUnit[j] = Int32(i) } }
        self.spans = spans
        self.spanOfUnit = spanOfUnit
        LayoutWork.add(u.count * 2)
    }

    package func span(at unit: Int) -> Int { Int(spanOfUnit[unit]) }
    package func attributes(at unit: Int) -> TextAttributes { spans[span(at: unit)].attributes }

    /// Whether `unit` starts a paragraph separator (LF, CR, CR LF, U+2029, NEL) and how long it is.
    package func paragraphSeparatorLength(at i: Int) -> Int {
        switch units[i] {
        case 0x0D: return i + 1 < units.count && units[i + 1] == 0x0A ? 2 : 1
        case 0x0A, 0x2029, 0x85: return 1
        default: return 0
        }
    }

    /// The paragraphs of `range`, each including its separator.
    package func paragraphs(in range: Range<Int>) -> [Range<Int>] {
        var out: [Range<Int>] = []
        var start = range.lowerBound, i = range.lowerBound
        while i < range.upperBound {
            let sep = paragraphSeparatorLength(at: i)
            if sep > 0 {
                let end = min(range.upperBound, i + sep)
                out.append(start..<end); start = end; i = end
            } else { i += 1 }
        }
        if start < range.upperBound || out.isEmpty { out.append(start..<range.upperBound) }
        LayoutWork.add(range.count)
        return out
    }

    /// The paragraph style in force at `unit` (Core Text reads it from the paragraph's first
    /// character).
    package func paragraphStyle(at unit: Int) -> CTParagraphStyle? {
        guard unit < units.count else { return spans.last?.attributes.paragraphStyle }
        return attributes(at: unit).paragraphStyle
    }

    package func isWhitespace(_ unit: Int) -> Bool {
        switch scalars[unit] {
        case 0x20, 0x09, 0x0A, 0x0D, 0xA0, 0x1680, 0x2000...0x200B, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000, 0x85: return true
        default: return false
        }
    }
}

/// Core Text's default font: Helvetica 12 pt, mapped as `CTFontCreateWithName` maps it.
package func defaultCTFont() -> CTFont { CTFontCreateWithName("Helvetica", CTFont.defaultSize, nil) }
