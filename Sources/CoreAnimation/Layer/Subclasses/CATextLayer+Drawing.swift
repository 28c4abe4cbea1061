import CoreText

/// CATextLayer's drawing (Apple's CATextLayer.h): the string is laid out by Core Text in the
/// layer's bounds and drawn from the top.
/// - A `String` takes `font` (a `CTFont`, a `CGFont`, or a font name; nil is Helvetica; a
///   `CTFont`'s own size is ignored, as Apple documents) at `fontSize`, and `foregroundColor`.
///   An `NSAttributedString` keeps its own attributes ("fontSize … only used when the string
///   property is not an NSAttributedString"); runs without a font get the layer's.
/// - `isWrapped`: lines wrap at the bounds' width (UAX #14); otherwise each paragraph is one
///   line, cut at the bounds (`truncationMode` none) or truncated with "…" at its start, end or
///   middle. With wrapping and a `truncationMode`, the last line that fits is truncated with "…"
///   when text remains (`CATextLayer+Truncation.swift`).
/// - `alignmentMode`: natural (by the paragraph's direction), left, right, center, justified.
/// The text of a layer laid out for drawing: each line with its origin on the baseline, in the
/// layer's bounds space with y up (Core Text's), and the colour runs marked "from context" take
/// (clear for a `String` with no `foregroundColor`; nil: the context's own, black by default). The
/// backing store (`drawText(in:)`) and the renderer's glyph atlas (CARender `GlyphEmitter`) draw
/// the same lines, so both show the same layout.
package struct TextLayerLines {
    package var lines: [(line: CTLine, origin: CGPoint)]
    package var bounds: CGRect
    package var contextColor: CGColor?
    package init(lines: [(line: CTLine, origin: CGPoint)], bounds: CGRect, contextColor: CGColor?) {
        self.lines = lines; self.bounds = bounds; self.contextColor = contextColor
    }
}

extension CATextLayer {
    func drawText(in ctx: CGContext) {
        guard let laid = textLayerLines() else { return }
        let bounds = laid.bounds
        ctx.saveGState()
        defer { ctx.restoreGState() }
        if let c = laid.contextColor { ctx.setFillColor(c) }
        // Core Text lays out with y up. A context whose user space runs y down (the backing
        // store's default, origin at the top left) is flipped about the bounds first.
        if ctx.ctm.d < 0 {
            ctx.translateBy(x: 0, y: bounds.minY + bounds.maxY)
            ctx.scaleBy(x: 1, y: -1)
        }
        ctx.clip(to: bounds)
        let saved = ctx.textMatrix
        defer { ctx.textMatrix = saved }
        for (line, origin) in laid.lines {
            ctx.textMatrix = CGAffineTransform(translationX: origin.x, y: origin.y)
            CTLineDraw(line, ctx)
        }
    }

    /// Lays the layer's string out in its bounds (nil when there is nothing to draw); the same
    /// string, attributes and bounds give the cached layout (`TextLayoutCache`).
    package func textLayerLines() -> TextLayerLines? {
        let s = text
        guard s.string != nil else { return nil }
        let bounds = self.bounds.standardized
        guard bounds.width > 0, bounds.height > 0, bounds.width.isFinite, bounds.height.isFinite else { return nil }
        return layoutCache.lines(s, bounds: bounds) { layOut(s, in: bounds) }
    }

    private func layOut(_ s: TextLayerState, in bounds: CGRect) -> TextLayerLines? {
        guard let value = s.string else { return nil }
        let font = resolvedFont(s.font, size: s.fontSize)
        let style = paragraphStyle(s)
        // Laid out from an `AttributedText` value, never a new NSAttributedString: Foundation on
        // Linux never releases an NSAttributedString's attribute values (swift-corelibs-foundation
        // #5256), and one was made per display (docs/SECURITY.md, docs/TEXT.md).
        var attributed: AttributedText
        var contextColor: CGColor? = nil
        let fontKey = NSAttributedString.Key(kCTFontAttributeName), styleKey = NSAttributedString.Key(kCTParagraphStyleAttributeName)
        switch value {
        case let a as NSAttributedString:
            attributed = AttributedText(a)
            attributed.setIfMissing(fontKey, font)
            attributed.setIfMissing(styleKey, style)
        case let str as String:
            var attrs: [NSAttributedString.Key: Any] = [fontKey: font, styleKey: style]
            if let c = s.foregroundColor { attrs[NSAttributedString.Key(kCTForegroundColorAttributeName)] = c }
            else { attrs[NSAttributedString.Key(kCTForegroundColorFromContextAttributeName)] = true; contextColor = CGColor(gray: 0, alpha: 0) }
            attributed = AttributedText(string: str, attributes: attrs)
        default:
            Diagnostics.warnOnce("CATextLayer.string holds \(type(of: value)), not a String or NSAttributedString; nothing is drawn")
            return nil
        }
        if s.isWrapped && s.truncationMode != .none,
           let lines = wrappedTruncatedLines(attributed, in: bounds, mode: s.truncationMode, alignment: s.alignmentMode) {
            return TextLayerLines(lines: lines, bounds: bounds, contextColor: contextColor)
        }
        // The text starts at the top of the bounds and is cut at their bottom edge (a line the
        // bounds only partly hold still shows its top), so the frame reaches below them by a
        // few line heights of the largest font used.
        var largest = font.size
        for run in attributed.runs { if let f = run.attributes[fontKey] as? CTFont { largest = max(largest, CTFontGetSize(f)) } }
        let extra = min(3 * largest, 1e6)
        let area = CGRect(x: bounds.minX, y: bounds.minY - extra, width: bounds.width, height: bounds.height + extra)
        let framesetter = CTFramesetterCreate(attributed)
        let frame = CTFramesetterCreateFrame(framesetter, CFRange(), CGPath(rect: area, transform: nil), nil)
        let lines = CTFrameGetLines(frame) as! [CTLine]
        var origins = [CGPoint](repeating: .zero, count: lines.count)
        CTFrameGetLineOrigins(frame, CFRange(), &origins)
        return TextLayerLines(lines: zip(lines, origins).map { (line: $0, origin: CGPoint(x: area.minX + $1.x, y: area.minY + $1.y)) },
                              bounds: bounds, contextColor: contextColor)
    }

    private func resolvedFont(_ f: AnyObject?, size: CGFloat) -> CTFont {
        switch f {
        case nil: return CTFontCreateWithName("Helvetica", size, nil)
        case let ct as CTFont: return CTFontCreateCopyWithAttributes(ct, size, nil, nil)
        case let cg as CGFont: return CTFontCreateWithGraphicsFont(cg, size, nil, nil)
        case let name as String: return CTFontCreateWithName(name, size, nil)
        case let name as NSString: return CTFontCreateWithName(name as String, size, nil)
        default:
            Diagnostics.warnOnce("CATextLayer.font holds \(type(of: f!)), not a CTFont, CGFont or font name; Helvetica is used")
            return CTFontCreateWithName("Helvetica", size, nil)
        }
    }

    private func paragraphStyle(_ s: TextLayerState) -> CTParagraphStyle {
        var alignment: CTTextAlignment = switch s.alignmentMode {
        case .left: .left
        case .right: .right
        case .center: .center
        case .justified: .justified
        default: .natural
        }
        var mode: CTLineBreakMode = switch s.truncationMode {
        case _ where s.isWrapped: .byWordWrapping
        case .start: .byTruncatingHead
        case .end: .byTruncatingTail
        case .middle: .byTruncatingMiddle
        default: .byClipping
        }
        return withUnsafeBytes(of: &alignment) { a in
            withUnsafeBytes(of: &mode) { m in
                let settings = [CTParagraphStyleSetting(spec: .alignment, valueSize: 1, value: a.baseAddress!),
                                CTParagraphStyleSetting(spec: .lineBreakMode, valueSize: 1, value: m.baseAddress!)]
                return CTParagraphStyleCreate(settings, settings.count)
            }
        }
    }
}
