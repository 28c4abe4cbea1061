/// Deflate's length and distance alphabets (RFC 1951 §3.2.5): each match length 3...258 and
/// distance 1...32768 is a symbol plus extra bits holding the offset from the symbol's base.
enum DeflateAlphabet {
    static let endOfBlock = 256
    /// Literal/length symbols 0...285 (286 and 287 never occur in the data).
    static let literalLengthCount = 286
    static let distanceCount = 30
    static let maxMatchLength = 258
    static let maxDistance = 32768

    /// Base length of symbols 257...285 and their extra-bit counts.
    static let lengthBase: [Int] = [3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31,
                                    35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258]
    static let lengthExtra: [Int] = [0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2,
                                     3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0]
    /// Base distance of symbols 0...29 and their extra-bit counts.
    static let distanceBase: [Int] = [1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385,
                                      513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577]
    static let distanceExtra: [Int] = [0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7,
                                       8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13]

    /// The symbol (257...285) of a match length 3...258. Length 258 is symbol 285, not 284 with
    /// extra bits 31 (§3.2.5 gives 284 the range 227...257).
    static let lengthSymbol: [UInt16] = {
        var table = [UInt16](repeating: 0, count: maxMatchLength + 1)
        for length in 3...maxMatchLength {
            var index = lengthBase.count - 1
            while lengthBase[index] > length { index -= 1 }
            table[length] = UInt16(257 + index)
        }
        return table
    }()

    /// The symbol (0...29) of a distance 1...32768.
    static func distanceSymbol(_ distance: Int) -> Int {
        var index = distanceBase.count - 1
        while distanceBase[index] > distance { index -= 1 }
        return index
    }

    /// Order in which a dynamic block's header lists the code-length code's lengths (§3.2.7).
    static let codeLengthOrder: [Int] = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]

    /// The fixed Huffman code's lengths (§3.2.6): literal/length symbols 0...287, distances 0...29.
    static let fixedLiteralLengthLengths: [UInt8] =
        (0..<288).map { $0 < 144 ? 8 : $0 < 256 ? 9 : $0 < 280 ? 7 : 8 }
    static let fixedDistanceLengths = [UInt8](repeating: 5, count: 30)
    static let fixedLiteralLength = HuffmanCode(lengths: fixedLiteralLengthLengths, codes: HuffmanCode.canonicalCodes(fixedLiteralLengthLengths))
    static let fixedDistance = HuffmanCode(lengths: fixedDistanceLengths, codes: HuffmanCode.canonicalCodes(fixedDistanceLengths))
}
