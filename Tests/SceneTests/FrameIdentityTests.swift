import Testing
import Foundation
import CADemoScenes

/// Refactoring guard (issue 16, "must show"): the bundled demo's every frame and frames of every
/// stress scene hash to the values recorded in `FrameHashes/llvmpipe.tsv` before the renderer's
/// restructuring, so a change meant to move code around cannot change a pixel unnoticed.
///
/// The recorded hashes are Mesa llvmpipe's (the renderer on CI and on GPU-less servers); another
/// GL driver rasterises edges differently, so elsewhere the test only checks that frames render.
/// A change that is meant to alter pixels re-records them:
/// `CA_WRITE_FRAME_HASHES=1 swift test --filter FrameIdentityTests`, and the commit says why.
@Suite struct FrameIdentityTests {
    static let hashFile = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("FrameHashes/llvmpipe.tsv")

    /// Stress-scene frames checked: the first, the second (the first incremental one) and one
    /// half a second in, where every animation is mid-flight.
    static let stressTimes: [CFTimeInterval] = [0, 1.0 / 30, 0.5]

    /// FNV-1a (64-bit) of the frame's premultiplied RGBA bytes and its size.
    static func hash(_ img: CGImage) -> String {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in rgbaBytes(img) { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01b3 }
        return "\(img.width)x\(img.height):" + String(h, radix: 16)
    }

    static func frames(_ scene: LoadedScene, times: [CFTimeInterval], name: String,
                       into out: inout [(String, String)], renderer: inout String) throws {
        let r = try CARenderer(offscreenSize: scene.size, scale: scene.scale, options: .init(backend: .openGL))
        renderer = r.contextInfo["GL_RENDERER"] ?? ""
        r.layer = scene.rootLayer
        for (i, t) in times.enumerated() {
            scene.applyScheduledChanges(upTo: t)
            r.beginFrame(atTime: t)
            try r.renderChecked()
            r.endFrame()
            out.append(("\(name)/\(i)", hash(try r.makeImage())))
            // The frame format's contract holds for every frame the builder hands the backend.
            #expect(r.lastFrame?.problems ?? [] == [], "\(name) frame \(i)")
        }
    }

    @Test("every demo frame and the stress scenes' frames are byte-identical to the recorded ones (llvmpipe)")
    func framesMatchRecordedHashes() throws {
        var got: [(String, String)] = []
        var renderer = ""
        let demo = DemoScene.makeScene()
        let count = Int((demo.duration * demo.framesPerSecond).rounded())
        try Self.frames(demo, times: (0..<count).map { Double($0) / demo.framesPerSecond }, name: "demo",
                        into: &got, renderer: &renderer)
        for name in StressScenes.names {
            let root = try #require(StressScenes.make(named: name))
            let scene = LoadedScene(rootLayer: root, size: StressScenes.size, scale: 1, duration: 1, framesPerSecond: 30)
            try Self.frames(scene, times: Self.stressTimes, name: name, into: &got, renderer: &renderer)
        }
        #expect(got.count == count + StressScenes.names.count * Self.stressTimes.count)
        let text = got.map { "\($0.0)\t\($0.1)" }.joined(separator: "\n") + "\n"
        if ProcessInfo.processInfo.environment["CA_WRITE_FRAME_HASHES"] == "1" {
            try text.write(to: Self.hashFile, atomically: true, encoding: .utf8)
            return
        }
        guard renderer.contains("llvmpipe") else {
            print("FrameIdentityTests: GL_RENDERER is \(renderer), not llvmpipe; recorded hashes not compared")
            return
        }
        let recorded = try String(contentsOf: Self.hashFile, encoding: .utf8)
            .split(separator: "\n").map { $0.split(separator: "\t").map(String.init) }
        let expected = Dictionary(uniqueKeysWithValues: recorded.compactMap { $0.count == 2 ? ($0[0], $0[1]) : nil })
        #expect(expected.count == got.count, "the recorded list covers every frame")
        let differing = got.filter { expected[$0.0] != $0.1 }.map(\.0)
        #expect(differing.isEmpty, "frames that differ from the recorded ones: \(differing.prefix(20))")
    }
}
