// Radial gradients composited four pixels at a time (issue 19's drawing speed). A radial
// shading's parameter is not affine along a row, so each pixel still solves its quadratic
// (`RadialShading.color(at:)`, the general loop's own function, with the user-space point stepped
// along the row instead of mapped through the inverse CTM per pixel); what the lanes save is the
// general painter's full-coverage mask, its two closures a pixel and its per-channel loads and
// stores: source-over, the coverage mix and the store's rounding run in `CPixelKernels`'
// GradientLanes.h, one lane a pixel, as for axial gradients (AxialGradientRows.c).

import CPixelKernels

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
        RadialRows(shading: shading, alpha: st.alpha, box: box, height: H, inverse: inverse,
                   shifts: ca_channel_shifts(ro: ro, go: go, bo: bo, ao: ao)).paint(surface, clip: st.clip)
        return true
    }
}

/// The rows of a radial span fill: pixel k of row y is user point `start(y) + k·step`.
private struct RadialRows {
    let shading: RadialShading
    let alpha: Float
    let box: PixelBox
    let height: Double
    let inverse: (a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double)
    let shifts: ca_channel_shifts

    func paint(_ surface: BitmapSurface, clip: ClipMask?) {
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
                    // Pixel i's colour, or clear past the group (the lanes' zero padding).
                    func source(_ i: Int) -> SIMD4<Float> { i < count ? shading.color(at: start + Double(k + i) * step) * alpha : .zero }
                    let s0 = source(0), s1 = source(1), s2 = source(2), s3 = source(3)
                    ca_lanes_paint_group(shifts, row.assumingMemoryBound(to: UInt8.self) + k * 4, count,
                                         SIMD4(s0.x, s1.x, s2.x, s3.x), SIMD4(s0.y, s1.y, s2.y, s3.y),
                                         SIMD4(s0.z, s1.z, s2.z, s3.z), SIMD4(s0.w, s1.w, s2.w, s3.w), clipRow.map { $0 + k })
                    k += count
                }
            }
        }
    }
}
