// Radial gradients composited four pixels at a time (issue 19's drawing speed). A radial
// shading's parameter is not affine along a row, so each pixel still solves its quadratic; the
// rows are C (`CPixelKernels`' RadialGradientRows.h): `RadialShading.color(at:)`'s arithmetic
// with the user-space point stepped along the row instead of mapped through the inverse CTM per
// pixel, source-over, the coverage mix and the store's rounding through GradientLanes.h, one
// lane a pixel, as for axial gradients (AxialGradientRows.c). In Swift, through generic SIMD
// types a pixel, the same loop took 42 ms for the 200 radial rects' frame.

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
        var g = ca_radial_shading(c0x: shading.c0.x, c0y: shading.c0.y, cdx: shading.cd.x, cdy: shading.cd.y, r0: shading.r0,
                                  dr: shading.dr, a: shading.a, inverseA: shading.inverseA, ia: Double(inv.a), ib: Double(inv.b),
                                  ic: Double(inv.c), id: Double(inv.d), itx: Double(inv.tx), ity: Double(inv.ty),
                                  height: Double(height))
        let pixels = surface.base.assumingMemoryBound(to: UInt8.self)
        shading.gradient.withRamp(alpha: st.alpha, before: shading.before, after: shading.after,
                                  shifts: ca_channel_shifts(ro: ro, go: go, bo: bo, ao: ao), wide: widePixelLoops) { ramp in
            guard let clip = st.clip else {
                ca_radial_rows(pixels, surface.bytesPerRow, box.x0, box.y0, box.x1, box.y1, &ramp, &g, nil)
                return
            }
            clip.values.withUnsafeBufferPointer { values in
                var mask = ca_clip_mask(values: values.baseAddress, x0: clip.box.x0, y0: clip.box.y0, x1: clip.box.x1,
                                        y1: clip.box.y1, fullRuns: nil)
                ca_radial_rows(pixels, surface.bytesPerRow, box.x0, box.y0, box.x1, box.y1, &ramp, &g, &mask)
            }
        }
        return true
    }
}
