import Testing
import Foundation

/// No silent gaps: a layer class whose content the renderer does not draw yet says so, once, the
/// first time a frame meets one with content (the rest of the frame still draws).
@Suite struct UnrenderedContentWarningTests {
    func warnings(for layer: CALayer) throws -> [String] {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 40, height: 40)
        layer.frame = root.bounds
        root.addSublayer(layer)
        return try RenderDiagnostics.capture { try RenderHarness.render(root, size: root.bounds.size) }.1
    }

    @Test func replicatorEmitterAndTiledLayersSayWhatIsNotDrawn() throws {
        let r = CAReplicatorLayer()
        r.instanceCount = 8
        r.addSublayer(CALayer())
        // Its copies are drawn now (docs/BEHAVIOUR.md R1): nothing to warn about.
        #expect(try warnings(for: r).allSatisfy { !$0.contains("CAReplicatorLayer") })
        // Its tiles are drawn now (docs/BEHAVIOUR.md P8): nothing to warn about.
        #expect(try warnings(for: CATiledLayer()).allSatisfy { !$0.contains("CATiledLayer") })
    }

    @Test func layersWithNothingMissingDoNotWarn() throws {
        let r = CAReplicatorLayer()   // one instance: exactly what is drawn
        #expect(try warnings(for: r).allSatisfy { !$0.contains("CAReplicatorLayer") })
        #expect(try warnings(for: CATextLayer()).allSatisfy { !$0.contains("CATextLayer") })
        // A text layer with a string draws it (docs/TEXT.md): no "not drawn" warning any more.
        let t = CATextLayer()
        t.string = "Hello"
        #expect(try warnings(for: t).allSatisfy { !$0.contains("CATextLayer") })
        #expect(try warnings(for: CALayer()).isEmpty)
    }
}
