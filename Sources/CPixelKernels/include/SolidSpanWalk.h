// A solid fill's row walk in C (issue 19's drawing speed): `CGContext.fillSolidSpans` with no
// clip, on 32-bit pixels with an alpha byte. The Swift loop it stands in for spent ~500
// instructions a row of the 10,000-rounded-rect frame around ~40 of pixel work (captured state
// reloaded, overflow checks, a closure call a run); this is the same walk and the same
// arithmetic — the rasteriser's running sums, `CoverageRasterizer.coverage(winding:evenOdd:)`,
// `SolidSpanWriter`'s stores, tables, integer kernels and float blend, operation for operation
// and without fused multiply-adds — so every byte is the Swift loop's.
#ifndef CA_SOLID_SPAN_WALK_H
#define CA_SOLID_SPAN_WALK_H

#include <stdint.h>
#include "CPixelKernels.h"

/// A `SolidSpanWriter` as the walk reads it.
typedef struct {
    /// The colour × 255 in the pixel's memory byte order (`s255Bytes`), and its alpha.
    float s255[4];
    float sa;
    /// The opaque colour as a 32-bit word in memory order, for alpha ≥ 1 (`opaque`).
    uint32_t word;
    int32_t opaque;
    /// `FullCoverageBlend`: whether there is one, whether runs of eight or more take the AVX2
    /// loop (`wide`), its lanes and its 64-bit constants.
    int32_t hasKernel;
    int32_t wide;
    const ca_full_blend *lanes;
    uint64_t m, even, odd;
    /// The 1,024-entry full-coverage table (channels r, g, b, a), or NULL.
    const uint8_t *table;
    /// Byte offsets of r, g, b and a in a pixel.
    int32_t ro, go, bo, ao;
} ca_solid_paint;

/// A rasteriser's rows (`CoverageRasterizer`): row j's cells from `cells + j·stride`, its
/// touched bits from `bits + j·words`; `width` cells a row, `height` rows.
typedef struct {
    float *cells;
    uint64_t *bits;
    long stride, words, width, height;
    int32_t evenOdd;
} ca_raster_rows;

/// Paints the rasteriser's rows, whose cell (0, 0) is pixel (boxX0, boxY0) of the bitmap at
/// `base` (`bytesPerRow` a row), with `paint`, inside the pixels [clipX0, clipX1) × [clipY0,
/// clipY1) (the bitmap cut to the box); every row is taken, leaving every cell and bit clear.
/// Pixel rows two below the one being painted are prefetched.
void ca_solid_walk(const ca_raster_rows *rows, uint8_t *base, long bytesPerRow, long boxX0, long boxY0,
                   long clipX0, long clipY0, long clipX1, long clipY1, const ca_solid_paint *paint);

#endif
