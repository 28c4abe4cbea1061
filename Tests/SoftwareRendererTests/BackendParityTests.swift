import Testing
import Foundation
import CATestSupport

/// Issue 22 "must show": the CPU backend draws what the GL backend draws — ≤ 2/255 per channel
/// on ≥ 99.5 % of the pixels — for the bundled demo's frames, the stress scenes and the example
/// scenes. Exact equality is not the bar: GL's rasteriser decides pixel-centre ties on quad edges
/// by its own fill rule, llvmpipe interpolates varyings and blends in fixed point, and its
/// derivatives are per 2×2 quad, where the CPU backend computes them exactly per pixel.
@Suite struct BackendParityTests {
    static func renderer(_ scene: LoadedScene, _ backend: CARenderer.Backend) throws -> CARenderer {
        var o = CARenderer.Options(backend: .openGL)
        o.backend = backend
        let r = try CARenderer(offscreenSize: scene.size, scale: scene.scale, options: o)
        r.layer = scene.rootLayer
        return r
    }

    /// Renders `scene` at `times` on both backends — one scene, one renderer per backend on its
    /// root, both frames of a time drawn back to back — and records a failure naming the frame
    /// for each pair that is not within the bar. One scene for both (not one each) so that both
    /// backends draw the same backing stores: a text layer displayed once per backend could be
    /// laid out under two font configurations when another suite running in parallel installs
    /// the corpus fonts in between (it happened with the lower third beside ../shared).
    static func expectParity(_ scene: () throws -> LoadedScene, times: [CFTimeInterval], name: String) throws {
        let s = try scene()
        let renderers = try [CARenderer.Backend.openGL, .software].map { try renderer(s, $0) }
        for (r, backend) in zip(renderers, [CARenderer.Backend.openGL, .software]) {
            #expect(r.activeBackend.backend == backend)
        }
        for t in times {
            s.applyScheduledChanges(upTo: t)
            var pair: [CGImage] = []
            for r in renderers {
                r.beginFrame(atTime: t)
                try r.renderChecked()
                r.endFrame()
                pair.append(try r.makeImage())
            }
            let p = BackendParity(pair[0].rgba8Bytes, pair[1].rgba8Bytes, width: pair[0].width)
            #expect(p.passes(), "\(name) at t = \(t): \(p)")
        }
    }

    @Test("the demo's frames match on the CPU and GL backends")
    func demoFrames() throws {
        let demo = DemoScene.makeScene()
        let count = Int((demo.duration * demo.framesPerSecond).rounded())
        let times = stride(from: 0, to: count, by: 7).map { Double($0) / demo.framesPerSecond }
        try Self.expectParity({ DemoScene.makeScene() }, times: times, name: "demo")
    }

    /// Opt-in (`CA_STRESS_PARITY=1 swift test --filter BackendParityTests`): at 1920×1080 with
    /// 10,000 instances the CPU backend's debug build needs far more than CI's hour on two cores
    /// (a run was stopped after 45 minutes). The "filters" scene is among them: the CPU backend
    /// runs filter passes (`SoftwareFilter*.swift`).
    @Test("each stress scene matches on the CPU and GL backends",
          .enabled(if: ProcessInfo.processInfo.environment["CA_STRESS_PARITY"] != nil,
                   "1080p stress scenes on the debug CPU backend take too long for CI; CA_STRESS_PARITY=1 runs them"),
          arguments: StressScenes.names)
    func stressScene(_ name: String) throws {
        try Self.expectParity({
            LoadedScene(rootLayer: StressScenes.make(named: name)!, size: StressScenes.size, scale: 1, duration: 1, framesPerSecond: 30)
        }, times: [0, 0.5], name: name)
    }

    /// The example scenes, those with Core Image filters, compositing filters and background
    /// filters (`frosted-glass.json` …) included.
    static let allExamples: [String] = {
        let dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Scenes/examples")
        return ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).filter { $0.hasSuffix(".json") }.sorted()
            .map { dir.appendingPathComponent($0).path }
    }()
    static func usesFilters(_ path: String) -> Bool {
        let text = (try? String(contentsOfFile: path, encoding: .utf8)) ?? ""
        return ["\"filters\"", "\"backgroundFilters\"", "\"compositingFilter\""].contains { text.contains($0) }
    }
    static let examples = allExamples

    @Test("the example scenes include some with filters, so the parity below covers filter passes")
    func examplesIncludeFilters() {
        #expect(Self.allExamples.contains { Self.usesFilters($0) && $0.hasSuffix("frosted-glass.json") })
    }

    @Test("each example scene file matches on the CPU and GL backends", arguments: examples)
    func exampleScene(_ path: String) throws {
        try Self.expectParity({ try SceneFile.load(contentsOf: URL(fileURLWithPath: path)) }, times: [0, 0.4, 1.1],
                              name: URL(fileURLWithPath: path).lastPathComponent)
    }
}
