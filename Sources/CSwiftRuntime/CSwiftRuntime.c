// Header-only: the declarations in include/CSwiftRuntime.h are defined by the Swift runtime,
// which every Swift binary links (dynamically, or statically with --static-swift-stdlib).
#include "CSwiftRuntime.h"
