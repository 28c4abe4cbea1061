import Testing
import Foundation

/// Lottie layers in scene files (docs/SCENE-FORMAT.md, "Lottie layers"; issue 23):
/// `LottieAnimationLayer` with a `file` relative to the scene, playing from scene time 0 or
/// paused at `progress`.
@Suite struct LottieSceneTests {
    /// Scenes/examples/lottie-badge.json shows lottie/pulse.lottie twice: an orange dot (40 pt
    /// wide at 100 % scale) pulsing 60 % → 100 % → 60 % over 2 s, inside a ring that a trim
    /// draws. On the left it plays (scale 60 % at t = 0: radius 12; 100 % at t = 1: radius 20),
    /// on the right it is paused at progress 0.5 (radius 20 at every time).
    @Test func exampleScenePlaysAndPauses() throws {
        let scene = try SceneFile.load(contentsOf: Repo.scenes.appendingPathComponent("examples/lottie-badge.json"))
        let layers = scene.rootLayer.sublayers ?? []
        #expect(layers.map { "\(type(of: $0))" } == ["LottieAnimationLayer", "LottieAnimationLayer"])
        let frames = try renderFrames(scene, times: [0, 1])
        func orange(_ p: [Int]) -> Bool { p[0] == 255 && abs(p[1] - 140) <= 2 && abs(p[2] - 26) <= 2 }
        // Left: centre (60, 60); 16 pt right of it is outside the dot at t = 0, inside at t = 1.
        #expect(orange(pixel(frames[0], 60, 60)))
        #expect(!orange(pixel(frames[0], 76, 60)))
        #expect(orange(pixel(frames[1], 76, 60)))
        // Right: centre (180, 60), radius 20 at both times.
        #expect(orange(pixel(frames[0], 196, 60)))
        #expect(orange(pixel(frames[1], 196, 60)))
    }

    @Test func badMembersAreProblems() throws {
        let dir = try makeTempDir("lottie-bad")
        try Data("{\"v\": 1".utf8).write(to: dir.appendingPathComponent("broken.json"))
        let missing = problems(doc(root: #"{"class": "LottieAnimationLayer", "file": "none.json"}"#), base: dir).map(\.message)
        #expect(missing.count == 1 && missing[0].contains("none.json"), "\(missing)")
        let broken = problems(doc(root: #"{"class": "LottieAnimationLayer", "file": "broken.json"}"#), base: dir).map(\.message)
        #expect(broken.count == 1 && broken[0].contains("broken.json"), "\(broken)")
        let noFile = problems(doc(root: #"{"class": "LottieAnimationLayer"}"#), base: dir).map(\.message)
        #expect(noFile.count == 1 && noFile[0].contains("file"), "\(noFile)")
        let modes = problems(doc(root: #"{"class": "LottieAnimationLayer", "file": "none.json", "loopMode": "sometimes", "contentMode": "stretch"}"#), base: dir)
        #expect(modes.count == 3, "\(modes)")
        let outside = problems(doc(root: #"{"class": "LottieAnimationLayer", "file": "../x.json"}"#), base: dir).map(\.message)
        #expect(outside.count == 1 && outside[0].contains(".."), "\(outside)")
    }
}
