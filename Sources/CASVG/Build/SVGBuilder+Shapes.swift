import Foundation

/// Fill and stroke of one shape element as layers (SVG 1.1 §11 painting):
/// - solid fill and/or stroke: one `CAShapeLayer` (`fillColor`, `strokeColor`, `fillRule`,
///   `lineWidth`, `lineCap`, `lineJoin`, `miterLimit`, `lineDashPattern`, `lineDashPhase`);
/// - a gradient paint: a `CAGradientLayer` inside a container whose `mask` is a `CAShapeLayer`
///   of the fill (or of the stroke), with the solid part, if any, as a sibling. The fill is
///   painted first, then the stroke (SVG's default paint order).
extension SVGBuilder {
    enum Paint {
        case none
        case solid(SVGRGBA)
        case gradient(SVGGradientSpec)
        /// A `<pattern>` (`SVGPattern.swift`).
        case pattern(SVGElement)
    }

    /// Luminance-to-alpha inside a luminance mask (SVG 1.1 §14.4: luminance with the
    /// coefficients 0.2125, 0.7154, 0.0721, taken here on the sRGB values as resvg and the
    /// browsers do); colours pass through otherwise.
    func convert(_ c: SVGRGBA) -> SVGRGBA {
        guard luminance else { return c }
        let l = 0.2125 * c.r + 0.7154 * c.g + 0.0721 * c.b
        return (0, 0, 0, c.a * l)
    }

    func cgColor(_ c: SVGRGBA) -> CGColor {
        let v = convert(c)
        return CGColor(srgbRed: v.r, green: v.g, blue: v.b, alpha: v.a)
    }

    func resolvePaint(_ p: SVGPaint, style: SVGComputedStyle, property: String) -> Paint {
        switch p {
        case .none: return .none
        case let .color(c): return .solid(style.resolve(c))
        case let .url(ref, fallback):
            func fall() -> Paint { fallback.map { resolvePaint($0, style: style, property: property) } ?? .none }
            guard ref.hasPrefix("#") else {
                log.add(.externalReference, "\(property)=url(\(ref.prefix(80)))", "paint servers outside the document are never fetched; fallback used")
                return fall()
            }
            guard let el = ids[String(ref.dropFirst())] else {
                log.add(.brokenReference, "\(property)=url(\(ref.prefix(80)))", "no element with that id; fallback or none used")
                return fall()
            }
            switch el.name {
            case "linearGradient", "radialGradient":
                return .gradient(gradientSpec(el))
            case "pattern":
                return .pattern(el)
            default:
                log.add(.brokenReference, "\(property)=url(\(ref.prefix(80)))", "<\(el.name)> is not a paint server; fallback or none used")
                return fall()
            }
        }
    }

    /// Attributes and stops through the `href` chain (cycle-safe, at most 32 links).
    func gradientSpec(_ el: SVGElement) -> SVGGradientSpec {
        var chain = [el]
        var seen: Set<ObjectIdentifier> = [ObjectIdentifier(el)]
        while let href = chain.last!.attributes["href"], href.hasPrefix("#"), chain.count < 32,
              let next = ids[String(href.dropFirst())], next.name == "linearGradient" || next.name == "radialGradient" {
            guard seen.insert(ObjectIdentifier(next)).inserted else {
                log.add(.brokenReference, "gradient href", "reference cycle; the chain is cut")
                break
            }
            chain.append(next)
        }
        func attr(_ n: String) -> String? { chain.lazy.compactMap { $0.attributes[n] }.first }
        // Geometry (x1…y2, cx…fr) comes only from gradients of the same kind: a radial
        // gradient's href to a linear one inherits its units, transform, spread and stops,
        // not its attributes of the other kind (SVG 1.1 §13.2.2/§13.2.3 list each one's own).
        func own(_ n: String) -> String? { chain.lazy.filter { $0.name == el.name }.compactMap { $0.attributes[n] }.first }
        func len(_ n: String, _ d: SVGLength) -> SVGLength {
            guard let raw = own(n) else { return d }
            guard let l = SVGLength.parse(raw) else {
                log.add(.invalidValue, "\(n)=\"\(raw)\"", "not a length; default used"); return d
            }
            return l
        }
        let pct = { (v: Double) in SVGLength(value: v, unit: .percent) }
        var spec: SVGGradientSpec
        if el.name == "linearGradient" {
            spec = SVGGradientSpec(kind: .linear(x1: len("x1", pct(0)), y1: len("y1", pct(0)), x2: len("x2", pct(100)), y2: len("y2", pct(0))))
        } else {
            let cx = len("cx", pct(50)), cy = len("cy", pct(50))
            spec = SVGGradientSpec(kind: .radial(cx: cx, cy: cy, r: len("r", pct(50)),
                                                 fx: own("fx").flatMap(SVGLength.parse), fy: own("fy").flatMap(SVGLength.parse),
                                                 fr: len("fr", pct(0))))
        }
        spec.objectBoundingBox = attr("gradientUnits") != "userSpaceOnUse"
        if let t = attr("gradientTransform") {
            if let m = SVGTransformParser.parse(t) { spec.transform = m }
            else { log.add(.invalidValue, "gradientTransform=\"\(t.prefix(60))\"", "does not parse; ignored") }
        }
        if let s = attr("spreadMethod") {
            if let sp = SVGGradientSpec.Spread(rawValue: s) { spec.spread = sp }
            else { log.add(.invalidValue, "spreadMethod=\"\(s)\"", "unknown; pad used") }
        }
        if let holder = chain.first(where: { $0.children.contains { $0.name == "stop" } }) {
            var last = 0.0
            for stop in holder.children where stop.name == "stop" {
                let st = styleFromRoot(stop)
                var o = 0.0
                if let raw = stop.attributes["offset"]?.trimmingCharacters(in: .whitespaces) {
                    if raw.hasSuffix("%"), let v = Double(raw.dropLast()) { o = v / 100 }
                    else if let v = Double(raw) { o = v }
                    else { log.add(.invalidValue, "offset=\"\(raw)\"", "not a number; 0 used") }
                }
                o = max(last, min(max(o.isNaN ? 0 : o, 0), 1))
                last = o
                let c = st.resolve(st.stopColor)
                spec.stops.append((o, (c.0, c.1, c.2, c.3 * st.stopOpacity)))
            }
        }
        if luminance, spec.stops.count > 1 {
            // Luminance × alpha is not linear between two stops whose colour and alpha both
            // change; eight samples per interval keep the alpha ramp within a few levels.
            var dense: [(Double, SVGRGBA)] = []
            for (a, b) in zip(spec.stops, spec.stops.dropFirst()) {
                for k in 0..<8 {
                    let f = Double(k) / 8
                    dense.append((a.offset + (b.offset - a.offset) * f,
                                  (a.color.r + (b.color.r - a.color.r) * f, a.color.g + (b.color.g - a.color.g) * f,
                                   a.color.b + (b.color.b - a.color.b) * f, a.color.a + (b.color.a - a.color.a) * f)))
                }
            }
            dense.append(spec.stops.last!)
            spec.stops = dense.map { ($0.0, $0.1) }
        }
        return spec
    }

    /// Stroke values for a CAShapeLayer: width, caps, joins, miter limit, dashes (SVG 1.1
    /// §11.4). A dash array with a negative value or summing to zero draws a solid line; an odd
    /// count is repeated to an even one (both SVG rules, made explicit for CAShapeLayer).
    /// The alpha mask that cuts a layer-painted fill or stroke (a gradient, a pattern) to the
    /// shape: the path filled with its fill rule, or stroked with the element's stroke, in
    /// opaque black (`CALayer.mask` uses the mask's alpha).
    func paintMask(path: CGPath, style: SVGComputedStyle, isStroke: Bool, width: Double, rect: CGRect) -> CAShapeLayer {
        let mask = CAShapeLayer()
        mask.path = path
        if isStroke {
            mask.fillColor = nil
            mask.strokeColor = CGColor(srgbRed: 0, green: 0, blue: 0, alpha: 1)
            applyStroke(mask, style: style, width: width)
        } else {
            mask.fillColor = CGColor(srgbRed: 0, green: 0, blue: 0, alpha: 1)
            mask.fillRule = style.fillRule
        }
        SVGLayerPlacement.place(mask, rect: rect)
        return mask
    }

    func applyStroke(_ layer: CAShapeLayer, style: SVGComputedStyle, width: Double) {
        layer.lineWidth = width
        layer.lineCap = style.lineCap
        layer.lineJoin = style.lineJoin
        layer.miterLimit = style.miterLimit
        if let dashes = style.dashArray, !dashes.isEmpty {
            var values = dashes.map { $0.resolve(.other, viewport: viewport, fontSize: style.fontSize) }
            if values.contains(where: { $0 < 0 || !$0.isFinite }) {
                log.add(.invalidValue, "stroke-dasharray", "negative value; solid stroke drawn")
            } else if values.reduce(0, +) > 0 {
                if values.count % 2 == 1 { values += values }
                layer.lineDashPattern = values.map { NSNumber(value: $0) }
                let phase = style.dashOffset.resolve(.other, viewport: viewport, fontSize: style.fontSize)
                layer.lineDashPhase = phase.isFinite ? phase : 0
            }
        }
    }

    /// How far a stroke can reach beyond the geometry: half the width, times the miter limit
    /// for miter joins, times √2 for square caps.
    func strokeOutset(_ style: SVGComputedStyle, width: Double) -> Double {
        let joins = style.lineJoin == .miter ? max(style.miterLimit, 1.5) : 1.5
        return width / 2 * joins + 1
    }

    func reportPathBudget() {
        guard !pathBudgetReported else { return }
        pathBudgetReported = true
        log.add(.limitReached, "path segments",
                "more than \(limits.maxTotalPathSegments) path segments in the document; the shapes asking for more are not drawn")
    }

    func shape(_ e: SVGElement, style: SVGComputedStyle) -> (layer: CALayer, extent: CGRect, bbox: CGRect)? {
        let ctx = SVGShapeGeometry.Context(viewport: viewport, fontSize: style.fontSize, log: log, limits: limits)
        // The document's path budget is checked before the path data is parsed.
        guard pathSegmentTotal < limits.maxTotalPathSegments else { reportPathBudget(); return nil }
        guard let path = SVGShapeGeometry.path(for: e, ctx) else { return nil }
        pathSegmentTotal += path.elements.count
        guard pathSegmentTotal <= limits.maxTotalPathSegments else { reportPathBudget(); return nil }
        return paintedWithMarkers(e, path: path, style: style)
    }

    /// Layers that fill and stroke `path` (in user space) as `style` says; text glyph outlines
    /// come here too (`SVGBuilder+Text`). `hasInterior` is false for a line (its fill paints
    /// nothing).
    func painted(_ path: CGPath, style: SVGComputedStyle, hasInterior: Bool) -> (layer: CALayer, extent: CGRect, bbox: CGRect)? {
        let bbox = path.boundingBoxOfPath
        guard bbox.minX.isFinite, bbox.minY.isFinite, bbox.width.isFinite, bbox.height.isFinite else { return nil }
        // An objectBoundingBox paint server on geometry without area (a horizontal or vertical
        // line) cannot be used: the fallback colour applies, or none (SVG 1.1 §7.11, §11.2).
        func paint(_ p: SVGPaint, _ property: String) -> Paint {
            let r = resolvePaint(p, style: style, property: property)
            if case let .gradient(spec) = r, spec.objectBoundingBox, !(bbox.width > 0 && bbox.height > 0) {
                if case let .url(_, fallback?) = p { return resolvePaint(fallback, style: style, property: property) }
                return .none
            }
            return r
        }
        var fill = style.visible ? paint(style.fill, "fill") : .none
        var stroke = style.visible ? paint(style.stroke, "stroke") : .none
        let width = style.strokeWidth.resolve(.other, viewport: viewport, fontSize: style.fontSize)
        if !(width > 0) || !width.isFinite { stroke = .none }
        // A line has no interior: its fill paints nothing (and its OBB gradient has no area).
        if !hasInterior { fill = .none }
        if case .none = fill, case .none = stroke { return (CALayer(), .null, bbox) }
        let outset = strokeOutset(style, width: width)
        let fillExtent = bbox.insetBy(dx: -1, dy: -1)
        let strokeExtent = bbox.insetBy(dx: -outset, dy: -outset)
        var hasStroke = false
        if case .none = stroke {} else { hasStroke = true }
        let extent = hasStroke ? strokeExtent : fillExtent

        func solidLayer(fill: SVGRGBA?, stroke: SVGRGBA?) -> CAShapeLayer {
            let l = CAShapeLayer()
            l.path = path
            l.fillColor = fill.map { cgColor(($0.r, $0.g, $0.b, $0.a * style.fillOpacity)) }
            l.fillRule = style.fillRule
            if let s = stroke {
                l.strokeColor = cgColor((s.r, s.g, s.b, s.a * style.strokeOpacity))
                applyStroke(l, style: style, width: width)
            } else {
                l.strokeColor = nil
            }
            SVGLayerPlacement.place(l, rect: extent)
            return l
        }
        // Both solid (or one absent): a single shape layer.
        switch (fill, stroke) {
        case (.solid(let f), .solid(let s)): return (solidLayer(fill: f, stroke: s), extent, bbox)
        case (.solid(let f), .none): return (solidLayer(fill: f, stroke: nil), extent, bbox)
        case (.none, .solid(let s)): return (solidLayer(fill: nil, stroke: s), extent, bbox)
        default: break
        }
        // A gradient is involved: one piece per paint, in a group.
        let groupLayer = CALayer()
        func piece(_ paint: Paint, isStroke: Bool) {
            let opacity = isStroke ? style.strokeOpacity : style.fillOpacity
            let ext = isStroke ? strokeExtent : fillExtent
            switch paint {
            case .none: return
            case let .pattern(el):
                if let l = patternPiece(el, path: path, style: style, isStroke: isStroke, width: width, bbox: bbox, extent: ext) {
                    groupLayer.addSublayer(l)
                }
            case let .solid(c):
                groupLayer.addSublayer(solidLayer(fill: isStroke ? nil : c, stroke: isStroke ? c : nil))
            case let .gradient(spec):
                switch SVGGradientLayers.make(spec, opacity: opacity, bbox: bbox, extent: ext, viewport: viewport,
                                              log: log, convert: convert) {
                case .none: return
                case let .solid(c):
                    // Already faded and converted: build the layer without doing either again.
                    let l = CAShapeLayer()
                    l.path = path
                    let color = CGColor(srgbRed: c.r, green: c.g, blue: c.b, alpha: c.a)
                    if isStroke { l.fillColor = nil; l.strokeColor = color; applyStroke(l, style: style, width: width) }
                    else { l.fillColor = color; l.fillRule = style.fillRule }
                    SVGLayerPlacement.place(l, rect: extent)
                    groupLayer.addSublayer(l)
                case let .layer(gradient):
                    let holder = CALayer()
                    SVGLayerPlacement.place(holder, rect: ext)
                    holder.addSublayer(gradient)
                    holder.mask = paintMask(path: path, style: style, isStroke: isStroke, width: width, rect: ext)
                    groupLayer.addSublayer(holder)
                }
            }
        }
        piece(fill, isStroke: false)
        piece(stroke, isStroke: true)
        guard !(groupLayer.sublayers ?? []).isEmpty else { return (CALayer(), .null, bbox) }
        return (groupLayer, extent, bbox)
    }
}
