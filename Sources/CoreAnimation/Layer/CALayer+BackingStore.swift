// The default `display()`'s drawing: a backing store the layer draws itself into with
// `draw(in:)`, whose image becomes `contents` (docs/BEHAVIOUR.md P2–P6; Apple: CALayer
// `display()`, `draw(in:)`, `contentsScale`, `contentsFormat`, `isOpaque`,
// `contentsAreFlipped()`, `setNeedsDisplay(_:)`).

/// What the default `display()` last drew: the image it set as `contents` and the geometry it
/// was drawn for. A dirty-rect redraw starts from these pixels when the layer still shows this
/// image at the same size; the renderer keeps drawn images out of its image atlas.
package struct BackingStore {
    package let image: CGImage
    let bounds: CGRect
    let scale: CGFloat
    let flipped: Bool
    let opaque: Bool
    let gray: Bool
}

extension CALayer {
    /// The largest backing store side, in pixels (the renderer's `CARenderer.maxPixelSize`, and
    /// GL's usual texture limit): a larger layer is not drawn (P6).
    package static let maxBackingStoreSide = 16_384
    /// The largest backing store, in bytes (256 MiB, a 8192 × 8192 RGBA bitmap): a layer asking
    /// for more is not drawn, with a warning, instead of exhausting memory (P6).
    package static let maxBackingStoreBytes = 1 << 28

    /// The default `display()` without a displaying delegate (P2): `layerWillDraw(_:)`, then a
    /// bitmap of `bounds.size × contentsScale` pixels (rounded up) in `contentsFormat`, cleared
    /// to transparent (opaque black when `isOpaque`), its CTM mapping the layer's own coordinates
    /// with the origin at the top left and y down (iOS's convention; the other way round when
    /// `contentsAreFlipped()`), clipped to the dirty rectangle; then `draw(in:)`, and the image
    /// becomes `contents`, set without an implicit animation (as Core Animation's own update of
    /// the backing store is not a property change that runs actions).
    ///
    /// Drawing is synchronous, on the committing thread, also when `drawsAsynchronously` is set
    /// (Apple then queues the drawing commands to run in the background; the pixels are the
    /// same).
    package func drawIntoBackingStore() {
        delegate?.layerWillDraw(self)
        let s = state
        let dirty = dirtyRect
        dirtyRect = .null
        let b = s.bounds.standardized
        let scale = s.contentsScale
        let fw = (b.width * scale).rounded(.up), fh = (b.height * scale).rounded(.up)
        // An empty layer has nothing to draw: no backing store, no contents.
        guard fw >= 1, fh >= 1 else { return setDrawnContents(nil, store: nil) }
        let maxSide = CGFloat(Self.maxBackingStoreSide)
        guard fw <= maxSide, fh <= maxSide, fw * fh * 4 <= CGFloat(Self.maxBackingStoreBytes) else {
            Diagnostics.warnOnce("CALayer.display(): a backing store of \(fw)×\(fh) pixels (bounds \(b.size) × contentsScale \(scale)) exceeds the limit of \(Self.maxBackingStoreSide) pixels a side and \(Self.maxBackingStoreBytes >> 20) MiB; the layer is not drawn and its contents are cleared")
            return setDrawnContents(nil, store: nil)
        }
        let w = Int(fw), h = Int(fh)
        let flipped = contentsAreFlipped()
        let gray = s.contentsFormat == .gray8Uint
        if s.contentsFormat == .RGBA16Float {
            Diagnostics.warnOnce("CALayer.contentsFormat RGBA16Float: drawn in 8-bit RGBA (images here store 8 bits per component)")
        }
        guard let ctx = Self.makeBackingContext(width: w, height: h, opaque: s.isOpaque, gray: gray) else {
            Diagnostics.warnOnce("CALayer.display(): no bitmap context of \(w)×\(h) pixels could be made; the layer is not drawn")
            return
        }
        // Device-pixel rectangle to redraw: all of it, or the dirty rectangle rounded out to
        // whole pixels when the last drawing can be kept around it.
        var redraw = CGRect(x: 0, y: 0, width: w, height: h)
        let previous = backingStore.flatMap { st -> CGImage? in
            guard (s.contents as AnyObject?) === st.image, st.image.width == w, st.image.height == h,
                  st.bounds == b, st.scale == scale, st.flipped == flipped, st.opaque == s.isOpaque,
                  st.gray == gray, !gray else { return nil }
            return st.image
        }
        if let previous, !dirty.isNull, !dirty.isInfinite {
            let r = dirty.intersection(b)
            // Nothing of the layer asked: keep the drawing as it is.
            guard !r.isNull, r.width > 0, r.height > 0 else { return }
            let x0 = ((r.minX - b.minX) * scale).rounded(.down), x1 = ((r.maxX - b.minX) * scale).rounded(.up)
            let y0 = ((r.minY - b.minY) * scale).rounded(.down), y1 = ((r.maxY - b.minY) * scale).rounded(.up)
            // Rows counted from the top of the bitmap: y down in the layer unless flipped.
            let top = flipped ? fh - y1 : y0
            redraw = CGRect(x: x0, y: top, width: x1 - x0, height: y1 - y0)
            Self.copyPixels(of: previous, into: ctx, except: redraw)
        }
        if s.isOpaque, !gray {
            // An opaque layer's store has no alpha: what is not drawn shows black.
            Self.fillOpaqueBlack(ctx, redraw)
        }
        // Layer coordinates → device: scale by contentsScale, y down from the top unless the
        // contents are flipped (then y up from the bottom, as Apple's context "will have been
        // y-flipped" relative to the default).
        if flipped {
            ctx.scaleBy(x: scale, y: scale)
        } else {
            ctx.translateBy(x: 0, y: fh)
            ctx.scaleBy(x: scale, y: -scale)
        }
        ctx.translateBy(x: -b.minX, y: -b.minY)
        if redraw.width < fw || redraw.height < fh {
            // The redraw area in layer coordinates (pixel-aligned), as the clip.
            let ly = flipped ? (fh - redraw.maxY) : redraw.minY
            ctx.clip(to: CGRect(x: b.minX + redraw.minX / scale, y: b.minY + ly / scale,
                                width: redraw.width / scale, height: redraw.height / scale))
        }
        ctx.saveGState()
        draw(in: ctx)
        ctx.restoreGState()
        guard let image = ctx.makeImage() else { return }
        setDrawnContents(image, store: BackingStore(image: image, bounds: b, scale: scale, flipped: flipped,
                                                    opaque: s.isOpaque, gray: gray))
    }

    /// A zeroed bitmap context: premultiplied RGBA (RGBX for an opaque layer, as Apple's opaque
    /// backing stores have no alpha), or 8-bit gray for `gray8Uint`.
    static func makeBackingContext(width w: Int, height h: Int, opaque: Bool, gray: Bool) -> CGContext? {
        if gray {
            return CGContext(data: nil, width: w, height: h, bitsPerComponent: 8, bytesPerRow: 0,
                             space: CGColorSpaceCreateDeviceGray(), bitmapInfo: CGImageAlphaInfo.none.rawValue)
        }
        let alpha: CGImageAlphaInfo = opaque ? .noneSkipLast : .premultipliedLast
        return CGContext(data: nil, width: w, height: h, bitsPerComponent: 8, bytesPerRow: 0,
                         space: CGColorSpaceCreateDeviceRGB(), bitmapInfo: alpha.rawValue)
    }

    /// Starts a partial redraw from the last drawing: its pixels everywhere but `hole` (device
    /// pixels, rows from the top), which stays zero for the new drawing. Both are 4 bytes a pixel,
    /// R, G, B, A/X in memory (`CGImage`'s storage and the context made above).
    static func copyPixels(of image: CGImage, into ctx: CGContext, except hole: CGRect) {
        guard let dst = ctx.data else { return }
        let w = image.width, rowBytes = w * 4, stride = ctx.bytesPerRow
        let hx0 = Int(hole.minX), hx1 = Int(hole.maxX), hy0 = Int(hole.minY), hy1 = Int(hole.maxY)
        image.withUnsafeRGBA8Bytes { src in
            guard let base = src.baseAddress else { return }
            for y in 0..<image.height {
                let d = dst.advanced(by: y * stride), s = base.advanced(by: y * rowBytes)
                if y < hy0 || y >= hy1 {
                    d.copyMemory(from: s, byteCount: rowBytes)
                } else {
                    if hx0 > 0 { d.copyMemory(from: s, byteCount: hx0 * 4) }
                    if hx1 < w { d.advanced(by: hx1 * 4).copyMemory(from: s.advanced(by: hx1 * 4), byteCount: (w - hx1) * 4) }
                }
            }
        }
    }

    /// Opaque black in `rect` (device pixels, rows from the top) of an RGBX context: the
    /// padding byte set, so the image reads alpha 255 there whatever the context's own rule.
    static func fillOpaqueBlack(_ ctx: CGContext, _ rect: CGRect) {
        guard let dst = ctx.data else { return }
        for y in Int(rect.minY)..<Int(rect.maxY) {
            let row = dst.advanced(by: y * ctx.bytesPerRow).assumingMemoryBound(to: UInt8.self)
            for x in Int(rect.minX)..<Int(rect.maxX) {
                row[x * 4] = 0; row[x * 4 + 1] = 0; row[x * 4 + 2] = 0; row[x * 4 + 3] = 255
            }
        }
    }

    /// Sets `contents` to a drawn image as part of the open transaction, without running the
    /// `contents` action (a presentation copy just takes it).
    func setDrawnContents(_ image: CGImage?, store: BackingStore?) {
        backingStore = store
        if isPresentationCopy { state.contents = image; return }
        if let old = state.contents as AnyObject?, let new = image, old === new { return }
        if state.contents == nil, image == nil { return }
        _ = layerWillChange("contents")
        state.contents = image
        layerDidChange("contents", runAction: false)
    }
}
