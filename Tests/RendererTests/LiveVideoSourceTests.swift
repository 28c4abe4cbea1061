import Testing
import Foundation

/// CAVideoLayer's live source (extension beyond Apple's API, the role of
/// AVCaptureVideoPreviewLayer; issue 19), tested with FFmpeg's synthetic `lavfi` input so no
/// camera is needed: frames arrive in the expected colours, the layer renders the newest one, the
/// capture queue stays bounded, and bad inputs give errors naming them.
@Suite struct LiveVideoSourceTests {
    /// `color=c=0x3366CC` (sRGB 51, 102, 204) as the lavfi colour source makes it: BT.601
    /// limited-range YUV 4:2:0, Y = 16 + (65.481·0.2 + 128.553·0.4 + 24.966·0.8) = 100.49 → 100,
    /// Cb = 128 + 224/255·(−0.168736·51 − 0.331264·102 + 0.5·204) = 180.36 → 180,
    /// Cr = 128 + 224/255·(0.5·51 − 0.418688·102 − 0.081312·204) = 98.31 → 98; decoded back
    /// (R = 1.164·84 + 1.596·(−30), G = 1.164·84 − 0.392·52 − 0.813·(−30), B = 1.164·84 + 2.017·52)
    /// to (49.9, 101.8, 202.7): the quantisation moves the colour, so the expected value is the
    /// decoded one, not 0x3366CC itself.
    static let expected = RGBA(50, 102, 203)
    static let blue = CAVideoLiveSource.lavfi("color=c=0x3366CC:size=32x16:rate=30")

    func scene(_ source: CAVideoLiveSource, size: CGSize = CGSize(width: 32, height: 16)) -> (CALayer, CAVideoLayer) {
        let root = CALayer()
        root.frame = CGRect(origin: .zero, size: size)
        let v = CAVideoLayer(liveSource: source)
        v.frame = root.bounds
        root.addSublayer(v)
        return (root, v)
    }

    @Test("A lavfi color=c=0x3366CC source delivers 32×16 frames of its colour within 2/255 after YUV conversion")
    func colourFrames() throws {
        let v = CAVideoLayer(liveSource: Self.blue)
        #expect(v.liveSourceError == nil)
        #expect(v.videoSize == CGSize(width: 32, height: 16))
        #expect(v.frameRate == 30)
        #expect(v.frameCount == nil, "a live input has no end")
        #expect(v.frameIndex(atLocalTime: 1) == nil, "and is not seekable")
        let feed = try #require(v.liveFeed)
        #expect(feed.waitForFrames(2, timeout: 20))
        let image = try #require(v.liveFrameImage)
        #expect(image.width == 32 && image.height == 16)
        for (x, y) in [(0, 0), (31, 15), (16, 8), (5, 12)] {
            #expect(image.rgba(x, y).isClose(to: Self.expected, tolerance: 2), "(\(x), \(y)): \(image.rgba(x, y))")
        }
    }

    @Test("testsrc2's frames are the pattern, not one colour: a frame has many colours and full alpha")
    func testPattern() throws {
        let v = CAVideoLayer(liveSource: .lavfi("testsrc2=size=320x240:rate=30"))
        #expect(v.liveSourceError == nil)
        #expect(v.videoSize == CGSize(width: 320, height: 240))
        #expect(try #require(v.liveFeed).waitForFrames(1, timeout: 20))
        let image = try #require(v.liveFrameImage)
        var colours = Set<Int>()
        for y in stride(from: 0, to: 240, by: 8) {
            for x in stride(from: 0, to: 320, by: 8) {
                let p = image.rgba(x, y)
                #expect(p.a == 255)
                colours.insert(p.r << 16 | p.g << 8 | p.b)
            }
        }
        #expect(colours.count > 8, "testsrc2 draws colour bars and a gradient: \(colours.count) colours")
    }

    @Test("The layer renders the newest live frame, whatever the render time (a live source is not seekable)")
    func renders() throws {
        let (root, v) = scene(Self.blue, size: CGSize(width: 32, height: 32))
        #expect(try #require(v.liveFeed).waitForFrames(1, timeout: 20))
        v.videoGravity = .resizeAspect
        // 32×16 video letterboxed in 32×32 (as contentsGravity): rows 8–23 show it, white around.
        for t in [0.0, 5.0, 1000.0] {
            let img = try RenderHarness.render(root, size: CGSize(width: 32, height: 32), time: t)
            #expect(img.rgba(16, 16).isClose(to: Self.expected, tolerance: 2), "at \(t): \(img.rgba(16, 16))")
            #expect(img.rgba(16, 10).isClose(to: Self.expected, tolerance: 2))
            #expect(img.rgba(16, 3) == RGBA(255, 255, 255))
            #expect(img.rgba(16, 28) == RGBA(255, 255, 255))
        }
    }

    @Test("The capture queue stays bounded: at 1,000 fps with nothing taking frames, at most queueCapacity are held")
    func boundedQueue() throws {
        let v = CAVideoLayer(liveSource: .lavfi("color=c=red:size=16x16:rate=1000"))
        let feed = try #require(v.liveFeed)
        #expect(feed.waitForFrames(40, timeout: 30))
        let c = feed.counts
        #expect(c.queued <= LiveVideoFeed.queueCapacity && c.queued >= 1, "\(c)")
        // Nothing was taken: every frame captured is queued or was dropped.
        #expect(c.captured == c.queued + c.dropped, "\(c)")
        #expect(c.dropped >= 40 - LiveVideoFeed.queueCapacity)
    }

    @Test("Latest frame wins: of 20 numbered frames (grey 8n) captured unseen, the queue keeps 17–19 and shows 19")
    func latestWins() throws {
        // 20 frames at 1,000 fps, frame n luma 16 + 8n·219/255 (grey 8n after BT.601 decoding,
        // as VideoLayerTests' numbered video).
        let v = CAVideoLayer(liveSource: .lavfi("nullsrc=s=16x16:r=1000:d=0.02,geq=lum='16+N*8*219/255':cb=128:cr=128"))
        let feed = try #require(v.liveFeed)
        #expect(!feed.waitForFrames(1000, timeout: 30), "the input ends after 20 frames")
        let c = feed.counts
        #expect(c.captured == 20 && c.queued == LiveVideoFeed.queueCapacity && c.dropped == 20 - LiveVideoFeed.queueCapacity, "\(c)")
        let image = try #require(v.liveFrameImage)
        #expect(abs(image.rgba(8, 8).g - 8 * 19) <= 3, "\(image.rgba(8, 8))")
        // Taking the newest empties the queue; the two older ones count as dropped.
        #expect(feed.counts.queued == 0 && feed.counts.dropped == 19)
        #expect(v.liveFrameImage === image, "no newer frame: the one shown stays")
    }

    @Test("A missing device, an unknown format, an unknown option and an audio-only input each give an error naming them")
    func badInputs() throws {
        let missing = CAVideoLayer(liveSource: .camera("/dev/video-none-here"))
        let e1 = try #require(missing.liveSourceError)
        #expect(e1.description.contains("/dev/video-none-here"), "\(e1)")
        #expect(e1.reason.contains("cannot open the device"), "\(e1)")
        #expect(missing.liveFeed == nil)
        #expect(missing.videoSize == .zero)

        let unknown = CAVideoLayer(liveSource: CAVideoLiveSource(device: "x", format: "no-such-format"))
        let e2 = try #require(unknown.liveSourceError)
        #expect(e2.reason.contains("unknown input format \"no-such-format\""), "\(e2)")

        let option = CAVideoLayer(liveSource: CAVideoLiveSource(device: "color=c=red", format: "lavfi", options: ["bogus_option": "1"]))
        let e3 = try #require(option.liveSourceError)
        #expect(e3.reason.contains("bogus_option"), "\(e3)")

        let audio = CAVideoLayer(liveSource: .lavfi("sine=frequency=440"))
        let e4 = try #require(audio.liveSourceError)
        #expect(e4.reason.contains("not a video"), "\(e4)")

        // Such a layer renders nothing (the white background), no crash.
        let (root, v) = scene(.camera("/dev/video-none-here"))
        #expect(v.liveSourceError != nil)
        let img = try RenderHarness.render(root, size: CGSize(width: 32, height: 16))
        #expect(img.rgba(16, 8) == RGBA(255, 255, 255))
    }

    @Test("An input that ends stops capture and sets liveSourceError; the last frame stays shown")
    func inputEnds() throws {
        let v = CAVideoLayer(liveSource: .lavfi("color=c=0x3366CC:size=8x8:rate=100:duration=0.05"))
        let feed = try #require(v.liveFeed)
        // Waits for more frames than the input has: returns when capture stops.
        #expect(!feed.waitForFrames(1000, timeout: 30))
        #expect(feed.framesCaptured == 5)
        #expect(v.liveSourceError?.reason == "the input ended")
        let image = try #require(v.liveFrameImage)
        #expect(image.rgba(4, 4).isClose(to: Self.expected, tolerance: 2))
    }

    @Test("url and liveSource exclude each other; nil stops capturing")
    func exclusive() throws {
        let v = CAVideoLayer(liveSource: Self.blue)
        #expect(v.liveSource == Self.blue)
        v.url = URL(fileURLWithPath: "/nonexistent/clip.mp4")
        #expect(v.liveSource == nil && v.liveFeed == nil)
        v.liveSource = Self.blue
        #expect(v.url == nil && v.liveFeed != nil)
        v.liveSource = nil
        #expect(v.liveFeed == nil && v.liveSourceError == nil && v.liveFrameImage == nil)
    }
}
