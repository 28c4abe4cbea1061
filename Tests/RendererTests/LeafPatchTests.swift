import Testing
import Foundation

/// A frame in which only animated leaves changed is patched (their boxes re-emitted into the
/// last frame, `RenderTreeBuilder.patch`), and the patched frame must be the frame a whole
/// build draws at the same time, instance for instance, whatever the leaves inherit: a plain
/// parent (the translation fast path of `LayerGeometry.world`), a flipped one, a
/// `sublayerTransform`, a clip, a `CATransformLayer` with perspective, a renderer scale.
@Suite struct LeafPatchTests {
    func leaf(_ frame: CGRect, _ r: CGFloat, _ g: CGFloat, _ b: CGFloat) -> CALayer {
        let l = CALayer()
        l.frame = frame
        l.backgroundColor = solid(r, g, b)
        l.borderWidth = 1.5
        l.borderColor = CGColor(red: 0, green: 0, blue: 0, alpha: 0.7)
        l.cornerRadius = 3
        return l
    }

    /// Leaves animating position, opacity and colour, transform, bounds and corner radius, with
    /// an off-centre anchor, anchorPointZ and zPosition, under `parent`.
    func addAnimatedLeaves(to parent: CALayer) -> Int {
        let a = leaf(CGRect(x: 10.25, y: 8, width: 30, height: 20), 1, 0, 0)
        a.anchorPoint = CGPoint(x: 0.2, y: 0.7)
        a.anchorPointZ = 3
        a.add(basic("position", from: CGPoint(x: 20, y: 20), to: CGPoint(x: 70.5, y: 41.25)), forKey: "move")
        let b = leaf(CGRect(x: 50, y: 10, width: 24, height: 24), 0, 1, 0)
        b.add(basic("opacity", from: 1.0, to: 0.3), forKey: "fade")
        b.add(basic("backgroundColor", from: solid(0, 1, 0), to: solid(0, 0, 1)), forKey: "tint")
        let c = leaf(CGRect(x: 20, y: 40, width: 28, height: 16), 0, 0, 1)
        c.add(basic("transform.rotation.z", from: 0.0, to: 1.3), forKey: "spin")
        let d = leaf(CGRect(x: 60, y: 45, width: 20, height: 20), 1, 1, 0)
        d.zPosition = 2
        d.add(basic("bounds.size.width", from: 20.0, to: 37.5), forKey: "grow")
        d.add(basic("cornerRadius", from: 0.0, to: 9.0), forKey: "round")
        let e = leaf(CGRect(x: 5, y: 60, width: 18, height: 12), 1, 0, 1)
        e.add(basic("position.x", from: 10.0, to: 90.0, duration: 0.7), forKey: "slide")
        for l in [a, b, c, d, e] { parent.addSublayer(l) }
        // A static sibling, so the patched boxes sit among boxes the patch does not touch.
        parent.addSublayer(leaf(CGRect(x: 2, y: 2, width: 6, height: 6), 0.5, 0.5, 0.5))
        return 5
    }

    /// Renders `root` at each time on one renderer (patching after its first frame) and on a
    /// fresh one (a whole build), and compares their frames' instances.
    func expectPatchesMatchWholeBuilds(_ root: CALayer, animatedLeaves: Int, scale: CGFloat = 1) throws {
        let size = CGSize(width: 120, height: 90)
        let r = try CARenderer(offscreenSize: size, scale: scale, options: .init(backend: .openGL))
        r.layer = root
        r.beginFrame(atTime: 0); try r.renderChecked(); r.endFrame()
        #expect(r.statistics.patchedLayers == 0)
        for t in [0.15, 0.4, 0.65, 0.9] {
            r.beginFrame(atTime: t); try r.renderChecked(); r.endFrame()
            #expect(r.statistics.patchedLayers == animatedLeaves, "t = \(t): \(r.statistics)")
            let whole = try CARenderer(offscreenSize: size, scale: scale, options: .init(backend: .openGL))
            whole.layer = root
            whole.beginFrame(atTime: t); try whole.renderChecked(); whole.endFrame()
            #expect(whole.statistics.patchedLayers == 0)
            let patched = try #require(r.lastFrame), built = try #require(whole.lastFrame)
            #expect(patched.boxes.count == built.boxes.count)
            for (i, (p, b)) in zip(patched.boxes, built.boxes).enumerated() {
                #expect(p == b, "t = \(t), box \(i)")
            }
            #expect(patched.clips == built.clips)
        }
    }

    @Test(arguments: [1, 1.5]) func underAPlainParent(scale: CGFloat) throws {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 120, height: 90)
        let n = addAnimatedLeaves(to: root)
        try expectPatchesMatchWholeBuilds(root, animatedLeaves: n, scale: scale)
    }

    @Test func underAGeometryFlippedParent() throws {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 120, height: 90)
        root.isGeometryFlipped = true
        let n = addAnimatedLeaves(to: root)
        try expectPatchesMatchWholeBuilds(root, animatedLeaves: n)
    }

    @Test func underASublayerTransformAndAClip() throws {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 120, height: 90)
        let parent = CALayer()
        parent.frame = CGRect(x: 7.5, y: 3.25, width: 100, height: 80)
        parent.sublayerTransform = CATransform3DRotate(CATransform3DMakeScale(0.9, 1.1, 1), 0.2, 0, 0, 1)
        parent.masksToBounds = true
        parent.cornerRadius = 6
        root.addSublayer(parent)
        let n = addAnimatedLeaves(to: parent)
        try expectPatchesMatchWholeBuilds(root, animatedLeaves: n)
    }

    /// A root with perspective and a `CATransformLayer` turned about y.
    func perspectiveGroup() -> (root: CALayer, group: CALayer) {
        let root = CALayer()
        root.frame = CGRect(x: 0, y: 0, width: 120, height: 90)
        var perspective = CATransform3DIdentity
        perspective.m34 = -1 / 300
        root.sublayerTransform = perspective
        let group = CATransformLayer()
        group.frame = CGRect(x: 10, y: 5, width: 100, height: 80)
        group.transform = CATransform3DMakeRotation(0.4, 0, 1, 0)
        root.addSublayer(group)
        return (root, group)
    }

    /// A transform layer's sublayers draw in the order of their depth, which their animations
    /// change (here they do): those frames are built whole.
    @Test func aTransformLayersSublayersAreNotPatched() throws {
        let (root, group) = perspectiveGroup()
        _ = addAnimatedLeaves(to: group)
        try expectPatchesMatchWholeBuilds(root, animatedLeaves: 0)
    }

    /// One level down, under a plain layer in a transform layer, leaves are patched again.
    @Test func underALayerInATransformLayer() throws {
        let (root, group) = perspectiveGroup()
        let card = CALayer()
        card.frame = CGRect(x: 5, y: 5, width: 90, height: 70)
        card.transform = CATransform3DMakeRotation(-0.3, 1, 0, 0)
        group.addSublayer(card)
        let n = addAnimatedLeaves(to: card)
        try expectPatchesMatchWholeBuilds(root, animatedLeaves: n)
    }

    /// The translation fast path (an identity transform under a plain parent) gives the matrix
    /// of the model's own formula (docs/BEHAVIOUR.md M7, `LayerState.localToParentMatrix`), to the
    /// value the shader receives.
    @Test func aTranslatedLeafGetsTheModelFormulasMatrix() throws {
        let root = CALayer()
        root.frame = CGRect(x: 1.5, y: 2.25, width: 64, height: 48)
        root.transform = CATransform3DMakeRotation(0.3, 0, 0, 1)
        var leaves: [CALayer] = []
        for i in 0..<6 {
            let l = CALayer()
            let k = CGFloat(i)
            l.bounds = CGRect(x: k * 0.75 - 2, y: -k, width: 10 + k * 1.3, height: 7.5 + k)
            l.position = CGPoint(x: 5.125 + k * 9.3, y: 40 - k * 5.7)
            l.anchorPoint = CGPoint(x: 0.1 * k, y: 1 - 0.15 * k)
            l.anchorPointZ = k * 0.6 - 1
            l.zPosition = 0.5 * k
            l.backgroundColor = solid(0, 0, 1)
            root.addSublayer(l)
            leaves.append(l)
        }
        CATransaction.flush()
        let builder = RenderTreeBuilder()
        let (frame, _) = builder.build(root: root, width: 80, height: 60, scale: 1.5, origin: SIMD2(3.25, -2.5))
        try #require(frame.boxes.count == leaves.count)
        let base = CATransform3DConcat(CATransform3DMakeTranslation(-3.25, 2.5, 0), CATransform3DMakeScale(1.5, 1.5, 1))
        var rootWorld = CATransform3DConcat(LayerState.localToParentMatrix(root.state, parent: nil, isMask: false), base)
        rootWorld.m31 = 0; rootWorld.m32 = 0; rootWorld.m33 = 0; rootWorld.m34 = 0
        // Sublayers draw by zPosition, ties in order: here zPosition grows with the index.
        for (l, box) in zip(leaves, frame.boxes) {
            let world = CATransform3DConcat(LayerState.localToParentMatrix(l.state, parent: root.state, isMask: false), rootWorld)
            let h = Homography(world).packed()
            #expect(SIMD3(box.h0.x, box.h0.y, box.h0.z) == SIMD3(h.0.x, h.0.y, h.0.z))
            #expect(SIMD3(box.h1.x, box.h1.y, box.h1.z) == SIMD3(h.1.x, h.1.y, h.1.z))
            #expect(SIMD3(box.h2.x, box.h2.y, box.h2.z) == SIMD3(h.2.x, h.2.y, h.2.z))
        }
    }
}
