// The full-coverage blend's eight-pixel AVX2 steps (`ca_full_blend`), shared by the run kernel
// (CPixelKernels.c) and the solid walk's eight-cell chunks (SolidSpanWalk.c). Private to
// CPixelKernels (not in include/); x86-64 only, each function under the avx2 target.
#ifndef CA_FULL_BLEND_LANES_H
#define CA_FULL_BLEND_LANES_H

#include <immintrin.h>
#include "CPixelKernels.h"

/// Eight pixels of `ca_full_blend_run`.
__attribute__((target("avx2"))) static inline __attribute__((always_inline)) __m256i full_blend8(__m256i v, __m256i mh, __m256i ml, __m256i bhE,
                                                                 __m256i blE, __m256i bhO, __m256i blO) {
    const __m256i mask = _mm256_set1_epi32(0x00FF00FF);
    __m256i x = _mm256_and_si256(v, mask);
    __m256i y = _mm256_and_si256(_mm256_srli_epi32(v, 8), mask);
    __m256i rx = _mm256_srli_epi16(_mm256_add_epi16(_mm256_add_epi16(_mm256_mullo_epi16(x, mh), bhE),
                                                    _mm256_srli_epi16(_mm256_add_epi16(_mm256_mullo_epi16(x, ml), blE), 8)), 8);
    __m256i ry = _mm256_srli_epi16(_mm256_add_epi16(_mm256_add_epi16(_mm256_mullo_epi16(y, mh), bhO),
                                                    _mm256_srli_epi16(_mm256_add_epi16(_mm256_mullo_epi16(y, ml), blO), 8)), 8);
    return _mm256_or_si256(rx, _mm256_slli_epi32(ry, 8));
}

/// Eight pixels of `ca_full_blend_run` with one multiply a lane (`oneMultiply`): each byte moved
/// to the high half of its 16-bit lane (D·256), multiplied keeping the high 16 bits, offset and
/// brought back to its byte — half the operations of `full_blend8`. The result is below 65536
/// before the shift because it is a byte.
__attribute__((target("avx2"))) static inline __attribute__((always_inline)) __m256i full_blend8_one(__m256i v, __m256i m1, __m256i b1E, __m256i b1O) {
    const __m256i high = _mm256_set1_epi32((int)0xFF00FF00);
    const __m256i xe = _mm256_and_si256(_mm256_slli_epi32(v, 8), high), xo = _mm256_and_si256(v, high);
    const __m256i re = _mm256_srli_epi16(_mm256_add_epi16(_mm256_mulhi_epu16(xe, m1), b1E), 8);
    const __m256i ro = _mm256_and_si256(_mm256_add_epi16(_mm256_mulhi_epu16(xo, m1), b1O), high);
    return _mm256_or_si256(re, ro);
}

/// Eight pixels through `b`'s kernel, one multiply a lane or two as `b` says: the bytes of
/// `ca_full_blend_run`.
__attribute__((target("avx2"))) static inline __attribute__((always_inline)) __m256i ca_full_blend8(__m256i v, const ca_full_blend *b) {
    if (b->oneMultiply)
        return full_blend8_one(v, _mm256_broadcastsi128_si256((__m128i)b->m1), _mm256_broadcastsi128_si256((__m128i)b->b1Even),
                               _mm256_broadcastsi128_si256((__m128i)b->b1Odd));
    return full_blend8(v, _mm256_broadcastsi128_si256((__m128i)b->mh), _mm256_broadcastsi128_si256((__m128i)b->ml),
                       _mm256_broadcastsi128_si256((__m128i)b->bhEven), _mm256_broadcastsi128_si256((__m128i)b->blEven),
                       _mm256_broadcastsi128_si256((__m128i)b->bhOdd), _mm256_broadcastsi128_si256((__m128i)b->blOdd));
}

#endif
