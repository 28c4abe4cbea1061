// See include/AxialGradientRows.h. Baseline x86-64 (SSE2) code like the Swift loops it replaces,
// four pixels a group in clang's vector lanes; opaque unclipped pieces go to
// `ca_axial_opaque_run` (AVX2 where the CPU has it, as the Swift loop's did). Contraction into
// fused multiply-adds is off, as in the Swift loops.
#include "AxialGradientRows.h"
#include "CPixelKernels.h"
#include "CFloatLanes.h"
#include <string.h>

#pragma clang fp contract(off)

static inline __attribute__((always_inline)) ca_float4 splat(float v) { return (ca_float4){ v, v, v, v }; }

/// Stop i's straight colour.
static inline __attribute__((always_inline)) ca_float4 stopColor(const ca_axial_ramp *r, long i) {
    const float *c = r->colors + 4 * i;
    return (ca_float4){ c[0], c[1], c[2], c[3] };
}

/// `CGGradient.color(at:)`: the premultiplied colour at t, clamped to the first and last stops.
static inline __attribute__((always_inline)) ca_float4 colorAt(const ca_axial_ramp *r, float t) {
    const float *loc = r->locations;
    const long n = r->count;
    ca_float4 s;
    if (t <= loc[0] || n < 2) {
        s = stopColor(r, t <= loc[0] ? 0 : n - 1);
    } else if (t >= loc[n - 1]) {
        s = stopColor(r, n - 1);
    } else {
        long i = 1;
        while (i < n - 1 && loc[i] < t) i++;
        const float l0 = loc[i - 1], l1 = loc[i];
        const float f = l1 > l0 ? (t - l0) * (1 / (l1 - l0)) : 1;
        const ca_float4 c0 = stopColor(r, i - 1), c1 = stopColor(r, i);
        s = c0 + (c1 - c0) * f;
    }
    return (ca_float4){ s.x * s.w, s.y * s.w, s.z * s.w, s.w };
}

/// `AxialRamp.source`: the premultiplied colour times the context alpha at t (clear past an end
/// the options leave unpainted).
static inline __attribute__((always_inline)) ca_float4 source(const ca_axial_ramp *r, double t) {
    if (t < 0 && !r->before) return splat(0);
    if (t > 1 && !r->after) return splat(0);
    return colorAt(r, (float)t) * r->alpha;
}

/// Which piece of the ramp t falls in (the Swift `AxialStops.piece` this replaced): 0 at or before the first stop, the stop count at or after the last, i
/// between stops i − 1 and i; −1 before the start and −2 after the end where unpainted.
static inline __attribute__((always_inline)) long piece(const ca_axial_ramp *r, double t) {
    if (t < 0 && !r->before) return -1;
    if (t > 1 && !r->after) return -2;
    const float f = (float)t;
    const float *loc = r->locations;
    const long n = r->count;
    if (f <= loc[0]) return 0;
    if (f >= loc[n - 1] || n < 2) return n;
    long i = 1;
    while (i < n - 1 && loc[i] < f) i++;
    return i;
}

static inline __attribute__((always_inline)) ca_uint4 packOpaque(const ca_axial_ramp *r, ca_float4 cr, ca_float4 cg, ca_float4 cb) {
    const ca_channel_shifts s = r->shifts;
    return ca_lanes_byte(cr) << s.r | ca_lanes_byte(cg) << s.g | ca_lanes_byte(cb) << s.b | (ca_uint4)(0xFFu << s.a);
}

static inline __attribute__((always_inline)) ca_float4 coverage4(const float *clip, long k) {
    if (!clip) return splat(1);
    ca_float4 v;
    memcpy(&v, clip + k, 16);
    return v;
}

/// Pixels k … k + m − 1 (m from 1 to 4), each colour found on its own (`ca_lanes_paint_group`).
static __attribute__((noinline)) void paintPixels(const ca_axial_ramp *r, uint8_t *row, long k, long m, const float *clip, double t0,
                                                 double dt) {
    const ca_float4 s0 = source(r, t0 + (double)k * dt);
    const ca_float4 s1 = m > 1 ? source(r, t0 + (double)(k + 1) * dt) : splat(0);
    const ca_float4 s2 = m > 2 ? source(r, t0 + (double)(k + 2) * dt) : splat(0);
    const ca_float4 s3 = m > 3 ? source(r, t0 + (double)(k + 3) * dt) : splat(0);
    const ca_float4 cr = { s0.x, s1.x, s2.x, s3.x }, cg = { s0.y, s1.y, s2.y, s3.y };
    const ca_float4 cb = { s0.z, s1.z, s2.z, s3.z }, ca = { s0.w, s1.w, s2.w, s3.w };
    ca_lanes_paint_group(r->shifts, row + k * 4, m, cr, cg, cb, ca, clip ? clip + k : NULL);
}

/// A row's groups (the Swift `AxialStops.paintRow` this replaced): whole groups of four of pixels
/// 0 … n − 1 (t = t0 + k·dt at pixel k, the clip's coverage of pixel k at clip[k] when there is
/// one); returns where it stopped. The groups of [lo, hi) (multiples of four) lie in the clip's
/// full columns, where its coverage is exactly 1: an opaque piece there goes to the wide run as
/// if unclipped (what the lanes give at coverage 1, the same bytes). One call a row: the clipped
/// ends and the full middle were three calls, each finding its piece again (the 200 clipped
/// gradient rects' frame took 76.8 M instructions that way, 70.0 M this way).
static long paintRow(const ca_axial_ramp *r, uint8_t *row, long n, double t0, double dt, const float *clip, long lo, long hi) {
    long k = 0;
    const ca_float4 steps = (ca_float4){ 0, 1, 2, 3 } * (float)dt;
    const long count = r->count;
    while (k + 4 <= n) {
        const long p = piece(r, t0 + (double)k * dt);
        if (p != piece(r, t0 + (double)(k + 3) * dt)) {
            // Across a stop or an end: pixel by pixel.
            paintPixels(r, row, k, 4, clip, t0, dt);
            k += 4;
            continue;
        }
        if (p < 0) {
            // Past an end the options leave unpainted: the Swift loop blended a clear source
            // here, which gives every pixel back its own bytes (D·(1 − 0) + 0, stored with the
            // store's rounding: ⌊(D/255)·255 + 0.5⌋ = D), so the groups are skipped.
            do { k += 4; } while (k + 4 <= n && piece(r, t0 + (double)(k + 3) * dt) == p);
            continue;
        }
        if (p == 0 || p == count) {
            // One colour for as long as the piece lasts.
            const ca_float4 s = source(r, t0 + (double)k * dt);
            const ca_float4 sr = splat(s.x), sg = splat(s.y), sb = splat(s.z), sa = splat(s.w);
            do {
                ca_lanes_paint4(r->shifts, row + k * 4, sr, sg, sb, sa, coverage4(clip, k));
                k += 4;
            } while (k + 4 <= n && piece(r, t0 + (double)(k + 3) * dt) == p);
            continue;
        }
        // color(at:) between stops p − 1 and p, lane by lane, for as long as the piece lasts.
        const float l0 = r->locations[p - 1], l1 = r->locations[p], perUnit = 1 / (l1 - l0);
        const ca_float4 c0 = stopColor(r, p - 1), c1 = stopColor(r, p);
        const ca_float4 r0 = splat(c0.x), g0 = splat(c0.y), b0 = splat(c0.z), a0 = splat(c0.w);
        const ca_float4 dr = splat(c1.x - c0.x), dg = splat(c1.y - c0.y), db = splat(c1.z - c0.z), da = splat(c1.w - c0.w);
        const float alpha = r->alpha;
        const int opaque = c0.w >= 1 && c1.w >= 1 && alpha >= 1;
        // Opaque groups in the full columns [lo, hi) eight at a time through the wide run, which
        // stops at hi or where its next eight leave the piece (pixel k − 1 then lies strictly
        // inside it); the groups it leaves are the lanes' (an opaque group at coverage 1 packs
        // the bytes the run stores for it).
        const int wide = opaque && r->wide;
        const ca_axial_piece run = { .l0 = l0, .l1 = l1, .perUnit = perUnit, .r0 = c0.x, .g0 = c0.y, .b0 = c0.z,
                                     .dr = c1.x - c0.x, .dg = c1.y - c0.y, .db = c1.z - c0.z,
                                     .shiftR = r->shifts.r, .shiftG = r->shifts.g, .shiftB = r->shifts.b,
                                     .alphaWord = 0xFFu << r->shifts.a };
        for (;;) {
            if (wide && k >= lo && k + 8 <= hi) {
                k = ca_axial_opaque_run((uint32_t *)row, k, hi, t0, dt, &run);
            } else {
                const ca_float4 tf = splat((float)(t0 + (double)k * dt)) + steps;
                const ca_float4 f = (tf - l0) * perUnit;
                const ca_float4 cov = coverage4(clip, k);
                if (opaque && (!clip || ca_lanes_all(cov >= 1.0f))) {
                    const ca_uint4 w = packOpaque(r, r0 + dr * f, g0 + dg * f, b0 + db * f);
                    memcpy(row + k * 4, &w, 16);
                } else {
                    const ca_float4 sa = a0 + da * f;
                    ca_lanes_paint4(r->shifts, row + k * 4, (r0 + dr * f) * sa * alpha, (g0 + dg * f) * sa * alpha,
                                    (b0 + db * f) * sa * alpha, sa * alpha, cov);
                }
                k += 4;
            }
            if (!(k + 4 <= n)) break;
            // Still in the piece: strictly between its stops, or as `piece` finds at an end.
            const double tLast = t0 + (double)(k + 3) * dt;
            const float fLast = (float)tLast;
            if (!((fLast > l0 && fLast < l1) || piece(r, tLast) == p)) break;
        }
    }
    return k;
}

/// Pixels 0 … n − 1 of a row: the groups, then the last one to three pixels as one group.
static inline __attribute__((always_inline)) void paintSpan(const ca_axial_ramp *r, uint8_t *row, long n, double t0, double dt,
                                                             const float *clip, long lo, long hi) {
    if (n <= 0) return;
    const long k = paintRow(r, row, n, t0, dt, clip, lo, hi);
    if (k < n) paintPixels(r, row, k, n - k, clip, t0, dt);
}

void ca_axial_rows(uint8_t *base, long bytesPerRow, long x0, long y0, long x1, long y1, const ca_axial_ramp *ramp,
                   const ca_axial_axis *g, const ca_clip_mask *clip) {
    const long n = x1 - x0;
    const double dt = g->dt;
    for (long y = y0; y < y1; y++) {
        // t at the row's first pixel centre.
        const double px = (double)x0 + 0.5, py = g->height - ((double)y + 0.5);
        const double ux = g->a * px + g->c * py + g->tx, uy = g->b * px + g->d * py + g->ty;
        const double t0 = ((ux - g->sx) * g->dx + (uy - g->sy) * g->dy) / g->len2;
        uint8_t *row = base + y * bytesPerRow + x0 * 4;
        if (!clip) {
            paintSpan(ramp, row, n, t0, dt, NULL, 0, n);
            continue;
        }
        // The clip row from the box's first pixel; the whole groups of four where the clip is 1
        // are painted as unclipped (the groups stay where they were: the same bytes).
        const float *clipRow = clip->values + (y - clip->y0) * (clip->x1 - clip->x0) + (x0 - clip->x0);
        long fullLo = 0, fullHi = 0;
        if (clip->fullRuns && y >= clip->y0 && y < clip->y1) {
            fullLo = clip->x0 + clip->fullRuns[2 * (y - clip->y0)];
            fullHi = clip->x0 + clip->fullRuns[2 * (y - clip->y0) + 1];
        }
        long lo = fullLo - x0 > 0 ? fullLo - x0 : 0;
        lo = (lo + 3) & ~3L;
        if (lo > n) lo = n;
        long hi = fullHi - x0 < n ? fullHi - x0 : n;
        hi &= ~3L;
        if (hi < lo) hi = lo;
        paintSpan(ramp, row, n, t0, dt, clipRow, lo, hi);
    }
}
