import Testing
import Foundation

/// Issue 17: small hostile PNG files must not make the decoder allocate gigabytes.
/// Peak memory is read from /proc/self/status (VmHWM) after resetting it through
/// /proc/self/clear_refs ("5": reset the peak resident set size, proc(5)).
@Suite(.serialized) struct PNGHostileInputTests {
    static func status(_ key: String) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix(key + ":") {
            // "VmHWM:\t  123456 kB"
            let fields = line.dropFirst(key.count + 1).split(whereSeparator: { $0 == " " || $0 == "\t" })
            return fields.first.flatMap { Int($0) }.map { $0 * 1024 }
        }
        return nil
    }

    /// Bytes by which the peak resident size grew while `body` ran (nil where unmeasurable).
    static func peakGrowth(_ body: () -> Void) -> Int? {
        guard (try? "5".write(toFile: "/proc/self/clear_refs", atomically: false, encoding: .utf8)) != nil,
              let before = status("VmRSS") else { body(); return nil }
        body()
        return status("VmHWM").map { $0 - before }
    }

    static let onePixel: [[UInt8]] = [PNGBuilder.ihdr(width: 1, height: 1, bitDepth: 8, colorType: 6)]
    static func file(_ chunks: [[UInt8]], idat: Bool = true) -> Data {
        var bytes = PNGBuilder.signature
        for c in chunks { bytes += c }
        if idat { bytes += PNGBuilder.chunk("IDAT", PNGBuilder.zlibStored([0, 10, 20, 30, 255])) }
        return Data(bytes + PNGBuilder.chunk("IEND", []))
    }

    @Test("A tEXt chunk declaring 2 GB in a 91-byte file is rejected before libpng allocates for it")
    func textChunkDeclaringGigabytes() throws {
        // The shape of the reported 318-byte file: the declared length, not the bytes present,
        // sized libpng's buffer (measured: 2 GB resident with libpng 1.6.39 before the fix).
        var bytes = PNGBuilder.signature + PNGBuilder.ihdr(width: 1, height: 1, bitDepth: 8, colorType: 6)
        bytes += PNGBuilder.be32(0x7FFF_FFF0) + Array("tEXt".utf8) + Array("Comment\0hello".utf8)
        bytes += PNGBuilder.chunk("IDAT", PNGBuilder.zlibStored([0, 10, 20, 30, 255])) + PNGBuilder.chunk("IEND", [])
        var result: Result<CGImage, CGImagePNGError>?
        let growth = Self.peakGrowth { result = Result { () throws(CGImagePNGError) in try CGImage.decodePNG(Data(bytes)) } }
        guard case .failure(let e) = result else { Issue.record("decoded: \(String(describing: result))"); return }
        #expect(e.kind == .invalidData)
        #expect(e.message.contains("'tEXt' declares 2147483632 bytes"), "\(e.message)")
        #expect(growth != nil, "peak memory could not be measured")
        if let growth { #expect(growth < 256 << 20, "peak grew by \(growth >> 20) MB") }
    }

    @Test("A header declaring 16384×16384 pixels over 20 bytes of image data is rejected before allocating")
    func imageDataTooSmallForTheHeader() throws {
        // Within maxPNGPixelCount, so before the fix 1 GiB of pixels was allocated (and
        // zero-filled) before libpng found the data short.
        let data = Self.file([PNGBuilder.ihdr(width: 16384, height: 16384, bitDepth: 8, colorType: 6)])
        var result: Result<CGImage, CGImagePNGError>?
        let growth = Self.peakGrowth { result = Result { () throws(CGImagePNGError) in try CGImage.decodePNG(data) } }
        guard case .failure(let e) = result else { Issue.record("decoded"); return }
        #expect(e.kind == .invalidData)
        #expect(e.message.contains("cannot hold 16384×16384"), "\(e.message)")
        if let growth { #expect(growth < 256 << 20, "peak grew by \(growth >> 20) MB") }
        // A real file is far below the 1032:1 bound and decodes as before (64×64 grey, stored).
        let ok = PNGBuilder.png(width: 64, height: 64, bitDepth: 8, colorType: 0, rows: [UInt8](repeating: 0, count: 64 * 65))
        #expect(CGImage(pngData: ok) != nil)
    }

    @Test("Compressed ancillary chunks with huge contents are ignored: the image decodes")
    func compressedAncillaryChunksAreBounded() throws {
        // iCCP whose profile header declares 2 GB (libpng checks the declared length against
        // its limits and drops the chunk), and a zTXt of 1 MB of zeros (inflated by libpng
        // up to its 8 MB chunk limit at most).
        var profile = PNGBuilder.be32(0x7FFF_FFFF) + [UInt8](repeating: 0, count: 128)
        profile += [UInt8](repeating: 0, count: 4096)
        let iccp = PNGBuilder.chunk("iCCP", Array("p".utf8) + [0, 0] + PNGBuilder.zlibStored(profile))
        let ztxt = PNGBuilder.chunk("zTXt", Array("Comment".utf8) + [0, 0] + PNGBuilder.zlibStored([UInt8](repeating: 0, count: 1 << 20)))
        for extra in [iccp, ztxt] {
            var image: CGImage?
            let growth = Self.peakGrowth { image = CGImage(pngData: Self.file(Self.onePixel + [extra])) }
            #expect(image?.width == 1)
            if let growth { #expect(growth < 256 << 20, "peak grew by \(growth >> 20) MB") }
        }
    }

    @Test("A chunk before the image data that runs past the end of the file is invalid data")
    func truncatedAncillaryChunk() throws {
        var bytes = PNGBuilder.signature + PNGBuilder.ihdr(width: 1, height: 1, bitDepth: 8, colorType: 6)
        bytes += PNGBuilder.be32(100) + Array("zTXt".utf8) + [1, 2, 3]
        let e = try #require(Result { () throws(CGImagePNGError) in try CGImage.decodePNG(Data(bytes)) }.failureValue)
        #expect(e.kind == .invalidData && e.message.contains("'zTXt' declares 100 bytes"))
    }
}

extension Result {
    var failureValue: Failure? { if case .failure(let e) = self { return e }; return nil }
}
