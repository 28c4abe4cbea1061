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
        let r = try CARenderer(offscreenSize: CGSize(width: 60, height: 40), options: .init(backend: .openGL))
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
        let r = try CARenderer(offscreenSize: CGSize(width: 60, height: 40), options: .init(backend: .openGL))
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
        let r = try CARenderer(offscreenSize: CGSize(width: 100, height: 60), options: .init(backend: .openGL))
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
        let full = try CARenderer(offscreenSize: CGSize(width: 100, height: 60), options: .init(backend: .openGL))
        full.clearColor = solid(1, 1, 1)
        full.layer = root
        full.beginFrame(atTime: 0.5); try full.renderChecked(); full.endFrame()
        #expect(full.statistics.patchedLayers == 0)
        #expect(Golden.compare(try full.makeImage(), patched[1], threshold: 0).fraction == 0)
    }

    @Test func theEndStateIsDrawnOnceAndThenTheFrameIsReused() throws {
        let (root, _) = scene()
        let r = try CARenderer(offscreenSize: CGSize(width: 100, height: 60), options: .init(backend: .openGL))
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

    @Test func aNonLeafAnimationBuildsTheWholeFrame() throws {
        let (root, mover) = scene()
        let r = try CARenderer(offscreenSize: CGSize(width: 100, height: 60), options: .init(backend: .openGL))
        r.layer = root
        r.beginFrame(atTime: 0); try r.renderChecked(); r.endFrame()
        mover.backgroundColor = solid(0, 1, 0)   // a commit (implicit transaction) of a leaf
        r.beginFrame(atTime: 0.1); try r.renderChecked(); r.endFrame()
        #expect(r.statistics.patchedLayers == 1)  // re-emitted alone (CommitPatchTests)
        let spin = CABasicAnimation(keyPath: "opacity")
        spin.fromValue = 1.0; spin.toValue = 0.5; spin.duration = 1
        root.add(spin, forKey: "fade")            // the root has sublayers: not a leaf
        r.beginFrame(atTime: 0.2); try r.renderChecked(); r.endFrame()
        r.beginFrame(atTime: 0.3); try r.renderChecked(); r.endFrame()
        #expect(r.statistics.patchedLayers == 0)
        #expect(r.statistics.layersVisited == 52)
    }
}

/// Commits that change only leaves of the last frame (a display link moving a few layers, say)
/// re-emit those leaves instead of rebuilding the tree; a parent that moved, or siblings that
/// a zPosition reorders, re-emit that subtree (`SubtreePatchTests`); changes of structure
/// build a whole frame.
/// Each case compares the pixels with a fresh renderer's full build of the same tree.
@Suite struct CommitPatchTests {
    /// 60 boxes in two groups, so a commit can change a leaf or a non-leaf.
    func scene() -> (root: CALayer, group: CALayer, leaves: [CALayer]) {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 120, height: 80)
        let group = CALayer()
        group.frame = CGRect(x: 0, y: 40, width: 120, height: 40)
        root.addSublayer(group)
        var leaves: [CALayer] = []
        for i in 0..<60 {
            let l = CALayer()
            l.frame = CGRect(x: CGFloat(i % 15) * 8, y: CGFloat((i / 15) % 2) * 20, width: 7, height: 7)
            l.backgroundColor = solid(CGFloat(i % 5) / 4, CGFloat(i % 3) / 2, 0.5)
            l.cornerRadius = 2
            (i < 30 ? root : group).addSublayer(l)
            leaves.append(l)
        }
        return (root, group, leaves)
    }

    func frame(_ r: CARenderer, _ t: Double) throws -> CGImage { try RenderHarness.frame(r, at: t) }

    /// A renderer of `root` that has drawn its first frame (a whole build).
    func drawn(_ root: CALayer) throws -> CARenderer {
        let r = try CARenderer(offscreenSize: CGSize(width: 120, height: 80), options: .init(backend: .openGL))
        r.layer = root
        _ = try frame(r, 0)
        return r
    }

    func fullBuild(_ root: CALayer) throws -> CGImage {
        let r = try CARenderer(offscreenSize: CGSize(width: 120, height: 80), options: .init(backend: .openGL))
        r.layer = root
        return try frame(r, 0)
    }

    func change(_ body: () -> Void) {
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        body()
        CATransaction.commit()
    }

    func expectSamePixels(_ a: CGImage, _ b: CGImage, sourceLocation: SourceLocation = #_sourceLocation) {
        var differing = 0
        for y in 0..<a.height { for x in 0..<a.width where a.rgba(x, y) != b.rgba(x, y) { differing += 1 } }
        #expect(differing == 0, "\(differing) pixels differ from a full build", sourceLocation: sourceLocation)
    }

    @Test func committedLeavesArePatched() throws {
        let (root, _, leaves) = scene()
        let r = try drawn(root)
        change {
            leaves[3].backgroundColor = solid(0, 0, 1)
            leaves[40].position.x += 3
            leaves[41].transform = CATransform3DMakeRotation(0.5, 0, 0, 1)
            leaves[42].cornerRadius = 0
        }
        let patched = try frame(r, 1)
        #expect(r.statistics.patchedLayers == 4, "\(r.statistics)")
        expectSamePixels(patched, try fullBuild(root))
        // The next commit after a patched frame patches again.
        change { leaves[3].backgroundColor = solid(0, 1, 0) }
        let again = try frame(r, 2)
        #expect(r.statistics.patchedLayers == 1, "\(r.statistics)")
        expectSamePixels(again, try fullBuild(root))
    }

    @Test func aMovedParentOrAReorderReEmitsASubtree() throws {
        let (root, group, leaves) = scene()
        let r = try drawn(root)
        let cases: [(String, () -> Void)] = [
            ("a non-leaf moved", { group.position.y += 2 }),
            ("a leaf's zPosition", { leaves[8].zPosition = 5 }),
        ]
        for (i, (what, body)) in cases.enumerated() {
            change(body)
            let img = try frame(r, Double(i + 1))
            #expect(r.statistics.patchedSubtrees == 1, "\(what): \(r.statistics)")
            expectSamePixels(img, try fullBuild(root))
        }
    }

    @Test func structuralCommitsBuildAWholeFrame() throws {
        let (root, _, leaves) = scene()
        let r = try drawn(root)
        let cases: [(String, () -> Void)] = [
            ("a sublayer added", { let l = CALayer(); l.frame = CGRect(x: 1, y: 1, width: 3, height: 3); l.backgroundColor = solid(0, 0, 0); leaves[5].addSublayer(l) }),
            ("a leaf removed", { leaves[7].removeFromSuperlayer() }),
            ("a leaf hidden", { leaves[9].isHidden = true }),
            ("a leaf given a shadow", { leaves[10].shadowOpacity = 1 }),
        ]
        for (i, (what, body)) in cases.enumerated() {
            change(body)
            let img = try frame(r, Double(i + 1))
            #expect(r.statistics.patchedLayers == 0 && !r.statistics.reusedFrame, "\(what): \(r.statistics)")
            expectSamePixels(img, try fullBuild(root))
        }
    }

    /// Two renderers of one tree each patch what changed since their own last frame.
    @Test func eachRendererCatchesUpOnCommitsSinceItsOwnLastFrame() throws {
        let (root, _, leaves) = scene()
        let a = try CARenderer(offscreenSize: CGSize(width: 120, height: 80), options: .init(backend: .openGL))
        let b = try CARenderer(offscreenSize: CGSize(width: 120, height: 80), options: .init(backend: .openGL))
        a.layer = root; b.layer = root
        _ = try frame(a, 0); _ = try frame(b, 0)
        change { leaves[1].backgroundColor = solid(1, 1, 0) }
        _ = try frame(a, 1)
        change { leaves[2].backgroundColor = solid(0, 1, 1) }
        _ = try frame(a, 2)
        let late = try frame(b, 2)
        #expect(b.statistics.patchedLayers == 2, "\(b.statistics)")
        expectSamePixels(late, try fullBuild(root))
    }

    /// More commits than the log keeps between two frames: a whole frame, still correct.
    @Test func aLogThatNoLongerCoversTheGapBuildsAWholeFrame() throws {
        let (root, _, leaves) = scene()
        let r = try drawn(root)
        for i in 0..<(CommitLog.capacity + 10) {
            change { leaves[i % 60].position.x += i % 2 == 0 ? 1 : -1 }
        }
        let img = try frame(r, 1)
        #expect(r.statistics.patchedLayers == 0 && !r.statistics.reusedFrame, "\(r.statistics)")
        expectSamePixels(img, try fullBuild(root))
    }
}
