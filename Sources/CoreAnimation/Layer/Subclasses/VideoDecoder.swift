import Foundation
import CoreGraphics
import CVideoDecode

/// Why a video layer shows no picture: the file could not be opened as a video (extension
/// beyond Apple's API; `AVPlayerItem.error`'s role).
public struct CAVideoLayerError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The file that failed.
    public let url: URL
    /// What FFmpeg said about it.
    public let reason: String
    public var description: String { "\(url.path): \(reason)" }
}

/// A video file opened for frame-exact decoding (FFmpeg's libavformat/libavcodec/libswscale,
/// through `CVideoDecode`). Keeps the decoder between requests, so frames asked for in order
/// decode on without seeking, and the last frame it made, so a frame asked for twice (two
/// renderers, a reused time) is decoded once. Not thread-safe: the layer that owns it locks.
package final class VideoDecoder {
    /// Largest frame accepted, in pixels (8K UHD): a hostile header cannot make the decoder
    /// allocate more.
    package static let maxPixels: Int64 = 7680 * 4320

    package let width: Int
    package let height: Int
    package let fps: Double
    /// Frames in the file; nil when the container does not say.
    package let frameCount: Int?
    private let handle: OpaquePointer
    private var buffer: [UInt8]
    private var cached: (index: Int, image: CGImage)?

    /// Opens `url`; throws `CAVideoLayerError` naming the file when it is not a video.
    package init(url: URL) throws {
        var info = cavd_info()
        var err = [CChar](repeating: 0, count: 256)
        let n = err.count
        guard url.isFileURL, let h = url.path.withCString({ cavd_open($0, Self.maxPixels, &info, &err, n) }) else {
            let reason = url.isFileURL ? String(decoding: err.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                                       : "not a file URL"
            throw CAVideoLayerError(url: url, reason: reason.isEmpty ? "cannot be opened" : reason)
        }
        handle = h
        width = Int(info.width)
        height = Int(info.height)
        fps = info.fps
        frameCount = info.frame_count > 0 ? Int(info.frame_count) : nil
        buffer = [UInt8](repeating: 0, count: width * height * 4)
    }

    deinit { cavd_close(handle) }

    /// Seeks made so far (sequential frames make none).
    package var seekCount: Int { Int(cavd_seek_count(handle)) }

    /// The frame shown at `t` seconds into the video: frame ⌊t × fps⌋ (with a tolerance of a
    /// millionth of a frame, so a time computed as n / fps lands on frame n), held at the first
    /// frame before 0 and at the last after the end.
    package func frameIndex(at t: Double) -> Int {
        guard t.isFinite else { return t > 0 ? (frameCount.map { $0 - 1 } ?? 0) : 0 }
        let i = Int.clamped((t * fps + 1e-6).rounded(.down))
        let clamped = max(i, 0)
        return frameCount.map { min(clamped, $0 - 1) } ?? clamped
    }

    /// The decoded frame `index` as an opaque image, or nil when the file cannot be decoded
    /// (its error is then in `lastError`).
    package func image(frame index: Int) -> CGImage? {
        if let c = cached, c.index == index { return c.image }
        var err = [CChar](repeating: 0, count: 256)
        let n = err.count, h = handle
        let got = buffer.withUnsafeMutableBufferPointer { b in
            cavd_decode_frame(h, Int64(index), b.baseAddress, &err, n)
        }
        guard got >= 0 else {
            lastError = String(decoding: err.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            return nil
        }
        let image = CGImage(width: width, height: height, premultipliedRGBA: buffer, alphaInfo: .noneSkipLast,
                            shouldInterpolate: true, intent: .defaultIntent)
        cached = (index, image)
        return image
    }

    package private(set) var lastError: String?
}
