internal import CDeflate
import Foundation

/// A fast PNG writer for rendered frames, used by carender's exports (an extension beyond
/// Apple's API: on Apple platforms PNGs are written through ImageIO's `CGImageDestination`).
/// It writes the PNG spec's (W3C 2003) signature, IHDR, sRGB, one IDAT and IEND, with
/// Sub-filtered scanlines (`PNGScanlines`) compressed by `FrameDeflater`. It spends a third of
/// a fast general deflate encoder's CPU time (libdeflate level 1) on frames that are mostly
/// flat colour and gradients, which matters when frames are encoded while a CPU rasteriser
/// renders the next ones; files are larger than a thorough encoder's (libpng's +40 % on the
/// demo).
///
/// Deterministic: the same pixels give the same bytes.
package enum PNGFrameEncoder {
    /// Premultiplied RGBA8 (top row first) → PNG bytes: RGB when every pixel is opaque, else
    /// straight-alpha RGBA (PNG stores unassociated alpha), with an sRGB chunk.
    package static func encode(premultipliedRGBA pixels: [UInt8], width: Int, height: Int) throws(PNGEncodingError) -> Data {
        guard width > 0, height > 0, width <= Int(Int32.max), height <= Int(Int32.max) else {
            throw PNGEncodingError("PNG encoding: \(width)×\(height) pixels is not a valid image size")
        }
        let (pixelCount, o1) = width.multipliedReportingOverflow(by: height)
        let (byteCount, o2) = pixelCount.multipliedReportingOverflow(by: 4)
        guard !o1, !o2, pixels.count == byteCount else {
            throw PNGEncodingError("PNG encoding: \(pixels.count) bytes for \(width)×\(height) pixels (RGBA8 needs \(o1 || o2 ? "more than Int.max" : String(byteCount)))")
        }
        return try pixels.withUnsafeBufferPointer { (p) throws(PNGEncodingError) -> Data in
            try encode(p.baseAddress!, width: width, height: height)
        }
    }

    private static func encode(_ pixels: UnsafePointer<UInt8>, width: Int, height: Int) throws(PNGEncodingError) -> Data {
        // Room for the larger case, RGBA; every block holds at least one row.
        let largest = (width * 4 + 1) * height
        let zlibBound = FrameDeflater.bound(largest, blocks: height)
        // IDAT's length field is 31 bits (§5.3).
        guard zlibBound <= Int(Int32.max) else {
            throw PNGEncodingError("PNG encoding: \(width)×\(height) pixels is too large for one IDAT chunk (over 2 GiB)")
        }
        // Signature 8, IHDR 25, sRGB 13, IDAT header 8, then the stream, IDAT CRC 4, IEND 12.
        let streamStart = 8 + 25 + 13 + 8
        // malloc'd rather than zero-filled: only the pages written are ever touched.
        guard let filteredMemory = malloc(largest + FrameDeflater.inputPadding),
              let memory = malloc(streamStart + zlibBound + 4 + 12) else {
            throw PNGEncodingError("PNG encoding: out of memory for a \(width)×\(height) image")
        }
        defer { free(filteredMemory) }
        let filtered = filteredMemory.assumingMemoryBound(to: UInt8.self)
        let base = memory.assumingMemoryBound(to: UInt8.self)
        let stream = base + streamStart
        var opaque = true
        var streamLength = compress(pixels, width: width, height: height, opaque: true, filtered: filtered, into: stream)
        if streamLength == nil {
            opaque = false
            streamLength = compress(pixels, width: width, height: height, opaque: false, filtered: filtered, into: stream)
        }

        var at = 0
        func put(_ bytes: [UInt8]) { for b in bytes { base[at] = b; at += 1 } }
        func putBigEndian(_ v: UInt32) { put([UInt8(v >> 24), UInt8((v >> 16) & 255), UInt8((v >> 8) & 255), UInt8(v & 255)]) }
        /// Length, type and data are in place from `start`; appends the CRC of type + data.
        func endChunk(_ start: Int) { putBigEndian(UInt32(libdeflate_crc32(0, base + start + 4, at - start - 4))) }
        put([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        var start = at
        putBigEndian(13); put(Array("IHDR".utf8))
        putBigEndian(UInt32(width)); putBigEndian(UInt32(height))
        // 8 bits, colour type 2 (RGB) or 6 (RGBA), deflate, adaptive filtering, no interlace.
        put([8, opaque ? 2 : 6, 0, 0, 0])
        endChunk(start)
        start = at
        putBigEndian(1); put(Array("sRGB".utf8)); put([0])   // perceptual intent: the pixels are sRGB
        endChunk(start)
        start = at
        putBigEndian(UInt32(streamLength!)); put(Array("IDAT".utf8))
        at += streamLength!
        endChunk(start)
        start = at
        putBigEndian(0); put(Array("IEND".utf8))
        endChunk(start)
        return Data(bytesNoCopy: realloc(memory, at) ?? memory, count: at, deallocator: .free)
    }

    /// Filters and compresses the image a block of rows at a time (each block's scanlines are
    /// compressed while still in the CPU's cache); nil if `opaque` and a pixel is not.
    private static func compress(_ pixels: UnsafePointer<UInt8>, width: Int, height: Int, opaque: Bool,
                                 filtered: UnsafeMutablePointer<UInt8>, into stream: UnsafeMutablePointer<UInt8>) -> Int? {
        let rowLength = width * (opaque ? 3 : 4) + 1
        let count = rowLength * height
        let rowsPerBlock = max(1, FrameDeflater.blockBytes / rowLength)
        let deflater = FrameDeflater(input: filtered, count: count, rowLength: rowLength, output: stream,
                                     blocks: (height + rowsPerBlock - 1) / rowsPerBlock)
        var y = 0
        while y < height {
            let rows = y..<min(height, y + rowsPerBlock)
            if opaque {
                guard PNGScanlines.filterOpaque(pixels, width: width, rows: rows, into: filtered) else { return nil }
            } else {
                PNGScanlines.filterTranslucent(pixels, width: width, rows: rows, into: filtered)
            }
            let isFinal = rows.upperBound == height
            if isFinal { (filtered + count).initialize(repeating: 0, count: FrameDeflater.inputPadding) }
            deflater.compress(available: rows.upperBound * rowLength, isFinal: isFinal)
            y = rows.upperBound
        }
        return deflater.finish()
    }
}

/// Why a PNG could not be encoded (wrong buffer size, impossible dimensions); the message is
/// one line for a user.
package struct PNGEncodingError: Error, CustomStringConvertible, Equatable {
    package var message: String
    package init(_ message: String) { self.message = message }
    package var description: String { message }
}
