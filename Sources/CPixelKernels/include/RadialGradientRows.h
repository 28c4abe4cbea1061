// A radial gradient's rows in C (issue 19's drawing speed): `CGContext.paintRadialGradientSpans`
// on 32-bit pixels with an alpha byte, with or without a clip. A radial shading's parameter is
// not affine along a row, so each pixel still solves its quadratic; in Swift
// (`RadialShading.color(at:)` per pixel through generic SIMD types) the 200 radial rects' frame
// took 42 ms. This is the same loop — the user point stepped along the row, the quadratic's
// larger root tried first, `CGGradient.color(at:)`, compositing through GradientLanes.h — in the
// same double and float operations, so its bytes are the Swift loop's (and the general loop's,
// which calls the same `RadialShading`), without fused multiply-adds.
#ifndef CA_RADIAL_GRADIENT_ROWS_H
#define CA_RADIAL_GRADIENT_ROWS_H

#include <stdint.h>
#include "ClipMask.h"
#include "AxialGradientRows.h"

/// `RadialShading` in user space and the raster-to-user map: the start centre c0, the vector
/// to the end centre cd, the start radius r0 and the radius change dr, the quadratic's leading
/// coefficient a = |cd|² − dr² and its reciprocal; the inverse CTM (a … ty) and the bitmap
/// height.
typedef struct {
    double c0x, c0y, cdx, cdy, r0, dr, a, inverseA;
    double ia, ib, ic, id, itx, ity;
    double height;
} ca_radial_shading;

/// Paints the shading over the pixels [x0, x1) × [y0, y1) of the bitmap at `base`
/// (`bytesPerRow` a row), source-over, each pixel's coverage `clip`'s (NULL: none; the box lies
/// inside the clip's box), the ramp's colours and context alpha (`ramp`'s `wide` unused).
void ca_radial_rows(uint8_t *base, long bytesPerRow, long x0, long y0, long x1, long y1, const ca_axial_ramp *ramp,
                    const ca_radial_shading *shading, const ca_clip_mask *clip);

#endif
