// See include/AxialGradientRows.h. Baseline x86-64 (SSE2) code like the Swift loops it replaces,
// four pixels a group in clang's vector lanes; opaque unclipped pieces go to
// `ca_axial_opaque_run` (AVX2 where the CPU has it, as the Swift loop's did). Contraction into
// fused multiply-adds is off, as in the Swift loops.
#include "AxialGradientRows.h"
#include "CPixelKernels.h"
#include "CFloatLanes.h"
#include "CPrefetch.h"
#include "RasterRowSpans.h"
#include "GradientRamp.h"
#include <string.h>

#pragma clang fp contract(off)

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
    return stopSegment(r, f);
}

/// Four opaque pixels of `piece`, `j` their offsets from its anchor: the top byte of
/// value + j·step a channel (`ca_axial_opaque_run`'s integers: the same bytes).
static inline __attribute__((always_inline)) ca_uint4 packAffine(const ca_axial_piece *p, ca_uint4 j) {
    const ca_uint4 rb = ((ca_uint4)p->valueR + j * p->stepR) >> 24;
    const ca_uint4 gb = ((ca_uint4)p->valueG + j * p->stepG) >> 24;
    const ca_uint4 bb = ((ca_uint4)p->valueB + j * p->stepB) >> 24;
    return rb << p->shiftR | gb << p->shiftG | bb << p->shiftB | (ca_uint4)p->alphaWord;
}

/// Lane offsets 0 … 3.
static const ca_uint4 laneOffsets = { 0, 1, 2, 3 };

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
        // group's first pixel (in double), rounded to 8.24 fixed point with its step, and
        // stepped by integer adds from here (`ca_axial_piece`), a fraction of the arithmetic of
        // finding t, f and v for each pixel, every pixel then within ~10⁻⁴ of the exact value
        // (CGGradientSpanTests compares with the general loop and with the exact colours). The
        // groups the piece leaves to other paths (partly covered, translucent) keep the
        // per-pixel arithmetic.
        ca_axial_piece run = { .l0 = l0, .l1 = l1, .anchor = k, .shiftR = r->shifts.r, .shiftG = r->shifts.g,
                               .shiftB = r->shifts.b, .alphaWord = 0xFFu << r->shifts.a };
        if (opaque) {
            const double span = (double)l1 - (double)l0;
            const double fk = (t0 + (double)k * dt - (double)l0) / span, df = dt / span;
            run.valueR = ca_fixed_8_24(((double)c0.x + ((double)c1.x - (double)c0.x) * fk) * 255 + 0.5);
            run.valueG = ca_fixed_8_24(((double)c0.y + ((double)c1.y - (double)c0.y) * fk) * 255 + 0.5);
            run.valueB = ca_fixed_8_24(((double)c0.z + ((double)c1.z - (double)c0.z) * fk) * 255 + 0.5);
            run.stepR = ca_fixed_8_24(((double)c1.x - (double)c0.x) * df * 255);
            run.stepG = ca_fixed_8_24(((double)c1.y - (double)c0.y) * df * 255);
            run.stepB = ca_fixed_8_24(((double)c1.z - (double)c0.z) * df * 255);
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
                    const ca_uint4 w = packAffine(&run, (ca_uint4)(uint32_t)(k - run.anchor) + laneOffsets);
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

/// t at the centre of pixel (x, y).
static inline __attribute__((always_inline)) double pixelT(const ca_axial_axis *g, long x, long y) {
    const double px = (double)x + 0.5, py = g->height - ((double)y + 0.5);
    const double ux = g->a * px + g->c * py + g->tx, uy = g->b * px + g->d * py + g->ty;
    return ((ux - g->sx) * g->dx + (uy - g->sy) * g->dy) / g->len2;
}

void ca_axial_rows(uint8_t *base, long bytesPerRow, long x0, long y0, long x1, long y1, const ca_axial_ramp *ramp,
                   const ca_axial_axis *g, const ca_clip_mask *clip) {
    const long n = x1 - x0;
    const double dt = g->dt;
    for (long y = y0; y < y1; y++) {
        const double t0 = pixelT(g, x0, y);
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

/// A piece of the ramp as the walk paints it, and how its colours lie over the bitmap: at
/// context alpha 1 in a piece between opaque stops (or past an end, extended), each channel's
/// byte before rounding, v·255 + 0.5, is affine in the pixel's column and row, a + bx·x + by·y
/// (in double). A run inside such a piece then takes its colours from three multiply-adds, not
/// from a stop search and an interpolation.
typedef struct {
    long p;
    int affine;
    double a[3], bx[3], by[3];
    /// The same in the pixel's memory byte order (lane i is byte i of a pixel), alpha's lane
    /// 255.5 and still: one edge pixel's blend reads its colour from these in one vector.
    ca_double4 aMem, bxMem, byMem;
} walkPiece;

/// What the walk paints with: the ramp, t at pixel (x, y) as t00 + dt·x + ty·y, and the pieces
/// its runs have been in, piece p in slot p mod 8 (a row crossing a stop goes back and forth
/// between two pieces: one remembered piece was worked out again at every crossing).
typedef struct {
    const ca_axial_ramp *ramp;
    double t00, dt, ty;
    walkPiece pieces[8];
} walkState;

/// `w`'s channel-order coefficients laid out in the pixel's memory order (`walkPiece.aMem`).
static void layOutInMemoryOrder(walkPiece *w, ca_channel_shifts s) {
    double a[4] = { 0, 0, 0, 0 }, bx[4] = { 0, 0, 0, 0 }, by[4] = { 0, 0, 0, 0 };
    const uint32_t lane[3] = { s.r / 8, s.g / 8, s.b / 8 };
    for (int k = 0; k < 3; k++) { a[lane[k] & 3] = w->a[k]; bx[lane[k] & 3] = w->bx[k]; by[lane[k] & 3] = w->by[k]; }
    a[(s.a / 8) & 3] = 255.5;
    w->aMem = (ca_double4){ a[0], a[1], a[2], a[3] };
    w->bxMem = (ca_double4){ bx[0], bx[1], bx[2], bx[3] };
    w->byMem = (ca_double4){ by[0], by[1], by[2], by[3] };
}

static void setWalkPiece(walkState *ws, long p, walkPiece *w) {
    const ca_axial_ramp *r = ws->ramp;
    w->p = p;
    w->affine = 0;
    const long n = r->count;
    if (p < 0 || r->alpha < 1) return;
    if (p == 0 || p == n || n < 2) {
        const ca_float4 c = stopColor(r, p == 0 ? 0 : n - 1);
        if (c.w < 1) return;
        const double v[3] = { c.x, c.y, c.z };
        for (int k = 0; k < 3; k++) { w->a[k] = v[k] * 255 + 0.5; w->bx[k] = 0; w->by[k] = 0; }
        layOutInMemoryOrder(w, r->shifts);
        w->affine = 1;
        return;
    }
    const ca_float4 c0 = stopColor(r, p - 1), c1 = stopColor(r, p);
    if (c0.w < 1 || c1.w < 1) return;
    const double l0 = r->locations[p - 1], span = (double)r->locations[p] - l0;
    const double v0[3] = { c0.x, c0.y, c0.z }, v1[3] = { c1.x, c1.y, c1.z };
    for (int k = 0; k < 3; k++) {
        const double d = (v1[k] - v0[k]) * 255 / span;
        w->a[k] = v0[k] * 255 + d * (ws->t00 - l0) + 0.5;
        w->bx[k] = d * ws->dt;
        w->by[k] = d * ws->ty;
    }
    layOutInMemoryOrder(w, r->shifts);
    w->affine = 1;
}

/// Piece pc (≥ 0) of the walk's ramp, worked out the first time it is asked for.
static inline __attribute__((always_inline)) const walkPiece *pieceFor(walkState *ws, long pc) {
    walkPiece *w = &ws->pieces[pc & 7];
    if (w->p != pc) setWalkPiece(ws, pc, w);
    return w;
}

/// Pixels p … p + m − 1 (m from 1 to 4) as the first m lanes, each read as one word (a wider
/// read after narrower writes of the same bytes would wait for them to reach the cache).
static inline __attribute__((always_inline)) ca_uint4 loadWords(const uint8_t *p, long m) {
    uint32_t w[4] = { 0, 0, 0, 0 };
    for (long i = 0; i < 4; i++) if (i < m) memcpy(w + i, p + 4 * i, 4);
    return (ca_uint4){ w[0], w[1], w[2], w[3] };
}

/// The first m lanes of `v` to pixels p … p + m − 1, word by word.
static inline __attribute__((always_inline)) void storeWords(uint8_t *p, long m, ca_uint4 v) {
    if (m >= 4) { memcpy(p, &v, 16); return; }
    const uint32_t w0 = v.x, w1 = v.y, w2 = v.z;
    memcpy(p, &w0, 4);
    if (m > 1) memcpy(p + 4, &w1, 4);
    if (m > 2) memcpy(p + 8, &w2, 4);
}

/// The affine colour of a walk's partly covered run (`paintAffineColor`): v·255 + 0.5 of r, g
/// and b at its first pixel and their steps a pixel, in float.
typedef struct {
    ca_float4 value, step;
} affineColor;

/// Four pixels at coverage c below 1 from their old words: d + (s − d)·c a channel in 0…255,
/// s the affine colour (v − 0.5) and 255 for alpha, rounded as the store rounds.
static inline __attribute__((always_inline)) ca_uint4 affineBlend(ca_channel_shifts s, affineColor v, ca_uint4 old, ca_float4 j,
                                                                   float c) {
    const ca_float4 sr = splat(v.value.x) + j * v.step.x - 0.5f, sg = splat(v.value.y) + j * v.step.y - 0.5f;
    const ca_float4 sb = splat(v.value.z) + j * v.step.z - 0.5f;
    const ca_float4 dr = ca_lanes_channel(old, s.r), dg = ca_lanes_channel(old, s.g), db = ca_lanes_channel(old, s.b);
    const ca_float4 da = ca_lanes_channel(old, s.a);
    const ca_uint4 rb = (ca_uint4)ca_truncate4(dr + (sr - dr) * c + 0.5f), gb = (ca_uint4)ca_truncate4(dg + (sg - dg) * c + 0.5f);
    const ca_uint4 bb = (ca_uint4)ca_truncate4(db + (sb - db) * c + 0.5f), ab = (ca_uint4)ca_truncate4(da + (255.0f - da) * c + 0.5f);
    return rb << s.r | gb << s.g | bb << s.b | ab << s.a;
}

/// One pixel at coverage c below 1, `*v` its colour's v·255 + 0.5 in the pixel's memory order
/// (alpha's 255.5): d + (s − d)·c + 0.5 a byte with s = v − 0.5, truncated — `affineBlend`'s
/// arithmetic for its first lane, the four channels in one vector.
static inline __attribute__((always_inline)) void blendPixel(uint8_t *p, const ca_double4 *v, float c) {
    const ca_float4 s = __builtin_convertvector(*v, ca_float4) - 0.5f;
    uint32_t w;
    memcpy(&w, p, 4);
    const ca_float4 d = ca_unpack_bytes4(w);
    const uint32_t out = ca_pack_bytes4(ca_truncate4(d + (s - d) * c + 0.5f));
    memcpy(p, &out, 4);
}

/// The fixed-point run (`ca_axial_piece`) of v·255 + 0.5 = vr, vg, vb at its first pixel,
/// stepping by sr, sg, sb a pixel.
static inline __attribute__((always_inline)) ca_axial_piece affineRun(ca_channel_shifts s, double vr, double vg, double vb, double sr,
                                                                       double sg, double sb) {
    const ca_axial_piece run = { .anchor = 0, .shiftR = s.r, .shiftG = s.g, .shiftB = s.b, .alphaWord = 0xFFu << s.a,
                                 .valueR = ca_fixed_8_24(vr), .valueG = ca_fixed_8_24(vg), .valueB = ca_fixed_8_24(vb),
                                 .stepR = ca_fixed_8_24(sr), .stepG = ca_fixed_8_24(sg), .stepB = ca_fixed_8_24(sb) };
    return run;
}

/// Pixels px … px + n − 1 of `run` at full coverage: eight at a time where the CPU allows,
/// four-pixel lanes otherwise (the same integers: the same bytes); a group of fewer than four
/// touches only its own pixels.
static void storeAffine(const ca_axial_ramp *r, uint8_t *px, long n, const ca_axial_piece *run) {
    if (r->wide && n >= 8 && ca_axial_affine_store((uint32_t *)px, n, run) == n) return;
    for (long k = 0; k < n; k += 4) storeWords(px + k * 4, n - k < 4 ? n - k : 4, packAffine(run, (ca_uint4)(uint32_t)k + laneOffsets));
}

/// Pixels px … px + n − 1 of one run inside an affine piece, v·255 + 0.5 of r, g and b at the
/// first being vr, vg, vb and stepping by sr, sg, sb a pixel, at coverage c: stored at full
/// coverage (`storeAffine`), blended otherwise (a group of fewer than four touching only its
/// own pixels). `paintAffine` gives it the run at pixel (x, y) of a piece.
static void paintAffineColor(const ca_axial_ramp *r, uint8_t *px, long n, float c, double vr, double vg, double vb, double sr,
                             double sg, double sb) {
    const ca_channel_shifts s = r->shifts;
    if (c >= 1) {
        const ca_axial_piece run = affineRun(s, vr, vg, vb, sr, sg, sb);
        storeAffine(r, px, n, &run);
        return;
    }
    const affineColor v = { { (float)vr, (float)vg, (float)vb, 0 }, { (float)sr, (float)sg, (float)sb, 0 } };
    const ca_float4 lanes = { 0, 1, 2, 3 };
    for (long k = 0; k < n; k += 4) {
        const long m = n - k < 4 ? n - k : 4;
        storeWords(px + k * 4, m, affineBlend(s, v, loadWords(px + k * 4, m), splat((float)k) + lanes, c));
    }
}

static void paintAffine(const ca_axial_ramp *r, const walkPiece *w, uint8_t *px, long x, long y, long n, float c) {
    const double fx = (double)x, fy = (double)y;
    if (n == 1 && c < 1) {
        const ca_double4 v = w->aMem + w->bxMem * fx + w->byMem * fy;
        blendPixel(px, &v, c);
        return;
    }
    paintAffineColor(r, px, n, c, w->a[0] + w->bx[0] * fx + w->by[0] * fy, w->a[1] + w->bx[1] * fx + w->by[1] * fy,
                     w->a[2] + w->bx[2] * fx + w->by[2] * fy, w->bx[0], w->bx[1], w->bx[2]);
}

/// `paintAffine` down rows y0 … y1 − 1 of one run (x … x + n − 1 at coverage c, every row's
/// ends in the affine piece `w`): each row's value at x is the last row's plus by, in double
/// (the same value as from x and y to within 10⁻¹³). A run of one partly covered pixel — a
/// rounded rect's side — is blended in one vector (`blendPixel`); a full run keeps one
/// fixed-point run whose values alone change from row to row.
static void paintAffineRows(const ca_axial_ramp *r, const walkPiece *w, uint8_t *base, long bytesPerRow, long x, long y0,
                            long y1, long n, float c) {
    const double fx = (double)x, fy = (double)y0;
    uint8_t *p = base + y0 * bytesPerRow + x * 4;
    if (n == 1 && c < 1) {
        ca_double4 v = w->aMem + w->bxMem * fx + w->byMem * fy;
        for (long y = y0; y < y1; y++, p += bytesPerRow) {
            blendPixel(p, &v, c);
            v += w->byMem;
        }
        return;
    }
    double v[3];
    for (int k = 0; k < 3; k++) v[k] = w->a[k] + w->bx[k] * fx + w->by[k] * fy;
    if (c >= 1) {
        ca_axial_piece run = affineRun(r->shifts, v[0], v[1], v[2], w->bx[0], w->bx[1], w->bx[2]);
        for (long y = y0; y < y1; y++, p += bytesPerRow) {
            run.valueR = ca_fixed_8_24(v[0]); run.valueG = ca_fixed_8_24(v[1]); run.valueB = ca_fixed_8_24(v[2]);
            storeAffine(r, p, n, &run);
            v[0] += w->by[0]; v[1] += w->by[1]; v[2] += w->by[2];
        }
        return;
    }
    for (long y = y0; y < y1; y++, p += bytesPerRow) {
        paintAffineColor(r, p, n, c, v[0], v[1], v[2], w->bx[0], w->bx[1], w->bx[2]);
        v[0] += w->by[0]; v[1] += w->by[1]; v[2] += w->by[2];
    }
}

/// Pixels x … x + n − 1 of raster row y (`p` the first's bytes), all in piece `pc`, at coverage
/// c, t0 the first's t: nothing past an end the options leave unpainted; `paintAffine` in an
/// affine piece; otherwise as a row is painted (at full coverage as an unclipped row, partly
/// covered as a clipped row whose coverage is c throughout).
static void paintPiece(walkState *ws, long pc, uint8_t *p, long x, long y, long n, float c, double t0) {
    if (pc < 0) return;   // unpainted: every pixel keeps its bytes (see paintRow)
    const ca_axial_ramp *r = ws->ramp;
    const walkPiece *w = pieceFor(ws, pc);
    if (w->affine) {
        paintAffine(r, w, p, x, y, n, c);
        return;
    }
    const double dt = ws->dt;
    if (c >= 1) {
        paintSpan(r, p, n, t0, dt, NULL, 0, n);
        return;
    }
    enum { chunk = 64 };
    float coverage[chunk];
    for (long i = 0; i < chunk && i < n; i++) coverage[i] = c;
    for (long k = 0; k < n; k += chunk) {
        const long m = n - k < chunk ? n - k : chunk;
        paintSpan(r, p + k * 4, m, t0 + (double)k * dt, dt, coverage, 0, 0);
    }
}

/// The t at which the run leaves piece `pc` going the way dt goes (NaN when it cannot).
static inline __attribute__((always_inline)) double pieceBound(const ca_axial_ramp *r, long pc, double dt) {
    const long n = r->count;
    const float *loc = r->locations;
    if (dt > 0) {
        if (pc == -1) return 0;
        if (pc >= 0 && pc < n) return loc[pc];
        if (pc == n) return 1;
    } else if (dt < 0) {
        if (pc == -2) return 1;
        if (pc == n) return loc[n - 1];
        if (pc >= 1 && pc < n) return loc[pc - 1];
        if (pc == 0) return 0;
    }
    return __builtin_nan("");
}

/// The first of pixels 1 … n − 1 (t = t0 + k·dt) not in piece `pc`, pixel 0 being in it and
/// pixel n − 1 not: guessed from where t reaches the piece's bound, then moved to the exact
/// pixel by asking `piece` (t is monotonic, and so is its piece: the pixels in `pc` come
/// first); by bisection where there is no guess. Rows that cross a stop or an end took eight
/// `piece` calls each by bisection alone, a tenth of the clipped gradient frame.
static long pieceEnd(const ca_axial_ramp *r, long pc, double t0, double dt, long n) {
    const double guess = (pieceBound(r, pc, dt) - t0) / dt;
    if (guess > 0 && guess < (double)n) {
        long k = (long)guess;
        if (k < 1) k = 1;
        while (k > 1 && piece(r, t0 + (double)(k - 1) * dt) != pc) k--;
        while (k < n - 1 && piece(r, t0 + (double)k * dt) == pc) k++;
        return k;
    }
    long lo = 0, hi = n - 1;   // pixel lo is in the piece, pixel hi is not
    while (hi - lo > 1) {
        const long mid = lo + (hi - lo) / 2;
        if (piece(r, t0 + (double)mid * dt) == pc) lo = mid; else hi = mid;
    }
    return hi;
}

/// Pixels x … x + n − 1 of raster row y (`row` its first byte) at coverage c: a clip path's run,
/// cut where its piece changes (`pieceEnd`), each part painted by `paintPiece`.
static void paintCovered(walkState *ws, uint8_t *row, long x, long y, long n, float c) {
    const ca_axial_ramp *r = ws->ramp;
    const double dt = ws->dt;
    double t0 = ws->t00 + dt * (double)x + ws->ty * (double)y;
    while (n > 0) {
        const long first = piece(r, t0);
        long m = n;
        if (n > 1 && piece(r, t0 + (double)(n - 1) * dt) != first) m = pieceEnd(r, first, t0, dt, n);
        paintPiece(ws, first, row + x * 4, x, y, m, c, t0);
        x += m;
        n -= m;
        t0 += (double)m * dt;
    }
}

/// Whether pixels x and x + n − 1 of row y both lie in piece `pc`.
static inline __attribute__((always_inline)) int endsIn(const walkState *ws, long pc, long x, long y, long n) {
    const double t0 = ws->t00 + ws->dt * (double)x + ws->ty * (double)y;
    return piece(ws->ramp, t0) == pc && piece(ws->ramp, t0 + (double)(n - 1) * ws->dt) == pc;
}

/// Pixels x … x + n − 1 of rows y0 … y1 − 1 at coverage c: one run of the rows that hold only
/// held-back runs (a card's or a rounded rect's sides: the same run in every row). t is affine
/// in the row too, so the rows whose ends lie in one piece are consecutive and found by
/// bisection: those are painted without finding their piece again, the others as any run is.
static void paintHeldRun(walkState *ws, uint8_t *base, long bytesPerRow, long x, long y0, long y1, long n, float c) {
    long y = y0;
    while (y < y1) {
        const double t0 = ws->t00 + ws->dt * (double)x + ws->ty * (double)y;
        const long pc = piece(ws->ramp, t0);
        if (!endsIn(ws, pc, x, y, n)) {
            paintCovered(ws, base + y * bytesPerRow, x, y, n, c);
            y++;
            continue;
        }
        long end = y1;
        if (!endsIn(ws, pc, x, y1 - 1, n)) {
            long lo = y, hi = y1 - 1;   // row lo's ends are in the piece, row hi's are not
            while (hi - lo > 1) {
                const long mid = lo + (hi - lo) / 2;
                if (endsIn(ws, pc, x, mid, n)) lo = mid; else hi = mid;
            }
            end = hi;
        }
        if (pc >= 0) {
            const walkPiece *w = pieceFor(ws, pc);
            if (w->affine) {
                paintAffineRows(ws->ramp, w, base, bytesPerRow, x, y, end, n, c);
            } else {
                for (long r = y; r < end; r++)
                    paintPiece(ws, pc, base + r * bytesPerRow + x * 4, x, r, n, c, ws->t00 + ws->dt * (double)x + ws->ty * (double)r);
            }
        }
        y = end;
    }
}

/// What the axial walk's row functions paint with (`ca_walk_rows`).
typedef struct {
    walkState *ws;
    uint8_t *base;
    long bytesPerRow, boxX0, boxY0, w, firstI, endI;
    int evenOdd;
} axialWalk;

/// `ca_walk_rows`' held rows: each run down the rows that share it (`paintHeldRun`).
static inline __attribute__((always_inline)) void axialHeld(void *ctx, long j, long end, const rowSpan *spans, long count) {
    const axialWalk *a = ctx;
    for (long k = 0; k < count; k++)
        paintHeldRun(a->ws, a->base, a->bytesPerRow, a->boxX0 + spans[k].lo, a->boxY0 + j, a->boxY0 + end, spans[k].hi - spans[k].lo,
                     spans[k].c);
}

/// `ca_walk_rows`' rows with cells: each run (`paintCovered`).
static inline __attribute__((always_inline)) void axialCells(void *ctx, long j, ca_touched *t) {
    const axialWalk *a = ctx;
    const long y = a->boxY0 + j;
    uint8_t *row = a->base + y * a->bytesPerRow;
    CA_EACH_ROW_SPAN(ca_take_touched(t, &i_, &c_), a->w, a->firstI, a->endI, a->evenOdd, sp,
                     paintCovered(a->ws, row, a->boxX0 + sp.lo, y, sp.hi - sp.lo, sp.c););
}

void ca_axial_walk(const ca_raster_rows *rows, uint8_t *base, long bytesPerRow, long boxX0, long boxY0, long clipX0,
                   long clipY0, long clipX1, long clipY1, const ca_axial_ramp *ramp, const ca_axial_axis *axis) {
    walkState ws = { .ramp = ramp, .t00 = pixelT(axis, 0, 0), .dt = axis->dt,
                     .ty = -(axis->c * axis->dx + axis->d * axis->dy) / axis->len2 };
    for (int k = 0; k < 8; k++) ws.pieces[k].p = -3;   // none yet (`piece` gives −2 … count)
    axialWalk a = { &ws, base, bytesPerRow, boxX0, boxY0, rows->width, clipX0 - boxX0, clipX1 - boxX0, rows->evenOdd };
    ca_walk_rows(rows, base, bytesPerRow, boxX0, boxY0, clipX0, clipY0, clipX1, clipY1, axialHeld, axialCells, &a);
}
