// The coverage rasteriser's edge accumulation (`CoverageRasterizer`, CoreGraphics) in C
// (issue 19's drawing speed): the arithmetic of adding an edge's signed area to the cells of
// the rows it crosses. In Swift each edge cost ~107 instructions before its first row (the
// 10,000-rounded-rect frame adds 2 million edges, most of them short chords of corner arcs);
// here each row's values are the same arithmetic, operation for operation in the same
// precision (doubles for positions, floats for the cells, no fused multiply-adds). Edges are
// set up in batches, then their rows added by kind (EdgeAccumulation.c's `walkEdges`): a cell
// that rows of both kinds reach gets their values in another order than edge by edge, so its
// float sum can differ in its last bit; every call that adds a polygon batches its edges the
// same way, so a polygon gives the same cells however it is added. `CoverageRasterizer` is the
// only caller.
#ifndef CCOVERAGE_H
#define CCOVERAGE_H

#include <stdint.h>
#include "PathPolygons.h"
#include "StrokeOutline.h"

/// A vertical edge's whole rows held back from the cells (see `ca_edge_sink`): rows
/// `firstRow` … `lastRow` each get `whole` × `left` in cell `i0` and, unless `onBoundary`,
/// `whole` × `mid` in cell i0 + 1 (touched bits `m0` in word `w0`, `m1` in word `w1`).
typedef struct {
    long i0, firstRow, lastRow, w0, w1;
    uint64_t m0, m1;
    float left, mid, whole;
    int32_t onBoundary;
} ca_vertical_run;

/// The most vertical runs a path holds back (`ca_edge_sink`); its further vertical edges are
/// written. Each row the walk works out from them costs a pass over them, so they are few.
#define CA_VERTICAL_ROOM 64

/// A rasteriser's grid as the edges see it: `width` × `height` cells, row r's from
/// `cells + r·stride`, its touched bits (one a cell) from `bits + r·words`. `work` counts a
/// row an edge crosses plus the cells it crosses in it; past `workLimit` edges are ignored.
///
/// With `written` (one byte a row, 0 when the grid is clear), a vertical edge's whole rows
/// (rows it crosses from top to bottom) are not written to rows nothing else has touched: the
/// edge is appended to `verticals` (room for `verticalRoom`) instead, and a row's `written`
/// byte is set, and the held-back runs covering it added first in the order they came, as soon
/// as any other edge adds to it. So a row that is written holds exactly the cells, summed in
/// exactly the order, it would have without this; a row that is not holds only held-back runs,
/// and every row with the same runs over it reads the same: the solid walk (SolidSpanWalk.h)
/// works out such rows' spans once for all of them (the sides of rectangles and rounded
/// rectangles, most rows of most interface shapes). NULL `written`: every edge is written.
typedef struct {
    float *cells;
    uint64_t *bits;
    long width, height, stride, words;
    long work, workLimit;
    /// (`verticalRoom` is at most `CA_VERTICAL_ROOM`: past it, runs are written.)
    uint8_t *written;
    ca_vertical_run *verticals;
    long verticalCount, verticalRoom;
} ca_edge_sink;

/// Whether the CPU has AVX2, found once: the edge set-up's four-edge step here and
/// CPixelKernels' wide loops (`ca_pixel_kernels_wide`) take it.
int ca_cpu_has_avx2(void);

/// One edge from (x0, y0) to (x1, y1) in cell units; going down (y increasing) adds winding
/// +1 to its right. Non-finite coordinates add nothing; finite ones are clamped to ±10⁷.
void ca_edge_add_line(ca_edge_sink *sink, double x0, double y0, double x1, double y1);

/// Whether any edge of the polygons (as `ca_edge_add_polygons` takes them) is vertical and at
/// least two rows tall, so that it crosses a row whole: only then can a sink hold runs back.
int ca_polygons_cross_rows_vertically(const double *xy, const long *ends, long count);

/// Closed polygons from one array of (x, y) pairs: polygon k is pairs ends[k − 1] … ends[k] − 1
/// (the first from 0), each point less (ox, oy), its last vertex joined to its first. `lo` and
/// `hi` (x, y; NULL when not known) bound every point: when, less the origin, they lie within
/// the writer's coordinate limit, the edges skip their finite checks and clamps (which would
/// change nothing: a tenth of a short chord's instructions).
void ca_edge_add_polygons(ca_edge_sink *sink, const double *xy, const long *ends, long count, double ox, double oy,
                          const double *lo, const double *hi);

/// One closed polygon of `n` (x, y) pairs, every vertex joined to the next and the last to the
/// first; `reversed`: the same polygon walked the other way (from the first vertex back).
void ca_edge_add_closed(ca_edge_sink *sink, const double *xy, long n, int reversed);

/// How far below 1 a coverage still counts as 1 (2⁻¹²). Float cells make a row's running sum
/// drift by ~10⁻⁷ a cell (more over a wide row), so a shape's inside after a slanted or curved
/// edge summed to 0.99999994 as often as to 1, and was blended pixel by pixel as an edge pixel
/// instead of through the full-coverage kernels (and broke a clip row's runs of full coverage).
/// The true coverage there is 1; a real coverage this close to 1 moves a byte by at most
/// 255·2⁻¹² < 0.07, so at most by one where it sits on a rounding boundary.
#define CA_FULL_COVERAGE_SLACK 0.000244140625f /* 2⁻¹² */

/// A pixel's coverage from its integrated winding number: |w| clamped to 1 (non-zero) or its
/// distance to the nearest even integer (even-odd), then full within `CA_FULL_COVERAGE_SLACK` of
/// 1. The one rule of every resolver: the C walks inline it, and Swift's
/// `CoverageRasterizer.coverage(winding:evenOdd:)` calls it.
static inline __attribute__((always_inline)) float ca_coverage_of_winding(float sum, int evenOdd) {
    float c = __builtin_fabsf(sum);
    if (evenOdd) {
        if (c <= 2) {
            // One shape or a ring's two loops: the distance to 0 or 2 directly (the general fold
            // below gives the same value, without its two conversions).
            c = c > 1 ? 2 - c : c;
        } else {
            // ⌊c/2⌋ by truncation below 2²³ (c ≥ 0; from 2²³ on every float is whole, and NaN
            // stays NaN: the comparison is false).
            float half = c * 0.5f;
            float floorHalf = half < 8388608.0f ? (float)(int32_t)half : half;
            c = c - 2 * floorHalf;
            if (c > 1) c = 2 - c;
        }
    } else {
        // Non-zero: full from 1 − slack up (above 1 included), one select (a branch here was
        // mispredicted at every edge pixel of the 1,000-star frame).
        return c >= 1 - CA_FULL_COVERAGE_SLACK ? 1.0f : c;
    }
    if (c >= 1 - CA_FULL_COVERAGE_SLACK) c = 1;
    return c;
}

/// One row's touched cells taken in order: each touched cell's column and value, the cell
/// and its bit word cleared as they are read (the spare cells past the width too, which the
/// caller skips). The read-and-clear loop of the C walks (`ca_resolve_coverage`,
/// `ca_solid_walk`): start with `ca_touched_row`, then `while (ca_take_touched(&t, &i, &c))`.
typedef struct {
    float *cells;
    uint64_t *bits;
    long words, k;
    uint64_t word;
} ca_touched;

static inline __attribute__((always_inline)) ca_touched ca_touched_row(float *cells, uint64_t *bits, long words) {
    ca_touched t = { cells, bits, words, -1, 0 };
    return t;
}

static inline __attribute__((always_inline)) int ca_take_touched(ca_touched *t, long *i, float *c) {
    while (t->word == 0) {
        if (++t->k >= t->words) return 0;
        t->word = t->bits[t->k];
        t->bits[t->k] = 0;
    }
    const long j = (t->k << 6) | __builtin_ctzll(t->word);
    t->word &= t->word - 1;
    *i = j;
    *c = t->cells[j];
    t->cells[j] = 0;
    return 1;
}

/// The cells that the held-back runs over row `j` would have written had they been written
/// (see `ca_edge_sink`): each run's one or two values, summed in run order where runs share a
/// cell, into `index` and `value` (room for 2·CA_VERTICAL_ROOM each) in column order; returns
/// how many, and in `*next` the first row past `j` where the set of runs over a row changes
/// (`height` if none does). A row that holds only held-back runs reads as exactly these cells,
/// so its walk works them out once for every row up to `*next` that is not written either.
static inline long ca_held_cells(const ca_vertical_run *runs, long count, long j, long height, long *index, float *value,
                                 long *next) {
    long n = 0, change = height;
    for (long k = 0; k < count; k++) {
        const ca_vertical_run *v = runs + k;
        if (v->firstRow > j) { if (v->firstRow < change) change = v->firstRow; continue; }
        if (v->lastRow < j) continue;
        if (v->lastRow + 1 < change) change = v->lastRow + 1;
        for (int half = 0; half < 2; half++) {
            if (half == 1 && v->onBoundary) break;
            const long i = v->i0 + half;
            const float add = v->whole * (half == 0 ? v->left : v->mid);
            long m = 0;
            while (m < n && index[m] != i) m++;
            if (m == n) { index[n] = i; value[n] = 0; n++; }
            value[m] += add;
        }
    }
    // Column order (a handful of cells: insertion sort).
    for (long a = 1; a < n; a++) {
        const long i = index[a];
        const float v = value[a];
        long b = a;
        while (b > 0 && index[b - 1] > i) { index[b] = index[b - 1]; value[b] = value[b - 1]; b--; }
        index[b] = i; value[b] = v;
    }
    *next = change;
    return n;
}

/// `CoverageRasterizer.takeResolvedCoverage`: the coverage of every cell of a `width` ×
/// `height` grid (row r's cells from `cells + r·stride`, its touched bits from `bits + r·words`)
/// into `out` (width values a row), each row's runs of equal coverage written at once, zeros
/// before its first touched cell; every touched cell and bit cleared. `fullRuns` (NULL: none)
/// receives two entries a row, the first and one-past-last column of the row's longest run of
/// coverage exactly 1 (the first of the longest; equal when there is none). With `written`
/// (NULL: every row is written), a row whose byte is 0 holds only the held-back `runs`
/// (`runCount` of them): its values are worked out from `ca_held_cells` once and copied down
/// the rows that share them, the same values its cells would have given; every written byte is
/// left 0.
void ca_resolve_coverage(float *cells, uint64_t *bits, long width, long height, long stride, long words, int evenOdd,
                         float *out, int32_t *fullRuns, uint8_t *written, const ca_vertical_run *runs, long runCount);

#endif
