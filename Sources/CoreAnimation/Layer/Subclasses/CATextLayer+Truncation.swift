import CoreText

/// Wrapped text that does not fit (Apple's CATextLayer with `isWrapped` and a `truncationMode`
/// other than none): the lines that fit the bounds are drawn and the last of them is
/// truncated with "…" at its start, end or middle, so the reader sees the text goes on.
extension CATextLayer {
    /// Draws `attributed` wrapped in `bounds` with its last visible line truncated; false when
    /// not even one line fits (the caller then draws as without truncation).
    func drawWrappedTruncated(_ attributed: NSAttributedString, in bounds: CGRect, _ ctx: CGContext,
                              mode: CATextLayerTruncationMode, alignment: CATextLayerAlignmentMode) -> Bool {
        let framesetter = CTFramesetterCreateWithAttributedString(attributed)
        let frame = CTFramesetterCreateFrame(framesetter, CFRange(), CGPath(rect: bounds, transform: nil), nil)
        let lines = CTFrameGetLines(frame) as! [CTLine]
        guard !lines.isEmpty else { return false }
        var origins = [CGPoint](repeating: .zero, count: lines.count)
        CTFrameGetLineOrigins(frame, CFRange(), &origins)
        let visible = CTFrameGetVisibleStringRange(frame)
        let base = ctx.textMatrix
        defer { ctx.textMatrix = base }
        func draw(_ line: CTLine, at p: CGPoint) {
            var m = base
            m.tx = bounds.minX + p.x; m.ty = bounds.minY + p.y
            ctx.textMatrix = m
            CTLineDraw(line, ctx)
        }
        let allShown = visible.location + visible.length >= attributed.length
        for (k, line) in lines.enumerated() where !(k == lines.count - 1 && !allShown) { draw(line, at: origins[k]) }
        guard !allShown else { return true }
        // The last line again, from its start to the end of the text, truncated to the width.
        // For end truncation only a prefix can show: a window twice the line's length (plus a
        // margin) keeps the work bounded by what is visible, however long the text.
        let last = lines[lines.count - 1]
        let start = CTLineGetStringRange(last).location
        var length = attributed.length - start
        if mode == .end { length = min(length, 2 * max(1, CTLineGetStringRange(last).length) + 64) }
        let rest = attributed.attributedSubstring(from: NSRange(location: start, length: length))
        let restLine = CTLineCreateWithAttributedString(rest)
        let type: CTLineTruncationType = mode == .start ? .start : mode == .middle ? .middle : .end
        let tokenAttrs = rest.length > 0 ? rest.attributes(at: max(0, min(rest.length - 1, CTLineGetStringRange(last).length - 1)), effectiveRange: nil) : [:]
        let token = CTLineCreateWithAttributedString(NSAttributedString(string: "\u{2026}", attributes: tokenAttrs))
        let truncated = CTLineCreateTruncatedLine(restLine, Double(bounds.width), type, token) ?? last
        let flush: CGFloat = alignment == .right ? 1 : alignment == .center ? 0.5 : 0
        let x = CTLineGetPenOffsetForFlush(truncated, flush, Double(bounds.width))
        draw(truncated, at: CGPoint(x: x, y: origins[lines.count - 1].y))
        return true
    }
}
