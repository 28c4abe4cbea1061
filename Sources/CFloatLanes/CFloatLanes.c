// CFloatLanes is header-only (include/CFloatLanes.h); SwiftPM needs one source file per C target.
