import Testing
import Foundation

/// Layer geometry as the renderer places it (docs/BEHAVIOUR.md M1–M7): anchorPoint and position,
/// bounds.origin scrolling sublayers, transforms about the anchor point with m34 perspective,
/// sublayerTransform about the parent's anchor point, zPosition ordering, isDoubleSided,
/// isGeometryFlipped, renderer scale and contentsScale, CATransformLayer. Expected pixels are
/// computed from Apple's geometry (M7's point mapping), not read back from the renderer.
@Suite struct GeometryTests: SceneBuilding {
    // MARK: anchorPoint, position, bounds.origin

    /// M2: with anchor (0,0) the frame's origin is the position; with anchor (1,1) the
    /// position is the frame's max corner.
    @Test func M2_anchorPointPlacesTheBoundsAroundThePosition() throws {
        let r = root(100, 80)
        let a = CALayer()
        a.bounds = CGRect(x: 0, y: 0, width: 40, height: 20)
        a.anchorPoint = CGPoint(x: 0, y: 0)
        a.position = CGPoint(x: 20, y: 30)
        a.backgroundColor = solid(1, 0, 0)
        let b = CALayer()
        b.bounds = CGRect(x: 0, y: 0, width: 20, height: 10)
        b.anchorPoint = CGPoint(x: 1, y: 1)
        b.position = CGPoint(x: 90, y: 70)
        b.backgroundColor = solid(0, 0, 1)
        r.addSublayer(a)
        r.addSublayer(b)
        let img = try RenderHarness.render(r, size: CGSize(width: 100, height: 80))
        GeometryProbe.expectRegion(img, 20...59, 30...49, red)
        GeometryProbe.expectRegion(img, 19...19, 30...49, white)
        GeometryProbe.expectRegion(img, 60...60, 30...49, white)
        GeometryProbe.expectRegion(img, 20...59, 29...29, white)
        GeometryProbe.expectRegion(img, 20...59, 50...50, white)
        GeometryProbe.expectRegion(img, 70...89, 60...69, blue)
        GeometryProbe.expectRegion(img, 90...90, 60...69, white)
        GeometryProbe.expectRegion(img, 70...89, 70...70, white)
        Golden.expectMatches(img, named: "geometry-anchor")
    }

    /// M7: a sublayer's position is in the superlayer's bounds space, so bounds.origin
    /// (10, 5) moves the children 10 px left and 5 px up, while the superlayer itself stays
    /// where its frame says (M2: bounds origin does not move the frame).
    @Test func M7_boundsOriginScrollsTheSublayersNotTheLayer() throws {
        let r = root(100, 80)
        let parent = layer(CGRect(x: 0, y: 0, width: 100, height: 80), solid(0, 1, 0))
        parent.addSublayer(layer(CGRect(x: 30, y: 20, width: 20, height: 20), solid(1, 0, 0)))
        parent.bounds = CGRect(x: 10, y: 5, width: 100, height: 80)
        r.addSublayer(parent)
        let img = try RenderHarness.render(r, size: CGSize(width: 100, height: 80))
        GeometryProbe.expectRegion(img, 20...39, 15...34, red)
        GeometryProbe.expectRegion(img, 19...19, 15...34, green)
        GeometryProbe.expectRegion(img, 40...40, 15...34, green)
        GeometryProbe.expectRegion(img, 20...39, 14...14, green)
        GeometryProbe.expectRegion(img, 20...39, 35...35, green)
        // The parent's own background still covers exactly its frame.
        #expect(img.rgba(0, 0) == green)
        #expect(img.rgba(99, 79) == green)
        Golden.expectMatches(img, named: "geometry-bounds-origin")
    }

    // MARK: transform

    /// M6/M7: the transform applies about the anchor point; MakeRotation(π/2, 0, 0, 1) maps
    /// the layer's +x axis onto +y (down on screen), so the right end ends up at the bottom.
    @Test func M7_transformRotatesAboutTheAnchorPoint() throws {
        let r = root(100, 100)
        let l = CALayer()
        l.bounds = CGRect(x: 0, y: 0, width: 40, height: 20)
        l.position = CGPoint(x: 50, y: 50)
        l.backgroundColor = solid(1, 0, 0)
        l.addSublayer(layer(CGRect(x: 30, y: 0, width: 10, height: 20), solid(0, 0, 1)))
        l.transform = CATransform3DMakeRotation(.pi / 2, 0, 0, 1)
        r.addSublayer(l)
        let img = try RenderHarness.render(r, size: CGSize(width: 100, height: 100))
        GeometryProbe.expectRegion(img, 40...59, 30...59, red)
        GeometryProbe.expectRegion(img, 40...59, 60...69, blue)
        GeometryProbe.expectRegion(img, 39...39, 30...69, white)
        GeometryProbe.expectRegion(img, 60...60, 30...69, white)
        GeometryProbe.expectRegion(img, 40...59, 29...29, white)
        GeometryProbe.expectRegion(img, 40...59, 70...70, white)
        Golden.expectMatches(img, named: "geometry-rotation")
    }

    /// M6: m34 = −1/500 with a rotation about y. MakeRotation(θ, 0, 1, 0) sends +x to −z (away
    /// from the viewer) for θ > 0, so the left edge is near and taller, the right edge far and
    /// shorter; every column's height is 100 / w with w = 1 + x·sinθ/500 (x from the anchor).
    @Test func M6_perspectiveMakesTheNearEdgeTallerThanTheFarEdge() throws {
        let r = root(200, 200)
        let l = CALayer()
        l.bounds = CGRect(x: 0, y: 0, width: 100, height: 100)
        l.position = CGPoint(x: 100, y: 100)
        l.backgroundColor = solid(1, 0, 0)
        var t = CATransform3DIdentity
        t.m34 = -1.0 / 500
        t = CATransform3DRotate(t, .pi / 3, 0, 1, 0)
        l.transform = t
        r.addSublayer(l)
        let img = try RenderHarness.render(r, size: CGSize(width: 200, height: 200))
        let plane = GeometryProbe.Plane(transform: t, anchor: CGPoint(x: 50, y: 50), position: CGPoint(x: 100, y: 100))
        // Every pixel clearly inside or outside the projected square.
        let checked = GeometryProbe.expectShape(img, margin: 2, inColor: red, outColor: white) { px, py in
            plane.unmap(px, py).map { GeometryProbe.roundedRectDistance($0.0, $0.1, l.bounds, radius: 0) }
        }
        #expect(checked.inside > 4000 && checked.outside > 30000)
        // Column heights: pixels more red than white, against the analytic 100 / w.
        func redRun(_ x: Int) -> Int { (0..<200).filter { img.rgba(x, $0).g < 128 }.count }
        func expectedHeight(_ x: Int) -> Double {
            let local = plane.unmap(Double(x) + 0.5, 100)!
            let top = plane.map(local.0, 0)!, bottom = plane.map(local.0, 100)!
            return bottom.1 - top.1
        }
        let left = plane.map(0, 50)!.0, right = plane.map(100, 50)!.0
        let nearX = Int(left.rounded(.up)) + 1, farX = Int(right.rounded(.down)) - 2
        #expect(abs(Double(redRun(nearX)) - expectedHeight(nearX)) <= 1.5)
        #expect(abs(Double(redRun(farX)) - expectedHeight(farX)) <= 1.5)
        #expect(redRun(nearX) > redRun(farX) + 12)
        // Foreshortened: the projected width is less than 100 and off-centre to the far side.
        #expect(right - left < 60 && (100 - left) > (right - 100))
        Golden.expectMatches(img, named: "geometry-perspective")
    }

    // MARK: sublayerTransform

    /// M4: parent bounds (0,0,200,200) at (100,100) with sublayerTransform scale(2,2); a child
    /// 50×50 at (100,50) with transform translate(5,6) maps its (0,0) to (60,−38) and its
    /// (50,50) to (160,62): the sublayer transform applies about the parent's anchor point.
    @Test func M4_sublayerTransformScalesAboutTheParentsAnchorPoint() throws {
        let parent = CALayer()
        parent.bounds = CGRect(x: 0, y: 0, width: 200, height: 200)
        parent.position = CGPoint(x: 100, y: 100)
        parent.backgroundColor = solid(0, 1, 0)
        parent.sublayerTransform = CATransform3DMakeScale(2, 2, 1)
        let child = CALayer()
        child.bounds = CGRect(x: 0, y: 0, width: 50, height: 50)
        child.position = CGPoint(x: 100, y: 50)
        child.transform = CATransform3DMakeTranslation(5, 6, 0)
        child.backgroundColor = solid(1, 0, 0)
        parent.addSublayer(child)
        let img = try RenderHarness.render(parent, size: CGSize(width: 200, height: 200))
        GeometryProbe.expectRegion(img, 60...159, 0...61, red)
        GeometryProbe.expectRegion(img, 59...59, 0...61, green)
        GeometryProbe.expectRegion(img, 160...160, 0...61, green)
        GeometryProbe.expectRegion(img, 60...159, 62...62, green)
        Golden.expectMatches(img, named: "geometry-sublayer-scale")
    }

    /// M7: a sublayerTransform rotation turns the children about the parent's anchor point,
    /// here (0.25, 0.25) of a 200×200 parent, i.e. (50, 50), not about its centre or origin.
    @Test func M7_sublayerTransformRotatesChildrenAboutTheParentsAnchor() throws {
        let r = root(200, 200)
        let parent = CALayer()
        parent.anchorPoint = CGPoint(x: 0.25, y: 0.25)
        parent.frame = CGRect(x: 0, y: 0, width: 200, height: 200)
        parent.sublayerTransform = CATransform3DMakeRotation(.pi / 2, 0, 0, 1)
        // Relative to the anchor: x 20…60, y −10…10 → after the turn x −10…10, y 20…60.
        parent.addSublayer(layer(CGRect(x: 70, y: 40, width: 40, height: 20), solid(0, 0, 1)))
        r.addSublayer(parent)
        let img = try RenderHarness.render(r, size: CGSize(width: 200, height: 200))
        GeometryProbe.expectRegion(img, 40...59, 70...109, blue)
        GeometryProbe.expectRegion(img, 39...39, 70...109, white)
        GeometryProbe.expectRegion(img, 60...60, 70...109, white)
        GeometryProbe.expectRegion(img, 40...59, 69...69, white)
        GeometryProbe.expectRegion(img, 40...59, 110...110, white)
        GeometryProbe.expectRegion(img, 70...109, 40...59, white)   // where it was unrotated
        Golden.expectMatches(img, named: "geometry-sublayer-rotation")
    }

    // MARK: zPosition

    /// zPosition orders siblings (higher on top, ties in array order) but a high zPosition
    /// does not lift a layer above its parent's later siblings: each layer's sublayers are
    /// drawn into that layer, in its place among its own siblings.
    @Test func zPositionReordersSiblingsButNotAcrossParents() throws {
        let r = root(100, 100)
        let a = layer(CGRect(x: 0, y: 0, width: 100, height: 100), nil)
        let s1 = layer(CGRect(x: 10, y: 10, width: 40, height: 40), solid(0, 0, 1))
        s1.zPosition = 1
        let s2 = layer(CGRect(x: 30, y: 30, width: 40, height: 40), solid(1, 1, 0))
        let s0 = layer(CGRect(x: 5, y: 40, width: 20, height: 20), solid(1, 0, 1))
        s0.zPosition = -1   // under s1 although added last
        let a1 = layer(CGRect(x: 60, y: 60, width: 30, height: 30), solid(1, 0, 0))
        a1.zPosition = 100
        a.addSublayer(s1); a.addSublayer(s2); a.addSublayer(a1); a.addSublayer(s0)
        let b = layer(CGRect(x: 50, y: 50, width: 50, height: 50), solid(0, 1, 0))
        r.addSublayer(a)
        r.addSublayer(b)
        let img = try RenderHarness.render(r, size: CGSize(width: 100, height: 100))
        GeometryProbe.expectRegion(img, 30...49, 30...49, blue)    // s1 (z 1) over s2 (z 0)
        GeometryProbe.expectRegion(img, 30...49, 50...69, yellow)
        GeometryProbe.expectRegion(img, 10...24, 40...49, blue)    // s1 over s0 (z −1)
        GeometryProbe.expectRegion(img, 5...9, 40...59, RGBA(255, 0, 255))
        GeometryProbe.expectRegion(img, 50...99, 50...99, green)   // b over a1 despite z 100
        Golden.expectMatches(img, named: "geometry-zposition")
    }

    // MARK: isDoubleSided

    /// A layer with isDoubleSided false is not drawn when its back faces the viewer (turned
    /// by π about y or x); turned less, or double-sided, it is. The mirror that
    /// isGeometryFlipped puts on sublayers is a change of coordinate system, not a turn, so
    /// it does not make a single-sided layer face away.
    @Test func isDoubleSidedFalseHidesALayerFacingAway() throws {
        let r = root(300, 60)
        @discardableResult func card(_ x: CGFloat, _ t: CATransform3D, doubleSided: Bool) -> CALayer {
            let l = layer(CGRect(x: x, y: 10, width: 40, height: 40), solid(1, 0, 0))
            l.transform = t
            l.isDoubleSided = doubleSided
            r.addSublayer(l)
            return l
        }
        var perspective = CATransform3DIdentity
        perspective.m34 = -1.0 / 300
        card(10, CATransform3DMakeRotation(.pi, 0, 1, 0), doubleSided: false)
        card(60, CATransform3DMakeRotation(.pi, 0, 1, 0), doubleSided: true)
        card(110, CATransform3DMakeRotation(.pi, 1, 0, 0), doubleSided: false)
        card(160, CATransform3DRotate(perspective, .pi / 3, 0, 1, 0), doubleSided: false)
        card(210, CATransform3DRotate(perspective, 2 * .pi / 3, 0, 1, 0), doubleSided: false)
        let flipped = layer(CGRect(x: 250, y: 0, width: 50, height: 60), nil)
        flipped.isGeometryFlipped = true
        let inFlipped = layer(CGRect(x: 5, y: 10, width: 40, height: 40), solid(1, 0, 0))
        inFlipped.isDoubleSided = false
        flipped.addSublayer(inFlipped)
        r.addSublayer(flipped)
        let img = try RenderHarness.render(r, size: CGSize(width: 300, height: 60))
        #expect(img.rgba(30, 30) == white)    // back facing, culled
        #expect(img.rgba(80, 30) == red)      // back facing but double-sided
        #expect(img.rgba(130, 30) == white)   // flipped over x, culled
        #expect(img.rgba(180, 30) == red)     // 60° turn still faces the viewer
        #expect(img.rgba(230, 30) == white)   // 120° turn faces away
        #expect(img.rgba(275, 30) == red)     // geometry flip is not a back face
        Golden.expectMatches(img, named: "geometry-double-sided")
    }

    // MARK: isGeometryFlipped

    /// isGeometryFlipped makes the sublayers' y axis run up from the bottom: a child at y = 0
    /// sits at the parent's bottom edge. The flip is inherited (a grandchild at y = 0 of an
    /// unflipped child is at that child's visual bottom); flipping again restores y-down.
    @Test func isGeometryFlippedPutsAChildAtYZeroAtTheParentsBottom() throws {
        let r = root(100, 100)
        let parent = layer(CGRect(x: 0, y: 0, width: 100, height: 100), solid(0, 1, 0))
        parent.isGeometryFlipped = true
        let child = layer(CGRect(x: 10, y: 0, width: 20, height: 10), solid(1, 0, 0))
        child.addSublayer(layer(CGRect(x: 0, y: 0, width: 20, height: 5), solid(0, 0, 1)))
        let flippedChild = layer(CGRect(x: 60, y: 0, width: 30, height: 30), solid(1, 1, 0))
        flippedChild.isGeometryFlipped = true
        flippedChild.addSublayer(layer(CGRect(x: 0, y: 0, width: 30, height: 5), solid(0, 0, 1)))
        parent.addSublayer(child)
        parent.addSublayer(flippedChild)
        r.addSublayer(parent)
        let img = try RenderHarness.render(r, size: CGSize(width: 100, height: 100))
        GeometryProbe.expectRegion(img, 10...29, 90...94, red)
        GeometryProbe.expectRegion(img, 10...29, 95...99, blue)
        GeometryProbe.expectRegion(img, 10...29, 89...89, green)
        GeometryProbe.expectRegion(img, 60...89, 70...74, blue)
        GeometryProbe.expectRegion(img, 60...89, 75...99, yellow)
        GeometryProbe.expectRegion(img, 60...89, 69...69, green)
        Golden.expectMatches(img, named: "geometry-flipped")
    }

    // MARK: Scale

    /// A renderer of scale 2 draws the same picture with twice the pixels: edges at twice the
    /// coordinates, and averaging each 2×2 block gives the scale-1 image back (up to the
    /// antialiasing of edges).
    @Test func rendererScaleTwoDrawsTheSamePictureAtTwiceTheResolution() throws {
        func scene() -> CALayer {
            let r = root(100, 80)
            r.addSublayer(layer(CGRect(x: 10, y: 10, width: 30, height: 20), solid(0, 0, 1)))
            let card = layer(CGRect(x: 45, y: 20, width: 40, height: 40), solid(1, 0, 0))
            card.cornerRadius = 10
            card.borderWidth = 3
            card.borderColor = solid(0, 0, 0)
            card.transform = CATransform3DMakeRotation(0.4, 0, 0, 1)
            r.addSublayer(card)
            return r
        }
        let one = try RenderHarness.render(scene(), size: CGSize(width: 100, height: 80))
        let two = try RenderHarness.render(scene(), size: CGSize(width: 100, height: 80), scale: 2)
        #expect(two.width == 200 && two.height == 160)
        GeometryProbe.expectRegion(two, 20...79, 20...59, blue)
        GeometryProbe.expectRegion(two, 19...19, 20...59, white)
        GeometryProbe.expectRegion(two, 80...80, 20...59, white)
        var total = 0, worst = 0
        for y in 0..<80 { for x in 0..<100 {
            let p = one.rgba(x, y)
            let q = [two.rgba(2 * x, 2 * y), two.rgba(2 * x + 1, 2 * y), two.rgba(2 * x, 2 * y + 1), two.rgba(2 * x + 1, 2 * y + 1)]
            let avg = RGBA(q.map(\.r).reduce(0, +) / 4, q.map(\.g).reduce(0, +) / 4, q.map(\.b).reduce(0, +) / 4)
            let d = max(abs(avg.r - p.r), abs(avg.g - p.g), abs(avg.b - p.b))
            total += d
            worst = max(worst, d)
        } }
        #expect(worst <= 64)
        #expect(Double(total) / 8000 < 1.5)
        Golden.expectMatches(two, named: "geometry-scale2")
    }

    /// contentsScale is image pixels per point: a 40×40 image at contentsScale 2 is 20×20
    /// points, and a renderer of scale 2 shows it texel for pixel (with `center` gravity in a
    /// 20×20 layer at (10,10), texel (i, j) at pixel (20 + i, 20 + j)). At contentsScale 1
    /// the same image is 40 points wide and overflows the layer about its centre.
    @Test func contentsScaleMapsImagePixelsToPointsAtRendererScaleTwo() throws {
        var bytes: [UInt8] = []
        for j in 0..<40 { for i in 0..<40 { bytes += (i + j) % 2 == 0 ? [255, 0, 0, 255] : [0, 0, 255, 255] } }
        let image = CGImage(width: 40, height: 40, rgba8Bytes: bytes, premultiplied: true)!
        func render(contentsScale: CGFloat) throws -> CGImage {
            let r = root(60, 60)
            let l = layer(CGRect(x: 10, y: 10, width: 20, height: 20), nil)
            l.contents = image
            l.contentsGravity = .center
            l.contentsScale = contentsScale
            l.magnificationFilter = .nearest   // 2×2 pixels per texel at contentsScale 1, unblended
            r.addSublayer(l)
            return try RenderHarness.render(r, size: CGSize(width: 60, height: 60), scale: 2)
        }
        let sharp = try render(contentsScale: 2)
        var misses = 0
        for j in 0..<40 { for i in 0..<40 where sharp.rgba(20 + i, 20 + j) != ((i + j) % 2 == 0 ? red : blue) { misses += 1 } }
        #expect(misses == 0)
        GeometryProbe.expectRegion(sharp, 0...19, 0...59, white)
        GeometryProbe.expectRegion(sharp, 60...119, 0...119, white)
        let natural = try render(contentsScale: 1)
        // 40 points about the layer's centre (20,20): points 0…40, pixels 0…79, 2×2 per texel.
        #expect(natural.rgba(0, 0) == red && natural.rgba(1, 1) == red && natural.rgba(2, 0) == blue)
        #expect(natural.rgba(79, 79) == red && natural.rgba(80, 80) == white)
        Golden.expectMatches(sharp, named: "geometry-contents-scale")
    }

    // MARK: CATransformLayer

    /// A CATransformLayer does not flatten: its sublayers keep their z, so the perspective of
    /// an ancestor's sublayerTransform (m34 = −1/500) scales a child translated to z = 100 by
    /// 1 / (1 − 100/500) = 1.25 (80 points → 100 pixels). A plain CALayer in its place
    /// flattens the child into its plane (z dropped: 80 pixels). The transform layer draws
    /// nothing of its own (its background is ignored).
    @Test func CATransformLayerKeepsSublayersIn3D() throws {
        func render(transformLayer: Bool) throws -> CGImage {
            let r = root(200, 200)
            var p = CATransform3DIdentity
            p.m34 = -1.0 / 500
            r.sublayerTransform = p
            let holder: CALayer = transformLayer ? CATransformLayer() : CALayer()
            holder.frame = CGRect(x: 0, y: 0, width: 200, height: 200)
            holder.backgroundColor = transformLayer ? solid(0, 1, 0) : nil
            let c = CALayer()
            c.bounds = CGRect(x: 0, y: 0, width: 80, height: 80)
            c.position = CGPoint(x: 100, y: 100)
            c.transform = CATransform3DMakeTranslation(0, 0, 100)
            c.backgroundColor = solid(1, 0, 0)
            holder.addSublayer(c)
            r.addSublayer(holder)
            return try RenderHarness.render(r, size: CGSize(width: 200, height: 200))
        }
        let deep = try render(transformLayer: true)
        GeometryProbe.expectRegion(deep, 50...149, 50...149, red)
        GeometryProbe.expectRegion(deep, 49...49, 50...149, white)
        GeometryProbe.expectRegion(deep, 150...150, 50...149, white)
        #expect(deep.rgba(5, 5) == white)
        let flat = try render(transformLayer: false)
        GeometryProbe.expectRegion(flat, 60...139, 60...139, red)
        GeometryProbe.expectRegion(flat, 59...59, 60...139, white)
        GeometryProbe.expectRegion(flat, 140...140, 60...139, white)
        Golden.expectMatches(deep, named: "geometry-transform-layer")
    }

    /// Under a CATransformLayer sublayers draw far to near (painter's order by depth), so the
    /// nearer one (translated to z = 30, first in the array) covers the other; a flattening
    /// layer drops the depth and keeps array order, so the later sibling covers it.
    @Test func CATransformLayerDrawsNearerSublayersOnTop() throws {
        func render(transformLayer: Bool) throws -> CGImage {
            let r = root(100, 100)
            var p = CATransform3DIdentity
            p.m34 = -1.0 / 500
            r.sublayerTransform = p
            let holder: CALayer = transformLayer ? CATransformLayer() : CALayer()
            holder.frame = CGRect(x: 0, y: 0, width: 100, height: 100)
            let near = layer(CGRect(x: 20, y: 20, width: 40, height: 40), solid(1, 0, 0))
            near.transform = CATransform3DMakeTranslation(0, 0, 30)
            let far = layer(CGRect(x: 40, y: 40, width: 40, height: 40), solid(0, 0, 1))
            holder.addSublayer(near)
            holder.addSublayer(far)
            r.addSublayer(holder)
            return try RenderHarness.render(r, size: CGSize(width: 100, height: 100))
        }
        #expect(try render(transformLayer: true).rgba(55, 55) == red)
        #expect(try render(transformLayer: false).rgba(55, 55) == blue)
    }
}
