// JPEG through libjpeg-turbo's TurboJPEG API (turbojpeg.h, libjpeg-turbo 2.1). TurboJPEG wraps
// libjpeg's setjmp/longjmp error handling in C and reports failure by return value, so no
// longjmp crosses a Swift frame.
internal import CTurboJPEG
import CoreGraphics

enum JPEGCodec {
    /// Header only (tjDecompressHeader3: reads up to the first SOF, no pixels) plus the EXIF
    /// orientation.
    static func frames(_ b: UnsafeRawBufferPointer) -> Result<[FrameInfo], DecodeFailure> {
        guard let handle = tjInitDecompress() else { return .failure(.invalid("libjpeg-turbo could not start")) }
        defer { tjDestroy(handle) }
        var w: Int32 = 0, h: Int32 = 0, subsamp: Int32 = 0, colorspace: Int32 = 0
        let base = b.baseAddress!.assumingMemoryBound(to: UInt8.self)
        guard tjDecompressHeader3(handle, base, UInt(b.count), &w, &h, &subsamp, &colorspace) == 0 else {
            return .failure(.invalid("JPEG header unreadable: \(message(handle))"))
        }
        return .success([FrameInfo(width: Int(w), height: Int(h), hasAlpha: false,
                                   isGray: colorspace == Int32(TJCS_GRAY.rawValue),
                                   orientation: EXIFOrientation.find(in: b))])
    }

    /// Decodes to opaque RGBA8 (`.noneSkipLast`). The size is checked against
    /// `CGImageSource.maxPixelCount` from the header before the pixels are allocated.
    /// `TJFLAG_STOPONWARNING` makes libjpeg's warnings (a file cut off — "Premature end of JPEG
    /// file" — or corrupt entropy data) failures, so a damaged file gives nil rather than a
    /// partly grey image; `TJFLAG_LIMITSCANS` refuses progressive files with more than 500
    /// scans (a known CPU-exhaustion input).
    static func decode(_ data: Data) -> Result<CGImage, DecodeFailure> {
        data.withUnsafeBytes { b -> Result<CGImage, DecodeFailure> in
            guard let handle = tjInitDecompress() else { return .failure(.invalid("libjpeg-turbo could not start")) }
            defer { tjDestroy(handle) }
            var w: Int32 = 0, h: Int32 = 0, subsamp: Int32 = 0, colorspace: Int32 = 0
            let base = b.baseAddress!.assumingMemoryBound(to: UInt8.self)
            guard tjDecompressHeader3(handle, base, UInt(b.count), &w, &h, &subsamp, &colorspace) == 0 else {
                return .failure(.invalid("JPEG header unreadable: \(message(handle))"))
            }
            let width = Int(w), height = Int(h)
            guard pixelCountAcceptable(width, height) else { return .failure(.tooLarge("JPEG", width, height)) }
            var pixels = [UInt8](repeating: 0, count: width * height * 4)
            let flags = TJFLAG_STOPONWARNING | TJFLAG_LIMITSCANS
            let rc = pixels.withUnsafeMutableBufferPointer { dst in
                tjDecompress2(handle, base, UInt(b.count), dst.baseAddress, w, w * 4, h,
                              Int32(TJPF_RGBA.rawValue), flags)
            }
            guard rc == 0 else { return .failure(.invalid("JPEG data corrupt or cut off: \(message(handle))")) }
            return .success(CGImage(width: width, height: height, premultipliedRGBA: pixels, alphaInfo: .noneSkipLast,
                                    shouldInterpolate: true, intent: .defaultIntent))
        }
    }

    /// Baseline JPEG, 4:4:4 (no chroma subsampling: the small, sharp-edged images drawn with
    /// Core Graphics keep their colours), at libjpeg quality `quality` (1…100). JPEG has no
    /// alpha: the stored premultiplied colours are written, i.e. the image over black.
    static func encode(_ image: CGImage, quality: Int32) -> Result<Data, DecodeFailure> {
        guard let handle = tjInitCompress() else { return .failure(.invalid("libjpeg-turbo could not start")) }
        defer { tjDestroy(handle) }
        guard image.width <= 65_500, image.height <= 65_500 else {
            return .failure(.invalid("JPEG holds at most 65500×65500 pixels; the image is \(image.width)×\(image.height)"))
        }
        var out: UnsafeMutablePointer<UInt8>? = nil
        var size: UInt = 0
        let rc = image.withUnsafeRGBA8Bytes { src in
            tjCompress2(handle, src.baseAddress!.assumingMemoryBound(to: UInt8.self), Int32(image.width),
                        Int32(image.width * 4), Int32(image.height), Int32(TJPF_RGBX.rawValue),
                        &out, &size, Int32(TJSAMP_444.rawValue), quality, 0)
        }
        defer { if let out { tjFree(out) } }
        guard rc == 0, let out else { return .failure(.invalid("JPEG encoding failed: \(message(handle))")) }
        return .success(Data(bytes: out, count: Int(size)))
    }

    private static func message(_ handle: tjhandle) -> String {
        guard let s = tjGetErrorStr2(handle) else { return "no message" }
        return String(cString: s)
    }
}

/// The EXIF orientation tag (0x0112) of a JPEG's APP1 "Exif" segment (EXIF 2.3 §4.5.4; TIFF 6.0
/// §2 for the IFD layout). Everything is bounds-checked; anything odd gives nil.
enum EXIFOrientation {
    static func find(in b: UnsafeRawBufferPointer) -> Int? {
        var i = 2
        // Markers up to the first scan (SOS, 0xDA): APP1 comes before it.
        while i + 4 <= b.count, b[i] == 0xFF {
            let marker = b[i + 1]
            if marker == 0xDA || marker == 0xD9 { return nil }
            let length = Int(b[i + 2]) << 8 | Int(b[i + 3])
            guard length >= 2, i + 2 + length <= b.count else { return nil }
            if marker == 0xE1, length >= 8,
               Array(b[(i + 4)..<(i + 10)]) == [0x45, 0x78, 0x69, 0x66, 0, 0] {
                return tiffOrientation(UnsafeRawBufferPointer(rebasing: b[(i + 10)..<(i + 2 + length)]))
            }
            i += 2 + length
        }
        return nil
    }

    static func tiffOrientation(_ t: UnsafeRawBufferPointer) -> Int? {
        guard t.count >= 8 else { return nil }
        let little: Bool
        switch (t[0], t[1]) {
        case (0x49, 0x49): little = true
        case (0x4D, 0x4D): little = false
        default: return nil
        }
        func u16(_ o: Int) -> Int? {
            guard o >= 0, o + 2 <= t.count else { return nil }
            return little ? Int(t[o]) | Int(t[o + 1]) << 8 : Int(t[o]) << 8 | Int(t[o + 1])
        }
        func u32(_ o: Int) -> Int? {
            guard let a = u16(o), let b = u16(o + 2) else { return nil }
            return little ? a | b << 16 : a << 16 | b
        }
        guard u16(2) == 42, let ifd = u32(4), let count = u16(ifd) else { return nil }
        for k in 0..<min(count, 1000) {
            let e = ifd + 2 + k * 12
            guard let tag = u16(e) else { return nil }
            if tag == 0x0112 {
                guard u16(e + 2) == 3, let v = u16(e + 8), (1...8).contains(v) else { return nil }
                return v
            }
        }
        return nil
    }
}
