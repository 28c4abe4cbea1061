import Foundation
import CoreGraphics

/// The live source of a video layer (issue 19): a camera or synthetic input instead of a file
/// (extension beyond Apple's API: the role of `AVCaptureVideoPreviewLayer`).
extension CAVideoLayer {
    /// A layer showing the live input `liveSource` (see `liveSource`).
    public convenience init(liveSource: CAVideoLiveSource) {
        self.init()
        self.liveSource = liveSource
    }

    /// A live input shown instead of a file (extension beyond Apple's API: the role of
    /// `AVCaptureVideoPreviewLayer.session`). Setting it opens the input (synchronously) and
    /// starts capturing on a background thread, which decodes frames into a small bounded queue;
    /// each rendered frame shows the newest frame captured, so rendering never waits for the
    /// input and a slow renderer drops frames rather than falling behind or piling them up.
    ///
    /// A live source is not seekable: the layer's time (`beginTime`, `speed`, `timeOffset`) and
    /// the frame's media time do not choose what is shown, and rendering time t directly does not
    /// equal rendering every frame up to t (unlike a file's `url`). Until the first frame arrives
    /// the layer shows nothing. An input that cannot be opened (unknown format, missing device,
    /// unknown option, no video) shows nothing, warns once naming it and sets
    /// `liveSourceError`; so does one that fails or ends while capturing. Setting it clears
    /// `url`, and setting `url` clears it; nil stops capturing.
    public var liveSource: CAVideoLiveSource? {
        get { videoState.live }
        set {
            guard newValue != videoState.live else { return }
            var s = videoState
            s.live = newValue
            s.feed = newValue.map(LiveFeedBox.open)
            if newValue != nil { s.url = nil; s.source = nil }
            if let e = s.feed?.error {
                Diagnostics.warnOnce("CAVideoLayer: \(e.description); the layer shows no video")
            }
            updateLayerValue(self, "liveSource", \.videoState, s)
        }
    }

    /// Why the live source shows no picture: it could not be opened, or it failed or ended while
    /// capturing (nil while it captures, or no `liveSource` is set). Extension beyond Apple's API.
    public var liveSourceError: CAVideoLiveSourceError? {
        guard let box = videoState.feed else { return nil }
        return box.error ?? box.feed?.failure
    }

    /// The newest frame of the live source, as the renderer shows it (nil before the first frame
    /// arrives, or with no live source). Never waits for the input. Extension beyond Apple's API.
    public var liveFrameImage: CGImage? {
        guard let box = videoState.feed, let feed = box.feed else { return nil }
        if let e = feed.failure { Diagnostics.warnOnce("CAVideoLayer: \(e.description); capture stopped") }
        return feed.newestFrame()
    }

    /// The live capture (tests: queue bounds, frame counts, waiting for a first frame).
    package var liveFeed: LiveVideoFeed? { videoState.feed?.feed }
}

/// An opened live source (or the error opening it), shared by a layer and its copies; capture
/// stops when the last of them lets it go.
package final class LiveFeedBox: @unchecked Sendable {
    let feed: LiveVideoFeed?
    let error: CAVideoLiveSourceError?

    init(feed: LiveVideoFeed?, error: CAVideoLiveSourceError?) { self.feed = feed; self.error = error }

    static func open(_ source: CAVideoLiveSource) -> LiveFeedBox {
        do { return LiveFeedBox(feed: try LiveVideoFeed(source: source), error: nil) } catch let e as CAVideoLiveSourceError {
            return LiveFeedBox(feed: nil, error: e)
        } catch {
            return LiveFeedBox(feed: nil, error: CAVideoLiveSourceError(source: source, reason: "\(error)"))
        }
    }
}
