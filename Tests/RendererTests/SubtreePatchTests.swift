import Testing
import Foundation
@testable import CARender

/// A frame in which a layer that is not a plain box leaf changed — a shape, image or gradient
/// layer, one with a shadowPath, a parent with sublayers — is patched by re-emitting that
/// layer's subtree in place (`RenderTreeBuilder+Subtrees.swift`), and the patched frame must be
/// the frame a whole build makes at the same time, instance for instance, batch for batch.
/// Frames whose structure changed (a sublayer added, a group becoming isolated, a mask) are
/// built whole, and must be right too.
@Suite struct SubtreePatchTests {
    let size = CGSize(width: 120, height: 90)

    func box(_ frame: CGRect, _ color: CGColor) -> CALayer {
        let l = CALayer()
        l.frame = frame
        l.backgroundColor = color
        l.cornerRadius = 2
        return l
    }

    func star(_ c: CGPoint, _ r: CGFloat) -> CGPath {
        let p = CGMutablePath()
        for i in 0..<10 {
            let a = Double(i) * .pi / 5, rr = i % 2 == 0 ? r : r * 0.45
            let pt = CGPoint(x: c.x + rr * CGFloat(sin(a)), y: c.y - rr * CGFloat(cos(a)))
            if i == 0 { p.move(to: pt) } else { p.addLine(to: pt) }
        }
        p.closeSubpath()
        return p
    }

    func shape(_ frame: CGRect) -> CAShapeLayer {
        let s = CAShapeLayer()
        s.frame = frame
        s.path = star(CGPoint(x: frame.width / 2, y: frame.height / 2), min(frame.width, frame.height) / 2)
        s.fillColor = solid(1, 0.5, 0)
        s.strokeColor = solid(0, 0, 0.8)
        s.lineWidth = 2
        return s
    }

    func gradient(_ frame: CGRect) -> CAGradientLayer {
        let g = CAGradientLayer()
        g.frame = frame
        g.colors = [solid(1, 0, 0), solid(0, 0, 1)]
        return g
    }

    func checker() throws -> CGImage {
        var bytes: [UInt8] = []
        for y in 0..<8 { for x in 0..<8 { bytes += (x + y) % 2 == 0 ? [255, 0, 0, 255] : [0, 0, 255, 255] } }
        return try #require(CGImage(width: 8, height: 8, rgba8Bytes: bytes, premultiplied: true))
    }

    func root() -> CALayer {
        let r = CALayer()
        r.frame = CGRect(x: 0, y: 0, width: 120, height: 90)
        return r
    }

    /// Changes made between frames, as a display link would: no implicit animations.
    func commit(_ body: () -> Void) {
        CATransaction.begin()
        CATransaction.setDisableActions(true)
        body()
        CATransaction.commit()
    }

    /// Frames of `root` at `times` on one renderer, which patches when it can after its first
    /// frame; each is compared with a whole build at the same time by a builder that has built
    /// every earlier frame too (so its shape atlas holds the same rasters in the same places).
    /// `change` runs before frame `i`. Returns each frame's statistics.
    @discardableResult
    func expectFramesMatchWholeBuilds(_ root: CALayer, times: [Double] = [0, 0.15, 0.4, 0.65, 0.9], scale: CGFloat = 1,
                                      pixels: Bool = false, change: (Int) -> Void = { _ in }) throws -> [RenderStats] {
        // Per-bucket lineWidth rasters, as the bare builder below makes them.
        var o = CARenderer.Options(backend: .openGL)
        o.drawsAnimatedWidthsFromOneRaster = false
        let r = try CARenderer(offscreenSize: size, scale: scale, options: o)
        r.layer = root
        let whole = RenderTreeBuilder()
        // Both keep every raster: a raster the whole builds stopped drawing (a shape moving) is
        // dropped after two of them and made again in a new place if a later frame asks for it,
        // while the patches, which do not judge, still have it (`ShapeCache.dropTransientEntries`).
        r.builder.shapes.cache.dropsTransientRasters = false
        whole.shapes.cache.dropsTransientRasters = false
        var out: [RenderStats] = []
        for (i, t) in times.enumerated() {
            change(i)
            r.beginFrame(atTime: t)
            try r.renderChecked()
            r.endFrame()
            out.append(r.statistics)
            let (built, _) = CAMediaClock.withFrameTime(t) {
                whole.build(root: root, width: Int(size.width * scale), height: Int(size.height * scale), scale: Double(scale))
            }
            let patched = try #require(r.lastFrame)
            expectSame(patched, built, "frame \(i) (t = \(t)): \(r.statistics)")
            if pixels {
                // New rasters reach the GPU: the pixels are a fresh renderer's.
                let fresh = try RenderHarness.render(root, size: size, scale: scale, time: t, clear: nil)
                let mine = try r.makeImage()
                var differing = 0
                for y in 0..<mine.height { for x in 0..<mine.width where mine.rgba(x, y) != fresh.rgba(x, y) { differing += 1 } }
                #expect(differing == 0, "frame \(i): \(differing) pixels differ from a fresh renderer's")
            }
        }
        return out
    }

    func expectSame(_ p: RenderFrame, _ b: RenderFrame, _ note: String) {
        func same<T: Equatable>(_ x: [T], _ y: [T], _ what: String) {
            guard x != y else { return }
            var i = 0
            while i < min(x.count, y.count), x[i] == y[i] { i += 1 }
            Issue.record("\(what) differ at \(i) (\(x.count) patched, \(y.count) built): \(note)")
        }
        same(p.boxes, b.boxes, "boxes")
        same(p.images, b.images, "images")
        same(p.gradients, b.gradients, "gradients")
        same(p.shapes, b.shapes, "shapes")
        same(p.composites, b.composites, "composites")
        same(p.clips, b.clips, "clips")
        same(p.targets, b.targets, "targets")
        same(p.gradientRamps, b.gradientRamps, "gradient ramps")
        same(p.passes.map { "\($0.target) \($0.kind)" }, b.passes.map { "\($0.target) \($0.kind)" }, "passes")
        #expect(p.textures.count == b.textures.count, "textures: \(note)")
        #expect(p.shapePages.map(\.id) == b.shapePages.map(\.id), "shape pages: \(note)")
    }

    // MARK: Layers that are not plain leaves

    /// Parents that add to their sublayers' M7 (a flip, a sublayerTransform) keep that part in
    /// the records (`PatchRecords.parentGeometries`): a re-emitted subtree under and containing
    /// such parents is moved back into place with its contexts, frame after frame.
    @Test func subtreesUnderFlippedAndTransformedParents() throws {
        let root = root()
        let flipped = CALayer()
        flipped.frame = CGRect(x: 4, y: 4, width: 110, height: 80)
        flipped.isGeometryFlipped = true
        root.addSublayer(flipped)
        flipped.addSublayer(box(CGRect(x: 2, y: 2, width: 12, height: 12), solid(0.5, 0.5, 0.5)))
        let group = CALayer()
        group.frame = CGRect(x: 20, y: 10, width: 80, height: 60)
        group.sublayerTransform = CATransform3DMakeScale(0.9, 1.1, 1)
        flipped.addSublayer(group)
        let inner = CALayer()
        inner.frame = CGRect(x: 5, y: 5, width: 60, height: 40)
        inner.isGeometryFlipped = true
        group.addSublayer(inner)
        let drawn = shape(CGRect(x: 4, y: 2, width: 30, height: 30))
        drawn.add(basic("strokeEnd", from: 0.2, to: 1.0), forKey: "draw")
        inner.addSublayer(drawn)
        let leaf = box(CGRect(x: 40, y: 10, width: 10, height: 10), solid(0, 0.6, 0))
        inner.addSublayer(leaf)
        // The group moves for the first frames (its subtree re-emitted, its contexts moved back
        // into place); then only the leaf inside it moves, patched from its recorded context,
        // which names the flipped parent's geometry.
        let move = basic("position", from: CGPoint(x: 55, y: 38), to: CGPoint(x: 65, y: 44))
        move.duration = 0.25
        group.add(move, forKey: "move")
        leaf.add(basic("position", from: CGPoint(x: 45, y: 15), to: CGPoint(x: 50, y: 25)), forKey: "slide")
        let stats = try expectFramesMatchWholeBuilds(root, times: [0, 0.1, 0.2, 0.3, 0.5, 0.7, 0.9], pixels: true)
        // Every frame after the first is a patch (none built whole).
        #expect(stats.dropFirst().allSatisfy { $0.patchedLayers > 0 }, "\(stats.map(\.patchedLayers))")
        #expect(stats[1].patchedSubtrees >= 1 && stats[2].patchedSubtrees >= 1, "\(stats.map(\.patchedSubtrees))")
    }

    @Test func anAnimatedShapeLayer() throws {
        let root = root()
        root.addSublayer(box(CGRect(x: 2, y: 2, width: 10, height: 10), solid(0.5, 0.5, 0.5)))
        let drawn = shape(CGRect(x: 10, y: 10, width: 50, height: 45))
        drawn.add(basic("strokeEnd", from: 0.2, to: 1.0), forKey: "draw")
        drawn.add(basic("fillColor", from: solid(1, 0, 0), to: solid(0, 1, 0)), forKey: "tint")
        root.addSublayer(drawn)
        let widening = shape(CGRect(x: 62, y: 20, width: 40, height: 40))
        widening.add(basic("lineWidth", from: 1.0, to: 7.0), forKey: "widen")
        root.addSublayer(widening)
        root.addSublayer(shape(CGRect(x: 70, y: 60, width: 30, height: 25)))
        root.addSublayer(box(CGRect(x: 100, y: 70, width: 15, height: 15), solid(0, 0.6, 0)))
        let stats = try expectFramesMatchWholeBuilds(root, pixels: true)
        for s in stats.dropFirst() {
            #expect(s.patchedSubtrees == 2 && s.patchedLayers == 2, "\(s)")
        }
        // An animated lineWidth draws from width-free rasters, one per power of two of the half
        // width (1 → 7 px: half widths 0.5 … 3.5 texels, buckets 1, 2 and 4): patched frames
        // rasterise only when the width enters a new bucket.
        #expect(stats.map(\.shapeRasters) == [3, 0, 1, 1, 0], "\(stats.map(\.shapeRasters))")
    }

    /// Under a geometry-flipped parent the contents are mirrored back upright (`planeMirrored`,
    /// which a re-emission must restore).
    @Test(arguments: [false, true]) func anImageLayer(flipped: Bool) throws {
        let top = root()
        let root = CALayer()
        root.frame = top.bounds
        root.isGeometryFlipped = flipped
        top.addSublayer(root)
        root.addSublayer(box(CGRect(x: 2, y: 2, width: 10, height: 10), solid(0.5, 0.5, 0.5)))
        let image = CALayer()
        image.frame = CGRect(x: 20, y: 15, width: 60, height: 50)
        image.contents = try checker()
        image.magnificationFilter = .nearest
        image.add(basic("opacity", from: 1.0, to: 0.4), forKey: "fade")
        image.add(basic("contentsRect", from: CGRect(x: 0, y: 0, width: 1, height: 1),
                        to: CGRect(x: 0.25, y: 0.25, width: 0.5, height: 0.5)), forKey: "zoom")
        root.addSublayer(image)
        let still = CALayer()
        still.frame = CGRect(x: 85, y: 50, width: 30, height: 30)
        still.contents = try checker()
        root.addSublayer(still)
        let stats = try expectFramesMatchWholeBuilds(top)
        for s in stats.dropFirst() { #expect(s.patchedSubtrees == 1 && s.patchedLayers == 1, "\(s)") }
    }

    @Test func aGradientLayer() throws {
        let root = root()
        let g = gradient(CGRect(x: 10, y: 10, width: 70, height: 50))
        g.add(basic("endPoint", from: CGPoint(x: 0.5, y: 1), to: CGPoint(x: 1, y: 0.5)), forKey: "turn")
        root.addSublayer(g)
        root.addSublayer(gradient(CGRect(x: 85, y: 40, width: 30, height: 40)))
        root.addSublayer(box(CGRect(x: 60, y: 60, width: 20, height: 20), solid(0, 0.6, 0)))
        let stats = try expectFramesMatchWholeBuilds(root)
        for s in stats.dropFirst() { #expect(s.patchedSubtrees == 1 && s.patchedLayers == 1, "\(s)") }
    }

    @Test func aLayerWithAShadowPath() throws {
        let root = root()
        let card = box(CGRect(x: 20, y: 15, width: 50, height: 40), solid(1, 1, 1))
        card.shadowPath = CGPath(roundedRect: card.bounds, cornerWidth: 6, cornerHeight: 6, transform: nil)
        card.shadowRadius = 4
        card.shadowOffset = CGSize(width: 3, height: 5)
        card.shadowColor = solid(0, 0, 0)
        card.shadowOpacity = 0.2
        card.add(basic("shadowOpacity", from: 0.2, to: 0.9), forKey: "lift")
        root.addSublayer(card)
        root.addSublayer(box(CGRect(x: 80, y: 50, width: 20, height: 20), solid(0, 0.6, 0)))
        let stats = try expectFramesMatchWholeBuilds(root)
        for s in stats.dropFirst() { #expect(s.patchedSubtrees == 1 && s.patchedLayers == 1, "\(s)") }
    }

    /// A group of mixed children under a moving, turning parent; a child animates at the same
    /// time (re-emitted with the parent, not again); a static group follows.
    func movingGroup() -> (root: CALayer, layersInGroup: Int) {
        let root = root()
        let group = box(CGRect(x: 10, y: 10, width: 60, height: 50), solid(0.9, 0.9, 0.9))
        group.borderWidth = 1
        group.borderColor = solid(0, 0, 0)
        let a = box(CGRect(x: 4, y: 4, width: 14, height: 10), solid(1, 0, 0))
        a.add(basic("position", from: CGPoint(x: 11, y: 9), to: CGPoint(x: 40, y: 30)), forKey: "move")
        let b = box(CGRect(x: 20, y: 8, width: 10, height: 18), solid(0, 0, 1))
        b.zPosition = 1
        let s = shape(CGRect(x: 30, y: 20, width: 25, height: 25))
        let g = gradient(CGRect(x: 2, y: 30, width: 20, height: 16))
        g.add(basic("endPoint", from: CGPoint(x: 0.5, y: 1), to: CGPoint(x: 1, y: 0)), forKey: "turn")
        let inner = box(CGRect(x: 40, y: 2, width: 16, height: 16), solid(0, 0.5, 0.5))
        inner.addSublayer(box(CGRect(x: 3, y: 3, width: 6, height: 6), solid(1, 1, 0)))
        for l in [a, b, s, g, inner] { group.addSublayer(l) }
        group.add(basic("position", from: CGPoint(x: 40, y: 35), to: CGPoint(x: 70.5, y: 45.25)), forKey: "move")
        group.add(basic("transform.rotation.z", from: 0.0, to: 0.8), forKey: "turn")
        root.addSublayer(group)
        let other = box(CGRect(x: 80, y: 50, width: 35, height: 35), solid(0.8, 0.8, 1))
        other.addSublayer(shape(CGRect(x: 5, y: 5, width: 25, height: 25)))
        root.addSublayer(other)
        return (root, 7)
    }

    @Test(arguments: [1, 1.5]) func aMovingGroupWithAnAnimatedChild(scale: CGFloat) throws {
        let (root, n) = movingGroup()
        let stats = try expectFramesMatchWholeBuilds(root, scale: scale)
        for s in stats.dropFirst() { #expect(s.patchedSubtrees == 1 && s.patchedLayers == n, "\(s)") }
    }

    /// The moving group masks to its bounds inside a layer that does too (the clips merge):
    /// its clip is appended again when it is re-emitted and must take its recorded index, as
    /// clips appended after it in the frame (a later clipping sibling's) keep theirs.
    @Test func aClippedGroupInsideAClip() throws {
        let root = root()
        let outer = box(CGRect(x: 5, y: 5, width: 80, height: 70), solid(0.9, 0.9, 0.9))
        outer.cornerRadius = 0
        outer.masksToBounds = true
        let group = box(CGRect(x: 10, y: 10, width: 40, height: 30), solid(0.7, 0.7, 1))
        group.cornerRadius = 0
        group.masksToBounds = true
        group.addSublayer(box(CGRect(x: -5, y: -5, width: 20, height: 20), solid(1, 0, 0)))
        group.addSublayer(box(CGRect(x: 25, y: 15, width: 30, height: 30), solid(0, 0, 1)))
        group.add(basic("position.x", from: 30.0, to: 65.0), forKey: "slide")
        outer.addSublayer(group)
        let later = box(CGRect(x: 45, y: 40, width: 30, height: 25), solid(1, 1, 0.7))
        later.cornerRadius = 0
        later.masksToBounds = true
        later.addSublayer(box(CGRect(x: 20, y: 15, width: 20, height: 20), solid(0, 0.6, 0)))
        outer.addSublayer(later)
        root.addSublayer(outer)
        let after = box(CGRect(x: 90, y: 10, width: 25, height: 25), solid(0.5, 0, 0.5))
        after.masksToBounds = true
        after.addSublayer(box(CGRect(x: 10, y: 10, width: 30, height: 30), solid(0, 0, 0)))
        root.addSublayer(after)
        let stats = try expectFramesMatchWholeBuilds(root)
        for s in stats.dropFirst() { #expect(s.patchedSubtrees == 1 && s.patchedLayers == 3, "\(s)") }
    }

    /// Commits that reorder siblings (zPosition: the same instances in another order) re-emit
    /// the parent when the batches keep their pipelines in order; later patches find the moved
    /// records where they now are. A reorder that interleaves pipelines differently (a box
    /// moved past shapes) changes the batches: a whole build.
    @Test func aCommittedZPositionReordersItsSiblings() throws {
        let root = root()
        let parent = box(CGRect(x: 5, y: 5, width: 100, height: 80), solid(0.9, 0.9, 0.9))
        let a = box(CGRect(x: 10, y: 10, width: 40, height: 30), solid(1, 0, 0))
        let b = box(CGRect(x: 25, y: 20, width: 40, height: 30), solid(0, 1, 0))
        let c1 = shape(CGRect(x: 35, y: 25, width: 40, height: 40))
        let c2 = shape(CGRect(x: 45, y: 35, width: 40, height: 40))
        c2.fillColor = solid(0, 0.5, 1)
        let d = box(CGRect(x: 50, y: 30, width: 30, height: 30), solid(0, 0, 1))
        for l in [a, b, c1, c2, d] { parent.addSublayer(l) }
        root.addSublayer(parent)
        let stats = try expectFramesMatchWholeBuilds(root, times: [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7]) { i in
            switch i {
            case 1: commit { b.zPosition = -1 }                        // a leaf: its parent is re-emitted
            case 2: commit { c1.zPosition = 0.5; d.zPosition = 1 }     // a shape and a leaf: the parent once
            case 3: commit { b.backgroundColor = solid(1, 0, 1) }      // a leaf patched at its new place
            case 4: commit { a.position.x += 7; c2.fillColor = solid(1, 0, 1); c2.lineWidth = 3 }
            case 5: commit { a.zPosition = 3 }                         // a box moved past the shapes
            case 6: commit { d.backgroundColor = solid(0.3, 0.3, 0.3) }
            case 7: commit { c2.zPosition = 0.7 }                      // a shape alone passes its sibling
            default: break
            }
        }
        #expect(stats.map(\.patchedSubtrees) == [0, 1, 1, 0, 1, 0, 0, 1], "\(stats.map(\.patchedSubtrees))")
        #expect(stats.map { $0.patchedLayers > 0 } == [false, true, true, true, true, false, true, true], "\(stats.map(\.patchedLayers))")
    }

    /// The engine's animated layers are the thread's: those of a tree this renderer does not
    /// draw are passed over, and its frames still patch.
    @Test func layersAnimatedInAnotherTreeArePassedOver() throws {
        let (root, n) = movingGroup()
        let elsewhere = self.root()
        let other = shape(CGRect(x: 10, y: 10, width: 40, height: 40))
        other.add(basic("strokeEnd", from: 0.0, to: 1.0), forKey: "draw")
        elsewhere.addSublayer(other)
        let loose = box(CGRect(x: 0, y: 0, width: 5, height: 5), solid(1, 0, 0))
        loose.add(basic("opacity", from: 1.0, to: 0.0), forKey: "fade")
        let stats = try withExtendedLifetime((elsewhere, loose)) { try expectFramesMatchWholeBuilds(root) }
        for s in stats.dropFirst() { #expect(s.patchedSubtrees == 1 && s.patchedLayers == n, "\(s)") }
    }

    // MARK: Changes of structure: whole builds

    @Test func aLayerThatGainsASublayer() throws {
        let (root, _) = movingGroup()
        let group = root.sublayers![0]
        let stats = try expectFramesMatchWholeBuilds(root) { i in
            if i == 2 { commit { group.addSublayer(box(CGRect(x: 1, y: 1, width: 5, height: 5), solid(0, 0, 0))) } }
            if i == 3 { commit { group.sublayers!.last!.backgroundColor = solid(1, 1, 1) } }
        }
        #expect(stats[1].patchedLayers > 0)
        #expect(stats[2].patchedLayers == 0, "\(stats[2])")
        #expect(stats[3].patchedLayers > 0, "\(stats[3])")
    }

    /// Sublayers reordered in the array or removed (a record must never outlive its layer's
    /// place in the tree): whole builds, then patches again.
    @Test func aSublayerListThatChangesBuildsAWholeFrame() throws {
        let (root, _) = movingGroup()
        let group = root.sublayers![0]
        let (first, last) = (group.sublayers![0], group.sublayers!.last!)
        let stats = try expectFramesMatchWholeBuilds(root, times: [0, 0.15, 0.3, 0.45, 0.6, 0.75]) { i in
            if i == 2 { commit { group.insertSublayer(first, above: last) } }
            if i == 4 { commit { group.sublayers![1].removeFromSuperlayer() } }
        }
        #expect(stats.map { $0.patchedLayers > 0 } == [false, true, false, true, false, true], "\(stats)")
    }

    @Test func aGroupThatBecomesIsolated() throws {
        let (root, _) = movingGroup()
        let group = root.sublayers![0]
        group.allowsGroupOpacity = true
        let stats = try expectFramesMatchWholeBuilds(root) { i in
            if i == 2 { commit { group.opacity = 0.5 } }
        }
        #expect(stats[1].patchedLayers > 0)
        #expect(stats[2].patchedLayers == 0 && stats[2].offscreenPasses > 0, "\(stats[2])")
    }

    @Test func aLayerThatGetsAMask() throws {
        let (root, _) = movingGroup()
        let other = root.sublayers![1]
        let stats = try expectFramesMatchWholeBuilds(root) { i in
            if i == 2 {
                commit {
                    let m = CALayer()
                    m.frame = CGRect(x: 0, y: 0, width: 20, height: 30)
                    m.backgroundColor = solid(0, 0, 0)
                    other.mask = m
                }
            }
        }
        #expect(stats[1].patchedLayers > 0)
        #expect(stats[2].patchedLayers == 0 && stats[2].offscreenPasses > 0, "\(stats[2])")
        #expect(stats[3].patchedLayers > 0, "\(stats[3])")
    }
}
