import CHeapStats

/// Bytes the C heap holds for live allocations (glibc's `mallinfo2`). Swift objects, arrays and
/// strings and the C libraries (libxml2, libpng, libwebp, libjpeg-turbo) all allocate through
/// it, so memory an input leaves behind shows up here without a sanitizer build.
enum Heap {
    static var bytesInUse: Int { Int(ca_heap_bytes_in_use()) }
}
