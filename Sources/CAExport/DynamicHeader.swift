/// A dynamic Huffman block's codes and header (RFC 1951 §3.2.7): the literal/length and
/// distance code lengths, run-length coded with symbols 16 (repeat the previous length 3–6
/// times), 17 (3–10 zeros) and 18 (11–138 zeros), themselves Huffman coded by the
/// code-length code, whose 3-bit lengths come first in a fixed order.
struct DynamicHeader {
    var literalLength: HuffmanCode
    var distance: HuffmanCode
    /// (symbol 0...18, extra-bit value) for each run-length item.
    private var items: [(symbol: Int, extra: Int)] = []
    private var codeLength: HuffmanCode
    private var literalLengthCount: Int, distanceCount: Int, codeLengthCount: Int
    /// The header's size in bits, after BFINAL and BTYPE (which `headerBits` includes).
    private(set) var headerBits = 0

    /// Extra bits after code-length symbols 16, 17 and 18 (none after 0...15).
    private static func extraBits(_ symbol: Int) -> Int { symbol < 16 ? 0 : symbol == 16 ? 2 : symbol == 17 ? 3 : 7 }

    init(histogram: FrameDeflater.BlockHistogram) {
        // Every alphabet gets at least two used symbols, so each code is complete (a lone
        // symbol would need a 1-bit code with an unused sibling, which some decoders refuse).
        var literalCounts = histogram.literalLength, distanceCounts = histogram.distance
        DynamicHeader.ensureTwoSymbols(&literalCounts)
        DynamicHeader.ensureTwoSymbols(&distanceCounts)
        // 14 bits, not deflate's 15: four literal codes then fit the bit writer's register
        // between flushes (`writeData`); the cost in size is nil in practice.
        literalLength = HuffmanCode(frequencies: literalCounts, maxLength: 14)
        distance = HuffmanCode(frequencies: distanceCounts, maxLength: 15)
        literalLengthCount = max(257, (literalLength.lengths.lastIndex { $0 > 0 } ?? 0) + 1)
        distanceCount = max(1, (distance.lengths.lastIndex { $0 > 0 } ?? 0) + 1)
        // One sequence of lengths: the two lists run together and repeats may cross from one
        // to the other (§3.2.7).
        let all = Array(literalLength.lengths[0..<literalLengthCount]) + Array(distance.lengths[0..<distanceCount])
        var i = 0
        while i < all.count {
            let value = Int(all[i])
            var run = 1
            while i + run < all.count, all[i + run] == all[i] { run += 1 }
            i += run
            if value == 0 {
                while run >= 11 { let k = min(run, 138); items.append((18, k - 11)); run -= k }
                if run >= 3 { items.append((17, run - 3)); run = 0 }
            } else {
                items.append((value, 0)); run -= 1
                while run >= 3 { let k = min(run, 6); items.append((16, k - 3)); run -= k }
            }
            while run > 0 { items.append((value, 0)); run -= 1 }
        }
        var codeLengthCounts = [UInt32](repeating: 0, count: 19)
        for item in items { codeLengthCounts[item.symbol] += 1 }
        DynamicHeader.ensureTwoSymbols(&codeLengthCounts)
        codeLength = HuffmanCode(frequencies: codeLengthCounts, maxLength: 7)
        var count = 19
        while count > 4, codeLength.lengths[DeflateAlphabet.codeLengthOrder[count - 1]] == 0 { count -= 1 }
        codeLengthCount = count
        headerBits = 3 + 5 + 5 + 4 + 3 * codeLengthCount
        for item in items { headerBits += Int(codeLength.lengths[item.symbol]) + DynamicHeader.extraBits(item.symbol) }
    }

    /// Gives the lowest-numbered unused symbols a count of 1 until two symbols are used.
    private static func ensureTwoSymbols(_ counts: inout [UInt32]) {
        var used = counts.filter { $0 > 0 }.count
        var s = 0
        while used < 2 {
            if counts[s] == 0 { counts[s] = 1; used += 1 }
            s += 1
        }
    }

    /// Writes HLIT, HDIST, HCLEN, the code-length code and the run-length coded lengths.
    func write(_ writer: inout DeflateBitWriter) {
        writer.put(UInt64(literalLengthCount - 257), 5)
        writer.put(UInt64(distanceCount - 1), 5)
        writer.put(UInt64(codeLengthCount - 4), 4)
        writer.flush()
        for k in 0..<codeLengthCount {
            writer.put(UInt64(codeLength.lengths[DeflateAlphabet.codeLengthOrder[k]]), 3)
            writer.flush()
        }
        for item in items {
            writer.put(UInt64(codeLength.codes[item.symbol]), Int(codeLength.lengths[item.symbol]))
            writer.put(UInt64(item.extra), DynamicHeader.extraBits(item.symbol))
            writer.flush()
        }
    }
}
