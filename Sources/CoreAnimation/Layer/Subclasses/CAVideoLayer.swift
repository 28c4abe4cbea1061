import Foundation
import CoreGraphics

/// A layer that shows a video file: its contents are the frame of the video at the layer's
/// local time (extension beyond Apple's API: the role `AVPlayerLayer` plays on Apple, where
/// AVFoundation is not available; decoded with FFmpeg's libraries).
///
/// Time is the layer's own CAMediaTiming time (`convertTime(_:from: nil)` of the frame's media
/// time: `beginTime`, `speed`, `timeOffset` of the layer and its ancestors apply), so the video
/// starts at local time 0, plays at `speed`, holds its first frame before 0 and its last after
/// the end. Seeking is exact to the frame: the decoder goes back to the keyframe at or before the
/// frame and decodes forward, and keeps its state so frames asked for in order decode on
/// without seeking; rendering time t directly shows the same frame as rendering every frame up
/// to t. A file that is not a video shows nothing, warns once naming the file, and sets `error`.
///
/// ```swift
/// let video = CAVideoLayer(url: URL(fileURLWithPath: "clip.mp4"))
/// video.frame = CGRect(x: 0, y: 0, width: 320, height: 180)
/// video.videoGravity = .resizeAspectFill
/// ```
open class CAVideoLayer: CALayer {
    package var videoState = VideoLayerState()

    public override init() { super.init() }

    /// A layer showing the video at `url`.
    public convenience init(url: URL) {
        self.init()
        self.url = url
    }

    /// Copies the video state (presentation copies share the model's decoder).
    public required init(layer: Any) {
        super.init(layer: layer)
        if let other = layer as? CAVideoLayer { videoState = other.videoState }
    }

    public required init?(coder: NSCoder) { super.init(coder: coder) }

    /// The video file shown; setting it opens the file (synchronously) and sets `error` when it
    /// is not a video. nil shows nothing.
    public var url: URL? {
        get { videoState.url }
        set {
            guard newValue != videoState.url else { return }
            var s = videoState
            s.url = newValue
            s.source = newValue.map(VideoSource.open)
            if newValue != nil { s.live = nil; s.feed = nil }
            if let e = s.source?.error {
                Diagnostics.warnOnce("CAVideoLayer: \(e.description); the layer shows no video")
            }
            updateLayerValue(self, "url", \.videoState, s)
        }
    }

    /// How the video fills the bounds: the same values and maths as `contentsGravity`
    /// (`AVPlayerLayer.videoGravity`'s `resizeAspect`, `resizeAspectFill` and `resize` are
    /// `.resizeAspect`, `.resizeAspectFill` and `.resize`). Default `.resizeAspect`, as
    /// AVPlayerLayer's.
    public var videoGravity: CALayerContentsGravity {
        get { videoState.gravity }
        set {
            var s = videoState
            s.gravity = CALayerContentsGravity.all.contains(newValue) ? newValue : .resizeAspect
            updateLayerValue(self, "videoGravity", \.videoState, s)
        }
    }

    /// Why the video cannot be shown (nil when it opened, or no `url` is set).
    public var error: CAVideoLayerError? { videoState.source?.error }

    /// The video's frame size in pixels (zero when none is open); a live source's frame size.
    public var videoSize: CGSize {
        if let f = videoState.feed?.feed { return CGSize(width: f.width, height: f.height) }
        guard let d = videoState.source?.decoder else { return .zero }
        return CGSize(width: d.width, height: d.height)
    }

    /// Frames per second of the video (0 when none is open); a live source's nominal rate.
    public var frameRate: Double { videoState.feed?.feed?.fps ?? videoState.source?.decoder?.fps ?? 0 }

    /// Number of frames (nil when none is open or the file does not say).
    public var frameCount: Int? { videoState.source?.decoder?.frameCount }

    /// The index of the frame shown at local time `t` (nil when no video is open).
    public func frameIndex(atLocalTime t: CFTimeInterval) -> Int? {
        guard let src = videoState.source else { return nil }
        return src.withDecoder { $0.frameIndex(at: t) }
    }

    /// The decoded frame shown at local time `t` (nil when no video is open or it cannot be
    /// decoded). What the renderer draws.
    public func frameImage(atLocalTime t: CFTimeInterval) -> CGImage? {
        guard let src = videoState.source else { return nil }
        let image: CGImage?? = src.withDecoder { d -> CGImage? in
            let frame = d.image(frame: d.frameIndex(at: t))
            if frame == nil, let e = d.lastError, let url = videoState.url {
                Diagnostics.warnOnce("CAVideoLayer: \(url.path): \(e); the frame is not shown")
            }
            return frame
        }
        return image ?? nil
    }

    package override class func makePropertyTable() -> PropertyTable {
        var t = super.makePropertyTable()
        t.addConstant("videoGravity", \CAVideoLayer.videoGravity)
        return t
    }

    /// Seeks the decoder made (extension for tests: sequential frames make none).
    package var decoderSeekCount: Int { videoState.source?.withDecoder { $0.seekCount } ?? 0 }
}

/// The stored values of a `CAVideoLayer`.
package struct VideoLayerState: Equatable {
    var url: URL?
    var gravity: CALayerContentsGravity = .resizeAspect
    var source: VideoSource?
    /// The live source (`CAVideoLayer+LiveSource.swift`) and its capture; exclusive with `url`.
    var live: CAVideoLiveSource?
    var feed: LiveFeedBox?

    package static func == (a: Self, b: Self) -> Bool {
        a.url == b.url && a.gravity == b.gravity && a.source === b.source && a.live == b.live && a.feed === b.feed
    }
}

/// An opened video (or the error opening it), shared by a layer and its copies; its decoder is
/// used under a lock (renderers on several threads may ask for frames).
package final class VideoSource: @unchecked Sendable {
    let decoder: VideoDecoder?
    let error: CAVideoLayerError?
    private let lock = NSLock()

    init(decoder: VideoDecoder?, error: CAVideoLayerError?) { self.decoder = decoder; self.error = error }

    static func open(_ url: URL) -> VideoSource {
        do { return VideoSource(decoder: try VideoDecoder(url: url), error: nil) } catch let e as CAVideoLayerError {
            return VideoSource(decoder: nil, error: e)
        } catch {
            return VideoSource(decoder: nil, error: CAVideoLayerError(url: url, reason: "\(error)"))
        }
    }

    func withDecoder<T>(_ body: (VideoDecoder) -> T) -> T? {
        guard let d = decoder else { return nil }
        lock.lock(); defer { lock.unlock() }
        return body(d)
    }
}
