// The gradient painters' four-pixel compositing, one lane a pixel (issue 19): source-over of
// four planar premultiplied colours onto four 32-bit pixels, mixed by coverage, stored with
// `BitmapSurface.store`'s rounding. The axial rows (AxialGradientRows.c) and the radial rows
// (CGContext+RadialGradientSpans.swift, which inlines these static functions) both composite
// through it, so the arithmetic exists once. Contraction into fused multiply-adds is off, as in
// the general loop they reproduce (a pragma in each function that computes: the header is also
// compiled into Swift callers).
#ifndef CA_GRADIENT_LANES_H
#define CA_GRADIENT_LANES_H

#include <stdint.h>
#include <string.h>
#include "CFloatLanes.h"

typedef uint32_t ca_uint4 __attribute__((ext_vector_type(4)));

/// Where a pixel's r, g, b and a bytes sit in its little-endian 32-bit word, as bit shifts.
typedef struct {
    uint32_t r, g, b, a;
} ca_channel_shifts;

/// Lanes of `a` where `m` is set (all ones), of `b` elsewhere: Swift's `replacing(with:where:)`.
static inline __attribute__((always_inline)) ca_float4 ca_lanes_select(ca_int4 m, ca_float4 a, ca_float4 b) {
    return (ca_float4)(((ca_int4)a & m) | ((ca_int4)b & ~m));
}

static inline __attribute__((always_inline)) ca_uint4 ca_lanes_select_words(ca_int4 m, ca_uint4 a, ca_uint4 b) {
    return (a & (ca_uint4)m) | (b & ~(ca_uint4)m);
}

static inline __attribute__((always_inline)) int ca_lanes_all(ca_int4 m) { return (m.x & m.y & m.z & m.w) != 0; }

/// ⌊v·255 + 0.5⌋ a lane, for v in 0 … 1 + a few ulps (0.5 … 255.5 before the floor; the store's
/// clamp to 0…1 changes no byte there: colours and coverage are in 0…1, the source is
/// premultiplied, and source-over and the coverage mix are convex).
static inline __attribute__((always_inline)) ca_uint4 ca_lanes_byte(ca_float4 v) {
#pragma clang fp contract(off)
    return (ca_uint4)ca_truncate4(v * 255.0f + 0.5f);
}

/// Four pixels' words from planar channels in 0…1.
static inline __attribute__((always_inline)) ca_uint4 ca_lanes_pack(ca_channel_shifts s, ca_float4 r, ca_float4 g, ca_float4 b,
                                                                     ca_float4 a) {
    return ca_lanes_byte(r) << s.r | ca_lanes_byte(g) << s.g | ca_lanes_byte(b) << s.b | ca_lanes_byte(a) << s.a;
}

/// The byte at `shift` of each word, as a float.
static inline __attribute__((always_inline)) ca_float4 ca_lanes_channel(ca_uint4 w, uint32_t shift) {
    return __builtin_convertvector((w >> shift) & 0xFFu, ca_float4);
}

/// Four pixels' new words from their old ones: source-over, mixed by coverage; pixels the clip
/// leaves out (coverage ≤ 0) keep their bytes.
static inline __attribute__((always_inline)) ca_uint4 ca_lanes_blend(ca_channel_shifts s, ca_uint4 old, ca_float4 sr, ca_float4 sg,
                                                                      ca_float4 sb, ca_float4 sa, ca_float4 cov) {
#pragma clang fp contract(off)
    const ca_int4 full = cov >= 1.0f;
    const float k = 1.0f / 255.0f;
    const ca_float4 dr = ca_lanes_channel(old, s.r) * k, dg = ca_lanes_channel(old, s.g) * k;
    const ca_float4 db = ca_lanes_channel(old, s.b) * k, da = ca_lanes_channel(old, s.a) * k;
    const ca_float4 keep = 1.0f - sa;
    const ca_float4 rr = sr + dr * keep, rg = sg + dg * keep, rb = sb + db * keep, ra = sa + da * keep;
    const ca_uint4 out = ca_lanes_pack(s, ca_lanes_select(full, rr, dr + (rr - dr) * cov),
                                       ca_lanes_select(full, rg, dg + (rg - dg) * cov),
                                       ca_lanes_select(full, rb, db + (rb - db) * cov),
                                       ca_lanes_select(full, ra, da + (ra - da) * cov));
    return ca_lanes_select_words(cov <= 0.0f, old, out);
}

/// Four pixels from `p`: an opaque source over full coverage is stored as it is (D·(1 − 1) adds
/// 0), anything else blended.
static inline __attribute__((always_inline)) void ca_lanes_paint4(ca_channel_shifts s, uint8_t *p, ca_float4 sr, ca_float4 sg,
                                                                   ca_float4 sb, ca_float4 sa, ca_float4 cov) {
    ca_uint4 w;
    if (ca_lanes_all(cov >= 1.0f) && ca_lanes_all(sa >= 1.0f)) {
        w = ca_lanes_pack(s, sr, sg, sb, sa);
    } else {
        memcpy(&w, p, 16);
        w = ca_lanes_blend(s, w, sr, sg, sb, sa, cov);
    }
    memcpy(p, &w, 16);
}

/// Pixels p … p + m − 1 (m from 1 to 4), lane i's colour the source of pixel i, its coverage
/// `coverage[i]` (NULL: 1). A group of fewer than four reads and writes only its own pixels (the
/// ones past a row may belong to another context), its lanes built and taken apart by constant
/// index: a loop with a variable lane index went through the stack, a store-forwarding stall a
/// lane (a sixth of the axial gradient frame). Lanes past m are 0.
static inline __attribute__((always_inline)) void ca_lanes_paint_group(ca_channel_shifts s, uint8_t *p, long m, ca_float4 sr,
                                                                        ca_float4 sg, ca_float4 sb, ca_float4 sa,
                                                                        const float *coverage) {
    if (m >= 4) {
        ca_float4 cov = { 1, 1, 1, 1 };
        if (coverage) memcpy(&cov, coverage, 16);
        ca_lanes_paint4(s, p, sr, sg, sb, sa, cov);
        return;
    }
    uint32_t w0 = 0, w1 = 0, w2 = 0;
    memcpy(&w0, p, 4);
    const float v0 = coverage ? coverage[0] : 1;
    float v1 = 0, v2 = 0;
    if (m > 1) { memcpy(&w1, p + 4, 4); v1 = coverage ? coverage[1] : 1; }
    if (m > 2) { memcpy(&w2, p + 8, 4); v2 = coverage ? coverage[2] : 1; }
    const ca_uint4 old = { w0, w1, w2, 0 };
    const ca_float4 cov = { v0, v1, v2, 0 };
    const ca_uint4 out = ca_lanes_blend(s, old, sr, sg, sb, sa, cov);
    w0 = out.x; w1 = out.y; w2 = out.z;
    memcpy(p, &w0, 4);
    if (m > 1) memcpy(p + 4, &w1, 4);
    if (m > 2) memcpy(p + 8, &w2, 4);
}

#endif
