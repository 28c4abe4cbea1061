// Four-lane float conversions for the CPU loops (CoreGraphics' FloatLanes, issues 19 and 22).
// Swift's SIMD float → integer conversion is generic and calls libm per lane, and baseline
// x86-64 has no SSE4.1 rounding; but SSE2 has a truncating conversion of four lanes
// (cvttps2dq) and lane-wise min/max, which these static inline functions compile to in the
// Swift caller. Clang's ext_vector types import into Swift as SIMD4<Float> and SIMD4<Int32>.
#ifndef CFLOATLANES_H
#define CFLOATLANES_H

#if defined(__SSE2__)
#include <emmintrin.h>
#elif defined(__ARM_NEON)
#include <arm_neon.h>
#endif

#include <stdint.h>

typedef float ca_float4 __attribute__((ext_vector_type(4)));
typedef int ca_int4 __attribute__((ext_vector_type(4)));

/// Each lane truncated toward zero to a 32-bit integer (x86 cvttps2dq, AArch64 fcvtzs). For
/// lanes in [0, 2^31) that is ⌊v⌋. Lanes out of range (NaN included) give an unspecified value,
/// never undefined behaviour: the target's instruction, not C's conversion, does it.
static inline __attribute__((always_inline)) ca_int4 ca_truncate4(ca_float4 v) {
#if defined(__SSE2__)
    return (ca_int4)_mm_cvttps_epi32((__m128)v);
#elif defined(__ARM_NEON)
    return (ca_int4)vcvtq_s32_f32((float32x4_t)v);
#else
    ca_int4 r;
    for (int k = 0; k < 4; k++) {
        float x = v[k];
        r[k] = (x > -2147483648.0f && x < 2147483648.0f) ? (int)x : (int)0x80000000u;
    }
    return r;
#endif
}

/// Each lane as a float (x86 cvtdq2ps): exact below 2^24 in magnitude.
static inline __attribute__((always_inline)) ca_float4 ca_float_of4(ca_int4 v) {
    return __builtin_convertvector(v, ca_float4);
}

/// The larger of each pair, a where a > b, else b (x86 maxps): Swift's `max(b, a)` on
/// numbers; where a is NaN, b.
static inline __attribute__((always_inline)) ca_float4 ca_max4(ca_float4 a, ca_float4 b) {
#if defined(__SSE2__)
    return (ca_float4)_mm_max_ps((__m128)a, (__m128)b);
#else
    ca_float4 r;
    for (int k = 0; k < 4; k++) r[k] = a[k] > b[k] ? a[k] : b[k];
    return r;
#endif
}

/// The smaller of each pair, a where a < b, else b (x86 minps); where a is NaN, b.
static inline __attribute__((always_inline)) ca_float4 ca_min4(ca_float4 a, ca_float4 b) {
#if defined(__SSE2__)
    return (ca_float4)_mm_min_ps((__m128)a, (__m128)b);
#else
    ca_float4 r;
    for (int k = 0; k < 4; k++) r[k] = a[k] < b[k] ? a[k] : b[k];
    return r;
#endif
}

/// Each lane held to [lo, hi], NaN to lo (x86 maxps then minps: maxps returns its second
/// operand where the first is NaN).
static inline __attribute__((always_inline)) ca_float4 ca_clamp4(ca_float4 v, float lo, float hi) {
#if defined(__SSE2__)
    __m128 m = _mm_max_ps((__m128)v, _mm_set1_ps(lo));
    return (ca_float4)_mm_min_ps(m, _mm_set1_ps(hi));
#else
    ca_float4 r;
    for (int k = 0; k < 4; k++) {
        float x = v[k];
        r[k] = x > lo ? (x < hi ? x : hi) : lo;
    }
    return r;
#endif
}

/// The four bytes of a 32-bit pixel, in memory order (byte 0 in lane 0, little-endian), as
/// floats 0…255.
static inline __attribute__((always_inline)) ca_float4 ca_unpack_bytes4(uint32_t w) {
#if defined(__SSE2__)
    __m128i z = _mm_setzero_si128();
    __m128i v = _mm_unpacklo_epi16(_mm_unpacklo_epi8(_mm_cvtsi32_si128((int)w), z), z);
    return (ca_float4)_mm_cvtepi32_ps(v);
#else
    ca_float4 r = { (float)(w & 0xFF), (float)((w >> 8) & 0xFF), (float)((w >> 16) & 0xFF), (float)(w >> 24) };
    return r;
#endif
}

/// Four lanes as the bytes of a 32-bit pixel in memory order (lane 0 in byte 0), each held to
/// 0…255 (x86 packssdw then packuswb).
static inline __attribute__((always_inline)) uint32_t ca_pack_bytes4(ca_int4 v) {
#if defined(__SSE2__)
    __m128i p = _mm_packs_epi32((__m128i)v, (__m128i)v);
    return (uint32_t)_mm_cvtsi128_si32(_mm_packus_epi16(p, p));
#else
    uint32_t out = 0;
    for (int k = 0; k < 4; k++) {
        int x = v[k] < 0 ? 0 : (v[k] > 255 ? 255 : v[k]);
        out |= (uint32_t)x << (8 * k);
    }
    return out;
#endif
}

/// Bilinear weighing of two texture rows' texel pairs: `upper` and `lower` each hold two RGBA8
/// texels (the left one in the low 32 bits); the result's four 16-bit lanes (the texels' byte
/// order, lane 0 lowest) are left·w0 + right·w1 of the upper pair plus the same of the lower
/// pair with w2, w3. Callers keep every sum ≤ 65535 (weights summing to 256), so no lane wraps
/// (x86: punpcklbw, pmullw, paddw).
static inline __attribute__((always_inline)) uint64_t ca_bilinear_pairs(uint64_t upper, uint64_t lower, int w0, int w1,
                                                                        int w2, int w3) {
#if defined(__SSE2__) && defined(__x86_64__)
    __m128i z = _mm_setzero_si128();
    __m128i u = _mm_unpacklo_epi8(_mm_cvtsi64_si128((long long)upper), z);
    __m128i l = _mm_unpacklo_epi8(_mm_cvtsi64_si128((long long)lower), z);
    __m128i wu = _mm_set_epi16((short)w1, (short)w1, (short)w1, (short)w1, (short)w0, (short)w0, (short)w0, (short)w0);
    __m128i wl = _mm_set_epi16((short)w3, (short)w3, (short)w3, (short)w3, (short)w2, (short)w2, (short)w2, (short)w2);
    __m128i s = _mm_add_epi16(_mm_mullo_epi16(u, wu), _mm_mullo_epi16(l, wl));
    s = _mm_add_epi16(s, _mm_srli_si128(s, 8));
    return (uint64_t)_mm_cvtsi128_si64(s);
#else
    uint64_t out = 0;
    for (int k = 0; k < 4; k++) {
        uint32_t a = (uint32_t)(upper >> (8 * k)) & 0xFF, b = (uint32_t)(upper >> (32 + 8 * k)) & 0xFF;
        uint32_t c = (uint32_t)(lower >> (8 * k)) & 0xFF, d = (uint32_t)(lower >> (32 + 8 * k)) & 0xFF;
        uint32_t v = (a * (uint32_t)w0 + b * (uint32_t)w1 + c * (uint32_t)w2 + d * (uint32_t)w3) & 0xFFFF;
        out |= (uint64_t)v << (16 * k);
    }
    return out;
#endif
}

#endif
