/// A canonical, length-limited Huffman code for one deflate alphabet (RFC 1951 §3.2.2), built
/// from symbol frequencies. Deterministic: ties are broken by symbol number, so the same
/// frequencies always give the same code and therefore the same bytes.
struct HuffmanCode {
    /// Code length in bits of each symbol (0: the symbol does not occur).
    var lengths: [UInt8]
    /// Each symbol's code with its bits reversed, ready for deflate's least-significant-bit-first
    /// packing (Huffman codes are packed starting with their most significant bit, §3.1.1).
    var codes: [UInt16]

    /// Builds a code in which every symbol with a non-zero frequency has a code of at most
    /// `maxLength` bits. The caller guarantees at least two symbols occur, so the code is
    /// complete (every decoder, including zlib's, accepts it).
    init(lengths: [UInt8], codes: [UInt16]) { self.lengths = lengths; self.codes = codes }

    init(frequencies: [UInt32], maxLength: Int) {
        lengths = HuffmanCode.lengths(frequencies, maxLength: maxLength)
        codes = HuffmanCode.canonicalCodes(lengths)
    }

    /// Code lengths from a Huffman tree over the frequencies. When the tree is deeper than
    /// `maxLength`, the frequencies are halved (never below 1) and the tree rebuilt: flatter
    /// frequencies give a shallower tree, and equal frequencies give a balanced one of depth
    /// ⌈log₂ n⌉ ≤ 9 for deflate's alphabets, so the loop ends.
    static func lengths(_ frequencies: [UInt32], maxLength: Int) -> [UInt8] {
        var freq = frequencies
        var result = [UInt8](repeating: 0, count: freq.count)
        while true {
            // Leaves in increasing (frequency, symbol) order: sorted as one integer key each.
            var keys: [UInt64] = []
            keys.reserveCapacity(freq.count)
            for (symbol, f) in freq.enumerated() where f > 0 { keys.append(UInt64(f) << 16 | UInt64(symbol)) }
            keys.sort()
            let leaves = keys.map { Int($0 & 0xFFFF) }
            if leaves.isEmpty { return result }
            if leaves.count == 1 { result[leaves[0]] = 1; return result }
            // Two-queue construction: leaves and internal nodes each come out in increasing
            // weight order, so the two lightest nodes are always at the queues' fronts.
            // Nodes 0..<n are leaves, n... internal; parent[] links each node to its parent.
            let n = leaves.count
            var weight = keys.map { $0 >> 16 }
            weight.reserveCapacity(2 * n - 1)
            var parent = [Int](repeating: -1, count: 2 * n - 1)
            var nextLeaf = 0, nextInternal = n
            func takeLightest() -> Int {
                if nextLeaf < n, nextInternal >= weight.count || weight[nextLeaf] <= weight[nextInternal] {
                    nextLeaf += 1; return nextLeaf - 1
                }
                nextInternal += 1; return nextInternal - 1
            }
            for node in n..<(2 * n - 1) {
                let a = takeLightest(), b = takeLightest()
                weight.append(weight[a] + weight[b])
                parent[a] = node; parent[b] = node
            }
            // Depths: the root is the last node; a parent always has a larger index.
            var depth = [Int](repeating: 0, count: 2 * n - 1)
            var deepest = 0
            for node in stride(from: 2 * n - 3, through: 0, by: -1) {
                depth[node] = depth[parent[node]] + 1
                if node < n { deepest = max(deepest, depth[node]) }
            }
            if deepest <= maxLength {
                for (i, symbol) in leaves.enumerated() { result[symbol] = UInt8(depth[i]) }
                return result
            }
            for i in freq.indices where freq[i] > 0 { freq[i] = max(1, freq[i] >> 1) }
        }
    }

    /// Canonical codes from lengths (RFC 1951 §3.2.2: shorter codes first, then by symbol),
    /// bit-reversed for packing.
    static func canonicalCodes(_ lengths: [UInt8]) -> [UInt16] {
        var countOfLength = [Int](repeating: 0, count: 16)
        for l in lengths where l > 0 { countOfLength[Int(l)] += 1 }
        var next = [Int](repeating: 0, count: 16)
        var code = 0
        for bits in 1..<16 {
            code = (code + countOfLength[bits - 1]) << 1
            next[bits] = code
        }
        var codes = [UInt16](repeating: 0, count: lengths.count)
        for (symbol, l) in lengths.enumerated() where l > 0 {
            let c = next[Int(l)]
            next[Int(l)] += 1
            // Reverse the low `l` bits: reverse all 16, then drop the 16 - l low zeros.
            var r = UInt16(c)
            r = (r & 0x5555) << 1 | (r >> 1) & 0x5555
            r = (r & 0x3333) << 2 | (r >> 2) & 0x3333
            r = (r & 0x0F0F) << 4 | (r >> 4) & 0x0F0F
            r = r << 8 | r >> 8
            let reversed = r >> (16 - UInt16(l))
            codes[symbol] = UInt16(reversed)
        }
        return codes
    }
}
