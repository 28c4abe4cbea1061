internal import CDeflate

// Words loaded from the byte stream are read with the first byte in the low bits.
#if !_endian(little)
#error("FrameDeflater assumes a little-endian CPU")
#endif

/// A zlib stream (RFC 1950) of deflate blocks (RFC 1951) written for Sub-filtered PNG
/// scanlines of rendered frames, which are mostly flat colour, smooth (often dithered)
/// gradients and shapes repeated from row to row. After the Sub filter a flat area is a run of
/// zeros, and an area like the row above repeats at the distance of one row; so instead of a
/// general match finder (hash chains over every earlier position) it looks for matches only at
/// those two distances: one byte (runs) and one row. (Measured on 1080p demo frames: a third,
/// one-pixel distance, which catches exactly linear gradients, matched 0.03 % of the bytes,
/// since rendered gradients are rounded or dithered, and cost a third more time; without the
/// row distance, a synthetic frame of identical rows came out 90 times larger.)
///
/// The caller hands it the scanlines a block at a time (`compress(available:isFinal:)`) right
/// after filtering them, so each block's bytes are still in the CPU's cache for the two passes
/// over them: a greedy parse that collects matches and symbol counts, then the block written
/// with whichever of a dynamic Huffman code built from those counts, the fixed code, or stored
/// bytes is smallest (so incompressible data grows by a few bytes per 64 KiB at most).
///
/// Deterministic: the output depends only on the input bytes and the block boundaries.
final class FrameDeflater {
    /// The shortest match the parse takes (see `parse`): after the Sub filter most literals
    /// cost 1–3 bits, so short matches hardly pay for their length and distance codes.
    static let minimumMatch = 8
    /// Input bytes per block (the caller rounds to whole rows): small enough that a block's
    /// scanlines and its steps stay in the CPU's cache between filtering, parsing and writing,
    /// large enough that block headers (~60–100 bytes) and code building cost little, and the
    /// code still adapts as the frame's content changes from top to bottom.
    static let blockBytes = 1 << 18
    /// Bytes the input buffer must have readable past its last scanline byte (zeroed): words
    /// are compared 8 bytes at a time, and the bytes there never change the output.
    static let inputPadding = 16
    /// Bytes left unparsed at the end of a block that is not the last: the parse reads 8-byte
    /// words ahead of its position and stops this far before the bytes filtered so far end.
    static let lookahead = 16

    /// One step of the greedy parse: `literals` bytes, then a match of `length` bytes (0 for
    /// none: the block's tail) at distance 1 (`candidate` 0) or one row (`candidate` 1).
    struct Step { var literals: UInt32; var length: UInt16; var candidate: UInt16 }

    /// Symbol counts of one block: literal/length symbols 0...285 and distance symbols 0...29.
    struct BlockHistogram {
        var literalLength = [UInt32](repeating: 0, count: DeflateAlphabet.literalLengthCount)
        var distance = [UInt32](repeating: 0, count: DeflateAlphabet.distanceCount)
    }

    /// An upper bound of the zlib stream's size for `count` input bytes in at most `blocks`
    /// blocks, plus the 8 bytes of room the bit writer's stores need: every block costs at most
    /// its bytes stored, with 5 header bytes (and one of bit padding) per 65,535 bytes.
    static func bound(_ count: Int, blocks: Int) -> Int {
        2 + count + 6 * (count / 65535 + 2 * blocks + 1) + 4 + 8 + 16
    }

    let input: UnsafePointer<UInt8>
    private let count: Int
    /// The two match distances (the row distance is `Int.max` when it exceeds deflate's
    /// 32 KiB window, so no position reaches it).
    let distances: (Int, Int)
    private let output: UnsafeMutablePointer<UInt8>
    private let capacity: Int
    var writer: DeflateBitWriter
    var position = 0
    private var adler: UInt32 = 1
    private var adlerPosition = 0
    var steps: UnsafeMutablePointer<Step>
    private var stepCapacity = 0

    /// Starts a stream of `count` input bytes (with `inputPadding` more after them) that
    /// arrive in at most `blocks` blocks, into `output`, which holds `bound(count, blocks:)`.
    init(input: UnsafePointer<UInt8>, count: Int, rowLength: Int, output: UnsafeMutablePointer<UInt8>, blocks: Int) {
        self.input = input
        self.count = count
        self.distances = (1, rowLength <= DeflateAlphabet.maxDistance ? rowLength : Int.max)
        self.output = output
        self.capacity = FrameDeflater.bound(count, blocks: blocks)
        output[0] = 0x78   // CM 8 (deflate), CINFO 7 (32 KiB window)
        output[1] = 0x01   // FLEVEL 0 (fastest), no dictionary; (0x78 << 8 | 0x01) % 31 == 0
        writer = DeflateBitWriter(output + 2)
        steps = UnsafeMutablePointer<Step>.allocate(capacity: 0)
    }

    deinit { steps.deallocate() }

    /// Compresses the bytes from where the last block ended up to `available` (all of them
    /// when `isFinal`, else up to `lookahead` before it) as one block.
    func compress(available: Int, isFinal: Bool) {
        precondition(available <= count && isFinal == (available == count), "blocks must end with the final one at the input's end")
        adler = UInt32(libdeflate_adler32(adler, input + adlerPosition, available - adlerPosition))
        adlerPosition = available
        let stop = isFinal ? available : available - FrameDeflater.lookahead
        guard isFinal || stop > position else { return }
        let needed = (stop - position) / FrameDeflater.minimumMatch + 2
        if needed > stepCapacity {
            steps.deallocate()
            steps = UnsafeMutablePointer<Step>.allocate(capacity: needed)
            stepCapacity = needed
        }
        var histogram = BlockHistogram()
        let start = position
        let stepCount = parse(from: start, to: stop, available: available, histogram: &histogram)
        writeBlock(input + start, count: position - start, steps: UnsafeBufferPointer(start: steps, count: stepCount),
                   histogram: histogram, isFinal: isFinal, room: capacity - (writer.out - output))
    }

    /// Ends the stream (after the final block) with the Adler-32 of the input; returns its length.
    func finish() -> Int {
        writer.alignToByte()
        for shift: UInt32 in [24, 16, 8, 0] { writer.put(UInt64((adler >> shift) & 255), 8) }
        writer.flush()
        return writer.out - output
    }
}
