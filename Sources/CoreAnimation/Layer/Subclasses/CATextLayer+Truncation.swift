import CoreText

/// Wrapped text that does not fit (Apple's CATextLayer with `isWrapped` and a `truncationMode`
/// other than none): the lines that fit the bounds are drawn and the last of them is
/// truncated with "…" at its start, end or middle, so the reader sees the text goes on.
extension CATextLayer {
    /// The lines of `attributed` wrapped in `bounds`, with origins in the bounds' space (y up),
    /// the last visible line truncated; nil when not even one line fits (the caller then lays
    /// out as without truncation).
    func wrappedTruncatedLines(_ attributed: AttributedText, in bounds: CGRect,
                               mode: CATextLayerTruncationMode, alignment: CATextLayerAlignmentMode) -> [(line: CTLine, origin: CGPoint)]? {
        let framesetter = CTFramesetterCreate(attributed)
        let frame = CTFramesetterCreateFrame(framesetter, CFRange(), CGPath(rect: bounds, transform: nil), nil)
        let lines = CTFrameGetLines(frame) as! [CTLine]
        guard !lines.isEmpty else { return nil }
        var origins = [CGPoint](repeating: .zero, count: lines.count)
        CTFrameGetLineOrigins(frame, CFRange(), &origins)
        let visible = CTFrameGetVisibleStringRange(frame)
        var out: [(line: CTLine, origin: CGPoint)] = []
        func draw(_ line: CTLine, at p: CGPoint) { out.append((line, CGPoint(x: bounds.minX + p.x, y: bounds.minY + p.y))) }
        let allShown = visible.location + visible.length >= attributed.length
        for (k, line) in lines.enumerated() where !(k == lines.count - 1 && !allShown) { draw(line, at: origins[k]) }
        guard !allShown else { return out }
        // The last line again, from its start to the end of the text, truncated to the width.
        // For end truncation only a prefix can show: a window twice the line's length (plus a
        // margin) keeps the work bounded by what is visible, however long the text.
        let last = lines[lines.count - 1]
        let start = CTLineGetStringRange(last).location
        var length = attributed.length - start
        if mode == .end { length = min(length, 2 * max(1, CTLineGetStringRange(last).length) + 64) }
        let rest = attributed.substring(start..<(start + length))
        let restLine = CTLineCreate(rest)
        let type: CTLineTruncationType = mode == .start ? .start : mode == .middle ? .middle : .end
        let tokenAttrs = rest.length > 0 ? rest.attributes(at: max(0, min(rest.length - 1, CTLineGetStringRange(last).length - 1))) : [:]
        let token = CTLineCreate(AttributedText(string: "\u{2026}", attributes: tokenAttrs))
        let truncated = CTLineCreateTruncatedLine(restLine, Double(bounds.width), type, token) ?? last
        let flush: CGFloat = alignment == .right ? 1 : alignment == .center ? 0.5 : 0
        let x = CTLineGetPenOffsetForFlush(truncated, flush, Double(bounds.width))
        draw(truncated, at: CGPoint(x: x, y: origins[lines.count - 1].y))
        return out
    }
}
