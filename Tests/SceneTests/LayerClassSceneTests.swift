import Testing
import Foundation

/// Scroll layers, transform layers and gradient animations in scene files (issue 21;
/// docs/SCENE-FORMAT.md "Layers").
@Suite struct LayerClassSceneTests {
    func descriptions(_ json: String) -> [String] { problems(json).map { "\($0.path): \($0.message)" } }

    static func close(_ p: [Int], _ q: [Int], _ tol: Int = 3) -> Bool { zip(p, q).allSatisfy { abs($0 - $1) <= tol } }

    /// Scenes/examples/card-carousel.json: card k stands at y-angle k·60° and the carousel turns
    /// 60° a second, so card k is the nearest when k·60° + 60°·t is a whole turn: card 0 at
    /// t = 0, card 5 at t = 1, card 3 at t = 3. The nearest covers the frame's centre (180, 120)
    /// whatever its place in the sublayer list (the transform layer keeps depth, N8).
    @Test func cardCarouselShowsTheNearestCardInFront() throws {
        let scene = try SceneFile.load(contentsOf: Repo.scenes.appendingPathComponent("examples/card-carousel.json"))
        #expect(scene.rootLayer.sublayers?.first?.sublayers?.first is CATransformLayer)
        let frames = try renderFrames(scene, times: [0, 1, 3])
        #expect(Self.close(pixel(frames[0], 180, 120), [0xeb, 0x57, 0x57, 255]), "\(pixel(frames[0], 180, 120))")
        #expect(Self.close(pixel(frames[1], 180, 120), [0x9b, 0x51, 0xe0, 255]), "\(pixel(frames[1], 180, 120))")
        #expect(Self.close(pixel(frames[2], 180, 120), [0x27, 0xae, 0x60, 255]), "\(pixel(frames[2], 180, 120))")
        // The side cards show beside the front one (the ring is drawn in 3D, not one card).
        let cards: [[Int]] = [[0xeb, 0x57, 0x57, 255], [0xf2, 0x99, 0x4a, 255], [0xf2, 0xc9, 0x4c, 255],
                              [0x27, 0xae, 0x60, 255], [0x2d, 0x9c, 0xdb, 255], [0x9b, 0x51, 0xe0, 255]]
        let seen = Set((0..<360).compactMap { x in cards.firstIndex { Self.close(pixel(frames[0], x, 120), $0) } })
        #expect(seen.isSuperset(of: [0, 1, 5]), "cards seen across the middle row at t = 0: \(seen.sorted())")
    }

    @Test func scrollLayersLoadWithTheirScrollModeAndRoundTrip() throws {
        let scene = try loadScene(doc(root: #"{"class": "CAScrollLayer", "scrollMode": "horizontally", "bounds": [30, 40, 100, 100]}"#))
        let s = try #require(scene.rootLayer as? CAScrollLayer)
        #expect(s.scrollMode == .horizontally && s.bounds.origin == CGPoint(x: 30, y: 40))
        let text = String(decoding: try SceneFile.encode(scene, imageDirectory: nil), as: UTF8.self)
        #expect(text.contains("\"CAScrollLayer\"") && text.contains("\"horizontally\""))
        let again = try loadScene(text)
        #expect((again.rootLayer as? CAScrollLayer)?.scrollMode == .horizontally)
        #expect(descriptions(doc(root: #"{"class": "CAScrollLayer", "scrollMode": "diagonally"}"#)) ==
                ["root.scrollMode: \"diagonally\" is not one of \"none\", \"vertically\", \"horizontally\", \"both\""])
    }

    /// Scenes/examples/scroll-and-gradients.json: the list scrolls by 240 points over 4 s
    /// (ease in-out: half-way, 120, at 2 s); the gradient's colours animate stop by stop.
    @Test func scrollAndGradientExampleAnimates() throws {
        let scene = try SceneFile.load(contentsOf: Repo.scenes.appendingPathComponent("examples/scroll-and-gradients.json"))
        let frames = try renderFrames(scene, times: [0, 2, 4])
        // At (60, 50) the list shows content y 30 at t = 0 (the first row, y 10…70), content y 150
        // at 2 s (the gap between rows 90…150 and 170…230: white) and y 270 at 4 s (the fourth row).
        #expect(Self.close(pixel(frames[0], 60, 50), [0xeb, 0x57, 0x57, 255]), "\(pixel(frames[0], 60, 50))")
        #expect(Self.close(pixel(frames[1], 60, 50), [255, 255, 255, 255]), "\(pixel(frames[1], 60, 50))")
        #expect(Self.close(pixel(frames[2], 60, 50), [0x27, 0xae, 0x60, 255]), "\(pixel(frames[2], 60, 50))")
        // The gradient's top stop is #203a6b at 0 s and #0b1026 at 2 s (the colors animation's
        // end, before it reverses); the row just inside the top edge shows it.
        #expect(Self.close(pixel(frames[0], 230, 21), [0x20, 0x3a, 0x6b, 255], 6), "\(pixel(frames[0], 230, 21))")
        #expect(Self.close(pixel(frames[1], 230, 21), [0x0b, 0x10, 0x26, 255], 6), "\(pixel(frames[1], 230, 21))")
    }

    @Test func gradientAnimationsTypeTheirValuesFromTheProperty() throws {
        let root = ##"{"class": "CAGradientLayer", "bounds": [0, 0, 100, 100], "animations": [{"class": "CABasicAnimation", "keyPath": "colors", "fromValue": ["#ff0000"], "toValue": [1, 2]}]}"##
        #expect(descriptions(doc(root: root)).first?.contains("toValue") == true)
    }
}
