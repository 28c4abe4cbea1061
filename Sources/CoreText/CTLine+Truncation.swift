import CoreGraphics
import Foundation

/// Truncation and justification of lines, shared by the public functions and the framesetter.
extension Typesetter {
    /// `line` cut to `width` with `token` where text was removed; nil when the token alone is
    /// wider than `width`. Cuts fall between clusters, and the whitespace next to a cut goes.
    package static func truncate(_ line: CTLine, width: Double, type: CTLineTruncationType, token: CTLine?) -> CTLine? {
        guard width.isFinite else { return line }
        if line.width - line.trailingWhitespaceWidth <= width { return line }
        let tokenWidth = token?.width ?? 0
        guard tokenWidth <= width else { return nil }
        let avail = max(0, width - tokenWidth)
        let text = line.text
        let adv = line.unitAdvances()
        var starts = [Bool](repeating: false, count: line.range.count + 1)
        starts[line.range.count] = true
        for run in line.runs { for s in run.stringIndices where s >= line.range.lowerBound && s < line.range.upperBound { starts[s - line.range.lowerBound] = true } }
        func keepHead(_ budget: Double) -> Int {     // units kept from the start
            var sum = 0.0, kept = 0, i = 0
            while i < adv.count {
                var j = i + 1
                var w = adv[i]
                while j < adv.count && !starts[j] { w += adv[j]; j += 1 }
                if sum + w > budget + 1e-9 { break }
                sum += w; kept = j; i = j
            }
            while kept > 0, text.isWhitespace(line.range.lowerBound + kept - 1) { kept -= 1 }
            return kept
        }
        func keepTail(_ budget: Double) -> Int {     // units kept from the end
            var sum = 0.0, kept = 0, i = adv.count
            while i > 0 {
                var j = i - 1
                var w = adv[j]
                while j > 0 && !starts[j] { j -= 1; w += adv[j] }
                if sum + w > budget + 1e-9 { break }
                sum += w; kept = adv.count - j; i = j
            }
            while kept > 0, text.isWhitespace(line.range.upperBound - kept) { kept -= 1 }
            return kept
        }
        var head = 0, tail = 0
        switch type {
        case .end: head = keepHead(avail)
        case .start: tail = keepTail(avail)
        case .middle:
            head = keepHead(avail / 2)
            let used = adv[0..<head].reduce(0, +)
            tail = keepTail(avail - used)
        }
        var result = AttributedText(units: [])
        let src = text.text
        if head > 0 { result.append(src.substring(line.range.lowerBound..<(line.range.lowerBound + head))) }
        if let token, !token.range.isEmpty { result.append(token.text.text.substring(token.range)) }
        if tail > 0 { result.append(src.substring((line.range.upperBound - tail)..<line.range.upperBound)) }
        return CTLineCreate(result)
    }

    /// `line` stretched to `width` (trailing whitespace excluded) by widening its spaces, or
    /// every glyph gap when it has none; nil when it is already at least that wide.
    package static func justify(_ line: CTLine, factor: Double, width: Double) -> CTLine? {
        let f = factor.isFinite ? min(1, max(0, factor)) : 0
        let extra = (width - (line.width - line.trailingWhitespaceWidth)) * f
        guard extra > 1e-9, width.isFinite else { return nil }
        var trailingStart = line.range.upperBound
        while trailingStart > line.range.lowerBound, line.text.isWhitespace(trailingStart - 1) { trailingStart -= 1 }
        func isGap(_ run: CTRun, _ i: Int) -> Bool {
            let s = run.stringIndices[i]
            return s < trailingStart && line.text.isWhitespace(s)
        }
        var gaps = line.runs.reduce(0) { n, r in n + r.glyphs.indices.filter { isGap(r, $0) }.count }
        let spacesOnly = gaps > 0
        if !spacesOnly { gaps = max(0, line.glyphCount - 1) }
        guard gaps > 0 else { return nil }
        let each = extra / Double(gaps)
        var shift = 0.0
        var runs: [CTRun] = []
        var seen = 0
        let total = line.glyphCount
        for run in line.runs {
            var add = [Double](repeating: 0, count: run.glyphs.count)
            for i in run.glyphs.indices {
                seen += 1
                if spacesOnly ? isGap(run, i) : seen < total { add[i] = each }
            }
            runs.append(run.shifted(by: shift, extra: add))
            shift += add.reduce(0, +)
        }
        return CTLine(copying: line, runs: runs)
    }
}

/// A line no wider than `width`, with `truncationToken` (usually an ellipsis line; nil: none)
/// where text was removed at the start, end or middle (CTLineCreateTruncatedLine). The line
/// itself when it fits; nil when the token alone is wider than `width`.
public func CTLineCreateTruncatedLine(_ line: CTLine, _ width: Double, _ truncationType: CTLineTruncationType,
                                      _ truncationToken: CTLine?) -> CTLine? {
    guard !width.isNaN else { return nil }
    return Typesetter.truncate(line, width: max(0, width), type: truncationType, token: truncationToken)
}

/// A copy of `line` stretched to `justificationWidth` (CTLineCreateJustifiedLine): factor 1 or
/// more is full justification, 0 none; nil when the line cannot be stretched.
public func CTLineCreateJustifiedLine(_ line: CTLine, _ justificationFactor: CGFloat, _ justificationWidth: Double) -> CTLine? {
    Typesetter.justify(line, factor: Double(justificationFactor), width: justificationWidth)
}
