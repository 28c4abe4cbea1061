import Foundation

/// Writes small GIF89a files for tests, byte by byte, so each frame's placement, disposal and
/// transparency is known exactly. The image data is LZW-coded without compression: a clear code
/// before every two pixels keeps codes 3 bits wide (GIF89a appendix F; minimum code size 2, so
/// clear = 4, end = 5, and the table never reaches 8 entries).
struct GIFBuilder {
    struct Frame {
        var x = 0, y = 0, width: Int, height: Int
        /// Palette indices, rows in file order (for an interlaced frame, pass order).
        var indices: [UInt8]
        var disposal = 0
        var transparentIndex: UInt8?
        var delayHundredths = 0
        var interlaced = false
    }

    var width: Int
    var height: Int
    /// Four RGB entries (the global colour table).
    var palette: [(UInt8, UInt8, UInt8)] = [(0, 0, 0), (255, 0, 0), (0, 255, 0), (0, 0, 255)]
    var loopCount: Int?
    var frames: [Frame] = []

    func data() -> Data {
        var d = Data("GIF89a".utf8)
        d.append(le16(width)); d.append(le16(height))
        d.append(contentsOf: [0x80 | 0x01, 0, 0])  // global table of 4 entries
        for (r, g, b) in palette { d.append(contentsOf: [r, g, b]) }
        if let loopCount {
            d.append(contentsOf: [0x21, 0xFF, 11]); d.append(Data("NETSCAPE2.0".utf8))
            d.append(contentsOf: [3, 1]); d.append(le16(loopCount)); d.append(0)
        }
        for f in frames {
            let flags = UInt8(f.disposal << 2) | (f.transparentIndex != nil ? 1 : 0)
            d.append(contentsOf: [0x21, 0xF9, 4, flags]); d.append(le16(f.delayHundredths))
            d.append(contentsOf: [f.transparentIndex ?? 0, 0])
            d.append(0x2C)
            d.append(le16(f.x)); d.append(le16(f.y)); d.append(le16(f.width)); d.append(le16(f.height))
            d.append(f.interlaced ? 0x40 : 0)
            d.append(2)  // LZW minimum code size
            let lzw = Self.lzw(f.indices)
            var i = 0
            while i < lzw.count {
                let n = min(255, lzw.count - i)
                d.append(UInt8(n)); d.append(contentsOf: lzw[i..<(i + n)])
                i += n
            }
            d.append(0)
        }
        d.append(0x3B)
        return d
    }

    static func lzw(_ indices: [UInt8]) -> [UInt8] {
        var codes: [Int] = []
        for (k, p) in indices.enumerated() {
            if k % 2 == 0 { codes.append(4) }
            codes.append(Int(p))
        }
        codes.append(5)
        var out: [UInt8] = []
        var acc = 0, bits = 0
        for c in codes {
            acc |= c << bits
            bits += 3
            while bits >= 8 { out.append(UInt8(acc & 0xFF)); acc >>= 8; bits -= 8 }
        }
        if bits > 0 { out.append(UInt8(acc & 0xFF)) }
        return out
    }

    private func le16(_ v: Int) -> Data { Data([UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)]) }
}
