import Testing
import Foundation

/// "Static subtrees cost no CPU work per frame beyond what changed" (issue 4): a frame with no
/// commit since the last one and nothing animating is reused as it is.
@Suite struct StaticFrameTests {
    func scene() -> (CALayer, CALayer) {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 60, height: 40)
        let box = CALayer()
        box.frame = CGRect(x: 10, y: 10, width: 20, height: 20)
        box.backgroundColor = solid(0, 0, 1)
        root.addSublayer(box)
        return (root, box)
    }

    @Test func anUnchangedStaticTreeReusesTheLastFrame() throws {
        let (root, _) = scene()
        let r = try CARenderer(offscreenSize: CGSize(width: 60, height: 40))
        r.layer = root
        r.beginFrame(atTime: 0); try r.renderChecked(); r.endFrame()
        #expect(!r.statistics.reusedFrame)
        #expect(r.statistics.drawCalls > 0)
        r.beginFrame(atTime: 1); try r.renderChecked(); r.endFrame()
        #expect(r.statistics.reusedFrame)
        #expect(r.statistics.drawCalls == 0 && r.statistics.layersVisited == 0)
        #expect(try r.makeImage().rgba(20, 20) == RGBA(0, 0, 255))
    }

    @Test func aCommitOrAnAnimationRebuildsTheFrame() throws {
        let (root, box) = scene()
        let r = try CARenderer(offscreenSize: CGSize(width: 60, height: 40))
        r.layer = root
        r.beginFrame(atTime: 0); try r.renderChecked(); r.endFrame()
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        box.backgroundColor = solid(1, 0, 0)
        CATransaction.commit()
        r.beginFrame(atTime: 1); try r.renderChecked(); r.endFrame()
        #expect(!r.statistics.reusedFrame)
        #expect(try r.makeImage().rgba(20, 20) == RGBA(255, 0, 0))
        let fade = CABasicAnimation(keyPath: "opacity")
        fade.fromValue = 1.0
        fade.toValue = 0.0
        fade.duration = 10
        box.add(fade, forKey: "fade")
        r.beginFrame(atTime: 2); try r.renderChecked(); r.endFrame()
        r.beginFrame(atTime: 7); try r.renderChecked(); r.endFrame()
        #expect(!r.statistics.reusedFrame)   // animating: every frame is drawn
        let mid = try r.makeImage().rgba(20, 20)
        #expect(mid.isClose(to: RGBA(128, 0, 0, 128), tolerance: 3), "\(mid)")   // premultiplied, transparent clear
    }
}
