import Foundation
import CoreGraphics
import CoreText

/// Text layers (`ty` 5) as lottie-ios's Core Animation engine draws them: each text document
/// (`t.d.k`) becomes layers of its own, shown from its keyframe until the next (a discrete
/// `hidden` animation when there are several). The text's origin is the first line's baseline
/// at the layer's (0, 0), lines `lh` apart, justified about x = 0 (left, right, centred); a
/// document with a box (`ps`, `sz`) wraps in that box instead.
///
/// - When the animation carries glyph outlines (`chars`) for every character in the document's
///   font, the text is drawn from them: one `CAShapeLayer` per document, filled with `fc` and
///   stroked with `sc`/`sw` (under the fill unless `of`), as bodymovin's exported glyphs.
/// - Otherwise through Core Text: the font is looked up by its name in `fonts.list` (`fName`,
///   then family and style) through fontconfig, one `CATextLayer` per line with tracking as
///   kerning and the stroke as Core Text's stroke attribute.
///
/// Text animators (`t.a`), text on a path (`t.p`) and small caps are reported, not reproduced.
struct LottieTextBuilder {
    let model: LottieAnimationModel
    let factory: LottieAnimationFactory
    let log: LottieIssueLog
    let time: LottieLayerTime
    /// The layer's name (`nm`); text value providers by key path are not built yet.
    var name: String

    /// At most this many documents of one layer get layers of their own; later ones are
    /// reported (each is a set of layers, and a file may hold any number of keyframes).
    static let maxDocuments = 200
    /// Characters laid out per document (bad input: a megabyte string in one document).
    static let maxCharacters = 10_000

    func build(_ layer: LottieLayerModel) -> CALayer? {
        guard let text = layer.text, !text.documents.isEmpty else {
            log.add(.invalidValue, "text layer without a text document", "skipped")
            return nil
        }
        if text.animatorCount > 0 { log.add(.unsupported, "text animators (t.a)", "the text is drawn without its animators' changes") }
        if text.hasPath { log.add(.unsupported, "text on a path (t.p)", "the text is drawn on straight lines") }
        let holder = CALayer()
        holder.anchorPoint = .zero; holder.bounds = .zero; holder.position = .zero
        var docs = text.documents
        if docs.count > Self.maxDocuments {
            log.add(.limitReached, "text document keyframes", "more than \(Self.maxDocuments): the later ones are not shown")
            docs = Array(docs.prefix(Self.maxDocuments))
        }
        for (i, entry) in docs.enumerated() {
            let l = layers(for: entry.document)
            if docs.count > 1 {
                let from = i == 0 ? -Double.infinity : entry.frame
                let to = i + 1 < docs.count ? docs[i + 1].frame : Double.infinity
                l.isHidden = !(from <= 0 && 0 < to)
                let keys = [entry.frame - 1, entry.frame, to].filter { $0.isFinite && (i > 0 || $0 >= entry.frame) }.map { LottieKeyInfo(time: $0, hold: true, out: nil, inn: nil, spatial: false) }
                factory.add(to: l, keyPath: "hidden", track: .keys(keys), time: time, discrete: true) { f in !(from <= f && f < to) }
            }
            holder.addSublayer(l)
        }
        return holder
    }

    // MARK: One document

    private func layers(for doc: LottieTextDocument) -> CALayer {
        var d = doc
        if d.text.count > Self.maxCharacters {
            log.add(.limitReached, "text longer than \(Self.maxCharacters) characters", "cut there")
            d.text = String(d.text.prefix(Self.maxCharacters))
        }
        if d.caps == 1 { d.text = d.text.uppercased() }
        if d.caps == 2 { log.add(.approximated, "small caps (ca 2)", "drawn as typed") }
        if d.baselineShift != 0 { log.add(.approximated, "baseline shift (ls)", "the text is drawn on its baseline") }
        let font = model.fonts.first { $0.name == d.fontName }
        if let glyphs = glyphOutlines(for: d, font: font) { return outlineLayer(d, glyphs: glyphs) }
        return coreTextLayers(d, font: font)
    }

    /// The glyph outlines of every character of the document, when `chars` has them all.
    private func glyphOutlines(for d: LottieTextDocument, font: LottieFontModel?) -> [Character: LottieGlyphModel]? {
        guard !model.glyphs.isEmpty else { return nil }
        var table: [Character: LottieGlyphModel] = [:]
        for g in model.glyphs {
            guard let c = g.character.first, g.character.count == 1 else { continue }
            if let font, !(g.family == font.family && g.style == font.style) { continue }
            if table[c] == nil { table[c] = g }
        }
        for c in d.text where c != "\n" && table[c] == nil {
            if c == " " { continue }     // a space with no glyph advances by a third of an em
            log.add(.approximated, "text glyphs (chars)", "a character has no glyph outline; the text is drawn through Core Text")
            return nil
        }
        return table
    }

    /// Lines of (character, x) for `d` with advances from `advance`, wrapped at the box width
    /// when there is a box (greedy, at spaces).
    private func lines(_ d: LottieTextDocument, advance: (Character) -> Double) -> [(chars: [(Character, Double)], width: Double)] {
        let track = d.tracking / 1000 * d.size
        var out: [(chars: [(Character, Double)], width: Double)] = []
        for paragraph in d.text.split(separator: "\n", omittingEmptySubsequences: false) {
            var line: [(Character, Double)] = [], x = 0.0, lastSpace: Int? = nil
            for c in paragraph {
                let w = advance(c)
                if let box = d.boxSize, x + w > box.width, !line.isEmpty {
                    // Break at the last space, else before this character.
                    if let s = lastSpace, s > 0 {
                        let head = Array(line[..<s]), tail = Array(line[(s + 1)...])
                        out.append((head, (head.last.map { $0.1 + advance($0.0) } ?? 0)))
                        let shift = tail.first?.1 ?? 0
                        line = tail.map { ($0.0, $0.1 - shift) }
                        x = line.last.map { $0.1 + advance($0.0) + track } ?? 0
                    } else {
                        out.append((line, x - track)); line = []; x = 0
                    }
                    lastSpace = nil
                }
                if c == " " { lastSpace = line.count }
                line.append((c, x))
                x += w + track
            }
            out.append((line, max(0, x - (line.isEmpty ? 0 : track))))
        }
        return out
    }

    /// Where line `i` of width `w` starts (x) and its baseline (y).
    private func origin(_ d: LottieTextDocument, line i: Int, width w: Double, ascent: Double) -> CGPoint {
        let j = d.justification
        if let p = d.boxPosition, let box = d.boxSize {
            let x = j == 1 ? p.x + box.width - w : j == 2 ? p.x + (box.width - w) / 2 : p.x
            return CGPoint(x: x, y: p.y + ascent + Double(i) * d.lineHeight)
        }
        let x = j == 1 ? -w : j == 2 ? -w / 2 : 0
        return CGPoint(x: x, y: Double(i) * d.lineHeight)
    }

    private func outlineLayer(_ d: LottieTextDocument, glyphs: [Character: LottieGlyphModel]) -> CALayer {
        let scale = d.size / 100
        func advance(_ c: Character) -> Double { glyphs[c].map { $0.advance * scale } ?? (c == " " ? d.size / 3 : 0) }
        let path = CGMutablePath()
        for (i, line) in lines(d, advance: advance).enumerated() {
            let o = origin(d, line: i, width: line.width, ascent: 0.75 * d.size)
            for (c, x) in line.chars {
                guard let g = glyphs[c] else { continue }
                var m = CGAffineTransform(a: scale, b: 0, c: 0, d: scale, tx: o.x + x, ty: o.y)
                let outline = CGMutablePath()
                Self.addOutlines(g.shapes, into: outline)
                if let placed = outline.copy(using: &m) { path.addPath(placed) }
            }
        }
        let fill = CAShapeLayer()
        fill.path = path
        fill.fillColor = d.fillColor.map { LottieColors.color($0) }
        fill.strokeColor = nil
        guard let sc = d.strokeColor, d.strokeWidth > 0 else { return fill }
        let stroke = CAShapeLayer()
        stroke.path = path
        stroke.fillColor = nil
        stroke.strokeColor = LottieColors.color(sc)
        stroke.lineWidth = CGFloat(d.strokeWidth)
        stroke.lineJoin = .round
        let both = CALayer()
        both.anchorPoint = .zero; both.bounds = .zero; both.position = .zero
        for l in d.strokeOverFill ? [fill, stroke] : [stroke, fill] { both.addSublayer(l) }
        return both
    }

    /// The paths of a glyph's shape items (`sh` in groups), untransformed (exported glyphs have
    /// identity group transforms).
    static func addOutlines(_ items: [LottieShapeItem], into path: CGMutablePath) {
        for it in items {
            switch it.kind {
            case .group(let children): addOutlines(children, into: path)
            case .path(let p): if let p { LottiePaths.bezier(p.value(at: 0), into: path) }
            default: break
            }
        }
    }

    // MARK: Core Text

    /// The Core Text font for a document: `fName` when installed, else family and style, else
    /// the family (fontconfig's nearest, reported).
    private func ctFont(_ d: LottieTextDocument, font: LottieFontModel?) -> CTFont {
        var names = [d.fontName]
        if let f = font {
            names += [f.name, "\(f.family)-\(f.style)".replacingOccurrences(of: " ", with: ""), "\(f.family) \(f.style)", f.family]
        }
        names = names.filter { !$0.isEmpty }
        for n in names where FontRegistry.shared.face(named: n)?.exact == true {
            return CTFontCreateWithName(n as CFString, CGFloat(d.size), nil)
        }
        let fallback = font?.family.isEmpty == false ? font!.family : (names.first ?? "Helvetica")
        log.add(.approximated, "font \"\(d.fontName)\"", "not installed; fontconfig's nearest match for \"\(fallback)\" is used")
        return CTFontCreateWithName(fallback as CFString, CGFloat(d.size), nil)
    }

    private func coreTextLayers(_ d: LottieTextDocument, font: LottieFontModel?) -> CALayer {
        let ct = ctFont(d, font: font)
        var attrs: [NSAttributedString.Key: Any] = [NSAttributedString.Key(kCTFontAttributeName): ct]
        attrs[NSAttributedString.Key(kCTForegroundColorAttributeName)] = d.fillColor.map { LottieColors.color($0) } ?? CGColor(gray: 0, alpha: 0)
        if d.tracking != 0 { attrs[NSAttributedString.Key(kCTKernAttributeName)] = d.tracking / 1000 * d.size }
        if let sc = d.strokeColor, d.strokeWidth > 0, d.size > 0 {
            // Core Text's stroke width is a percentage of the font size; negative: fill and stroke.
            attrs[NSAttributedString.Key(kCTStrokeWidthAttributeName)] = -(d.strokeWidth / d.size * 100)
            attrs[NSAttributedString.Key(kCTStrokeColorAttributeName)] = LottieColors.color(sc)
            if !d.strokeOverFill { log.add(.approximated, "text stroke under the fill", "Core Text strokes over the fill") }
        }
        if d.boxSize != nil, d.lineHeight != Double(CTFontGetAscent(ct) + CTFontGetDescent(ct) + CTFontGetLeading(ct)) {
            log.add(.approximated, "text box line height (lh)", "wrapped lines are spaced by the font's line height")
        }
        let holder = CALayer()
        holder.anchorPoint = .zero; holder.bounds = .zero; holder.position = .zero
        if let p = d.boxPosition, let box = d.boxSize {
            let l = CATextLayer()
            l.anchorPoint = .zero
            l.position = p
            l.bounds = CGRect(origin: .zero, size: box)
            l.isWrapped = true
            l.alignmentMode = d.justification == 1 ? .right : d.justification == 2 ? .center : d.justification >= 3 ? .justified : .left
            l.string = NSAttributedString(string: d.text, attributes: attrs)
            l.contentsScale = 2
            holder.addSublayer(l)
            return holder
        }
        for (i, text) in d.text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() where !text.isEmpty {
            let s = NSAttributedString(string: String(text), attributes: attrs)
            let line = CTLineCreateWithAttributedString(s)
            var ascent: CGFloat = 0, descent: CGFloat = 0, leading: CGFloat = 0
            let width = CTLineGetTypographicBounds(line, &ascent, &descent, &leading)
            let o = origin(d, line: i, width: width, ascent: Double(ascent))
            let l = CATextLayer()
            l.anchorPoint = .zero
            // The layer's top is the line's ascent above its baseline; the width leaves room
            // for the last glyph's overhang.
            l.position = CGPoint(x: o.x, y: o.y - Double(ascent))
            l.bounds = CGRect(x: 0, y: 0, width: max(1, width + d.size + d.strokeWidth), height: max(1, Double(ascent + descent) + d.strokeWidth))
            l.string = s
            l.contentsScale = 2
            holder.addSublayer(l)
        }
        return holder
    }
}
