// Wide pixel loops for CoreGraphics' span painters (issue 19's drawing speed), compiled for
// AVX2 and chosen at run time: the Swift modules are built for baseline x86-64 (SSE2), where
// a loop runs four 32-bit pixels at a time; on a CPU with AVX2 these run eight. Each kernel does
// exactly the arithmetic of the four-lane loop it stands in for (Swift, or AxialGradientRows.c's
// C for the axial run), lane for lane (the same operations in the same order, no fused
// multiply-add), so the bytes do not depend on the CPU; the four-lane loop stays the path
// everywhere else (`ca_pixel_kernels_wide()` false: other CPUs, other architectures).
#ifndef CPIXELKERNELS_H
#define CPIXELKERNELS_H

#include <stdint.h>
#include <stddef.h>
#include <math.h>

/// Whether the kernels below run here (x86-64 with AVX2). When false they do nothing: the
/// loops return their start, the table is left unwritten, the search reports no constants.
int ca_pixel_kernels_wide(void);

/// One piece of an axial gradient between two opaque stops, with no context alpha, as a row
/// crosses it: each channel's byte before rounding, v·255 + 0.5, is affine in the pixel index
/// along the row, so pixel k's is `value + (k − anchor)·step`, in 8.24 fixed point (the step in
/// two's complement, the arithmetic modulo 2³²: exact, so it comes out the same however the
/// pixels are grouped, eight or four at a time or one), its byte the top eight bits. The value
/// and step are the exact ones (in double) rounded to 2⁻²⁴, at pixel `anchor`
/// (AxialGradientRows.c), so a byte is off only where v sits within ~10⁻⁴ of a whole number
/// (within 2⁻²⁵ a pixel of the step, times the pixels from the anchor). Integer steps take a
/// fifth fewer operations an eight than float ones did (an add, two shifts and an or a channel,
/// against a multiply, an add, a conversion, a shift and an or). `l0` and `l1` are the stops'
/// locations.
typedef struct {
    float l0, l1;
    long anchor;
    uint32_t valueR, valueG, valueB;
    uint32_t stepR, stepG, stepB;
    uint32_t shiftR, shiftG, shiftB;
    uint32_t alphaWord;
} ca_axial_piece;

/// v in 8.24 fixed point, rounded to the nearest 2⁻²⁴, modulo 2³² (so a negative step is its
/// two's complement). One conversion on x86-64, whose out-of-range result (a step so large that
/// only offset 0 ever meets it) is harmless; elsewhere held within ±2⁶² first.
static inline __attribute__((always_inline)) uint32_t ca_fixed_8_24(double v) {
#if defined(__x86_64__)
    return (uint32_t)(uint64_t)__builtin_ia32_cvtsd2si64((__attribute__((vector_size(16))) double){ v * 16777216.0, 0 });
#else
    double x = v * 16777216.0;
    if (!(x > -4.0e18)) x = -4.0e18;
    if (x > 4.0e18) x = 4.0e18;
    return (uint32_t)(uint64_t)llrint(x);
#endif
}

/// Paints pixels of `row` from `k` (< `n`) in `piece`, eight at a time, each byte the top
/// eight bits of value + (k − anchor)·step, for as long as the last pixel of the next eight lies strictly
/// between the stops (t = t0 + k·dt, rounded to float; where that ends is found once, by
/// bisection: t is monotonic along a row); the caller has found pixels k … k + 3 in the piece.
/// Returns where it stopped: k itself when the first eight do not qualify (or the CPU has no
/// AVX2), the caller's four-pixel lanes then painting those four.
long ca_axial_opaque_run(uint32_t *row, long k, long n, double t0, double dt, const ca_axial_piece *piece);

/// Pixels 0 … n − 1 of `row` (n ≥ 8), each byte the top eight bits of value + (k − anchor)·step,
/// eight at a time: the clip walk's runs, which it has found
/// inside one piece. Returns n, or 0 (nothing painted) when the CPU has no AVX2 or n < 8.
long ca_axial_affine_store(uint32_t *row, long n, const ca_axial_piece *piece);

/// Eight 16-bit lanes (Swift's SIMD8<UInt16>).
typedef uint16_t ca_u16x8 __attribute__((ext_vector_type(8)));

/// A translucent colour's full-coverage blend as `FullCoverageBlend` (CGContext+SolidSpans.swift)
/// holds it: per 16-bit lane D' = (D·mh + bh + ((D·ml + bl) >> 8)) >> 8, memory bytes 0 and 2 of
/// each pixel in the even lanes' pair, bytes 1 and 3 in the odd. When `oneMultiply` is set the
/// same bytes also come out of one multiply a lane: D' = ((D·256·m) >> 16 + b1) >> 8 with m in
/// every lane of `m1` (below 65536) and b1 = b / 256 of each byte (`b1Even`, `b1Odd`), which
/// holds when every b is a multiple of 256 (⌊(⌊x/256⌋ + b1)/256⌋ = ⌊(x + 256·b1)/65536⌋).
typedef struct {
    ca_u16x8 mh, ml, bhEven, blEven, bhOdd, blOdd;
    ca_u16x8 m1, b1Even, b1Odd;
    int32_t oneMultiply;
} ca_full_blend;

/// `FullCoverageBlend.apply` for runs of at least eight pixels (32-bit, any alignment; shorter
/// runs are left alone): eight at a time, a run whose length is not a multiple of eight ending with one more eight-pixel step
/// over its last eight computed from their bytes as they were before the run.
void ca_full_blend_run(void *p, long count, const ca_full_blend *blend);

/// `ca_full_blend_run` on `rows` rows of `count` pixels (at least eight), `bytesPerRow` apart,
/// the kernel's constants loaded once, pixels four rows below prefetched; nothing without AVX2.
void ca_full_blend_column(void *p, long bytesPerRow, long rows, long count, const ca_full_blend *blend);

/// `SolidSpanWriter`'s table: for each channel c (r, g, b, a) and byte D, ⌊(D·keep + s[c]) + 0.5⌋
/// in float arithmetic, at out[256·c + D].
void ca_solid_table(const float s[4], float keep, uint8_t out[1024]);

/// `FullCoverageBlend`'s search: the first m of m0, m0 − 1, m0 + 1, … m0 ± 4 (within 0…65536)
/// for which every channel c has a b with ⌊(D·m + b) / 65536⌋ = table[256·c + D] for every D,
/// b the least such (and at least 0). Returns 1 with m and b (in channel order), else 0; and in
/// `b256` the least such b that is a multiple of 256, over 256, for each channel (−1 where the
/// channel has none).
int ca_full_blend_search(const uint8_t table[1024], long m0, long *m, long b[4], long b256[4]);

/// The solid fill walk, the gradients' lanes and the axial and radial gradient rows (their own
/// headers).
#include "SolidSpanWalk.h"
#include "GradientLanes.h"
#include "AxialGradientRows.h"
#include "RadialGradientRows.h"

#endif
