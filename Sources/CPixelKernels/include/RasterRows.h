// The rasteriser's rows as the C walks read them (SolidSpanWalk.h, AxialGradientRows.h).
#ifndef CA_RASTER_ROWS_H
#define CA_RASTER_ROWS_H

#include <stdint.h>
#include "CCoverage.h"

/// A rasteriser's rows (`CoverageRasterizer`): row j's cells from `cells + j·stride`, its
/// touched bits from `bits + j·words`; `width` cells a row, `height` rows. With `written` (the
/// edge sink's, `ca_edge_sink`), a row whose byte is 0 holds no cells: its content is the
/// `verticals` runs over it, and the walk works out the spans of such rows once for every row
/// with the same runs over it.
typedef struct {
    float *cells;
    uint64_t *bits;
    long stride, words, width, height;
    int32_t evenOdd;
    uint8_t *written;
    const ca_vertical_run *verticals;
    long verticalCount;
} ca_raster_rows;

#endif
