// The C heap's live bytes, for leak-check (issue 17). glibc declares mallinfo2 in <malloc.h>,
// which the Swift Glibc module does not import.
#ifndef CHEAPSTATS_H
#define CHEAPSTATS_H
#include <stddef.h>

/// Bytes in live allocations: small blocks in use plus mmapped blocks (mallinfo2's uordblks +
/// hblkhd); 0 where the C library has no mallinfo2.
size_t ca_heap_bytes_in_use(void);

#endif
