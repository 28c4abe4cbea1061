import Foundation
import CoreImage

/// The `filter` property (Filter Effects Module Level 1, https://www.w3.org/TR/filter-effects-1/):
/// each `url(#id)` to a `<filter>` element, or CSS filter function, becomes a `FilterGraph` in
/// the `filters` of a layer wrapped around the element's content (docs/FILTERS.md "Filter
/// graphs"); the render tree turns it into GPU passes. The import builds layers and filters,
/// not a second renderer. Filters apply before clip-path, mask and opacity (§ "Placement of
/// the filter", SVG 1.1 §15.1), which `finish` applies to the wrapper.
extension SVGBuilder {
    enum FilterResult {
        case noEffect
        case hide
        case layer(CALayer, extent: CGRect)
    }

    /// An element with a `filter` url but nothing to draw still gets its filter (which may
    /// flood its region): an empty layer with no extent or box.
    func emptyFilteredContent(_ style: SVGComputedStyle) -> (layer: CALayer, extent: CGRect, bbox: CGRect)? {
        guard let f = style.filterProperties["filter"], f.contains("url(") else { return nil }
        return (CALayer(), .null, .null)
    }

    /// Items of one `filter` list after this many are cut (each `url()` is one more nested
    /// offscreen layer), with a report.
    static let maxFilterListItems = 16

    static let filterFunctionNames: Set<String> = ["blur", "drop-shadow", "grayscale", "sepia", "saturate", "hue-rotate",
                                                   "invert", "opacity", "brightness", "contrast"]

    /// The element's content wrapped in one layer per filter of its `filter` list (the first
    /// innermost). `extent`, `bbox`: the content's painted extent and bounding box (element
    /// user space).
    func applyFilter(_ value: String, e: SVGElement, style: SVGComputedStyle, content: CALayer, extent: CGRect,
                     bbox: CGRect) -> FilterResult {
        let v = value.trimmingCharacters(in: .whitespacesAndNewlines)
        if v == "none" || v.isEmpty { return .noEffect }
        guard var items = Self.filterList(v) else {
            log.add(.invalidValue, "filter=\"\(v.prefix(60))\"", "does not parse; ignored")
            return .noEffect
        }
        if items.count > Self.maxFilterListItems {
            log.add(.limitReached, "filter list", "\(items.count) filters in one list; only the first \(Self.maxFilterListItems) are applied")
            items = Array(items.prefix(Self.maxFilterListItems))
        }
        var layer = content, ext = extent
        // One graph per list item; the CSS functions that follow each other share one.
        var pending: [FilterPrimitive] = []
        var pendingReach = 0.0
        func flushFunctions() {
            guard !pending.isEmpty else { return }
            let base = extent.isNull ? bbox : extent
            guard !base.isNull else { pending = []; return }
            let region = base.insetBy(dx: -pendingReach, dy: -pendingReach)
            let prims = pending.map { p -> FilterPrimitive in var q = p; q.subregion = region; return q }
            (layer, ext) = wrapFiltered(layer, ext, FilterGraph(region: region, primitives: prims))
            pending = []; pendingReach = 0
        }
        for item in items {
            switch item {
            case .url(let id):
                flushFunctions()
                guard let f = ids[id], f.name == "filter" else {
                    log.add(.brokenReference, "filter=\"url(#\(id.prefix(60)))\"", "no <filter> with that id; the element is not drawn")
                    return .hide
                }
                guard let g = filterGraph(f, bbox: bbox) else { return .hide }
                (layer, ext) = wrapFiltered(layer, ext, g)
            case .function(let name, let args):
                guard let f = filterFunction(name, args, style: style) else {
                    log.add(.invalidValue, "filter=\"\(v.prefix(60))\"", "\(name)() does not parse; the filter is ignored")
                    return .noEffect
                }
                pending.append(f.0); pendingReach += f.1
            }
        }
        flushFunctions()
        return .layer(layer, extent: ext)
    }

    func wrapFiltered(_ content: CALayer, _ ext: CGRect, _ g: FilterGraph) -> (CALayer, CGRect) {
        let region = g.region.standardized
        let outer = CALayer()
        SVGLayerPlacement.place(outer, rect: region)
        outer.addSublayer(content)
        outer.filters = [g]
        return (outer, region)
    }

    enum FilterItem { case url(String), function(String, String) }

    /// `url(#a) blur(2px) …` → items; nil when it does not parse.
    static func filterList(_ s: String) -> [FilterItem]? {
        var items: [FilterItem] = []
        var rest = Substring(s)
        while true {
            rest = rest.drop(while: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "," })
            if rest.isEmpty { break }
            guard let open = rest.firstIndex(of: "("), let close = rest[open...].firstIndex(of: ")") else { return nil }
            let name = rest[..<open].trimmingCharacters(in: .whitespaces).lowercased()
            var arg = rest[rest.index(after: open)..<close].trimmingCharacters(in: .whitespaces)
            if name == "url" {
                if arg.hasPrefix("\"") || arg.hasPrefix("'") { arg = String(arg.dropFirst().dropLast()) }
                guard arg.hasPrefix("#") else { return nil }
                items.append(.url(String(arg.dropFirst())))
            } else {
                guard filterFunctionNames.contains(name) else { return nil }
                items.append(.function(name, arg))
            }
            rest = rest[rest.index(after: close)...]
        }
        return items.isEmpty ? nil : items
    }

    // MARK: CSS filter functions

    /// A CSS filter function (Filter Effects 1 §13 "Filter functions") as its primitive (sRGB,
    /// as the shorthands are defined), with how far it reaches beyond the element.
    func filterFunction(_ name: String, _ args: String, style: SVGComputedStyle) -> (FilterPrimitive, Double)? {
        func amount(_ def: Double, clampToOne: Bool) -> Double? {
            let a = args.trimmingCharacters(in: .whitespaces)
            if a.isEmpty { return def }
            var v: Double?
            if a.hasSuffix("%") { v = Double(a.dropLast()).map { $0 / 100 } } else { v = Double(a) }
            guard let x = v, x.isFinite, x >= 0 else { return nil }
            return clampToOne ? min(x, 1) : x
        }
        func prim(_ k: FilterPrimitive.Kind) -> FilterPrimitive {
            FilterPrimitive(kind: k, inputs: [], subregion: .null, linearRGB: false)
        }
        switch name {
        case "blur":
            let a = args.trimmingCharacters(in: .whitespaces)
            let s: Double
            if a.isEmpty { s = 0 } else {
                guard let l = SVGLength.parse(a), l.unit != .percent, l.value >= 0 else { return nil }
                s = l.resolve(.other, viewport: viewport, fontSize: style.fontSize)
            }
            return (prim(.gaussianBlur(sx: s, sy: s)), 3 * s)
        case "drop-shadow":
            // <color>? <dx> <dy> <std-deviation>? in either order of colour and lengths.
            var lengths: [Double] = []
            var color: SVGColorValue = .currentColor
            var words: [String] = []
            var depth = 0, cur = ""
            for ch in args {
                if ch == "(" { depth += 1 } else if ch == ")" { depth -= 1 }
                if ch == " " && depth == 0 { if !cur.isEmpty { words.append(cur) }; cur = "" } else { cur.append(ch) }
            }
            if !cur.isEmpty { words.append(cur) }
            for w in words {
                if let l = SVGLength.parse(w), l.unit != .percent { lengths.append(l.resolve(.other, viewport: viewport, fontSize: style.fontSize)) }
                else if let c = SVGColorParser.parse(w) { color = c }
                else { return nil }
            }
            guard lengths.count == 2 || lengths.count == 3 else { return nil }
            let s = lengths.count == 3 ? lengths[2] : 0
            guard s >= 0 else { return nil }
            let c = style.resolve(color)
            return (prim(.dropShadow(dx: lengths[0], dy: lengths[1], sx: s, sy: s,
                                     color: SIMD4(Float(c.0), Float(c.1), Float(c.2), Float(c.3)))),
                    3 * s + abs(lengths[0]) + abs(lengths[1]))
        case "hue-rotate":
            let a = args.trimmingCharacters(in: .whitespaces)
            var deg = 0.0
            if !a.isEmpty {
                if a.hasSuffix("deg") { deg = Double(a.dropLast(3)) ?? .nan }
                else if a.hasSuffix("grad") { deg = (Double(a.dropLast(4)) ?? .nan) * 0.9 }
                else if a.hasSuffix("rad") { deg = (Double(a.dropLast(3)) ?? .nan) * 180 / .pi }
                else if a.hasSuffix("turn") { deg = (Double(a.dropLast(4)) ?? .nan) * 360 }
                else if a == "0" { deg = 0 } else { return nil }
            }
            guard deg.isFinite else { return nil }
            return (prim(.colorMatrix(SVGFilterMatrices.hueRotate(deg))), 0)
        case "grayscale":
            guard let a = amount(1, clampToOne: true) else { return nil }
            return (prim(.colorMatrix(SVGFilterMatrices.grayscale(a))), 0)
        case "sepia":
            guard let a = amount(1, clampToOne: true) else { return nil }
            return (prim(.colorMatrix(SVGFilterMatrices.sepia(a))), 0)
        case "saturate":
            guard let a = amount(1, clampToOne: false) else { return nil }
            return (prim(.colorMatrix(SVGFilterMatrices.saturate(a))), 0)
        case "invert":
            guard let a = amount(1, clampToOne: true) else { return nil }
            let f = TransferFunction.table([Float(a), Float(1 - a)])
            return (prim(.componentTransfer([f, f, f, .identity])), 0)
        case "opacity":
            guard let a = amount(1, clampToOne: true) else { return nil }
            return (prim(.componentTransfer([.identity, .identity, .identity, .table([0, Float(a)])])), 0)
        case "brightness":
            guard let a = amount(1, clampToOne: false) else { return nil }
            let f = TransferFunction.linear(slope: Float(a), intercept: 0)
            return (prim(.componentTransfer([f, f, f, .identity])), 0)
        case "contrast":
            guard let a = amount(1, clampToOne: false) else { return nil }
            let f = TransferFunction.linear(slope: Float(a), intercept: Float(-0.5 * a + 0.5))
            return (prim(.componentTransfer([f, f, f, .identity])), 0)
        default:
            return nil
        }
    }
}

/// The colour matrices of Filter Effects 1 (§ feColorMatrix, § "Filter functions"), 4×5 row-major.
enum SVGFilterMatrices {
    static func rgb(_ m: [Double]) -> [Float] {
        [m[0], m[1], m[2], 0, 0, m[3], m[4], m[5], 0, 0, m[6], m[7], m[8], 0, 0, 0, 0, 0, 1, 0].map(Float.init)
    }

    static func saturate(_ s: Double) -> [Float] {
        rgb([0.213 + 0.787 * s, 0.715 - 0.715 * s, 0.072 - 0.072 * s,
             0.213 - 0.213 * s, 0.715 + 0.285 * s, 0.072 - 0.072 * s,
             0.213 - 0.213 * s, 0.715 - 0.715 * s, 0.072 + 0.928 * s])
    }

    static func hueRotate(_ degrees: Double) -> [Float] {
        let a = degrees * .pi / 180, c = cos(a), s = sin(a)
        return rgb([0.213 + c * 0.787 - s * 0.213, 0.715 - c * 0.715 - s * 0.715, 0.072 - c * 0.072 + s * 0.928,
                    0.213 - c * 0.213 + s * 0.143, 0.715 + c * 0.285 + s * 0.140, 0.072 - c * 0.072 - s * 0.283,
                    0.213 - c * 0.213 - s * 0.787, 0.715 - c * 0.715 + s * 0.715, 0.072 + c * 0.928 + s * 0.072])
    }

    static func grayscale(_ a: Double) -> [Float] {
        let k = 1 - a
        return rgb([0.2126 + 0.7874 * k, 0.7152 - 0.7152 * k, 0.0722 - 0.0722 * k,
                    0.2126 - 0.2126 * k, 0.7152 + 0.2848 * k, 0.0722 - 0.0722 * k,
                    0.2126 - 0.2126 * k, 0.7152 - 0.7152 * k, 0.0722 + 0.9278 * k])
    }

    static func sepia(_ a: Double) -> [Float] {
        let k = 1 - a
        return rgb([0.393 + 0.607 * k, 0.769 - 0.769 * k, 0.189 - 0.189 * k,
                    0.349 - 0.349 * k, 0.686 + 0.314 * k, 0.168 - 0.168 * k,
                    0.272 - 0.272 * k, 0.534 - 0.534 * k, 0.131 + 0.869 * k])
    }

    static let luminanceToAlpha: [Float] = [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0.2125, 0.7154, 0.0721, 0, 0]
    static let identity: [Float] = [1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 0]
}
