import CoreGraphics
import CoreAnimation
import CAFrame

/// Where a rasterised layer's bitmap is drawn, so that moving the layer reuses it.
///
/// Apple: "the layer is rendered as a bitmap in its local coordinate space and then composited
/// to the destination" (CALayer.shouldRasterize), and the bitmap is reused while the layer's
/// content does not change. The builder's instances are in frame pixels, so a layer drawn where
/// it now stands would hash differently after every move. Instead each rasterised occurrence
/// keeps an **anchor**: the world matrix it was last drawn at. While the layer's world matrix
/// differs from the anchor's only by a translation in frame pixels (`position`, `frame`, a
/// translating `transform`, a moving ancestor — the common "moving card" case), the subtree is
/// drawn at the anchor (the very same instances, so the same `contentHash`: a kept texture is a
/// hit, `RenderStats.rasterCacheHits`) and the bitmap is composited moved by that translation,
/// sampled bilinearly where the move is fractional, as Apple resamples its bitmap. A change
/// inside the subtree still changes the hash and redraws the bitmap.
///
/// The anchor moves to where the layer stands (the bitmap drawn in place, exactly as a plain
/// isolated layer) when the layer turns, scales or changes perspective, when its subtree did
/// not fit inside the pass at the anchor (part of it would be missing from the bitmap), and on
/// the frame after a redraw at the anchor (content changing while the layer moves is drawn in
/// place every other frame rather than always resampled). Only rasterised layers composited as
/// plain groups take this path: one that is also masked, filtered, blended or casts a shadow
/// from its pixels is drawn in place (`drawIsolated`).
extension RenderTreeBuilder {
    /// The world matrix one rasterised occurrence was drawn at, and what it drew there.
    struct RasterAnchor {
        var world: CATransform3D
        /// `contentHash` of the last frame drawn at this anchor; nil before the first.
        var hash: Int?
        /// The last frame drawn at this anchor hashed differently from the one before: the next
        /// frame re-anchors (draws in place).
        var changed = false
        /// The build that last used it (anchors of layers no longer drawn are dropped).
        var generation = 0
    }

    /// Whether `plan` composites the rasterised target as a plain group (no mask, filters,
    /// blend or pixel-cast shadow), the case whose bitmap can be composited moved.
    static func rasterCompositesPlainly(_ plan: CompositingPlan) -> Bool {
        plan.rasterize && plan.mask == nil && !plan.offscreenShadow && plan.filters.isEmpty
            && plan.backgroundFilters.isEmpty && plan.blend == nil
    }

    /// The translation in frame pixels `d` with `world = anchor · T(d)` (row vectors: `anchor`,
    /// then the pixel translation), nil when the two differ by anything else. Under a
    /// perspective the homogeneous x and y gain `d · w`, which is a move of exactly `d` pixels
    /// after the divide.
    static func pixelShift(from anchor: CATransform3D, to world: CATransform3D) -> SIMD2<Double>? {
        let a = matrixColumns(anchor), b = matrixColumns(world)
        // Columns 3 and 4 (z and w) are unchanged by a translation in x and y.
        let scale = max(1, (a.2 * a.2).sum(), (a.3 * a.3).sum(), (a.0 * a.0).sum(), (a.1 * a.1).sum()).squareRoot()
        let eps = 1e-9 * scale
        guard Self.close(a.2, b.2, eps), Self.close(a.3, b.3, eps) else { return nil }
        // Column 1 gains dx · column 4, column 2 gains dy · column 4: read d from the entry of
        // column 4 largest in magnitude, then check the whole columns.
        let w = a.3
        var k = 0
        for i in 1..<4 where abs(w[i]) > abs(w[k]) { k = i }
        guard abs(w[k]) > 1e-12 else { return nil }
        let dx = (b.0[k] - a.0[k]) / w[k], dy = (b.1[k] - a.1[k]) / w[k]
        guard dx.isFinite, dy.isFinite,
              Self.close(a.0 + dx * w, b.0, eps * max(1, abs(dx))), Self.close(a.1 + dy * w, b.1, eps * max(1, abs(dy))) else { return nil }
        return SIMD2(dx, dy)
    }

    private static func matrixColumns(_ m: CATransform3D) -> (SIMD4<Double>, SIMD4<Double>, SIMD4<Double>, SIMD4<Double>) {
        (SIMD4(Double(m.m11), Double(m.m21), Double(m.m31), Double(m.m41)),
         SIMD4(Double(m.m12), Double(m.m22), Double(m.m32), Double(m.m42)),
         SIMD4(Double(m.m13), Double(m.m23), Double(m.m33), Double(m.m43)),
         SIMD4(Double(m.m14), Double(m.m24), Double(m.m34), Double(m.m44)))
    }

    private static func close(_ a: SIMD4<Double>, _ b: SIMD4<Double>, _ eps: Double) -> Bool {
        let d = a - b
        return abs(d.x) <= eps && abs(d.y) <= eps && abs(d.z) <= eps && abs(d.w) <= eps
    }

    /// The key of the next occurrence of `layer` in this frame: a layer drawn twice in one frame
    /// (the pieces of a split plane, say) keeps a texture (and an anchor) per occurrence.
    func nextRasterKey(_ layer: CALayer) -> UInt64 {
        var key = UInt64(UInt(bitPattern: ObjectIdentifier(layer).hashValue)) | 1
        while !rasterKeys.insert(key).inserted { key = (key &+ 0x9E37_79B9_7F4A_7C16) | 1 }
        return key
    }

    /// A rasterised layer composited as a plain group (`rasterCompositesPlainly`): shadows cast
    /// without its pixels are drawn where it stands, its subtree into its kept target at the
    /// anchor, and the target composited moved to where the layer stands.
    func drawRasterizedPlainly(_ layer: CALayer, _ copy: CALayer, _ s: LayerState, world: CATransform3D, h: Homography,
                               _ ctx: Context, _ plan: CompositingPlan, lineage: Lineage, opacity: Float,
                               shadowClip: (Int32, Bool), transitions: Bool, claims: UInt32) {
        if let shadow = plan.shadow, let path = s.shadowPath {
            shadows.emitPath(shadow, path: path, h: h, clip: shadowClip.0, opacity: opacity, into: out)
        }
        if let shadow = plan.shadow, let (shape, alpha) = plan.impliedShadow {
            shadows.emitShape(shadow, shape: shape, h: h, clip: shadowClip.0, opacity: opacity * alpha, into: out)
        }
        let key = nextRasterKey(layer)
        var anchor = rasterAnchors[key] ?? RasterAnchor(world: world)
        var drawWorld = world
        var shift = SIMD2<Double>.zero
        var unclipped: CGRect? = nil
        var kept = false
        if anchor.hash != nil, !anchor.changed, let d = Self.pixelShift(from: anchor.world, to: world) {
            // Kept only while the subtree at the anchor lay wholly inside the pass (else part of
            // it was cut from the bitmap).
            if let b = subtreeBounds(layer, s, world: anchor.world, depth: ctx.depth, transitions: transitions, ownShadow: false),
               out.passRect.contains(FrameWriter.pixelAligned(b)) {
                drawWorld = anchor.world
                shift = d
                unclipped = b
                kept = true
            }
        }
        if !kept { anchor = RasterAnchor(world: world) }
        anchor.generation = rasterGeneration
        let drawH = kept ? Homography(drawWorld) : h
        var rect = unclipped ?? subtreeBounds(layer, s, world: world, depth: ctx.depth, transitions: transitions, ownShadow: false)
            ?? out.passRect
        rect = FrameWriter.pixelAligned(rect.intersection(out.passRect))
        guard !rect.isNull, rect.width >= 1, rect.height >= 1 else {
            rasterAnchors[key] = anchor
            return
        }
        let raster = beginRasterTarget(layer, s, rect: rect, h: drawH, key: key)
        drawLayer(layer, copy, s, world: drawWorld, h: drawH, clip: 0, opacity: 1, ctx: ctx, lineage: lineage, claims: claims)
        out.endOffscreen()
        finishRasterTarget(raster.id, start: raster.start, passes: raster.passes)
        if case .offscreen(let i) = raster.id {
            let hash = out.frame.targets[i].contentHash
            anchor.changed = anchor.hash.map { $0 != hash } ?? false
            anchor.hash = hash
        }
        rasterAnchors[key] = anchor
        out.appendComposite(source: raster.id, mask: nil, rect: raster.rect, opacity: opacity, clip: ctx.clip,
                            offset: CGSize(width: CGFloat(shift.x), height: CGFloat(shift.y)))
    }

    /// After a patch rehashed the rasterised targets: a changed hash is a redraw at the anchor.
    func noteRasterHashesAfterPatch() {
        for w in rasterWindows where w.target < out.frame.targets.count {
            let t = out.frame.targets[w.target]
            guard var a = rasterAnchors[t.cacheKey], let old = a.hash, old != t.contentHash else { continue }
            a.changed = true
            a.hash = t.contentHash
            rasterAnchors[t.cacheKey] = a
        }
    }

    /// Drops the anchors of occurrences the last build did not draw.
    func dropUnusedRasterAnchors() {
        guard !rasterAnchors.isEmpty else { return }
        rasterAnchors = rasterAnchors.filter { $0.value.generation == rasterGeneration }
    }
}
