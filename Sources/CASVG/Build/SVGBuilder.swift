import Foundation

/// Walks the parsed document and makes the layer tree. Each layer's own coordinates are the
/// SVG user space of its element (see `SVGLayerPlacement`), so paths and masks are stored in
/// the units the file uses and animating a layer behaves as the element would.
final class SVGBuilder {
    /// One built element: its layer, placed in the parent's user space, with the extent it
    /// paints and the bounding box of its geometry (for objectBoundingBox units), both in the
    /// parent's user space.
    struct Built {
        var layer: CALayer
        var extent: CGRect
        var bbox: CGRect
    }

    let log: SVGIssueLog
    let limits: SVGImportLimits
    var ids: [String: SVGElement] = [:]
    var sheet = SVGStyleSheet()
    /// The nearest viewport's size, for percentages (SVG 1.1 §7.10).
    var viewport: CGSize
    /// Elements being expanded through `use`, clip-path, mask or href: a reference back to one
    /// of them is a cycle (SVG 1.1 §5.6: "circular references are an error").
    var active: Set<ObjectIdentifier> = []
    var useDepth = 0
    /// Set when a filter met itself again while an feImage built its referenced element.
    var feImageRecursion = false
    /// Inside a `mask` with mask-type luminance: colours become alpha = luminance × alpha.
    var luminance = false
    /// Where `<image>` files may be read from (`SVGImage.swift`), and raster pixels decoded so far.
    var resources = SVGResourceContext()
    var imagePixels = 0
    /// Whether some element blends (`mix-blend-mode`): the document root is then isolated.
    var usesBlending = false
    /// Elements built so far; `<use>` can multiply a small file into an enormous tree.
    var built = 0
    var budgetReported = false
    /// Elements instantiated through clip-path and mask references so far
    /// (`SVGImportLimits.maxReferenceExpansion`), and each referenced element's subtree size.
    var referenceExpansion = 0
    var referenceBudgetReported = false
    var subtreeSizes: [ObjectIdentifier: Int] = [:]
    /// Elements instantiated through `<use>` so far (`SVGImportLimits.maxUseExpansion`), and
    /// path segments built so far (`maxTotalPathSegments`).
    var useExpansion = 0
    var useBudgetReported = false
    var pathSegmentTotal = 0
    var pathBudgetReported = false
    private var rootStyles: [ObjectIdentifier: SVGComputedStyle] = [:]

    init(root: SVGElement, viewport: CGSize, log: SVGIssueLog, limits: SVGImportLimits) {
        self.log = log
        self.limits = limits
        self.viewport = viewport
        index(root)
    }

    /// Ids (the first element with an id wins, as browsers do) and style sheets.
    private func index(_ root: SVGElement) {
        var stack = [root]
        while let e = stack.popLast() {
            if let id = e.id, ids[id] == nil { ids[id] = e }
            if e.name == "style" {
                let type = e.attributes["type"] ?? "text/css"
                if type == "text/css" || type.isEmpty { sheet.add(css: e.text, log: log) }
                else { log.add(.unsupportedFeature, "<style type=\"\(type)\">", "only CSS style sheets are read") }
            }
            stack.append(contentsOf: e.children.reversed())
        }
    }

    // MARK: Style

    /// Presentation attributes, then style sheet rules, then the `style` attribute
    /// (CSS 2.1 §6.4.4: presentation attributes have the lowest author priority).
    func computeStyle(_ e: SVGElement, parent: SVGComputedStyle) -> SVGComputedStyle {
        var s = parent.inherited()
        for (name, value) in e.attributes.sorted(by: { $0.key < $1.key })
        where SVGComputedStyle.known.contains(name) && !SVGComputedStyle.styleOnly.contains(name) {
            s.apply(name, value, parent: parent, viewport: viewport, log: log)
        }
        for (name, value) in sheet.declarations(for: e) {
            s.apply(name, value, parent: parent, viewport: viewport, log: log)
        }
        if let style = e.attributes["style"] {
            for (name, value) in SVGDeclarations.parse(style) {
                s.apply(name, value, parent: parent, viewport: viewport, log: log)
            }
        }
        return s
    }

    /// The computed style of an element reached by reference (a gradient stop, a clipPath
    /// child): cascaded from the document root down its ancestors.
    func styleFromRoot(_ e: SVGElement) -> SVGComputedStyle {
        if let s = rootStyles[ObjectIdentifier(e)] { return s }
        // Up to the nearest ancestor already computed (or the root), then down: each element's
        // style is computed once, so asking for every ancestor in turn (text decorations) stays
        // linear in the depth.
        var chain: [SVGElement] = []
        var p: SVGElement? = e
        var s = SVGComputedStyle()
        while let x = p, chain.count < limits.maxDepth + 1 {
            if let memo = rootStyles[ObjectIdentifier(x)] { s = memo; break }
            chain.append(x)
            p = x.parent
        }
        for x in chain.reversed() {
            s = computeStyle(x, parent: s)
            rootStyles[ObjectIdentifier(x)] = s
        }
        return s
    }

    // MARK: Elements

    static let nonRendering: Set<String> = [
        "defs", "linearGradient", "radialGradient", "clipPath", "mask", "symbol", "style", "title", "desc", "marker", "pattern",
        "metadata", "stop", "script", "filter", SVGElement.textNodeName,
    ]
    static let shapes: Set<String> = ["path", "rect", "circle", "ellipse", "line", "polyline", "polygon"]
    static let unsupported: Set<String> = [
        "foreignObject", "textPath", "tspan", "animate",
        "animateTransform", "animateMotion", "set", "view", "cursor", "font", "glyph",
    ]

    func build(_ e: SVGElement, parentStyle: SVGComputedStyle) -> Built? {
        built += 1
        if built > limits.maxElements {
            if !budgetReported {
                log.add(.limitReached, "element count", "more than \(limits.maxElements) elements after <use> expansion; the rest is not drawn")
                budgetReported = true
            }
            return nil
        }
        guard SVGConditional.passes(e) else { return nil }
        let style = computeStyle(e, parent: parentStyle)
        guard style.display else { return nil }
        var content: (layer: CALayer, extent: CGRect, bbox: CGRect)?
        var extra = CGAffineTransform.identity
        switch e.name {
        case "g", "a":
            content = group(e.children, style: style)
        case "switch":
            // The first renderable child whose conditions hold (`SVGConditional`).
            if let first = e.children.first(where: { !Self.nonRendering.contains($0.name) && SVGConditional.passes($0) }) {
                content = group([first], style: style)
            }
        case "svg":
            content = nestedViewport(e, style: style, size: nil, children: e.children)
        case "use":
            guard let r = use(e, style: style) else { return nil }
            content = r.content
            extra = r.offset
        case _ where Self.shapes.contains(e.name):
            content = shape(e, style: style)
        case "text":
            content = text(e, style: style)
        case "image":
            content = image(e, style: style)
        case _ where Self.nonRendering.contains(e.name):
            return nil
        case _ where Self.unsupported.contains(e.name) || e.name.hasPrefix("fe"):
            log.add(.unsupportedElement, "<\(e.name)>", "not supported; not drawn")
            return nil
        default:
            if e.name.contains(":") {
                log.add(.unsupportedElement, "<\(e.name)>", "element of another namespace; ignored")
            } else {
                log.add(.unsupportedElement, "<\(e.name)>", "unknown element; not drawn")
            }
            return nil
        }
        // A filter draws its region even over no content (a flood on an empty group).
        guard let c = content ?? emptyFilteredContent(style) else { return nil }
        return finish(e, style: style, layer: c.layer, extent: c.extent, bbox: c.bbox, extra: extra)
    }

    /// Children of a group, each placed in the group's user space.
    func group(_ children: [SVGElement], style: SVGComputedStyle) -> (layer: CALayer, extent: CGRect, bbox: CGRect)? {
        let layer = CALayer()
        var extent = CGRect.null, bbox = CGRect.null
        for child in children {
            guard let b = build(child, parentStyle: style) else { continue }
            layer.addSublayer(b.layer)
            extent = extent.union(b.extent)
            bbox = bbox.union(b.bbox)
        }
        guard !extent.isNull else { return nil }
        return (layer, extent, bbox)
    }

    /// The element's transform (with SVG 2 `transform-origin`), opacity, clip-path and mask,
    /// applied to its content layer.
    func finish(_ e: SVGElement, style: SVGComputedStyle, layer content: CALayer, extent: CGRect, bbox: CGRect,
                extra: CGAffineTransform) -> Built? {
        var layer = content
        var ext = extent
        // Content built at the origin of its own layer: the layer covers `ext`.
        SVGLayerPlacement.place(layer, rect: ext)
        if let f = style.filterProperties["filter"] {
            switch applyFilter(f, e: e, style: style, content: layer, extent: ext, bbox: bbox) {
            case .hide: return nil
            case .noEffect: break
            case let .layer(filtered, extent): layer = filtered; ext = extent
            }
        }
        if let m = style.mask {
            switch maskLayer(m, bbox: bbox) {
            case .hide: return nil
            case .noEffect: break
            case let .layer(mask):
                layer = wrapIfMasked(layer, ext)
                layer.mask = mask
            }
        }
        if let c = style.clipPath {
            switch clipLayer(c, bbox: bbox) {
            case .hide: return nil
            case .noEffect: break
            case let .layer(mask):
                layer = wrapIfMasked(layer, ext)
                layer.mask = mask
            }
        }
        if style.opacity < 1 {
            if layer is CAShapeLayer { layer = wrap(layer, ext) }
            // Multiplied: a `<use>` of a faded `<symbol>` already carries the symbol's opacity.
            layer.opacity *= Float(style.opacity)
        }
        layer = applyBlending(layer, ext, style: style)
        let m = extra.concatenating(elementTransform(e, style: style))
        guard m.a.isFinite, m.b.isFinite, m.c.isFinite, m.d.isFinite, m.tx.isFinite, m.ty.isFinite else { return nil }
        if layer !== content || !m.isIdentity {
            ext = SVGLayerPlacement.place(layer, rect: ext, transform: m)
        }
        return Built(layer: layer, extent: ext, bbox: bbox.isNull ? bbox : bbox.applying(m))
    }

    /// The `transform` attribute with SVG 2's `transform-origin` around it (identity, reported,
    /// when it does not parse).
    func elementTransform(_ e: SVGElement, style: SVGComputedStyle) -> CGAffineTransform {
        var m = CGAffineTransform.identity
        if let t = style.cssTransform ?? e.attributes["transform"], t != "none" {
            if let parsed = SVGTransformParser.parse(t) {
                m = parsed
            } else {
                log.add(.invalidValue, "transform=\"\(t.prefix(60))\"", "does not parse; ignored (SVG 2: an invalid transform is no transform)")
            }
        }
        if let o = style.transformOrigin, let origin = transformOrigin(o) {
            m = CGAffineTransform(translationX: -origin.x, y: -origin.y).concatenating(m)
                .concatenating(CGAffineTransform(translationX: origin.x, y: origin.y))
        }
        return m
    }

    /// A layer that already has a mask gets a container, so a second mask (clip-path and mask
    /// on one element) intersects with the first.
    func wrapIfMasked(_ layer: CALayer, _ ext: CGRect) -> CALayer {
        layer.mask == nil ? layer : wrap(layer, ext)
    }

    /// A plain container around a layer already placed in the same user space.
    func wrap(_ layer: CALayer, _ ext: CGRect) -> CALayer {
        let outer = CALayer()
        SVGLayerPlacement.place(outer, rect: ext)
        outer.addSublayer(layer)
        return outer
    }

    /// `transform-origin` (CSS Transforms 1 §6; SVG's reference box is the view box, so
    /// percentages are of the viewport): one or two of left/center/right/top/bottom, lengths,
    /// percentages.
    func transformOrigin(_ s: String) -> CGPoint? {
        let words = s.split(whereSeparator: { $0 == " " || $0 == "," }).map(String.init)
        guard !words.isEmpty, words.count <= 3 else {
            log.add(.invalidValue, "transform-origin=\"\(s)\"", "does not parse; ignored"); return nil
        }
        var x: Double? = nil, y: Double? = nil
        var pending: [Double] = []
        for w in words.prefix(2) {
            switch w {
            case "left": x = 0
            case "right": x = viewport.width
            case "top": y = 0
            case "bottom": y = viewport.height
            case "center": pending.append(.nan)
            default:
                guard let l = SVGLength.parse(w) else {
                    log.add(.invalidValue, "transform-origin=\"\(s)\"", "does not parse; ignored"); return nil
                }
                // Positional: the first is x, the second y.
                let axis: SVGLength.Axis = (x == nil && pending.isEmpty) ? .x : .y
                pending.append(l.resolve(axis, viewport: viewport))
                if axis == .x, words.count == 1 { y = viewport.height / 2 }
            }
        }
        for v in pending {
            if x == nil { x = v.isNaN ? viewport.width / 2 : v } else if y == nil { y = v.isNaN ? viewport.height / 2 : v }
        }
        return CGPoint(x: x ?? viewport.width / 2, y: y ?? viewport.height / 2)
    }

    // MARK: Viewports and use

    /// A nested `<svg>` or a `<symbol>` instance: x/y/width/height define a viewport, viewBox
    /// and preserveAspectRatio map the content into it, and the viewport clips (overflow
    /// hidden, the initial value for these elements).
    func nestedViewport(_ e: SVGElement, style: SVGComputedStyle, size: CGSize?, children: [SVGElement])
        -> (layer: CALayer, extent: CGRect, bbox: CGRect)? {
        let ctx = SVGShapeGeometry.Context(viewport: viewport, fontSize: style.fontSize, log: log, limits: limits)
        let isSymbol = e.name == "symbol"
        let x = isSymbol ? 0 : SVGShapeGeometry.length(e, "x", .x, ctx)
        let y = isSymbol ? 0 : SVGShapeGeometry.length(e, "y", .y, ctx)
        func dim(_ name: String, _ axis: SVGLength.Axis, _ full: Double) -> Double {
            guard let raw = e.attributes[name], let l = SVGLength.parse(raw) else { return full }
            return l.resolve(axis, viewport: viewport, fontSize: style.fontSize)
        }
        let w: Double = size.map { Double($0.width) } ?? dim("width", .x, viewport.width)
        let h: Double = size.map { Double($0.height) } ?? dim("height", .y, viewport.height)
        guard w > 0, h > 0 else { return nil }
        var inner = CGAffineTransform(translationX: x, y: y)
        let saved = viewport
        if let vb = SVGAspectRatio.viewBox(e.attributes["viewBox"]) {
            let par = SVGAspectRatio.parse(e.attributes["preserveAspectRatio"]) ?? SVGAspectRatio()
            inner = par.transform(viewBox: vb, viewport: CGSize(width: w, height: h)).concatenating(inner)
            viewport = vb.size
        } else {
            viewport = CGSize(width: w, height: h)
        }
        defer { viewport = saved }
        guard let g = group(children, style: style) else { return nil }
        SVGLayerPlacement.place(g.layer, rect: g.extent)
        let clip = CALayer()
        let rect = CGRect(x: x, y: y, width: w, height: h)
        clip.masksToBounds = (e.attributes["overflow"] ?? "hidden") != "visible"
        SVGLayerPlacement.place(clip, rect: rect)
        let placed = SVGLayerPlacement.place(g.layer, rect: g.extent, transform: inner)
        clip.addSublayer(g.layer)
        // The clipping layer's bounds must stay the viewport rectangle (masksToBounds).
        if clip.masksToBounds {
            guard !placed.intersection(rect).isNull else { return nil }
            return (clip, rect, g.bbox.applying(inner))
        }
        return (clip, rect.union(placed), g.bbox.applying(inner))
    }

    /// `<use>` (SVG 1.1 §5.6): the referenced element drawn as a child of the use element,
    /// inheriting its style, moved by x/y. Cycles, references outside the document and
    /// nesting beyond `maxUseDepth` are reported and not drawn.
    func use(_ e: SVGElement, style: SVGComputedStyle) -> (content: (layer: CALayer, extent: CGRect, bbox: CGRect), offset: CGAffineTransform)? {
        guard let href = e.attributes["href"] else { return nil }
        guard href.hasPrefix("#") else {
            log.add(.externalReference, "<use href=\"\(href.prefix(80))\">", "references outside the document are never fetched; not drawn")
            return nil
        }
        guard let target = ids[String(href.dropFirst())] else {
            log.add(.brokenReference, "<use href=\"\(href.prefix(80))\">", "no element with that id; not drawn")
            return nil
        }
        let key = ObjectIdentifier(target)
        var ancestor: SVGElement? = e
        while let a = ancestor {
            if a === target { break }
            ancestor = a.parent
        }
        guard !active.contains(key), ancestor == nil else {
            log.add(.brokenReference, "<use href=\"\(href.prefix(80))\">", "reference cycle; not drawn")
            return nil
        }
        guard useDepth < limits.maxUseDepth else {
            log.add(.limitReached, "<use> nesting", "deeper than \(limits.maxUseDepth) levels; not drawn")
            return nil
        }
        // Every instance pays for its target's whole subtree, nested uses paying again inside it.
        useExpansion += subtreeSize(target)
        guard useExpansion <= limits.maxUseExpansion else {
            if !useBudgetReported {
                useBudgetReported = true
                log.add(.limitReached, "<use> instances",
                        "more than \(limits.maxUseExpansion) elements instantiated through <use>; the <use> elements asking for more are not drawn")
            }
            return nil
        }
        active.insert(key); useDepth += 1
        defer { active.remove(key); useDepth -= 1 }
        let ctx = SVGShapeGeometry.Context(viewport: viewport, fontSize: style.fontSize, log: log, limits: limits)
        let offset = CGAffineTransform(translationX: SVGShapeGeometry.length(e, "x", .x, ctx), y: SVGShapeGeometry.length(e, "y", .y, ctx))
        var content: (layer: CALayer, extent: CGRect, bbox: CGRect)?
        switch target.name {
        case "symbol", "svg":
            let w = e.attributes["width"].flatMap(SVGLength.parse)?.resolve(.x, viewport: viewport)
            let h = e.attributes["height"].flatMap(SVGLength.parse)?.resolve(.y, viewport: viewport)
            let tStyle = computeStyle(target, parent: style)
            guard tStyle.display else { return nil }
            let size = (w != nil || h != nil || target.name == "symbol")
                ? CGSize(width: w ?? target.attributes["width"].flatMap(SVGLength.parse)?.resolve(.x, viewport: viewport) ?? viewport.width,
                         height: h ?? target.attributes["height"].flatMap(SVGLength.parse)?.resolve(.y, viewport: viewport) ?? viewport.height)
                : nil
            content = nestedViewport(target, style: tStyle, size: size, children: target.children)
            // The symbol's (or svg's) own opacity fades its instance.
            if tStyle.opacity < 1, let c = content { c.layer.opacity *= Float(tStyle.opacity) }
        default:
            content = group([target], style: style)
        }
        guard let c = content else { return nil }
        return (c, offset)
    }
}
