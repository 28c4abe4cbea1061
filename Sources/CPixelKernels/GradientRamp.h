// A gradient's stops as the C gradient rows read them (AxialGradientRows.c, RadialGradientRows.c):
// `CGGradient.color(at:)`'s arithmetic, operation for operation. Private to CPixelKernels.
#ifndef CA_GRADIENT_RAMP_H
#define CA_GRADIENT_RAMP_H

#include "AxialGradientRows.h"
#include "CFloatLanes.h"

#pragma clang fp contract(off)

static inline __attribute__((always_inline)) ca_float4 splat(float v) { return (ca_float4){ v, v, v, v }; }

/// Stop i's straight colour.
static inline __attribute__((always_inline)) ca_float4 stopColor(const ca_axial_ramp *r, long i) {
    const float *c = r->colors + 4 * i;
    return (ca_float4){ c[0], c[1], c[2], c[3] };
}

typedef double ca_double4 __attribute__((ext_vector_type(4)));

/// The stop segment `CGGradient.color(at:)` interpolates in for a t strictly between the first
/// and last stops (the caller has checked): the first i ≥ 1 with t ≤ loc[i], the last segment
/// at most.
static inline __attribute__((always_inline)) long stopSegment(const ca_axial_ramp *r, float t) {
    long i = 1;
    while (i < r->count - 1 && r->locations[i] < t) i++;
    return i;
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
        const long i = stopSegment(r, t);
        const float l0 = loc[i - 1], l1 = loc[i];
        const float f = l1 > l0 ? (t - l0) * (1 / (l1 - l0)) : 1;
        const ca_float4 c0 = stopColor(r, i - 1), c1 = stopColor(r, i);
        s = c0 + (c1 - c0) * f;
    }
    return (ca_float4){ s.x * s.w, s.y * s.w, s.z * s.w, s.w };
}

#endif
