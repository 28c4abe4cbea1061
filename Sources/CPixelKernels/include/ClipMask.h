// The clip as the C painters read it (SolidSpanWalk.h, AxialGradientRows.h).
#ifndef CA_CLIP_MASK_H
#define CA_CLIP_MASK_H

#include <stdint.h>

/// A `CGContext` clip (`ClipMask`): the coverage of the pixels of [x0, x1) × [y0, y1), row by
/// row, 0 outside; and, when `fullRuns` is not NULL, two entries a row of that box: the
/// columns (from x0) of its longest run of coverage exactly 1.
typedef struct {
    const float *values;
    long x0, y0, x1, y1;
    const int32_t *fullRuns;
} ca_clip_mask;

#endif
