// Radial gradients composited four pixels at a time (issue 19's drawing speed). A radial
// shading's parameter is not affine along a row, so each pixel still solves its quadratic
// (`RadialShading.color(at:)`, the general loop's own function, with the user-space point stepped
// along the row instead of mapped through the inverse CTM per pixel); what the lanes save is the
// general painter's full-coverage mask, its two closures a pixel and its per-channel loads and
// stores: source-over, the coverage mix and the store's rounding run in `GradientLanes`, one
// lane a pixel, as for axial gradients (CGContext+GradientSpans.swift).

extension CGContext {
    /// Paints a radial shading over the drawable box when the state allows the lanes (normal
    /// blend mode, no shadow, a 32-bit target with an alpha byte); false (nothing painted)
    /// otherwise. The CTM is invertible (`drawRadialGradient` has checked).
    package func paintRadialGradientSpans(_ shading: RadialShading) -> Bool {
        let st = gstate
        guard usesSpanLoops, st.blendMode == .normal, st.shadow == nil || st.shadow!.color.w <= 0,
              case .rgba32(let ro, let go, let bo, let ao?) = target.layout else { return false }
        let inv = st.ctm.inverted()
        let surface = target
        let box = drawableBox.intersection(PixelBox(x0: 0, y0: 0, x1: surface.width, y1: surface.height))
        guard !box.isEmpty else { return true }
        let inverse = (Double(inv.a), Double(inv.b), Double(inv.c), Double(inv.d), Double(inv.tx), Double(inv.ty))
        let H = Double(height)
        switch (ro, go, bo, ao) {
        case (0, 1, 2, 3):
            RadialRows<RGBAOrder>(shading: shading, alpha: st.alpha, box: box, height: H, inverse: inverse).paint(surface, clip: st.clip)
        case (3, 2, 1, 0):
            RadialRows<ABGROrder>(shading: shading, alpha: st.alpha, box: box, height: H, inverse: inverse).paint(surface, clip: st.clip)
        case (2, 1, 0, 3):
            RadialRows<BGRAOrder>(shading: shading, alpha: st.alpha, box: box, height: H, inverse: inverse).paint(surface, clip: st.clip)
        case (1, 2, 3, 0):
            RadialRows<ARGBOrder>(shading: shading, alpha: st.alpha, box: box, height: H, inverse: inverse).paint(surface, clip: st.clip)
        default: return false
        }
        return true
    }
}

/// The rows of a radial span fill: pixel k of row y is user point `start(y) + k·step`.
private struct RadialRows<Order: GradientByteOrder> {
    let shading: RadialShading
    let alpha: Float
    let box: PixelBox
    let height: Double
    let inverse: (a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double)

    func paint(_ surface: BitmapSurface, clip: ClipMask?) {
        let lanes = GradientLanes<Order>()
        let n = box.x1 - box.x0
        let m = inverse
        let step = SIMD2(m.a, m.b)
        (clip?.values ?? []).withUnsafeBufferPointer { cv in
            for y in box.y0..<box.y1 {
                // The user point of the row's first pixel centre, as `rasterToUser` maps it.
                let px = Double(box.x0) + 0.5, py = height - (Double(y) + 0.5)
                let start = SIMD2(m.a * px + m.c * py + m.tx, m.b * px + m.d * py + m.ty)
                let row = surface.base + y * surface.bytesPerRow + box.x0 * 4
                let clipRow = clip.map { cv.baseAddress! + (y - $0.box.y0) * ($0.box.x1 - $0.box.x0) + (box.x0 - $0.box.x0) }
                var k = 0
                while k < n {
                    let count = min(4, n - k)
                    // Groups the clip leaves out whole cost nothing.
                    if let clipRow, count == 4, UnsafeRawPointer(clipRow + k).loadUnaligned(as: SIMD4<Float>.self) == .zero {
                        k += 4
                        continue
                    }
                    lanes.paintPixels(row, from: k, count: count, clip: clipRow) { shading.color(at: start + Double($0) * step) * alpha }
                    k += count
                }
            }
        }
    }
}
