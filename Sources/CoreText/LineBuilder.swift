import CoreGraphics
import Foundation

/// Builds lines: the items of a line's range (levels after UAX #9 rule L1), shaped, put in
/// visual order (rule L2) and placed one after another from x = 0.
package enum LineBuilder {
    /// The shaped items of `range` (inside one paragraph starting at `paragraphStart`, whose
    /// bidi levels are `bidi`), in visual order.
    static func visualItems(_ text: TextStorage, _ range: Range<Int>, paragraphStart: Int, bidi: BidiParagraph) -> [ShapedItem] {
        guard !range.isEmpty else { return [] }
        let local = (range.lowerBound - paragraphStart)..<(range.upperBound - paragraphStart)
        let levels = bidi.lineLevels(local)
        let items = itemize(text, range, levels: levels)
        let order = bidi.isAllLeftToRight ? Array(items.indices) : visualOrder(levels: items.map(\.level))
        return order.map { shape(items[$0], in: text) }
    }

    /// A line over `range` of `text`: each paragraph in it gets its own bidi resolution
    /// (`CTLineCreateWithAttributedString` over text with newlines is one line).
    package static func line(_ text: TextStorage, _ range: Range<Int>, direction: CTWritingDirection? = nil) -> CTLine {
        var shaped: [ShapedItem] = []
        var baseLevel: UInt8?
        for p in text.paragraphs(in: range) {
            let dir = direction ?? text.paragraphStyle(at: p.lowerBound)?.baseWritingDirection ?? .natural
            let bidi = BidiParagraph(scalars: text.scalars[p], direction: dir)
            if baseLevel == nil { baseLevel = bidi.baseLevel }
            shaped += visualItems(text, p, paragraphStart: p.lowerBound, bidi: bidi)
        }
        return CTLine(text: text, range: range, shaped: shaped, baseLevel: baseLevel ?? 0)
    }

    /// A line for `range` inside a paragraph whose bidi resolution is known (the framesetter).
    package static func line(_ text: TextStorage, _ range: Range<Int>, paragraphStart: Int, bidi: BidiParagraph) -> CTLine {
        CTLine(text: text, range: range, shaped: visualItems(text, range, paragraphStart: paragraphStart, bidi: bidi),
               baseLevel: bidi.baseLevel)
    }
}

/// How `CTLineCreateTruncatedLine` shortens a line (`CTLineTruncationType`).
public enum CTLineTruncationType: UInt32, Sendable {
    case start = 0
    case end = 1
    case middle = 2
}

/// A line of laid-out text (`CTLine`): glyph runs in visual order, placed from the line's
/// origin on the baseline; typographic bounds per Core Text (width = sum of advances, kerning
/// included; ascent/descent/leading the largest of its runs' fonts).
public final class CTLine: @unchecked Sendable {
    package let text: TextStorage
    package let range: Range<Int>
    package let runs: [CTRun]
    package let width: Double
    package let ascent: CGFloat
    package let descent: CGFloat
    package let leading: CGFloat
    package let trailingWhitespaceWidth: Double
    package let baseLevel: UInt8

    package init(text: TextStorage, range: Range<Int>, shaped: [ShapedItem], baseLevel: UInt8) {
        self.text = text
        self.range = range
        self.baseLevel = baseLevel
        var runs: [CTRun] = []
        var x = 0.0
        var asc = 0.0, desc = 0.0, lead = 0.0
        var trailingStart = range.upperBound
        while trailingStart > range.lowerBound, text.isWhitespace(trailingStart - 1) { trailingStart -= 1 }
        var trailing = 0.0
        var work = 0
        for s in shaped {
            let attrs = text.spans[s.item.span].attributes
            var positions: [CGPoint] = []; positions.reserveCapacity(s.glyphs.count)
            var advances: [CGSize] = []; advances.reserveCapacity(s.glyphs.count)
            var pens: [Double] = []; pens.reserveCapacity(s.glyphs.count)
            for i in s.glyphs.indices {
                pens.append(x)
                positions.append(CGPoint(x: x + s.offsets[i].x, y: s.offsets[i].y))
                var advance = s.advances[i]
                // A tab moves the pen to the next tab stop of its paragraph (CTTextTab.swift).
                let u = s.clusters[i]
                if u >= 0, u < text.units.count, text.units[u] == 0x09,
                   let stop = nextTabStop(after: x, style: text.paragraphStyle(at: u)) {
                    advance = stop - x
                }
                advances.append(CGSize(width: advance, height: 0))
                if s.clusters[i] >= trailingStart { trailing += advance }
                x += advance
            }
            work += s.glyphs.count
            var raw = attrs.raw
            raw[kCTFontAttributeName] = s.item.font
            let monotonic = s.item.isRightToLeft
                ? zip(s.clusters, s.clusters.dropFirst()).allSatisfy { $0 >= $1 }
                : zip(s.clusters, s.clusters.dropFirst()).allSatisfy { $0 <= $1 }
            var status: CTRunStatus = s.item.isRightToLeft ? .rightToLeft : []
            if !monotonic { status.insert(.nonMonotonic) }
            runs.append(CTRun(font: s.item.font, attributes: raw, color: attrs.color, colorFromContext: attrs.colorFromContext,
                              glyphs: s.glyphs, positions: positions, advances: advances, stringIndices: s.clusters,
                              stringRange: CFRange(location: s.item.range.lowerBound, length: s.item.range.count),
                              status: status, baselineOffset: attrs.baselineOffset, pens: pens))
            asc = max(asc, s.item.font.ascent + attrs.baselineOffset)
            desc = max(desc, s.item.font.descent - attrs.baselineOffset)
            lead = max(lead, s.item.font.leading)
        }
        LayoutWork.add(work)
        self.runs = runs
        width = x
        ascent = asc; descent = desc; leading = lead
        trailingWhitespaceWidth = trailing
    }

    /// A line with the same text and runs replaced (justification).
    package init(copying line: CTLine, runs: [CTRun]) {
        text = line.text; range = line.range; baseLevel = line.baseLevel
        self.runs = runs
        width = runs.reduce(0) { $0 + $1.width }
        ascent = line.ascent; descent = line.descent; leading = line.leading
        trailingWhitespaceWidth = line.trailingWhitespaceWidth
    }

    package var glyphCount: Int { runs.reduce(0) { $0 + $1.glyphs.count } }

    /// The advance credited to each UTF-16 unit of the line (a cluster's glyphs count for the
    /// cluster's first unit), indexed from `range.lowerBound`.
    package func unitAdvances() -> [Double] {
        var a = [Double](repeating: 0, count: range.count)
        for run in runs {
            for i in run.glyphs.indices {
                let u = run.stringIndices[i] - range.lowerBound
                if u >= 0 && u < a.count { a[u] += run.advances[i].width }
            }
        }
        return a
    }
}

/// Lays out an attributed string as one line (CTLineCreateWithAttributedString): no wrapping;
/// each paragraph in it is resolved for bidi on its own and the paragraphs follow each other.
public func CTLineCreateWithAttributedString(_ attrString: CFAttributedString) -> CTLine {
    let text = TextStorage(attrString)
    return LineBuilder.line(text, 0..<text.count)
}

/// A line of an `AttributedText` (package API; no `NSAttributedString` is made, AttributedText.swift).
package func CTLineCreate(_ attributed: AttributedText) -> CTLine {
    let text = TextStorage(attributed)
    return LineBuilder.line(text, 0..<text.count)
}

public func CTLineGetGlyphCount(_ line: CTLine) -> CFIndex { line.glyphCount }
/// The line's runs in visual order (`as! [CTRun]`).
public func CTLineGetGlyphRuns(_ line: CTLine) -> CFArray { line.runs }
public func CTLineGetStringRange(_ line: CTLine) -> CFRange { CFRange(location: line.range.lowerBound, length: line.range.count) }
public func CTLineGetTrailingWhitespaceWidth(_ line: CTLine) -> Double { line.trailingWhitespaceWidth }

/// Width (the sum of the advances, kerning and trailing whitespace included), and the largest
/// ascent, descent and leading of the line's fonts (CTLineGetTypographicBounds).
public func CTLineGetTypographicBounds(_ line: CTLine, _ ascent: UnsafeMutablePointer<CGFloat>?,
                                       _ descent: UnsafeMutablePointer<CGFloat>?, _ leading: UnsafeMutablePointer<CGFloat>?) -> Double {
    ascent?.pointee = line.ascent
    descent?.pointee = line.descent
    leading?.pointee = line.leading
    return line.width
}

/// The union of the glyphs' ink bounds relative to the line origin (CTLineGetImageBounds);
/// the context's text matrix and position are not applied.
public func CTLineGetImageBounds(_ line: CTLine, _ context: CGContext?) -> CGRect {
    var u = CGRect.null
    for r in line.runs {
        let b = CTRunGetImageBounds(r, nil, CFRange())
        if b != .zero { u = u.union(b) }
    }
    return u.isNull ? .zero : u
}

/// Where to start the pen for the line to sit flush in `flushWidth` (CTLineGetPenOffsetForFlush):
/// 0 left, 1 right, 0.5 centred; trailing whitespace does not count.
public func CTLineGetPenOffsetForFlush(_ line: CTLine, _ flushFactor: CGFloat, _ flushWidth: Double) -> Double {
    let f = flushFactor.isFinite ? min(1, max(0, flushFactor)) : 0
    let w = line.width - line.trailingWhitespaceWidth
    return max(0, (flushWidth - w) * f)
}

/// The caret position (string index) nearest `position.x` (CTLineGetStringIndexForPosition):
/// a glyph's left half gives its character's index, the right half the next one (mirrored in
/// right-to-left runs); ligatures are split evenly among their characters.
public func CTLineGetStringIndexForPosition(_ line: CTLine, _ position: CGPoint) -> CFIndex {
    guard !line.runs.isEmpty else { return line.range.lowerBound }
    let x = position.x.isFinite ? position.x : 0
    let rtlLine = line.baseLevel & 1 == 1
    if x <= 0 { return rtlLine ? line.range.upperBound : line.range.lowerBound }
    if x >= line.width { return rtlLine ? line.range.lowerBound : line.range.upperBound }
    for run in line.runs {
        let rtl = run.status.contains(.rightToLeft)
        for i in run.glyphs.indices {
            let start = run.pens[i], adv = run.advances[i].width
            guard x >= start, x < start + adv else { continue }
            let (lo, hi) = clusterBounds(run, i)
            let n = max(1, hi - lo)
            var frac = adv > 0 ? (x - start) / adv : 0
            if rtl { frac = 1 - frac }
            return lo + min(n, Int((frac * Double(n)).rounded()))
        }
    }
    return rtlLine ? line.range.lowerBound : line.range.upperBound
}

/// The x offset of the caret before the character at `charIndex` (CTLineGetOffsetForStringIndex):
/// the leading edge of its cluster (the right edge in right-to-left runs), ligatures split
/// evenly; the end of the line for indices past it. `secondaryOffset` gets the same value
/// (split carets at direction boundaries are not computed).
public func CTLineGetOffsetForStringIndex(_ line: CTLine, _ charIndex: CFIndex, _ secondaryOffset: UnsafeMutablePointer<CGFloat>?) -> CGFloat {
    let rtlLine = line.baseLevel & 1 == 1
    var result: Double = charIndex >= line.range.upperBound ? (rtlLine ? 0 : line.width) : (rtlLine ? line.width : 0)
    search: for run in line.runs {
        let r = run.stringRange
        guard charIndex >= r.location, charIndex < r.location + r.length, !run.glyphs.isEmpty else { continue }
        // The cluster holding charIndex: the largest glyph index ≤ charIndex; its glyphs' extent.
        var lo = Int.min
        for s in run.stringIndices where s <= charIndex && s > lo { lo = s }
        guard lo != Int.min else { continue }
        var left = Double.infinity, right = -Double.infinity
        for i in run.glyphs.indices where run.stringIndices[i] == lo {
            left = min(left, run.pens[i]); right = max(right, run.pens[i] + run.advances[i].width)
        }
        let (_, hi) = clusterBounds(run, run.stringIndices.firstIndex(of: lo)!)
        let frac = Double(charIndex - lo) / Double(max(1, hi - lo))
        result = run.status.contains(.rightToLeft) ? right - frac * (right - left) : left + frac * (right - left)
        break search
    }
    secondaryOffset?.pointee = result
    return result
}

/// The UTF-16 range of the cluster glyph i belongs to: from its index to the next larger
/// index among the run's glyphs (or the run's end).
private func clusterBounds(_ run: CTRun, _ i: Int) -> (Int, Int) {
    let lo = run.stringIndices[i]
    var hi = run.stringRange.location + run.stringRange.length
    for s in run.stringIndices where s > lo && s < hi { hi = s }
    return (lo, hi)
}
