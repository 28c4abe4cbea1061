import CoreGraphics

/// Drawing text into a `CGContext`: each glyph's outline (`CTFontCreatePathForGlyph`) is placed
/// at its run position, taken through the context's text matrix (whose translation is the text
/// position) and filled — Core Graphics fills text as paths, so text drawn here is antialiased
/// exactly as any path is. Colours: the run's `kCTForegroundColorAttributeName`, black when it
/// has none, the context's fill colour under `kCTForegroundColorFromContextAttributeName`.
/// Stroke width (percent of the font size; negative = fill and stroke) and underline styles are
/// drawn too. Colour emoji (bitmap colour fonts) are drawn as images in their own colours
/// (CTDraw+ColorGlyphs.swift).
private func drawRun(_ run: CTRun, _ range: Range<Int>, _ context: CGContext, origin: CGPoint) {
    guard !range.isEmpty else { return }
    let text = context.textMatrix
    let path = CGMutablePath()
    for i in range {
        let p = run.positions[i]
        let place = CGAffineTransform(translationX: origin.x + p.x, y: origin.y + p.y).concatenating(text)
        if let g = run.font.path(for: run.glyphs[i], transform: place) { path.addPath(g) }
    }
    context.saveGState()
    defer { context.restoreGState() }
    let color = run.colorFromContext ? nil : (run.color ?? CGColor(gray: 0, alpha: 1))
    if let color { context.setFillColor(color) }
    var mode = context.textDrawingMode
    let strokeWidth = attributeNumber(run.attributes[kCTStrokeWidthAttributeName]) ?? 0
    if strokeWidth.isFinite, strokeWidth != 0 {
        mode = strokeWidth > 0 ? .stroke : .fillStroke
        context.setLineWidth(abs(strokeWidth) / 100 * run.font.size)
        let sc = run.attributes[kCTStrokeColorAttributeName] as? CGColor ?? run.attributes["NSStrokeColor"] as? CGColor ?? color
        if let sc { context.setStrokeColor(sc) }
    } else if mode == .stroke || mode == .fillStroke || mode == .strokeClip || mode == .fillStrokeClip, let color {
        context.setStrokeColor(color)
    }
    switch mode {
    case .invisible, .clip: break
    case .fill, .fillClip: context.addPath(path); context.fillPath()
    case .stroke, .strokeClip: context.addPath(path); context.strokePath()
    case .fillStroke, .fillStrokeClip: context.addPath(path); context.drawPath(using: .fillStroke)
    }
    // Colour emoji: their bitmaps, in their own colours (CTDraw+ColorGlyphs.swift).
    if run.font.face.isColorBitmap, mode != .invisible, mode != .clip {
        drawColorGlyphs(run, range, context, origin: origin, alpha: CGFloat(context.gstate.fillColor.w))
    }
    // Underline: the font's underline position and thickness under the run's glyphs.
    if let u = attributeNumber(run.attributes[kCTUnderlineStyleAttributeName]), u.isFinite, Int32(clamping: Int(u)) & 0xFF != 0 {
        let style = Int32(clamping: Int(u)) & 0xFF
        let x0 = run.pens[range.lowerBound], x1 = run.pens[range.upperBound - 1] + run.advances[range.upperBound - 1].width
        var thick = max(CTFontGetUnderlineThickness(run.font), run.font.size / 24)
        if style == CTUnderlineStyle.thick.rawValue { thick *= 2 }
        let y = CTFontGetUnderlinePosition(run.font) + run.baselineOffset
        let uc = run.attributes[kCTUnderlineColorAttributeName] as? CGColor ?? run.attributes["NSUnderlineColor"] as? CGColor ?? color
        if let uc { context.setFillColor(uc) }
        var rects = [CGRect(x: x0, y: y - thick / 2, width: x1 - x0, height: thick)]
        if style == CTUnderlineStyle.double.rawValue { rects.append(rects[0].offsetBy(dx: 0, dy: -2 * thick)) }
        for r in rects {
            let band = CGMutablePath()
            band.addRect(r.offsetBy(dx: origin.x, dy: origin.y), transform: text)
            context.addPath(band)
        }
        context.fillPath()
    }
}

/// Draws the glyphs of `range` of a run (length 0: all) at the text position (CTRunDraw).
public func CTRunDraw(_ run: CTRun, _ context: CGContext, _ range: CFRange) {
    drawRun(run, run.glyphRange(range), context, origin: .zero)
}

/// Draws a line with its origin at the context's text position, through the text matrix
/// (CTLineDraw).
public func CTLineDraw(_ line: CTLine, _ context: CGContext) {
    for run in line.runs { drawRun(run, run.glyphs.indices, context, origin: .zero) }
}

/// Draws every line of a frame at its origin (CTFrameDraw), offset by the frame path's
/// bounding box origin: the text position is set to each line's origin in turn, the rest of
/// the text matrix applies to the glyphs; the text matrix is restored afterwards.
public func CTFrameDraw(_ frame: CTFrame, _ context: CGContext) {
    let box = frame.path.boundingBox
    let base = context.textMatrix
    for (line, o) in zip(frame.lines, frame.origins) {
        var m = base
        m.tx = box.minX + o.x; m.ty = box.minY + o.y
        context.textMatrix = m
        for run in line.runs { drawRun(run, run.glyphs.indices, context, origin: .zero) }
    }
    context.textMatrix = base
}
