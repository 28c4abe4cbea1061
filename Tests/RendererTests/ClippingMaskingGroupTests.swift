import Testing
import Foundation

/// masksToBounds (an implicit mask of the rounded bounds, CALayer.masksToBounds doc), `mask`
/// (the alpha of the mask layer's whole rendered subtree, docs/BEHAVIOUR.md M8), group opacity
/// (allowsGroupOpacity, N4), a scene combining them, and the batching that keeps many plain
/// layers in one draw. Expected shapes come from M7's mapping computed in the test.
@Suite struct ClippingMaskingGroupTests: SceneBuilding {
    // MARK: masksToBounds

    /// N5b: sublayers outside the bounds are cut when masksToBounds; an axis-aligned square
    /// clip needs no offscreen pass.
    @Test func N5b_masksToBoundsClipsSublayersToTheBounds() throws {
        let r = root(100, 100)
        let clip = layer(CGRect(x: 20, y: 20, width: 60, height: 60), nil)
        clip.masksToBounds = true
        clip.addSublayer(layer(CGRect(x: -10, y: -10, width: 100, height: 100), solid(1, 0, 0)))
        r.addSublayer(clip)
        let (img, stats, _) = try GeometryProbe.render(r, size: CGSize(width: 100, height: 100))
        GeometryProbe.expectRegion(img, 20...79, 20...79, red)
        GeometryProbe.expectRegion(img, 19...19, 10...89, white)
        GeometryProbe.expectRegion(img, 80...80, 10...89, white)
        GeometryProbe.expectRegion(img, 10...89, 19...19, white)
        GeometryProbe.expectRegion(img, 10...89, 80...80, white)
        #expect(stats.offscreenPasses == 0)
        Golden.expectMatches(img, named: "clip-bounds")
    }

    /// masksToBounds with cornerRadius 20 under a 30° rotation: the sublayer is cut to the
    /// rotated rounded rectangle. Every pixel clearly inside is red, every one clearly outside
    /// white (the square corner tips included).
    @Test func N5b_roundedClipFollowsARotation() throws {
        let r = root(200, 200)
        let clip = CALayer()
        clip.bounds = CGRect(x: 0, y: 0, width: 120, height: 80)
        clip.position = CGPoint(x: 100, y: 100)
        clip.cornerRadius = 20
        clip.masksToBounds = true
        let t = CATransform3DMakeRotation(.pi / 6, 0, 0, 1)
        clip.transform = t
        clip.addSublayer(layer(CGRect(x: -40, y: -40, width: 200, height: 160), solid(1, 0, 0)))
        r.addSublayer(clip)
        let img = try RenderHarness.render(r, size: CGSize(width: 200, height: 200))
        let plane = GeometryProbe.Plane(transform: t, anchor: CGPoint(x: 60, y: 40), position: CGPoint(x: 100, y: 100))
        let n = GeometryProbe.expectShape(img, margin: 1, inColor: red, outColor: white) { px, py in
            plane.unmap(px, py).map { GeometryProbe.roundedRectDistance($0.0, $0.1, clip.bounds, radius: 20) }
        }
        #expect(n.inside > 8000 && n.outside > 25000)
        // The square corner's tip (bounds point (2,2)) is outside the rounded shape.
        let tip = plane.map(2, 2)!
        #expect(img.rgba(Int(tip.0), Int(tip.1)) == white)
        Golden.expectMatches(img, named: "clip-rounded-rotated")
    }

    /// The same rounded clip under perspective (m34 = −1/400, turned about y then x): the
    /// clip is the projected rounded rectangle, exact per pixel.
    @Test func N5b_roundedClipFollowsPerspective() throws {
        let r = root(200, 200)
        let clip = CALayer()
        clip.bounds = CGRect(x: 0, y: 0, width: 120, height: 100)
        clip.position = CGPoint(x: 100, y: 100)
        clip.cornerRadius = 24
        clip.masksToBounds = true
        var t = CATransform3DIdentity
        t.m34 = -1.0 / 400
        t = CATransform3DRotate(t, 0.7, 0, 1, 0)
        t = CATransform3DRotate(t, 0.3, 1, 0, 0)
        clip.transform = t
        clip.addSublayer(layer(CGRect(x: -40, y: -40, width: 200, height: 180), solid(1, 0, 0)))
        r.addSublayer(clip)
        let img = try RenderHarness.render(r, size: CGSize(width: 200, height: 200))
        let plane = GeometryProbe.Plane(transform: t, anchor: CGPoint(x: 60, y: 50), position: CGPoint(x: 100, y: 100))
        let n = GeometryProbe.expectShape(img, margin: 2.5, inColor: red, outColor: white) { px, py in
            plane.unmap(px, py).map { GeometryProbe.roundedRectDistance($0.0, $0.1, clip.bounds, radius: 24) }
        }
        #expect(n.inside > 5000 && n.outside > 25000)
        Golden.expectMatches(img, named: "clip-rounded-perspective")
    }

    /// masksToBounds is an implicit mask on the layer itself (CALayer.masksToBounds doc), so
    /// it also cuts the layer's own shadow: the well-known "shadow disappears with
    /// masksToBounds". Without it the shadow shows.
    @Test func masksToBoundsAlsoCutsTheLayersOwnShadow() throws {
        /// `inRoundedClip` puts the layer inside a rounded clipping parent: the two clips
        /// cannot merge, so the shadow is cut in an offscreen target of its own.
        func render(masks: Bool, inRoundedClip: Bool = false) throws -> (CGImage, RenderStats) {
            let r = root(100, 100)
            let l = layer(CGRect(x: 30, y: 30, width: 40, height: 40), solid(0, 0, 1))
            l.shadowOpacity = 1
            l.shadowOffset = CGSize(width: 10, height: 10)
            l.shadowRadius = 0
            l.masksToBounds = masks
            if inRoundedClip {
                let parent = layer(CGRect(x: 0, y: 0, width: 100, height: 100), nil)
                parent.cornerRadius = 10
                parent.masksToBounds = true
                parent.addSublayer(l)
                r.addSublayer(parent)
            } else {
                r.addSublayer(l)
            }
            let out = try GeometryProbe.render(r, size: CGSize(width: 100, height: 100))
            return (out.image, out.stats)
        }
        let (plain, _) = try render(masks: false)
        GeometryProbe.expectRegion(plain, 70...79, 40...79, black)
        GeometryProbe.expectRegion(plain, 30...69, 30...69, blue)
        for nested in [false, true] {
            let (clipped, stats) = try render(masks: true, inRoundedClip: nested)
            GeometryProbe.expectRegion(clipped, 70...79, 40...79, white)
            GeometryProbe.expectRegion(clipped, 40...69, 70...79, white)
            GeometryProbe.expectRegion(clipped, 30...69, 30...69, blue)
            #expect(stats.offscreenPasses == (nested ? 2 : 1))
        }
    }

    // MARK: Nested clips

    /// Two axis-aligned square clips merge into one clip rectangle (their intersection): no
    /// offscreen pass, and the grandchild is cut to both.
    @Test func nestedAxisAlignedClipsMergeIntoOne() throws {
        let r = root(100, 100)
        let outer = layer(CGRect(x: 10, y: 10, width: 80, height: 80), nil)
        outer.masksToBounds = true
        let inner = layer(CGRect(x: 50, y: -20, width: 100, height: 60), nil)
        inner.masksToBounds = true
        inner.addSublayer(layer(CGRect(x: -100, y: -100, width: 400, height: 400), solid(1, 0, 0)))
        outer.addSublayer(inner)
        r.addSublayer(outer)
        let (img, stats, frame) = try GeometryProbe.render(r, size: CGSize(width: 100, height: 100))
        // inner covers pixels x 60…159, y −10…49; outer 10…89: the intersection is 60…89 × 10…49.
        GeometryProbe.expectRegion(img, 60...89, 10...49, red)
        GeometryProbe.expectRegion(img, 59...59, 0...99, white)
        GeometryProbe.expectRegion(img, 90...90, 0...99, white)
        GeometryProbe.expectRegion(img, 60...89, 9...9, white)
        GeometryProbe.expectRegion(img, 60...89, 50...50, white)
        #expect(stats.offscreenPasses == 0)
        #expect(frame.clips.count == 3)   // none, outer, outer ∩ inner
        Golden.expectMatches(img, named: "clip-nested-merged")
    }

    /// A rotated clip inside a rounded clip cannot merge into one rounded rectangle: the
    /// inner clip is applied in an offscreen target and the outer one when it is composited.
    /// A pixel is red exactly where it is inside both shapes.
    @Test func rotatedClipInsideRoundedClipIsIsolatedAndCutToBoth() throws {
        let r = root(200, 200)
        let outer = layer(CGRect(x: 20, y: 20, width: 160, height: 160), nil)
        outer.cornerRadius = 40
        outer.masksToBounds = true
        let inner = CALayer()
        inner.bounds = CGRect(x: 0, y: 0, width: 200, height: 70)
        inner.position = CGPoint(x: 80, y: 80)
        let t = CATransform3DMakeRotation(.pi / 6, 0, 0, 1)
        inner.transform = t
        inner.masksToBounds = true
        inner.addSublayer(layer(CGRect(x: -200, y: -200, width: 600, height: 600), solid(1, 0, 0)))
        outer.addSublayer(inner)
        r.addSublayer(outer)
        let (img, stats, _) = try GeometryProbe.render(r, size: CGSize(width: 200, height: 200))
        let plane = GeometryProbe.Plane(transform: t, anchor: CGPoint(x: 100, y: 35), position: CGPoint(x: 100, y: 100))
        let outerRect = CGRect(x: 20, y: 20, width: 160, height: 160)
        let n = GeometryProbe.expectShape(img, margin: 1, inColor: red, outColor: white) { px, py in
            guard let p = plane.unmap(px, py) else { return nil }
            let dInner = GeometryProbe.roundedRectDistance(p.0, p.1, inner.bounds, radius: 0)
            let dOuter = GeometryProbe.roundedRectDistance(px, py, outerRect, radius: 40)
            return max(dInner, dOuter)
        }
        #expect(n.inside > 8000 && n.outside > 15000)
        // Both clips cut somewhere: the inner's far corner lies outside the outer rounded
        // rectangle, and the outer's interior has pixels outside the rotated inner (above it).
        let corner = plane.map(199, 69)!
        #expect(img.rgba(Int(corner.0), Int(corner.1)) == white)
        #expect(img.rgba(100, 40) == white)
        #expect(stats.offscreenPasses >= 1)
        Golden.expectMatches(img, named: "clip-nested-isolated")
    }

    // MARK: mask

    /// M8: the mask's alpha, from its whole rendered subtree, decides how much of the layer
    /// shows. Mask background alpha 0.5 → half; an opaque mask sublayer (any colour) → all;
    /// a mask sublayer beyond the mask's bounds still counts; outside the mask → nothing.
    @Test func M8_maskUsesTheAlphaOfTheMaskLayersWholeSubtree() throws {
        let r = root(120, 100)
        let l = layer(CGRect(x: 10, y: 0, width: 100, height: 100), solid(0, 0, 1))
        let m = layer(CGRect(x: 0, y: 0, width: 80, height: 100), solid(0, 0, 0, 0.5))
        m.addSublayer(layer(CGRect(x: 40, y: 0, width: 40, height: 50), solid(1, 0, 0)))
        m.addSublayer(layer(CGRect(x: 85, y: 60, width: 10, height: 10), solid(0, 1, 0)))
        l.mask = m
        r.addSublayer(l)
        let img = try RenderHarness.render(r, size: CGSize(width: 120, height: 100))
        let half = RGBA(127, 127, 255)
        GeometryProbe.expectRegion(img, 50...89, 0...49, blue)
        GeometryProbe.expectRegion(img, 10...49, 0...99, half, tolerance: 1)
        GeometryProbe.expectRegion(img, 50...89, 50...99, half, tolerance: 1)
        GeometryProbe.expectRegion(img, 95...104, 60...69, blue)
        GeometryProbe.expectRegion(img, 90...94, 0...99, white)
        GeometryProbe.expectRegion(img, 105...109, 0...99, white)
        GeometryProbe.expectRegion(img, 95...104, 50...59, white)
        GeometryProbe.expectRegion(img, 0...9, 0...99, white)
        Golden.expectMatches(img, named: "mask-subtree-alpha")
    }

    /// The mask applies to the layer as a whole, its shadow included: the shadow shows only
    /// where the mask covers it.
    @Test func M8_maskAlsoMasksTheLayersShadow() throws {
        let r = root(100, 100)
        let l = layer(CGRect(x: 30, y: 30, width: 40, height: 40), solid(0, 0, 1))
        l.shadowOpacity = 1
        l.shadowOffset = CGSize(width: 10, height: 10)
        l.shadowRadius = 0
        l.mask = layer(CGRect(x: 0, y: 0, width: 45, height: 45), solid(0, 0, 0))
        r.addSublayer(l)
        let img = try RenderHarness.render(r, size: CGSize(width: 100, height: 100))
        GeometryProbe.expectRegion(img, 30...69, 30...69, blue)
        GeometryProbe.expectRegion(img, 70...74, 40...74, black)
        GeometryProbe.expectRegion(img, 75...79, 40...79, white)
        GeometryProbe.expectRegion(img, 40...74, 75...79, white)
    }

    // MARK: Group opacity

    /// N4: with allowsGroupOpacity (the default) a translucent layer's subtree is composited
    /// first and faded once, so two overlapping opaque children show no darker overlap; with
    /// it off each child is faded on its own and the overlap shows both.
    @Test func N4_groupOpacityFadesTheSubtreeOnce() throws {
        func render(group: Bool) throws -> CGImage {
            let r = root(100, 60)
            let parent = layer(CGRect(x: 0, y: 0, width: 100, height: 60), nil)
            parent.opacity = 0.5
            parent.allowsGroupOpacity = group
            parent.addSublayer(layer(CGRect(x: 10, y: 10, width: 50, height: 40), solid(1, 0, 0)))
            parent.addSublayer(layer(CGRect(x: 40, y: 10, width: 50, height: 40), solid(0, 0, 1)))
            r.addSublayer(parent)
            return try RenderHarness.render(r, size: CGSize(width: 100, height: 60))
        }
        let grouped = try render(group: true)
        GeometryProbe.expectRegion(grouped, 10...39, 10...49, RGBA(255, 127, 127), tolerance: 1)
        GeometryProbe.expectRegion(grouped, 40...89, 10...49, RGBA(127, 127, 255), tolerance: 1)
        let separate = try render(group: false)
        GeometryProbe.expectRegion(separate, 10...39, 10...49, RGBA(255, 127, 127), tolerance: 1)
        // Blue at ½ over (red at ½ over white) = (0.5, 0.25, 0.75).
        GeometryProbe.expectRegion(separate, 40...59, 10...49, RGBA(128, 64, 191), tolerance: 2)
        GeometryProbe.expectRegion(separate, 60...89, 10...49, RGBA(127, 127, 255), tolerance: 1)
        Golden.expectMatches(grouped, named: "group-opacity")
        Golden.expectMatches(separate, named: "group-opacity-off")
    }

    /// N4 for a layer's own background and border: at opacity 0.5 the opaque border is
    /// composited over the background first, so no background shows through the border.
    /// Drawn as one box instance (no offscreen pass).
    @Test func N4_groupOpacityCoversALayersBackgroundAndBorder() throws {
        let r = root(100, 100)
        let l = layer(CGRect(x: 10, y: 10, width: 80, height: 80), solid(0, 0, 1))
        l.borderWidth = 10
        l.borderColor = solid(1, 0, 0)
        l.opacity = 0.5
        r.addSublayer(l)
        let (img, stats, _) = try GeometryProbe.render(r, size: CGSize(width: 100, height: 100))
        GeometryProbe.expectRegion(img, 10...19, 10...89, RGBA(255, 127, 127), tolerance: 1)
        GeometryProbe.expectRegion(img, 20...79, 20...79, RGBA(127, 127, 255), tolerance: 1)
        #expect(stats.offscreenPasses == 0)
    }

    // MARK: Combined

    /// A group at opacity 0.5, turned 30°, with rounded corners and a shadow, holding a
    /// rounded clipping child (an oversized red grandchild cut to it) and a blue child masked
    /// to its top half. Checked at points well inside each region (bounds points mapped with
    /// M7): the group fades once (blue over red shows pure blue at ½), the clip and the mask
    /// cut, the shadow lies under the group and beyond it.
    @Test func combinedRotatedRoundedMaskedShadowedGroup() throws {
        let r = root(260, 270)
        let g = CALayer()
        g.bounds = CGRect(x: 0, y: 0, width: 140, height: 140)
        g.position = CGPoint(x: 120, y: 120)
        let t = CATransform3DMakeRotation(.pi / 6, 0, 0, 1)
        g.transform = t
        g.opacity = 0.5
        g.cornerRadius = 24
        g.backgroundColor = solid(0, 1, 0)
        g.shadowOpacity = 1
        g.shadowOffset = CGSize(width: 30, height: 30)
        g.shadowRadius = 4
        let a = layer(CGRect(x: 8, y: 8, width: 80, height: 80), nil)
        a.cornerRadius = 16
        a.masksToBounds = true
        a.addSublayer(layer(CGRect(x: -40, y: -40, width: 200, height: 200), solid(1, 0, 0)))
        let b = layer(CGRect(x: 50, y: 50, width: 80, height: 80), solid(0, 0, 1))
        b.mask = layer(CGRect(x: 0, y: 0, width: 80, height: 40), solid(0, 0, 0))
        g.addSublayer(a)
        g.addSublayer(b)
        r.addSublayer(g)
        let img = try RenderHarness.render(r, size: CGSize(width: 260, height: 270))
        let plane = GeometryProbe.Plane(transform: t, anchor: CGPoint(x: 70, y: 70), position: CGPoint(x: 120, y: 120))
        func at(_ x: Double, _ y: Double) -> RGBA {
            let p = plane.map(x, y)!
            return img.rgba(Int(p.0), Int(p.1))
        }
        // Not over the shadow (x or y < 30 in the group's space):
        #expect(at(20, 20).isClose(to: RGBA(255, 127, 127), tolerance: 2))    // red in the clip
        #expect(at(12, 60).isClose(to: RGBA(255, 127, 127), tolerance: 2))
        #expect(at(100, 20).isClose(to: RGBA(127, 255, 127), tolerance: 2))   // red cut away: group green
        #expect(at(2, 2) == white)                                             // rounded corner of the group
        #expect(at(-10, 70) == white)
        // Over the shadow (black at ½ under the faded group):
        #expect(at(70, 60).isClose(to: RGBA(64, 64, 191), tolerance: 3))      // blue over red, faded once
        #expect(at(100, 120).isClose(to: RGBA(64, 191, 64), tolerance: 3))    // b masked out: green
        #expect(at(160, 100).isClose(to: RGBA(127, 127, 127), tolerance: 2))  // shadow beyond the group
        #expect(at(160, 20) == white)
        Golden.expectMatches(img, named: "combined-group")
    }

    // MARK: Batching

    /// 10 000 sibling rounded rectangles with borders, each with its own colours and opacity,
    /// are one batch and one instanced draw call: no offscreen pass, one box instance each.
    @Test func tenThousandRoundedBorderedRectsAreOneBatch() throws {
        let r = root(400, 400)
        for i in 0..<10_000 {
            let l = layer(CGRect(x: CGFloat(i % 100) * 4, y: CGFloat(i / 100) * 4, width: 12, height: 12),
                          solid(CGFloat(i % 7) / 6, CGFloat(i % 11) / 10, CGFloat(i % 13) / 12))
            l.cornerRadius = 3
            l.borderWidth = 1
            l.borderColor = solid(CGFloat(i % 3) / 2, 0, CGFloat(i % 5) / 4)
            l.opacity = 0.3 + Float(i % 8) / 10
            r.addSublayer(l)
        }
        let (_, stats, frame) = try GeometryProbe.render(r, size: CGSize(width: 400, height: 400))
        #expect(stats.instances == 10_000)
        #expect(stats.batches == 1)
        #expect(stats.drawCalls == 1)
        #expect(stats.offscreenPasses == 0)
        #expect(frame.passes.count == 1)
    }
}
