import CAWindow
import Foundation

/// `ca-preview --camera DEVICE`: a live source (a V4L2 camera, or FFmpeg's synthetic `lavfi`
/// input with `--camera-format lavfi`) shown by a `CAVideoLayer` in the window, the role
/// `AVCaptureVideoPreviewLayer` plays on Apple (issue 19). A source that cannot be opened still
/// opens the window: the layer shows nothing and a warning line over it names the device and the
/// reason (also written to the terminal).
enum CameraPreview {
    /// The options after `--camera`: the device, `--camera-format F` (default v4l2) and
    /// `--camera-option KEY=VALUE` (repeatable; e.g. `video_size=640x480`).
    static func source(_ args: [String]) -> CAVideoLiveSource? {
        guard let i = args.firstIndex(of: "--camera"), i + 1 < args.count else { return nil }
        var source = CAVideoLiveSource.camera(args[i + 1])
        if let f = args.firstIndex(of: "--camera-format"), f + 1 < args.count { source.format = args[f + 1] }
        for (k, a) in args.enumerated() where a == "--camera-option" && k + 1 < args.count {
            let pair = args[k + 1].split(separator: "=", maxSplits: 1).map(String.init)
            if pair.count == 2 { source.options[pair[0]] = pair[1] }
        }
        return source
    }

    /// The preview: a 640×480-point stage (the video's size when it is known and smaller than
    /// 1920×1080) with the video layer filling it at `resizeAspect`.
    static func scene(_ source: CAVideoLiveSource, log: (String) -> Void) -> PreviewScene {
        let video = CAVideoLayer(liveSource: source)
        var size = CGSize(width: 640, height: 480)
        let v = video.videoSize
        if v.width >= 16, v.height >= 16, v.width <= 1920, v.height <= 1080 { size = v }
        let root = CALayer()
        root.frame = CGRect(origin: .zero, size: size)
        root.backgroundColor = CGColor(red: 0, green: 0, blue: 0, alpha: 1)
        video.frame = root.bounds
        video.videoGravity = .resizeAspect
        root.addSublayer(video)
        if let e = video.liveSourceError {
            log("ca-preview: warning: \(e)")
            let text = CATextLayer()
            text.string = "No video: \(e)"
            text.fontSize = 14
            text.isWrapped = true
            text.foregroundColor = CGColor(red: 1, green: 0.8, blue: 0.3, alpha: 1)
            text.frame = root.bounds.insetBy(dx: 16, dy: 16)
            root.addSublayer(text)
        } else {
            log("ca-preview: \(source), \(Int(v.width))×\(Int(v.height)) at \(String(format: "%.3g", video.frameRate)) fps")
        }
        return PreviewScene(rootLayer: root, size: size, scale: 1, duration: 0, framesPerSecond: 60)
    }
}
