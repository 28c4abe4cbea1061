import Testing
import Foundation

/// `CAReplicatorLayer` in scene files (docs/SCENE-FORMAT.md, "CAReplicatorLayer";
/// docs/BEHAVIOUR.md R1–R6).
@Suite struct ReplicatorSceneTests {
    @Test("Scenes/examples/spinner.json: twelve dots, copy k fading 0.1 s behind copy k − 1 (instanceDelay)")
    func spinnerRenders() throws {
        let scene = try SceneFile.load(contentsOf: Repo.scenes.appendingPathComponent("examples/spinner.json"))
        let r = try #require(scene.rootLayer.sublayers?.first as? CAReplicatorLayer)
        #expect(r.instanceCount == 12 && r.instanceDelay == 0.1)
        // The fade begins at the first frame (t = 0) and runs 1 → 0.15 over 1.2 s. At t = 1.15
        // copy k is at 1.15 − 0.1·k s: opacity 1 − 0.85 · (1.15 − 0.1k) / 1.2. Its dot is
        // #2d3748 over white, so red = 255 − opacity · (255 − 45). Copy k is turned k · 30°
        // about (60, 60): its centre is (60 + 44 sin θ, 60 − 44 cos θ).
        let img = try renderFrames(scene, times: [0, 1.15])[1]
        for k in 0..<12 {
            let theta = Double(k) * .pi / 6
            let x = Int((60 + 44 * sin(theta)).rounded()), y = Int((60 - 44 * cos(theta)).rounded())
            let opacity = 1 - 0.85 * (1.15 - 0.1 * Double(k)) / 1.2
            let red = 255 - opacity * 210
            let got = pixel(img, x, y)[0]
            #expect(abs(Double(got) - red) <= 3, "copy \(k) at (\(x), \(y)): red \(got), expected \(red)")
        }
        #expect(pixel(img, 60, 60) == [255, 255, 255, 255], "nothing at the centre")
    }

    @Test("replicator members load, animate by key path and round-trip through the writer")
    func membersLoadAndRoundTrip() throws {
        let json = doc(root: #"""
        {"sublayers": [{"class": "CAReplicatorLayer", "instanceCount": 3, "preservesDepth": true,
          "instanceDelay": 0.25, "instanceTransform": {"translate": [10, 0]}, "instanceColor": "#ff000080",
          "instanceRedOffset": -0.1, "instanceGreenOffset": 0.2, "instanceBlueOffset": 0.3, "instanceAlphaOffset": -0.4,
          "animations": [{"key": "step", "class": "CABasicAnimation", "keyPath": "instanceTransform",
                          "toValue": {"translate": [20, 0]}, "duration": 1}]}]}
        """#)
        let scene = try loadScene(json)
        let r = try #require(scene.rootLayer.sublayers?.first as? CAReplicatorLayer)
        #expect(r.instanceCount == 3 && r.preservesDepth && r.instanceDelay == 0.25)
        #expect(r.instanceTransform.m41 == 10)
        #expect(r.instanceColor?.rgba.alpha ?? 0 > 0.49 && r.instanceColor?.rgba.red == 1)
        #expect(r.instanceRedOffset == -0.1 && r.instanceGreenOffset == 0.2 && r.instanceBlueOffset == 0.3 && r.instanceAlphaOffset == -0.4)
        #expect(r.animation(forKey: "step") != nil)
        let written = try SceneFile.encode(scene, imageDirectory: nil)
        let again = try SceneFile.load(data: written, baseDirectory: FileManager.default.temporaryDirectory)
        let r2 = try #require(again.rootLayer.sublayers?.first as? CAReplicatorLayer)
        #expect(r2.instanceCount == 3 && r2.instanceTransform.m41 == 10 && r2.instanceAlphaOffset == -0.4)
    }

    @Test("a fractional or negative instanceCount is a problem with its path", arguments: ["1.5", "-2"])
    func badInstanceCount(_ value: String) {
        let found = problems(doc(root: #"{"sublayers": [{"class": "CAReplicatorLayer", "instanceCount": \#(value)}]}"#))
        #expect(found.contains { $0.path.hasSuffix("instanceCount") && $0.message.contains("whole number") }, "\(found)")
    }
}
