// Counts heap allocations by interposing glibc's allocator entry points in the benchmark
// executable and forwarding to glibc's own implementations.
#include "AllocCounter.h"
#include <stddef.h>
#include <stdatomic.h>

extern void *__libc_malloc(size_t);
extern void *__libc_calloc(size_t, size_t);
extern void *__libc_realloc(void *, size_t);

static _Atomic uint64_t counter;

void *malloc(size_t n) { atomic_fetch_add_explicit(&counter, 1, memory_order_relaxed); return __libc_malloc(n); }
void *calloc(size_t a, size_t b) { atomic_fetch_add_explicit(&counter, 1, memory_order_relaxed); return __libc_calloc(a, b); }
void *realloc(void *p, size_t n) { atomic_fetch_add_explicit(&counter, 1, memory_order_relaxed); return __libc_realloc(p, n); }

uint64_t alloc_counter_count(void) { return atomic_load_explicit(&counter, memory_order_relaxed); }
