import CoreGraphics
import Foundation

/// Lays out an attributed string into frames (`CTFramesetter`), as Core Text's typesetter does:
/// per paragraph, bidi levels (FriBidi), a measuring pass (itemize and shape the paragraph
/// once, crediting each cluster's advance to its first UTF-16 unit), then greedy line breaking
/// at UAX #14 opportunities (ICU) — a line ends at the last opportunity whose text, trailing
/// whitespace excluded, fits the width; a word wider than the line breaks between clusters —
/// and each line is shaped again on its own with its L1 levels and visual order.
public final class CTFramesetter: @unchecked Sendable {
    package let text: TextStorage
    package init(text: TextStorage) { self.text = text }
}

/// A framesetter for `attrString` (CTFramesetterCreateWithAttributedString).
public func CTFramesetterCreateWithAttributedString(_ attrString: CFAttributedString) -> CTFramesetter {
    CTFramesetter(text: TextStorage(attrString))
}

/// A framesetter for an `AttributedText` (package API: Core Text's own callers and
/// `CATextLayer` lay out without making an `NSAttributedString`, AttributedText.swift).
package func CTFramesetterCreate(_ text: AttributedText) -> CTFramesetter {
    CTFramesetter(text: TextStorage(text))
}

/// A laid-out frame (`CTFrame`): lines and their origins, relative to the frame path's bounding
/// box origin, y up (the first line at the top).
public final class CTFrame: @unchecked Sendable {
    package let path: CGPath
    package let lines: [CTLine]
    package let origins: [CGPoint]
    package let stringRange: CFRange
    package let visibleRange: CFRange
    package init(path: CGPath, lines: [CTLine], origins: [CGPoint], stringRange: CFRange, visibleRange: CFRange) {
        self.path = path; self.lines = lines; self.origins = origins; self.stringRange = stringRange; self.visibleRange = visibleRange
    }
}

/// One laid-out line before placement.
package struct PlacedLine {
    var line: CTLine
    var x: Double
    var height: Double        // ascent + descent + leading, after the paragraph's line height rules
    var ascent: Double
    var spacingBefore: Double // paragraph spacing (before) or line spacing above this line
}

package enum Typesetter {
    /// Lines of `range` for a column `width` wide, top to bottom, stopping once `maxHeight` is
    /// used up (lines that would not fit are not made: layout is bounded by what is visible;
    /// a long paragraph is measured in windows, `layoutWindow`).
    package static func layout(_ text: TextStorage, _ range: Range<Int>, width: Double, maxHeight: Double) -> [PlacedLine] {
        var out: [PlacedLine] = []
        guard !range.isEmpty else { return out }
        var used = 0.0
        var firstParagraph = true
        var previousParagraphSpacing: CGFloat = 0
        paragraphs: for p in text.paragraphs(in: range) {
            let style = text.paragraphStyle(at: p.lowerBound)
            let bidi = BidiParagraph(scalars: text.scalars[p], direction: style?.baseWritingDirection ?? .natural)
            let mode = style?.lineBreakMode ?? .byWordWrapping
            let head = Double(style?.headIndent ?? 0), first = Double(style?.firstLineHeadIndent ?? 0)
            let tail = Double(style?.tailIndent ?? 0)
            func available(_ firstLine: Bool) -> Double {
                let lead = firstLine ? first : head
                let trailEdge = tail > 0 ? tail : width + tail
                return max(0, min(width, trailEdge) - lead)
            }
            let wraps = mode == .byWordWrapping || mode == .byCharWrapping
            // Lines come window by window (`nextLines`), so a long paragraph is measured and
            // broken only as far as the frame shows.
            var lineRanges: [Range<Int>] = []
            var next = 0
            var cursor = p.lowerBound
            var paragraphDone = false
            func nextLines() {
                lineRanges = []; next = 0
                if !wraps || p.isEmpty {
                    lineRanges = [p]; paragraphDone = true
                    return
                }
                var w = layoutWindow
                while true {
                    let end = p.upperBound - cursor <= w ? p.upperBound : cursor + w
                    let levels = Array(bidi.levels[(cursor - p.lowerBound)..<(end - p.lowerBound)])
                    let startsParagraph = cursor == p.lowerBound
                    var ranges = breakParagraph(text, cursor..<end, levels: levels, charWrap: mode == .byCharWrapping,
                                                width: { available($0 && startsParagraph) })
                    if end == p.upperBound { lineRanges = ranges; paragraphDone = true; return }
                    // The window's last line may go on past it: keep the others, start there next.
                    if ranges.count >= 2 {
                        ranges.removeLast()
                        lineRanges = ranges; cursor = ranges.last!.upperBound
                        return
                    }
                    w *= 4
                }
            }
            var k = -1
            while true {
                if next == lineRanges.count {
                    if paragraphDone { break }
                    nextLines()
                    if lineRanges.isEmpty { break }
                }
                let r = lineRanges[next]; next += 1; k += 1
                let avail = available(k == 0)
                var line: CTLine
                if !wraps, p.count > layoutWindow, avail.isFinite, mode != .byTruncatingMiddle {
                    line = windowedLine(text, p, bidi: bidi, fromEnd: mode == .byTruncatingHead, width: avail)
                } else {
                    line = LineBuilder.line(text, r, paragraphStart: p.lowerBound, bidi: bidi)
                }
                if !wraps, line.width - line.trailingWhitespaceWidth > avail {
                    let type: CTLineTruncationType? = mode == .byTruncatingHead ? .start : mode == .byTruncatingTail ? .end
                        : mode == .byTruncatingMiddle ? .middle : nil
                    if let type, let t = truncate(line, width: avail, type: type, token: ellipsisToken(for: line)) { line = t }
                }
                let isLastOfParagraph = paragraphDone && next == lineRanges.count
                var alignment = style?.alignment ?? .natural
                if alignment == .justified, !isLastOfParagraph, let j = justify(line, factor: 1, width: avail) { line = j }
                var height = Double(line.ascent + line.descent + line.leading)
                var ascent = Double(line.ascent)
                if let s = style {
                    if s.lineHeightMultiple > 0 { let h = height * s.lineHeightMultiple; ascent += h - height; height = h }
                    if s.minimumLineHeight > 0, height < s.minimumLineHeight { ascent += s.minimumLineHeight - height; height = s.minimumLineHeight }
                    if s.maximumLineHeight > 0, height > s.maximumLineHeight { ascent -= height - s.maximumLineHeight; height = s.maximumLineHeight }
                }
                var before = 0.0
                if !out.isEmpty {
                    before = Double(style?.lineSpacing ?? 0)
                    if k == 0 { before += Double(style?.paragraphSpacingBefore ?? 0) + Double(previousParagraphSpacing) }
                }
                if used + before + height > maxHeight + 1e-9 && !(out.isEmpty && firstParagraph && maxHeight >= height) {
                    break paragraphs
                }
                used += before + height
                let lead = k == 0 ? first : head
                let visible = line.width - line.trailingWhitespaceWidth
                var x = lead
                let rtl = line.baseLevel & 1 == 1
                // Unconstrained width (suggesting a size): every line starts at its indent.
                if !avail.isFinite { alignment = .left }
                switch alignment {
                case .left: break
                case .right: x = lead + max(0, avail - visible)
                case .center: x = lead + max(0, avail - visible) / 2
                case .natural, .justified: if rtl { x = lead + max(0, avail - visible) }
                }
                out.append(PlacedLine(line: line, x: x, height: height, ascent: ascent, spacingBefore: before))
            }
            previousParagraphSpacing = style?.paragraphSpacing ?? 0
            firstParagraph = false
        }
        return out
    }

    /// How many UTF-16 units of a paragraph are measured at a time (`layout`): a paragraph
    /// longer than this is broken window by window (each window at least one whole line,
    /// growing ×4 when a line is longer), and an unwrapped one is laid out only as far as its
    /// visible part reaches, so the work for a 10 MB paragraph is bounded by what the frame
    /// shows (bidi levels and paragraph boundaries are still found over the whole paragraph).
    package static let layoutWindow = 16_384

    /// The line of an unwrapped paragraph `p` that a column `width` wide shows: its first (or,
    /// truncating at the head, last) units, in windows growing ×4 until the line is wider than
    /// the column or holds the whole paragraph.
    static func windowedLine(_ text: TextStorage, _ p: Range<Int>, bidi: BidiParagraph, fromEnd: Bool, width: Double) -> CTLine {
        var w = layoutWindow
        while true {
            let r = w >= p.count ? p : fromEnd ? (p.upperBound - w)..<p.upperBound : p.lowerBound..<(p.lowerBound + w)
            let line = LineBuilder.line(text, r, paragraphStart: p.lowerBound, bidi: bidi)
            if r == p || line.width - line.trailingWhitespaceWidth > width { return line }
            w *= 4
        }
    }

    /// Greedy breaking of paragraph text `p` (a whole paragraph or a window of one, with its
    /// resolved bidi `levels`): line ranges (absolute), each at least one cluster.
    static func breakParagraph(_ text: TextStorage, _ p: Range<Int>, levels: [UInt8], charWrap: Bool,
                               width: (Bool) -> Double) -> [Range<Int>] {
        // Measure: the paragraph's items with its resolved levels, advances credited per unit.
        let items = itemize(text, p, levels: levels)
        var advance = [Double](repeating: 0, count: p.count)
        var clusterStart = [Bool](repeating: false, count: p.count + 1)
        clusterStart[p.count] = true
        for item in items {
            let s = shape(item, in: text)
            for i in s.glyphs.indices {
                let u = s.clusters[i] - p.lowerBound
                advance[u] += s.advances[i]
                clusterStart[u] = true
            }
        }
        // Prefix sums make a candidate's width O(1).
        var prefix = [Double](repeating: 0, count: p.count + 1)
        for i in 0..<p.count { prefix[i + 1] = prefix[i] + advance[i] }
        var opportunities: [Int]
        var hard: Set<Int> = []
        if charWrap {
            opportunities = (1...p.count).filter { clusterStart[$0] }
        } else {
            let b = lineBreakOpportunities(text.units[p])
            opportunities = b.offsets; hard = b.hard
        }
        func isSpace(_ u: Int) -> Bool { text.isWhitespace(p.lowerBound + u) }
        func visibleWidth(_ a: Int, _ b: Int) -> Double {
            var e = b
            while e > a, isSpace(e - 1) { e -= 1 }
            return prefix[e] - prefix[a]
        }
        var lines: [Range<Int>] = []
        var start = 0
        var k = 0
        var work = 0
        while start < p.count {
            let w = width(lines.isEmpty)
            var best = -1
            while k < opportunities.count {
                work += 1
                let o = opportunities[k]
                if o <= start { k += 1; continue }
                if visibleWidth(start, o) <= w + 1e-9 {
                    best = o; k += 1
                    if hard.contains(o) { break }
                } else { break }
            }
            if best < 0 {
                // Nothing fits: as many whole clusters as fit, at least one.
                var e = start + 1
                while e < p.count && !clusterStart[e] { e += 1 }
                var c = e
                while c < p.count {
                    work += 1
                    var n = c + 1
                    while n < p.count && !clusterStart[n] { n += 1 }
                    if prefix[n] - prefix[start] > w + 1e-9 { break }
                    c = n; e = n
                }
                best = e
            }
            lines.append((p.lowerBound + start)..<(p.lowerBound + best))
            start = best
        }
        LayoutWork.add(work + p.count)
        return lines
    }

    /// An ellipsis in the attributes of the line's last character.
    static func ellipsisToken(for line: CTLine) -> CTLine {
        let idx = max(line.range.lowerBound, line.range.upperBound - 1)
        let attrs = idx < line.text.count ? line.text.text.attributes(at: idx) : [:]
        return CTLineCreate(AttributedText(string: "\u{2026}", attributes: attrs))
    }
}

/// Lays out `framesetter`'s text in `stringRange` (length 0: to the end) inside `path`
/// (CTFramesetterCreateFrame). Rectangular paths are exact; other shapes use their bounding box
/// (warns once). `frameAttributes` are not read (warns once when given).
public func CTFramesetterCreateFrame(_ framesetter: CTFramesetter, _ stringRange: CFRange, _ path: CGPath,
                                     _ frameAttributes: CFDictionary?) -> CTFrame {
    if let a = frameAttributes, !a.isEmpty { TextDiagnostics.warnOnce("frame attributes are not supported") }
    let text = framesetter.text
    let r = clampRange(stringRange, text.count)
    let box = path.boundingBox
    if !isRectangle(path) { TextDiagnostics.warnOnce("non-rectangular frame paths are laid out in their bounding box") }
    guard !box.isNull, box.width.isFinite, box.height.isFinite else {
        return CTFrame(path: path, lines: [], origins: [], stringRange: CFRange(location: r.lowerBound, length: r.count),
                       visibleRange: CFRange(location: r.lowerBound, length: 0))
    }
    let placed = Typesetter.layout(text, r, width: Double(box.width), maxHeight: Double(box.height))
    var origins: [CGPoint] = []
    var y = Double(box.height)
    for p in placed {
        y -= p.spacingBefore
        origins.append(CGPoint(x: p.x, y: y - p.ascent))
        y -= p.height
    }
    let end = placed.last?.line.range.upperBound ?? r.lowerBound
    return CTFrame(path: path, lines: placed.map(\.line), origins: origins,
                   stringRange: CFRange(location: r.lowerBound, length: r.count),
                   visibleRange: CFRange(location: r.lowerBound, length: end - r.lowerBound))
}

/// The size the text in `stringRange` needs within `constraints` (CTFramesetterSuggestFrameSizeWithConstraints):
/// the widest line (trailing whitespace excluded) and the height of the lines that fit;
/// `fitRange` gets the range they hold. A constraint of `.greatestFiniteMagnitude` (or any
/// non-finite or non-positive value) means unconstrained.
public func CTFramesetterSuggestFrameSizeWithConstraints(_ framesetter: CTFramesetter, _ stringRange: CFRange,
                                                         _ frameAttributes: CFDictionary?, _ constraints: CGSize,
                                                         _ fitRange: UnsafeMutablePointer<CFRange>?) -> CGSize {
    let text = framesetter.text
    let r = clampRange(stringRange, text.count)
    let w = constraints.width.isFinite && constraints.width > 0 && constraints.width < 1e12 ? Double(constraints.width) : .infinity
    let h = constraints.height.isFinite && constraints.height > 0 && constraints.height < 1e12 ? Double(constraints.height) : .infinity
    let placed = Typesetter.layout(text, r, width: w, maxHeight: h)
    var width = 0.0, height = 0.0
    for p in placed {
        width = max(width, p.x + p.line.width - p.line.trailingWhitespaceWidth)
        height += p.spacingBefore + p.height
    }
    let end = placed.last?.line.range.upperBound ?? r.lowerBound
    fitRange?.pointee = CFRange(location: r.lowerBound, length: end - r.lowerBound)
    return CGSize(width: width, height: height)
}

public func CTFrameGetLines(_ frame: CTFrame) -> CFArray { frame.lines }
public func CTFrameGetPath(_ frame: CTFrame) -> CGPath { frame.path }
public func CTFrameGetStringRange(_ frame: CTFrame) -> CFRange { frame.stringRange }
public func CTFrameGetVisibleStringRange(_ frame: CTFrame) -> CFRange { frame.visibleRange }

/// Copies the origins of the lines in `range` (length 0: to the last line) into `origins`
/// (CTFrameGetLineOrigins): baseline starts relative to the path's bounding box origin.
public func CTFrameGetLineOrigins(_ frame: CTFrame, _ range: CFRange, _ origins: UnsafeMutablePointer<CGPoint>) {
    let lo = max(0, min(frame.origins.count, range.location))
    let hi = range.length <= 0 || range.length > frame.origins.count - lo ? frame.origins.count : lo + range.length
    for (k, i) in (lo..<max(lo, hi)).enumerated() { origins[k] = frame.origins[i] }
}

/// A Core Text range (length 0 = to the end) clamped to `0..<count`.
package func clampRange(_ r: CFRange, _ count: Int) -> Range<Int> {
    let lo = max(0, min(count, r.location))
    let hi = r.length <= 0 || r.length > count - lo ? count : lo + r.length
    return lo..<hi
}

private func isRectangle(_ path: CGPath) -> Bool {
    var points: [CGPoint] = []
    var ok = true
    path.applyWithBlock { e in
        switch e.pointee.type {
        case .moveToPoint, .addLineToPoint: points.append(e.pointee.points[0])
        case .closeSubpath: break
        default: ok = false
        }
    }
    guard ok, points.count == 4 || points.count == 5 else { return false }
    let b = path.boundingBox
    return points.allSatisfy { ($0.x == b.minX || $0.x == b.maxX) && ($0.y == b.minY || $0.y == b.maxY) }
}
