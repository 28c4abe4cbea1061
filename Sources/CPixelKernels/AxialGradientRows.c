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

/// Four opaque pixels of `piece`, `j` their offsets from its anchor: ⌊value + j·step⌋ a channel
/// (`ca_axial_opaque_run`'s lanes, operation for operation).
static inline __attribute__((always_inline)) ca_uint4 packAffine(const ca_axial_piece *p, ca_float4 j) {
    const ca_uint4 rb = (ca_uint4)ca_truncate4(splat(p->valueR) + j * p->stepR);
    const ca_uint4 gb = (ca_uint4)ca_truncate4(splat(p->valueG) + j * p->stepG);
    const ca_uint4 bb = (ca_uint4)ca_truncate4(splat(p->valueB) + j * p->stepB);
    return rb << p->shiftR | gb << p->shiftG | bb << p->shiftB | (ca_uint4)p->alphaWord;
}

static inline __attribute__((always_inline)) ca_float4 coverage4(const float *clip, long k) {
    if (!clip) return splat(1);
    ca_float4 v;
    memcpy(&v, clip + k, 16);
    return v;
}

/// The group of four from pixel k: each lane's t, stepped from the group's first pixel (in double
/// to it, in float across the lanes).
static inline __attribute__((always_inline)) ca_float4 groupT(double t0, double dt, long k) {
    return splat((float)(t0 + (double)k * dt)) + (ca_float4){ 0, 1, 2, 3 } * (float)dt;
}

/// `color(at:)` between stops c0 (at l0) and c1, lane by lane, premultiplied and times the
/// context alpha: the source of four pixels whose t (in float) is `tf`, all in that piece.
static inline __attribute__((always_inline)) void pieceSource(float l0, float perUnit, ca_float4 c0, ca_float4 c1, float alpha,
                                                              ca_float4 tf, ca_float4 s[4]) {
    const ca_float4 f = (tf - l0) * perUnit;
    const ca_float4 sa = c0.w + (c1.w - c0.w) * f;
    s[0] = (c0.x + (c1.x - c0.x) * f) * sa * alpha;
    s[1] = (c0.y + (c1.y - c0.y) * f) * sa * alpha;
    s[2] = (c0.z + (c1.z - c0.z) * f) * sa * alpha;
    s[3] = sa * alpha;
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
    const ca_float4 lanes = { 0, 1, 2, 3 };
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
        const float alpha = r->alpha;
        const int opaque = c0.w >= 1 && c1.w >= 1 && alpha >= 1;
        // Between opaque stops (and at context alpha 1) a channel's byte before rounding,
        // v·255 + 0.5, is affine in the pixel index: it is computed from the exact t at this
        // group's first pixel (in double) and stepped by the pixel index (in float, from here),
        // a third of the arithmetic of finding t, f and v for each pixel, and every pixel then
        // within a few float ulps of the exact value (CGGradientSpanTests compares with the
        // general loop and with the exact colours). The groups the piece leaves to other paths
        // (partly covered, translucent) keep the per-pixel arithmetic.
        ca_axial_piece run = { .l0 = l0, .l1 = l1, .anchor = k, .shiftR = r->shifts.r, .shiftG = r->shifts.g,
                               .shiftB = r->shifts.b, .alphaWord = 0xFFu << r->shifts.a };
        if (opaque) {
            const double span = (double)l1 - (double)l0;
            const double fk = (t0 + (double)k * dt - (double)l0) / span, df = dt / span;
            run.valueR = (float)(((double)c0.x + ((double)c1.x - (double)c0.x) * fk) * 255 + 0.5);
            run.valueG = (float)(((double)c0.y + ((double)c1.y - (double)c0.y) * fk) * 255 + 0.5);
            run.valueB = (float)(((double)c0.z + ((double)c1.z - (double)c0.z) * fk) * 255 + 0.5);
            run.stepR = (float)(((double)c1.x - (double)c0.x) * df * 255);
            run.stepG = (float)(((double)c1.y - (double)c0.y) * df * 255);
            run.stepB = (float)(((double)c1.z - (double)c0.z) * df * 255);
        }
        // Opaque groups in the full columns [lo, hi) eight at a time through the wide run, which
        // stops at hi or where its next eight leave the piece (pixel k − 1 then lies strictly
        // inside it, or where its first eight do not qualify); the groups it leaves are the
        // lanes' (the same bytes lane for lane).
        const int wide = opaque && r->wide;
        for (;;) {
            const long next = wide && k >= lo && k + 8 <= hi ? ca_axial_opaque_run((uint32_t *)row, k, hi, t0, dt, &run) : k;
            if (next > k) {
                k = next;
            } else {
                const ca_float4 cov = coverage4(clip, k);
                if (opaque && (!clip || ca_lanes_all(cov >= 1.0f))) {
                    const ca_uint4 w = packAffine(&run, splat((float)(k - run.anchor)) + lanes);
                    memcpy(row + k * 4, &w, 16);
                } else {
                    ca_float4 s[4];
                    pieceSource(l0, perUnit, c0, c1, alpha, groupT(t0, dt, k), s);
                    ca_lanes_paint4(r->shifts, row + k * 4, s[0], s[1], s[2], s[3], cov);
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

/// A row's last m (1 … 3) pixels from k: in one piece, its lanes as a whole group's (the group's
/// t stepped from pixel k); across a stop or an end, each pixel's colour found on its own. Rows'
/// tails took most of `paintPixels`' 19 % of the 200 clipped gradient rects' frame, a stop
/// search and a division a pixel; as lanes the frame takes 4 % less time.
static void paintTail(const ca_axial_ramp *r, uint8_t *row, long k, long m, const float *clip, double t0, double dt) {
    const long p = piece(r, t0 + (double)k * dt);
    if (p != piece(r, t0 + (double)(k + m - 1) * dt)) {
        paintPixels(r, row, k, m, clip, t0, dt);
        return;
    }
    if (p < 0) return;   // unpainted: every pixel keeps its bytes (see paintRow)
    ca_float4 s[4];
    if (p == 0 || p == r->count) {
        const ca_float4 c = source(r, t0 + (double)k * dt);
        s[0] = splat(c.x); s[1] = splat(c.y); s[2] = splat(c.z); s[3] = splat(c.w);
    } else {
        const float l0 = r->locations[p - 1], l1 = r->locations[p];
        pieceSource(l0, 1 / (l1 - l0), stopColor(r, p - 1), stopColor(r, p), r->alpha, groupT(t0, dt, k), s);
    }
    ca_lanes_paint_group(r->shifts, row + k * 4, m, s[0], s[1], s[2], s[3], clip ? clip + k : NULL);
}

/// Pixels 0 … n − 1 of a row: the groups, then the last one to three pixels as one group.
static inline __attribute__((always_inline)) void paintSpan(const ca_axial_ramp *r, uint8_t *row, long n, double t0, double dt,
                                                             const float *clip, long lo, long hi) {
    if (n <= 0) return;
    const long k = paintRow(r, row, n, t0, dt, clip, lo, hi);
    if (k < n) paintTail(r, row, k, n - k, clip, t0, dt);
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
