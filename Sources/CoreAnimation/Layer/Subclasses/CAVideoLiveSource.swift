import Foundation

/// A live video input for `CAVideoLayer` (extension beyond Apple's API: the role
/// `AVCaptureVideoPreviewLayer` and an `AVCaptureDevice` play on Apple, where AVFoundation is not
/// available). The input is opened through FFmpeg's libavdevice: `format` names its input
/// format, `device` what that format opens, `options` its demuxer options.
///
/// - A V4L2 camera: `.camera("/dev/video0", options: ["video_size": "640x480", "framerate": "30"])`.
/// - A synthetic source (tests, demos, machines without a camera): FFmpeg's `lavfi` input with a
///   filter graph, `.lavfi("testsrc2=size=320x240:rate=30")` or `.lavfi("color=c=0x3366CC:size=64x48")`.
///
/// A live source is not seekable: rendering time t does not pick a frame by t; the layer shows
/// the newest frame captured when each frame renders (see `CAVideoLayer.liveSource`).
public struct CAVideoLiveSource: Sendable, Hashable, CustomStringConvertible {
    /// What the input format opens: a device path for `v4l2`, a filter graph for `lavfi`.
    public var device: String
    /// The libavdevice input format's name (`v4l2`, `lavfi`, …).
    public var format: String
    /// Demuxer options (for `v4l2`: `video_size`, `framerate`, `input_format`, …). An option the
    /// input does not know is an error naming it.
    public var options: [String: String]

    public init(device: String, format: String = "v4l2", options: [String: String] = [:]) {
        self.device = device
        self.format = format
        self.options = options
    }

    /// A V4L2 camera (Video4Linux2: webcams, capture cards) at `device`.
    public static func camera(_ device: String = "/dev/video0", options: [String: String] = [:]) -> CAVideoLiveSource {
        CAVideoLiveSource(device: device, format: "v4l2", options: options)
    }

    /// FFmpeg's synthetic `lavfi` input: `graph` is a filter graph whose output is the video
    /// (`testsrc2=size=320x240:rate=30`, `color=c=red:size=64x48:rate=30`).
    public static func lavfi(_ graph: String) -> CAVideoLiveSource {
        CAVideoLiveSource(device: graph, format: "lavfi")
    }

    public var description: String { "\(format) input \"\(device.prefix(200))\"" }
}

/// Why a live source shows no picture (extension beyond Apple's API; the role of
/// `AVCaptureSession`'s runtime error notification): the input format is unknown, the device
/// cannot be opened, an option is not recognised, the input is not video, or it failed or ended
/// while capturing.
public struct CAVideoLiveSourceError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The source that failed.
    public let source: CAVideoLiveSource
    /// What FFmpeg said about it.
    public let reason: String
    public var description: String { "\(source): \(reason)" }
}
