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

#endif
