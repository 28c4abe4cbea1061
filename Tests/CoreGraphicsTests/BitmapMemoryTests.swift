import Testing

// Issue 19: a context created with `data: nil` owns zeroed memory; a large one is placed on a
// huge-page boundary and advised as huge pages (BitmapMemory.swift). These pin what that must
// keep: zeroed memory, the placement, and drawing that reads and writes it as before.
@Suite struct BitmapMemoryTests {
    /// A 1920 × 1080 RGBA8 context (8 MB, over the 4 MB threshold) starts with every byte 0,
    /// its base on a 2 MB boundary, and a fill lands where it should.
    @Test func largeContextIsZeroedOnAHugePageBoundaryAndDraws() {
        let ctx = rgbaContext(1920, 1080)
        let base = ctx.data!
        #expect(Int(bitPattern: base) % BitmapMemory.hugePageSize == 0)
        let n = 1920 * 1080 * 4
        let px = UnsafeBufferPointer(start: base.assumingMemoryBound(to: UInt8.self), count: n)
        #expect(px.allSatisfy { $0 == 0 })
        ctx.setFillColor(red: 0, green: 0, blue: 1, alpha: 1)
        ctx.fill(CGRect(x: 1900, y: 0, width: 20, height: 2))   // bottom-left origin: the last rows
        #expect(bytes(ctx, 1910, 1079) == [0, 0, 255, 255])
        #expect(bytes(ctx, 1910, 1077) == [0, 0, 0, 0])
        #expect(bytes(ctx, 1899, 1079) == [0, 0, 0, 0])
    }

    /// A small context (below the threshold) is zeroed too, 16-byte aligned at least.
    @Test func smallContextIsZeroedAndAligned() {
        for (w, h) in [(1, 1), (3, 7), (1000, 1000)] {
            let ctx = rgbaContext(w, h)
            let base = ctx.data!
            #expect(Int(bitPattern: base) % 16 == 0)
            let px = UnsafeBufferPointer(start: base.assumingMemoryBound(to: UInt8.self), count: w * h * 4)
            #expect(px.allSatisfy { $0 == 0 })
        }
    }

    /// The allocator itself: zeroed at any size either side of the threshold, and released
    /// without error (many times over, so a mismatched free would show under the test runner).
    @Test func allocatorZeroesAndReleasesAroundTheThreshold() {
        for count in [1, 15, BitmapMemory.hugePageThreshold - 1, BitmapMemory.hugePageThreshold,
                      BitmapMemory.hugePageThreshold + 4093] {
            guard let p = BitmapMemory.allocateZeroed(byteCount: count) else {
                Issue.record("no memory for \(count) bytes"); continue
            }
            let bytes = UnsafeBufferPointer(start: p.assumingMemoryBound(to: UInt8.self), count: count)
            #expect(bytes.allSatisfy { $0 == 0 }, "\(count) bytes")
            #expect(Int(bitPattern: p) % (count >= BitmapMemory.hugePageThreshold ? BitmapMemory.hugePageSize : 16) == 0)
            BitmapMemory.release(p)
        }
    }
}
