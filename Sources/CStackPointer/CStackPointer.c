#include "CStackPointer.h"

uintptr_t ca_current_frame_address(void) {
    return (uintptr_t)__builtin_frame_address(0);
}
