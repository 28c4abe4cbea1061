// A rasteriser row read as runs of equal coverage: what the solid walk (SolidSpanWalk.c) and the
// axial gradient's walk (AxialGradientRows.c) both paint from. A cell whose accumulated area is
// 0 leaves the running winding sum, and so the coverage, unchanged, so a row is a handful of
// runs: an edge's partly covered pixels, the full inside, the empty hole of a ring. Private to
// CPixelKernels (not in include/).
#ifndef CA_RASTER_ROW_SPANS_H
#define CA_RASTER_ROW_SPANS_H

#include "SolidSpanWalk.h"
#include "CPrefetch.h"

/// A run of one row: columns [lo, hi) of the box at coverage `c`.
typedef struct {
    long lo, hi;
    float c;
} rowSpan;

/// Runs the statements after `span` once for each run of a row, in column order, with `span`
/// (a `rowSpan`) set to it. The row's cells come from `NEXT`, an expression that sets `i_` (the
/// column) and `c_` (the cell's value) and is 0 when none are left: the touched bits'
/// `ca_take_touched(&t, &i_, &c_)`, or a held row's arrays. Columns are clamped to
/// [firstI, endI) (the bitmap's part of the box; cells left of it still add to the sum); runs at
/// or below `CA_NEGLIGIBLE_COVERAGE` and empty ones are left out. A macro, so that each walk's
/// painting sits in the loop itself: as a reader struct with a "next run" function the solid
/// walk measured 4 % slower on the 10,000-rect frame.
#define CA_EACH_ROW_SPAN(NEXT, w, firstI, endI, evenOdd, span, ...) do { \
        float sum_ = 0, pendingCoverage_ = 0; \
        long pending_ = -1, i_; \
        float c_; \
        while (NEXT) { \
            if (i_ >= (w) || c_ == 0) continue; \
            if (pending_ >= 0) { \
                const long lo_ = pending_ > (firstI) ? pending_ : (firstI), hi_ = i_ < (endI) ? i_ : (endI); \
                if (pendingCoverage_ > CA_NEGLIGIBLE_COVERAGE && lo_ < hi_) { \
                    const rowSpan span = { lo_, hi_, pendingCoverage_ }; \
                    __VA_ARGS__ \
                } \
            } \
            sum_ += c_; \
            pending_ = i_; \
            pendingCoverage_ = ca_coverage_of_winding(sum_, (evenOdd)); \
        } \
        if (pending_ >= 0) { \
            const long lo_ = pending_ > (firstI) ? pending_ : (firstI), hi_ = (w) < (endI) ? (w) : (endI); \
            if (pendingCoverage_ > CA_NEGLIGIBLE_COVERAGE && lo_ < hi_) { \
                const rowSpan span = { lo_, hi_, pendingCoverage_ }; \
                __VA_ARGS__ \
            } \
        } \
    } while (0)

/// The runs of rows that hold no cells (their `written` byte is 0): the cells the held-back runs
/// over row `j` would have written (`ca_held_cells`), read as `CA_EACH_ROW_SPAN` reads a row, into
/// `out` (room for 2·CA_VERTICAL_ROOM + 1); returns how many, and in `*next` the first row past
/// `j` where the set of runs over a row changes (`height` if none does).
static inline long ca_held_spans(const ca_vertical_run *runs, long count, long j, long height, long w, long firstI, long endI,
                                 int evenOdd, rowSpan *out, long *next) {
    long index[2 * CA_VERTICAL_ROOM];
    float value[2 * CA_VERTICAL_ROOM];
    const long n = ca_held_cells(runs, count, j, height, index, value, next);
    long spans = 0, m = 0;
    CA_EACH_ROW_SPAN((m < n && (i_ = index[m], c_ = value[m], m++, 1)), w, firstI, endI, evenOdd, sp, out[spans++] = sp;);
    return spans;
}

/// The row loop both walks share: rows j = 0 … height − 1 of `rows` (raster row boxY0 + j), those
/// outside [clipY0, clipY1) taken without painting, pixel rows four below prefetched (a shape's
/// rows lie a bitmap row apart, which the hardware prefetcher does not follow). A row holding
/// cells is handed to `cells(ctx, j, &t)` with its touched cells (which must all be taken);
/// a stretch of rows j … end − 1 holding only held-back runs, all sharing the same ones, to
/// `held(ctx, j, end, spans, count)` with their runs (`ca_held_spans`, worked out once for every
/// row up to where the runs change). Every cell, bit and `written` byte is left clear. Inlined
/// with its callers' functions, so each walk compiles to its own loop.
static inline __attribute__((always_inline)) void ca_walk_rows(const ca_raster_rows *rows, uint8_t *base, long bytesPerRow, long boxX0,
                                                               long boxY0, long clipX0, long clipY0, long clipX1, long clipY1,
                                                               void (*held)(void *, long, long, const rowSpan *, long),
                                                               void (*cells)(void *, long, ca_touched *), void *ctx) {
    const long w = rows->width, h = rows->height, stride = rows->stride, words = rows->words;
    const int empty = clipX1 <= clipX0 || clipY1 <= clipY0;
    const long firstI = clipX0 - boxX0, endI = clipX1 - boxX0;
    uint8_t *written = rows->written;
    // The held-back rows' runs, valid for rows up to `heldEnd` (see `ca_held_spans`).
    rowSpan spans[2 * CA_VERTICAL_ROOM + 1];
    long count = 0, heldEnd = -1;
    for (long j = 0; j < h; j++) {
        const long y = boxY0 + j;
        const long ahead = y + 4;
        if (!empty && ahead >= clipY0 && ahead < clipY1)
            ca_prefetch_range(base + ahead * bytesPerRow + clipX0 * 4, (size_t)(clipX1 - clipX0) * 4);
        const int skipped = empty || y < clipY0 || y >= clipY1;
        if (written && !written[j]) {
            if (skipped) continue;
            if (j >= heldEnd) count = ca_held_spans(rows->verticals, rows->verticalCount, j, h, w, firstI, endI, rows->evenOdd, spans, &heldEnd);
            const long stop = heldEnd < clipY1 - boxY0 ? heldEnd : clipY1 - boxY0;
            long end = j + 1;
            while (end < stop && !written[end]) end++;
            held(ctx, j, end, spans, count);
            j = end - 1;
            continue;
        }
        if (written) written[j] = 0;
        ca_touched t = ca_touched_row(rows->cells + j * stride, rows->bits + j * words, words);
        if (skipped) {
            long i;
            float c;
            while (ca_take_touched(&t, &i, &c)) {}
            continue;
        }
        cells(ctx, j, &t);
    }
}

#endif
