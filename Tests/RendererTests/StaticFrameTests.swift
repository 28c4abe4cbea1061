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

/// Only the animated leaves are looked at when nothing was committed since the last frame.
@Suite struct PatchedFrameTests {
    /// 50 static boxes and one animated leaf.
    func scene() -> (CALayer, CALayer) {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 100, height: 60)
        for i in 0..<50 {
            let l = CALayer()
            l.frame = CGRect(x: CGFloat(i % 10) * 10, y: CGFloat(i / 10) * 10, width: 8, height: 8)
            l.backgroundColor = solid(0, 0, 1)
            l.cornerRadius = 2
            root.addSublayer(l)
        }
        let mover = CALayer()
        mover.frame = CGRect(x: 0, y: 50, width: 10, height: 10)
        mover.backgroundColor = solid(1, 0, 0)
        mover.borderWidth = 1
        mover.borderColor = solid(0, 0, 0)
        root.addSublayer(mover)
        let move = CABasicAnimation(keyPath: "position.x")
        move.fromValue = 5.0
        move.toValue = 95.0
        move.duration = 1
        mover.add(move, forKey: "move")
        return (root, mover)
    }

    @Test func onlyTheAnimatedLeafIsReEmittedAndThePixelsMatchAFullBuild() throws {
        let (root, _) = scene()
        let r = try CARenderer(offscreenSize: CGSize(width: 100, height: 60))
        r.clearColor = solid(1, 1, 1)
        r.layer = root
        r.beginFrame(atTime: 0); try r.renderChecked(); r.endFrame()
        #expect(r.statistics.patchedLayers == 0)       // first frame: a full build
        #expect(r.statistics.layersVisited == 52)
        var patched: [CGImage] = []
        for t in [0.25, 0.5] {
            r.beginFrame(atTime: t); try r.renderChecked(); r.endFrame()
            #expect(r.statistics.patchedLayers == 1)
            #expect(r.statistics.layersVisited == 1)
            patched.append(try r.makeImage())
        }
        // The red box moved: at t = 0.5 its centre is at x = 50.
        #expect(patched[1].rgba(50, 55) == RGBA(255, 0, 0))
        #expect(patched[1].rgba(5, 55) == RGBA(255, 255, 255))
        // A fresh renderer building whole frames of the same tree at the same time agrees.
        let full = try CARenderer(offscreenSize: CGSize(width: 100, height: 60))
        full.clearColor = solid(1, 1, 1)
        full.layer = root
        full.beginFrame(atTime: 0.5); try full.renderChecked(); full.endFrame()
        #expect(full.statistics.patchedLayers == 0)
        #expect(Golden.compare(try full.makeImage(), patched[1], threshold: 0).fraction == 0)
    }

    @Test func theEndStateIsDrawnOnceAndThenTheFrameIsReused() throws {
        let (root, _) = scene()
        let r = try CARenderer(offscreenSize: CGSize(width: 100, height: 60))
        r.clearColor = solid(1, 1, 1)
        r.layer = root
        r.beginFrame(atTime: 0); try r.renderChecked(); r.endFrame()
        r.beginFrame(atTime: 0.5); try r.renderChecked(); r.endFrame()
        r.beginFrame(atTime: 2); try r.renderChecked(); r.endFrame()   // removed on completion
        #expect(r.statistics.patchedLayers == 1)
        #expect(try r.makeImage().rgba(5, 55) == RGBA(255, 0, 0))      // back at the model value
        r.beginFrame(atTime: 3); try r.renderChecked(); r.endFrame()
        #expect(r.statistics.reusedFrame)
    }

    @Test func aCommitOrANonLeafAnimationBuildsTheWholeFrame() throws {
        let (root, mover) = scene()
        let r = try CARenderer(offscreenSize: CGSize(width: 100, height: 60))
        r.layer = root
        r.beginFrame(atTime: 0); try r.renderChecked(); r.endFrame()
        mover.backgroundColor = solid(0, 1, 0)   // a commit (implicit transaction)
        r.beginFrame(atTime: 0.1); try r.renderChecked(); r.endFrame()
        #expect(r.statistics.patchedLayers == 0)
        let spin = CABasicAnimation(keyPath: "opacity")
        spin.fromValue = 1.0; spin.toValue = 0.5; spin.duration = 1
        root.add(spin, forKey: "fade")            // the root has sublayers: not a leaf
        r.beginFrame(atTime: 0.2); try r.renderChecked(); r.endFrame()
        r.beginFrame(atTime: 0.3); try r.renderChecked(); r.endFrame()
        #expect(r.statistics.patchedLayers == 0)
        #expect(r.statistics.layersVisited == 52)
    }
}
