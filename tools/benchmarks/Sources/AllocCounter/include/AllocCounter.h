#include <stdint.h>
/// Number of malloc/calloc/realloc calls made by this process so far.
uint64_t alloc_counter_count(void);
