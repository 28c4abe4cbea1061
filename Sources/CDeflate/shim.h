// libdeflate for Swift (carender's fast PNG writer): whole-buffer zlib compression and CRC-32.
#include <libdeflate.h>
