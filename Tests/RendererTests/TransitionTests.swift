import Testing
import Foundation

/// docs/BEHAVIOUR.md I2: a CATransition draws the layer as it was before the change committed with it
/// and as it is after, blended by type — fade cross-dissolves, moveIn slides the new content
/// in over the old, push slides both, reveal slides the old away — with progress running from
/// startProgress to endProgress. Subtypes name the side the new content comes from; "top" is
/// the layer's minimum-y edge (docs/BEHAVIOUR.md O12, our documented choice).
///
/// Every scene: a 100×50 layer at (50, 25) in a 200×100 white frame turns from red to blue in
/// the transaction that adds the transition; the first frame (t = 10) commits it, so the
/// transition begins at 10.
@Suite struct TransitionTests {
    static let size = CGSize(width: 200, height: 100)
    static let red = RGBA(255, 0, 0), blue = RGBA(0, 0, 255), white = RGBA(255, 255, 255)

    func transition(_ type: CATransitionType, _ subtype: CATransitionSubtype? = nil, duration: CFTimeInterval = 1) -> CATransition {
        let t = CATransition()
        t.type = type
        t.subtype = subtype
        t.duration = duration
        return t
    }

    func scene() -> (CALayer, CALayer) {
        let root = CALayer()
        root.frame = CGRect(origin: .zero, size: Self.size)
        let l = CALayer()
        l.frame = CGRect(x: 50, y: 25, width: 100, height: 50)
        l.backgroundColor = solid(1, 0, 0)
        root.addSublayer(l)
        return (root, l)
    }

    /// Commits the red scene, changes it (actions off, so only the transition animates), adds
    /// `t`, and renders at `times`.
    func run(_ t: CATransition?, times: [CFTimeInterval], configure: (CALayer, CALayer) -> Void = { _, _ in },
             change: (CALayer) -> Void = { $0.backgroundColor = solid(0, 0, 1) }) throws -> [CGImage] {
        let (root, l) = scene()
        configure(root, l)
        CATransaction.flush()
        CATransaction.setDisableActions(true)
        change(l)
        if let t { l.add(t, forKey: nil) }
        return try RenderHarness.renderFrames(root, size: Self.size, times: times)
    }

    func at(_ t: CATransition, _ time: CFTimeInterval, configure: (CALayer, CALayer) -> Void = { _, _ in }) throws -> CGImage {
        try run(t, times: [10, time], configure: configure).last!
    }

    @Test func I2_fadeCrossDissolvesOldIntoNew() throws {
        let frames = try run(transition(.fade), times: [10, 10.5, 11.5])
        #expect(frames[0].rgba(100, 50) == Self.red)                                  // p = 0: the old picture
        #expect(frames[1].rgba(100, 50).isClose(to: RGBA(128, 0, 128), tolerance: 2)) // premultiplied mix
        #expect(frames[1].rgba(40, 50) == Self.white)
        #expect(frames[2].rgba(100, 50) == Self.blue)                                 // ended: only the new
        Golden.expectMatches(frames[1], named: "transition-fade")
    }

    @Test func I2_pushFromRightSlidesBothPictures() throws {
        let img = try at(transition(.push, .fromRight), 10.5)
        // Old: 50…150 moved by −50 → 0…100. New: from +100 to 0, halfway → 100…200.
        #expect(img.rgba(2, 50) == Self.red)
        #expect(img.rgba(97, 50) == Self.red)
        #expect(img.rgba(102, 50) == Self.blue)
        #expect(img.rgba(197, 50) == Self.blue)
        #expect(img.rgba(100, 20) == Self.white)
        Golden.expectMatches(img, named: "transition-push-fromRight")
    }

    @Test func I2_moveInFromLeftSlidesTheNewPictureOverTheOld() throws {
        let img = try at(transition(.moveIn, .fromLeft), 10.5)
        // New: from −100 to 0, halfway → 0…100, over the old, which stays at 50…150.
        #expect(img.rgba(2, 50) == Self.blue)
        #expect(img.rgba(97, 50) == Self.blue)
        #expect(img.rgba(102, 50) == Self.red)
        #expect(img.rgba(147, 50) == Self.red)
        #expect(img.rgba(152, 50) == Self.white)
        Golden.expectMatches(img, named: "transition-moveIn-fromLeft")
    }

    @Test func I2_revealFromTopSlidesTheOldPictureAwayDownward() throws {
        let img = try at(transition(.reveal, .fromTop), 10.5)
        // fromTop: new content comes from the top (minimum y); the old moves toward the
        // bottom, half the height (25) by now, over the new, which stays at 25…75.
        #expect(img.rgba(100, 22) == Self.white)
        #expect(img.rgba(100, 27) == Self.blue)
        #expect(img.rgba(100, 47) == Self.blue)
        #expect(img.rgba(100, 52) == Self.red)
        #expect(img.rgba(100, 97) == Self.red)
        Golden.expectMatches(img, named: "transition-reveal-fromTop")
    }

    @Test func I2_pushFromBottomComesUpFromBelow() throws {
        let img = try at(transition(.push, .fromBottom), 10.5)
        #expect(img.rgba(100, 2) == Self.red)     // old: 25…75 moved up 25
        #expect(img.rgba(100, 47) == Self.red)
        #expect(img.rgba(100, 52) == Self.blue)   // new: from +50, halfway
        #expect(img.rgba(100, 97) == Self.blue)
    }

    @Test func I2_directionalTypeWithoutSubtypeMovesAsFromLeft() throws {
        let img = try at(transition(.moveIn), 10.5)
        #expect(img.rgba(2, 50) == Self.blue)
        #expect(img.rgba(102, 50) == Self.red)
    }

    @Test func O12_inAFlippedSuperlayerFromTopFollowsTheGeometry() throws {
        // The root is geometry-flipped: the layer's minimum-y edge is at the bottom of the
        // screen, so fromTop comes from below.
        let img = try at(transition(.push, .fromTop), 10.5) { root, _ in root.isGeometryFlipped = true }
        #expect(img.rgba(100, 2) == Self.red)
        #expect(img.rgba(100, 97) == Self.blue)
    }

    @Test func I2_startAndEndProgressLimitTheTransition() throws {
        let t = transition(.push, .fromRight)
        t.startProgress = 0.25
        t.endProgress = 0.75
        let frames = try run(t, times: [10, 10.5, 11.5])
        // p = 0.25 at the start: old at −25 (25…125), new at +75 (125…225).
        #expect(frames[0].rgba(27, 50) == Self.red)
        #expect(frames[0].rgba(122, 50) == Self.red)
        #expect(frames[0].rgba(127, 50) == Self.blue)
        #expect(frames[0].rgba(22, 50) == Self.white)
        // p = 0.5 halfway through.
        #expect(frames[1].rgba(97, 50) == Self.red)
        #expect(frames[1].rgba(102, 50) == Self.blue)
        // Ended: the new state alone, in place (not left at 0.75).
        #expect(frames[2].rgba(52, 50) == Self.blue)
        #expect(frames[2].rgba(147, 50) == Self.blue)
        #expect(frames[2].rgba(30, 50) == Self.white)
        #expect(frames[2].rgba(160, 50) == Self.white)
    }

    @Test func I2_afterTheTransitionOnlyTheNewStateShows() throws {
        for type in [CATransitionType.fade, .moveIn, .push, .reveal] {
            let frames = try run(transition(type, .fromRight), times: [10, 11, 12])
            for img in frames.dropFirst() {
                #expect(img.rgba(52, 50) == Self.blue)
                #expect(img.rgba(147, 50) == Self.blue)
                #expect(img.rgba(30, 50) == Self.white)
                #expect(img.rgba(170, 50) == Self.white)
            }
        }
    }

    @Test func masksToBoundsKeepsTheMovingPicturesInsideTheLayer() throws {
        let img = try at(transition(.push, .fromRight), 10.5) { _, l in l.masksToBounds = true }
        #expect(img.rgba(25, 50) == Self.white)
        #expect(img.rgba(75, 50) == Self.red)
        #expect(img.rgba(125, 50) == Self.blue)
        #expect(img.rgba(175, 50) == Self.white)
    }

    /// The old picture is the tree as committed: a sublayer removed in the transaction is in
    /// it, one added is not, whether the change comes before or after `add(_:forKey:)`.
    @Test(arguments: [false, true]) func I2_oldPictureHoldsTheSublayersOfTheLastCommit(transitionFirst: Bool) throws {
        let root = CALayer()
        root.frame = CGRect(origin: .zero, size: Self.size)
        let box = CALayer()
        box.frame = CGRect(x: 50, y: 25, width: 100, height: 50)
        root.addSublayer(box)
        let a = CALayer(), b = CALayer()
        a.frame = box.bounds
        a.backgroundColor = solid(1, 0, 0)
        b.frame = box.bounds
        b.backgroundColor = solid(0, 0, 1)
        box.addSublayer(a)
        CATransaction.flush()
        CATransaction.setDisableActions(true)
        if transitionFirst { box.add(transition(.push, .fromRight), forKey: nil) }
        box.replaceSublayer(a, with: b)
        if !transitionFirst { box.add(transition(.push, .fromRight), forKey: nil) }
        let img = try RenderHarness.renderFrames(root, size: Self.size, times: [10, 10.5]).last!
        #expect(img.rgba(25, 50) == Self.red)
        #expect(img.rgba(97, 50) == Self.red)
        #expect(img.rgba(102, 50) == Self.blue)
        #expect(img.rgba(175, 50) == Self.blue)
    }

    @Test func I3_hidingALayerFadesItOut() throws {
        let (root, l) = scene()
        CATransaction.flush()
        l.isHidden = true  // implied fade CATransition, 0.25 s (I3)
        #expect(l.animationKeys() == ["transition"])
        let frames = try RenderHarness.renderFrames(root, size: Self.size, times: [10, 10.125, 10.3])
        #expect(frames[0].rgba(100, 50) == Self.red)
        #expect(frames[1].rgba(100, 50).isClose(to: RGBA(255, 128, 128), tolerance: 2))
        #expect(frames[2].rgba(100, 50) == Self.white)
    }

    @Test func I3_sublayersAddedOneByOneFadeInTogetherFromOnePicture() throws {
        let (root, l) = scene()
        CATransaction.flush()
        var pictures: [CALayer?] = []
        for i in 0..<3 {
            let s = CALayer()
            s.frame = CGRect(x: 10 + 30 * i, y: 10, width: 20, height: 20)
            s.backgroundColor = solid(0, 1, 0)
            l.addSublayer(s)  // each change of sublayers implies a fade on `l` (I3)
            pictures.append(l.animationRecords.compactMap { $0.evaluator as? TransitionEvaluator }.last?.before)
        }
        #expect(pictures[0] != nil && pictures[0] === pictures[2])
        let img = try RenderHarness.renderFrames(root, size: Self.size, times: [10, 10.125]).last!
        // Halfway: each green square over red, half faded in.
        for i in 0..<3 { #expect(img.rgba(70 + 30 * i, 45).isClose(to: RGBA(128, 128, 0), tolerance: 2)) }
        #expect(img.rgba(55, 30) == Self.red)
    }

    @Test func aFadeCostsTwoTargetsAndTheEndCostsNone() throws {
        let (root, l) = scene()
        CATransaction.flush()
        CATransaction.setDisableActions(true)
        l.backgroundColor = solid(0, 0, 1)
        l.add(transition(.fade), forKey: nil)
        let r = try CARenderer(offscreenSize: Self.size, options: .init(backend: .openGL))
        r.layer = root
        var passes: [Int] = []
        for t in [10, 10.5, 12.0] {
            r.beginFrame(atTime: t)
            try r.renderChecked()
            r.endFrame()
            passes.append(r.statistics.offscreenPasses)
        }
        #expect(passes == [0, 2, 0])   // p = 0 draws the old picture alone
    }
}
