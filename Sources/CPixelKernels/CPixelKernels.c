// See include/CPixelKernels.h. Written with x86 intrinsics under a per-function target
// attribute, so the rest of the project keeps its baseline flags; contraction into fused
// multiply-adds is off (the Swift loops round every multiply and add).
#include "CPixelKernels.h"
#include "CPrefetch.h"

#pragma clang fp contract(off)

#if defined(__x86_64__)
#include <immintrin.h>
#include "FullBlendLanes.h"

int ca_pixel_kernels_wide(void) { return ca_cpu_has_avx2(); }

/// Whether the eight pixels from k all lie in the piece: the last one's t strictly between its
/// stops (the first four are, and t is monotonic along the row).
static inline __attribute__((always_inline)) int eightInPiece(long k, double t0, double dt, const ca_axial_piece *p) {
    const float last = (float)(t0 + (double)(k + 7) * dt);
    return last > p->l0 && last < p->l1;
}

__attribute__((target("avx2"))) static long affineEights(uint32_t *row, long k, long steps8, const ca_axial_piece *p);

__attribute__((target("avx2")))
static long axial_opaque_run_avx2(uint32_t *row, long k, long n, double t0, double dt, const ca_axial_piece *p) {
    // How many eights the loop paints: those before the first whose last pixel is not strictly
    // inside the piece, found by bisection with that check rather than made every step (a sixth
    // of the loop's instructions). From a first eight that passes, the check passes for a run
    // of eights and then fails for good: t is monotonic along the row, and the first four
    // pixels are in the piece.
    long steps8 = (n - k) / 8;
    if (steps8 > 0 && !eightInPiece(k, t0, dt, p)) steps8 = 0;
    if (steps8 > 1 && !eightInPiece(k + 8 * (steps8 - 1), t0, dt, p)) {
        long lo = 0, hi = steps8 - 1;   // eight lo passes, eight hi does not
        while (hi - lo > 1) {
            const long mid = lo + (hi - lo) / 2;
            if (eightInPiece(k + 8 * mid, t0, dt, p)) lo = mid; else hi = mid;
        }
        steps8 = hi;
    }
    return affineEights(row, k, steps8, p);
}

/// `steps8` eights of `piece`'s bytes from pixel k: the top byte of value + j·step a channel, j
/// the pixel's offset from the anchor (modulo 2³²). Returns the pixel after the last painted.
__attribute__((target("avx2"))) static long affineEights(uint32_t *row, long k, long steps8, const ca_axial_piece *p) {
    const __m256i j = _mm256_add_epi32(_mm256_set1_epi32((int)(uint32_t)(k - p->anchor)), _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
    __m256i vr = _mm256_add_epi32(_mm256_set1_epi32((int)p->valueR), _mm256_mullo_epi32(j, _mm256_set1_epi32((int)p->stepR)));
    __m256i vg = _mm256_add_epi32(_mm256_set1_epi32((int)p->valueG), _mm256_mullo_epi32(j, _mm256_set1_epi32((int)p->stepG)));
    __m256i vb = _mm256_add_epi32(_mm256_set1_epi32((int)p->valueB), _mm256_mullo_epi32(j, _mm256_set1_epi32((int)p->stepB)));
    const __m256i er = _mm256_set1_epi32((int)(8 * p->stepR)), eg = _mm256_set1_epi32((int)(8 * p->stepG));
    const __m256i eb = _mm256_set1_epi32((int)(8 * p->stepB));
    // Shifts by a per-lane count (one operation; by a register's count, two on Intel's cores).
    const __m256i shR = _mm256_set1_epi32((int)p->shiftR), shG = _mm256_set1_epi32((int)p->shiftG);
    const __m256i shB = _mm256_set1_epi32((int)p->shiftB);
    const __m256i alpha = _mm256_set1_epi32((int)p->alphaWord);
    for (long s = 0; s < steps8; s++) {
        __m256i w = _mm256_or_si256(_mm256_sllv_epi32(_mm256_srli_epi32(vr, 24), shR), _mm256_sllv_epi32(_mm256_srli_epi32(vg, 24), shG));
        w = _mm256_or_si256(_mm256_or_si256(w, _mm256_sllv_epi32(_mm256_srli_epi32(vb, 24), shB)), alpha);
        _mm256_storeu_si256((__m256i *)(row + k), w);
        k += 8;
        vr = _mm256_add_epi32(vr, er);
        vg = _mm256_add_epi32(vg, eg);
        vb = _mm256_add_epi32(vb, eb);
    }
    return k;
}

/// `ca_axial_affine_store`: the eights from 0, then one more over the last eight (each pixel's
/// bytes depend on its offset only, so the pixels painted twice get the same bytes twice).
__attribute__((target("avx2"))) static void affineStoreAVX2(uint32_t *row, long n, const ca_axial_piece *p) {
    const long k = affineEights(row, 0, n / 8, p);
    if (k < n) affineEights(row, n - 8, 1, p);
}

/// A kernel's constants in registers, loaded once for many runs (`full_blend_column_avx2`): the
/// one-multiply form's three (`one`) or the general form's six.
typedef struct {
    __m256i mh, ml, bhE, blE, bhO, blO, m1, b1E, b1O;
    int one;
} fullBlendLanes;

__attribute__((target("avx2"))) static inline __attribute__((always_inline)) fullBlendLanes fullBlendLanesOf(const ca_full_blend *b) {
    fullBlendLanes l = { 0 };
    l.one = b->oneMultiply != 0;
    if (l.one) {
        l.m1 = _mm256_broadcastsi128_si256((__m128i)b->m1);
        l.b1E = _mm256_broadcastsi128_si256((__m128i)b->b1Even); l.b1O = _mm256_broadcastsi128_si256((__m128i)b->b1Odd);
    } else {
        l.mh = _mm256_broadcastsi128_si256((__m128i)b->mh); l.ml = _mm256_broadcastsi128_si256((__m128i)b->ml);
        l.bhE = _mm256_broadcastsi128_si256((__m128i)b->bhEven); l.blE = _mm256_broadcastsi128_si256((__m128i)b->blEven);
        l.bhO = _mm256_broadcastsi128_si256((__m128i)b->bhOdd); l.blO = _mm256_broadcastsi128_si256((__m128i)b->blOdd);
    }
    return l;
}

/// `ca_full_blend_run`'s one run of `count` (at least eight) pixels from `base`.
__attribute__((target("avx2"))) static inline __attribute__((always_inline)) void fullBlendRow(uint8_t *base, long count,
                                                                                               const fullBlendLanes *l) {
    uint8_t *last = base + (count - 8) * 4;
    const long rest = count & 7;
    // The last eight's old bytes, read before the loop overwrites the ones it shares with them.
    const __m256i tail = _mm256_loadu_si256((const __m256i *)last);
    if (l->one) {
        for (long k = 0; k + 8 <= count; k += 8) {
            __m256i *q = (__m256i *)(base + k * 4);
            _mm256_storeu_si256(q, full_blend8_one(_mm256_loadu_si256(q), l->m1, l->b1E, l->b1O));
        }
        if (rest) _mm256_storeu_si256((__m256i *)last, full_blend8_one(tail, l->m1, l->b1E, l->b1O));
        return;
    }
    for (long k = 0; k + 8 <= count; k += 8) {
        __m256i *q = (__m256i *)(base + k * 4);
        _mm256_storeu_si256(q, full_blend8(_mm256_loadu_si256(q), l->mh, l->ml, l->bhE, l->blE, l->bhO, l->blO));
    }
    if (rest) _mm256_storeu_si256((__m256i *)last, full_blend8(tail, l->mh, l->ml, l->bhE, l->blE, l->bhO, l->blO));
}

__attribute__((target("avx2")))
static void full_blend_run_avx2(void *p, long count, const ca_full_blend *b) {
    const fullBlendLanes l = fullBlendLanesOf(b);
    fullBlendRow((uint8_t *)p, count, &l);
}

/// `full_blend_run_avx2` down `rows` rows `bytesPerRow` apart, the constants loaded once (the
/// sides of a rect: a run a row, each call and its set-up once a row before), pixels four rows
/// down prefetched as the walk's.
__attribute__((target("avx2")))
static void full_blend_column_avx2(uint8_t *p, long bytesPerRow, long rows, long count, const ca_full_blend *b) {
    const fullBlendLanes l = fullBlendLanesOf(b);
    const size_t bytes = (size_t)count * 4;
    for (long r = 0; r < rows; r++, p += bytesPerRow) {
        if (r + 4 < rows) ca_prefetch_range(p + 4 * bytesPerRow, bytes);
        fullBlendRow(p, count, &l);
    }
}

__attribute__((target("avx2")))
static void solid_table_avx2(const float s[4], float keep, uint8_t out[1024]) {
    const __m256 ramp = _mm256_setr_ps(0, 1, 2, 3, 4, 5, 6, 7), k = _mm256_set1_ps(keep), half = _mm256_set1_ps(0.5f);
    // Thirty-two values packed to bytes at once (the same unsigned saturations, 32 to 16 bits
    // and 16 to 8, as eight at a time), their 128-bit halves' order put back by one permute.
    const __m256i order = _mm256_setr_epi32(0, 4, 1, 5, 2, 6, 3, 7);
    for (int c = 0; c < 4; c++) {
        const __m256 sc = _mm256_set1_ps(s[c]);
        for (int d = 0; d < 256; d += 32) {
            __m256i v[4];
            for (int j = 0; j < 4; j++) {
                const __m256 dv = _mm256_add_ps(ramp, _mm256_set1_ps((float)(d + 8 * j)));
                v[j] = _mm256_cvttps_epi32(_mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(dv, k), sc), half));
            }
            const __m256i bytes = _mm256_packus_epi16(_mm256_packus_epi32(v[0], v[1]), _mm256_packus_epi32(v[2], v[3]));
            _mm256_storeu_si256((__m256i *)(out + 256 * c + d), _mm256_permutevar8x32_epi32(bytes, order));
        }
    }
}

__attribute__((target("avx2")))
static int full_blend_search_avx2(const uint8_t table[1024], long m0, long *mOut, long bOut[4], long b256Out[4]) {
    static const int deltas[9] = {0, -1, 1, -2, 2, -3, 3, -4, 4};
    const __m256i ramp = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
    for (int i = 0; i < 9; i++) {
        long m = m0 + deltas[i];
        if (m < 0 || m > 65536) continue;
        const __m256i mv = _mm256_set1_epi32((int)m);
        long bs[4], b256[4];
        int ok = 1;
        for (int c = 0; c < 4 && ok; c++) {
            // v = T·65536 − D·m (|v| < 2^25): b must be at least every v and at most every v + 65535.
            __m256i vmax = _mm256_setzero_si256(), vmin = _mm256_set1_epi32(0x7FFFFFFF);
            for (int d = 0; d < 256; d += 8) {
                __m256i t = _mm256_cvtepu8_epi32(_mm_loadl_epi64((const __m128i *)(table + 256 * c + d)));
                __m256i dv = _mm256_add_epi32(ramp, _mm256_set1_epi32(d));
                __m256i v = _mm256_sub_epi32(_mm256_slli_epi32(t, 16), _mm256_mullo_epi32(dv, mv));
                vmax = _mm256_max_epi32(vmax, v);
                vmin = _mm256_min_epi32(vmin, v);
            }
            int mx[8], mn[8];
            _mm256_storeu_si256((__m256i *)mx, vmax);
            _mm256_storeu_si256((__m256i *)mn, vmin);
            long lo = mx[0], hi = mn[0];
            for (int j = 1; j < 8; j++) { if (mx[j] > lo) lo = mx[j]; if (mn[j] < hi) hi = mn[j]; }
            if (lo <= hi + 65535) {
                bs[c] = lo;
                // The least multiple of 256 at or above lo, if it is still allowed.
                const long up = (lo + 255) / 256;
                b256[c] = up * 256 <= hi + 65535 ? up : -1;
            } else {
                ok = 0;
            }
        }
        if (ok) {
            *mOut = m;
            for (int c = 0; c < 4; c++) { bOut[c] = bs[c]; b256Out[c] = b256[c]; }
            return 1;
        }
    }
    return 0;
}

// The entry points: plain functions (no AVX2 instruction can be scheduled before the check)
// that run the AVX2 loops only where the CPU has them.

long ca_axial_opaque_run(uint32_t *row, long k, long n, double t0, double dt, const ca_axial_piece *p) {
    return ca_pixel_kernels_wide() ? axial_opaque_run_avx2(row, k, n, t0, dt, p) : k;
}

long ca_axial_affine_store(uint32_t *row, long n, const ca_axial_piece *p) {
    if (!ca_pixel_kernels_wide() || n < 8) return 0;
    affineStoreAVX2(row, n, p);
    return n;
}

void ca_full_blend_run(void *p, long count, const ca_full_blend *b) {
    if (ca_pixel_kernels_wide() && count >= 8) full_blend_run_avx2(p, count, b);
}

void ca_full_blend_column(void *p, long bytesPerRow, long rows, long count, const ca_full_blend *b) {
    if (ca_pixel_kernels_wide() && count >= 8) full_blend_column_avx2((uint8_t *)p, bytesPerRow, rows, count, b);
}

void ca_solid_table(const float s[4], float keep, uint8_t out[1024]) {
    if (ca_pixel_kernels_wide()) solid_table_avx2(s, keep, out);
}

int ca_full_blend_search(const uint8_t table[1024], long m0, long *m, long b[4], long b256[4]) {
    return ca_pixel_kernels_wide() ? full_blend_search_avx2(table, m0, m, b, b256) : 0;
}

#else

int ca_pixel_kernels_wide(void) { return 0; }

void ca_full_blend_run(void *p, long count, const ca_full_blend *b) { (void)p; (void)count; (void)b; }

void ca_full_blend_column(void *p, long bytesPerRow, long rows, long count, const ca_full_blend *b) {
    (void)p; (void)bytesPerRow; (void)rows; (void)count; (void)b;
}

void ca_solid_table(const float s[4], float keep, uint8_t out[1024]) { (void)s; (void)keep; (void)out; }

int ca_full_blend_search(const uint8_t table[1024], long m0, long *m, long b[4], long b256[4]) {
    (void)table; (void)m0; (void)m; (void)b; (void)b256;
    return 0;
}

long ca_axial_opaque_run(uint32_t *row, long k, long n, double t0, double dt, const ca_axial_piece *p) {
    (void)row; (void)n; (void)t0; (void)dt; (void)p;
    return k;
}

long ca_axial_affine_store(uint32_t *row, long n, const ca_axial_piece *p) {
    (void)row; (void)n; (void)p;
    return 0;
}

#endif
