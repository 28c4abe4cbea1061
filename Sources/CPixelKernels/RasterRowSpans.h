// A rasteriser row read as runs of equal coverage: what the solid walk (SolidSpanWalk.c) and the
// axial gradient's walk (AxialGradientRows.c) both paint from. A cell whose accumulated area is
// 0 leaves the running winding sum, and so the coverage, unchanged, so a row is a handful of
// runs: an edge's partly covered pixels, the full inside, the empty hole of a ring. Private to
// CPixelKernels (not in include/).
#ifndef CA_RASTER_ROW_SPANS_H
#define CA_RASTER_ROW_SPANS_H

#include "SolidSpanWalk.h"

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

/// A row taken without painting: every touched cell and bit cleared.
static inline void ca_clear_row(float *a, uint64_t *bits, long words) {
    ca_touched t = ca_touched_row(a, bits, words);
    long i;
    float c;
    while (ca_take_touched(&t, &i, &c)) {}
}

#endif
