// WebP through libwebp (still images: WebPGetFeatures + WebPDecodeRGBAInto) and libwebpdemux
// (animated: WebPDemux for the frame table, WebPAnimDecoder to compose frames on the canvas
// with each frame's blend and dispose methods, as the WebP container spec defines them).
internal import CWebP
import CoreGraphics

enum WebPCodec {
    /// The images of a WebP file and its loop count, from the headers (no pixels decoded).
    static func container(_ b: UnsafeRawBufferPointer) -> Result<([FrameInfo], Int?), DecodeFailure> {
        let base = b.baseAddress!.assumingMemoryBound(to: UInt8.self)
        var features = WebPBitstreamFeatures()
        guard WebPGetFeatures(base, b.count, &features) == VP8_STATUS_OK else {
            return .failure(.invalid("WebP header unreadable (corrupt or cut off)"))
        }
        guard features.has_animation != 0 else {
            return .success(([FrameInfo(width: Int(features.width), height: Int(features.height),
                                        hasAlpha: features.has_alpha != 0)], nil))
        }
        var data = WebPData(bytes: base, size: b.count)
        guard let demux = WebPDemux(&data) else {
            return .failure(.invalid("animated WebP structure unreadable (corrupt or cut off)"))
        }
        defer { WebPDemuxDelete(demux) }
        let width = Int(WebPDemuxGetI(demux, WEBP_FF_CANVAS_WIDTH))
        let height = Int(WebPDemuxGetI(demux, WEBP_FF_CANVAS_HEIGHT))
        let loops = Int(WebPDemuxGetI(demux, WEBP_FF_LOOP_COUNT))
        let count = Int(WebPDemuxGetI(demux, WEBP_FF_FRAME_COUNT))
        var frames: [FrameInfo] = []
        var iter = WebPIterator()
        if count > 0, WebPDemuxGetFrame(demux, 1, &iter) != 0 {
            repeat {
                frames.append(FrameInfo(width: width, height: height, hasAlpha: true,
                                        delay: Double(iter.duration) / 1000))
            } while WebPDemuxNextFrame(&iter) != 0
            WebPDemuxReleaseIterator(&iter)
        }
        return .success((frames, loops))
    }

    /// A still WebP, decoded to RGBA and premultiplied; or, for an animated one, the canvas after
    /// frame `index` is composed (frames 0…index are decoded in turn).
    static func decode(_ data: Data, index: Int, animated: Bool) -> Result<CGImage, DecodeFailure> {
        data.withUnsafeBytes { b -> Result<CGImage, DecodeFailure> in
            let base = b.baseAddress!.assumingMemoryBound(to: UInt8.self)
            if animated { return decodeAnimated(base, b.count, index: index) }
            var features = WebPBitstreamFeatures()
            guard WebPGetFeatures(base, b.count, &features) == VP8_STATUS_OK else {
                return .failure(.invalid("WebP header unreadable (corrupt or cut off)"))
            }
            let width = Int(features.width), height = Int(features.height)
            guard pixelCountAcceptable(width, height) else { return .failure(.tooLarge("WebP", width, height)) }
            var pixels = [UInt8](repeating: 0, count: width * height * 4)
            let ok = pixels.withUnsafeMutableBufferPointer { dst in
                WebPDecodeRGBAInto(base, b.count, dst.baseAddress, dst.count, Int32(width * 4)) != nil
            }
            guard ok else { return .failure(.invalid("WebP data corrupt or cut off (libwebp could not decode it)")) }
            guard features.has_alpha != 0 else {
                return .success(CGImage(width: width, height: height, premultipliedRGBA: pixels, alphaInfo: .noneSkipLast,
                                        shouldInterpolate: true, intent: .defaultIntent))
            }
            // libwebp gives straight alpha here. Premultiplied in place (rounded to nearest) and
            // handed over without a copy: a 51-byte lossless WebP can declare 16k² pixels (libwebp
            // itself holds a second image-sized buffer while decoding), so a third copy would put
            // the peak at 3× the image's bytes (docs/SECURITY.md, image fuzzing).
            CGImage.premultiplyRGBA8InPlace(&pixels)
            return .success(CGImage(width: width, height: height, premultipliedRGBA: consume pixels,
                                    alphaInfo: .premultipliedLast, shouldInterpolate: true, intent: .defaultIntent))
        }
    }

    private static func decodeAnimated(_ base: UnsafePointer<UInt8>, _ count: Int, index: Int) -> Result<CGImage, DecodeFailure> {
        var data = WebPData(bytes: base, size: count)
        var options = WebPAnimDecoderOptions()
        guard WebPAnimDecoderOptionsInit(&options) != 0 else { return .failure(.invalid("libwebp could not start")) }
        options.color_mode = MODE_rgbA   // premultiplied RGBA, CGImage's stored form
        options.use_threads = 0
        // The canvas size is checked before the decoder allocates its two canvases (the current
        // one and the previous one, for disposal), and they must fit the one-image limit together:
        // a 140-byte file declaring 3,866,625 × 65 pixels made 2 × 1 GB before (fuzz-image).
        guard let demux = WebPDemux(&data) else {
            return .failure(.invalid("animated WebP structure unreadable (corrupt or cut off)"))
        }
        let width = Int(WebPDemuxGetI(demux, WEBP_FF_CANVAS_WIDTH))
        let height = Int(WebPDemuxGetI(demux, WEBP_FF_CANVAS_HEIGHT))
        WebPDemuxDelete(demux)
        guard pixelCountAcceptable(width, height, buffers: 2) else {
            return .failure(.tooLarge("animated WebP", width, height, buffers: 2))
        }
        guard let decoder = WebPAnimDecoderNew(&data, &options) else {
            return .failure(.invalid("animated WebP could not be opened (corrupt or cut off)"))
        }
        defer { WebPAnimDecoderDelete(decoder) }
        var frame: UnsafeMutablePointer<UInt8>? = nil
        var timestamp: Int32 = 0
        for k in 0...index {
            guard WebPAnimDecoderGetNext(decoder, &frame, &timestamp) != 0 else {
                return .failure(.invalid("animated WebP frame \(k) is corrupt or cut off"))
            }
        }
        guard let frame else { return .failure(.invalid("animated WebP gave no frame")) }
        let pixels = Array(UnsafeBufferPointer(start: frame, count: width * height * 4))
        return .success(CGImage(width: width, height: height, premultipliedRGBA: pixels, alphaInfo: .premultipliedLast,
                                shouldInterpolate: true, intent: .defaultIntent))
    }
}
