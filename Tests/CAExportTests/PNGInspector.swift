import Foundation

/// A strict reader for the tests, independent of the encoder: checks the PNG signature, every
/// chunk's CRC-32 (computed bit by bit here), the chunk order, IHDR's fields, and inflates the
/// IDAT data with libdeflate's decompressor, which rejects any malformed deflate stream and a
/// wrong Adler-32 and must produce exactly the expected number of bytes. Then undoes the
/// scanline filters (all five types of PNG §9.2, although the encoder writes only Sub).
struct InspectedPNG {
    var width: Int, height: Int
    /// 2 (RGB) or 6 (RGBA).
    var colorType: Int
    var chunkTypes: [String]
    /// The inflated scanlines: a filter-type byte per row, then the row's bytes.
    var scanlines: [UInt8]
    /// BTYPE of the first deflate block (0 stored, 1 fixed, 2 dynamic).
    var firstBlockType: Int
    /// Straight-alpha RGBA8, 4 bytes per pixel (alpha 255 when the PNG is RGB).
    var straightRGBA: [UInt8]

    struct Failure: Error, CustomStringConvertible { var description: String }

    init(_ data: Data) throws {
        let bytes = [UInt8](data)
        guard bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) else { throw Failure(description: "no PNG signature") }
        var at = 8
        var types: [String] = [], idat: [UInt8] = [], ihdr: [UInt8] = []
        func be32(_ i: Int) -> Int { Int(bytes[i]) << 24 | Int(bytes[i + 1]) << 16 | Int(bytes[i + 2]) << 8 | Int(bytes[i + 3]) }
        while at < bytes.count {
            guard at + 12 <= bytes.count else { throw Failure(description: "truncated chunk at \(at)") }
            let length = be32(at)
            guard at + 12 + length <= bytes.count else { throw Failure(description: "chunk at \(at) runs past the end") }
            let type = String(decoding: bytes[(at + 4)..<(at + 8)], as: UTF8.self)
            let body = Array(bytes[(at + 4)..<(at + 8 + length)])
            guard referenceCRC32(body) == UInt32(be32(at + 8 + length)) else { throw Failure(description: "\(type): bad CRC") }
            if type == "IHDR" { ihdr = Array(body[4...]) }
            if type == "IDAT" { idat += body[4...] }
            types.append(type)
            at += 12 + length
        }
        guard types.first == "IHDR", types.last == "IEND", ihdr.count == 13 else { throw Failure(description: "chunk order \(types)") }
        width = Int(ihdr[0]) << 24 | Int(ihdr[1]) << 16 | Int(ihdr[2]) << 8 | Int(ihdr[3])
        height = Int(ihdr[4]) << 24 | Int(ihdr[5]) << 16 | Int(ihdr[6]) << 8 | Int(ihdr[7])
        colorType = Int(ihdr[9])
        guard ihdr[8] == 8, colorType == 2 || colorType == 6, ihdr[10] == 0, ihdr[11] == 0, ihdr[12] == 0 else {
            throw Failure(description: "IHDR \(ihdr)")
        }
        chunkTypes = types
        // zlib header: deflate, a window of at most 32 KiB, header check, no preset dictionary.
        guard idat.count >= 6, idat[0] & 0x0F == 8, idat[0] >> 4 <= 7, (Int(idat[0]) << 8 | Int(idat[1])) % 31 == 0,
              idat[1] & 0x20 == 0 else { throw Failure(description: "zlib header \(idat.prefix(2))") }
        firstBlockType = Int(idat[2] >> 1) & 3
        let bpp = colorType == 2 ? 3 : 4
        let expected = (width * bpp + 1) * height
        var raw = [UInt8](repeating: 0, count: expected)
        var produced = 0
        guard let d = libdeflate_alloc_decompressor() else { throw Failure(description: "no decompressor") }
        defer { libdeflate_free_decompressor(d) }
        let result = idat.withUnsafeBytes { src in
            raw.withUnsafeMutableBytes { dst in
                libdeflate_zlib_decompress(d, src.baseAddress, src.count, dst.baseAddress, dst.count, &produced)
            }
        }
        guard result == LIBDEFLATE_SUCCESS, produced == expected else {
            throw Failure(description: "inflate: result \(result), \(produced) of \(expected) bytes")
        }
        scanlines = raw
        straightRGBA = try InspectedPNG.unfilter(raw, width: width, height: height, bytesPerPixel: bpp)
    }

    static func unfilter(_ raw: [UInt8], width: Int, height: Int, bytesPerPixel bpp: Int) throws -> [UInt8] {
        let stride = width * bpp
        var image = [UInt8](repeating: 0, count: stride * height)
        for y in 0..<height {
            let filter = raw[y * (stride + 1)]
            for x in 0..<stride {
                let v = Int(raw[y * (stride + 1) + 1 + x])
                let a = x >= bpp ? Int(image[y * stride + x - bpp]) : 0
                let b = y > 0 ? Int(image[(y - 1) * stride + x]) : 0
                let c = x >= bpp && y > 0 ? Int(image[(y - 1) * stride + x - bpp]) : 0
                let predictor: Int
                switch filter {
                case 0: predictor = 0
                case 1: predictor = a
                case 2: predictor = b
                case 3: predictor = (a + b) / 2
                case 4:
                    let p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c)
                    predictor = pa <= pb && pa <= pc ? a : pb <= pc ? b : c
                default: throw Failure(description: "row \(y): filter type \(filter)")
                }
                image[y * stride + x] = UInt8((v + predictor) & 255)
            }
        }
        guard bpp == 3 else { return image }
        var rgba = [UInt8](repeating: 255, count: width * height * 4)
        for i in 0..<(width * height) { for k in 0..<3 { rgba[i * 4 + k] = image[i * 3 + k] } }
        return rgba
    }

    /// The straight colour PNG stores for premultiplied input: c · 255 / a rounded to nearest,
    /// at most 255; 0 where a is 0 (PNG §6.2 stores unassociated alpha).
    static func straight(fromPremultiplied p: [UInt8]) -> [UInt8] {
        var s = p
        for i in stride(from: 0, to: s.count, by: 4) {
            let a = Int(s[i + 3])
            for k in 0..<3 { s[i + k] = a == 0 ? 0 : UInt8(min(255, (Int(s[i + k]) * 255 + a / 2) / a)) }
        }
        return s
    }
}
