// CPrefetch is header-only (include/CPrefetch.h); SwiftPM needs one source file per C target.
