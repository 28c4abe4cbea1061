// ICU's line break iterator (UAX #14) behind a header that names no ICU type: Foundation
// imports its own copy of ICU's headers (_FoundationICU), and Clang refuses two modules that
// define `UErrorCode` differently, so ICU's headers are included only in linebreak.c. ICU's
// C entry points are renamed per version (ubrk_open → ubrk_open_72); these wrappers give
// fixed names. The toolchain's ICU has its symbols prefixed swift_, so the two never collide.
#ifndef CICUBREAK_H
#define CICUBREAK_H
#include <stdint.h>

/// A line-break iterator over `count` UTF-16 units (not copied: they must outlive it), or NULL.
void *cicu_line_break_open(const uint16_t *text, int32_t count);
/// The next boundary, or -1 at the end.
int32_t cicu_break_next(void *it);
/// Whether the boundary just returned is mandatory (UAX #14 classes BK, CR, LF, NL).
int cicu_break_is_hard(void *it);
void cicu_break_close(void *it);

#endif
