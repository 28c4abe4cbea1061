#include "CICUBreak.h"
#include <unicode/ubrk.h>

void *cicu_line_break_open(const uint16_t *text, int32_t count) {
    UErrorCode status = U_ZERO_ERROR;
    UBreakIterator *it = ubrk_open(UBRK_LINE, "", (const UChar *)text, count, &status);
    if (U_FAILURE(status)) { if (it) ubrk_close(it); return 0; }
    return it;
}

int32_t cicu_break_next(void *it) { return ubrk_next((UBreakIterator *)it); }

int cicu_break_is_hard(void *it) {
    int32_t s = ubrk_getRuleStatus((UBreakIterator *)it);
    return s >= UBRK_LINE_HARD && s < UBRK_LINE_HARD_LIMIT;
}

void cicu_break_close(void *it) { ubrk_close((UBreakIterator *)it); }
