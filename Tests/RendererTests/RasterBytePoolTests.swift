import Testing
@testable import CARender

/// Issue 23: the coverage arrays of applied shape uploads are kept for later rasters
/// (`RasterBytePool`) instead of being freed and allocated again every frame.
@Suite struct RasterBytePoolTests {
    @Test("a kept array serves a later raster of up to its capacity, in place, at the asked count")
    func keptArrayIsReused() throws {
        var pool = RasterBytePool()
        var a = [UInt8](repeating: 7, count: 200_000)
        let address = a.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
        pool.give(a)
        a = []  // the pool holds the only reference, as after a frame's uploads are taken back
        #expect(pool.bytesHeld >= 200_000)
        // Smaller: the same storage, cut to the count.
        // (Bound once, not through a copy that would share the buffer and make writes copy it.)
        guard var b = pool.take(count: 150_000) else { Issue.record("nothing kept"); return }
        #expect(b.count == 150_000)
        #expect(b.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) } == address)
        #expect(pool.bytesHeld == 0)
        b[149_999] = 1
        // Given back and asked for more than its count but within its capacity: grown in place.
        pool.give(b)
        b = []
        let takenC = pool.take(count: 190_000)
        let c = try #require(takenC)
        #expect(c.count == 190_000)
        #expect(c.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) } == address)
        // Nothing large enough kept: none (the caller makes a new array).
        let none = pool.take(count: 1_000_000)
        #expect(none == nil)
    }

    @Test("the smallest array that fits is taken; small arrays and arrays past the cap are not kept")
    func bestFitAndBounds() throws {
        var pool = RasterBytePool()
        pool.give([UInt8](repeating: 0, count: 1_000))
        #expect(pool.bytesHeld == 0, "an array under minimumBytes is left to the allocator")
        var big = [UInt8](repeating: 0, count: 900_000), small = [UInt8](repeating: 0, count: 100_000)
        let smallAddress = small.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
        pool.give(big)
        pool.give(small)
        big = []; small = []
        let takenT = pool.take(count: 80_000)
        let t = try #require(takenT)
        #expect(t.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) } == smallAddress)
        var capped = RasterBytePool()
        for _ in 0..<40 { capped.give([UInt8](repeating: 0, count: 1 << 20)) }
        #expect(capped.bytesHeld <= RasterBytePool.maximumBytes)
    }
}
