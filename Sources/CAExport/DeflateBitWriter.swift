/// Packs deflate's bit stream (RFC 1951 §3.1.1: data elements fill each byte from its least
/// significant bit) into a buffer the caller sized. Bits gather in a 64-bit register and go out
/// eight bytes at a time with one unaligned store; `flush()` advances past the whole bytes
/// written, so the caller must leave 8 bytes of room beyond the stream's end and must flush
/// before more than 56 bits are pending.
struct DeflateBitWriter {
    private(set) var out: UnsafeMutablePointer<UInt8>
    private var pending: UInt64 = 0
    private var pendingCount = 0

    init(_ out: UnsafeMutablePointer<UInt8>) { self.out = out }

    /// Appends the low `count` bits of `value` (the rest of `value` must be zero).
    @inline(__always) mutating func put(_ value: UInt64, _ count: Int) {
        pending |= value &<< UInt64(truncatingIfNeeded: pendingCount)
        pendingCount &+= count
    }

    /// Writes the pending whole bytes; at most 7 bits stay pending.
    @inline(__always) mutating func flush() {
        UnsafeMutableRawPointer(out).storeBytes(of: pending.littleEndian, as: UInt64.self)
        let bytes = pendingCount &>> 3
        out += bytes
        pending = pending &>> UInt64(truncatingIfNeeded: bytes &<< 3)
        pendingCount &= 7
    }

    /// Pads with zero bits to a byte boundary and flushes (stored blocks and the stream's end).
    mutating func alignToByte() {
        pendingCount = (pendingCount &+ 7) & ~7
        flush()
    }

    /// Copies bytes after `alignToByte()`.
    mutating func copyAligned(_ source: UnsafePointer<UInt8>, _ count: Int) {
        precondition(pendingCount == 0)
        out.update(from: source, count: count)
        out += count
    }
}
