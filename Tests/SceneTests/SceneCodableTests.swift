import Testing
import Foundation

/// `Codable` on the model types (issue 5: "a live layer tree can also be written out as a
/// scene, CALayer → JSON → same frames"): values in the scene format's spelling, layers and
/// animations `Encodable` as its objects, whole scenes `Codable` through `LoadedScene`.
@Suite struct SceneCodableTests {
    /// Compact JSON with sorted keys (deterministic text to compare).
    static func json<T: Encodable>(_ v: T, directory: URL? = nil) throws -> String {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        if let directory { e.userInfo[.sceneDirectory] = directory }
        return String(decoding: try e.encode(v), as: UTF8.self)
    }

    static func decode<T: Decodable>(_ type: T.Type, _ text: String) throws -> T {
        try JSONDecoder().decode(type, from: Data(text.utf8))
    }

    static func roundTrip<T: Codable>(_ v: T) throws -> T { try decode(T.self, json(v)) }

    /// `text` as Foundation objects, for comparing JSON regardless of member order.
    static func object(_ text: String) throws -> NSObject {
        try #require(JSONSerialization.jsonObject(with: Data(text.utf8)) as? NSObject)
    }

    // MARK: Values

    @Test func valueTypesRoundTripThroughJSONEncoderAndJSONDecoder() throws {
        let affine = CGAffineTransform(a: 0.8, b: 0.6, c: -0.6, d: 0.8, tx: 12.5, ty: -3)
        #expect(try Self.roundTrip(affine) == affine)
        var t = CATransform3DRotate(CATransform3DMakeTranslation(10, 20, 30), 0.7, 0, 1, 0)
        t.m34 = -1 / 500
        #expect(try Self.roundTrip(t) == t)
        for c in [CGColor(red: 0.1, green: 0.2, blue: 0.3, alpha: 0.4), CGColor(gray: 0.25, alpha: 0.5), CGColor.clear] {
            #expect(try Self.roundTrip(c) == c)
        }
        for f in [CAMediaTimingFunction(name: .easeInEaseOut), CAMediaTimingFunction(name: .linear),
                  CAMediaTimingFunction(name: .default), CAMediaTimingFunction(controlPoints: 0.2, 0.1, 0.3, 0.9)] {
            #expect(try Self.roundTrip(f) == f)
        }
        for m in [CACornerMask(), [.layerMinXMinYCorner, .layerMaxXMaxYCorner], [.layerMaxXMinYCorner, .layerMinXMaxYCorner]] as [CACornerMask] {
            #expect(try Self.roundTrip(m) == m)
        }
        let edges: CAEdgeAntialiasingMask = [.layerTopEdge, .layerLeftEdge]
        #expect(try Self.roundTrip(edges) == edges)
        #expect(try Self.roundTrip(CALayerContentsGravity.resizeAspectFill) == .resizeAspectFill)
        #expect(try Self.roundTrip(CAMediaTimingFillMode.both) == .both)
        #expect(try Self.roundTrip(CAShapeLayerFillRule.evenOdd) == .evenOdd)
        #expect(try Self.roundTrip(CAGradientLayerType.conic) == .conic)
        #expect(try Self.roundTrip(CATransitionType.push) == .push)
        #expect(try Self.roundTrip(CAMediaTimingFunctionName.easeOut) == .easeOut)
    }

    /// Each value is written as the scene format spells it (docs/SCENE-FORMAT.md, "Values").
    @Test func valuesEncodeInTheSceneFormatsSpelling() throws {
        #expect(try Self.json(CGColor(red: 1, green: 0.5, blue: 0, alpha: 0.25)) == "[1,0.5,0,0.25]")
        #expect(try Self.json(CGColor(gray: 0.5, alpha: 1)) == "[0.5,1]")
        #expect(try Self.json(CATransform3DIdentity) == "[1,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1]")
        #expect(try Self.json(CGAffineTransform(a: 1, b: 2, c: 3, d: 4, tx: 5, ty: 6)) == "[1,2,3,4,5,6]")
        #expect(try Self.json(CAMediaTimingFunction(name: .easeIn)) == #""easeIn""#)
        // Named by its control points, whichever way it was made (docs/BEHAVIOUR.md B1 points).
        #expect(try Self.json(CAMediaTimingFunction(controlPoints: 0.42, 0, 0.58, 1)) == #""easeInEaseOut""#)
        #expect(try Self.json(CAMediaTimingFunction(controlPoints: 0.2, 0.1, 0.3, 0.9)) == "[0.2,0.1,0.3,0.9]")
        #expect(try Self.json(CACornerMask([.layerMaxXMaxYCorner, .layerMinXMinYCorner])) == #"["layerMinXMinYCorner","layerMaxXMaxYCorner"]"#)
        #expect(try Self.json(CAEdgeAntialiasingMask.layerBottomEdge) == #"["layerBottomEdge"]"#)
        #expect(try Self.json(CALayerContentsGravity.resizeAspect) == #""resizeAspect""#)
        #expect(try Self.json(CAShapeLayerFillRule.evenOdd) == #""even-odd""#)
        // Decoding also takes the format's other simple spellings.
        #expect(try Self.decode(CGColor.self, ##""#ff8000""##) == CGColor(red: 1, green: 128.0 / 255, blue: 0, alpha: 1))
        #expect(try Self.decode(CGColor.self, #""white""#) == CGColor(gray: 1, alpha: 1))
        #expect(try Self.decode(CGColor.self, "[0, 0, 1]") == CGColor(red: 0, green: 0, blue: 1, alpha: 1))
        #expect(try Self.decode(CACornerMask.self, "3") == [.layerMinXMinYCorner, .layerMaxXMinYCorner])
    }

    /// The pieces compose: JSONEncoder's output for each value, pasted into a scene file, is
    /// read by the scene reader as the same value.
    @Test func encodedValuesAreReadBackByTheSceneReader() throws {
        let bg = CGColor(red: 0.2, green: 0.4, blue: 0.6, alpha: 0.8)
        let border = CGColor(gray: 0.3, alpha: 1)
        let t = CATransform3DRotate(CATransform3DMakeTranslation(10, 20, 0), 0.5, 0, 0, 1)
        let affine = CGAffineTransform(a: 1, b: 0.5, c: -0.25, d: 1, tx: 3, ty: 4)
        let corners: CACornerMask = [.layerMaxXMinYCorner]
        let edges: CAEdgeAntialiasingMask = [.layerTopEdge, .layerBottomEdge]
        let tf = CAMediaTimingFunction(controlPoints: 0.3, 0.2, 0.1, 1)
        // Foundation's own Codable geometry: [x, y], [width, height], [[x, y], [width, height]].
        let bounds = CGRect(x: 1, y: 2, width: 30, height: 40), position = CGPoint(x: 5.5, y: 6), offset = CGSize(width: 0, height: -3)
        #expect(try Self.json(bounds) == "[[1,2],[30,40]]")
        let root = """
            {"bounds": \(try Self.json(bounds)), "position": \(try Self.json(position)), "shadowOffset": \(try Self.json(offset)),
             "backgroundColor": \(try Self.json(bg)), "borderColor": \(try Self.json(border)),
             "transform": \(try Self.json(t)), "sublayerTransform": {"affine": \(try Self.json(affine))},
             "maskedCorners": \(try Self.json(corners)), "edgeAntialiasingMask": \(try Self.json(edges)),
             "contentsGravity": \(try Self.json(CALayerContentsGravity.topLeft)), "fillMode": \(try Self.json(CAMediaTimingFillMode.backwards)),
             "animations": [{"key": "fade", "class": "CABasicAnimation", "keyPath": "opacity", "toValue": 0,
                             "timingFunction": \(try Self.json(tf))}]}
            """
        let l = try loadScene(doc(root: root)).rootLayer
        #expect(l.bounds == bounds && l.position == position && l.shadowOffset == offset)
        #expect(l.backgroundColor == bg && l.borderColor == border)
        #expect(l.transform == t && l.sublayerTransform == CATransform3DMakeAffineTransform(affine))
        #expect(l.maskedCorners == corners && l.edgeAntialiasingMask == edges)
        #expect(l.contentsGravity == .topLeft && l.fillMode == .backwards)
        #expect(l.animation(forKey: "fade")?.timingFunction == tf)
        #expect(problems(doc(root: #"{"bounds": [[0, 0], [1]]}"#)).map(\.description)
                == ["root.bounds[1] (line 1): expected a size [width, height], found an array of 1 values"])
    }

    @Test func badLoneValuesAreDecodingErrors() {
        let cases: [(any Decodable.Type, String)] = [
            (CATransform3D.self, "[1, 2, 3]"), (CATransform3D.self, "[" + Array(repeating: "0", count: 17).joined(separator: ",") + "]"),
            (CGAffineTransform.self, "[1, 2, 3, 4, 5]"), (CGAffineTransform.self, "[1, 2, 3, 4, 5, 6, 7]"),
            (CGColor.self, "[1]"), (CGColor.self, "[1, 2, 3, 4, 5]"), (CGColor.self, ##""#12""##), (CGColor.self, #"{"red": 1}"#),
            (CAMediaTimingFunction.self, #""bouncy""#), (CAMediaTimingFunction.self, "[1, 2]"), (CAMediaTimingFunction.self, "true"),
            (CACornerMask.self, #"["layerTopCorner"]"#), (CACornerMask.self, "16"), (CACornerMask.self, "-1"),
            (CAEdgeAntialiasingMask.self, #"[1]"#), (CALayerContentsGravity.self, "3"),
        ]
        for (type, text) in cases {
            #expect(throws: DecodingError.self, "\(type) from \(text)") { _ = try JSONDecoder().decode(type, from: Data(text.utf8)) }
        }
        // An option set with bits the format cannot name is not silently cut down.
        #expect(throws: EncodingError.self) { _ = try JSONEncoder().encode(CACornerMask(rawValue: 0x1F)) }
    }

    // MARK: Layers and animations

    /// `CALayer.encode(to:)` writes exactly the layer object `SceneFile.encode` writes as `root`.
    @Test func aLayerEncodedWithJSONEncoderIsTheSceneFilesLayerObject() throws {
        let tree = SceneRoundTripTests.makeTree()
        let file = try SceneFile.encode(root: tree, size: CGSize(width: 160, height: 120), scale: 1, duration: 3,
                                        framesPerSecond: 30, imageDirectory: nil)
        let fileRoot = try #require((try Self.object(String(decoding: file, as: UTF8.self)) as? NSDictionary)?["root"] as? NSObject)
        let encoded = try Self.object(Self.json(tree))
        #expect(encoded.isEqual(fileRoot))
        // Nested in a caller's own Encodable value, too.
        struct Holder: Encodable { var layers: [CALayer] }
        let held = try #require((try Self.object(Self.json(Holder(layers: [tree]))) as? NSDictionary)?["layers"] as? NSArray)
        #expect((held[0] as? NSObject)?.isEqual(fileRoot) == true)
    }

    /// An animation encoded on its own is the format's animation object; its values are typed
    /// by its key path (`fillColor` exists on CAShapeLayer only).
    @Test func anAnimationEncodedAloneIsTheFormatsAnimationObject() throws {
        let tint = CAKeyframeAnimation(keyPath: "fillColor")
        tint.values = [CGColor(red: 1, green: 0, blue: 0, alpha: 1), CGColor(gray: 0.5, alpha: 1)]
        tint.keyTimes = [0, 1]
        tint.duration = 2
        let move = CABasicAnimation(keyPath: "position")
        move.fromValue = CGPoint(x: 1, y: 2)
        move.toValue = CGPoint(x: 30, y: 40)
        let group = CAAnimationGroup()
        group.animations = [move]
        group.repeatCount = .infinity
        let tintJSON = try Self.json(tint)
        #expect(try Self.object(tintJSON).isEqual(Self.object(
            #"{"class": "CAKeyframeAnimation", "keyPath": "fillColor", "duration": 2, "values": [[1, 0, 0, 1], [0.5, 1]], "keyTimes": [0, 1]}"#)))
        let root = """
            {"class": "CAShapeLayer", "bounds": [0, 0, 10, 10], "animations": [
              \(tintJSON.replacingOccurrences(of: "{", with: #"{"key": "tint", "#, options: [.anchored])),
              \(try Self.json(group).replacingOccurrences(of: "{", with: #"{"key": "group", "#, options: [.anchored]))]}
            """
        let l = try loadScene(doc(root: root)).rootLayer
        let back = try #require(l.animation(forKey: "tint") as? CAKeyframeAnimation)
        #expect(back.values?.compactMap { $0 as? CGColor } == tint.values?.compactMap { $0 as? CGColor } && back.duration == 2)
        let g = try #require(l.animation(forKey: "group") as? CAAnimationGroup)
        let m = try #require(g.animations?.first as? CABasicAnimation)
        #expect(g.repeatCount == .infinity && m.toValue as? CGPoint == CGPoint(x: 30, y: 40))
    }

    /// A live tree with every layer and animation class: JSONEncoder → JSONDecoder → the same
    /// pixels as the tree itself, at two times while it animates.
    @Test func liveTreeThroughJSONEncoderAndJSONDecoderDrawsTheSameFrames() throws {
        let swift = LoadedScene(rootLayer: SceneRoundTripTests.makeTree(), size: CGSize(width: 160, height: 120),
                                scale: 2, duration: 3, framesPerSecond: 24)
        // Encoded before the Swift frames are drawn and decoded after them (the timing
        // engine's clock per thread only moves forward: one scene start to finish at a time).
        let data = try JSONEncoder().encode(swift)
        let times: [CFTimeInterval] = [0.4, 1.1]
        let a = try renderFrames(swift, times: times)
        let back = try JSONDecoder().decode(LoadedScene.self, from: data)
        #expect(back.size == swift.size && back.scale == 2 && back.duration == 3 && back.framesPerSecond == 24)
        let b = try renderFrames(back, times: times)
        for k in times.indices { #expect(differingPixels(a[k], b[k]) == 0, "t = \(times[k])") }
        #expect(differingPixels(a[0], a[1]) > 100, "the tree animates")
    }

    /// The bundled demo (image contents, a transition, scheduled transactions) the same way;
    /// images go through `userInfo[.sceneDirectory]`.
    @Test func demoSceneThroughJSONEncoderAndJSONDecoderDrawsTheSameFrames() throws {
        let dir = try makeTempDir("codable-demo")
        let swift = DemoScene.makeScene()
        let encoder = JSONEncoder()
        encoder.userInfo[.sceneDirectory] = dir
        let data = try encoder.encode(swift)
        #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("picture.png").path))
        // During the implicit animation (0.5–1.5 s) and mid-push (1.5–2.1 s).
        let times: [CFTimeInterval] = [0.8, 1.8]
        let a = try renderFrames(swift, times: times)
        let decoder = JSONDecoder()
        decoder.userInfo[.sceneDirectory] = dir
        let back = try decoder.decode(LoadedScene.self, from: data)
        #expect(back.transactions.count == 2)
        let b = try renderFrames(back, times: times)
        for k in times.indices { #expect(differingPixels(a[k], b[k]) == 0, "t = \(times[k])") }
    }

    @Test func jsonEncoderOutputPassesSceneFileValidate() throws {
        let dir = try makeTempDir("codable-validate")
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        encoder.userInfo[.sceneDirectory] = dir
        let url = dir.appendingPathComponent("scene.json")
        try encoder.encode(DemoScene.makeScene()).write(to: url)
        #expect(SceneFile.validate(contentsOf: url) == [])
    }

    // MARK: Errors

    @Test func aDecodingProblemNamesItsJSONPath() throws {
        let bad = doc(root: #"{"bounds": [0, 0, 10, 10], "sublayers": [{"opacity": "high"}, {"class": "CAShapeLayer", "lineCap": "pointy"}]}"#)
        do {
            _ = try Self.decode(LoadedScene.self, bad)
            Issue.record("a bad scene decoded")
        } catch DecodingError.dataCorrupted(let context) {
            #expect(context.debugDescription.contains("root.sublayers[0].opacity: expected a number, found a string"), "\(context.debugDescription)")
            let e = try #require(context.underlyingError as? SceneLoadError)
            #expect(e.problems.map(\.path) == ["root.sublayers[0].opacity", "root.sublayers[1].lineCap"])
            #expect(e.problems.allSatisfy { $0.line == nil }, "a Decoder knows no lines")
        }
        // Inside a caller's own Decodable type the coding path says where the scene is.
        struct Job: Decodable { var output: String; var scene: LoadedScene }
        do {
            _ = try Self.decode(Job.self, #"{"output": "a.mp4", "scene": \#(bad)}"#)
            Issue.record("a bad scene decoded")
        } catch DecodingError.dataCorrupted(let context) {
            #expect(context.codingPath.map(\.stringValue) == ["scene"])
            #expect(context.debugDescription.contains("root.sublayers[1].lineCap"))
        }
    }

    @Test func imagesNeedTheSceneDirectoryBothWays() throws {
        let layer = CALayer()
        layer.name = "photo"
        layer.frame = CGRect(x: 0, y: 0, width: 16, height: 16)
        layer.contents = DemoScene.makePicture(side: 8)
        #expect {
            _ = try JSONEncoder().encode(layer)
        } throws: { error in
            guard case EncodingError.invalidValue(_, let context) = error else { return false }
            return (context.underlyingError as? SceneEncodingError)?.path == "layer.contents"
        }
        let dir = try makeTempDir("codable-images")
        let text = try Self.json(LoadedScene(rootLayer: layer, size: CGSize(width: 16, height: 16), duration: 1, framesPerSecond: 30), directory: dir)
        #expect(text.contains(#""contents":"photo.png""#))
        do {
            _ = try Self.decode(LoadedScene.self, text)
            Issue.record("images decoded without a folder")
        } catch DecodingError.dataCorrupted(let context) {
            #expect(context.debugDescription.contains("root.contents") && context.debugDescription.contains("sceneDirectory"))
        }
        let decoder = JSONDecoder()
        decoder.userInfo[.sceneDirectory] = dir
        let back = try decoder.decode(LoadedScene.self, from: Data(text.utf8))
        #expect((back.rootLayer.contents as? CGImage).map(rgbaBytes) == rgbaBytes(DemoScene.makePicture(side: 8)))
    }

    @Test func whatTheFormatCannotSayIsAnEncodingErrorWithItsPath() {
        let root = CALayer()
        root.addSublayer(CALayer())
        root.addSublayer(CATiledLayer())
        #expect {
            _ = try JSONEncoder().encode(root)
        } throws: { error in
            guard case EncodingError.invalidValue(_, let context) = error else { return false }
            return (context.underlyingError as? SceneEncodingError)?.path == "layer.sublayers[1]"
        }
    }

    /// Hostile nesting is refused with an error, never a crash: within JSONDecoder's own
    /// limit the scene parser's depth limit applies (maxJSONDepth, 304 by default).
    @Test func deeplyNestedJSONIsADecodingError() {
        for depth in [400, 100_000] {
            let deep = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
            #expect(throws: DecodingError.self, "depth \(depth)") {
                _ = try Self.decode(LoadedScene.self, doc(extra: #""x-deep": \#(deep)"#))
            }
        }
    }
}
