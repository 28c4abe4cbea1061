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

/// Four channels of four pixels, one vector per channel (lane k: pixel k).
typedef struct { ca_float4 r, g, b, a; } ca_rgba4;

#if defined(__SSE2__) && defined(__x86_64__)
/// The sums of four bilinear samples in 16-bit lanes: sample k weighs the texel pair at
/// `base + offsets[k]` by w0[k], w1[k] and the pair `delta` texels further by w2[k], w3[k]
/// (`ca_bilinear_pairs`' sums); samples 0 and 1 in `*s01` (lanes 0–3, 4–7), 2 and 3 in `*s23`.
static inline __attribute__((always_inline)) void ca_bilinear_sums4(const uint32_t *base, ca_int4 offsets, long delta,
                                                                     ca_int4 w0, ca_int4 w1, ca_int4 w2, ca_int4 w3,
                                                                     __m128i *s01, __m128i *s23) {
    __m128i z = _mm_setzero_si128();
    /* The weights as 16-bit lanes (w0 of the four samples, then w1; w2, w3), each sample's
       broadcast to its texel pair's lanes by one shuffle pair (pinsrw per lane was the
       bottleneck). */
    __m128i wu = _mm_packs_epi32((__m128i)w0, (__m128i)w1), wl = _mm_packs_epi32((__m128i)w2, (__m128i)w3);
    __m128i s[4];
#define CA_BILINEAR_SAMPLE(k) do { \
        const uint32_t *top = base + offsets[k]; \
        __m128i u = _mm_unpacklo_epi8(_mm_loadl_epi64((const __m128i *)top), z); \
        __m128i l = _mm_unpacklo_epi8(_mm_loadl_epi64((const __m128i *)(top + delta)), z); \
        __m128i wuk = _mm_shufflehi_epi16(_mm_shufflelo_epi16(wu, (k) * 0x55), (k) * 0x55); \
        __m128i wlk = _mm_shufflehi_epi16(_mm_shufflelo_epi16(wl, (k) * 0x55), (k) * 0x55); \
        __m128i t = _mm_add_epi16(_mm_mullo_epi16(u, wuk), _mm_mullo_epi16(l, wlk)); \
        s[k] = _mm_add_epi16(t, _mm_srli_si128(t, 8)); \
    } while (0)
    CA_BILINEAR_SAMPLE(0); CA_BILINEAR_SAMPLE(1); CA_BILINEAR_SAMPLE(2); CA_BILINEAR_SAMPLE(3);
#undef CA_BILINEAR_SAMPLE
    *s01 = _mm_unpacklo_epi64(s[0], s[1]);
    *s23 = _mm_unpacklo_epi64(s[2], s[3]);
}

/// Two pixels' 16-bit sums s (a channel × 256 × levels) times their channel's factor f in
/// 1/65536ths, rounded to the byte: (s · f + 2^23) >> 24. With q = ⌊s · f / 2^16⌋ (pmulhuw of
/// f's low 16 bits; s itself where f = 65536, whose low bits are 0) that is (q + 128) >> 8
/// exactly, because 2^23 is a whole multiple of 2^16. `f16`: the factors' low 16 bits;
/// `whole`: all ones in the lanes whose factor is 65536.
static inline __attribute__((always_inline)) __m128i ca_tint_pair(__m128i s, __m128i f16, __m128i whole) {
    __m128i q = _mm_add_epi16(_mm_mulhi_epu16(s, f16), _mm_and_si128(s, whole));
    return _mm_srli_epi16(_mm_add_epi16(q, _mm_set1_epi16(128)), 8);
}
#endif

/// Four bilinear samples as `ca_bilinear_sums4` (the scalar form: `ca_bilinear_pairs` per
/// sample), returned as floats (exact: each sum ≤ 65280) and transposed so that `r` holds the
/// four samples' first channel.
static inline __attribute__((always_inline)) ca_rgba4 ca_bilinear_rgba4(const uint32_t *base, ca_int4 offsets, long delta,
                                                                        ca_int4 w0, ca_int4 w1, ca_int4 w2, ca_int4 w3) {
    ca_rgba4 out;
#if defined(__SSE2__) && defined(__x86_64__)
    __m128i z = _mm_setzero_si128(), a01, a23;
    ca_bilinear_sums4(base, offsets, delta, w0, w1, w2, w3, &a01, &a23);   /* R0 G0 B0 A0 R1 G1 B1 A1 | …2, 3 */
    __m128i t0 = _mm_unpacklo_epi16(a01, a23);           /* R0 R2 G0 G2 B0 B2 A0 A2 */
    __m128i t1 = _mm_unpackhi_epi16(a01, a23);           /* R1 R3 G1 G3 B1 B3 A1 A3 */
    __m128i rg = _mm_unpacklo_epi16(t0, t1);             /* R0 R1 R2 R3 G0 G1 G2 G3 */
    __m128i ba = _mm_unpackhi_epi16(t0, t1);             /* B0 B1 B2 B3 A0 A1 A2 A3 */
    out.r = (ca_float4)_mm_cvtepi32_ps(_mm_unpacklo_epi16(rg, z));
    out.g = (ca_float4)_mm_cvtepi32_ps(_mm_unpackhi_epi16(rg, z));
    out.b = (ca_float4)_mm_cvtepi32_ps(_mm_unpacklo_epi16(ba, z));
    out.a = (ca_float4)_mm_cvtepi32_ps(_mm_unpackhi_epi16(ba, z));
#else
    for (int k = 0; k < 4; k++) {
        const uint32_t *top = base + offsets[k];
        uint64_t upper = (uint64_t)top[0] | (uint64_t)top[1] << 32, lower = (uint64_t)top[delta] | (uint64_t)top[delta + 1] << 32;
        uint64_t v = ca_bilinear_pairs(upper, lower, w0[k], w1[k], w2[k], w3[k]);
        out.r[k] = (float)(v & 0xFFFF); out.g[k] = (float)((v >> 16) & 0xFFFF);
        out.b[k] = (float)((v >> 32) & 0xFFFF); out.a[k] = (float)(v >> 48);
    }
#endif
    return out;
}

/// Four bilinear samples as `ca_bilinear_sums4`, each packed to an RGBA8 source the way
/// CASoftware's `SoftwareImageInterior.pack` does: with `opaque`, (s + 128) >> 8; else each
/// channel times its factor in 1/65536ths (`factors`: R, G, B, A), rounded; then each colour
/// byte held to the alpha byte. Lane k of the result is pixel k. `f16` holds the factors' low
/// 16 bits as eight 16-bit lanes (R, G, B, A, R, G, B, A), `whole` all ones in the lanes whose
/// factor is 65536 (`ca_tint_pair`).
static inline __attribute__((always_inline)) ca_int4 ca_bilinear_pack4(const uint32_t *base, ca_int4 offsets, long delta,
                                                                       ca_int4 w0, ca_int4 w1, ca_int4 w2, ca_int4 w3,
                                                                       ca_int4 f16, ca_int4 whole, int opaque) {
#if defined(__SSE2__) && defined(__x86_64__)
    __m128i a01, a23;
    ca_bilinear_sums4(base, offsets, delta, w0, w1, w2, w3, &a01, &a23);
    if (opaque) {
        __m128i r = _mm_set1_epi16(128);
        a01 = _mm_srli_epi16(_mm_add_epi16(a01, r), 8);
        a23 = _mm_srli_epi16(_mm_add_epi16(a23, r), 8);
    } else {
        a01 = ca_tint_pair(a01, (__m128i)f16, (__m128i)whole);
        a23 = ca_tint_pair(a23, (__m128i)f16, (__m128i)whole);
    }
    /* Each pixel's alpha in its four lanes, and the colours held to it (values ≤ 255). */
    __m128i al01 = _mm_shufflehi_epi16(_mm_shufflelo_epi16(a01, 0xFF), 0xFF);
    __m128i al23 = _mm_shufflehi_epi16(_mm_shufflelo_epi16(a23, 0xFF), 0xFF);
    a01 = _mm_min_epi16(a01, al01);
    a23 = _mm_min_epi16(a23, al23);
    return (ca_int4)_mm_packus_epi16(a01, a23);
#else
    ca_int4 out;
    for (int k = 0; k < 4; k++) {
        const uint32_t *top = base + offsets[k];
        uint64_t upper = (uint64_t)top[0] | (uint64_t)top[1] << 32, lower = (uint64_t)top[delta] | (uint64_t)top[delta + 1] << 32;
        uint64_t v = ca_bilinear_pairs(upper, lower, w0[k], w1[k], w2[k], w3[k]);
        uint32_t c[4];
        for (int j = 0; j < 4; j++) {
            uint32_t l = (uint32_t)(v >> (16 * j)) & 0xFFFF;
            uint32_t f = ((uint32_t)f16[j / 2] >> (16 * (j % 2))) & 0xFFFF;
            uint32_t whole_lane = ((uint32_t)whole[j / 2] >> (16 * (j % 2))) & 1;
            uint32_t factor = whole_lane ? 65536 : f;
            c[j] = opaque ? (l + 128) >> 8 : (uint32_t)(((uint64_t)l * factor + 0x800000) >> 24);
        }
        for (int j = 0; j < 3; j++) if (c[j] > c[3]) c[j] = c[3];
        out[k] = (int)(c[0] | c[1] << 8 | c[2] << 16 | c[3] << 24);
    }
    return out;
#endif
}

#endif
