/// Coverage arrays of earlier frames' shape rasters, kept for new rasters of later frames (issue
/// 23). A Lottie layer whose rasters change every frame (9squares: 18 rings scaling, 3.3 MB of
/// coverage a frame) made and freed megabytes a frame; glibc hands such blocks back to the
/// system as they are freed and maps fresh, zeroed pages for the next ones, and those page
/// faults were a sixth of the frame on the CPU backend (measured by turning the trimming off
/// with `MALLOC_TRIM_THRESHOLD_`/`MALLOC_MMAP_THRESHOLD_`: 4.7–5.8 → 3.8–4.8 ms/frame).
///
/// An array comes back once no frame needs its bytes: after the backend has applied the
/// frame's uploads (`RenderTreeBuilder.recycleUploads(of:)`). Should a copy still be held
/// elsewhere, writing into the array copies it first (Swift's copy on write): correct, only
/// not cheaper.
package struct RasterBytePool {
    private var arrays: [[UInt8]] = []
    private var heldBytes = 0
    /// Arrays smaller than this are left to the allocator (its size classes serve them
    /// without system calls).
    static let minimumBytes = 64 << 10
    /// At most this many bytes are held (the largest frame's rasters, or a few of them).
    static let maximumBytes = 32 << 20
    static let maximumArrays = 256

    package init() {}

    /// Keeps `a` for a later `take` when it is large enough and the pool has room.
    package mutating func give(_ a: [UInt8]) {
        let c = a.capacity
        guard c >= Self.minimumBytes, heldBytes + c <= Self.maximumBytes, arrays.count < Self.maximumArrays else { return }
        arrays.append(a)
        heldBytes += c
    }

    /// The smallest kept array with room for `count` bytes, cut or grown to that count (its
    /// bytes are earlier rasters': the caller writes every one); nil when none has room.
    package mutating func take(count: Int) -> [UInt8]? {
        var best = -1
        for (k, a) in arrays.enumerated() where a.capacity >= count && (best < 0 || a.capacity < arrays[best].capacity) {
            best = k
        }
        guard best >= 0 else { return nil }
        arrays.swapAt(best, arrays.count - 1)
        var a = arrays.removeLast()
        heldBytes -= a.capacity
        if a.count > count { a.removeLast(a.count - count) } else if a.count < count { a.append(contentsOf: repeatElement(0, count: count - a.count)) }
        return a
    }

    /// Bytes held (tests).
    package var bytesHeld: Int { heldBytes }
}
