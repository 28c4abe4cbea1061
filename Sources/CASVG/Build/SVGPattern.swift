import Foundation

/// `<pattern>` paint (SVG 1.1 §13.3) as layers: the pattern's children are built once into a
/// tile layer clipped to the tile, repeated across the painted area by two nested
/// `CAReplicatorLayer`s (one per axis), in a container carrying `patternTransform`, masked by the
/// fill or stroke shape, as gradient paints are.
///
/// - `patternUnits` (default objectBoundingBox) place the tile x/y/width/height;
///   `patternContentUnits` (default userSpaceOnUse), or a `viewBox` with `preserveAspectRatio`,
///   map the content into the tile, whose origin is the tile's top-left corner.
/// - Attributes and children come through the `href` chain (cycle-safe, at most 32 links).
/// - The content's style inherits from the pattern's ancestors. A pattern used inside its own
///   content paints nothing there (the cycle is cut).
/// - More than `maxTiles` tiles over the painted area are reported and paint nothing.
extension SVGBuilder {
    static let maxPatternTiles = 16_384

    /// The pattern element's attributes through its href chain.
    func patternChain(_ el: SVGElement) -> [SVGElement] {
        var chain = [el]
        var seen: Set<ObjectIdentifier> = [ObjectIdentifier(el)]
        while let href = chain.last!.attributes["href"], href.hasPrefix("#"), chain.count < 32,
              let next = ids[String(href.dropFirst())], next.name == "pattern" {
            guard seen.insert(ObjectIdentifier(next)).inserted else { break }
            chain.append(next)
        }
        return chain
    }

    /// The layer that paints `el` over `extent` (user space of the painted element), or nil when
    /// it paints nothing.
    func patternLayer(_ el: SVGElement, bbox: CGRect, extent: CGRect) -> CALayer? {
        let key = ObjectIdentifier(el)
        guard !active.contains(key) else {
            log.add(.brokenReference, "<pattern>", "used inside its own content; that use paints nothing")
            return nil
        }
        let chain = patternChain(el)
        func attr(_ n: String) -> String? { chain.lazy.compactMap { $0.attributes[n] }.first }
        let obbUnits = attr("patternUnits") != "userSpaceOnUse"
        let obbContent = attr("patternContentUnits") == "objectBoundingBox"
        if obbUnits || obbContent, !(bbox.width > 0 && bbox.height > 0) { return nil }
        func len(_ n: String, _ axis: SVGLength.Axis) -> Double {
            // A missing x/y is 0 in the pattern's units (the bounding box's corner for objectBoundingBox).
            let l = attr(n).flatMap(SVGLength.parse) ?? SVGLength.zero
            if obbUnits {
                let v = l.unit == .percent ? l.value / 100 : l.resolve(axis, viewport: viewport)
                return axis == .x ? bbox.minX + v * bbox.width : bbox.minY + v * bbox.height
            }
            return l.resolve(axis, viewport: viewport)
        }
        func size(_ n: String, _ axis: SVGLength.Axis) -> Double {
            guard let raw = attr(n), let l = SVGLength.parse(raw) else { return 0 }
            if obbUnits {
                let v = l.unit == .percent ? l.value / 100 : l.resolve(axis, viewport: viewport)
                return v * (axis == .x ? bbox.width : bbox.height)
            }
            return l.resolve(axis, viewport: viewport)
        }
        let tile = CGRect(x: len("x", .x), y: len("y", .y), width: size("width", .x), height: size("height", .y))
        guard tile.width > 0, tile.height > 0, tile.width.isFinite, tile.height.isFinite else { return nil }
        var patternTransform = CGAffineTransform.identity
        if let t = attr("patternTransform") {
            if let m = SVGTransformParser.parse(t) { patternTransform = m }
            else { log.add(.invalidValue, "patternTransform=\"\(t.prefix(60))\"", "does not parse; ignored") }
        }
        // SVG 2's transform-origin applies to patternTransform too.
        if let o = attr("transform-origin"), let origin = transformOrigin(o) {
            patternTransform = CGAffineTransform(translationX: -origin.x, y: -origin.y).concatenating(patternTransform)
                .concatenating(CGAffineTransform(translationX: origin.x, y: origin.y))
        }
        guard SVGLayerPlacement.determinant(patternTransform) != 0 else { return nil }
        var content = CGAffineTransform.identity
        if let vb = SVGAspectRatio.viewBox(attr("viewBox")) {
            let par = SVGAspectRatio.parse(attr("preserveAspectRatio")) ?? SVGAspectRatio()
            content = par.transform(viewBox: vb, viewport: tile.size)
        } else if obbContent {
            content = CGAffineTransform(scaleX: bbox.width, y: bbox.height)
        }
        // The painted area in pattern space, and the tiles that cover it.
        let area = SVGLayerPlacement.boundingBox(extent, patternTransform.inverted())
        let i0 = ((area.minX - tile.minX) / tile.width).rounded(.down)
        let i1 = ((area.maxX - tile.minX) / tile.width).rounded(.up)
        let j0 = ((area.minY - tile.minY) / tile.height).rounded(.down)
        let j1 = ((area.maxY - tile.minY) / tile.height).rounded(.up)
        let nx = i1 - i0, ny = j1 - j0
        guard nx.isFinite, ny.isFinite, nx >= 1, ny >= 1 else { return nil }
        guard nx * ny <= Double(Self.maxPatternTiles) else {
            log.add(.limitReached, "<pattern> tiles", "more than \(Self.maxPatternTiles) tiles over the painted area; not painted")
            return nil
        }
        // The content: children of the first pattern in the chain that has element children.
        let holderEl = chain.first { $0.children.contains { $0.name != SVGElement.textNodeName } } ?? el
        active.insert(key)
        defer { active.remove(key) }
        let saved = viewport
        if let vb = SVGAspectRatio.viewBox(attr("viewBox")) { viewport = vb.size }
        defer { viewport = saved }
        let style = styleFromRoot(holderEl)
        guard let g = group(holderEl.children, style: style) else { return nil }
        let tileLayer = CALayer()
        tileLayer.masksToBounds = true
        let grid = CGRect(x: tile.minX + i0 * tile.width, y: tile.minY + j0 * tile.height,
                          width: nx * tile.width, height: ny * tile.height)
        SVGLayerPlacement.place(tileLayer, rect: CGRect(origin: .zero, size: tile.size),
                                transform: CGAffineTransform(translationX: grid.minX, y: grid.minY))
        SVGLayerPlacement.place(g.layer, rect: g.extent, transform: content)
        tileLayer.addSublayer(g.layer)
        let row = CAReplicatorLayer()
        SVGLayerPlacement.place(row, rect: grid)
        row.instanceCount = Int(nx)
        row.instanceTransform = CATransform3DMakeTranslation(tile.width, 0, 0)
        row.addSublayer(tileLayer)
        let columns = CAReplicatorLayer()
        SVGLayerPlacement.place(columns, rect: grid)
        columns.instanceCount = Int(ny)
        columns.instanceTransform = CATransform3DMakeTranslation(0, tile.height, 0)
        columns.addSublayer(row)
        let container = CALayer()
        container.addSublayer(columns)
        SVGLayerPlacement.place(container, rect: grid, transform: patternTransform)
        let holder = CALayer()
        SVGLayerPlacement.place(holder, rect: extent)
        holder.addSublayer(container)
        return holder
    }

    /// A pattern-painted fill or stroke: the pattern layer masked by the shape.
    func patternPiece(_ el: SVGElement, path: CGPath, style: SVGComputedStyle, isStroke: Bool, width: Double,
                      bbox: CGRect, extent: CGRect) -> CALayer? {
        guard let holder = patternLayer(el, bbox: bbox, extent: extent) else { return nil }
        holder.mask = paintMask(path: path, style: style, isStroke: isStroke, width: width, rect: extent)
        let opacity = isStroke ? style.strokeOpacity : style.fillOpacity
        if opacity < 1 { holder.opacity = Float(opacity) }
        return holder
    }
}
