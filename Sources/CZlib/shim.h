// zlib for Swift (carender's fast PNG writer): compress2, compressBound, crc32 only.
#include <zlib.h>
