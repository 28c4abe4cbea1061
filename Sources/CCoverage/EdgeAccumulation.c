// See include/CCoverage.h. `smin`/`smax` are Swift's `min`/`max` (`y < x ? y : x`,
// `y >= x ? y : x`), so that even signed zeros come out as the Swift code gave them.
#include "CCoverage.h"
#include <string.h>

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
/// is 1: `addLine`'s vertical case, out of line so that the chords' loop, where the time goes,
/// keeps its values in registers (vertical edges are a few of a shape's edges).
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

/// `ca_edge_add_line`'s body, inlined into the polygon loops below, which run it on a copy of
/// the sink held in locals: called once an edge, it spent a sixth of its instructions saving,
/// reloading and spilling the sink's fields (most edges are a corner's short chords of one or
/// two rows). The same arithmetic whichever way it is called.
/// `checked` false: the caller knows every coordinate is finite and within ±`coordinateLimit`,
/// where the checks and clamps change nothing.
static inline __attribute__((always_inline)) void addLine(ca_edge_sink *sink, double x0, double y0, double x1, double y1,
                                                          int checked) {
    if (sink->work > sink->workLimit) return;
    const double lim = coordinateLimit;
    double ax = x0, ay = y0, bx = x1, by = y1;
    if (checked) {
        if (!finite(x0) || !finite(y0) || !finite(x1) || !finite(y1)) return;
        ax = smin(smax(x0, -lim), lim); ay = smin(smax(y0, -lim), lim);
        bx = smin(smax(x1, -lim), lim); by = smin(smax(y1, -lim), lim);
    }
    if (ay == by) return;
    const double dir = by > ay ? 1 : -1;
    double xa, ya, xb, yb;
    if (ay < by) { xa = ax; ya = ay; xb = bx; yb = by; } else { xa = bx; ya = by; xb = ax; yb = ay; }
    const long height = sink->height;
    const double h = (double)height;
    if (!(yb > 0) || !(ya < h)) return;
    const double y0c = smax(ya, 0), y1c = smin(yb, h);
    const double dxdy = (xb - xa) / (yb - ya);
    // An edge so flat that its slope overflows (a height below ~10⁻³⁰⁰ cells) adds nothing a
    // float cell can hold; its x along the rows would be NaN.
    if (!finite(dxdy)) return;
    const long firstRow = (long)y0c;
    const long y1t = (long)y1c;
    long lastRow = ((double)y1t < y1c ? y1t + 1 : y1t);
    if (lastRow > height) lastRow = height;
    lastRow -= 1;
    if (firstRow > lastRow) return;
    const double w = (double)sink->width;
    float *cells = sink->cells;
    uint64_t *bits = sink->bits;
    const long s = sink->stride, wpr = sink->words;
    long work = sink->work;
    if (dxdy == 0) {
        addVertical(sink, xa, y0c, y1c, firstRow, lastRow, dir);
        return;
    }
    // Row r spans [max(y0c, r), min(y1c, r + 1)]: the first row starts at y0c, the last ends at
    // y1c, every other row is whole. A row's end x, xa + (r + 1 − ya)·dxdy, is the next row's
    // start x (the same expression), so it is computed and clamped once. (The x values are
    // finite here, so the clamps are plain comparisons.)
    // Rows that hold only held-back runs get them first (`ca_edge_sink`), all before the rows'
    // loop, which then keeps its few values in registers (with the runs' arguments live in it,
    // it spilled and reloaded a dozen values a row).
    if (sink->written) {
        for (long row = firstRow; row <= lastRow; row++)
            writeRow(cells, bits, s, wpr, sink->written, sink->verticals, sink->verticalCount, row);
    }
    float *rowCells = cells + firstRow * s;
    uint64_t *rowBits = bits + firstRow * wpr;
    double r0 = y0c;
    double xs = clampTo(xa + (r0 - ya) * dxdy, w);
    for (long row = firstRow; row <= lastRow; row++, rowCells += s, rowBits += wpr) {
        const double r1 = row < lastRow ? (double)(row + 1) : y1c;
        const double xe = clampTo(xa + (r1 - ya) * dxdy, w);
        const double dy = r1 - r0;
        if (dy > 0) {
            const double l = xs < xe ? xs : xe, r = xs < xe ? xe : xs;
            work += 1 + (long)(r - l);
            accumulate(rowCells, l, r, (float)(dy * dir));
            mark(rowBits, (long)l, (long)r + 1);
        }
        xs = xe;
        r0 = r1;
    }
    sink->work = work;
}

void ca_edge_add_line(ca_edge_sink *sink, double x0, double y0, double x1, double y1) {
    addLine(sink, x0, y0, x1, y1, 1);
}

/// The polygons' edges; `checked` as `addLine` takes it.
static inline __attribute__((always_inline)) void addPolygons(ca_edge_sink *sink, const double *xy, const long *ends, long count,
                                                              double ox, double oy, int checked) {
    long start = 0;
    for (long k = 0; k < count; k++) {
        const long e = ends[k];
        double px = xy[2 * (e - 1)] - ox, py = xy[2 * (e - 1) + 1] - oy;
        for (long j = start; j < e; j++) {
            const double vx = xy[2 * j] - ox, vy = xy[2 * j + 1] - oy;
            addLine(sink, px, py, vx, vy, checked);
            px = vx; py = vy;
        }
        start = e;
    }
}

void ca_edge_add_polygons(ca_edge_sink *shared, const double *xy, const long *ends, long count, double ox, double oy,
                          const double *lo, const double *hi) {
    ca_edge_sink local = *shared, *sink = &local;
    const double lim = coordinateLimit;
    // Bounds within the limit (NaN fails every comparison): no edge needs its checks.
    if (lo && hi && lo[0] - ox >= -lim && lo[1] - oy >= -lim && hi[0] - ox <= lim && hi[1] - oy <= lim) {
        addPolygons(sink, xy, ends, count, ox, oy, 0);
    } else {
        addPolygons(sink, xy, ends, count, ox, oy, 1);
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

void ca_edge_add_closed(ca_edge_sink *shared, const double *xy, long n, int reversed) {
    if (n <= 0) return;
    ca_edge_sink local = *shared, *sink = &local;
    if (reversed) {
        double px = xy[0], py = xy[1];
        for (long k = n - 1; k >= 0; k--) {
            addLine(sink, px, py, xy[2 * k], xy[2 * k + 1], 1);
            px = xy[2 * k]; py = xy[2 * k + 1];
        }
    } else {
        double px = xy[2 * (n - 1)], py = xy[2 * (n - 1) + 1];
        for (long k = 0; k < n; k++) {
            addLine(sink, px, py, xy[2 * k], xy[2 * k + 1], 1);
            px = xy[2 * k]; py = xy[2 * k + 1];
        }
    }
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
