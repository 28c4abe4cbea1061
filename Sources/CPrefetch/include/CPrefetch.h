// A hint to bring memory into the cache before it is read (CASoftware's shape rows, issue 22).
// Swift has no prefetch of its own; a static inline function in a header is inlined into the
// Swift caller as the single instruction it compiles to (x86's prefetcht0, AArch64's prfm).
#ifndef CPREFETCH_H
#define CPREFETCH_H

/// Asks for the cache line holding `p` to be loaded for reading; never faults, whatever `p`.
static inline __attribute__((always_inline)) void ca_prefetch(const void *p) { __builtin_prefetch(p, 0, 3); }

#endif
