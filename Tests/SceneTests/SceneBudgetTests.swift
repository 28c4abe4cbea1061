import Testing
import Foundation

/// Issue 17 item 5: amplification that stays inside every single limit but not in sum — ten
/// 8192² PNGs (5.1 GB), ten nested isolated 8192² layers (7.4 GB), 600 animations × 10,000
/// keyframes (3.1 GB). Whole-file budgets (`SceneLimits.maxTotal…`, `maxOffscreenPixels`) stop
/// each with a problem naming the budget. The cases are the issue's, scaled down: a budget
/// lowered to match, the same rule; what is counted is work and bytes, never time.
@Suite struct SceneBudgetTests {
    @Test func defaultsAreDocumented() {
        let l = SceneLimits()
        #expect(l.maxTotalImagePixels == 128 << 20)
        #expect(l.maxTotalKeyframes == 1_000_000)
        #expect(l.maxTotalPathElements == 1_000_000)
        #expect(l.maxOffscreenPixels == 256 << 20)
        // The issue's files fit every single limit but not the budgets.
        #expect(10 * 8192 * 8192 > l.maxTotalImagePixels && 8192 * 8192 <= l.maxImagePixels)
        #expect(600 * 10_000 > l.maxTotalKeyframes && 10_000 <= l.maxKeyframes && 600 <= l.maxAnimations)
        #expect(10 * 8192 * 8192 > l.maxOffscreenPixels && 8192 <= l.maxSize)
    }

    @Test("ten distinct images, each within maxImagePixels, go over maxTotalImagePixels together")
    func manyImagesOverTheTotal() throws {
        let folder = try makeTempDir("budget-images")
        let png = try #require(DemoScene.makePicture(side: 8).pngData())
        var layers: [String] = []
        for i in 0..<10 {
            // Distinct files (the same file twice is decoded once and counted once).
            try png.write(to: folder.appendingPathComponent("p\(i).png"))
            layers.append(#"{"contents": "p\#(i).png"}"#)
        }
        let json = doc(root: #"{"sublayers": [\#(layers.joined(separator: ","))]}"#)
        var limits = SceneLimits()
        limits.maxTotalImagePixels = 9 * 64   // nine 8×8 images fit, the tenth does not
        let p = problems(json, base: folder, options: .init(limits: limits))
        #expect(p.map(\.message) == ["more than 576 image pixels in the whole file (limit maxTotalImagePixels)"])
        #expect(p.first?.path == "root.sublayers[9].contents")
        limits.maxTotalImagePixels = 10 * 64
        #expect(problems(json, base: folder, options: .init(limits: limits)) == [])
        // The same image used ten times is one image.
        let same = doc(root: #"{"sublayers": [\#(Array(repeating: #"{"contents": "p0.png"}"#, count: 10).joined(separator: ","))]}"#)
        limits.maxTotalImagePixels = 64
        #expect(problems(same, base: folder, options: .init(limits: limits)) == [])
    }

    /// `animations` animations of `keyframes` values each, on one layer.
    static func keyframeFile(animations: Int, keyframes: Int) -> String {
        let values = (0..<keyframes).map { String($0 % 2) }.joined(separator: ",")
        let anim = #"{"class": "CAKeyframeAnimation", "keyPath": "opacity", "values": [\#(values)]}"#
        return doc(root: #"{"animations": [\#(Array(repeating: anim, count: animations).joined(separator: ","))]}"#)
    }

    @Test("600 animations × 10,000 keyframes, scaled down: many animations within maxKeyframes go over maxTotalKeyframes")
    func manyKeyframeListsOverTheTotal() {
        var limits = SceneLimits()
        limits.maxKeyframes = 100
        limits.maxTotalKeyframes = 5_000
        let over = problems(Self.keyframeFile(animations: 60, keyframes: 100), options: .init(limits: limits))
        #expect(over.map(\.message) == ["more than 5000 keyframe entries in the whole file (limit maxTotalKeyframes)"])
        // The 51st animation's values are the first over the budget.
        #expect(over.first?.path.contains("animations[50]") == true, "\(over)")
        #expect(problems(Self.keyframeFile(animations: 50, keyframes: 100), options: .init(limits: limits)) == [])
    }

    @Test("many paths, each within maxPathElements, go over maxTotalPathElements together")
    func manyPathsOverTheTotal() {
        let path = "M 0 0" + String(repeating: " L 1 1", count: 99)    // 100 elements
        let layers = (0..<30).map { _ in #"{"class": "CAShapeLayer", "path": "\#(path)"}"# }.joined(separator: ",")
        var limits = SceneLimits()
        limits.maxTotalPathElements = 2_000
        let p = problems(doc(root: #"{"sublayers": [\#(layers)]}"#), options: .init(limits: limits))
        #expect(p.map(\.message) == ["more than 2000 path elements in the whole file (limit maxTotalPathElements)"])
        #expect(p.first?.path == "root.sublayers[20].path")
        limits.maxTotalPathElements = 3_000
        #expect(problems(doc(root: #"{"sublayers": [\#(layers)]}"#), options: .init(limits: limits)) == [])
    }

    /// `depth` nested layers of `side`² points, each faded as a group over its sublayer (an
    /// offscreen target each), in a `side`² frame.
    static func isolatedFile(depth: Int, side: Int) -> String {
        var layer = #"{"bounds": [0, 0, \#(side), \#(side)]}"#
        for _ in 0..<depth {
            layer = #"{"bounds": [0, 0, \#(side), \#(side)], "opacity": 0.5, "sublayers": [\#(layer)]}"#
        }
        return #"{"format": "ca-scene", "version": 1, "size": [\#(side), \#(side)], "duration": 1, "root": \#(layer)}"#
    }

    @Test("ten nested isolated frame-sized layers, scaled down, go over maxOffscreenPixels")
    func nestedIsolatedLayersOverTheBudget() {
        var limits = SceneLimits()
        // 10 targets of 64² = 40,960 pixels.
        limits.maxOffscreenPixels = 9 * 64 * 64
        let p = problems(Self.isolatedFile(depth: 10, side: 64), options: .init(limits: limits))
        #expect(p.map(\.message) == ["the layers drawn through offscreen targets need about 40960 pixels; at most 36864 are allowed (limit maxOffscreenPixels)"])
        limits.maxOffscreenPixels = 10 * 64 * 64
        #expect(problems(Self.isolatedFile(depth: 10, side: 64), options: .init(limits: limits)) == [])
        // A mask needs two targets; a layer larger than the frame counts the frame only.
        let masked = #"{"format": "ca-scene", "version": 1, "size": [64, 64], "duration": 1, "root": {"bounds": [0, 0, 10000, 10000], "mask": {"bounds": [0, 0, 8, 8]}}}"#
        limits.maxOffscreenPixels = 2 * 64 * 64 - 1
        #expect(problems(masked, options: .init(limits: limits)).map(\.message) == ["the layers drawn through offscreen targets need about 8192 pixels; at most 8191 are allowed (limit maxOffscreenPixels)"])
        limits.maxOffscreenPixels = 2 * 64 * 64
        #expect(problems(masked, options: .init(limits: limits)) == [])
    }
}
