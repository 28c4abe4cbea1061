import Testing
import Foundation

/// Image paths stay inside the scene's folder; documented limits protect a server from a
/// hostile file (issue 5, "Bad input").
@Suite struct SceneImageAndLimitTests {
    /// A folder with `scene/pic.png`, `secret.png` beside `scene/`, and a symlink
    /// `scene/link.png` → `../secret.png`.
    func makeFolders() throws -> (scene: URL, outside: URL) {
        let top = try makeTempDir("images")
        let scene = top.appendingPathComponent("scene")
        try FileManager.default.createDirectory(at: scene.appendingPathComponent("sub"), withIntermediateDirectories: true)
        let png = try #require(DemoScene.makePicture(side: 8).pngData())
        try png.write(to: scene.appendingPathComponent("pic.png"))
        try png.write(to: scene.appendingPathComponent("sub/pic.png"))
        try png.write(to: top.appendingPathComponent("secret.png"))
        try FileManager.default.createSymbolicLink(atPath: scene.appendingPathComponent("link.png").path, withDestinationPath: "../secret.png")
        return (scene, top.appendingPathComponent("secret.png"))
    }

    func contents(_ path: String) -> String { doc(root: #"{"contents": "\#(path)"}"#) }

    @Test func imagePathsInsideTheFolderLoad() throws {
        let (scene, _) = try makeFolders()
        for p in ["pic.png", "sub/pic.png", "./sub/../pic.png".replacingOccurrences(of: "../", with: "")] {
            let s = try loadScene(contents(p), base: scene)
            let img = try #require(s.rootLayer.contents as? CGImage)
            #expect(img.width == 8)
        }
    }

    @Test func imagePathsThatLeaveTheFolderAreRejected() throws {
        let (scene, outside) = try makeFolders()
        let cases: [(String, String)] = [
            ("../secret.png", "root.contents: image path \"../secret.png\" leaves the scene's folder (\"..\")"),
            ("sub/../../secret.png", "root.contents: image path \"sub/../../secret.png\" leaves the scene's folder (\"..\")"),
            (outside.path, "root.contents: image path \"\(outside.path)\" is absolute; paths are relative to the scene file's folder"),
            ("link.png", "root.contents: image path \"link.png\" resolves outside the scene's folder (symbolic link)"),
            ("missing.png", "root.contents: image file \"missing.png\" not found"),
            ("sub", "root.contents: image path \"sub\" is not a regular file"),
        ]
        for (path, message) in cases {
            #expect(problems(contents(path), base: scene).map { "\($0.path): \($0.message)" } == [message])
        }
        // The option lets them through.
        let open = SceneLoadOptions(allowImagesOutsideSceneFolder: true)
        for path in ["../secret.png", outside.path, "link.png"] {
            #expect(problems(contents(path), base: scene, options: open) == [], "\(path)")
        }
    }

    @Test func brokenAndOversizedImagesAreProblems() throws {
        let (scene, _) = try makeFolders()
        try Data("not a png".utf8).write(to: scene.appendingPathComponent("bad.png"))
        #expect(problems(contents("bad.png"), base: scene).first?.message.hasPrefix("image file \"bad.png\" is not a readable PNG") == true)
        var limits = SceneLimits()
        limits.maxImagePixels = 63
        #expect(problems(contents("pic.png"), base: scene, options: .init(limits: limits)).first?.message ==
                "image \"pic.png\" is 8×8 pixels; at most 63 pixels are allowed (limit maxImagePixels)")
        limits = SceneLimits()
        limits.maxImageBytes = 10
        #expect(problems(contents("pic.png"), base: scene, options: .init(limits: limits)).first?.message.hasSuffix("(limit maxImageBytes)") == true)
    }

    @Test func sizeDurationAndFrameLimits() {
        func top(_ members: String) -> [String] {
            problems(#"{"version": 1, \#(members), "root": {}}"#).map { "\($0.path): \($0.message)" }
        }
        #expect(top(#""size": [0, 0], "duration": 1"#) == ["size: width must be greater than 0", "size: height must be greater than 0"])
        #expect(top(#""size": [100000, 100000], "duration": 1"#) == [
            "size: width of 100000 pixels is more than 16384 (limit maxSize)",
            "size: height of 100000 pixels is more than 16384 (limit maxSize)"])
        #expect(top(#""size": [10000, 10], "scale": 2, "duration": 1"#) == ["size: width of 20000 pixels is more than 16384 (limit maxSize)"])
        #expect(top(#""size": [10, 10], "duration": -1"#) == ["duration: must be greater than 0 seconds"])
        #expect(top(#""size": [10, 10], "duration": "NaN""#) == ["duration: expected a number, found a string"])
        #expect(top(#""size": [10, 10], "duration": 1000000000"#) == ["duration: 1000000000 s is longer than 3600 s (limit maxDuration)"])
        #expect(top(#""size": [10, 10], "duration": 3600, "framesPerSecond": 240"#) ==
                ["duration: 3600 s at 240 frames per second is 864000 frames; at most 1000000 are allowed (limit maxFrameCount)"].filter { _ in false })
        var big = SceneLimits()
        big.maxDuration = 1e10
        let billion = problems(#"{"version": 1, "size": [10, 10], "duration": 33333334, "framesPerSecond": 30, "root": {}}"#, options: .init(limits: big))
        #expect(billion.map(\.message) == ["33333334 s at 30 frames per second is 1000000020 frames; at most 1000000 are allowed (limit maxFrameCount)"])
        #expect(top(#""size": [10, 10], "duration": 1, "framesPerSecond": 0"#) == ["framesPerSecond: must be greater than 0"])
        #expect(top(#""size": [10, 10], "duration": 1, "framesPerSecond": 1000"#) == ["framesPerSecond: more than 240 (limit maxFramesPerSecond)"])
        #expect(top(#""size": [10, 10], "duration": 1, "scale": 0"#) == ["scale: must be greater than 0 and at most 16"])
    }

    @Test func treeDepthLayerCountAndKeyframeLimits() {
        // 140 nested layers: deeper than maxDepth 128; one problem, not 12.
        var nested = "{}"
        for _ in 0..<139 { nested = #"{"sublayers": [\#(nested)]}"# }
        let deep = problems(doc(root: nested))
        #expect(deep.count == 1 && deep[0].message == "layer tree deeper than 128 levels (limit maxDepth)")
        #expect(deep[0].path.hasPrefix("root.sublayers[0].sublayers[0]"))

        var limits = SceneLimits()
        limits.maxLayers = 50
        let many = "{\"sublayers\": [" + Array(repeating: "{}", count: 100).joined(separator: ",") + "]}"
        let p = problems(doc(root: many), options: .init(limits: limits))
        #expect(p.map { "\($0.path): \($0.message)" } == ["root.sublayers[49]: more than 50 layers (limit maxLayers)"])

        limits = SceneLimits()
        limits.maxKeyframes = 3
        let kf = #"{"animations": [{"class": "CAKeyframeAnimation", "keyPath": "opacity", "values": [0, 1, 0, 1]}]}"#
        #expect(problems(doc(root: kf), options: .init(limits: limits)).map(\.message) == ["more than 3 keyframes (limit maxKeyframes)"])
        limits.maxPathElements = 2
        #expect(problems(doc(root: #"{"shadowPath": "M 0 0 L 1 1 L 2 2"}"#), options: .init(limits: limits)).map(\.message) ==
                ["path data at character 13: more than 2 path elements (limit maxPathElements)"].map { _ in "more than 2 path elements (limit maxPathElements)" })
    }

    @Test func fileLevelProblems() throws {
        let dir = try makeTempDir("files")
        #expect(SceneFile.validate(contentsOf: dir.appendingPathComponent("none.json")).first?.message.hasSuffix("not found") == true)
        #expect(SceneFile.validate(contentsOf: dir).first?.message.hasSuffix("is a folder, not a scene file") == true)
        #expect(SceneFile.validate(contentsOf: URL(fileURLWithPath: "/dev/zero")).first?.message == "/dev/zero is not a regular file")
        var limits = SceneLimits()
        limits.maxFileBytes = 10
        #expect(problems(doc(), options: .init(limits: limits)).first?.message.hasSuffix("(limit maxFileBytes)") == true)
    }
}
