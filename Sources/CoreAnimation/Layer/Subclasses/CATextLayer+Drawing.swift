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
extension CATextLayer {
    func drawText(in ctx: CGContext) {
        let s = text
        guard let value = s.string else { return }
        let bounds = self.bounds.standardized
        guard bounds.width > 0, bounds.height > 0, bounds.width.isFinite, bounds.height.isFinite else { return }
        let font = resolvedFont(s.font, size: s.fontSize)
        let style = paragraphStyle(s)
        let attributed: NSAttributedString
        switch value {
        case let a as NSAttributedString:
            let m = NSMutableAttributedString(attributedString: a)
            let whole = NSRange(location: 0, length: m.length)
            let fontKey = NSAttributedString.Key(kCTFontAttributeName), styleKey = NSAttributedString.Key(kCTParagraphStyleAttributeName)
            m.enumerateAttribute(fontKey, in: whole, options: []) { v, r, _ in if v == nil { m.addAttribute(fontKey, value: font, range: r) } }
            m.enumerateAttribute(styleKey, in: whole, options: []) { v, r, _ in if v == nil { m.addAttribute(styleKey, value: style, range: r) } }
            attributed = m
        case let str as String:
            var attrs: [NSAttributedString.Key: Any] = [NSAttributedString.Key(kCTFontAttributeName): font,
                                                       NSAttributedString.Key(kCTParagraphStyleAttributeName): style]
            if let c = s.foregroundColor { attrs[NSAttributedString.Key(kCTForegroundColorAttributeName)] = c }
            else { attrs[NSAttributedString.Key(kCTForegroundColorFromContextAttributeName)] = true; ctx.setFillColor(CGColor(gray: 0, alpha: 0)) }
            attributed = NSAttributedString(string: str, attributes: attrs)
        default:
            Diagnostics.warnOnce("CATextLayer.string holds \(type(of: value)), not a String or NSAttributedString; nothing is drawn")
            return
        }
        ctx.saveGState()
        defer { ctx.restoreGState() }
        // Core Text lays out with y up. A context whose user space runs y down (the backing
        // store's default, origin at the top left) is flipped about the bounds first.
        if ctx.ctm.d < 0 {
            ctx.translateBy(x: 0, y: bounds.minY + bounds.maxY)
            ctx.scaleBy(x: 1, y: -1)
        }
        let saved = ctx.textMatrix
        ctx.textMatrix = .identity
        if s.isWrapped && s.truncationMode != .none {
            ctx.clip(to: bounds)
            if drawWrappedTruncated(attributed, in: bounds, ctx, mode: s.truncationMode, alignment: s.alignmentMode) {
                ctx.textMatrix = saved
                return
            }
        }
        // The text starts at the top of the bounds and is cut at their bottom edge (a line the
        // bounds only partly hold still shows its top), so the frame reaches below them by a
        // few line heights of the largest font used.
        var largest = font.size
        attributed.enumerateAttribute(NSAttributedString.Key(kCTFontAttributeName), in: NSRange(location: 0, length: attributed.length),
                                      options: []) { v, _, _ in if let f = v as? CTFont { largest = max(largest, CTFontGetSize(f)) } }
        let extra = min(3 * largest, 1e6)
        let area = CGRect(x: bounds.minX, y: bounds.minY - extra, width: bounds.width, height: bounds.height + extra)
        ctx.clip(to: bounds)
        let framesetter = CTFramesetterCreateWithAttributedString(attributed)
        let frame = CTFramesetterCreateFrame(framesetter, CFRange(), CGPath(rect: area, transform: nil), nil)
        CTFrameDraw(frame, ctx)
        ctx.textMatrix = saved
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
