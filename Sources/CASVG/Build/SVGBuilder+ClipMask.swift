import Foundation

/// `clip-path` and `mask` as `CALayer.mask` (CSS Masking 1, SVG 1.1 §14).
///
/// - clipPath: its shapes as opaque `CAShapeLayer`s (`fillRule` from `clip-rule`; fill and
///   stroke paint, opacity and stroke geometry ignored, as the spec says), in one container
///   placed by `clipPathUnits` and the clipPath's `transform`. A clip-path on the clipPath
///   itself masks that container (intersection). Core Animation masks with the mask's alpha
///   and antialiased edges, which is what a clip path is.
/// - mask: its content drawn as usual inside a container whose bounds are the mask region
///   (`maskUnits`, x/y/width/height, default −10 %/120 % of the bounding box) with
///   `masksToBounds`. `CALayer.mask` uses alpha only; SVG's default mask-type is luminance.
///   Each colour in the mask is therefore converted to alpha = luminance × alpha before it is
///   drawn, which is exact wherever mask content does not overlap (or overlaps only content
///   of at least equal luminance); where a darker shape covers a brighter one, the alpha
///   mask keeps the brighter one's value. `mask-type="alpha"` is exact.
extension SVGBuilder {
    enum MaskResult {
        /// The reference resolves to nothing that affects drawing.
        case noEffect
        /// The element is not drawn (empty clip, zero-size bounding box with
        /// objectBoundingBox units).
        case hide
        case layer(CALayer)
    }

    func referencedElement(_ value: String, property: String, expected: String) -> SVGElement?? {
        let v = value.trimmingCharacters(in: .whitespaces)
        guard v.hasPrefix("url("), let close = v.firstIndex(of: ")") else {
            log.add(.unsupportedFeature, "\(property)=\"\(v.prefix(60))\"", "only url(#id) references are supported; ignored")
            return .some(nil)
        }
        var ref = v[v.index(v.startIndex, offsetBy: 4)..<close].trimmingCharacters(in: .whitespaces)
        if ref.hasPrefix("\"") || ref.hasPrefix("'") { ref = String(ref.dropFirst().dropLast()) }
        guard ref.hasPrefix("#") else {
            log.add(.externalReference, "\(property)=\(v.prefix(80))", "references outside the document are never fetched; ignored")
            return .some(nil)
        }
        guard let el = ids[String(ref.dropFirst())], el.name == expected else {
            // CSS Masking 1: a clip-path reference to nothing (or to something that is not a
            // clipPath) is as if clip-path were not specified. A mask reference to no element at
            // all is treated the same way, as Chrome, Firefox and resvg draw it (the suite's
            // masking/mask/invalid-FuncIRI); one to an element that is not a mask still counts
            // as a transparent black mask layer, so the element is not drawn.
            if expected == "clipPath" || (expected == "mask" && ids[String(ref.dropFirst())] == nil) {
                if expected != "clipPath" {
                    log.add(.brokenReference, "\(property)=\(v.prefix(80))", "no element with that id; drawn unmasked")
                    return .some(nil)
                }
                log.add(.brokenReference, "\(property)=\(v.prefix(80))", "no <clipPath> with that id; drawn unclipped")
                return .some(nil)
            }
            log.add(.brokenReference, "\(property)=\(v.prefix(80))", "no <\(expected)> with that id; the element is not drawn")
            return nil
        }
        return .some(el)
    }

    /// Looks up a `clip-path` or `mask` reference and builds it with `body`, guarding against
    /// reference cycles: an element reached again while it is being built is not drawn.
    private func withReference(_ value: String, property: String, expected: String,
                               _ body: (SVGElement) -> MaskResult) -> MaskResult {
        guard let found = referencedElement(value, property: property, expected: expected) else { return .hide }
        guard let el = found else { return .noEffect }
        let key = ObjectIdentifier(el)
        guard !active.contains(key) else {
            log.add(.brokenReference, property, "reference cycle; the element is not drawn")
            return .hide
        }
        // Every instantiation pays for the referenced element's whole subtree, nested references
        // paying again for theirs inside it: the total is the work done, whatever the nesting.
        referenceExpansion += subtreeSize(el)
        guard referenceExpansion <= limits.maxReferenceExpansion else {
            if !referenceBudgetReported {
                referenceBudgetReported = true
                log.add(.limitReached, "\(property) references",
                        "more than \(limits.maxReferenceExpansion) elements instantiated through clip-path and mask references; the elements referencing more are not drawn")
            }
            return .hide
        }
        active.insert(key)
        defer { active.remove(key) }
        return body(el)
    }

    /// Elements in `el`'s subtree, itself included (iterative: the tree may be deep).
    func subtreeSize(_ el: SVGElement) -> Int {
        let key = ObjectIdentifier(el)
        if let n = subtreeSizes[key] { return n }
        var n = 0
        var stack = [el]
        while let e = stack.popLast() { n += 1; stack.append(contentsOf: e.children) }
        subtreeSizes[key] = n
        return n
    }

    func clipLayer(_ value: String, bbox: CGRect) -> MaskResult {
        withReference(value, property: "clip-path", expected: "clipPath") { buildClip($0, bbox: bbox) }
    }

    private func buildClip(_ el: SVGElement, bbox: CGRect) -> MaskResult {
        let clipStyle = styleFromRoot(el)
        var units = CGAffineTransform.identity
        if el.attributes["clipPathUnits"] == "objectBoundingBox" {
            guard !bbox.isNull, bbox.width > 0, bbox.height > 0 else { return .hide }
            units = CGAffineTransform(a: bbox.width, b: 0, c: 0, d: bbox.height, tx: bbox.minX, ty: bbox.minY)
        }
        let own = elementTransform(el, style: clipStyle)
        let container = CALayer()
        var extent = CGRect.null
        for child in el.children {
            var target = child
            var childTransform = CGAffineTransform.identity
            let childStyle = computeStyle(child, parent: clipStyle)
            guard childStyle.display else { continue }
            if child.name == "use" {
                // A use inside a clipPath may reference a shape directly (SVG 1.1 §14.3.5).
                guard let href = child.attributes["href"], href.hasPrefix("#"), let t = ids[String(href.dropFirst())],
                      Self.shapes.contains(t.name) else {
                    log.add(.unsupportedFeature, "<use> in <clipPath>", "only a use of a basic shape or path is supported; skipped")
                    continue
                }
                let ctx = SVGShapeGeometry.Context(viewport: viewport, fontSize: childStyle.fontSize, log: log, limits: limits)
                childTransform = CGAffineTransform(translationX: SVGShapeGeometry.length(child, "x", .x, ctx),
                                                   y: SVGShapeGeometry.length(child, "y", .y, ctx))
                target = t
            } else if !Self.shapes.contains(child.name) {
                if child.name == "text" { log.add(.unsupportedElement, "<text> in <clipPath>", "text is not supported; skipped") }
                else if !Self.nonRendering.contains(child.name) {
                    log.add(.unsupportedFeature, "<\(child.name)> in <clipPath>", "only shapes, paths and use may clip; skipped")
                }
                continue
            }
            let targetStyle = target === child ? childStyle : computeStyle(target, parent: childStyle)
            guard targetStyle.display, targetStyle.visible else { continue }
            let ctx = SVGShapeGeometry.Context(viewport: viewport, fontSize: targetStyle.fontSize, log: log, limits: limits)
            guard pathSegmentTotal < limits.maxTotalPathSegments else { reportPathBudget(); continue }
            guard let path = SVGShapeGeometry.path(for: target, ctx) else { continue }
            pathSegmentTotal += path.elements.count
            guard pathSegmentTotal <= limits.maxTotalPathSegments else { reportPathBudget(); continue }
            func transformOf(_ x: SVGElement) -> CGAffineTransform {
                elementTransform(x, style: x === child ? childStyle : targetStyle)
            }
            // A use: the shape's own transform, then the use's x/y, then the use's transform.
            childTransform = target === child ? transformOf(child)
                : transformOf(target).concatenating(childTransform).concatenating(transformOf(child))
            let shape = CAShapeLayer()
            shape.path = path
            shape.fillColor = CGColor(srgbRed: 0, green: 0, blue: 0, alpha: 1)
            shape.strokeColor = nil
            shape.fillRule = targetStyle.clipRule
            let local = path.boundingBoxOfPath.insetBy(dx: -1, dy: -1)
            if let cp = childStyle.clipPath {
                switch clipLayer(cp, bbox: path.boundingBoxOfPath) {
                case .hide: continue
                case .noEffect: break
                case let .layer(m): shape.mask = m
                }
            }
            extent = extent.union(SVGLayerPlacement.place(shape, rect: local, transform: childTransform))
            container.addSublayer(shape)
        }
        guard !extent.isNull else { return .hide }
        let placement = units.concatenating(own)
        let placed = SVGLayerPlacement.place(container, rect: extent, transform: placement)
        if let cp = clipStyle.clipPath {
            switch clipLayer(cp, bbox: bbox) {
            case .hide: return .hide
            case .noEffect: break
            case let .layer(m):
                // The clipPath's own clip-path applies in the referencing element's user
                // space, outside clipPathUnits and the clipPath's transform.
                let outer = CALayer()
                SVGLayerPlacement.place(outer, rect: placed)
                outer.addSublayer(container)
                outer.mask = m
                return .layer(outer)
            }
        }
        return .layer(container)
    }

    func maskLayer(_ value: String, bbox: CGRect) -> MaskResult {
        withReference(value, property: "mask", expected: "mask") { buildMask($0, bbox: bbox) }
    }

    private func buildMask(_ el: SVGElement, bbox: CGRect) -> MaskResult {
        let maskStyle = styleFromRoot(el)
        let hasBox = !bbox.isNull && bbox.width > 0 && bbox.height > 0
        // Region (maskUnits, default objectBoundingBox).
        let region: CGRect
        func frac(_ n: String, _ d: Double, _ axis: SVGLength.Axis) -> Double {
            guard let raw = el.attributes[n], let l = SVGLength.parse(raw) else { return d }
            return l.unit == .percent ? l.value / 100 : l.resolve(axis, viewport: viewport)
        }
        if el.attributes["maskUnits"] == "userSpaceOnUse" {
            let ctx = SVGShapeGeometry.Context(viewport: viewport, fontSize: maskStyle.fontSize, log: log, limits: limits)
            let pct = { (n: String, d: Double, axis: SVGLength.Axis) -> Double in
                el.attributes[n] == nil ? d : SVGShapeGeometry.length(el, n, axis, ctx)
            }
            region = CGRect(x: pct("x", -0.1 * viewport.width, .x), y: pct("y", -0.1 * viewport.height, .y),
                            width: pct("width", 1.2 * viewport.width, .x), height: pct("height", 1.2 * viewport.height, .y))
        } else {
            guard hasBox else { return .hide }
            region = CGRect(x: bbox.minX + frac("x", -0.1, .x) * bbox.width, y: bbox.minY + frac("y", -0.1, .y) * bbox.height,
                            width: frac("width", 1.2, .x) * bbox.width, height: frac("height", 1.2, .y) * bbox.height)
        }
        guard region.width > 0, region.height > 0 else { return .hide }
        var content = CGAffineTransform.identity
        if el.attributes["maskContentUnits"] == "objectBoundingBox" {
            guard hasBox else { return .hide }
            content = CGAffineTransform(a: bbox.width, b: 0, c: 0, d: bbox.height, tx: bbox.minX, ty: bbox.minY)
        }
        let alphaMask = maskStyle.maskType == "alpha"
        if !alphaMask {
            log.add(.approximated, "mask (luminance)",
                    "CALayer.mask is alpha-only: each mask colour becomes alpha = luminance × alpha; exact unless a darker mask shape covers a brighter one")
        }
        let saved = luminance
        luminance = !alphaMask
        let g = group(el.children, style: maskStyle)
        luminance = saved
        let container = CALayer()
        container.masksToBounds = true
        SVGLayerPlacement.place(container, rect: region)
        if let g {
            SVGLayerPlacement.place(g.layer, rect: g.extent, transform: content)
            container.addSublayer(g.layer)
        }
        // A mask on the mask element masks the mask (resvg and browsers apply it).
        if let m = maskStyle.mask {
            switch maskLayer(m, bbox: bbox) {
            case .hide: return .hide
            case .noEffect: break
            case let .layer(inner): container.mask = inner
            }
        }
        return .layer(container)
    }
}
