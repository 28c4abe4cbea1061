/// The greedy parse (see `FrameDeflater`).
extension FrameDeflater {
    /// Parses from `start` to `stop` (a match may run on to `available`), counting symbols into
    /// `histogram` and steps into `steps`; leaves `position` where the block ends and returns
    /// the number of steps.
    ///
    /// The parse compares 8-byte words: at each position it checks whether the next 8 bytes
    /// equal those one byte back (a run) or one row back. If neither does, all 8 are literals
    /// and it moves on by 8; if one does, the match is extended backwards over up to 7 bytes
    /// just taken as literals and forwards as far as it goes, the longer of the two distances
    /// is taken (the run on a tie: its distance code is shorter), and the parse continues after
    /// it. So every run of 15 or more equal bytes is found, shorter ones only sometimes, and
    /// no match is shorter than `minimumMatch` (8) bytes — which measured smaller files on
    /// rendered frames than also taking 4–7-byte matches, whose length and distance codes cost
    /// about as much as the literals they replace.
    func parse(from start: Int, to stop: Int, available: Int, histogram: inout BlockHistogram) -> Int {
        let data = input
        let raw = UnsafeRawPointer(input)
        let (d0, d1) = distances
        let maxLength = DeflateAlphabet.maxMatchLength
        var i = start, literalStart = start, stepCount = 0
        // Eight literal histograms, one per byte of a word, so runs of one byte value do not
        // make each increment wait for the one before it on the same counter.
        var literalCounts = [UInt32](repeating: 0, count: 8 * 256)
        // Matches by candidate and length, turned into symbols once per block.
        var matchCounts = [UInt32](repeating: 0, count: 2 * (maxLength + 1))
        literalCounts.withUnsafeMutableBufferPointer { counts in
            matchCounts.withUnsafeMutableBufferPointer { matches in
                if i == 0, stop > 0 { counts[Int(data[0])] &+= 1; i = 1 }   // nothing precedes the first byte
                let fastStop = min(stop, available - FrameDeflater.lookahead)
                while i < fastStop {
                    let here = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                    let m0 = here == raw.loadUnaligned(fromByteOffset: i &- d0, as: UInt64.self)
                    let m1 = i >= d1 && here == raw.loadUnaligned(fromByteOffset: i &- d1, as: UInt64.self)
                    if !(m0 || m1) {
                        counts[Int(here & 255)] &+= 1
                        counts[256 &+ Int((here >> 8) & 255)] &+= 1
                        counts[512 &+ Int((here >> 16) & 255)] &+= 1
                        counts[768 &+ Int((here >> 24) & 255)] &+= 1
                        counts[1024 &+ Int((here >> 32) & 255)] &+= 1
                        counts[1280 &+ Int((here >> 40) & 255)] &+= 1
                        counts[1536 &+ Int((here >> 48) & 255)] &+= 1
                        counts[1792 &+ Int(here >> 56)] &+= 1
                        i &+= 8
                        continue
                    }
                    // The match may start up to 7 bytes earlier, in bytes just counted as
                    // literals (never before the data or the last step).
                    let backLimit = min(7, i &- literalStart)
                    var best = 0, bestBack = 0, candidate = 0
                    if m0 {
                        var back = 0
                        while back < min(backLimit, i &- d0), data[i &- back &- 1] == data[i &- back &- 1 &- d0] { back &+= 1 }
                        best = back &+ matchLength(raw, at: i, distance: d0, limit: min(maxLength &- back, available &- i))
                        bestBack = back
                    }
                    if m1 {
                        var back = 0
                        while back < min(backLimit, i &- d1), data[i &- back &- 1] == data[i &- back &- 1 &- d1] { back &+= 1 }
                        let length = back &+ matchLength(raw, at: i, distance: d1, limit: min(maxLength &- back, available &- i))
                        if length > best { best = length; bestBack = back; candidate = 1 }
                    }
                    // Those bytes are no longer literals (counts wrap; only their sum matters).
                    var j = 1
                    while j <= bestBack { counts[Int(data[i &- j])] &-= 1; j &+= 1 }
                    i &-= bestBack
                    steps[stepCount] = Step(literals: UInt32(truncatingIfNeeded: i &- literalStart),
                                            length: UInt16(truncatingIfNeeded: best), candidate: UInt16(truncatingIfNeeded: candidate))
                    stepCount &+= 1
                    matches[candidate &* (maxLength + 1) &+ best] &+= 1
                    i &+= best
                    literalStart = i
                }
                // The final block ends with its last bytes as literals.
                if stop == available { while i < stop { counts[Int(data[i])] &+= 1; i &+= 1 } }
            }
        }
        for b in 0..<256 {
            var sum: UInt32 = 0
            for t in 0..<8 { sum &+= literalCounts[t << 8 | b] }
            histogram.literalLength[b] = sum
        }
        for (c, distance) in [d0, d1].enumerated() where distance <= DeflateAlphabet.maxDistance {
            let symbol = DeflateAlphabet.distanceSymbol(distance)
            for length in FrameDeflater.minimumMatch...maxLength {
                let m = matchCounts[c * (maxLength + 1) + length]
                histogram.literalLength[Int(DeflateAlphabet.lengthSymbol[length])] += m
                histogram.distance[symbol] += m
            }
        }
        steps[stepCount] = Step(literals: UInt32(truncatingIfNeeded: i &- literalStart), length: 0, candidate: 0)
        position = i
        return stepCount + 1
    }

    /// How many bytes from `i` equal those `distance` before them, up to `limit` (≥ 8); the
    /// first 8 are known to match. Compares 8 bytes at a time (bytes read past `limit` do not
    /// count, and the input is padded so reading them is safe).
    @inline(__always)
    func matchLength(_ raw: UnsafeRawPointer, at i: Int, distance: Int, limit: Int) -> Int {
        var length = 8
        while length < limit {
            let x = raw.loadUnaligned(fromByteOffset: i &+ length, as: UInt64.self)
                ^ raw.loadUnaligned(fromByteOffset: i &+ length &- distance, as: UInt64.self)
            if x != 0 {
                // Little-endian: the lowest set bit is in the first byte that differs.
                return min(limit, length &+ (x.trailingZeroBitCount >> 3))
            }
            length &+= 8
        }
        return limit
    }
}
