// See include/RadialGradientRows.h. Contraction into fused multiply-adds is off, as in Swift.
#include "RadialGradientRows.h"
#include "GradientLanes.h"
#include "GradientRamp.h"
#include "CPixelKernels.h"
#include <math.h>

#pragma clang fp contract(off)

/// `RadialShading.shade`: the colour of root t, 0 where its circle's radius is negative or it
/// lies past an end the options leave unpainted (then the other root is tried).
static inline __attribute__((always_inline)) int shade(const ca_axial_ramp *r, const ca_radial_shading *g, double t, ca_float4 *out) {
    if (!(g->r0 + t * g->dr >= 0)) return 0;
    if (t > 1) {
        if (!r->after) return 0;
        *out = colorAt(r, 1);
        return 1;
    }
    if (t < 0) {
        if (!r->before) return 0;
        *out = colorAt(r, 0);
        return 1;
    }
    *out = colorAt(r, (float)t);
    return 1;
}

/// `RadialShading.color(at:)` at user point (px, py), times the context alpha: the colour of
/// the largest t whose circle passes through the point (clear where none does).
static inline __attribute__((always_inline)) ca_float4 radialSource(const ca_axial_ramp *r, const ca_radial_shading *g, double px,
                                                                     double py) {
    const double pdx = px - g->c0x, pdy = py - g->c0y;
    const double b = (pdx * g->cdx + pdy * g->cdy) + g->r0 * g->dr;
    const double c = (pdx * pdx + pdy * pdy) - g->r0 * g->r0;
    ca_float4 v;
    if (fabs(g->a) < 1e-12) {
        if (!(fabs(b) > 1e-12)) return splat(0);
        return shade(r, g, c / (2 * b), &v) ? v * r->alpha : splat(0);
    }
    const double disc = b * b - g->a * c;
    if (!(disc >= 0)) return splat(0);
    const double s = sqrt(disc);
    const double larger = g->a > 0 ? s : -s;
    if (shade(r, g, (b + larger) * g->inverseA, &v)) return v * r->alpha;
    return shade(r, g, (b - larger) * g->inverseA, &v) ? v * r->alpha : splat(0);
}

typedef long ca_long4 __attribute__((ext_vector_type(4)));

/// Whether every lane of a comparison holds (a macro: a vector argument's ABI differs between
/// the AVX2 copy and the baseline one).
#define allOf(m) ({ const ca_long4 m_ = (m); (m_.x & m_.y & m_.z & m_.w) != 0; })

/// Which stop segment t lies strictly inside: i with loc[i − 1] < t < loc[i] as
/// `CGGradient.color(at:)` finds it (its search), or 0 at or past an end.
static inline __attribute__((always_inline)) long segment(const ca_axial_ramp *r, float t) {
    const float *loc = r->locations;
    const long n = r->count;
    if (n < 2 || !(t > loc[0]) || !(t < loc[n - 1])) return 0;
    return stopSegment(r, t);
}

/// Four pixels' sources (`radialSource` lane by lane, the same operations), `count` of them
/// from user point (sx, sy) + k·(ia, ib): in vector lanes where every pixel's larger root lies
/// in 0 … 1 with a non-negative radius and inside one stop segment (most of a radial fill);
/// pixel by pixel otherwise. Compiled twice (`radialGroupWide` for AVX2: four doubles a
/// register; the bytes do not depend on which, every operation being lane-wise IEEE).
#define RADIAL_GROUP_BODY \
    const ca_double4 j = (ca_double4){ (double)k, (double)(k + 1), (double)(k + 2), (double)(k + 3) }; \
    const ca_double4 pdx = (sx + j * g->ia) - g->c0x, pdy = (sy + j * g->ib) - g->c0y; \
    const ca_double4 b = (pdx * g->cdx + pdy * g->cdy) + g->r0 * g->dr; \
    const ca_double4 c = (pdx * pdx + pdy * pdy) - g->r0 * g->r0; \
    const ca_double4 disc = b * b - g->a * c; \
    long seg = 0; \
    ca_double4 t = 0; \
    if (count == 4 && !(fabs(g->a) < 1e-12) && allOf(disc >= 0)) { \
        const ca_double4 root = __builtin_elementwise_sqrt(disc); \
        t = (b + (g->a > 0 ? root : -root)) * g->inverseA; \
        if (allOf(g->r0 + t * g->dr >= 0) && allOf(t >= 0) && allOf(t <= 1)) { \
            seg = segment(r, (float)t.x); \
            if (seg != segment(r, (float)t.y) || seg != segment(r, (float)t.z) || seg != segment(r, (float)t.w)) seg = 0; \
        } \
    } \
    if (seg == 0) { \
        ca_float4 s[4]; \
        for (long i = 0; i < 4; i++) { \
            const double jj = (double)(k + i); \
            s[i] = i < count ? radialSource(r, g, sx + jj * g->ia, sy + jj * g->ib) : splat(0); \
        } \
        out->r = (ca_float4){ s[0].x, s[1].x, s[2].x, s[3].x }; \
        out->g = (ca_float4){ s[0].y, s[1].y, s[2].y, s[3].y }; \
        out->b = (ca_float4){ s[0].z, s[1].z, s[2].z, s[3].z }; \
        out->a = (ca_float4){ s[0].w, s[1].w, s[2].w, s[3].w }; \
        return; \
    } \
    const ca_float4 tf = __builtin_convertvector(t, ca_float4); \
    const float l0 = r->locations[seg - 1], l1 = r->locations[seg]; \
    const ca_float4 f = (tf - l0) * (1 / (l1 - l0)); \
    const ca_float4 c0 = stopColor(r, seg - 1), c1 = stopColor(r, seg); \
    const ca_float4 sa = c0.w + (c1.w - c0.w) * f; \
    const ca_float4 sr = c0.x + (c1.x - c0.x) * f, sg = c0.y + (c1.y - c0.y) * f, sb = c0.z + (c1.z - c0.z) * f; \
    const float alpha = r->alpha; \
    out->r = sr * sa * alpha; \
    out->g = sg * sa * alpha; \
    out->b = sb * sa * alpha; \
    out->a = sa * alpha;

static void radialGroup(const ca_axial_ramp *r, const ca_radial_shading *g, double sx, double sy, long k, long count, ca_rgba4 *out) {
    RADIAL_GROUP_BODY
}

#if defined(__x86_64__)
__attribute__((target("avx2"))) static void radialGroupWide(const ca_axial_ramp *r, const ca_radial_shading *g, double sx, double sy,
                                                            long k, long count, ca_rgba4 *out) {
    RADIAL_GROUP_BODY
}
#endif

void ca_radial_rows(uint8_t *base, long bytesPerRow, long x0, long y0, long x1, long y1, const ca_axial_ramp *ramp,
                    const ca_radial_shading *g, const ca_clip_mask *clip) {
    const long n = x1 - x0;
    const int wide = ramp->wide && ca_pixel_kernels_wide();
    for (long y = y0; y < y1; y++) {
        // The user point of the row's first pixel centre, as `rasterToUser` maps it; pixel k's
        // is that plus k times the map's first column.
        const double px = (double)x0 + 0.5, py = g->height - ((double)y + 0.5);
        const double sx = g->ia * px + g->ic * py + g->itx, sy = g->ib * px + g->id * py + g->ity;
        uint8_t *row = base + y * bytesPerRow + x0 * 4;
        const float *clipRow = clip ? clip->values + (y - clip->y0) * (clip->x1 - clip->x0) + (x0 - clip->x0) : NULL;
        for (long k = 0; k < n; k += 4) {
            const long count = n - k < 4 ? n - k : 4;
            // Groups the clip leaves out whole cost nothing.
            if (clipRow && count == 4 && clipRow[k] == 0 && clipRow[k + 1] == 0 && clipRow[k + 2] == 0 && clipRow[k + 3] == 0) continue;
            ca_rgba4 s;
#if defined(__x86_64__)
            if (wide) radialGroupWide(ramp, g, sx, sy, k, count, &s);
            else radialGroup(ramp, g, sx, sy, k, count, &s);
#else
            radialGroup(ramp, g, sx, sy, k, count, &s);
#endif
            ca_lanes_paint_group(ramp->shifts, row + k * 4, count, s.r, s.g, s.b, s.a, clipRow ? clipRow + k : NULL);
        }
    }
}
