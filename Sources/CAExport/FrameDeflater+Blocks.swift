/// Writing one parsed block (RFC 1951 §3.2.3–3.2.7) as whichever of dynamic Huffman, fixed
/// Huffman or stored costs the fewest bits; the costs are exact for the two Huffman kinds and
/// an upper bound for stored.
extension FrameDeflater {
    func writeBlock(_ data: UnsafePointer<UInt8>, count: Int, steps: UnsafeBufferPointer<Step>,
                    histogram: BlockHistogram, isFinal: Bool, room: Int) {
        let distances = [self.distances.0, self.distances.1]
        var h = histogram
        h.literalLength[DeflateAlphabet.endOfBlock] = 1
        let dynamic = DynamicHeader(histogram: h)
        let dynamicBits = dynamic.headerBits + FrameDeflater.dataBits(h, dynamic.literalLength.lengths, dynamic.distance.lengths)
        let fixedBits = 3 + FrameDeflater.dataBits(h, DeflateAlphabet.fixedLiteralLengthLengths, DeflateAlphabet.fixedDistanceLengths)
        let storedBlocks = max(1, (count + 65534) / 65535)
        let storedBits = storedBlocks * (3 + 7 + 32) + 8 * count
        let best = min(dynamicBits, fixedBits, storedBits)
        // The bound given to the caller allows every block to be stored; the cheapest kind is
        // never larger. (An internal invariant, not something input can break.)
        precondition(best / 8 + 16 <= room, "deflate block larger than its stored size")
        if best == storedBits {
            FrameDeflater.writeStored(data, count: count, isFinal: isFinal, writer: &writer)
        } else if best == dynamicBits {
            writer.put(isFinal ? 1 : 0, 1)
            writer.put(2, 2)   // BTYPE 10: dynamic Huffman codes
            dynamic.write(&writer)
            FrameDeflater.writeData(data, steps: steps, distances: distances, literalLength: dynamic.literalLength,
                      distance: dynamic.distance, writer: &writer)
        } else {
            writer.put(isFinal ? 1 : 0, 1)
            writer.put(1, 2)   // BTYPE 01: fixed Huffman codes
            FrameDeflater.writeData(data, steps: steps, distances: distances,
                      literalLength: DeflateAlphabet.fixedLiteralLength, distance: DeflateAlphabet.fixedDistance, writer: &writer)
        }
    }

    /// Bits of a block's symbols and extra bits under the given code lengths.
    static func dataBits(_ h: BlockHistogram, _ literalLength: [UInt8], _ distance: [UInt8]) -> Int {
        var bits = 0
        for s in 0..<DeflateAlphabet.literalLengthCount where h.literalLength[s] > 0 {
            let extra = s > 256 ? DeflateAlphabet.lengthExtra[s - 257] : 0
            bits += Int(h.literalLength[s]) * (Int(literalLength[s]) + extra)
        }
        for s in 0..<DeflateAlphabet.distanceCount where h.distance[s] > 0 {
            bits += Int(h.distance[s]) * (Int(distance[s]) + DeflateAlphabet.distanceExtra[s])
        }
        return bits
    }

    /// Stored blocks of at most 65,535 bytes each (§3.2.4).
    static func writeStored(_ data: UnsafePointer<UInt8>, count: Int, isFinal: Bool, writer: inout DeflateBitWriter) {
        var offset = 0
        repeat {
            let length = min(65535, count - offset)
            writer.put(isFinal && offset + length == count ? 1 : 0, 1)
            writer.put(0, 2)   // BTYPE 00: stored
            writer.alignToByte()
            writer.put(UInt64(length), 16)
            writer.put(UInt64(~length & 0xFFFF), 16)   // NLEN, the one's complement of LEN
            writer.flush()
            writer.copyAligned(data + offset, length)
            offset += length
        } while offset < count
    }

    /// The block's literals, matches and end-of-block code.
    static func writeData(_ data: UnsafePointer<UInt8>, steps: UnsafeBufferPointer<Step>, distances: [Int],
                          literalLength: HuffmanCode, distance: HuffmanCode, writer: inout DeflateBitWriter) {
        // Per literal: code | length << 16. Per match length and per candidate distance: the
        // symbol's code followed by its extra bits, as one value | bit count << 32.
        let literalTable: [UInt32] = (0..<256).map { UInt32(literalLength.codes[$0]) | UInt32(literalLength.lengths[$0]) << 16 }
        var lengthTable = [UInt64](repeating: 0, count: DeflateAlphabet.maxMatchLength + 1)
        for length in minimumMatch...DeflateAlphabet.maxMatchLength {
            let symbol = Int(DeflateAlphabet.lengthSymbol[length])
            let codeBits = Int(literalLength.lengths[symbol])
            guard codeBits > 0 else { continue }   // lengths that do not occur in this block
            let extra = DeflateAlphabet.lengthExtra[symbol - 257]
            let value = UInt64(literalLength.codes[symbol]) | UInt64(length - DeflateAlphabet.lengthBase[symbol - 257]) << UInt64(codeBits)
            lengthTable[length] = value | UInt64(codeBits + extra) << 32
        }
        let distanceTable: [UInt64] = distances.map { d in
            guard d <= DeflateAlphabet.maxDistance else { return 0 }   // a row too long for the window: never used
            let symbol = DeflateAlphabet.distanceSymbol(d)
            let codeBits = Int(distance.lengths[symbol])
            let value = UInt64(distance.codes[symbol]) | UInt64(d - DeflateAlphabet.distanceBase[symbol]) << UInt64(codeBits)
            return value | UInt64(codeBits + DeflateAlphabet.distanceExtra[symbol]) << 32
        }
        literalTable.withUnsafeBufferPointer { lit in
            lengthTable.withUnsafeBufferPointer { len in
                distanceTable.withUnsafeBufferPointer { dist in
                    // A local copy, so the bit register stays in a CPU register.
                    var w = writer
                    defer { writer = w }
                    var p = data
                    for step in steps {
                        var k = Int(step.literals)
                        // Four literals (≤ 56 bits: literal/length codes are at most 14 bits)
                        // per flush, combined in pairs so the additions run side by side.
                        while k >= 4 {
                            let word = UnsafeRawPointer(p).loadUnaligned(as: UInt32.self)
                            let a = lit[Int(word & 255)], b = lit[Int((word >> 8) & 255)]
                            let c = lit[Int((word >> 16) & 255)], d = lit[Int(word >> 24)]
                            let ab = UInt64(a & 0xFFFF) | UInt64(b & 0xFFFF) &<< UInt64(a >> 16)
                            let cd = UInt64(c & 0xFFFF) | UInt64(d & 0xFFFF) &<< UInt64(c >> 16)
                            let abBits = (a >> 16) &+ (b >> 16)
                            w.put(ab | cd &<< UInt64(abBits), Int(abBits &+ (c >> 16) &+ (d >> 16)))
                            w.flush()
                            p += 4; k &-= 4
                        }
                        while k > 0 {
                            let a = lit[Int(p[0])]
                            w.put(UInt64(a & 0xFFFF), Int(a >> 16))
                            p += 1; k &-= 1
                        }
                        w.flush()
                        if step.length > 0 {
                            let l = len[Int(step.length)], d = dist[Int(step.candidate)]
                            w.put(l & 0xFFFF_FFFF, Int(l >> 32))
                            w.put(d & 0xFFFF_FFFF, Int(d >> 32))
                            w.flush()
                            p += Int(step.length)
                        }
                    }
                }
            }
        }
        writer.put(UInt64(literalLength.codes[DeflateAlphabet.endOfBlock]), Int(literalLength.lengths[DeflateAlphabet.endOfBlock]))
        writer.flush()
    }
}
