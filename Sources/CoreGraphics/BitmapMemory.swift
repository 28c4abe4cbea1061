// The memory of a bitmap context created with `data: nil` (issue 19's drawing speed). A
// 1920 × 1080 RGBA8 bitmap is 8 MB, 2,000 pages of 4 KB, and drawing walks it row by row, each
// row 7,680 bytes on (a new page every row): the rows of a filled shape cost a page-table walk
// each, and the CPU's prefetchers stop at page boundaries. Asking the kernel for transparent huge
// pages (2 MB) on a large bitmap removes both; the 10,000-rect frame of `cgcontext-benchmark`
// was about 0.89× its time with them (docs/PERFORMANCE.md, "CGContext drawing (issue 19)").
// The bytes drawn are the same; only where they live changes.

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

package enum BitmapMemory {
    /// Bitmaps of at least this many bytes are placed on huge-page boundaries and advised as
    /// huge-page memory; smaller ones would waste most of a 2 MB page.
    package static let hugePageThreshold = 4 << 20
    /// The size of a transparent huge page on x86-64 and most aarch64 kernels.
    package static let hugePageSize = 2 << 20

    /// `byteCount` zeroed bytes, 16-byte aligned at least; nil when the allocation fails.
    /// Release with `release(_:)`.
    package static func allocateZeroed(byteCount: Int) -> UnsafeMutableRawPointer? {
        var count = max(byteCount, 1)
        let huge = count >= hugePageThreshold
        // A large bitmap is rounded up to whole huge pages (8,294,400 bytes of 1920 × 1080 to
        // 8 MB: 94 KB more), so that its last rows are on a huge page too.
        if huge {
            guard count <= Int.max - hugePageSize else { return nil }
            count = (count + hugePageSize - 1) / hugePageSize * hugePageSize
        }
        var raw: UnsafeMutableRawPointer?
        guard posix_memalign(&raw, huge ? hugePageSize : 16, count) == 0, let base = raw else { return nil }
        #if os(Linux)
        if huge {
            // Advice only: where the kernel has huge pages off (or refuses), the bitmap is
            // ordinary memory and nothing else changes. Before the zeroing, so that the first
            // touch of each 2 MB maps a huge page.
            _ = madvise(base, count, MADV_HUGEPAGE)
        }
        #endif
        base.initializeMemory(as: UInt8.self, repeating: 0, count: count)
        return base
    }

    /// Frees memory from `allocateZeroed(byteCount:)`.
    package static func release(_ base: UnsafeMutableRawPointer) {
        free(base)
    }
}
