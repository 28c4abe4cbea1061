import Testing
import Foundation

/// `CAEmitterLayer` in scene files (docs/SCENE-FORMAT.md, "Emitter layers"): cells and
/// sub-cells with Apple's property names, images by path; the confetti example renders.
@Suite struct EmitterSceneTests {
    static var confetti: URL { Repo.scenes.appendingPathComponent("examples/confetti.json") }

    @Test func confettiExampleLoadsWithItsCellsAndSubCells() throws {
        let s = try SceneFile.load(contentsOf: Self.confetti)
        let e = try #require(s.rootLayer.sublayers?.first as? CAEmitterLayer)
        #expect(e.emitterShape == .line && e.emitterMode == .outline && e.renderMode == .oldestFirst && e.seed == 42)
        #expect(e.emitterPosition == CGPoint(x: 160, y: -10) && e.emitterSize == CGSize(width: 320, height: 0))
        let cells = try #require(e.emitterCells)
        #expect(cells.map(\.name) == ["red", "yellow", "rocket"])
        #expect(cells[0].birthRate == 25 && cells[0].contents is CGImage && cells[0].color?.rgba.red == CGFloat(0xf2) / 255)
        #expect(cells[2].emitterCells?.first?.name == "spark" && cells[2].emitterCells?.first?.alphaSpeed == -1.5)
    }

    /// The example draws particles (frame 2 differs from the empty background of frame 0),
    /// and frame 2 rendered alone equals frame 2 after frames 0…1.9 (deterministic).
    @Test func confettiRendersDeterministically() throws {
        let a = try SceneFile.load(contentsOf: Self.confetti)
        let sequential = try renderFrames(a, times: (0...20).map { Double($0) / 10 })
        let b = try SceneFile.load(contentsOf: Self.confetti)
        let direct = try renderFrames(b, times: [2])
        #expect(rgbaBytes(sequential[20]) == rgbaBytes(direct[0]))
        #expect(differingPixels(sequential[0], sequential[20]) > 500)
    }

    /// `SceneFile.encode` writes emitter layers with their cells and sub-cells (images as files
    /// named after the cells): the written confetti scene loads back to the same model, writes
    /// the same JSON again, and renders the same frame.
    @Test func confettiRoundTripsThroughTheWriter() throws {
        let original = try SceneFile.load(contentsOf: Self.confetti)
        let dir = try makeTempDir("confetti")
        let data = try SceneFile.encode(original, imageDirectory: dir)
        let url = dir.appendingPathComponent("scene.json")
        try data.write(to: url)
        let reloaded = try SceneFile.load(contentsOf: url)
        let a = try #require(original.rootLayer.sublayers?.first as? CAEmitterLayer)
        let b = try #require(reloaded.rootLayer.sublayers?.first as? CAEmitterLayer)
        #expect(b.emitterShape == a.emitterShape && b.emitterMode == a.emitterMode && b.renderMode == a.renderMode)
        #expect(b.seed == a.seed && b.emitterPosition == a.emitterPosition && b.emitterSize == a.emitterSize)
        let ca = try #require(a.emitterCells), cb = try #require(b.emitterCells)
        #expect(cb.map(\.name) == ca.map(\.name))
        for (x, y) in zip(ca, cb) {
            #expect(x.birthRate == y.birthRate && x.lifetime == y.lifetime && x.velocity == y.velocity && x.spinRange == y.spinRange)
            #expect(x.color?.components == y.color?.components && (y.contents is CGImage) == (x.contents is CGImage))
            #expect(x.emitterCells?.map(\.name) == y.emitterCells?.map(\.name))
            #expect(x.emitterCells?.first?.alphaSpeed == y.emitterCells?.first?.alphaSpeed)
        }
        #expect(try SceneFile.encode(reloaded, imageDirectory: try makeTempDir("confetti2")) == data)
        let fa = try renderFrames(original, times: [2])
        let fb = try renderFrames(reloaded, times: [2])
        #expect(rgbaBytes(fa[0]) == rgbaBytes(fb[0]))
        #expect(String(decoding: data, as: UTF8.self).contains("\"emitterCells\""))
    }

    @Test func emitterProblemsNameTheirPaths() {
        let root = ##"{"class": "CAEmitterLayer", "emitterShape": "blob", "emitterCells": [{"birthRate": "many", "spinn": 1}, 5, {"emitterCells": [{"contents": "missing.png"}]}]}"##
        let p = problems(doc(root: root)).map { "\($0.path): \($0.message)" }
        #expect(p.contains { $0.hasPrefix("root.emitterShape: \"blob\" is not one of") }, "\(p)")
        #expect(p.contains { $0.hasPrefix("root.emitterCells[0].birthRate: expected a number") }, "\(p)")
        #expect(p.contains { $0.hasPrefix("root.emitterCells[0].spinn: unknown field for an emitter cell") }, "\(p)")
        #expect(p.contains { $0.hasPrefix("root.emitterCells[1]: expected an emitter cell object") }, "\(p)")
        #expect(p.contains { $0.hasPrefix("root.emitterCells[2].emitterCells[0].contents: image file \"missing.png\" not found") }, "\(p)")
    }

    /// Animations of `emitterCells.<name>.<property>` key paths load, typed by the cell
    /// property (a number, a colour), and an unknown cell property is a problem.
    @Test func cellKeyPathAnimationsLoad() throws {
        let root = ##"""
        {"class": "CAEmitterLayer", "emitterCells": [{"name": "spark", "birthRate": 10}], "animations": [
          {"key": "rate", "class": "CABasicAnimation", "keyPath": "emitterCells.spark.birthRate", "fromValue": 0, "toValue": 40, "duration": 1},
          {"key": "tint", "class": "CABasicAnimation", "keyPath": "emitterCells.spark.color", "toValue": "#ff0000", "duration": 1}]}
        """##
        let s = try loadScene(doc(root: root))
        let e = try #require(s.rootLayer as? CAEmitterLayer)
        let rate = try #require(e.animation(forKey: "rate") as? CABasicAnimation)
        #expect(rate.keyPath == "emitterCells.spark.birthRate" && (rate.toValue as? Double) == 40)
        #expect(e.animation(forKey: "tint") is CABasicAnimation)
        let bad = ##"{"class": "CAEmitterLayer", "animations": [{"class": "CABasicAnimation", "keyPath": "emitterCells.spark.sparkle", "toValue": 1}]}"##
        #expect(problems(doc(root: bad)).contains { $0.message.contains("unknown key path") })
    }

    /// Sub-cells nested deeper than the simulation goes are a problem, not a silent cut.
    @Test func deepCellNestingIsAProblem() {
        var cell = #"{"birthRate": 1}"#
        for _ in 0..<12 { cell = #"{"birthRate": 1, "emitterCells": [\#(cell)]}"# }
        let p = problems(doc(root: #"{"class": "CAEmitterLayer", "emitterCells": [\#(cell)]}"#)).map { "\($0.path): \($0.message)" }
        #expect(p.contains { $0.contains("nested deeper than") }, "\(p)")
    }
}
