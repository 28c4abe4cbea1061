import CoreGraphics

// CATiledLayer's tiles (issue 19): which tiles a view of the layer needs, at which level of
// detail, drawn through `draw(in:)` one tile at a time and kept per level until invalidated.
// Apple: CATiledLayer ("a layer that provides a way to asynchronously provide tiles of the
// layer's content, potentially cached at multiple levels of detail"), `tileSize`,
// `levelsOfDetail`, `levelsOfDetailBias`; docs/BEHAVIOUR.md P8–P11.

/// One tile of a `CATiledLayer` at one level of detail: its column and row in the level's grid.
package struct TileKey: Hashable, Sendable {
    /// log2 of the level's scale: 0 is the layer's own resolution, -1 half of it, 1 twice it.
    package var level: Int
    package var column: Int
    package var row: Int
}

/// A tile ready to draw: where it lies in the layer's coordinates and its pixels.
package struct DrawnTile {
    package var key: TileKey
    /// The tile's rectangle in the layer's own coordinates (the last row and column are cut to
    /// the bounds).
    package var rect: CGRect
    /// Device pixels per layer point in `image`.
    package var density: CGFloat
    package var image: CGImage
}

/// The tiles a `CATiledLayer` has drawn, per level, and the geometry they were drawn for: a
/// change of bounds, tile size, contents scale or flip throws them all away.
package struct TileStore {
    struct Geometry: Equatable {
        var bounds: CGRect
        var tileSize: CGSize
        var contentsScale: CGFloat
        var flipped: Bool
    }
    var geometry: Geometry?
    var tiles: [TileKey: CGImage] = [:]
    var bytes = 0
    /// Tiles drawn since the layer was made (tests read it: reuse draws none).
    package var drawCount = 0
}

extension CATiledLayer {
    /// Most tiles one view of a layer may need; beyond it the tile size is doubled (with a
    /// warning) until the view needs no more: a 1×1-pixel `tileSize` over a large layer must not
    /// make millions of bitmaps in one frame (docs/BEHAVIOUR.md P11).
    package static let maxTilesPerView = 1024
    /// Bytes of tiles kept per layer (64 MiB); past it, tiles the last view did not use go first.
    package static let maxCachedTileBytes = 64 << 20
    /// Largest tile side in pixels (a larger `tileSize` is drawn in tiles of this side).
    package static let maxTileSide = 4096

    /// The level of detail (log2 of its scale) for content shown at `onScreenScale` device
    /// pixels per layer point: the coarsest level whose pixels are at least as fine as the
    /// screen's, among the `levelsOfDetail` levels that `levelsOfDetailBias` shifts up
    /// (levels 2^bias, 2^(bias−1) … 2^(bias−levelsOfDetail+1); Apple's `levelsOfDetailBias`:
    /// "the number of magnified levels of detail"). A level's scale multiplies `contentsScale`.
    package static func level(onScreenScale s: CGFloat, contentsScale: CGFloat, levelsOfDetail: Int, bias: Int) -> Int {
        let lod = min(max(levelsOfDetail, 1), 64), b = min(max(bias, 0), 64)
        let finest = b, coarsest = b - lod + 1
        let cs = contentsScale > 0 && contentsScale.isFinite ? contentsScale : 1
        guard s.isFinite, s > 0 else { return finest }
        // A small tolerance so 0.5 exactly selects the half level.
        let wanted = Int((log2(Double(s / cs)) - 1e-9).rounded(.up))
        return min(max(wanted, coarsest), finest)
    }

    /// The tiles that cover `visible` (a rectangle in the layer's coordinates; the part of the
    /// layer inside the render target and its clipping ancestors) at the level `onScreenScale`
    /// needs: each key with its rectangle (cut to the bounds) and the level's pixel density.
    /// Uses the render copy's values (`state` of `values`), so an animated bounds is honoured.
    package func tileRequests(visible: CGRect, onScreenScale s: CGFloat, values: CATiledLayer? = nil)
        -> (keys: [(TileKey, CGRect)], density: CGFloat, tile: CGSize) {
        let v = values ?? self
        let b = v.state.bounds.standardized
        let cs = v.state.contentsScale > 0 && v.state.contentsScale.isFinite ? v.state.contentsScale : 1
        let level = Self.level(onScreenScale: s, contentsScale: cs, levelsOfDetail: v.tiled.levelsOfDetail,
                               bias: v.tiled.levelsOfDetailBias)
        let density = cs * CGFloat(pow(2.0, Double(level)))
        let side = CGFloat(Self.maxTileSide)
        var tile = CGSize(width: min(max(v.tiled.tileSize.width.rounded(), 1), side) / density,
                          height: min(max(v.tiled.tileSize.height.rounded(), 1), side) / density)
        let r = visible.standardized.intersection(b)
        guard !r.isNull, r.width > 0, r.height > 0, b.isFiniteRect, tile.width > 0, tile.height > 0 else {
            return ([], density, tile)
        }
        func span(_ lo: CGFloat, _ hi: CGFloat, _ origin: CGFloat, _ step: CGFloat) -> (Int, Int) {
            // Saturated, then kept within ±2⁴⁰ so the counts below cannot overflow.
            let lim = 1 << 40
            let a = min(max(Int.clamped(((lo - origin) / step).rounded(.down)), -lim), lim)
            let z = min(max(Int.clamped(((hi - origin) / step).rounded(.up)), -lim), lim) - 1
            return (a, max(a, z))
        }
        var cols = span(r.minX, r.maxX, b.minX, tile.width), rows = span(r.minY, r.maxY, b.minY, tile.height)
        var warned = false
        while (cols.1 - cols.0 + 1).multipliedReportingOverflow(by: rows.1 - rows.0 + 1).partialValue > Self.maxTilesPerView
                || (cols.1 - cols.0) > Self.maxTilesPerView || (rows.1 - rows.0) > Self.maxTilesPerView {
            if !warned {
                warned = true
                Diagnostics.warnOnce("CATiledLayer: tileSize \(v.tiled.tileSize) would need more than \(Self.maxTilesPerView) tiles for one view; tiles are drawn larger (doubled until they fit)")
            }
            tile = CGSize(width: tile.width * 2, height: tile.height * 2)
            cols = span(r.minX, r.maxX, b.minX, tile.width); rows = span(r.minY, r.maxY, b.minY, tile.height)
        }
        var keys: [(TileKey, CGRect)] = []
        keys.reserveCapacity((cols.1 - cols.0 + 1) * (rows.1 - rows.0 + 1))
        for row in rows.0...rows.1 {
            for col in cols.0...cols.1 {
                let rect = CGRect(x: b.minX + CGFloat(col) * tile.width, y: b.minY + CGFloat(row) * tile.height,
                                  width: tile.width, height: tile.height).intersection(b)
                guard !rect.isNull, rect.width > 0, rect.height > 0 else { continue }
                keys.append((TileKey(level: level, column: col, row: row), rect))
            }
        }
        return (keys, density, tile)
    }

    /// The tiles of one view, drawn where not cached (P9): each missing tile gets a bitmap of its
    /// rectangle × the level's density, cleared, its CTM mapping the layer's coordinates as the
    /// default `display()`'s does (origin top-left, y down, unless `contentsAreFlipped()`) and
    /// scaled to the level, clipped to the tile (`boundingBoxOfClipPath` is the tile's rectangle),
    /// then `draw(in:)` (the delegate's `draw(_:in:)` by default). Drawing is synchronous on the
    /// rendering thread, so every frame shows all the tiles it needs (deterministic offscreen and
    /// in the window alike: no tile arrives late, so none fades in; `fadeDuration()` is accepted
    /// and unused, docs/DIFFERENCES.md).
    package func tilesForView(visible: CGRect, onScreenScale s: CGFloat, values: CATiledLayer? = nil) -> [DrawnTile] {
        let v = values ?? self
        let flipped = contentsAreFlipped()
        let geometry = TileStore.Geometry(bounds: v.state.bounds.standardized, tileSize: v.tiled.tileSize,
                                          contentsScale: v.state.contentsScale, flipped: flipped)
        if tileStore.geometry != geometry {
            tileStore.tiles.removeAll()
            tileStore.bytes = 0
            tileStore.geometry = geometry
        }
        let req = tileRequests(visible: visible, onScreenScale: s, values: v)
        var out: [DrawnTile] = []
        out.reserveCapacity(req.keys.count)
        for (key, rect) in req.keys {
            if let image = tileStore.tiles[key] {
                out.append(DrawnTile(key: key, rect: rect, density: req.density, image: image))
                continue
            }
            guard let image = drawTile(rect, density: req.density, flipped: flipped, opaque: v.state.isOpaque) else { continue }
            tileStore.tiles[key] = image
            tileStore.bytes += image.width * image.height * 4
            tileStore.drawCount += 1
            out.append(DrawnTile(key: key, rect: rect, density: req.density, image: image))
        }
        if tileStore.bytes > Self.maxCachedTileBytes {
            let used = Set(out.map(\.key))
            for (k, img) in tileStore.tiles where !used.contains(k) {
                tileStore.tiles[k] = nil
                tileStore.bytes -= img.width * img.height * 4
            }
        }
        return out
    }

    /// Draws one tile (see `tilesForView`).
    func drawTile(_ rect: CGRect, density d: CGFloat, flipped: Bool, opaque: Bool) -> CGImage? {
        let w = Int.clamped((rect.width * d - 1e-6).rounded(.up)), h = Int.clamped((rect.height * d - 1e-6).rounded(.up))
        guard w >= 1, h >= 1, w <= Self.maxTileSide, h <= Self.maxTileSide,
              let ctx = Self.makeBackingContext(width: w, height: h, opaque: opaque, gray: false) else { return nil }
        if opaque { Self.fillOpaqueBlack(ctx, CGRect(x: 0, y: 0, width: w, height: h)) }
        if flipped {
            // y up: the tile's max-y edge at the bitmap's top row.
            ctx.translateBy(x: 0, y: CGFloat(h))
            ctx.scaleBy(x: d, y: d)
            ctx.translateBy(x: -rect.minX, y: -rect.maxY)
        } else {
            // y down: the tile's min-y edge at the bitmap's top row.
            ctx.translateBy(x: 0, y: CGFloat(h))
            ctx.scaleBy(x: d, y: -d)
            ctx.translateBy(x: -rect.minX, y: -rect.minY)
        }
        ctx.clip(to: rect)
        ctx.saveGState()
        draw(in: ctx)
        ctx.restoreGState()
        return ctx.makeImage()
    }

    /// Throws away the tiles that meet `rect` (the layer's coordinates; `.infinite` for all), at
    /// every level, and logs the layer in the open transaction so the next frame redraws them
    /// (P10; Apple's `setNeedsDisplay(_:)` on a tiled layer invalidates those tiles).
    package func invalidateTiles(in rect: CGRect) {
        guard !isPresentationCopy else { return }
        if rect.isInfinite || tileStore.geometry == nil {
            tileStore.tiles.removeAll()
            tileStore.bytes = 0
        } else {
            let g = tileStore.geometry!
            for (k, img) in tileStore.tiles {
                let d = g.contentsScale * CGFloat(pow(2.0, Double(k.level)))
                // The tile's own rectangle at its level (the size it was drawn with).
                let tw = CGFloat(img.width) / d, th = CGFloat(img.height) / d
                let fullW = min(max(g.tileSize.width.rounded(), 1), CGFloat(Self.maxTileSide)) / d
                let fullH = min(max(g.tileSize.height.rounded(), 1), CGFloat(Self.maxTileSide)) / d
                let r = CGRect(x: g.bounds.minX + CGFloat(k.column) * fullW, y: g.bounds.minY + CGFloat(k.row) * fullH,
                               width: max(tw, fullW), height: max(th, fullH))
                if r.intersects(rect) {
                    tileStore.tiles[k] = nil
                    tileStore.bytes -= img.width * img.height * 4
                }
            }
        }
        TransactionStack.current.touch(self)
    }

    /// The tiles drawn so far (extension for tests and tools: how many `draw(in:)` calls the
    /// tiles cost; cached tiles are not drawn again).
    package var tilesDrawn: Int { tileStore.drawCount }
}
