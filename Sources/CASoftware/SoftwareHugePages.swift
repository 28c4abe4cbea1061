#if canImport(Glibc)
import Glibc
#endif

/// The CPU backend's large texel buffers — render targets, shape atlas coverage pages, their
/// coverage runs, wide-field pages: 4–64 MB each — asked to be backed by transparent huge pages.
///
/// The shape rows read each shape's raster a row at a time, and the rows of one raster lie a
/// page width apart (8 KB of coverage, 4 KB of runs, 32 KB of field): with 4 KB pages every row
/// of every array is another TLB entry and page walk, for 1,000 stars a few hundred thousand a
/// frame. Linux maps huge pages to a region only when it is 2 MB aligned and, in its default
/// `madvise` mode (`/sys/kernel/mm/transparent_hugepage/enabled`), asked with
/// `madvise(MADV_HUGEPAGE)`; where the kernel has none to give, the region stays in 4 KB pages
/// and nothing else changes. Measured in docs/PERFORMANCE.md ("Gradient, image and shadow
/// interiors; huge pages").
enum SoftwareMemory {
    static let hugePage = 2 << 20

    /// Uninitialised memory for `count` values, 2 MB aligned and advised for huge pages when it
    /// is at least one huge page; released with `deallocate`.
    static func allocate<T>(_: T.Type, count: Int) -> UnsafeMutablePointer<T> {
        let bytes = max(count, 1) * MemoryLayout<T>.stride
        #if canImport(Glibc)
        if bytes >= hugePage {
            var p: UnsafeMutableRawPointer? = nil
            if posix_memalign(&p, hugePage, bytes) == 0, let p {
                _ = madvise(p, bytes, Int32(MADV_HUGEPAGE))
                return p.bindMemory(to: T.self, capacity: max(count, 1))
            }
        }
        #endif
        return UnsafeMutablePointer<T>.allocate(capacity: max(count, 1))
    }

    /// Releases what `allocate` gave (both kinds are `malloc`-family blocks on Linux).
    static func deallocate<T>(_ p: UnsafeMutablePointer<T>) {
        #if canImport(Glibc)
        free(p)
        #else
        p.deallocate()
        #endif
    }
}
