// An axial gradient's rows in C (issue 19's drawing speed): `CGContext.paintLinearGradientSpans`
// on 32-bit pixels with an alpha byte, with or without a clip. In Swift the rows under a clip
// (a card's rounded corners, a gradient clipped to a shape: the idiom Apple's API has for a
// gradient-filled path) cost ~85 ns a row around the pixel work — closures, a generic lane type,
// retains of the gradient — 40 % of the 200-gradient-rect frame. This is the loop it replaced
// (Swift's `AxialStops.paintRow`, removed) with `CGGradient.color(at:)`'s arithmetic, compositing
// through GradientLanes.h (the Swift lanes' arithmetic, which the radial rows share), operation
// for operation in the same precision and without fused multiply-adds. One thing differs: where
// a row crosses a piece between opaque stops at context alpha 1 (most of a typical gradient's
// pixels), each channel's value is stepped along the row (in 8.24 fixed point) from the exact one
// at the piece's first group instead of found from t per pixel; a byte then differs from the
// per-pixel loop's only where the value sits within ~10⁻⁴ of a rounding boundary
// (CGGradientSpanTests compares with the general loop and with exact colours,
// CGContextWideKernelTests the eight-pixel run with the four-lane loop).
#ifndef CA_AXIAL_GRADIENT_ROWS_H
#define CA_AXIAL_GRADIENT_ROWS_H

#include <stdint.h>
#include "ClipMask.h"
#include "GradientLanes.h"
#include "RasterRows.h"

/// A gradient as the rows read it: `count` (≥ 1) stops, their locations and straight
/// (unpremultiplied) colours r, g, b, a; the context alpha; whether the end colours extend
/// before the start and after the end; where r, g, b and a sit in the 32-bit pixel word;
/// `wide`: opaque unclipped pieces through `ca_axial_opaque_run`.
typedef struct {
    const float *locations;
    const float *colors;
    long count;
    float alpha;
    int32_t before, after;
    ca_channel_shifts shifts;
    int32_t wide;
} ca_axial_ramp;

/// The raster-to-gradient map: the inverse CTM (a, b, c, d, tx, ty), the bitmap height, the
/// axis start (sx, sy), its vector (dx, dy) and squared length, and t's step from one pixel to
/// the next along a row (`dt`).
typedef struct {
    double a, b, c, d, tx, ty;
    double height;
    double sx, sy, dx, dy, len2;
    double dt;
} ca_axial_axis;

/// Paints the gradient over the pixels [x0, x1) × [y0, y1) of the bitmap at `base`
/// (`bytesPerRow` a row), source-over, each pixel's coverage `clip`'s (NULL: none; the box lies
/// inside the clip's box).
void ca_axial_rows(uint8_t *base, long bytesPerRow, long x0, long y0, long x1, long y1, const ca_axial_ramp *ramp,
                   const ca_axial_axis *axis, const ca_clip_mask *clip);

/// Paints the gradient through a clip path's coverage: the rasteriser's rows (cell (0, 0) is
/// pixel (boxX0, boxY0)) read as runs of equal coverage (`ca_solid_walk`'s reading), inside
/// [clipX0, clipX1) × [clipY0, clipY1), each run's pixels at its coverage, source-over; every
/// row is taken, leaving every cell, bit and `written` byte clear. No coverage mask is made: a
/// gradient clipped to a path is what Apple's API has for a gradient-filled shape, and resolving
/// the clip into a float a pixel and reading it back was a fifth of the 200 clipped gradient
/// rects' frame. A run is cut where its piece of the ramp changes (found by bisection: t is
/// monotonic along a row); within a piece between opaque stops at context alpha 1 each
/// channel's v·255 + 0.5 is affine in the pixel's column and row, so a run's colours come from
/// three multiply-adds at its first pixel and a step (stored eight at a time at full coverage,
/// blended at its coverage otherwise), and the rows that share one held-back run (a rounded
/// rect's sides) find their piece once for all of them. Other pieces are painted as
/// `ca_axial_rows` paints a row. The bytes are the resolved clip's but where a value sits on a
/// rounding boundary (CGClipPathWalkTests: within a level, on fewer than 1 pixel in 2,000).
void ca_axial_walk(const ca_raster_rows *rows, uint8_t *base, long bytesPerRow, long boxX0, long boxY0, long clipX0,
                   long clipY0, long clipX1, long clipY1, const ca_axial_ramp *ramp, const ca_axial_axis *axis);

#endif
