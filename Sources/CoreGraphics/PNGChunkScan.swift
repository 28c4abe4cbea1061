// A pass over a PNG's chunk layout before libpng reads it (issue 17, hostile input).
//
// Why: libpng's simplified API (png_image_*) keeps its png_struct private (`png_image.opaque`
// points at libpng's internal `png_control`), so `png_set_chunk_malloc_max`,
// `png_set_user_limits` and `png_set_chunk_cache_max` cannot be called on it. Measured with
// libpng 1.6.39: a `tEXt` chunk declaring 0x7FFFFFF0 bytes in a 91-byte file makes
// `png_image_begin_read_from_memory` allocate (and touch) 2 GB before it notices the data
// ends — the text handler sizes its buffer from the declared length (png_read_buffer), not
// from the bytes present. Decompressed ancillary chunks (zTXt, iTXt, iCCP) are already
// bounded by libpng's default chunk malloc limit (PNG_USER_CHUNK_MALLOC_MAX, 8 MB in
// pnglibconf.h; measured: a 200 MB zTXt bomb stops there). So two checks bound what a small
// file can cost:
//   1. Every chunk up to the end of the image data must fit in the bytes present (PNG spec
//      §5.3: a chunk is length, type, data, CRC; the length is at most 2³¹−1). IDAT is
//      exempt: libpng streams it (PNG_IDAT_READ_SIZE pieces), and a short IDAT is reported
//      by libpng as before. Chunks after the image data are not read by the simplified API.
//   2. The image data must be able to hold the declared image: deflate expands at most
//      1032:1 (RFC 1951: a 258-byte match costs at least 2 bits), so a header declaring
//      16384×16384 with 300 bytes of IDAT is rejected before 1 GiB of pixels is allocated.
extension CGImage {
    struct PNGChunkScan {
        /// Bytes of IDAT data present.
        var idatBytes = 0
        /// From IHDR: bits per pixel (channels × depth), or nil when IHDR is missing or odd
        /// (libpng then reports the problem itself).
        var bitsPerPixel: Int?

        /// deflate's largest expansion (RFC 1951): 258 bytes per 2-bit length/distance pair.
        static let maxDeflateRatio = 1032

        /// The image's filtered, uncompressed size at least (one filter byte per row, as in
        /// a non-interlaced image; interlacing only adds bytes), or nil when unknown.
        func minimumInflatedBytes(width: Int, height: Int) -> Int? {
            guard let bpp = bitsPerPixel else { return nil }
            let (bits, o1) = width.multipliedReportingOverflow(by: bpp)
            let (total, o2) = height.multipliedReportingOverflow(by: 1 + (bits + 7) / 8)
            return o1 || o2 ? Int.max : total
        }

        /// True when `idatBytes` cannot inflate to the image's size (with a margin for the
        /// zlib header and checksum).
        func imageDataTooSmall(width: Int, height: Int) -> Bool {
            guard let need = minimumInflatedBytes(width: width, height: height) else { return false }
            let (most, o) = idatBytes.multipliedReportingOverflow(by: Self.maxDeflateRatio)
            return !o && need > most + 1024
        }
    }

    static func scanPNGChunks(_ b: UnsafeRawBufferPointer) -> Result<PNGChunkScan, CGImagePNGError> {
        var scan = PNGChunkScan()
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        // Not a PNG: libpng says so in its own words.
        guard b.count >= 8, signature.indices.allSatisfy({ b[$0] == signature[$0] }) else { return .success(scan) }
        func be32(_ i: Int) -> Int { Int(b[i]) << 24 | Int(b[i + 1]) << 16 | Int(b[i + 2]) << 8 | Int(b[i + 3]) }
        var i = 8
        var inImageData = false
        while b.count - i >= 8 {
            let length = be32(i)
            let type = String(decoding: (4..<8).map { b[i + $0] }, as: UTF8.self)
            let available = b.count - i - 8
            if type == "IDAT" {
                inImageData = true
                scan.idatBytes += min(length, available)
            } else {
                // The simplified reader stops after the image data: later chunks are not read.
                if inImageData { break }
                let printable = type.unicodeScalars.allSatisfy { ("A"..."Z").contains($0) || ("a"..."z").contains($0) }
                let name = printable ? type : "?"
                if length > 0x7FFF_FFFF || length + 4 > available {
                    return .failure(CGImagePNGError(
                        kind: .invalidData,
                        message: "chunk '\(name)' declares \(length) bytes but only \(max(available - 4, 0)) follow"))
                }
                if type == "IHDR", length == 13 {
                    let depth = Int(b[i + 16]), colorType = Int(b[i + 17])
                    let channels: Int? = [0: 1, 2: 3, 3: 1, 4: 2, 6: 4][colorType]
                    if let channels, [1, 2, 4, 8, 16].contains(depth) { scan.bitsPerPixel = channels * depth }
                }
                if type == "IEND" { break }
            }
            // Past this chunk; an IDAT longer than the data ends the walk.
            guard length <= available - 4 else { break }
            i += 12 + length
        }
        return .success(scan)
    }
}
