// Transparency layers (CGContextBeginTransparencyLayer / …WithRect / EndTransparencyLayer).
// Apple: until the layer ends, drawing goes to a fully transparent offscreen buffer; the global
// alpha, blend mode and shadow are reset to their defaults inside it (alpha 1, normal, none);
// at the end the buffer is composited as one image with the alpha, blend mode, shadow and clip
// in force when the layer began. The graphics state is saved at begin and restored at end.

/// One open layer: its pixels (premultiplied RGBA8, the size of the bitmap) and the state it
/// began with.
package final class TransparencyLayer {
    package let surface: BitmapSurface
    package let savedState: GState
    package let box: PixelBox

    init(width: Int, height: Int, savedState: GState, box: PixelBox) {
        let bytes = width * height * 4
        let base = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 16)
        base.initializeMemory(as: UInt8.self, repeating: 0, count: bytes)
        surface = BitmapSurface(base: base, width: width, height: height, bytesPerRow: width * 4, layout: .premultipliedRGBA)
        self.savedState = savedState
        self.box = box
    }

    func free() { surface.base.deallocate() }
}

extension CGContext {
    /// Nested layers beyond this depth are not opened: their drawing goes to the innermost open
    /// layer (a warning says so). Each layer holds a bitmap-sized buffer, so without a bound a
    /// runaway loop of begins would exhaust memory.
    package static let maxTransparencyLayers = 32
    /// Open layers together hold at most this many bytes (1 GiB) beyond the first one: each
    /// layer is a bitmap-sized buffer, so a big bitmap allows fewer nested layers.
    package static let maxLayerBytes = 1 << 30

    /// Begins a transparency layer over the whole clip (CGContextBeginTransparencyLayer).
    /// `auxiliaryInfo` is accepted and unused, as on Apple (it is reserved there).
    public func beginTransparencyLayer(auxiliaryInfo: CFDictionary?) {
        beginLayer(box: drawableBox, clipRect: nil)
    }

    /// Begins a transparency layer limited to `rect` (user space) (CGContextBeginTransparency-
    /// LayerWithRect): drawing inside is clipped to the rect's device bounds.
    public func beginTransparencyLayer(in rect: CGRect, auxiliaryInfo: CFDictionary?) {
        let device = rect.applying(gstate.ctm)
        guard !device.isNull, device.minX.isFinite, device.minY.isFinite, device.maxX.isFinite, device.maxY.isFinite else {
            beginLayer(box: PixelBox(x0: 0, y0: 0, x1: 0, y1: 0), clipRect: PixelBox(x0: 0, y0: 0, x1: 0, y1: 0))
            return
        }
        let h = Double(height)
        let box = PixelBox(covering: SIMD2(Double(device.minX), h - Double(device.maxY)),
                           SIMD2(Double(device.maxX), h - Double(device.minY))).intersection(drawableBox)
        beginLayer(box: box, clipRect: box)
    }

    private func beginLayer(box: PixelBox, clipRect: PixelBox?) {
        let layerBytes = width * height * 4
        if layers.count >= Self.maxTransparencyLayers || (!layers.isEmpty && (layers.count + 1) * layerBytes > Self.maxLayerBytes) {
            CGDiagnostics.warnOnce("CGContext.beginTransparencyLayer: more than \(Self.maxTransparencyLayers) nested layers (or 1 GiB of them); deeper ones draw into the innermost open layer")
            unopenedLayers &+= 1
            saveGState()
            return
        }
        let layer = TransparencyLayer(width: width, height: height, savedState: gstate, box: box)
        layers.append(layer)
        gstate.alpha = 1
        gstate.blendMode = .normal
        gstate.shadow = nil
        if let r = clipRect {
            let (w, h) = (max(0, r.x1 - r.x0), max(0, r.y1 - r.y0))
            let full = CoverageMask(x0: r.x0, y0: r.y0, width: w, height: h, values: [Float](repeating: 1, count: w * h),
                                    fullRuns: CoverageMask.wholeRows(width: w, height: h))
            intersectClip(full.width > 0 && full.height > 0 ? full : nil)
        }
    }

    /// Ends the innermost transparency layer and composites it (CGContextEndTransparencyLayer).
    /// Without an open layer the call is ignored with a warning.
    public func endTransparencyLayer() {
        if unopenedLayers > 0 {
            unopenedLayers -= 1
            restoreGState()
            return
        }
        guard let layer = layers.popLast() else {
            CGDiagnostics.warnOnce("CGContext.endTransparencyLayer(): no transparency layer to end; ignored")
            return
        }
        defer { layer.free() }
        gstate = layer.savedState
        let s = layer.surface
        paint(.shader { x, y in s.load(x, y) }) { fullCoverage(layer.box, in: $0) }
    }
}
