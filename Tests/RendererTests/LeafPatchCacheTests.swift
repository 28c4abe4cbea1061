import Testing
import Foundation

/// A leaf that only moves (its animations write `position`, `position.x` or `position.y`) is
/// patched from what an earlier patch read of its presentation copy plus the position this
/// frame step gives it (`PatchRecords.LeafCache`, `TimingEngine.stepPosition`), without reading
/// the copy. The frame must still be the one a whole build makes at the same time, instance
/// for instance: after many frames, with copies nothing else read meanwhile, when another
/// animation of the layer ends, and when a commit changes the moving layer.
@Suite struct LeafPatchCacheTests {
    let width = 160, height = 120

    func leaf(_ frame: CGRect, _ color: CGColor) -> CALayer {
        let l = CALayer()
        l.frame = frame
        l.backgroundColor = color
        l.borderWidth = 1.5
        l.borderColor = CGColor(red: 0, green: 0, blue: 0, alpha: 0.7)
        l.cornerRadius = 3
        return l
    }

    func root() -> CALayer {
        let r = CALayer()
        r.frame = CGRect(x: 0, y: 0, width: 160, height: 120)
        return r
    }

    /// Four leaves that only move (position.x with an off-centre anchor and anchorPointZ,
    /// position.y, position, position.x on a single-sided layer), one that fades and one that
    /// moves and fades (neither served from the cache), and a static one, under `root`.
    func addLeaves(to root: CALayer) {
        let a = leaf(CGRect(x: 10.25, y: 8, width: 30, height: 20), solid(1, 0, 0))
        a.anchorPoint = CGPoint(x: 0.2, y: 0.7)
        a.anchorPointZ = 3
        a.add(basic("position.x", from: 10.0, to: 130.5), forKey: "slide")
        let b = leaf(CGRect(x: 50, y: 10, width: 24, height: 24), solid(0, 1, 0))
        b.add(basic("position.y", from: 20.0, to: 95.25), forKey: "drop")
        let c = leaf(CGRect(x: 20, y: 40, width: 28, height: 16), solid(0, 0, 1))
        c.add(basic("position", from: CGPoint(x: 20, y: 20), to: CGPoint(x: 140.5, y: 101.25)), forKey: "move")
        let d = leaf(CGRect(x: 60, y: 45, width: 20, height: 20), solid(1, 1, 0))
        d.isDoubleSided = false
        d.add(basic("position.x", from: 100.0, to: 12.0), forKey: "back")
        let e = leaf(CGRect(x: 5, y: 60, width: 18, height: 12), solid(1, 0, 1))
        e.add(basic("opacity", from: 1.0, to: 0.2), forKey: "fade")
        let f = leaf(CGRect(x: 90, y: 80, width: 22, height: 14), solid(0, 1, 1))
        f.add(basic("position.x", from: 90.0, to: 30.0), forKey: "slide")
        f.add(basic("opacity", from: 0.9, to: 0.4), forKey: "fade")
        for l in [a, b, c, d, e, f] { root.addSublayer(l) }
        root.addSublayer(leaf(CGRect(x: 2, y: 2, width: 6, height: 6), solid(0.5, 0.5, 0.5)))
    }

    /// The frame at `t` on this thread's engine: flush, step, then `body`.
    func atFrame<T>(_ t: Double, _ body: () -> T) -> T {
        CAMediaClock.withFrameTime(t) { CATransaction.flush(); TimingEngine.step(to: t) }
        return CAMediaClock.withFrameTime(t) { body() }
    }

    func wholeBuild(_ root: CALayer, at t: Double) -> RenderFrame {
        let whole = RenderTreeBuilder()
        return CAMediaClock.withFrameTime(t) { whole.build(root: root, width: width, height: height, scale: 1) }.0
    }

    /// Builds `root` at time 0 on one builder, then patches it at each of `times` (as
    /// `CARenderer` does with no commit in between) and returns the cached leaves of each patch;
    /// `compare` compares every patched frame with a whole build at its time (which reads
    /// the presentation copies, so it is left out to test copies nothing else read).
    func patch(_ root: CALayer, times: [Double], compareEach: Bool) throws -> (cached: [Int], last: RenderFrame) {
        let patching = RenderTreeBuilder()
        _ = atFrame(0) { patching.build(root: root, width: width, height: height, scale: 1) }
        var cached: [Int] = [], last: RenderFrame?
        for t in times {
            let result = atFrame(t) { patching.patch(TimingEngine.animatedLayers(), committed: []) }
            let (frame, _) = try #require(result, "t = \(t): the frame was not patched")
            cached.append(patching.lastPatchCachedLeaves)
            if compareEach { expectSameBoxes(frame, wholeBuild(root, at: t), "t = \(t)") }
            last = frame
        }
        return (cached, try #require(last))
    }

    func expectSameBoxes(_ p: RenderFrame, _ b: RenderFrame, _ note: String) {
        #expect(p.boxes.count == b.boxes.count, "\(note)")
        for (i, (x, y)) in zip(p.boxes, b.boxes).enumerated() { #expect(x == y, "\(note), box \(i)") }
        #expect(p.clips == b.clips, "\(note)")
    }

    @Test func movingLeavesComeFromTheCacheAndMatchWholeBuilds() throws {
        let root = root()
        addLeaves(to: root)
        let times = (1...10).map { Double($0) * 0.085 }
        let (cached, _) = try patch(root, times: times, compareEach: true)
        // The first patch reads every copy (and fills the entries); later ones serve the four
        // leaves that only move from them, never the two that fade.
        #expect(cached.first == 0)
        #expect(Array(cached.dropFirst()) == Array(repeating: 4, count: times.count - 1), "\(cached)")
    }

    @Test func copiesNothingElseReadStillGiveTheWholeBuildsFrame() throws {
        let root = root()
        addLeaves(to: root)
        // Eight patches in a row read no presentation copy of the moving leaves: their copies
        // still hold the first patch's values, and a whole build (which reads them, storing the
        // step's values first) must draw what the last patch drew.
        let times = (1...8).map { Double($0) * 0.1 }
        let (cached, last) = try patch(root, times: times, compareEach: false)
        #expect(cached.last == 4)
        expectSameBoxes(last, wholeBuild(root, at: times.last!), "after \(times.count) patches")
    }

    @Test func anotherAnimationEndingSendsTheLeafBackToItsCopy() throws {
        let root = root()
        let l = leaf(CGRect(x: 20, y: 30, width: 25, height: 25), solid(0.2, 0.4, 0.9))
        let slide = basic("position.x", from: 20.0, to: 120.0)
        slide.repeatCount = .infinity
        l.add(slide, forKey: "slide")
        // Removed on completion at 0.1 s: the layer's plan changes without a commit, and its
        // copy's opacity goes back to the model's 1.
        l.add(basic("opacity", from: 0.3, to: 0.6, duration: 0.1), forKey: "fade")
        root.addSublayer(l)
        let times = [0.03, 0.06, 0.09, 0.15, 0.2, 0.25, 0.3]
        let (cached, _) = try patch(root, times: times, compareEach: true)
        // While the fade runs the leaf's animations do not only move it: never from the cache.
        #expect(cached.prefix(3).allSatisfy { $0 == 0 }, "\(cached)")
        // Once it is gone the entry is read again from the copy, then served.
        #expect(Array(cached.suffix(2)) == [1, 1], "\(cached)")
    }

    @Test func aCommitToAMovingLeafIsNotServedFromTheCache() throws {
        let root = root()
        let l = leaf(CGRect(x: 20, y: 30, width: 25, height: 25), solid(0.2, 0.4, 0.9))
        let slide = basic("position.x", from: 20.0, to: 120.0)
        slide.repeatCount = .infinity
        l.add(slide, forKey: "slide")
        root.addSublayer(l)
        let r = try CARenderer(offscreenSize: CGSize(width: width, height: height), options: .init(backend: .openGL))
        r.layer = root
        for (i, t) in [0, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35].enumerated() {
            if i == 4 || i == 6 {
                // A colour, border and size change between frames (a display link's commit): the
                // entry read before it must not be used after it.
                CATransaction.begin()
                CATransaction.setDisableActions(true)
                l.backgroundColor = i == 4 ? solid(1, 0.5, 0) : solid(0, 0.5, 0)
                l.borderWidth = i == 4 ? 4 : 0.5
                l.bounds.size.width = i == 4 ? 31 : 12
                CATransaction.commit()
            }
            r.beginFrame(atTime: t)
            try r.renderChecked()
            r.endFrame()
            // Frames with no commit patch the one moving leaf (those with one may re-emit its
            // parent instead, should the leaf's shader variant change).
            if i > 0, i != 4, i != 6 { #expect(r.statistics.patchedLayers == 1, "frame \(i): \(r.statistics)") }
            expectSameBoxes(try #require(r.lastFrame), wholeBuild(root, at: t), "frame \(i) (t = \(t))")
        }
    }
}
