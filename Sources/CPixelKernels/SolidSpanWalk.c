// See include/SolidSpanWalk.h. Baseline x86-64 (SSE2) code like the Swift loops it replaces;
// runs of eight or more at full coverage go to `ca_full_blend_run` (AVX2 where the CPU has it,
// as the Swift loop's). Contraction into fused multiply-adds is off, as in the Swift loops.
#include "SolidSpanWalk.h"
#include "RasterRowSpans.h"
#include "CFloatLanes.h"
#include "CPrefetch.h"
#include "CCoverage.h"
#include <string.h>

#pragma clang fp contract(off)

#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#if defined(__x86_64__)
#include "FullBlendLanes.h"
#endif

static inline __attribute__((always_inline)) uint32_t load32(const uint8_t *p) { uint32_t v; memcpy(&v, p, 4); return v; }
static inline __attribute__((always_inline)) void store32(uint8_t *p, uint32_t v) { memcpy(p, &v, 4); }

/// `FullCoverageBlend.apply1`: one pixel, two bytes in each 32-bit half of a 64-bit word.
static inline __attribute__((always_inline)) uint32_t apply1(uint32_t w, const ca_solid_paint *p) {
    uint64_t v = w;
    uint64_t x = (v & 0xFF) | (v & 0xFF0000) << 16;
    uint64_t y = (v >> 8 & 0xFF) | (v >> 24) << 32;
    uint64_t rx = x * p->m + p->even, ry = y * p->m + p->odd;
    return (uint32_t)((rx >> 16 & 0xFF) | (ry >> 8 & 0xFF00) | (rx >> 32 & 0xFF0000) | (ry >> 24 & 0xFF000000));
}

#if defined(__SSE2__)
/// `FullCoverageBlend.apply4`: four pixels in 16-bit lanes.
static inline __attribute__((always_inline)) __m128i apply4(__m128i v, const ca_full_blend *b) {
    const __m128i mask = _mm_set1_epi32(0x00FF00FF);
    const __m128i mh = (__m128i)b->mh, ml = (__m128i)b->ml;
    __m128i x = _mm_and_si128(v, mask);
    __m128i y = _mm_and_si128(_mm_srli_epi32(v, 8), mask);
    __m128i rx = _mm_srli_epi16(_mm_add_epi16(_mm_add_epi16(_mm_mullo_epi16(x, mh), (__m128i)b->bhEven),
                                              _mm_srli_epi16(_mm_add_epi16(_mm_mullo_epi16(x, ml), (__m128i)b->blEven), 8)), 8);
    __m128i ry = _mm_srli_epi16(_mm_add_epi16(_mm_add_epi16(_mm_mullo_epi16(y, mh), (__m128i)b->bhOdd),
                                              _mm_srli_epi16(_mm_add_epi16(_mm_mullo_epi16(y, ml), (__m128i)b->blOdd), 8)), 8);
    return _mm_or_si128(rx, _mm_slli_epi32(ry, 8));
}
#endif

/// `FullCoverageBlend.apply(_:count:)`: runs of eight or more through the AVX2 loop when
/// `wide`; four pixels at a time in 16-bit lanes from four, a run whose length is not a
/// multiple of four ending with one more step over its last four (computed from their bytes as
/// they were before the run: each result depends on its own pixel only); one or two pixels in
/// 64-bit words below four. Every way gives the same bytes.
static inline __attribute__((always_inline)) void applyKernel(uint8_t *p, long count, const ca_full_blend *lanes, uint64_t m, uint64_t even, uint64_t odd,
                               int wide) {
    if (count >= 8 && wide) {
        ca_full_blend_run(p, count, lanes);
        return;
    }
    const ca_solid_paint k = { .lanes = lanes, .m = m, .even = even, .odd = odd };
#if defined(__SSE2__)
    if (count >= 4) {
        uint8_t *last = p + (count - 4) * 4;
        long rest = count & 3;
        __m128i tail = rest ? _mm_loadu_si128((const __m128i *)last) : _mm_setzero_si128();
        for (long j = 0; j + 4 <= count; j += 4) {
            __m128i *q = (__m128i *)(p + j * 4);
            _mm_storeu_si128(q, apply4(_mm_loadu_si128(q), lanes));
        }
        if (rest) _mm_storeu_si128((__m128i *)last, apply4(tail, lanes));
        return;
    }
    // One to three pixels in the low lanes of one register (each lane is its own pixel's: the
    // same bytes as one at a time, in about half the instructions).
    if (count == 2) {
        _mm_storel_epi64((__m128i *)p, apply4(_mm_loadl_epi64((const __m128i *)p), lanes));
        return;
    }
    if (count == 3) {
        __m128i v = _mm_unpacklo_epi64(_mm_loadl_epi64((const __m128i *)p), _mm_cvtsi32_si128((int)load32(p + 8)));
        v = apply4(v, lanes);
        _mm_storel_epi64((__m128i *)p, v);
        store32(p + 8, (uint32_t)_mm_cvtsi128_si32(_mm_srli_si128(v, 8)));
        return;
    }
    if (count == 1) {
        store32(p, (uint32_t)_mm_cvtsi128_si32(apply4(_mm_cvtsi32_si128((int)load32(p)), lanes)));
        return;
    }
#else
    if (count >= 4) {
        for (long j = 0; j < count; j++) store32(p + j * 4, apply1(load32(p + j * 4), &k));
        return;
    }
#endif
    long j = 0;
    if (count >= 2) {
        uint64_t w;
        memcpy(&w, p, 8);
        uint64_t lo = apply1((uint32_t)w, &k), hi = apply1((uint32_t)(w >> 32), &k);
        w = lo | hi << 32;
        memcpy(p, &w, 8);
        j = 2;
    }
    if (j < count) store32(p + j * 4, apply1(load32(p + j * 4), &k));
}

void ca_full_blend_apply(void *p, long count, const ca_full_blend *lanes, uint64_t m, uint64_t even, uint64_t odd, int wide) {
    applyKernel((uint8_t *)p, count, lanes, m, even, odd, wide);
}

/// `SolidSpanWriter.blend(_:coverage:)`: one pixel at coverage `c` (negligible: untouched, the
/// same bytes; see CA_NEGLIGIBLE_COVERAGE).
static inline __attribute__((always_inline)) void blendOne(uint8_t *q, float c, const ca_solid_paint *paint) {
    if (!(c > CA_NEGLIGIBLE_COVERAGE)) return;
    const int ro = paint->ro, go = paint->go, bo = paint->bo, ao = paint->ao;
    if (c >= 1 && paint->opaque) {
        if (ao >= 0) { store32(q, paint->word); return; }
        q[ro] = paint->solid[0]; q[go] = paint->solid[1]; q[bo] = paint->solid[2];
        return;
    }
    if (c >= 1 && paint->table) {
        const uint8_t *t = paint->table;
        q[ro] = t[q[ro]]; q[go] = t[256 + q[go]]; q[bo] = t[512 + q[bo]];
        if (ao >= 0) q[ao] = t[768 + q[ao]];
        return;
    }
    // The float path: D·(1 − Sα·k) + S·k + 0.5, truncated, per byte (the four bytes in memory
    // order with an alpha byte; r, g, b and an alpha of 255 without).
    const float k = c < 1 ? c : 1;
    const float keep = 1 - paint->sa * k;
    if (ao >= 0) {
        const ca_float4 s = { paint->s255[0], paint->s255[1], paint->s255[2], paint->s255[3] };
        ca_float4 d = ca_unpack_bytes4(load32(q));
        ca_float4 o = d * keep + s * k + 0.5f;
        store32(q, ca_pack_bytes4(ca_truncate4(o)));
        return;
    }
    const ca_float4 s = { paint->s255Channels[0], paint->s255Channels[1], paint->s255Channels[2], paint->s255Channels[3] };
    const ca_float4 d = { (float)q[ro], (float)q[go], (float)q[bo], 255 };
    ca_float4 o = d * keep + s * k + 0.5f;
    q[ro] = (uint8_t)(int32_t)o.x; q[go] = (uint8_t)(int32_t)o.y; q[bo] = (uint8_t)(int32_t)o.z;
}

/// `SolidSpanWriter.fill(_:count:coverage:)` (c > 0).
static __attribute__((noinline)) void fill(uint8_t *p, long count, float c, const ca_solid_paint *paint) {
    if (c >= 1 && paint->opaque && paint->ao >= 0) {
        for (long k = 0; k < count; k++) store32(p + k * 4, paint->word);
        return;
    }
    if (c >= 1 && paint->hasKernel) {
        applyKernel(p, count, paint->lanes, paint->m, paint->even, paint->odd, paint->wide);
        return;
    }
    if (c >= 1 && paint->table) {
        const uint8_t *t = paint->table;
        const int ro = paint->ro, go = paint->go, bo = paint->bo, ao = paint->ao;
        for (long k = 0; k < count; k++) {
            uint8_t *q = p + k * 4;
            q[ro] = t[q[ro]]; q[go] = t[256 + q[go]]; q[bo] = t[512 + q[bo]];
            if (ao >= 0) q[ao] = t[768 + q[ao]];
        }
        return;
    }
    // `blendOne` at one coverage for the whole run, its choices made once.
    const int ro = paint->ro, go = paint->go, bo = paint->bo, ao = paint->ao;
    if (c >= 1 && paint->opaque) {
        // (Only without an alpha byte: with one, the word stores above.)
        for (long j = 0; j < count; j++) {
            uint8_t *q = p + j * 4;
            q[ro] = paint->solid[0]; q[go] = paint->solid[1]; q[bo] = paint->solid[2];
        }
        return;
    }
    const float k = c < 1 ? c : 1;
    const float keep = 1 - paint->sa * k;
    if (ao >= 0) {
        const ca_float4 s = { paint->s255[0], paint->s255[1], paint->s255[2], paint->s255[3] };
        for (long j = 0; j < count; j++) {
            uint8_t *q = p + j * 4;
            ca_float4 d = ca_unpack_bytes4(load32(q));
            ca_float4 o = d * keep + s * k + 0.5f;
            store32(q, ca_pack_bytes4(ca_truncate4(o)));
        }
        return;
    }
    for (long j = 0; j < count; j++) blendOne(p + j * 4, c, paint);
}

/// `fill` with its most common case, a translucent colour's full-coverage run of eight or
/// more through the AVX2 loop, called straight from the walk.
static inline __attribute__((always_inline)) void paintRun(uint8_t *p, long count, float c, const ca_solid_paint *paint) {
    if (c >= 1 && count >= 8 && paint->hasKernel && paint->wide && !paint->opaque) {
        ca_full_blend_run(p, count, paint->lanes);
        return;
    }
    if (c < 1 && count <= 2 && paint->ao >= 0) {
        // An edge's one or two partly covered pixels, most of a small shape's runs: `fill`'s
        // float path in line (the same expression), without the call and its choices.
        const float keep = 1 - paint->sa * c;
        const ca_float4 s = { paint->s255[0], paint->s255[1], paint->s255[2], paint->s255[3] };
        for (long j = 0; j < count; j++) {
            uint8_t *q = p + j * 4;
            const ca_float4 o = ca_unpack_bytes4(load32(q)) * keep + s * c + 0.5f;
            store32(q, ca_pack_bytes4(ca_truncate4(o)));
        }
        return;
    }
    fill(p, count, c, paint);
}

/// `paintRun` over `rows` rows `bytesPerRow` apart (the same span of rows that hold the same
/// held-back runs), its choice of kernel made once: the same calls, and so the same bytes, as
/// `paintRun` row by row. Pixels four rows down are prefetched, as the walk's, while they are
/// rows of the column.
static inline __attribute__((always_inline)) void paintColumn(uint8_t *p, long bytesPerRow, long rows, long count, float c,
                                                              const ca_solid_paint *paint) {
    const size_t bytes = (size_t)count * 4;
    if (c >= 1 && count >= 8 && paint->hasKernel && paint->wide && !paint->opaque) {
        ca_full_blend_column(p, bytesPerRow, rows, count, paint->lanes);
    } else if (c >= 1 && paint->opaque && paint->ao >= 0) {
        for (long r = 0; r < rows; r++, p += bytesPerRow) {
            if (r + 4 < rows) ca_prefetch_range(p + 4 * bytesPerRow, bytes);
            for (long k = 0; k < count; k++) store32(p + k * 4, paint->word);
        }
    } else if (c >= 1 && paint->hasKernel) {
        for (long r = 0; r < rows; r++, p += bytesPerRow) {
            if (r + 4 < rows) ca_prefetch_range(p + 4 * bytesPerRow, bytes);
            applyKernel(p, count, paint->lanes, paint->m, paint->even, paint->odd, paint->wide);
        }
    } else {
        for (long r = 0; r < rows; r++, p += bytesPerRow) {
            if (r + 4 < rows) ca_prefetch_range(p + 4 * bytesPerRow, bytes);
            fill(p, count, c, paint);
        }
    }
}

/// The clip's coverage of pixel (x, y) (`ClipMask.value`).
static inline __attribute__((always_inline)) float maskValue(const ca_clip_mask *m, long x, long y) {
    if (x < m->x0 || y < m->y0 || x >= m->x1 || y >= m->y1) return 0;
    return m->values[(y - m->y0) * (m->x1 - m->x0) + (x - m->x0)];
}

/// Cells [lo, hi) of row y (box columns) at coverage c under the clip: where the clip is
/// exactly 1 (its row's full columns, `fullLo` … `fullHi` in box columns) as unclipped (c · 1
/// is c: the same bytes), elsewhere a pixel at a time at c × the clip's coverage.
static __attribute__((noinline)) void paintClipped(uint8_t *row, long boxX0, long y, long lo, long hi, float c, long fullLo, long fullHi,
                                const ca_solid_paint *paint, const ca_clip_mask *mask) {
    long fa = lo > fullLo ? lo : fullLo;
    if (hi < fa) fa = hi;
    long fb = hi < fullHi ? hi : fullHi;
    if (fb < fa) fb = fa;
    for (long k = lo; k < fa; k++) { const long x = boxX0 + k; blendOne(row + x * 4, c * maskValue(mask, x, y), paint); }
    if (fa < fb) paintRun(row + (boxX0 + fa) * 4, fb - fa, c, paint);
    for (long k = fb; k < hi; k++) { const long x = boxX0 + k; blendOne(row + x * 4, c * maskValue(mask, x, y), paint); }
}

/// The first (`end` 0) or one-past-last (`end` 1) of the clip's full columns in row y, in box
/// columns (an empty range where it has none, or there is no mask).
static inline __attribute__((always_inline)) long fullColumns(const ca_clip_mask *mask, long y, long boxX0, int end) {
    if (mask && mask->fullRuns && y >= mask->y0 && y < mask->y1) return mask->x0 + mask->fullRuns[2 * (y - mask->y0) + end] - boxX0;
    return -boxX0;
}

/// The spans of rows that hold only held-back runs (`ca_held_spans`) painted down box rows
/// j … end − 1, each span as one column (`paintColumn`); under a clip, down the rows where the
/// span lies inside the clip's full columns (`paintClipped` paints those as unclipped too), row
/// by row through `paintClipped` elsewhere.
static inline __attribute__((always_inline)) void paintHeldRows(uint8_t *base, long bytesPerRow, long boxX0, long boxY0, long j,
                                                                long end, const rowSpan *spans, long count,
                                                                const ca_solid_paint *paint, const ca_clip_mask *mask) {
    for (long k = 0; k < count; k++) {
        const rowSpan sp = spans[k];
        if (!mask) {
            paintColumn(base + (boxY0 + j) * bytesPerRow + (boxX0 + sp.lo) * 4, bytesPerRow, end - j, sp.hi - sp.lo, sp.c, paint);
            continue;
        }
        for (long r = j; r < end;) {
            long r2 = r;
            while (r2 < end && sp.lo >= fullColumns(mask, boxY0 + r2, boxX0, 0) && sp.hi <= fullColumns(mask, boxY0 + r2, boxX0, 1)) r2++;
            if (r2 > r) {
                paintColumn(base + (boxY0 + r) * bytesPerRow + (boxX0 + sp.lo) * 4, bytesPerRow, r2 - r, sp.hi - sp.lo, sp.c, paint);
                r = r2;
                continue;
            }
            const long y = boxY0 + r;
            paintClipped(base + y * bytesPerRow, boxX0, y, sp.lo, sp.hi, sp.c, fullColumns(mask, y, boxX0, 0),
                         fullColumns(mask, y, boxX0, 1), paint, mask);
            r++;
        }
    }
}

/// What the solid walk's row functions paint with.
typedef struct {
    uint8_t *base;
    long bytesPerRow, boxX0, boxY0, w, firstI, endI;
    int evenOdd;
    /// Whether rows with cells take `chunkRow` (see `ca_solid_walk`).
    int chunked;
    const ca_solid_paint *paint;
    const ca_clip_mask *mask;
} solidWalk;

#if defined(__x86_64__)
/// Eight pixels from `q` at coverages `cv` (one a pixel, each ≥ 0), as `paintRun` paints a
/// pixel at its coverage: left as it is at or below `CA_NEGLIGIBLE_COVERAGE`, the full-coverage
/// store or kernel at 1 or more, else the float blend D·(1 − Sα·c) + S·c + 0.5 truncated,
/// every lane computed in the same operations as the one-pixel path's (so the same bytes).
/// For a paint with an alpha byte that is opaque or has a kernel.
__attribute__((target("avx2"))) static inline __attribute__((always_inline)) void blendEight(uint8_t *q, __m256 cv,
                                                                                             const ca_solid_paint *paint) {
    // Every lane's three outcomes worked out and one chosen (choosing by branches on the
    // lanes' mix mispredicted at most edges).
    const __m256 painted = _mm256_cmp_ps(cv, _mm256_set1_ps(CA_NEGLIGIBLE_COVERAGE), _CMP_GT_OQ);
    const __m256 full = _mm256_cmp_ps(cv, _mm256_set1_ps(1), _CMP_GE_OQ);
    const __m256i old = _mm256_loadu_si256((const __m256i *)q);
    // A register a channel (byte k of each of the eight pixels), so each pixel's keep and
    // coverage are used as they come, one lane a pixel.
    const __m256 keep = _mm256_sub_ps(_mm256_set1_ps(1), _mm256_mul_ps(_mm256_set1_ps(paint->sa), cv));
    const __m256 half = _mm256_set1_ps(0.5f);
    const __m256i byteMask = _mm256_set1_epi32(0xFF);
    __m256i o[4];
    for (int k = 0; k < 4; k++) {
        const __m256i channel = k == 3 ? _mm256_srli_epi32(old, 24) : _mm256_and_si256(_mm256_srli_epi32(old, 8 * k), byteMask);
        const __m256 d = _mm256_cvtepi32_ps(channel);
        const __m256 sc = _mm256_mul_ps(_mm256_set1_ps(paint->s255[k]), cv);
        o[k] = _mm256_cvttps_epi32(_mm256_add_ps(_mm256_add_ps(_mm256_mul_ps(d, keep), sc), half));
    }
    // Packed as ca_pack_bytes4 packs (signed to 16 bits, unsigned to 8: the same saturation
    // for each value), giving each 128-bit half's four pixels channel by channel, then put
    // back pixel by pixel.
    const __m256i planes = _mm256_packus_epi16(_mm256_packs_epi32(o[0], o[1]), _mm256_packs_epi32(o[2], o[3]));
    const __m256i interleave = _mm256_setr_epi8(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15,
                                                0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15);
    __m256i out = _mm256_shuffle_epi8(planes, interleave);
    const __m256i whole = paint->opaque ? _mm256_set1_epi32((int)paint->word) : ca_full_blend8(old, paint->lanes);
    out = _mm256_blendv_epi8(out, whole, _mm256_castps_si256(full));
    out = _mm256_blendv_epi8(old, out, _mm256_castps_si256(painted));
    _mm256_storeu_si256((__m256i *)q, out);
}

/// `ca_coverage_of_winding` of eight sums, lane for lane in its operations (even-odd: the
/// general fold, which gives the first case's value for |w| ≤ 2 too: ⌊|w|/2⌋ is 0 there, or 1
/// at 2, where both give 0).
__attribute__((target("avx2"))) static inline __attribute__((always_inline)) __m256 coverageEight(__m256 sum, int evenOdd) {
    const __m256 one = _mm256_set1_ps(1);
    __m256 c = _mm256_and_ps(sum, _mm256_castsi256_ps(_mm256_set1_epi32(0x7FFFFFFF)));
    if (evenOdd) {
        const __m256 half = _mm256_mul_ps(c, _mm256_set1_ps(0.5f));
        const __m256 whole = _mm256_cvtepi32_ps(_mm256_cvttps_epi32(half));
        const __m256 floorHalf = _mm256_blendv_ps(half, whole, _mm256_cmp_ps(half, _mm256_set1_ps(8388608.0f), _CMP_LT_OQ));
        c = _mm256_sub_ps(c, _mm256_mul_ps(_mm256_set1_ps(2), floorHalf));
        c = _mm256_blendv_ps(c, _mm256_sub_ps(_mm256_set1_ps(2), c), _mm256_cmp_ps(c, one, _CMP_GT_OQ));
    }
    return _mm256_blendv_ps(c, one, _mm256_cmp_ps(c, _mm256_set1_ps(1 - CA_FULL_COVERAGE_SLACK), _CMP_GE_OQ));
}

/// Lane masks: `fromLane[i]` has lanes i … 7 set.
static const float fromLane[8][8] __attribute__((aligned(32))) = {
#define ONES __builtin_bit_cast(float, 0xFFFFFFFFu)
    { ONES, ONES, ONES, ONES, ONES, ONES, ONES, ONES }, { 0, ONES, ONES, ONES, ONES, ONES, ONES, ONES },
    { 0, 0, ONES, ONES, ONES, ONES, ONES, ONES }, { 0, 0, 0, ONES, ONES, ONES, ONES, ONES },
    { 0, 0, 0, 0, ONES, ONES, ONES, ONES }, { 0, 0, 0, 0, 0, ONES, ONES, ONES },
    { 0, 0, 0, 0, 0, 0, ONES, ONES }, { 0, 0, 0, 0, 0, 0, 0, ONES },
#undef ONES
};

/// A row's cells as `solidCellRow` reads them (unclipped, from the box's first column)
/// but eight cells at a time: each eight with a touched cell is loaded and cleared at once, its
/// running sums formed in a vector — each touched cell's value added, in column order, to the
/// lanes from its own on, so every lane holds the sum the cell-by-cell reader reaches there (an
/// untouched cell is 0, and adding it changes no sum) — and its eight pixels painted by
/// `blendEight`; the columns between two eights take the last sum's coverage as a run
/// (`paintRun`). The same coverages and the same bytes as the span reader, in about half its
/// operations on a shape's edges, where a reader's run is a pixel or two (the stroke of each of the
/// 1,000 stars). An eight reaching past the bitmap's part of the box is read cell by cell.
__attribute__((target("avx2"))) static __attribute__((noinline)) void chunkRow(const solidWalk *sw, uint8_t *row, ca_touched *t) {
    const ca_solid_paint *paint = sw->paint;
    const long w = sw->w, endI = sw->endI, words = t->words;
    float *cells = t->cells;
    uint64_t *bits = t->bits;
    // Columns from `from` up to the next touched cell have coverage `cov`.
    float sum = 0, cov = 0;
    long from = 0;
#define RUN_TO(limit) do { \
        const long hi_ = (limit) < endI ? (limit) : endI; \
        if (cov > CA_NEGLIGIBLE_COVERAGE && from < hi_) paintRun(row + from * 4, hi_ - from, cov, paint); \
        from = (limit); \
    } while (0)
    for (long k = 0; k < words; k++) {
        uint64_t word = bits[k];
        if (!word) continue;
        bits[k] = 0;
        while (word) {
            const long b = __builtin_ctzll(word) & ~7L, x0 = (k << 6) + b;
            uint32_t touched = (uint32_t)(word >> b) & 0xFF;
            word &= ~((uint64_t)0xFF << b);
            if (x0 + 8 > endI) {
                // Cell by cell, as the span reader (cells at or past the width skipped).
                while (touched) {
                    const long col = x0 + __builtin_ctz(touched);
                    touched &= touched - 1;
                    const float c = cells[col];
                    cells[col] = 0;
                    if (col >= w || c == 0) continue;
                    RUN_TO(col);
                    sum += c;
                    cov = ca_coverage_of_winding(sum, sw->evenOdd);
                }
                continue;
            }
            RUN_TO(x0);
            // Every lane's cell added to the lanes from its own on, in column order (eight steps
            // whatever the touched lanes: a loop over them mispredicted its end at most eights).
            __m256 v = _mm256_set1_ps(sum);
            for (int i = 0; i < 8; i++)
                v = _mm256_add_ps(v, _mm256_and_ps(_mm256_broadcast_ss(cells + x0 + i), _mm256_loadu_ps(fromLane[i])));
            _mm256_storeu_ps(cells + x0, _mm256_setzero_ps());
            const __m256 cv = coverageEight(v, sw->evenOdd);
            blendEight(row + x0 * 4, cv, paint);
            sum = _mm_cvtss_f32(_mm256_castps256_ps128(_mm256_permutevar8x32_ps(v, _mm256_set1_epi32(7))));
            cov = _mm_cvtss_f32(_mm256_castps256_ps128(_mm256_permutevar8x32_ps(cv, _mm256_set1_epi32(7))));
            from = x0 + 8;
        }
    }
    RUN_TO(endI);
#undef RUN_TO
}
#endif

/// `ca_walk_rows`' held rows: `paintHeldRows`; `mask` the walk's or NULL (its own copy).
static inline __attribute__((always_inline)) void solidHeldRows(const solidWalk *s, long j, long end, const rowSpan *spans, long count,
                                                                const ca_clip_mask *mask) {
    paintHeldRows(s->base, s->bytesPerRow, s->boxX0, s->boxY0, j, end, spans, count, s->paint, mask);
}

/// `ca_walk_rows`' rows with cells: each run painted, under the clip's full columns as
/// unclipped; `mask` the walk's or NULL (its own copy).
static inline __attribute__((always_inline)) void solidCellRow(const solidWalk *s, long j, ca_touched *t, const ca_clip_mask *mask) {
    const long y = s->boxY0 + j, boxX0 = s->boxX0;
    uint8_t *row = s->base + y * s->bytesPerRow;
    // The clip's full columns in this row, in box columns (none: an empty range).
    const long fullLo = fullColumns(mask, y, boxX0, 0), fullHi = fullColumns(mask, y, boxX0, 1);
    const ca_solid_paint *paint = s->paint;
#if defined(__x86_64__)
    if (!mask && s->chunked) {
        chunkRow(s, row + boxX0 * 4, t);
        return;
    }
#endif
    CA_EACH_ROW_SPAN(ca_take_touched(t, &i_, &c_), s->w, s->firstI, s->endI, s->evenOdd, sp,
        if (mask) paintClipped(row, boxX0, y, sp.lo, sp.hi, sp.c, fullLo, fullHi, paint, mask);
        else paintRun(row + (boxX0 + sp.lo) * 4, sp.hi - sp.lo, sp.c, paint););
}

static inline __attribute__((always_inline)) void heldClipped(void *ctx, long j, long end, const rowSpan *spans, long count) {
    solidHeldRows(ctx, j, end, spans, count, ((const solidWalk *)ctx)->mask);
}
static inline __attribute__((always_inline)) void heldUnclipped(void *ctx, long j, long end, const rowSpan *spans, long count) {
    solidHeldRows(ctx, j, end, spans, count, NULL);
}
static inline __attribute__((always_inline)) void cellsClipped(void *ctx, long j, ca_touched *t) {
    solidCellRow(ctx, j, t, ((const solidWalk *)ctx)->mask);
}
static inline __attribute__((always_inline)) void cellsUnclipped(void *ctx, long j, ca_touched *t) { solidCellRow(ctx, j, t, NULL); }

void ca_solid_walk(const ca_raster_rows *rows, uint8_t *base, long bytesPerRow, long boxX0, long boxY0,
                   long clipX0, long clipY0, long clipX1, long clipY1, const ca_solid_paint *paint,
                   const ca_clip_mask *mask) {
    // Compiled twice: with a clip mask and without, so that the unclipped walk carries no clip
    // test a row or a run.
    // Rows with cells are read eight cells at a time (`chunkRow`) where its vectors hold the paint
    // (an alpha byte; opaque, or a full-coverage kernel), the paint takes the AVX2 loops
    // (`wideRows`: the CPU has them and the context has not turned them off,
    // `CGContext.usesWideKernels`) and the box starts inside the bitmap.
    const int chunked = !mask && paint->ao >= 0 && (paint->opaque || paint->hasKernel) &&
                        paint->wideRows && clipX0 == boxX0 && ca_pixel_kernels_wide();
    solidWalk s = { base, bytesPerRow, boxX0, boxY0, rows->width, clipX0 - boxX0, clipX1 - boxX0, rows->evenOdd, chunked, paint, mask };
    if (mask) ca_walk_rows(rows, base, bytesPerRow, boxX0, boxY0, clipX0, clipY0, clipX1, clipY1, heldClipped, cellsClipped, &s);
    else ca_walk_rows(rows, base, bytesPerRow, boxX0, boxY0, clipX0, clipY0, clipX1, clipY1, heldUnclipped, cellsUnclipped, &s);
}
