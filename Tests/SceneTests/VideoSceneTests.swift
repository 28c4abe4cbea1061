import Testing
import Foundation

/// Video layers in scene files (docs/SCENE-FORMAT.md, "Video layers"; issue 19): `CAVideoLayer`
/// with a `source` relative to the scene, shown at the scene's time; a file that is not a video
/// is a problem naming it.
@Suite struct VideoSceneTests {
    /// A 10-fps video of 30 frames, 32×16, frame n grey 8n (see RendererTests' TestVideos), in `dir`.
    static func makeVideo(in dir: URL) -> Bool {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i",
                       "nullsrc=s=32x16:r=10:d=3,geq=lum='16+N*8*219/255':cb=128:cr=128",
                       "-c:v", "mpeg4", "-q:v", "1", "-g", "5", "-bf", "0", "-pix_fmt", "yuv420p",
                       dir.appendingPathComponent("clip.mp4").path]
        p.standardOutput = FileHandle.nullDevice
        p.standardError = FileHandle.nullDevice
        guard (try? p.run()) != nil else { return false }
        p.waitUntilExit()
        return p.terminationStatus == 0
    }

    static let hasFFmpeg: Bool = FileManager.default.isExecutableFile(atPath: "/usr/bin/ffmpeg")

    @Test("A CAVideoLayer scene shows frame ⌊10·t⌋ at time t, and writes its source back", .enabled(if: hasFFmpeg))
    func videoScene() throws {
        let dir = try makeTempDir("video")
        #expect(Self.makeVideo(in: dir))
        let json = #"{"format": "ca-scene", "version": 1, "size": [32, 16], "duration": 3, "root": {"frame": [0, 0, 32, 16], "sublayers": [{"class": "CAVideoLayer", "source": "clip.mp4", "videoGravity": "resize", "frame": [0, 0, 32, 16]}]}}"#
        let scene = try loadScene(json, base: dir)
        let v = try #require(scene.rootLayer.sublayers?.first as? CAVideoLayer)
        #expect(v.videoGravity == .resize)
        #expect(v.frameCount == 30)
        let frames = try renderFrames(scene, times: [0.5, 1.5, 2.2])
        #expect(frames.map { Int((Double(pixel($0, 16, 8)[1]) / 8).rounded()) } == [5, 15, 22])
        let text = String(decoding: try SceneFile.encode(scene, imageDirectory: dir), as: UTF8.self)
        #expect(text.contains("\"CAVideoLayer\"") && text.contains("\"clip.mp4\""))
        let again = try loadScene(text, base: dir)
        #expect((again.rootLayer.sublayers?.first as? CAVideoLayer)?.frameCount == 30)
    }

    @Test("A source that is not a video, or is missing, is a problem naming the file")
    func badSource() throws {
        let dir = try makeTempDir("video-bad")
        try Data("not a video".utf8).write(to: dir.appendingPathComponent("junk.mp4"))
        let bad = problems(doc(root: #"{"class": "CAVideoLayer", "source": "junk.mp4"}"#), base: dir).map(\.message)
        #expect(bad.count == 1 && bad[0].contains("junk.mp4") && bad[0].contains("cannot be played"), "\(bad)")
        let missing = problems(doc(root: #"{"class": "CAVideoLayer", "source": "none.mp4"}"#), base: dir).map(\.message)
        #expect(missing.count == 1 && missing[0].contains("none.mp4"), "\(missing)")
        let outside = problems(doc(root: #"{"class": "CAVideoLayer", "source": "../x.mp4"}"#), base: dir).map(\.message)
        #expect(outside.count == 1 && outside[0].contains("leaves the scene's folder"), "\(outside)")
    }
}
