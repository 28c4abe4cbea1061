import Testing
import Foundation

/// Makes test videos with the `ffmpeg` binary: frames whose grey level encodes the frame number
/// (frame n has luma 16 + 8n·219/255, which video-range BT.601 decodes to RGB grey 8n, so frames
/// 0…29 are told apart with a margin of ±3 for rounding), 10 frames a second, a keyframe every 5 frames (so exact seeking must decode
/// forward from a keyframe). Cached per process.
enum TestVideos {
    static let fps = 10
    static let frames = 30

    static let directory: URL = {
        let d = FileManager.default.temporaryDirectory.appendingPathComponent("ca-video-tests-\(getpid())")
        try? FileManager.default.createDirectory(at: d, withIntermediateDirectories: true)
        return d
    }()

    /// 32×16 frames, MPEG-4 part 2 in MP4, grey 8n for frame n.
    static let numbered: URL? = make("numbered.mp4", [
        "-f", "lavfi", "-i", "nullsrc=s=32x16:r=\(fps):d=\(frames / fps),geq=lum='16+N*8*219/255':cb=128:cr=128",
        "-c:v", "mpeg4", "-q:v", "1", "-g", "5", "-bf", "0", "-pix_fmt", "yuv420p",
    ])

    static func make(_ name: String, _ args: [String]) -> URL? {
        let out = directory.appendingPathComponent(name)
        if FileManager.default.fileExists(atPath: out.path) { return out }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["ffmpeg", "-v", "error", "-y"] + args + [out.path]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        do { try p.run() } catch { return nil }
        p.waitUntilExit()
        return p.terminationStatus == 0 ? out : nil
    }

    /// The frame number a grey level encodes.
    static func frameNumber(grey: Int) -> Int { Int((Double(grey) / 8).rounded()) }
}

/// CAVideoLayer (extension beyond Apple's API, the role of AVPlayerLayer; issue 19): the frame at
/// the layer's local time, exact seeking, `videoGravity` as `contentsGravity`, bad files.
@Suite struct VideoLayerTests {
    static var hasFFmpeg: Bool { TestVideos.numbered != nil }

    func scene(_ url: URL, size: CGSize = CGSize(width: 32, height: 16)) -> (CALayer, CAVideoLayer) {
        let root = CALayer()
        root.frame = CGRect(origin: .zero, size: size)
        let v = CAVideoLayer(url: url)
        v.frame = root.bounds
        root.addSublayer(v)
        return (root, v)
    }

    @Test("The file's size, rate and frame count are read", .enabled(if: hasFFmpeg))
    func metadata() throws {
        let v = CAVideoLayer(url: try #require(TestVideos.numbered))
        #expect(v.error == nil)
        #expect(v.videoSize == CGSize(width: 32, height: 16))
        #expect(v.frameRate == 10)
        #expect(v.frameCount == 30)
        #expect(v.frameIndex(atLocalTime: 0) == 0)
        #expect(v.frameIndex(atLocalTime: 1.25) == 12)
        #expect(v.frameIndex(atLocalTime: -3) == 0)
        #expect(v.frameIndex(atLocalTime: 100) == 29)
    }

    @Test("Frames at several times show their own number (grey 8n)", .enabled(if: hasFFmpeg))
    func framesAtTimes() throws {
        let (root, _) = scene(try #require(TestVideos.numbered))
        let times: [CFTimeInterval] = [0, 0.35, 1.0, 1.72, 2.95]
        let images = try RenderHarness.renderFrames(root, size: CGSize(width: 32, height: 16), times: times)
        for (t, img) in zip(times, images) {
            let p = img.rgba(16, 8)
            #expect(TestVideos.frameNumber(grey: p.g) == Int((t * 10 + 1e-6).rounded(.down)), "at \(t): \(p)")
            #expect(abs(p.r - p.g) <= 3 && abs(p.b - p.g) <= 3)
        }
    }

    @Test("Rendering time t directly equals rendering every frame up to t in sequence", .enabled(if: hasFFmpeg))
    func directEqualsSequential() throws {
        let url = try #require(TestVideos.numbered)
        let (rootA, a) = scene(url)
        // (No CPU-backend pass: it would play the same layer again and count its seeks.)
        let sequential = try RenderHarness.renderFrames(rootA, size: CGSize(width: 32, height: 16),
                                                        times: (0...23).map { Double($0) / 10 }, parity: false)
        // Sequential playback decodes on without seeking.
        #expect(a.decoderSeekCount == 0)
        let (rootB, b) = scene(url)
        let r = try CARenderer(offscreenSize: CGSize(width: 32, height: 16), scale: 1, options: .init(backend: .openGL))
        r.layer = rootB
        let direct = try RenderHarness.frame(r, at: 2.3)
        let last = try #require(sequential.last)
        #expect(TestVideos.frameNumber(grey: direct.rgba(16, 8).g) == 23)
        for y in 0..<16 { for x in 0..<32 { #expect(direct.rgba(x, y) == last.rgba(x, y)) } }
        // Going back (a seek to frame 7, between keyframes 5 and 10) is exact too.
        let back = try RenderHarness.frame(r, at: 0.7)
        #expect(TestVideos.frameNumber(grey: back.rgba(16, 8).g) == 7)
        #expect(b.decoderSeekCount == 1)
        // And forward again after it, frame by frame, without another seek.
        let next = try RenderHarness.frame(r, at: 0.8)
        #expect(TestVideos.frameNumber(grey: next.rgba(16, 8).g) == 8)
        #expect(b.decoderSeekCount == 1)
    }

    @Test("Local time: beginTime and speed of the layer move the video", .enabled(if: hasFFmpeg))
    func localTime() throws {
        let (root, v) = scene(try #require(TestVideos.numbered))
        v.beginTime = 1     // the video starts a second into media time
        v.speed = 2         // and plays twice as fast
        let img = try RenderHarness.render(root, size: CGSize(width: 32, height: 16), time: 1.5)
        // local = (1.5 − 1) × 2 = 1.0 s → frame 10
        #expect(TestVideos.frameNumber(grey: img.rgba(16, 8).g) == 10)
    }

    @Test("videoGravity resizeAspect letterboxes like contentsGravity (32×16 video in 32×32: rows 8–23)", .enabled(if: hasFFmpeg))
    func gravity() throws {
        let (root, v) = scene(try #require(TestVideos.numbered), size: CGSize(width: 32, height: 32))
        #expect(v.videoGravity == .resizeAspect)
        let img = try RenderHarness.render(root, size: CGSize(width: 32, height: 32))
        #expect(img.rgba(16, 4) == RGBA(255, 255, 255))
        #expect(img.rgba(16, 27) == RGBA(255, 255, 255))
        #expect(TestVideos.frameNumber(grey: img.rgba(16, 16).g) == 0)
        v.videoGravity = .resize
        CATransaction.flush()
        let stretched = try RenderHarness.render(root, size: CGSize(width: 32, height: 32))
        #expect(TestVideos.frameNumber(grey: stretched.rgba(16, 2).g) == 0)
    }

    @Test("A file that is not a video: error naming the file, a warning, nothing drawn, no crash")
    func notAVideo() throws {
        let bad = FileManager.default.temporaryDirectory.appendingPathComponent("ca-not-a-video-\(getpid()).mp4")
        try Data("this is not a video".utf8).write(to: bad)
        let (v, warnings) = Diagnostics.capture { CAVideoLayer(url: bad) }
        #expect(v.error?.url == bad)
        #expect(v.error?.description.contains(bad.path) == true)
        #expect(warnings.contains { $0.contains("CAVideoLayer") && $0.contains(bad.path) })
        #expect(v.frameImage(atLocalTime: 0) == nil)
        let missing = CAVideoLayer(url: URL(fileURLWithPath: "/nonexistent/clip.mp4"))
        #expect(missing.error != nil)
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 8, height: 8)
        v.frame = root.bounds
        root.addSublayer(v)
        let img = try RenderHarness.render(root, size: CGSize(width: 8, height: 8))
        #expect(img.rgba(4, 4) == RGBA(255, 255, 255))
    }
}
