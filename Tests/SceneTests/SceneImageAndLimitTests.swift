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

    /// Scene contents may be JPEG or WebP too (issue 19), decoded through ImageIO; a JPEG cut
    /// short is a problem naming the file and the format.
    @Test func jpegAndWebPContentsLoad() throws {
        let (scene, _) = try makeFolders()
        let out = NSMutableData()
        let dst = try #require(CGImageDestinationCreateWithData(out, "public.jpeg" as CFString, 1, nil))
        CGImageDestinationAddImage(dst, DemoScene.makePicture(side: 8), nil)
        #expect(CGImageDestinationFinalize(dst))
        try (out as Data).write(to: scene.appendingPathComponent("pic.jpg"))
        try (out as Data).prefix(out.length / 2).write(to: scene.appendingPathComponent("cut.jpg"))
        // ImageIOTests/Fixtures/still-lossless.webp (4×2; first pixel opaque red).
        let webp: [UInt8] = [
            0x52, 0x49, 0x46, 0x46, 0x3E, 0x00, 0x00, 0x00, 0x57, 0x45, 0x42, 0x50, 0x56, 0x50, 0x38, 0x4C, 0x32, 0x00, 0x00, 0x00, 0x2F, 0x03, 0x40, 0x00, 0x10, 0x3F, 0x20, 0x10, 0x20, 0x38, 0x77, 0x6E, 0x43, 0x40, 0x50, 0x74, 0xDD, 0x72, 0x02, 0x01, 0x82, 0x73, 0xE7, 0x08, 0x24, 0x6D, 0x6C, 0x3E, 0x9E, 0xFC, 0x01, 0x80, 0x63, 0x93, 0x63, 0x93, 0xAB, 0x82, 0x40, 0x80, 0x8C, 0x4D, 0x29, 0x71, 0xE0, 0x40, 0x44, 0xFF, 0x03, 0x1B
        ]
        try Data(webp).write(to: scene.appendingPathComponent("pic.webp"))
        let jpeg = try #require(try loadScene(contents("pic.jpg"), base: scene).rootLayer.contents as? CGImage)
        #expect(jpeg.width == 8 && jpeg.height == 8)
        let w = try #require(try loadScene(contents("pic.webp"), base: scene).rootLayer.contents as? CGImage)
        #expect(w.width == 4 && w.height == 2)
        #expect(Array(w.rgba8Bytes.prefix(4)) == [255, 0, 0, 255])
        #expect(problems(contents("cut.jpg"), base: scene).first?.message.hasPrefix("image file \"cut.jpg\" is not a readable JPEG: ") == true)
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
        #expect(problems(contents("bad.png"), base: scene).first?.message ==
                "image file \"bad.png\" is not a readable image (PNG, JPEG, GIF or WebP)")
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
                ["path data: more than 2 path elements (limit maxPathElements)"])
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
