// A solid fill's row walk in C (issue 19's drawing speed): `CGContext.fillSolidSpans` on 32-bit
// pixels, with or without a clip. The Swift loop it stands in for spent ~500
// instructions a row of the 10,000-rounded-rect frame around ~40 of pixel work (captured state
// reloaded, overflow checks, a closure call a run); this is the same walk and the same
// arithmetic — the rasteriser's running sums, `CoverageRasterizer.coverage(winding:evenOdd:)`,
// `SolidSpanWriter`'s stores, tables, integer kernels and float blend, operation for operation
// and without fused multiply-adds — so every byte is the Swift loop's.
#ifndef CA_SOLID_SPAN_WALK_H
#define CA_SOLID_SPAN_WALK_H

#include <stdint.h>
#include "CPixelKernels.h"
#include "ClipMask.h"
#include "CCoverage.h"
#include "RasterRows.h"

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
    /// Whether rows may be read eight cells at a time in AVX2 (`chunkRow`): the context takes
    /// the wide loops (`CGContext.widePixelLoops`), whatever the kernel.
    int32_t wideRows;
    const ca_full_blend *lanes;
    uint64_t m, even, odd;
    /// The 1,024-entry full-coverage table (channels r, g, b, a), or NULL.
    const uint8_t *table;
    /// Byte offsets of r, g, b and a in a pixel; `ao` −1 for a pixel without an alpha byte
    /// (its fourth byte is left as it is).
    int32_t ro, go, bo, ao;
    /// The colour × 255 in channel order (r, g, b, a: `s255`), and its opaque bytes r, g, b
    /// (`solid`), for pixels without an alpha byte.
    float s255Channels[4];
    uint8_t solid[3];
} ca_solid_paint;

/// Coverage at or below which a pixel is left as it is: the float blend's byte,
/// ⌊D·(1 − Sα·c) + S·c + 0.5⌋ with D and S in 0…255, moves D by c·|S − D·Sα| ≤ 255·c < 0.25
/// before the +0.5 (the float rounding adds ~10⁻⁵), so its floor is D: skipping such a run
/// gives the same bytes. Runs like that are the rasteriser's float noise: where an edge's
/// pieces should cancel, the running sum is ±10⁻⁷ rather than 0, and the rest of a row then
/// held a run of "coverage" 10⁻⁷ that was blended pixel by pixel (3 million pixels of each
/// 1,000-star frame, 17 % of its time). `CGContextSpanParityTests` checks the bound.
#define CA_NEGLIGIBLE_COVERAGE 0.0009765625f /* 2⁻¹⁰ */

/// Paints the rasteriser's rows, whose cell (0, 0) is pixel (boxX0, boxY0) of the bitmap at
/// `base` (`bytesPerRow` a row), with `paint`, inside the pixels [clipX0, clipX1) × [clipY0,
/// clipY1) (the bitmap cut to the box), each pixel's coverage times `mask`'s where there is
/// one (NULL: none); every row is taken, leaving every cell, bit and `written` byte clear.
/// Pixel rows four below the one being painted are prefetched (a shape's rows lie a bitmap row
/// apart, which the hardware prefetcher does not follow; four rows ahead measured 1.6 % faster
/// than two on the 10,000-rect frame).
void ca_solid_walk(const ca_raster_rows *rows, uint8_t *base, long bytesPerRow, long boxX0, long boxY0,
                   long clipX0, long clipY0, long clipX1, long clipY1, const ca_solid_paint *paint,
                   const ca_clip_mask *mask);

/// `FullCoverageBlend.apply`: `count` pixels from `p` (any alignment) through the kernel of
/// `lanes` and its 64-bit constants `m`, `even`, `odd`, eight at a time through
/// `ca_full_blend_run` when `wide` (and the CPU has AVX2), four at a time, or one at a time:
/// the same bytes every way. The walk's full-coverage runs take it.
void ca_full_blend_apply(void *p, long count, const ca_full_blend *lanes, uint64_t m, uint64_t even, uint64_t odd, int wide);

#endif
