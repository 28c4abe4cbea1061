import CoreText
import Foundation

/// `<text>` (SVG 1.1 §10): characters laid out with Core Text (fontconfig, HarfBuzz), their
/// glyph outlines (`CTFontCreatePathForGlyph`) filled and stroked as shapes, so text renders
/// through the shape pipeline and paints (gradients included) like any shape.
///
/// Supported: character data and `<tspan>` / `<a>` inside text in document order;
/// `xml:space` white-space rules (§10.15); `x`, `y`, `dx`, `dy`, `rotate` lists per character,
/// inner elements overriding outer ones (§10.5); text chunks at each absolute position with
/// `text-anchor` (§10.9.1); `font-family` lists (generic families through fontconfig),
/// `font-size`, `font-weight` (100…900), `font-style`; `letter-spacing`, `word-spacing`
/// (§10.11); `text-decoration` underline, overline and line-through painted with the paint
/// of the element that declares it (§10.12); `baseline-shift` (lengths, percentages, sub,
/// super from the font's OS/2 offsets) and `dominant-baseline`/`alignment-baseline` from the
/// font's metrics; `font-kerning`; `<textPath>` (§10.13: each glyph's middle on the path,
/// turned with its tangent, from `startOffset`); `textLength`/`lengthAdjust` on a `<text>` of one
/// chunk (§10.5). Approximated, reported once: vertical `writing-mode` (glyphs turned sideways),
/// `textLength` elsewhere (natural width), textPath `side`/`method`/`spacing`. Decorations on
/// a text path are drawn one piece per glyph, turned with it.
extension SVGBuilder {
    /// One addressable character after white-space handling.
    struct TextChar {
        var scalar: Unicode.Scalar
        /// Index into `TextRun.styles` of the innermost element holding it (its paint and font).
        var styleIndex: Int
        var x: Double? = nil, y: Double? = nil
        var dx = 0.0, dy = 0.0
        var rotate: Double? = nil
        var setX = false, setY = false, setDX = false, setDY = false, setRotate = false
        /// Indices into `TextRun.decorations` that apply to this character.
        var decorations: [Int] = []
        /// How far the glyph's baseline sits below the text position (baseline-shift of its
        /// elements, then its dominant or alignment baseline), in user units.
        var baselineOffset = 0.0
        /// Index into `TextRun.paths` for a character inside `<textPath>`.
        var pathIndex: Int? = nil
        var startsPath = false
        /// A lower-case letter drawn as a synthesised small capital: `scalar` is already its
        /// capital, shaped at `smallCapsScale` of the font size (`font-variant: small-caps`
        /// with a font that has no `smcp` glyphs).
        var smallCap = false
    }

    /// Whether a character stands upright in vertical text: UAX #50's Vertical_Orientation U
    /// and Tu, by block (Hangul, the CJK radicals, symbols and punctuation, kana, Bopomofo,
    /// the enclosed and compatibility CJK blocks, the ideographs, the vertical and
    /// compatibility forms, the full-width forms). Everything else is turned sideways.
    /// Approximated: Tu characters use their horizontal glyphs (no `vert` alternates), and the
    /// few U characters outside these blocks (some symbols) are turned.
    static func uprightInVerticalText(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0x1100...0x11FF, 0x2E80...0x2FFF, 0x3000...0x303F, 0x3040...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
             0xA960...0xA97F, 0xAC00...0xD7FF, 0xF900...0xFAFF, 0xFE10...0xFE1F, 0xFE30...0xFE4F,
             0xFF01...0xFF60, 0xFFE0...0xFFE7, 0x20000...0x3FFFD:
            return true
        default:
            return false
        }
    }

    /// The size of synthesised small capitals relative to the font size: CSS Fonts 4 §6.10
    /// (`font-synthesis-small-caps`) leaves the scale to the user agent; 0.7 is what Chrome and
    /// Firefox use.
    static let smallCapsScale = 0.7

    /// What the walk over a `<text>` element collects.
    final class TextRun {
        var chars: [TextChar] = []
        var styles: [SVGComputedStyle] = []
        var fonts: [CTFont] = []
        /// (kind, index of the declaring element's style).
        var decorations: [(kind: String, style: Int)] = []
        var paths: [SVGTextPath] = []
        var lastWasSpace = true
        /// The `<text>` element's `textLength` and whether `lengthAdjust` is spacingAndGlyphs.
        var textLength: (length: Double, glyphs: Bool)? = nil
    }

    /// Whether a style's `writing-mode` runs top to bottom.
    func vertical(_ style: SVGComputedStyle) -> Bool {
        ["tb", "tb-rl", "tb-lr", "vertical-rl", "vertical-lr"].contains(style.writingMode)
    }

    func text(_ e: SVGElement, style: SVGComputedStyle) -> (layer: CALayer, extent: CGRect, bbox: CGRect)? {
        let run = TextRun()
        run.styles.append(style)
        run.fonts.append(font(for: style))
        var decos: [Int] = []
        // text-decoration is not inherited but propagates to the text inside the element that
        // declares it (CSS Text Decoration 3 §2.1): a `<g text-decoration="underline">` around
        // the text underlines it. Such lines take the text element's paint (there is no text at
        // the group to take it from), as the browsers draw them (the suite's
        // text-decoration/all-types-nested).
        var kinds = style.textDecoration
        var ancestor = e.parent
        var depth = 0
        while let x = ancestor, depth < limits.maxDepth {
            kinds.formUnion(styleFromRoot(x).textDecoration)
            ancestor = x.parent
            depth += 1
        }
        for k in kinds.sorted() { run.decorations.append((k, 0)); decos.append(run.decorations.count - 1) }
        collectText(e, styleIndex: 0, decorations: decos, shift: 0, path: nil, preserve: e.attributes["xml:space"] == "preserve", into: run)
        // Trailing white space is removed (xml:space default, §10.15).
        if e.attributes["xml:space"] != "preserve" {
            while let last = run.chars.last, last.scalar == " " { run.chars.removeLast() }
        }
        guard !run.chars.isEmpty else { return nil }
        if vertical(style) {
            log.add(.approximated, "writing-mode=\(style.writingMode)",
                    "vertical text: CJK characters upright, others turned sideways (no vert alternates or vertical metrics), decorations and dx are not applied")
        } else if !["lr-tb", "lr", "horizontal-tb", "rl-tb", "rl"].contains(style.writingMode) {
            log.add(.invalidValue, "writing-mode=\(style.writingMode)", "unknown; horizontal used")
        }
        // textLength on <text> (SVG 1.1 §10.5): the one chunk is stretched or squeezed to it.
        if let raw = e.attributes["textLength"] {
            let l = SVGLength.parse(raw).map { $0.resolve(vertical(style) ? .y : .x, viewport: viewport, fontSize: style.fontSize) }
            if let l, l.isFinite, l >= 0 {
                let adjust = e.attributes["lengthAdjust"] ?? "spacing"
                if adjust != "spacing" && adjust != "spacingAndGlyphs" {
                    log.add(.invalidValue, "lengthAdjust=\"\(adjust.prefix(40))\"", "not spacing or spacingAndGlyphs; spacing used")
                }
                run.textLength = (min(l, Double(limits.maxCoordinate)), adjust == "spacingAndGlyphs")
            } else {
                log.add(.invalidValue, "textLength=\"\(raw.prefix(40))\"", "not a non-negative length; ignored")
            }
        }
        return layoutText(run)
    }

    /// The font for a style: the first family in `font-family` that fontconfig has (generic
    /// names through its aliases), at the weight and slant asked for; else the generic
    /// `sans-serif` (the user agent's default font, CSS Fonts 3 §5.2, as the browsers' and the
    /// suite's references draw an unknown family); else fontconfig's best match for the first
    /// family.
    func font(for style: SVGComputedStyle) -> CTFont {
        let families = style.fontFamily.split(separator: ",").map {
            $0.trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\"'"))
        }.filter { !$0.isEmpty }
        let generic: Set<String> = ["serif", "sans-serif", "monospace", "cursive", "fantasy", "system-ui"]
        let size = CGFloat(style.fontSize.isFinite && style.fontSize > 0 ? style.fontSize : SVGComputedStyle.initialFontSize)
        var first: FontFace?
        for family in families {
            guard let face = FontRegistry.shared.match(family: family, weight: style.fontWeight, italic: style.fontItalic,
                                                       width: style.fontStretch) else { continue }
            if first == nil { first = face }
            if generic.contains(family.lowercased()) || face.familyName.lowercased() == family.lowercased() {
                return CTFont(face: face, size: size)
            }
        }
        if let fallback = FontRegistry.shared.match(family: "sans-serif", weight: style.fontWeight, italic: style.fontItalic,
                                                    width: style.fontStretch) ?? first {
            log.add(.approximated, "font-family=\(style.fontFamily.prefix(80))", "no such font; \(fallback.familyName) used")
            return CTFont(face: fallback, size: size)
        }
        return CTFontCreateWithName("Times New Roman" as CFString, size, nil)
    }

    /// Appends the characters of `e`'s children (white space handled), then applies `e`'s
    /// position lists to the characters that no inner element positioned.
    private func collectText(_ e: SVGElement, styleIndex: Int, decorations: [Int], shift: Double, path: Int?,
                             preserve: Bool, into run: TextRun) {
        let start = run.chars.count
        let offset = shift + baselineOffset(run.styles[styleIndex], run.fonts[styleIndex])
        // font-variant: small-caps (CSS Fonts 4 §6.10): the font's smcp glyphs where it has the
        // feature (applied when shaping); else lower-case letters become capitals at 70 %.
        let synthesiseSmallCaps = run.styles[styleIndex].smallCaps && !run.fonts[styleIndex].face.hasSubstitutionFeature("smcp")
        for child in e.children {
            switch child.name {
            case SVGElement.textNodeName:
                for var s in child.text.unicodeScalars {
                    if s == "\n" || s == "\r" { if preserve { s = " " } else { continue } }
                    if s == "\t" { s = " " }
                    if !preserve && s == " " {
                        if run.lastWasSpace { continue }
                        run.lastWasSpace = true
                    } else {
                        run.lastWasSpace = false
                    }
                    var smallCap = false
                    // Only letters whose capital is one character (ß stays as it is), so the
                    // per-character position lists keep their meaning.
                    if synthesiseSmallCaps, s.properties.changesWhenUppercased,
                       let upper = s.properties.uppercaseMapping.unicodeScalars.first,
                       s.properties.uppercaseMapping.unicodeScalars.count == 1 {
                        s = upper
                        smallCap = true
                    }
                    run.chars.append(TextChar(scalar: s, styleIndex: styleIndex, decorations: decorations, baselineOffset: offset,
                                              pathIndex: path, smallCap: smallCap))
                }
            case "tspan", "a", "textPath":
                var pathIndex = path
                if child.name == "textPath" {
                    guard path == nil, let tp = textPath(child) else { continue }
                    run.paths.append(tp)
                    pathIndex = run.paths.count - 1
                }
                let st = computeStyle(child, parent: run.styles[styleIndex])
                guard st.display else { continue }
                if child.attributes["textLength"] != nil {
                    log.add(.approximated, "textLength", "on <\(child.name)> it is not applied; the natural width is used")
                }
                let first = run.chars.count
                run.styles.append(st)
                run.fonts.append(font(for: st))
                let idx = run.styles.count - 1
                var decos = decorations
                for k in st.textDecoration.sorted() { run.decorations.append((k, idx)); decos.append(run.decorations.count - 1) }
                collectText(child, styleIndex: idx, decorations: decos, shift: shift + baselineShift(st, run.fonts[idx]),
                            path: pathIndex, preserve: child.attributes["xml:space"].map { $0 == "preserve" } ?? preserve, into: run)
                if child.name == "textPath", first < run.chars.count { run.chars[first].startsPath = true }
            default:
                continue
            }
        }
        let end = run.chars.count
        // `<textPath>` has no position attributes (SVG 1.1 §10.13.1): x, y, dx, dy, rotate on it
        // are not read.
        guard end > start, e.name != "textPath" else { return }
        let style = run.styles[styleIndex]
        func list(_ name: String, _ axis: SVGLength.Axis) -> [Double] {
            guard let raw = e.attributes[name] else { return [] }
            var out: [Double] = []
            for part in raw.split(whereSeparator: { $0 == "," || $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }) {
                guard let l = SVGLength.parse(String(part)) else {
                    log.add(.invalidValue, "\(name)=\"\(raw.prefix(60))\"", "not a list of lengths; ignored")
                    return []
                }
                let v = l.resolve(axis, viewport: viewport, fontSize: style.fontSize)
                out.append(v.isFinite ? v : 0)
                if out.count >= end - start { break }
            }
            return out
        }
        for (i, v) in list("x", .x).enumerated() where !run.chars[start + i].setX { run.chars[start + i].x = v; run.chars[start + i].setX = true }
        for (i, v) in list("y", .y).enumerated() where !run.chars[start + i].setY { run.chars[start + i].y = v; run.chars[start + i].setY = true }
        for (i, v) in list("dx", .x).enumerated() where !run.chars[start + i].setDX { run.chars[start + i].dx = v; run.chars[start + i].setDX = true }
        for (i, v) in list("dy", .y).enumerated() where !run.chars[start + i].setDY { run.chars[start + i].dy = v; run.chars[start + i].setDY = true }
        let rotations = list("rotate", .other)
        if let last = rotations.last {
            for i in start..<end where !run.chars[i].setRotate {
                let k = i - start
                run.chars[i].rotate = k < rotations.count ? rotations[k] : last
                run.chars[i].setRotate = true
            }
        }
    }

    /// The path a `<textPath>` follows (its `href`: a path or basic shape, with that
    /// element's own transform) and its `startOffset`; nil (reported) when there is none.
    func textPath(_ e: SVGElement) -> SVGTextPath? {
        guard let ref = e.attributes["href"], ref.hasPrefix("#"), let target = ids[String(ref.dropFirst())] else {
            log.add(.brokenReference, "<textPath href>", "no path with that id; its text is not drawn")
            return nil
        }
        let ctx = SVGShapeGeometry.Context(viewport: viewport, fontSize: SVGComputedStyle.initialFontSize, log: log, limits: limits)
        guard Self.shapes.contains(target.name), var path = SVGShapeGeometry.path(for: target, ctx) else {
            log.add(.brokenReference, "<textPath href>", "<\(target.name)> is not a path or shape; its text is not drawn")
            return nil
        }
        if let t = target.attributes["transform"], let m = SVGTransformParser.parse(t) {
            path = path.copy(using: [m]) ?? path
        }
        var tp = SVGTextPath(path)
        if let raw = e.attributes["startOffset"], let l = SVGLength.parse(raw) {
            let v = l.unit == .percent ? tp.length * l.value / 100 : l.resolve(.other, viewport: viewport)
            tp.startOffset = v.isFinite ? v : 0
        }
        for attr in ["side", "method", "spacing", "path"] where e.attributes[attr] != nil {
            log.add(.approximated, "<textPath \(attr)>", "not applied; glyphs follow the referenced path's start side")
        }
        return tp
    }

    /// `baseline-shift` of one element, downwards in user units (SVG 1.1 §10.9.2): a length or
    /// a percentage of the font size raises the text; `sub` and `super` use the font's OS/2
    /// subscript and superscript offsets.
    func baselineShift(_ style: SVGComputedStyle, _ font: CTFont) -> Double {
        let v = style.baselineShift
        let scale = Double(font.size) / Double(font.face.unitsPerEm)
        switch v {
        case "baseline", "0", "inherit": return 0
        case "sub": return font.face.subscriptYOffset * scale
        case "super": return -font.face.superscriptYOffset * scale
        default:
            guard let l = SVGLength.parse(v) else {
                log.add(.invalidValue, "baseline-shift=\(v.prefix(40))", "value does not parse; ignored")
                return 0
            }
            let d = l.unit == .percent ? style.fontSize * l.value / 100 : l.resolve(.other, viewport: viewport, fontSize: style.fontSize)
            return d.isFinite ? -d : 0
        }
    }

    /// Where the alphabetic baseline sits below the text position for the element's
    /// `alignment-baseline` (or, when auto, its `dominant-baseline`), from the font's metrics
    /// (SVG 1.1 §10.9.2; CSS Inline 3 for the SVG 2 names).
    func baselineOffset(_ style: SVGComputedStyle, _ font: CTFont) -> Double {
        var name = style.alignmentBaseline
        if ["auto", "baseline", "inherit"].contains(name) { name = style.dominantBaseline }
        let ascent = Double(font.ascent), descent = Double(font.descent)
        switch name {
        case "auto", "alphabetic", "baseline", "inherit", "use-script", "no-change", "reset-size": return 0
        case "middle": return Double(CTFontGetXHeight(font)) / 2
        case "central": return (ascent - descent) / 2
        case "hanging": return 0.8 * ascent
        case "mathematical": return 0.5 * ascent
        case "text-before-edge", "before-edge", "text-top": return ascent
        case "text-after-edge", "after-edge", "text-bottom", "ideographic": return -descent
        default:
            log.add(.invalidValue, "baseline \(name.prefix(40))", "unknown baseline; alphabetic used")
            return 0
        }
    }

    /// Where a decoration line of `kind` lies for `font` with its baseline at `baseline` (y
    /// down): its top and thickness (CSS Text Decoration 3 §2.4 from the font's post and OS/2
    /// tables).
    func decorationLine(_ kind: String, font: CTFont, baseline y0: Double) -> (top: Double, thickness: Double) {
        let scale = Double(font.size) / Double(font.face.unitsPerEm)
        var thickness = Double(CTFontGetUnderlineThickness(font))
        if !(thickness > 0) { thickness = Double(font.size) / 14 }
        switch kind {
        // FreeType's underline position is the stroke's centre, the post table's minus half the
        // thickness; the line is centred on the post table's.
        case "underline": return (y0 - (Double(CTFontGetUnderlinePosition(font)) + thickness / 2) - thickness / 2, thickness)
        case "overline": return (y0 - Double(CTFontGetAscent(font)) - thickness / 2, thickness)
        default:
            let size = font.face.strikeoutSize > 0 ? font.face.strikeoutSize * scale : thickness
            let pos = font.face.strikeoutPosition > 0 ? font.face.strikeoutPosition * scale : Double(CTFontGetXHeight(font)) / 2
            return (y0 - pos - size / 2, size)
        }
    }

    /// Lays the characters out chunk by chunk and paints glyph outlines and decorations.
    private func layoutText(_ run: TextRun) -> (layer: CALayer, extent: CGRect, bbox: CGRect)? {
        var chunkStarts = [0]
        for i in 1..<run.chars.count where run.chars[i].x != nil || run.chars[i].y != nil || run.chars[i].startsPath
            || run.chars[i].pathIndex != run.chars[i - 1].pathIndex { chunkStarts.append(i) }
        chunkStarts.append(run.chars.count)

        // Paths by painting style, in painting order.
        var pieces: [(path: CGMutablePath, style: Int, decoration: Bool, late: Bool)] = []
        func pathFor(style: Int, decoration: Bool = false, late: Bool = false) -> CGMutablePath {
            if let last = pieces.last, last.style == style, last.decoration == decoration, last.late == late { return last.path }
            let p = CGMutablePath()
            pieces.append((p, style, decoration, late))
            return p
        }
        var early: [(CGPath, Int)] = [], late: [(CGPath, Int)] = []
        var glyphPieces: [(path: CGMutablePath, style: Int)] = []
        var cx = 0.0, cy = 0.0
        let mode = run.styles[0].writingMode
        let vertical = self.vertical(run.styles[0])
        for (a, b) in zip(chunkStarts, chunkStarts.dropFirst()) where a < b {
            let chars = run.chars[a..<b]
            let onPath = chars.first!.pathIndex.map { run.paths[$0] }
            if let x = chars.first!.x { cx = x }
            if let y = chars.first!.y { cy = y }
            // On a path: positions are distances along it, from startOffset.
            let origin = onPath.map { (x: $0.startOffset + (chars.first!.x ?? 0), y: 0.0) } ?? (x: cx, y: cy)
            // The chunk as one attributed text (shaped with context), fonts per character. Core
            // Text's own value type, not an NSAttributedString: swift-corelibs-foundation's keeps
            // every attribute value for ever (docs/SECURITY.md), a leak per text element.
            var text = AttributedText(units: [])
            var charOfUnit: [Int] = []
            // What a character is shaped with: its font (a synthesised small capital's at 70 %),
            // kerning, and whether the font's smcp feature is on.
            func shaping(_ k: Int) -> (font: CTFont, kern: Bool, smcp: Bool) {
                let c = run.chars[k], st = run.styles[c.styleIndex], f = run.fonts[c.styleIndex]
                return (c.smallCap ? f.withSize(f.size * CGFloat(Self.smallCapsScale)) : f, st.fontKerning, st.smallCaps && !c.smallCap)
            }
            // The chunk is one bidi paragraph whose base direction is the text's `direction`
            // (SVG 1.1 §10.7.4; left to right by default), not the first strong character's:
            // Arabic text with a Latin word and a full stop keeps the stop at the right end.
            let rightToLeft = run.styles[run.chars[a].styleIndex].rightToLeft
            let paragraph = CTParagraphStyle()
            paragraph.baseWritingDirection = rightToLeft ? .rightToLeft : .leftToRight
            var i = a
            while i < b {
                var j = i
                var s = ""
                let key = shaping(i)
                while j < b, j == i || shaping(j) == key {
                    s.unicodeScalars.append(run.chars[j].scalar)
                    for _ in 0..<String(run.chars[j].scalar).utf16.count { charOfUnit.append(j) }
                    j += 1
                }
                var attrs: [NSAttributedString.Key: Any] = [NSAttributedString.Key(kCTFontAttributeName): key.font]
                // font-kerning: none turns the font's kerning off (Core Text's kern 0).
                if !key.kern { attrs[NSAttributedString.Key(kCTKernAttributeName)] = NSNumber(value: 0) }
                // Small caps from the font's own glyphs (a font without them: synthesised above;
                // smcp only maps lower-case letters, so capitals and the rest keep their glyphs).
                if key.smcp { attrs[NSAttributedString.Key(caOpenTypeFeaturesAttributeName)] = ["smcp"] }
                attrs[NSAttributedString.Key(kCTParagraphStyleAttributeName)] = paragraph
                text.append(AttributedText(string: s, attributes: attrs))
                i = j
            }
            let line = CTLineCreate(text)
            // Spacing and dx shift each character and everything after it; dy likewise.
            var shiftX = [Double](repeating: 0, count: b - a), shiftY = [Double](repeating: 0, count: b - a)
            var accX = 0.0, accY = 0.0
            for k in a..<b {
                let c = run.chars[k]
                accX += c.dx; accY += c.dy
                shiftX[k - a] = accX; shiftY[k - a] = accY
                let st = run.styles[c.styleIndex]
                let ls = st.letterSpacing.resolve(.x, viewport: viewport, fontSize: st.fontSize)
                let ws = c.scalar == " " ? st.wordSpacing.resolve(.x, viewport: viewport, fontSize: st.fontSize) : 0
                accX += (ls.isFinite ? ls : 0) + (ws.isFinite ? ws : 0)
            }
            var width = CTLineGetTypographicBounds(line, nil, nil, nil) + accX
            // textLength (SVG 1.1 §10.5) on a text of one chunk off a path: `spacing` spreads the
            // difference evenly over the gaps between characters in visual order (nothing for
            // one character); `spacingAndGlyphs` scales advances and glyphs along the line.
            var glyphScale = 1.0
            var visualGap = [Double](repeating: 0, count: b - a)
            if let tl = run.textLength {
                if chunkStarts.count != 2 || onPath != nil {
                    log.add(.approximated, "textLength", "only a text of one chunk off a path is stretched; others keep their natural width")
                } else if tl.glyphs {
                    if width > 0 { glyphScale = tl.length / width; width = tl.length }
                } else {
                    // Characters with glyphs, ordered by where their first glyph sits.
                    var firstX = [Double?](repeating: nil, count: b - a)
                    for r in CTLineGetGlyphRuns(line) as! [CTRun] {
                        let n = CTRunGetGlyphCount(r)
                        guard n > 0 else { continue }
                        var positions = [CGPoint](repeating: .zero, count: n), indices = [CFIndex](repeating: 0, count: n)
                        CTRunGetPositions(r, CFRange(location: 0, length: 0), &positions)
                        CTRunGetStringIndices(r, CFRange(location: 0, length: 0), &indices)
                        for g in 0..<n {
                            let k = charOfUnit[max(0, min(charOfUnit.count - 1, indices[g]))] - a
                            let x = Double(positions[g].x) + shiftX[k]
                            firstX[k] = min(firstX[k] ?? x, x)
                        }
                    }
                    let order = firstX.indices.filter { firstX[$0] != nil }.sorted { firstX[$0]! < firstX[$1]! }
                    if order.count > 1 {
                        let extra = (tl.length - width) / Double(order.count - 1)
                        for (rank, k) in order.enumerated() { visualGap[k] = extra * Double(rank) }
                        width = tl.length
                    }
                }
            }
            // text-anchor start and end name the chunk's start and end in its direction
            // (SVG 1.1 §10.9.1): for right-to-left text the start is the right edge.
            var anchor = run.styles[run.chars[a].styleIndex].textAnchor
            if rightToLeft { anchor = anchor == "start" ? "end" : anchor == "end" ? "start" : anchor }
            let shift = anchor == "middle" ? -width / 2 : anchor == "end" ? -width : 0
            var pathEnd: CGPoint?
            // Glyphs; each character's pen start and advance for decorations.
            var charX = [Double?](repeating: nil, count: b - a), charEnd = [Double](repeating: 0, count: b - a)
            for r in CTLineGetGlyphRuns(line) as! [CTRun] {
                let n = CTRunGetGlyphCount(r)
                guard n > 0 else { continue }
                var glyphs = [CGGlyph](repeating: 0, count: n)
                var positions = [CGPoint](repeating: .zero, count: n)
                var advances = [CGSize](repeating: .zero, count: n)
                var indices = [CFIndex](repeating: 0, count: n)
                let all = CFRange(location: 0, length: 0)
                CTRunGetGlyphs(r, all, &glyphs); CTRunGetPositions(r, all, &positions)
                CTRunGetAdvances(r, all, &advances); CTRunGetStringIndices(r, all, &indices)
                let font = r.font
                for g in 0..<n {
                    let u = max(0, min(charOfUnit.count - 1, indices[g]))
                    let k = charOfUnit[u]
                    let c = run.chars[k]
                    let px = origin.x + shift + (Double(positions[g].x) + shiftX[k - a]) * glyphScale + visualGap[k - a]
                    let py = origin.y + shiftY[k - a] + c.baselineOffset
                    var m = CGAffineTransform(scaleX: glyphScale, y: -1)
                    if let rot = c.rotate, rot != 0 { m = m.concatenating(CGAffineTransform(rotationAngle: rot * .pi / 180)) }
                    if let path = onPath {
                        // The glyph's middle on the path, turned with its tangent (SVG 1.1 §10.13.2).
                        let w = Double(advances[g].width)
                        guard let (pt, angle) = path.point(at: px + w / 2) else { continue }
                        let place = CGAffineTransform(translationX: -w / 2, y: py)
                            .concatenating(CGAffineTransform(rotationAngle: angle))
                            .concatenating(CGAffineTransform(translationX: pt.x, y: pt.y))
                        m = m.concatenating(place)
                        pathEnd = pt
                        // Decorations along a path: one piece per glyph under its advance,
                        // turned with the glyph (as the suite's references draw them).
                        for di in c.decorations where w > 0 {
                            let band = decorationLine(run.decorations[di].kind, font: run.fonts[c.styleIndex], baseline: 0)
                            let p = CGMutablePath()
                            p.addRect(CGRect(x: 0, y: band.top, width: w, height: band.thickness), transform: place)
                            if run.decorations[di].kind == "line-through" { late.append((p, run.decorations[di].style)) }
                            else { early.append((p, run.decorations[di].style)) }
                        }
                    } else if vertical && Self.uprightInVerticalText(c.scalar) {
                        // Full-width and ideographic characters stand upright (SVG 1.1 §10.7.3,
                        // glyph-orientation-vertical auto): the glyph's vertical origin (VORG, or
                        // its top plus the vmtx top side bearing: the top of its em box, centred
                        // across) sits at its place on the line. Their horizontal advance (one em
                        // in CJK fonts, as their vertical one) is the step down the line.
                        let vo = font.face.verticalOrigin(glyphs[g])
                        let unit = Double(font.size) / Double(font.face.unitsPerEm)
                        var up = CGAffineTransform(scaleX: 1, y: -glyphScale)
                        if let rot = c.rotate, rot != 0 { up = up.concatenating(CGAffineTransform(rotationAngle: rot * .pi / 180)) }
                        m = up.concatenating(CGAffineTransform(translationX: origin.x - vo.x * unit,
                                                               y: origin.y + (px - origin.x) + shiftY[k - a] + vo.y * unit * glyphScale))
                    } else if vertical {
                        // Top to bottom: the line runs down from the text position, each glyph
                        // turned 90° clockwise. Across the line, CSS's vertical-rl/-lr centre the
                        // glyphs' ascent–descent box on x ("central"); SVG 1.1's tb puts the
                        // middle of the lower-case letters there (as the suite's references do).
                        let across = mode.hasPrefix("vertical") ? (Double(font.ascent) - Double(font.descent)) / 2
                            : Double(CTFontGetXHeight(font)) / 2
                        m = m.concatenating(CGAffineTransform(rotationAngle: .pi / 2))
                            .concatenating(CGAffineTransform(translationX: origin.x - across, y: origin.y + (px - origin.x) + shiftY[k - a]))
                    } else {
                        if charX[k - a] == nil { charX[k - a] = px }
                        charEnd[k - a] = max(charEnd[k - a], px + Double(advances[g].width) * glyphScale)
                        m = m.concatenating(CGAffineTransform(translationX: px, y: py))
                    }
                    if font.face.isColorBitmap {
                        // A colour emoji is a bitmap, not an outline (docs/TEXT.md "Colour emoji").
                        log.add(.unsupportedFeature, "colour emoji in <text>", "bitmap glyphs of \(font.face.familyName) are not drawn")
                        continue
                    }
                    guard let gp = CTFontCreatePathForGlyph(font, glyphs[g], &m), !gp.isEmpty else { continue }
                    if let last = glyphPieces.last, last.style == c.styleIndex { last.path.addPath(gp) }
                    else { let p = CGMutablePath(); p.addPath(gp); glyphPieces.append((p, c.styleIndex)) }
                }
            }
            // Decorations: one rectangle per run of consecutive characters sharing one.
            for (di, deco) in run.decorations.enumerated() {
                var k = a
                while k < b {
                    guard run.chars[k].decorations.contains(di), let x0 = charX[k - a] else { k += 1; continue }
                    var x1 = charEnd[k - a]
                    let font = run.fonts[run.chars[k].styleIndex]
                    let y0 = cy + shiftY[k - a] + run.chars[k].baselineOffset
                    // A run ends where the baseline moves (baseline-shift, alignment-baseline):
                    // the line follows the characters' baseline, as the suite's references do.
                    var m = k + 1
                    while m < b, run.chars[m].decorations.contains(di),
                          run.chars[m].baselineOffset == run.chars[k].baselineOffset, shiftY[m - a] == shiftY[k - a] {
                        if charX[m - a] != nil { x1 = max(x1, charEnd[m - a]) }
                        m += 1
                    }
                    let band = decorationLine(deco.kind, font: font, baseline: y0)
                    let rect = CGRect(x: x0, y: band.top, width: max(0, x1 - x0), height: band.thickness)
                    let p = CGMutablePath()
                    p.addRect(rect)
                    if deco.kind == "line-through" { late.append((p, deco.style)) } else { early.append((p, deco.style)) }
                    k = m
                }
            }
            if onPath != nil {
                // After text on a path, the position continues from its last glyph.
                if let p = pathEnd { cx = p.x; cy = p.y }
            } else if vertical {
                cy += shift + width + accY
            } else {
                cx += shift + width
                cy += accY
            }
        }
        for (p, st) in early { pathFor(style: st, decoration: true).addPath(p) }
        for g in glyphPieces { pathFor(style: g.style).addPath(g.path) }
        for (p, st) in late { pathFor(style: st, decoration: true, late: true).addPath(p) }

        let layer = CALayer()
        var extent = CGRect.null, bbox = CGRect.null
        for piece in pieces where !piece.path.isEmpty {
            guard let p = paintOrdered(piece.path, style: run.styles[piece.style], hasInterior: true, markers: nil) else { continue }
            layer.addSublayer(p.layer)
            extent = extent.union(p.extent)
            bbox = bbox.union(p.bbox)
        }
        guard !extent.isNull else { return nil }
        return (layer, extent, bbox)
    }
}
