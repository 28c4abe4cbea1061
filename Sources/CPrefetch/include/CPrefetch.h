// A hint to bring memory into the cache before it is read (CASoftware's shape rows and
// CoreGraphics' span fills, issues 22 and 19). Swift has no prefetch of its own; static inline
// functions in a header are inlined into the Swift caller as the instructions they compile to
// (x86's prefetcht0, AArch64's prfm).
#ifndef CPREFETCH_H
#define CPREFETCH_H

#include <stddef.h>

/// Asks for the cache line holding `p` to be loaded for reading; never faults, whatever `p`.
static inline __attribute__((always_inline)) void ca_prefetch(const void *p) { __builtin_prefetch(p, 0, 3); }

/// Asks for every cache line of the `bytes` bytes from `p` (none when `bytes` is 0).
static inline __attribute__((always_inline)) void ca_prefetch_range(const void *p, size_t bytes) {
    if (bytes == 0) return;
    const char *c = (const char *)p;
    for (size_t k = 0; k < bytes; k += 64) __builtin_prefetch(c + k, 0, 3);
    __builtin_prefetch(c + bytes - 1, 0, 3);
}

#endif
