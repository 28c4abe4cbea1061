/// CRC-32 as the PNG specification defines it (ISO 3309 polynomial, reflected; PNG §5.5),
/// computed bit by bit: slow and obviously right, so tests that build or check PNG chunks do
/// not lean on the library whose output they check. Shared by the test targets.
package func referenceCRC32(_ bytes: [UInt8]) -> UInt32 {
    var c: UInt32 = 0xFFFF_FFFF
    for b in bytes {
        c ^= UInt32(b)
        for _ in 0..<8 { c = (c & 1) != 0 ? (c >> 1) ^ 0xEDB8_8320 : c >> 1 }
    }
    return ~c
}
