// Two entry points of the Swift runtime (libswiftCore), declared for Swift code that needs them
// with the C calling convention they are exported with. Declared here rather than looked up with
// dlsym: a binary linked with --static-swift-stdlib keeps the runtime's symbols out of its dynamic
// symbol table, and Swift's @_silgen_name on runtime names is being phased out.
#ifndef CSWIFTRUNTIME_H
#define CSWIFTRUNTIME_H
#include <stdbool.h>

/// True once the object's strong reference count has reached zero (its deinit has begun).
bool swift_isDeallocating(void *object);
/// The object with one more strong reference, or NULL when it is being deallocated.
void *swift_tryRetain(void *object);

#endif
