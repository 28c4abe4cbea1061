/// PNG scanlines (PNG spec, W3C 2003, §7.3 and §9) from premultiplied RGBA8 pixels: each row is
/// the filter-type byte 1 (Sub) followed by every byte minus the byte one pixel to its left.
/// Sub turns a flat run of colour into zeros and a horizontal gradient into a repeating
/// pattern, which is what `FrameDeflater` looks for, and costs one subtraction per byte.
/// Pixels are handled as little-endian 32-bit words (R in the low byte).
enum PNGScanlines {
    /// Writes the filtered rows `rows` of an image `width` pixels wide as RGB (3 bytes per
    /// pixel) into `out`, where row y starts at y · (width · 3 + 1); false (with the rows
    /// partly written) as soon as a row holds a pixel whose alpha is not 255. `out` must have
    /// one byte of room after the last row: each pixel is stored as a 4-byte word whose fourth
    /// byte the next pixel or row overwrites.
    static func filterOpaque(_ pixels: UnsafePointer<UInt8>, width: Int, rows: Range<Int>,
                             into out: UnsafeMutablePointer<UInt8>) -> Bool {
        let source = UnsafeRawPointer(pixels)
        let rowLength = width &* 3 &+ 1
        for y in rows {
            let row = out + y &* rowLength
            row[0] = 1   // filter type Sub
            let destination = UnsafeMutableRawPointer(row + 1)
            let s = source + y &* width &* 4
            // Two pixels per 64-bit word: each minus the pixel before it (Sub treats the bytes
            // left of the row as zero), stored as two overlapping 4-byte words 3 bytes apart.
            var previous: UInt64 = 0
            var alphas: UInt64 = 0xFF00_0000_FF00_0000
            var x = 0
            while x &+ 2 <= width {
                let p = s.loadUnaligned(fromByteOffset: x &* 4, as: UInt64.self)
                alphas &= p
                let d = subtractBytes(p, p &<< 32 | previous)
                destination.storeBytes(of: UInt32(truncatingIfNeeded: d), toByteOffset: x &* 3, as: UInt32.self)
                destination.storeBytes(of: UInt32(truncatingIfNeeded: d &>> 32), toByteOffset: x &* 3 &+ 3, as: UInt32.self)
                previous = p &>> 32
                x &+= 2
            }
            if x < width {
                let p = UInt64(s.loadUnaligned(fromByteOffset: x &* 4, as: UInt32.self))
                alphas &= p | 0xFF00_0000_0000_0000
                destination.storeBytes(of: UInt32(truncatingIfNeeded: subtractBytes(p, previous)), toByteOffset: x &* 3, as: UInt32.self)
            }
            if alphas != 0xFF00_0000_FF00_0000 { return false }
        }
        return true
    }

    /// Writes the filtered rows `rows` as RGBA (4 bytes per pixel) with colours
    /// un-premultiplied, as PNG stores them (§6.2); row y starts at y · (width · 4 + 1).
    static func filterTranslucent(_ pixels: UnsafePointer<UInt8>, width: Int, rows: Range<Int>,
                                  into out: UnsafeMutablePointer<UInt8>) {
        let source = UnsafeRawPointer(pixels)
        let rowLength = width &* 4 &+ 1
        Unpremultiply.table.withUnsafeBufferPointer { table in
            for y in rows {
                let row = out + y &* rowLength
                row[0] = 1
                let destination = UnsafeMutableRawPointer(row + 1)
                let s = source + y &* width &* 4
                var previous: UInt32 = 0
                for x in 0..<width {
                    var p = s.loadUnaligned(fromByteOffset: x &* 4, as: UInt32.self)
                    let a = p >> 24
                    if a == 0 {
                        p = 0
                    } else if a != 255 {
                        let t = Int(a) << 8
                        p = UInt32(table[t | Int(p & 255)]) | UInt32(table[t | Int((p >> 8) & 255)]) << 8
                            | UInt32(table[t | Int((p >> 16) & 255)]) << 16 | a << 24
                    }
                    destination.storeBytes(of: subtractBytes(p, previous), toByteOffset: x &* 4, as: UInt32.self)
                    previous = p
                }
            }
        }
    }

    /// Each byte of `a` minus the same byte of `b`, modulo 256, with no borrow between bytes:
    /// the low 7 bits subtract with each byte's top bit set (so they cannot borrow across),
    /// then the top bits are corrected by a ^ b ^ borrow.
    @inline(__always)
    static func subtractBytes<Word: FixedWidthInteger & UnsignedInteger>(_ a: Word, _ b: Word) -> Word {
        let high = Word.max / 255 &* 0x80   // 0x80 in every byte
        return ((a | high) &- (b & ~high)) ^ ((a ^ ~b) & high)
    }
}

/// Straight (unassociated) colour from premultiplied: c · 255 / a rounded to nearest and
/// clamped to 255, as `CGImage`'s PNG writer does, looked up in a 64 KiB table indexed by
/// a << 8 | c instead of dividing per byte.
enum Unpremultiply {
    static let table: [UInt8] = (0..<65536).map { i in
        let a = i >> 8, c = i & 255
        guard a > 0 else { return 0 }
        return UInt8(min(255, (c * 255 + a / 2) / a))
    }
}
