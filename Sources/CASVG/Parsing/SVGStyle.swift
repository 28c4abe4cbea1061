import Foundation

/// A paint (SVG 1.1 §11.2 `<paint>`): none, a colour, or a paint server reference with an
/// optional fallback.
package enum SVGPaint: Equatable {
    case none
    case color(SVGColorValue)
    indirect case url(id: String, fallback: SVGPaint?)

    package static func parse(_ raw: String) -> SVGPaint? {
        let s = raw.trimmingCharacters(in: .whitespacesAndNewlines)
        if s == "none" { return SVGPaint.none }
        if s.hasPrefix("url(") {
            guard let close = s.firstIndex(of: ")") else { return nil }
            var ref = s[s.index(s.startIndex, offsetBy: 4)..<close].trimmingCharacters(in: .whitespaces)
            if ref.hasPrefix("\"") || ref.hasPrefix("'") { ref = String(ref.dropFirst().dropLast()) }
            let rest = s[s.index(after: close)...].trimmingCharacters(in: .whitespaces)
            let fallback = rest.isEmpty ? nil : parse(rest)
            return .url(id: ref, fallback: fallback)
        }
        return SVGColorParser.parse(s).map { .color($0) }
    }
}

/// The computed values of the properties the importer uses, for one element (SVG 1.1 §6 styling,
/// property index; SVG 2 for `transform-origin` and `mask-type`). Inherited properties start
/// from the parent's computed value, the others from their initial value.
struct SVGComputedStyle {
    // Inherited.
    var fill: SVGPaint = .color(.rgba(0, 0, 0, 1))
    var fillOpacity = 1.0
    var fillRule = CAShapeLayerFillRule.nonZero
    var stroke: SVGPaint = .none
    var strokeWidth = SVGLength(value: 1, unit: .none)
    var strokeOpacity = 1.0
    var lineCap = CAShapeLayerLineCap.butt
    var lineJoin = CAShapeLayerLineJoin.miter
    var miterLimit = 4.0
    var dashArray: [SVGLength]? = nil
    var dashOffset = SVGLength.zero
    var color: (Double, Double, Double, Double) = (0, 0, 0, 1)
    var visible = true
    var clipRule = CAShapeLayerFillRule.nonZero
    /// `font-size` starts at `medium` (SVG 1.1 §10.10: initial value `medium`, whose size the user
    /// agent picks). The importer uses 12 px, resvg's default (usvg's `--font-size` option,
    /// default 12), the renderer that made the reference images `SVGTextCorpusTests` compares to.
    static let initialFontSize = 12.0
    var fontSize = SVGComputedStyle.initialFontSize
    /// Text (SVG 1.1 §10.10–10.12, all inherited but `textDecoration`, which holds what this
    /// element itself declares; `SVGBuilder+Text` applies it to the element's descendants).
    var fontFamily = "serif"
    var fontWeight = 400
    var fontItalic = false
    var textAnchor = "start"
    /// `direction` (SVG 1.1 §10.7.4, inherited): the base direction of the Unicode bidirectional
    /// algorithm for a text chunk (left to right unless `rtl`), and which end `text-anchor`'s
    /// start and end name.
    var rightToLeft = false
    var letterSpacing = SVGLength.zero
    var wordSpacing = SVGLength.zero
    var textDecoration: Set<String> = []
    var writingMode = "lr-tb"
    var baselineShift = "baseline"
    var dominantBaseline = "auto"
    var alignmentBaseline = "auto"
    var fontKerning = true
    /// `font-variant: small-caps` (CSS Fonts 3 §6.8 shorthand, CSS 2 `font-variant`): lower-case
    /// letters as small capitals, the font's `smcp` glyphs or synthesised (SVGBuilder+Text).
    var smallCaps = false
    /// `font-stretch` as a percentage of the normal width.
    var fontStretch = 100.0
    /// Markers and paint order (SVG 1.1 §11.6.2, SVG 2 §13.7.1; `SVGMarkers.swift`).
    var markerStart: String? = nil
    var markerMid: String? = nil
    var markerEnd: String? = nil
    var paintOrder = "normal"
    // Not inherited.
    var opacity = 1.0
    var display = true
    var clipPath: String? = nil
    var mask: String? = nil
    var stopColor: SVGColorValue = .rgba(0, 0, 0, 1)
    var stopOpacity = 1.0
    var transformOrigin: String? = nil
    var maskType = "luminance"
    /// `mix-blend-mode` and `isolation` (Compositing and Blending 1 §3; `SVGBlending.swift`).
    var blendMode = "normal"
    var isolate = false
    /// The CSS `transform` property from a style sheet or `style` attribute (CSS Transforms 1
    /// §7), which replaces the `transform` attribute; nil when none is set.
    var cssTransform: String? = nil
    /// Filter Effects properties as declared (`SVGBuilder+Filters.swift` reads them): `filter`,
    /// `flood-color`, `flood-opacity`, `lighting-color` (not inherited) and
    /// `color-interpolation-filters` (inherited).
    var filterProperties: [String: String] = [:]
    static let filterPropertyNames: Set<String> = ["filter", "flood-color", "flood-opacity", "lighting-color", "color-interpolation-filters"]

    /// The values a child starts from: inherited properties kept, the others reset.
    func inherited() -> SVGComputedStyle {
        var s = self
        s.opacity = 1; s.display = true; s.clipPath = nil; s.mask = nil
        s.stopColor = .rgba(0, 0, 0, 1); s.stopOpacity = 1; s.transformOrigin = nil; s.maskType = "luminance"
        s.blendMode = "normal"; s.isolate = false; s.cssTransform = nil
        s.textDecoration = []; s.baselineShift = "baseline"; s.alignmentBaseline = "auto"
        s.filterProperties = s.filterProperties.filter { $0.key == "color-interpolation-filters" }
        return s
    }

    /// Resolves `currentColor` against this element's `color`.
    func resolve(_ c: SVGColorValue) -> (Double, Double, Double, Double) {
        switch c {
        case let .rgba(r, g, b, a): return (r, g, b, a)
        case .currentColor: return color
        }
    }

    /// CSS absolute font sizes: `medium` is the initial font size and each step scales by 1.2, the
    /// factor CSS 2 §15.7 suggests between adjacent sizes (and that `larger`/`smaller` use), as
    /// resvg does.
    static let absoluteFontSizes: [String: Double] = {
        let steps = ["xx-small": -3, "x-small": -2, "small": -1, "medium": 0, "large": 1, "x-large": 2, "xx-large": 3]
        return steps.mapValues { initialFontSize * pow(1.2, Double($0)) }
    }()

    /// Names of the presentation attributes / properties read here. Anything else found in a
    /// `style` attribute or style sheet is reported as unsupported.
    static let known: Set<String> = [
        "fill", "fill-opacity", "fill-rule", "stroke", "stroke-width", "stroke-opacity", "stroke-linecap",
        "stroke-linejoin", "stroke-miterlimit", "stroke-dasharray", "stroke-dashoffset", "color", "visibility",
        "clip-rule", "font-size", "opacity", "display", "clip-path", "mask", "stop-color", "stop-opacity",
        "transform-origin", "mask-type", "filter", "flood-color", "flood-opacity", "lighting-color", "color-interpolation-filters",
        "marker-start", "marker-mid", "marker-end", "marker", "paint-order", "mix-blend-mode", "isolation",
        "font-family", "font-weight", "font-style", "text-anchor", "letter-spacing", "word-spacing", "text-decoration",
        "writing-mode", "baseline-shift", "dominant-baseline", "alignment-baseline", "font-kerning", "font-stretch", "font-variant",
        "direction",
    ]
    /// Properties read from style sheets and `style` attributes only: they have no presentation
    /// attribute. SVG 2 §6.6 lists the presentation attributes; `font-kerning` (CSS Fonts 3
    /// §6.4) is not among them (SVG 1.1's attribute was `kerning`), so `font-kerning="none"` is
    /// ignored as the browsers ignore it (the suite's `font-kerning/as-property`). The
    /// compositing properties: `SVGBlending`.
    static let styleOnly: Set<String> = SVGBlending.cssOnly.union(["font-kerning"])
    /// Properties that do not change what the importer draws for the shapes it supports (text
    /// and rendering hints); accepted without a report.
    static let ignorable: Set<String> = [
        "font",
        "shape-rendering", "color-rendering", "image-rendering", "text-rendering", "color-interpolation",
        "line-height", "enable-background",
        "overflow",
    ]
    static let inheritedNames: Set<String> = [
        "fill", "fill-opacity", "fill-rule", "stroke", "stroke-width", "stroke-opacity", "stroke-linecap",
        "stroke-linejoin", "stroke-miterlimit", "stroke-dasharray", "stroke-dashoffset", "color", "visibility",
        "clip-rule", "font-size", "font-family", "font-weight", "font-style", "text-anchor", "direction", "letter-spacing",
        "word-spacing", "writing-mode", "dominant-baseline", "font-kerning", "font-stretch", "font-variant",
        "marker-start", "marker-mid", "marker-end", "marker", "paint-order",
    ]

    /// Applies one declaration. Invalid values are ignored (CSS: a declaration that does not
    /// parse is dropped) and reported. `parent` serves `inherit`.
    mutating func apply(_ name: String, _ rawValue: String, parent: SVGComputedStyle, viewport: CGSize, log: SVGIssueLog) {
        let v = rawValue.trimmingCharacters(in: .whitespacesAndNewlines)
        if v == "inherit" {
            copy(name, from: parent)
            return
        }
        func bad() { log.add(.invalidValue, "\(name)=\"\(v)\"", "value does not parse; ignored") }
        func opacityValue() -> Double? {
            if v.hasSuffix("%") { return Double(v.dropLast()).map { min(max($0 / 100, 0), 1) } }
            return Double(v).map { $0.isNaN ? 1 : min(max($0, 0), 1) }
        }
        switch name {
        case "fill", "stroke":
            guard let p = SVGPaint.parse(v) else { return bad() }
            if name == "fill" { fill = p } else { stroke = p }
        case "fill-opacity": if let o = opacityValue() { fillOpacity = o } else { bad() }
        case "stroke-opacity": if let o = opacityValue() { strokeOpacity = o } else { bad() }
        case "opacity": if let o = opacityValue() { opacity = o } else { bad() }
        case "stop-opacity": if let o = opacityValue() { stopOpacity = o } else { bad() }
        case "fill-rule", "clip-rule":
            let r: CAShapeLayerFillRule
            switch v { case "nonzero": r = .nonZero; case "evenodd": r = .evenOdd; default: return bad() }
            if name == "fill-rule" { fillRule = r } else { clipRule = r }
        case "stroke-width":
            guard let l = SVGLength.parse(v), l.value >= 0 else { return bad() }
            strokeWidth = l
        case "stroke-linecap":
            switch v { case "butt": lineCap = .butt; case "round": lineCap = .round; case "square": lineCap = .square; default: bad() }
        case "stroke-linejoin":
            switch v {
            case "miter": lineJoin = .miter
            case "round": lineJoin = .round
            case "bevel": lineJoin = .bevel
            case "miter-clip", "arcs":
                lineJoin = .miter
                log.add(.approximated, "stroke-linejoin=\(v)", "SVG 2 join drawn as miter (CAShapeLayerLineJoin has no \(v))")
            default: bad()
            }
        case "stroke-miterlimit":
            guard let m = Double(v), m >= 1 else { return bad() }
            miterLimit = m
        case "stroke-dasharray":
            if v == "none" { dashArray = nil; return }
            var out: [SVGLength] = []
            for part in v.split(whereSeparator: { $0 == "," || $0 == " " || $0 == "\t" || $0 == "\n" }) {
                guard let l = SVGLength.parse(String(part)) else { return bad() }
                out.append(l)
            }
            dashArray = out
        case "stroke-dashoffset":
            guard let l = SVGLength.parse(v) else { return bad() }
            dashOffset = l
        case "color":
            guard let c = SVGColorParser.parse(v) else { return bad() }
            color = c == .currentColor ? parent.color : resolve(c)
        case "visibility":
            switch v { case "visible": visible = true; case "hidden", "collapse": visible = false; default: bad() }
        case "display": display = v != "none"
        case "font-size":
            if let l = SVGLength.parse(v) {
                fontSize = l.unit == .percent ? parent.fontSize * l.value / 100
                    : l.unit == .em ? parent.fontSize * l.value : l.unit == .ex ? parent.fontSize * l.value / 2
                    : l.resolve(.other, viewport: viewport)
            } else if let k = Self.absoluteFontSizes[v] {
                fontSize = k
            } else if v == "larger" || v == "smaller" {
                fontSize = v == "larger" ? parent.fontSize * 1.2 : parent.fontSize / 1.2
            } else {
                bad()
            }
        case "font-family": if v.isEmpty { bad() } else { fontFamily = v }
        case "font-weight":
            switch v {
            case "normal": fontWeight = 400
            case "bold": fontWeight = 700
            case "bolder": fontWeight = parent.fontWeight < 400 ? 400 : parent.fontWeight < 600 ? 700 : 900
            case "lighter": fontWeight = parent.fontWeight < 600 ? 100 : parent.fontWeight < 800 ? 400 : 700
            default:
                guard let n = Int(v), n >= 1, n <= 1000 else { return bad() }
                fontWeight = n
            }
        case "font-style":
            switch v { case "normal": fontItalic = false; case "italic", "oblique": fontItalic = true; default: bad() }
        case "text-anchor":
            guard ["start", "middle", "end"].contains(v) else { return bad() }
            textAnchor = v
        case "direction":
            switch v { case "ltr": rightToLeft = false; case "rtl": rightToLeft = true; default: bad() }
        case "letter-spacing", "word-spacing":
            let l: SVGLength
            if v == "normal" { l = .zero } else if let x = SVGLength.parse(v) { l = x } else { return bad() }
            if name == "letter-spacing" { letterSpacing = l } else { wordSpacing = l }
        case "text-decoration":
            let parts = Set(v.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).map(String.init))
            guard parts.isSubset(of: ["none", "underline", "overline", "line-through", "blink"]) else { return bad() }
            textDecoration = parts.subtracting(["none", "blink"])
        case "writing-mode": writingMode = v
        case "baseline-shift": baselineShift = v
        case "dominant-baseline": dominantBaseline = v
        case "alignment-baseline": alignmentBaseline = v
        case "font-variant":
            // The CSS 2 values; CSS Fonts 3's other variants (all-small-caps, ligatures,
            // numerals …) are reported and drawn as normal.
            switch v {
            case "normal": smallCaps = false
            case "small-caps": smallCaps = true
            default:
                smallCaps = false
                log.add(.unsupportedFeature, "font-variant=\(v.prefix(40))", "only normal and small-caps are applied; normal glyphs used")
            }
        case "font-stretch":
            let named: [String: Double] = ["ultra-condensed": 50, "extra-condensed": 62.5, "condensed": 75, "semi-condensed": 87.5,
                                           "normal": 100, "semi-expanded": 112.5, "expanded": 125, "extra-expanded": 150,
                                           "ultra-expanded": 200]
            if let n = named[v] { fontStretch = n }
            else if v.hasSuffix("%"), let n = Double(v.dropLast()), n > 0, n.isFinite { fontStretch = n }
            else if v == "wider" || v == "narrower" { fontStretch = parent.fontStretch * (v == "wider" ? 1.25 : 0.8) }
            else { bad() }
        case "font-kerning":
            switch v { case "auto", "normal": fontKerning = true; case "none": fontKerning = false; default: bad() }
        case "clip-path": clipPath = v == "none" ? nil : v
        case "mask": mask = v == "none" ? nil : v
        case _ where Self.filterPropertyNames.contains(name): filterProperties[name] = v
        case "stop-color":
            guard let c = SVGColorParser.parse(v) else { return bad() }
            stopColor = c
        case "transform-origin": transformOrigin = v
        case "mask-type":
            guard v == "luminance" || v == "alpha" else { return bad() }
            maskType = v
        case "marker-start", "marker-mid", "marker-end", "marker", "paint-order", "mix-blend-mode", "isolation", "transform":
            guard applyPaintingExtras(name, v) else { return bad() }
        default:
            if !Self.ignorable.contains(name) {
                log.add(.unsupportedFeature, "property \(name)", "not supported; ignored")
            }
        }
    }

    private mutating func copy(_ name: String, from p: SVGComputedStyle) {
        switch name {
        case "fill": fill = p.fill
        case "fill-opacity": fillOpacity = p.fillOpacity
        case "fill-rule": fillRule = p.fillRule
        case "stroke": stroke = p.stroke
        case "stroke-width": strokeWidth = p.strokeWidth
        case "stroke-opacity": strokeOpacity = p.strokeOpacity
        case "stroke-linecap": lineCap = p.lineCap
        case "stroke-linejoin": lineJoin = p.lineJoin
        case "stroke-miterlimit": miterLimit = p.miterLimit
        case "stroke-dasharray": dashArray = p.dashArray
        case "stroke-dashoffset": dashOffset = p.dashOffset
        case "color": color = p.color
        case "visibility": visible = p.visible
        case "clip-rule": clipRule = p.clipRule
        case "font-size": fontSize = p.fontSize
        case "font-family": fontFamily = p.fontFamily
        case "font-weight": fontWeight = p.fontWeight
        case "font-style": fontItalic = p.fontItalic
        case "text-anchor": textAnchor = p.textAnchor
        case "direction": rightToLeft = p.rightToLeft
        case "letter-spacing": letterSpacing = p.letterSpacing
        case "word-spacing": wordSpacing = p.wordSpacing
        case "text-decoration": textDecoration = p.textDecoration
        case "writing-mode": writingMode = p.writingMode
        case "baseline-shift": baselineShift = p.baselineShift
        case "dominant-baseline": dominantBaseline = p.dominantBaseline
        case "alignment-baseline": alignmentBaseline = p.alignmentBaseline
        case "font-kerning": fontKerning = p.fontKerning
        case "font-variant": smallCaps = p.smallCaps
        case "font-stretch": fontStretch = p.fontStretch
        case "opacity": opacity = p.opacity
        case "display": display = p.display
        case "clip-path": clipPath = p.clipPath
        case "mask": mask = p.mask
        case "stop-color": stopColor = p.stopColor
        case "stop-opacity": stopOpacity = p.stopOpacity
        case "transform-origin": transformOrigin = p.transformOrigin
        case "mask-type": maskType = p.maskType
        case "marker-start": markerStart = p.markerStart
        case "marker-mid": markerMid = p.markerMid
        case "marker-end": markerEnd = p.markerEnd
        case "marker": markerStart = p.markerStart; markerMid = p.markerMid; markerEnd = p.markerEnd
        case "paint-order": paintOrder = p.paintOrder
        case "mix-blend-mode": blendMode = p.blendMode
        case "isolation": isolate = p.isolate
        case _ where Self.filterPropertyNames.contains(name): filterProperties[name] = p.filterProperties[name]
        default: break
        }
    }
}

/// Declarations of a `style` attribute or a CSS rule body: `name: value; …`.
enum SVGDeclarations {
    static func parse(_ s: String) -> [(String, String)] {
        var out: [(String, String)] = []
        // Comments are dropped first.
        var text = s
        while let a = text.range(of: "/*") {
            if let b = text.range(of: "*/", range: a.upperBound..<text.endIndex) { text.removeSubrange(a.lowerBound..<b.upperBound) }
            else { text.removeSubrange(a.lowerBound..<text.endIndex) }
        }
        for decl in text.split(separator: ";") {
            guard let colon = decl.firstIndex(of: ":") else { continue }
            let name = decl[..<colon].trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
            var value = decl[decl.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines)
            if value.hasSuffix("!important") { value = String(value.dropLast(10)).trimmingCharacters(in: .whitespaces) }
            if !name.isEmpty { out.append((name, value)) }
        }
        return out
    }
}
