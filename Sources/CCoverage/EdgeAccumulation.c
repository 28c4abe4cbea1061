// See include/CCoverage.h. `smin`/`smax` are Swift's `min`/`max` (`y < x ? y : x`,
// `y >= x ? y : x`), so that even signed zeros come out as the Swift code gave them.
#include "CCoverage.h"
#include <string.h>
#if defined(__x86_64__)
#include <immintrin.h>
#endif

#pragma clang fp contract(off)

static inline __attribute__((always_inline)) double smin(double x, double y) { return y < x ? y : x; }
static inline __attribute__((always_inline)) double smax(double x, double y) { return y >= x ? y : x; }

static const double coordinateLimit = 1e7;

/// Sets the touched bits of cells i0 … i1 of one row.
static inline __attribute__((always_inline)) void mark(uint64_t *bits, long i0, long i1) {
    long w0 = i0 >> 6, w1 = i1 >> 6;
    uint64_t lo = ~(uint64_t)0 << (i0 & 63);
    uint64_t hi = ~(uint64_t)0 >> (63 - (i1 & 63));
    if (w0 == w1) { bits[w0] |= lo & hi; return; }
    bits[w0] |= lo;
    for (long k = w0 + 1; k < w1; k++) bits[k] = ~(uint64_t)0;
    bits[w1] |= hi;
}

/// Sets the touched bits of cells i and i + 1 of one row (`mark(bits, i, i + 1)`).
static inline __attribute__((always_inline)) void markPair(uint64_t *bits, long i) {
    const long k = i & 63;
    bits[i >> 6] |= (uint64_t)3 << k;
    if (k == 63) bits[(i >> 6) + 1] |= 1;
}

/// `x` held to [0, w], for finite x: Swift's min(max(x, 0), w).
static inline __attribute__((always_inline)) double clampTo(double x, double w) {
    double v = x > 0 ? x : 0;
    return w < v ? w : v;
}

/// One row's piece of an edge, from x `l` to `r` (l ≤ r, both in [0, width]), of signed
/// height `d`: cells Int(l) through Int(r) + 1 of `row`.
static inline __attribute__((always_inline)) void accumulate(float *row, double l, double r, float d) {
    long i0 = (long)l, i1 = (long)r;
    if (i0 == i1 || r - l < 1e-12) {
        float mid = (float)((l + r) * 0.5 - (double)i0);
        row[i0] += d * (1 - mid);
        row[i0 + 1] += d * mid;
        return;
    }
    // Crossing cells i0 … i1: the first and last take the heights of their parts, split by
    // where those parts lie in them; a cell crossed whole takes perUnit, split half and half
    // with the next. Each cell is added to once, its share and its left neighbour's summed
    // first (as a loop over the cells, every cell was added to twice, the second add waiting on
    // the first's store: the 1,000-star frame's edges are short chords that cross a few cells).
    const double perUnit = (double)d / (r - l);
    const double e0 = (double)(i0 + 1), s1 = (double)i1;
    const float dd0 = (float)((e0 - l) * perUnit), mid0 = (float)((l + e0) * 0.5 - (double)i0);
    const float dd1 = (float)((r - s1) * perUnit), mid1 = (float)((s1 + r) * 0.5 - s1);
    row[i0] += dd0 * (1 - mid0);
    if (i1 == i0 + 1) {
        row[i1] += dd0 * mid0 + dd1 * (1 - mid1);
    } else {
        const float whole = (float)perUnit, half = whole * 0.5f;
        row[i0 + 1] += dd0 * mid0 + half;
        for (long i = i0 + 2; i < i1; i++) row[i] += whole;
        row[i1] += half + dd1 * (1 - mid1);
    }
    row[i1 + 1] += dd1 * mid1;
}

static inline __attribute__((always_inline)) int finite(double v) { return __builtin_isfinite(v); }

/// Adds `d` × a vertical run's split to row `row`: `d` × left to cell i0 and, off a pixel
/// boundary, `d` × mid to cell i0 + 1, both marked.
static inline __attribute__((always_inline)) void addVerticalRow(float *cells, uint64_t *bits, long s, long wpr,
                                                                 const ca_vertical_run *v, long row, float d) {
    float *c = cells + row * s + v->i0;
    c[0] += d * v->left;
    if (!v->onBoundary) c[1] += d * v->mid;
    uint64_t *b = bits + row * wpr;
    b[v->w0] |= v->m0;
    b[v->w1] |= v->m1;
}

/// Makes row `row` written (see `ca_edge_sink`): the held-back runs over it added to its cells,
/// in the order they came, before anything else adds to it.
static __attribute__((noinline)) void materializeRow(float *cells, uint64_t *bits, long s, long wpr, uint8_t *written,
                                                    const ca_vertical_run *runs, long count, long row) {
    written[row] = 1;
    for (long k = 0; k < count; k++) {
        const ca_vertical_run *v = runs + k;
        if (v->firstRow <= row && row <= v->lastRow) addVerticalRow(cells, bits, s, wpr, v, row, v->whole);
    }
}

static inline __attribute__((always_inline)) void writeRow(float *cells, uint64_t *bits, long s, long wpr, uint8_t *written,
                                                           const ca_vertical_run *runs, long count, long row) {
    if (!written[row]) materializeRow(cells, bits, s, wpr, written, runs, count, row);
}

/// Adds run `v` to the rows a … b that are already written (eight row bytes at a time: most
/// rows of a long side are not).
static inline __attribute__((always_inline)) void addToWrittenRows(float *cells, uint64_t *bits, long s, long wpr,
                                                                   const uint8_t *written, const ca_vertical_run *v, long a, long b) {
    long row = a;
    while (row <= b) {
        if (b - row >= 7) {
            uint64_t eight;
            memcpy(&eight, written + row, 8);
            if (eight == 0) { row += 8; continue; }
        }
        if (written[row]) addVerticalRow(cells, bits, s, wpr, v, row, v->whole);
        row++;
    }
}

/// A vertical edge at x `xa` over [y0c, y1c] (rows firstRow … lastRow), going down when `dir`
/// is 1 (`setupEdge`'s EDGE_VERTICAL), out of line so that the chords' loops, where the time
/// goes, keep their values in registers (vertical edges are a few of a shape's edges).
static __attribute__((noinline)) void addVertical(ca_edge_sink *sink, double xa, double y0c, double y1c, long firstRow,
                                                  long lastRow, double dir) {
    const double w = (double)sink->width;
    float *cells = sink->cells;
    uint64_t *bits = sink->bits;
    const long s = sink->stride, wpr = sink->words;
    long work = sink->work;
    // A vertical edge: one cell pair and one split for every row; a pixel-aligned side
    // (mid = 0) writes and marks one cell a row.
    const double x = smin(smax(xa, 0), w);
    const long i0 = (long)x;
    const float mid = (float)((x + x) * 0.5 - (double)i0);
    const float left = 1 - mid;
    const int onBoundary = mid == 0;
    const long w0 = i0 >> 6, w1 = (i0 + 1) >> 6;
    uint64_t m0, m1;
    if (onBoundary) { m0 = (uint64_t)1 << (i0 & 63); m1 = 0; }
    else if (w0 == w1) { m0 = (uint64_t)3 << (i0 & 63); m1 = 0; }
    else { m0 = (uint64_t)1 << 63; m1 = 1; }
    uint8_t *written = sink->written;
    if (written) {
        // Rows crossed whole are held back (or written where their row already is); the
        // partial first and last rows are written, as any other edge's rows are.
        ca_vertical_run run = { i0, 0, 0, w0, w1, m0, m1, left, mid, (float)dir, onBoundary };
        ca_vertical_run *runs = sink->verticals;
        long count = sink->verticalCount;
        const long a = y0c == (double)firstRow ? firstRow : firstRow + 1;
        const long b = y1c == (double)(lastRow + 1) ? lastRow : lastRow - 1;
        for (int end = 0; end < 2; end++) {
            const long row = end == 0 ? firstRow : lastRow;
            if (end == 0 ? a == firstRow : (b == lastRow || (lastRow == firstRow && a > firstRow))) continue;
            const double dy = smin(y1c, (double)(row + 1)) - smax(y0c, (double)row);
            if (!(dy > 0)) continue;
            work += 1;
            writeRow(cells, bits, s, wpr, written, runs, count, row);
            addVerticalRow(cells, bits, s, wpr, &run, row, (float)(dy * dir));
        }
        if (a <= b) {
            work += b - a + 1;
            if (count < sink->verticalRoom && count < CA_VERTICAL_ROOM) {
                run.firstRow = a; run.lastRow = b;
                runs[count++] = run;
                addToWrittenRows(cells, bits, s, wpr, written, &run, a, b);
            } else {
                for (long row = a; row <= b; row++) {
                    writeRow(cells, bits, s, wpr, written, runs, count, row);
                    addVerticalRow(cells, bits, s, wpr, &run, row, run.whole);
                }
            }
        }
        sink->verticalCount = count;
        sink->work = work;
        return;
    }
#define ADD(rowIndex, dValue) do { \
        const long base_ = (rowIndex) * s + i0; const float d_ = (dValue); \
        cells[base_] += d_ * left; \
        if (!onBoundary) cells[base_ + 1] += d_ * mid; \
        uint64_t *b_ = bits + (rowIndex) * wpr; b_[w0] |= m0; b_[w1] |= m1; \
    } while (0)
    const float whole = (float)dir;
    for (long row = firstRow; row <= lastRow; row++) {
        const double r0 = smax(y0c, (double)row), r1 = smin(y1c, (double)(row + 1));
        if (r0 == (double)row && r1 == (double)(row + 1) && row > firstRow && row < lastRow) {
            // Every row from here to the last but one is whole.
            for (long inner = row; inner < lastRow; inner++) ADD(inner, whole);
            work += lastRow - row;
            const double last = (double)lastRow;
            const double dy = smin(y1c, last + 1) - smax(y0c, last);
            if (dy > 0) { work += 1; ADD(lastRow, (float)(dy * dir)); }
            break;
        }
        const double dy = r1 - r0;
        if (!(dy > 0)) continue;
        work += 1;
        ADD(row, (float)(dy * dir));
    }
#undef ADD
    sink->work = work;
    return;
}

/// An edge as its rows are walked: from (xa, ya) going down, its x at a row's top or bottom
/// `xa + (y − ya)·dxdy`, its rows `firstRow` … `lastRow`, the first from `y0c` (where its x is
/// `xs`), the last ending at `y1c`; `dir` its winding (+1 down, −1 up).
typedef struct {
    double xa, ya, dxdy, xs, y0c, y1c, dir;
    long firstRow, lastRow;
} edgeRows;

enum { EDGE_NONE = 0, EDGE_ROWS = 1, EDGE_VERTICAL = 2 };

/// `ca_edge_add_line`'s clamps and checks, and its edge's rows: EDGE_NONE when it adds nothing,
/// EDGE_VERTICAL (with `e`'s xa, y0c, y1c, rows and dir set) for `addVertical`, else EDGE_ROWS
/// with `e` set for `walkEdges`. `checked` false: the caller knows every coordinate is finite and
/// within ±`coordinateLimit`, where the checks and clamps change nothing.
static inline __attribute__((always_inline)) int setupEdge(const ca_edge_sink *sink, double x0, double y0, double x1, double y1,
                                                           int checked, edgeRows *e) {
    const double lim = coordinateLimit;
    double ax = x0, ay = y0, bx = x1, by = y1;
    if (checked) {
        if (!finite(x0) || !finite(y0) || !finite(x1) || !finite(y1)) return EDGE_NONE;
        ax = smin(smax(x0, -lim), lim); ay = smin(smax(y0, -lim), lim);
        bx = smin(smax(x1, -lim), lim); by = smin(smax(y1, -lim), lim);
    }
    if (ay == by) return EDGE_NONE;
    const double dir = by > ay ? 1 : -1;
    double xa, ya, xb, yb;
    if (ay < by) { xa = ax; ya = ay; xb = bx; yb = by; } else { xa = bx; ya = by; xb = ax; yb = ay; }
    const long height = sink->height;
    const double h = (double)height;
    if (!(yb > 0) || !(ya < h)) return EDGE_NONE;
    const double y0c = smax(ya, 0), y1c = smin(yb, h);
    const double dxdy = (xb - xa) / (yb - ya);
    // An edge so flat that its slope overflows (a height below ~10⁻³⁰⁰ cells) adds nothing a
    // float cell can hold; its x along the rows would be NaN.
    if (!finite(dxdy)) return EDGE_NONE;
    const long firstRow = (long)y0c;
    const long y1t = (long)y1c;
    long lastRow = ((double)y1t < y1c ? y1t + 1 : y1t);
    if (lastRow > height) lastRow = height;
    lastRow -= 1;
    if (firstRow > lastRow) return EDGE_NONE;
    e->xa = xa; e->ya = ya; e->dxdy = dxdy; e->y0c = y0c; e->y1c = y1c; e->dir = dir;
    e->firstRow = firstRow; e->lastRow = lastRow;
    if (dxdy == 0) return EDGE_VERTICAL;
    e->xs = clampTo(xa + (y0c - ya) * dxdy, (double)sink->width);
    return EDGE_ROWS;
}

/// How many edges a batch sets up before walking their rows (`edgeBatch`).
#define EDGE_BATCH 32
/// How many rows of each kind a batch's walk holds before adding them (`walkBatch`).
#define ROW_ITEMS 256

/// Edges set up in batches (`setupEdge`), their rows walked a batch at a time (`walkBatch`):
/// two passes, each loop keeping its values in registers (as one loop an edge spilled and
/// reloaded a score of values between its set-up and its rows; most edges are a curve's short
/// chords of one to three rows). A batch ends at 32 edges, at the end of a polygon, and before a
/// vertical edge, which is added in order after it (`addVertical`). Edge k's `edgeRows` fields
/// are at index k of each array (so that four edges set up in vectors are stored four at a
/// time, `setupFour`).
typedef struct {
    double xa[EDGE_BATCH], ya[EDGE_BATCH], dxdy[EDGE_BATCH], xs[EDGE_BATCH], y0c[EDGE_BATCH], y1c[EDGE_BATCH], dir[EDGE_BATCH];
    long firstRow[EDGE_BATCH], lastRow[EDGE_BATCH];
    long n;
} edgeBatch;

static inline __attribute__((always_inline)) void storeEdge(edgeBatch *b, long k, const edgeRows *e) {
    b->xa[k] = e->xa; b->ya[k] = e->ya; b->dxdy[k] = e->dxdy; b->xs[k] = e->xs; b->y0c[k] = e->y0c; b->y1c[k] = e->y1c;
    b->dir[k] = e->dir; b->firstRow[k] = e->firstRow; b->lastRow[k] = e->lastRow;
}

/// A row of an edge within one cell: `accumulate`'s first case, with the row's x values' sum.
typedef struct {
    double sum;
    long row, i;
    float d;
} oneCellRow;

/// A row of an edge across cells `(long)l` … `(long)r`: `accumulate`'s other cases.
typedef struct {
    double l, r;
    long row;
    float d;
} crossingRow;

/// Adds the rows held by `walkBatch`: those in one cell, then those across cells.
static inline __attribute__((always_inline)) void addRows(float *cells, uint64_t *bits, long s, long wpr, const oneCellRow *ones,
                                                          long oneCount, const crossingRow *crossings, long crossingCount) {
    for (long k = 0; k < oneCount; k++) {
        const oneCellRow *o = ones + k;
        float *rowCells = cells + o->row * s;
        const float mid = (float)(o->sum * 0.5 - (double)o->i);
        rowCells[o->i] += o->d * (1 - mid);
        rowCells[o->i + 1] += o->d * mid;
        markPair(bits + o->row * wpr, o->i);
    }
    for (long k = 0; k < crossingCount; k++) {
        const crossingRow *c = crossings + k;
        accumulate(cells + c->row * s, c->l, c->r, c->d);
        mark(bits + c->row * wpr, (long)c->l, (long)c->r + 1);
    }
}

/// The rows of `n` set-up edges (`edgeBatch`), none once the work is past its limit, each after
/// the rows it crosses that hold only held-back runs are written (`holds`, as `ca_edge_sink`
/// says). Row r of an edge spans [max(y0c, r), min(y1c, r + 1)]: the first row starts at y0c,
/// the last ends at y1c, every other row is whole; a row's end x, xa + (r + 1 − ya)·dxdy, is
/// the next row's start x (the same expression), so it is computed and clamped once (the x
/// values are finite here, so the clamps are plain comparisons). The rows are added by
/// kind: first every row that lies in one cell, then every row that crosses cells. Added edge by
/// edge, the choice between the two, taken at random as a curve's short chords turn, was
/// mispredicted at most rows: apart, each kind's loop runs without it (the 1,000-star frame's
/// edges 10.8 → 8.5 ms). A cell that rows of both kinds add to gets their values in another
/// order than edge by edge, so its float sum may differ in its last bit (a coverage ~10⁻⁷
/// away); every path that fills a polygon comes here with the same batches (a polygon's
/// edges from its first, 32 at a time, whichever call adds it), so it gets the same cells
/// whichever way it is drawn.
static inline __attribute__((always_inline)) void walkEdges(ca_edge_sink *sink, const edgeBatch *b, int holds) {
    const long n = b->n;
    float *cells = sink->cells;
    uint64_t *bits = sink->bits;
    const long s = sink->stride, wpr = sink->words, limit = sink->workLimit;
    const double w = (double)sink->width;
    long work = sink->work;
    oneCellRow ones[ROW_ITEMS];
    crossingRow crossings[ROW_ITEMS];
    long oneCount = 0, crossingCount = 0;
    for (long k = 0; k < n && work <= limit; k++) {
        const long firstRow = b->firstRow[k], lastRow = b->lastRow[k];
        const double xa = b->xa[k], ya = b->ya[k], dxdy = b->dxdy[k], y1c = b->y1c[k], dir = b->dir[k];
        if (holds)
            for (long row = firstRow; row <= lastRow; row++)
                writeRow(cells, bits, s, wpr, sink->written, sink->verticals, sink->verticalCount, row);
        double r0 = b->y0c[k], xs = b->xs[k];
        long is = (long)xs;
        for (long row = firstRow; row <= lastRow; row++) {
            const double r1 = row < lastRow ? (double)(row + 1) : y1c;
            const double xe = clampTo(xa + (r1 - ya) * dxdy, w);
            const long ie = (long)xe;
            const double dy = r1 - r0;
            if (dy > 0) {
                if (oneCount == ROW_ITEMS || crossingCount == ROW_ITEMS) {
                    addRows(cells, bits, s, wpr, ones, oneCount, crossings, crossingCount);
                    oneCount = crossingCount = 0;
                }
                const float d = (float)(dy * dir);
                const double l = xs < xe ? xs : xe, r = xs < xe ? xe : xs;
                // Written to both lists, kept in one (no branch).
                const long one = is == ie;
                ones[oneCount] = (oneCellRow){ xs + xe, row, is, d };
                crossings[crossingCount] = (crossingRow){ l, r, row, d };
                oneCount += one;
                crossingCount += 1 - one;
                work += 1 + (long)(r - l);
            }
            xs = xe;
            is = ie;
            r0 = r1;
        }
    }
    addRows(cells, bits, s, wpr, ones, oneCount, crossings, crossingCount);
    sink->work = work;
}

/// `walkEdges` out of line, one copy a mode: the set-up loop and the rows' loops each keep their
/// values in registers.
static __attribute__((noinline)) void walkBatch(ca_edge_sink *sink, const edgeBatch *b) { walkEdges(sink, b, 0); }
static __attribute__((noinline)) void walkHeldBatch(ca_edge_sink *sink, const edgeBatch *b) { walkEdges(sink, b, 1); }

static inline __attribute__((always_inline)) void flushBatch(ca_edge_sink *sink, edgeBatch *b, int holds) {
    if (b->n == 0) return;
    if (holds) walkHeldBatch(sink, b);
    else walkBatch(sink, b);
    b->n = 0;
}

/// One edge into the batch (`checked` as `setupEdge` takes it).
static inline __attribute__((always_inline)) void batchEdge(ca_edge_sink *sink, edgeBatch *b, double x0, double y0, double x1, double y1,
                                                            int checked, int holds) {
    edgeRows v;
    const int kind = setupEdge(sink, x0, y0, x1, y1, checked, &v);
    if (kind == EDGE_ROWS) {
        storeEdge(b, b->n, &v);
        if (++b->n == EDGE_BATCH) flushBatch(sink, b, holds);
    } else if (kind == EDGE_VERTICAL) {
        flushBatch(sink, b, holds);
        if (sink->work <= sink->workLimit) addVertical(sink, v.xa, v.y0c, v.y1c, v.firstRow, v.lastRow, v.dir);
    }
}

#if defined(__x86_64__)
/// `setupEdge` (unchecked) for the four edges points j − 1 → j … j + 2 → j + 3 of `xy` (less the
/// origin), lane for lane in the same operations (`smax`/`smin` and the clamps as the same
/// comparisons and choices): 1 with all four stored at the batch's `n` … n + 3 when each is a
/// sloped edge with rows (nearly every group of a path), else 0 with nothing stored (the
/// caller sets them up one at a time). A third of a star's edges' time was their set-up.
__attribute__((target("avx2"))) static inline int setupFour(const ca_edge_sink *sink, const double *xy, long j, double ox,
                                                            double oy, edgeBatch *b) {
    // The edges' starts, points j − 1 … j + 2, and ends, points j … j + 3, two points (x, y,
    // x, y) a load; unpacking two loads gives the four x values (or y values) in the order
    // 0, 2, 1, 3, which the permute puts back in order.
    const __m256d p0 = _mm256_loadu_pd(xy + 2 * (j - 1)), p1 = _mm256_loadu_pd(xy + 2 * (j + 1));
    const __m256d q0 = _mm256_loadu_pd(xy + 2 * j), q1 = _mm256_loadu_pd(xy + 2 * (j + 2));
    const __m256d origX = _mm256_set1_pd(ox), origY = _mm256_set1_pd(oy);
    const __m256d ax = _mm256_sub_pd(_mm256_permute4x64_pd(_mm256_unpacklo_pd(p0, p1), 0xD8), origX);
    const __m256d ay = _mm256_sub_pd(_mm256_permute4x64_pd(_mm256_unpackhi_pd(p0, p1), 0xD8), origY);
    const __m256d bx = _mm256_sub_pd(_mm256_permute4x64_pd(_mm256_unpacklo_pd(q0, q1), 0xD8), origX);
    const __m256d by = _mm256_sub_pd(_mm256_permute4x64_pd(_mm256_unpackhi_pd(q0, q1), 0xD8), origY);
    const __m256d zero = _mm256_setzero_pd(), h = _mm256_set1_pd((double)sink->height), w = _mm256_set1_pd((double)sink->width);
    const __m256d down = _mm256_cmp_pd(ay, by, _CMP_LT_OQ);
    const __m256d dir = _mm256_blendv_pd(_mm256_set1_pd(-1), _mm256_set1_pd(1), _mm256_cmp_pd(by, ay, _CMP_GT_OQ));
    const __m256d xa = _mm256_blendv_pd(bx, ax, down), ya = _mm256_blendv_pd(by, ay, down);
    const __m256d xb = _mm256_blendv_pd(ax, bx, down), yb = _mm256_blendv_pd(ay, by, down);
    // Kept: not horizontal, reaching into the rows (yb > 0, ya < h), a finite slope.
    __m256d keep = _mm256_and_pd(_mm256_cmp_pd(ay, by, _CMP_NEQ_UQ), _mm256_cmp_pd(yb, zero, _CMP_GT_OQ));
    keep = _mm256_and_pd(keep, _mm256_cmp_pd(ya, h, _CMP_LT_OQ));
    const __m256d y0c = _mm256_blendv_pd(ya, zero, _mm256_cmp_pd(zero, ya, _CMP_GE_OQ));   // smax(ya, 0)
    const __m256d y1c = _mm256_blendv_pd(yb, h, _mm256_cmp_pd(h, yb, _CMP_LT_OQ));         // smin(yb, h)
    const __m256d dxdy = _mm256_div_pd(_mm256_sub_pd(xb, xa), _mm256_sub_pd(yb, ya));
    const __m256d absMask = _mm256_castsi256_pd(_mm256_set1_epi64x(0x7FFFFFFFFFFFFFFF));
    keep = _mm256_and_pd(keep, _mm256_cmp_pd(_mm256_and_pd(dxdy, absMask), _mm256_set1_pd(__builtin_inf()), _CMP_LT_OQ));
    // Sloped: a vertical edge takes its own route.
    keep = _mm256_and_pd(keep, _mm256_cmp_pd(dxdy, zero, _CMP_NEQ_UQ));
    if (_mm256_movemask_pd(keep) != 0xF) return 0;
    // Rows: (long)y0c, and ⌈y1c⌉ − 1 held below the height (y0c and y1c lie in 0 … h here).
    const __m128i firstRow = _mm256_cvttpd_epi32(y0c);
    const __m128i y1t = _mm256_cvttpd_epi32(y1c);
    const __m256d below = _mm256_cmp_pd(_mm256_cvtepi32_pd(y1t), y1c, _CMP_LT_OQ);
    // The comparison's all-ones lanes as −1 in 32 bits (their low halves), subtracted: +1.
    const __m128i belowInt = _mm256_castsi256_si128(_mm256_permutevar8x32_epi32(_mm256_castpd_si256(below), _mm256_setr_epi32(0, 2, 4, 6, 0, 0, 0, 0)));
    __m128i lastRow = _mm_sub_epi32(y1t, belowInt);
    lastRow = _mm_min_epi32(lastRow, _mm_set1_epi32((int)sink->height));
    lastRow = _mm_sub_epi32(lastRow, _mm_set1_epi32(1));
    if (_mm_movemask_ps(_mm_castsi128_ps(_mm_cmpgt_epi32(firstRow, lastRow)))) return 0;
    // clampTo(xa + (y0c − ya)·dxdy, w): above 0 or 0, then w where w is below it.
    const __m256d x = _mm256_add_pd(xa, _mm256_mul_pd(_mm256_sub_pd(y0c, ya), dxdy));
    const __m256d v = _mm256_blendv_pd(zero, x, _mm256_cmp_pd(x, zero, _CMP_GT_OQ));
    const __m256d xs = _mm256_blendv_pd(v, w, _mm256_cmp_pd(w, v, _CMP_LT_OQ));
    const long n = b->n;
    _mm256_storeu_pd(b->xa + n, xa); _mm256_storeu_pd(b->ya + n, ya); _mm256_storeu_pd(b->dxdy + n, dxdy);
    _mm256_storeu_pd(b->xs + n, xs); _mm256_storeu_pd(b->y0c + n, y0c); _mm256_storeu_pd(b->y1c + n, y1c);
    _mm256_storeu_pd(b->dir + n, dir);
    _mm256_storeu_si256((__m256i *)(b->firstRow + n), _mm256_cvtepi32_epi64(firstRow));
    _mm256_storeu_si256((__m256i *)(b->lastRow + n), _mm256_cvtepi32_epi64(lastRow));
    return 1;
}
#endif

/// The polygons' edges, each polygon's its own batches (`holds`: the sink holds vertical runs
/// back). `wide` (unchecked only): four edges at a time through `setupFour` where a group fits in
/// the batch whole, so the batches end where one edge at a time ends them (the same cells).
static inline __attribute__((always_inline)) void addPolygons(ca_edge_sink *sink, const double *xy, const long *ends, long count,
                                                              double ox, double oy, int checked, int holds, int wide) {
    edgeBatch b;
    b.n = 0;
    long start = 0;
    for (long k = 0; k < count; k++) {
        const long e = ends[k];
        double px = xy[2 * (e - 1)] - ox, py = xy[2 * (e - 1) + 1] - oy;
        for (long j = start; j < e; j++) {
#if defined(__x86_64__)
            if (wide && j > start && j + 4 <= e && b.n + 4 < EDGE_BATCH && setupFour(sink, xy, j, ox, oy, &b)) {
                b.n += 4;
                j += 3;
                px = xy[2 * j] - ox; py = xy[2 * j + 1] - oy;
                continue;
            }
#endif
            const double vx = xy[2 * j] - ox, vy = xy[2 * j + 1] - oy;
            batchEdge(sink, &b, px, py, vx, vy, checked, holds);
            px = vx; py = vy;
        }
        flushBatch(sink, &b, holds);
        start = e;
    }
}

#if defined(__x86_64__)
__attribute__((target("avx2"))) static void addPolygonsWide(ca_edge_sink *sink, const double *xy, const long *ends, long count,
                                                            double ox, double oy, int holds) {
    if (holds) addPolygons(sink, xy, ends, count, ox, oy, 0, 1, 1);
    else addPolygons(sink, xy, ends, count, ox, oy, 0, 0, 1);
}

#endif

void ca_edge_add_line(ca_edge_sink *shared, double x0, double y0, double x1, double y1) {
    // A batch of one (its rows are its own: one edge adds to a cell at most once a row, so
    // by kind or in order gives the same cells).
    ca_edge_sink local = *shared, *sink = &local;
    edgeBatch b;
    b.n = 0;
    if (sink->written) {
        batchEdge(sink, &b, x0, y0, x1, y1, 1, 1);
        flushBatch(sink, &b, 1);
    } else {
        batchEdge(sink, &b, x0, y0, x1, y1, 1, 0);
        flushBatch(sink, &b, 0);
    }
    shared->work = local.work;
    shared->verticalCount = local.verticalCount;
}

void ca_edge_add_polygons(ca_edge_sink *shared, const double *xy, const long *ends, long count, double ox, double oy,
                          const double *lo, const double *hi) {
    ca_edge_sink local = *shared, *sink = &local;
    const double lim = coordinateLimit;
    // Bounds within the limit (NaN fails every comparison): no edge needs its checks.
    const int holds = sink->written != NULL;
    if (lo && hi && lo[0] - ox >= -lim && lo[1] - oy >= -lim && hi[0] - ox <= lim && hi[1] - oy <= lim) {
#if defined(__x86_64__)
        if (ca_cpu_has_avx2()) addPolygonsWide(sink, xy, ends, count, ox, oy, holds);
        else
#endif
        if (holds) addPolygons(sink, xy, ends, count, ox, oy, 0, 1, 0);
        else addPolygons(sink, xy, ends, count, ox, oy, 0, 0, 0);
    } else {
        if (holds) addPolygons(sink, xy, ends, count, ox, oy, 1, 1, 0);
        else addPolygons(sink, xy, ends, count, ox, oy, 1, 0, 0);
    }
    shared->work = local.work;
    shared->verticalCount = local.verticalCount;
}

int ca_polygons_cross_rows_vertically(const double *xy, const long *ends, long count) {
    long start = 0;
    for (long k = 0; k < count; k++) {
        const long e = ends[k];
        double px = xy[2 * (e - 1)], py = xy[2 * (e - 1) + 1];
        for (long j = start; j < e; j++) {
            const double vx = xy[2 * j], vy = xy[2 * j + 1];
            if (vx == px && (vy - py >= 2 || py - vy >= 2)) return 1;
            px = vx; py = vy;
        }
        start = e;
    }
    return 0;
}

/// `ca_edge_add_closed`'s edges, one polygon's batches (`holds` as `addPolygons` takes it).
static inline __attribute__((always_inline)) void addClosed(ca_edge_sink *sink, const double *xy, long n, int reversed, int holds) {
    edgeBatch b;
    b.n = 0;
    // The polygon's vertices in order (from the first back, when reversed), each joined to the
    // one before it, the first to the last.
    double px = reversed ? xy[0] : xy[2 * (n - 1)], py = reversed ? xy[1] : xy[2 * (n - 1) + 1];
    for (long m = 0; m < n; m++) {
        const long k = reversed ? n - 1 - m : m;
        batchEdge(sink, &b, px, py, xy[2 * k], xy[2 * k + 1], 1, holds);
        px = xy[2 * k]; py = xy[2 * k + 1];
    }
    flushBatch(sink, &b, holds);
}

void ca_edge_add_closed(ca_edge_sink *shared, const double *xy, long n, int reversed) {
    if (n <= 0) return;
    ca_edge_sink local = *shared, *sink = &local;
    if (sink->written) addClosed(sink, xy, n, reversed, 1);
    else addClosed(sink, xy, n, reversed, 0);
    shared->work = local.work;
    shared->verticalCount = local.verticalCount;
}

/// `n` values `v` from `p`.
static inline __attribute__((always_inline)) void fillFloats(float *p, long n, float v) {
    for (long k = 0; k < n; k++) p[k] = v;
}

/// A row's cells in column order, taken from its touched bits (clearing them) or, for a row
/// that holds only held-back runs, from `ca_held_cells`' arrays.
typedef struct {
    ca_touched t;
    const long *index;
    const float *value;
    long n, m;
} rowCells;

static inline __attribute__((always_inline)) int nextCell(rowCells *r, int held, long *i, float *c) {
    if (!held) return ca_take_touched(&r->t, i, c);
    if (r->m >= r->n) return 0;
    *i = r->index[r->m];
    *c = r->value[r->m];
    r->m++;
    return 1;
}

/// One row's coverage into `row` (`w` values): its runs of equal coverage written at once,
/// zeros before its first cell; `full` gets the first and one-past-last column of its longest
/// run of coverage exactly 1.
static inline __attribute__((always_inline)) void resolveRow(rowCells *cells, int held, long w, int evenOdd, float *row,
                                                             long full[2]) {
    long bestStart = 0, bestEnd = 0;
    // Where the stretch of coverage 1 that the last written run ended started (−1: that
    // run was not 1): runs of 1 next to each other (a cell that moves the sum within 1, or
    // float noise the coverage rule rounds to 1) make one full stretch.
    long fullFrom = -1;
    // The run the last sum-changing cell started (the first cell starts one whatever it
    // holds), written when the next one is found.
    long pending = -1;
    float sum = 0, pendingCoverage = 0;
    long i;
    float c;
#define WRITE_RUN(end) do { \
        fillFloats(row + pending, (end) - pending, pendingCoverage); \
        if (pendingCoverage == 1) { \
            if (fullFrom < 0) fullFrom = pending; \
            if ((end) - fullFrom > bestEnd - bestStart) { bestStart = fullFrom; bestEnd = (end); } \
        } else { \
            fullFrom = -1; \
        } \
    } while (0)
    while (nextCell(cells, held, &i, &c)) {
        if (i >= w) continue;
        if (pending < 0) {
            fillFloats(row, i, 0);
        } else {
            if (c == 0) continue;
            WRITE_RUN(i);
        }
        sum += c;
        pending = i;
        pendingCoverage = ca_coverage_of_winding(sum, evenOdd);
    }
    if (pending < 0) {
        fillFloats(row, w, 0);
    } else {
        WRITE_RUN(w);
    }
#undef WRITE_RUN
    full[0] = bestStart;
    full[1] = bestEnd;
}

void ca_resolve_coverage(float *cells, uint64_t *bits, long width, long height, long stride, long words, int evenOdd,
                         float *out, int32_t *fullRuns, uint8_t *written, const ca_vertical_run *runs, long runCount) {
    const long w = width;
    long index[2 * CA_VERTICAL_ROOM];
    float value[2 * CA_VERTICAL_ROOM];
    long full[2];
    for (long y = 0; y < height; y++) {
        float *row = out + y * w;
        if (written && !written[y]) {
            // Only held-back runs: the row from their cells, then copied down the rows that
            // share them and are not written either (the same cells, so the same values).
            long next;
            rowCells held = { ca_touched_row(NULL, NULL, 0), index, value, 0, 0 };
            held.n = ca_held_cells(runs, runCount, y, height, index, value, &next);
            resolveRow(&held, 1, w, evenOdd, row, full);
            long end = y + 1;
            while (end < next && !written[end]) end++;
            for (long r = y; r < end; r++) {
                if (r > y) memcpy(out + r * w, row, (size_t)w * sizeof(float));
                if (fullRuns) {
                    fullRuns[2 * r] = (int32_t)full[0];
                    fullRuns[2 * r + 1] = (int32_t)full[1];
                }
            }
            y = end - 1;
            continue;
        }
        if (written) written[y] = 0;
        rowCells touched = { ca_touched_row(cells + y * stride, bits + y * words, words), NULL, NULL, 0, 0 };
        resolveRow(&touched, 0, w, evenOdd, row, full);
        if (fullRuns) {
            fullRuns[2 * y] = (int32_t)full[0];
            fullRuns[2 * y + 1] = (int32_t)full[1];
        }
    }
}

int ca_cpu_has_avx2(void) {
#if defined(__x86_64__)
    // Rasterisers on several threads may ask at once: they store the same answer.
    static int known = -1;
    int k = __atomic_load_n(&known, __ATOMIC_RELAXED);
    if (k < 0) {
        __builtin_cpu_init();
        k = __builtin_cpu_supports("avx2") ? 1 : 0;
        __atomic_store_n(&known, k, __ATOMIC_RELAXED);
    }
    return k;
#else
    return 0;
#endif
}
