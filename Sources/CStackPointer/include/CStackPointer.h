// Where the calling thread's stack is now, for the render walk's stack guard (CARender's
// StackGuard). Swift can only take the address of a local, and AddressSanitizer's fake stacks
// (use-after-return detection) move locals off the thread's stack, so the guard asks C for the
// frame address instead: always an address on the real stack.
#ifndef CSTACKPOINTER_H
#define CSTACKPOINTER_H
#include <stdint.h>

/// The current frame's address on the calling thread's stack (not inlined, so it is this
/// function's own frame: a few bytes below its caller's).
__attribute__((noinline)) uintptr_t ca_current_frame_address(void);

#endif
