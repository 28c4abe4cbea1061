import Foundation

/// Markers (SVG 1.1 §11.6, SVG 2 §13.7 "Markers") and `paint-order` (SVG 2 §13.7.1… "paint-order").
///
/// A marker is an instance of the `<marker>`'s children at a vertex of a path, line, polyline or
/// polygon: a group of layers placed by `translate(vertex) · rotate(orient) · scale(stroke width,
/// for markerUnits="strokeWidth") · translate(−ref) · viewBox transform`, clipped to the
/// marker's viewport unless `overflow` is visible or auto. The content takes its style from the
/// marker's own ancestors, not from the path (SVG 1.1 §11.6.2: "properties inherit … from the
/// marker element's ancestors"). Marker content can carry markers of its own, except a marker
/// being instantiated (a recursion), which is cut there, as resvg does.
extension SVGBuilder {
    /// One vertex of a path with the directions of the segments that meet there (radians);
    /// nil where no segment of the same subpath arrives or leaves.
    struct MarkerVertex {
        var point: CGPoint
        var incoming: Double?
        var outgoing: Double?

        /// SVG 2 §13.7.3's direction: the bisector of the incoming and outgoing directions, or
        /// the one that exists.
        var angle: Double {
            switch (incoming, outgoing) {
            case let (i?, o?):
                var a = i, b = o
                if abs(b - a) > .pi { if a < b { a += 2 * .pi } else { b += 2 * .pi } }
                return (a + b) / 2
            case let (i?, nil): return i
            case let (nil, o?): return o
            default: return 0
            }
        }
    }

    /// The vertices of `path` in order: every subpath's start point and each segment's end
    /// point, a closed subpath's closing segment included (its last vertex is its start point).
    static func markerVertices(_ path: CGPath) -> [MarkerVertex] {
        func dir(_ a: CGPoint, _ b: CGPoint) -> Double? {
            let dx = b.x - a.x, dy = b.y - a.y
            guard dx != 0 || dy != 0 else { return nil }
            return atan2(dy, dx)
        }
        var all: [MarkerVertex] = []
        var sub: [MarkerVertex] = []
        var current = CGPoint.zero, start = CGPoint.zero
        var firstOut: Double?
        var open = false
        func flush() { all += sub; sub = []; open = false }
        func begin(_ p: CGPoint) {
            flush()
            start = p; current = p; firstOut = nil
            sub = [MarkerVertex(point: p, incoming: nil, outgoing: nil)]
            open = true
        }
        /// A segment from `current` to `end`, leaving along `out` and arriving along `inc`.
        func segment(to end: CGPoint, out: Double?, inc: Double?) {
            if !open { begin(current) }
            sub[sub.count - 1].outgoing = out ?? inc
            if sub.count == 1 { firstOut = out ?? inc }
            sub.append(MarkerVertex(point: end, incoming: inc ?? out, outgoing: nil))
            current = end
        }
        for el in path.elements {
            switch el {
            case let .move(p): begin(p)
            case let .line(p):
                let d = dir(current, p)
                segment(to: p, out: d, inc: d)
            case let .quad(c, p):
                segment(to: p, out: dir(current, c) ?? dir(current, p), inc: dir(c, p) ?? dir(current, p))
            case let .cubic(c1, c2, p):
                let out = dir(current, c1) ?? dir(current, c2) ?? dir(current, p)
                let inc = dir(c2, p) ?? dir(c1, p) ?? dir(current, p)
                segment(to: p, out: out, inc: inc)
            case .close:
                guard open else { continue }
                let d = dir(current, start)
                let first = firstOut
                segment(to: start, out: d, inc: d)
                // The subpath's two ends meet: the start point gets the closing direction as
                // its incoming one, the last vertex the first segment's as its outgoing one.
                sub[0].incoming = sub[sub.count - 1].incoming
                sub[sub.count - 1].outgoing = first
                flush()
                current = start
            }
        }
        flush()
        return all
    }

    /// Whether the element can carry markers (SVG 2 §13.7: the markable elements).
    static let markable: Set<String> = ["path", "line", "polyline", "polygon"]

    /// The element's markers as one layer in its user space, or nil when it has none.
    func markerLayer(_ e: SVGElement, path: CGPath, style: SVGComputedStyle) -> (layer: CALayer, extent: CGRect)? {
        guard Self.markable.contains(e.name),
              style.markerStart != nil || style.markerMid != nil || style.markerEnd != nil else { return nil }
        let vertices = Self.markerVertices(path)
        guard !vertices.isEmpty else { return nil }
        let strokeWidth = style.strokeWidth.resolve(.other, viewport: viewport, fontSize: style.fontSize)
        let holder = CALayer()
        var extent = CGRect.null
        for (i, v) in vertices.enumerated() {
            let ref: String?
            let isStart = i == 0
            if i == 0 { ref = style.markerStart }
            else if i == vertices.count - 1 { ref = style.markerEnd }
            else { ref = style.markerMid }
            guard let ref, let marker = markerElement(ref) else { continue }
            guard let placed = markerInstance(marker, at: v, isStart: isStart, strokeWidth: strokeWidth) else { continue }
            holder.addSublayer(placed.layer)
            extent = extent.union(placed.extent)
            // Markers on a very long path are bounded by the element budget (`build` counts).
            if built > limits.maxElements { break }
        }
        guard !extent.isNull else { return nil }
        SVGLayerPlacement.place(holder, rect: extent)
        return (holder, extent)
    }

    /// The `<marker>` a `url(#id)` value names (reported when it names nothing or another
    /// element).
    func markerElement(_ ref: String) -> SVGElement? {
        let s = ref.trimmingCharacters(in: .whitespaces)
        guard s.hasPrefix("url("), let close = s.firstIndex(of: ")") else {
            log.add(.invalidValue, "marker=\"\(s.prefix(60))\"", "not a url(#id) reference; no marker drawn")
            return nil
        }
        var id = s[s.index(s.startIndex, offsetBy: 4)..<close].trimmingCharacters(in: .whitespaces)
        if id.hasPrefix("\"") || id.hasPrefix("'") { id = String(id.dropFirst().dropLast()) }
        guard id.hasPrefix("#") else {
            log.add(.externalReference, "marker=url(\(id.prefix(60)))", "markers outside the document are never fetched; not drawn")
            return nil
        }
        guard let el = ids[String(id.dropFirst())], el.name == "marker" else {
            log.add(.brokenReference, "marker=url(\(id.prefix(60)))", "no <marker> with that id; not drawn")
            return nil
        }
        return el
    }

    /// `orient` in radians, nil for `auto`; `auto-start-reverse` sets `reverse`.
    static func markerOrient(_ raw: String?) -> (angle: Double?, reverse: Bool) {
        guard let raw = raw?.trimmingCharacters(in: .whitespaces) else { return (0, false) }
        if raw == "auto" { return (nil, false) }
        if raw == "auto-start-reverse" { return (nil, true) }
        var sc = SVGScanner(raw)
        sc.skipSpaces()
        guard let v = sc.number(), v.isFinite else { return (0, false) }
        let unit = sc.word().lowercased()
        sc.skipSpaces()
        guard sc.atEnd else { return (0, false) }
        switch unit {
        case "", "deg": return (v * .pi / 180, false)
        case "rad": return (v, false)
        case "grad": return (v * .pi / 200, false)
        case "turn": return (v * 2 * .pi, false)
        default: return (0, false)
        }
    }

    /// One instance of `marker` at `v`, placed in the path's user space.
    func markerInstance(_ marker: SVGElement, at v: MarkerVertex, isStart: Bool, strokeWidth: Double)
        -> (layer: CALayer, extent: CGRect)? {
        // `display` does not apply to markers (SVG 1.1 §11.6.2): a marker in a display:none
        // subtree is still drawn where referenced.
        let mStyle = styleFromRoot(marker)
        let ctx = SVGShapeGeometry.Context(viewport: viewport, fontSize: mStyle.fontSize, log: log, limits: limits)
        let w = SVGShapeGeometry.length(marker, "markerWidth", .x, ctx, default: 3)
        let h = SVGShapeGeometry.length(marker, "markerHeight", .y, ctx, default: 3)
        guard w > 0, h > 0 else { return nil }
        let refX = SVGShapeGeometry.length(marker, "refX", .x, ctx)
        let refY = SVGShapeGeometry.length(marker, "refY", .y, ctx)
        // Content → viewport: the viewBox mapping (SVG 1.1 §7.8), else identity.
        var content = CGAffineTransform.identity
        var clip = CGRect(x: 0, y: 0, width: w, height: h)
        if let vb = SVGAspectRatio.viewBox(marker.attributes["viewBox"]) {
            let par = SVGAspectRatio.parse(marker.attributes["preserveAspectRatio"]) ?? SVGAspectRatio()
            content = par.transform(viewBox: vb, viewport: CGSize(width: w, height: h))
            clip = vb
        } else {
            // Without a viewBox the clip is the viewport in content units.
        }
        let refPoint = CGPoint(x: refX, y: refY).applying(content)
        let units = marker.attributes["markerUnits"] == "userSpaceOnUse" ? 1.0 : strokeWidth
        guard units > 0, units.isFinite else { return nil }
        let orient = Self.markerOrient(marker.attributes["orient"])
        var angle = orient.angle ?? v.angle
        if orient.reverse, isStart { angle += .pi }
        let m = content
            .concatenating(CGAffineTransform(translationX: -refPoint.x, y: -refPoint.y))
            .concatenating(CGAffineTransform(scaleX: units, y: units))
            .concatenating(CGAffineTransform(rotationAngle: angle))
            .concatenating(CGAffineTransform(translationX: v.point.x, y: v.point.y))
        // Percentages inside the marker refer to its viewport.
        let saved = viewport
        viewport = clip.size
        defer { viewport = saved }
        let key = ObjectIdentifier(marker)
        guard !active.contains(key) else { return nil }
        active.insert(key)
        defer { active.remove(key) }
        guard let g = group(marker.children, style: mStyle) else { return nil }
        SVGLayerPlacement.place(g.layer, rect: g.extent)
        var layer = g.layer
        var ext = g.extent
        let overflow = marker.attributes["overflow"] ?? "hidden"
        if overflow != "visible" && overflow != "auto" {
            let c = CALayer()
            c.masksToBounds = true
            SVGLayerPlacement.place(c, rect: clip)
            guard !g.extent.intersection(clip).isNull else { return nil }
            c.addSublayer(g.layer)
            layer = c
            ext = clip
        }
        if mStyle.opacity < 1 { layer = wrap(layer, ext); layer.opacity = Float(mStyle.opacity) }
        let placed = SVGLayerPlacement.place(layer, rect: ext, transform: m)
        return (layer, placed)
    }

    /// `paint-order` (SVG 2 §13.7.1): the order of fill, stroke and markers. `normal`, or up to
    /// three keywords with the missing ones following in their normal order; anything else is
    /// invalid and `normal` applies.
    static func paintOrder(_ raw: String) -> [String] {
        let normal = ["fill", "stroke", "markers"]
        let words = raw.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\n" }).map(String.init)
        guard words != ["normal"], !words.isEmpty, words.count <= 3,
              words.allSatisfy(normal.contains), Set(words).count == words.count else { return normal }
        return words + normal.filter { !words.contains($0) }
    }
}

extension SVGComputedStyle {
    /// Markers, paint order, `mix-blend-mode` and `isolation`; false when the value is invalid.
    mutating func applyPaintingExtras(_ name: String, _ v: String) -> Bool {
        func ref() -> String?? {
            if v == "none" { return .some(nil) }
            guard v.hasPrefix("url(") else { return nil }
            return .some(v)
        }
        switch name {
        case "marker-start": guard let r = ref() else { return false }; markerStart = r
        case "marker-mid": guard let r = ref() else { return false }; markerMid = r
        case "marker-end": guard let r = ref() else { return false }; markerEnd = r
        case "marker": guard let r = ref() else { return false }; markerStart = r; markerMid = r; markerEnd = r
        case "paint-order": paintOrder = v
        case "mix-blend-mode":
            guard SVGBlending.modes.contains(v) else { return false }
            blendMode = v
        case "isolation":
            switch v { case "auto": isolate = false; case "isolate": isolate = true; default: return false }
        case "transform":
            guard v == "none" || SVGTransformParser.parse(v) != nil else { return false }
            cssTransform = v
        default: return false
        }
        return true
    }
}

extension SVGBuilder {
    /// The shape's fill, stroke and markers in `paint-order`.
    func paintedWithMarkers(_ e: SVGElement, path: CGPath, style: SVGComputedStyle)
        -> (layer: CALayer, extent: CGRect, bbox: CGRect)? {
        paintOrdered(path, style: style, hasInterior: e.name != "line", markers: markerLayer(e, path: path, style: style))
    }

    /// Fill, stroke and the given markers layer in `paint-order` (text glyph runs come here too,
    /// without markers).
    func paintOrdered(_ path: CGPath, style: SVGComputedStyle, hasInterior: Bool, markers: (layer: CALayer, extent: CGRect)?)
        -> (layer: CALayer, extent: CGRect, bbox: CGRect)? {
        let order = Self.paintOrder(style.paintOrder)
        if markers == nil, order == ["fill", "stroke", "markers"] {
            return painted(path, style: style, hasInterior: hasInterior)
        }
        var pieces: [String: (layer: CALayer, extent: CGRect)] = [:]
        var bbox = path.boundingBoxOfPath
        // One layer paints fill then stroke; any other order (or markers between them) splits it.
        if order.firstIndex(of: "stroke")! != order.firstIndex(of: "fill")! + 1 {
            var fillOnly = style; fillOnly.stroke = .none
            var strokeOnly = style; strokeOnly.fill = .none
            if let f = painted(path, style: fillOnly, hasInterior: hasInterior), !f.extent.isNull {
                pieces["fill"] = (f.layer, f.extent); bbox = f.bbox
            }
            if let s = painted(path, style: strokeOnly, hasInterior: hasInterior), !s.extent.isNull {
                pieces["stroke"] = (s.layer, s.extent); bbox = s.bbox
            }
        } else if let p = painted(path, style: style, hasInterior: hasInterior) {
            bbox = p.bbox
            if !p.extent.isNull { pieces["fill"] = (p.layer, p.extent) }
        }
        if let markers { pieces["markers"] = markers }
        let holder = CALayer()
        var extent = CGRect.null
        for name in order {
            guard let p = pieces[name] else { continue }
            SVGLayerPlacement.place(p.layer, rect: p.extent)
            holder.addSublayer(p.layer)
            extent = extent.union(p.extent)
        }
        guard !extent.isNull else { return (CALayer(), .null, bbox) }
        return (holder, extent, bbox)
    }
}

/// The marker vertices of a path with their SVG 2 directions (radians), for the tests.
package enum SVGMarkerGeometry {
    package static func vertices(_ path: CGPath) -> [(CGPoint, Double)] {
        SVGBuilder.markerVertices(path).map { ($0.point, $0.angle) }
    }
}
