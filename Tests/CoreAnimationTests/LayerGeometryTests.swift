import Foundation
import Testing
@testable import CoreAnimation

private func near(_ a: CGFloat, _ b: CGFloat, _ tol: CGFloat = 1e-9) -> Bool { abs(a - b) <= tol }
private func near(_ a: CGPoint, _ b: CGPoint, _ tol: CGFloat = 1e-9) -> Bool { near(a.x, b.x, tol) && near(a.y, b.y, tol) }
private func near(_ a: CGSize, _ b: CGSize, _ tol: CGFloat = 1e-9) -> Bool { near(a.width, b.width, tol) && near(a.height, b.height, tol) }
private func near(_ a: CGRect, _ b: CGRect, _ tol: CGFloat = 1e-9) -> Bool { near(a.origin, b.origin, tol) && near(a.size, b.size, tol) }

private func layer(_ bounds: CGRect, at position: CGPoint) -> CALayer {
    let l = CALayer()
    l.bounds = bounds
    l.position = position
    return l
}

@Suite struct LayerGeometryTests {
    // MARK: M1–M3 frame

    /// bounds 100×50 at (200,300) (M2).
    private func m2Layer() -> CALayer { layer(CGRect(x: 0, y: 0, width: 100, height: 50), at: CGPoint(x: 200, y: 300)) }

    @Test("M2 anchor (0.5,0.5) gives frame (150,275,100,50)")
    func frameCentred() {
        #expect(near(m2Layer().frame, CGRect(x: 150, y: 275, width: 100, height: 50)))
    }

    @Test("M2 anchor (0,0) gives frame (200,300,100,50), position unchanged")
    func frameAnchorZero() {
        let l = m2Layer()
        l.anchorPoint = .zero
        #expect(near(l.frame, CGRect(x: 200, y: 300, width: 100, height: 50)))
        #expect(l.position == CGPoint(x: 200, y: 300))
    }

    @Test("M2 anchor (1,1) gives frame (100,250,100,50)")
    func frameAnchorOne() {
        let l = m2Layer()
        l.anchorPoint = CGPoint(x: 1, y: 1)
        #expect(near(l.frame, CGRect(x: 100, y: 250, width: 100, height: 50)))
    }

    @Test("M2 anchor (2,-1) at position (0,0) gives frame (-200,50,100,50)")
    func frameAnchorOutside() {
        let l = m2Layer()
        l.position = .zero
        l.anchorPoint = CGPoint(x: 2, y: -1)
        #expect(l.anchorPoint == CGPoint(x: 2, y: -1))
        #expect(near(l.frame, CGRect(x: -200, y: 50, width: 100, height: 50)))
    }

    @Test("M2 bounds origin (11,22) does not move the frame")
    func frameBoundsOrigin() {
        let l = m2Layer()
        l.bounds.origin = CGPoint(x: 11, y: 22)
        #expect(near(l.frame, CGRect(x: 150, y: 275, width: 100, height: 50)))
    }

    @Test("M2 scale(2,4) gives frame (100,200,200,200)")
    func frameScaled() {
        let l = m2Layer()
        l.transform = CATransform3DMakeScale(2, 4, 1)
        #expect(near(l.frame, CGRect(x: 100, y: 200, width: 200, height: 200)))
    }

    @Test("M2 translate(10,20) gives frame (160,295,100,50)")
    func frameTranslated() {
        let l = m2Layer()
        l.transform = CATransform3DMakeTranslation(10, 20, 0)
        #expect(near(l.frame, CGRect(x: 160, y: 295, width: 100, height: 50)))
    }

    @Test("M2 100x100 at (0,0) rotated 45 deg gives frame (-50√2,-50√2,100√2,100√2)")
    func frameRotated() {
        let l = layer(CGRect(x: 0, y: 0, width: 100, height: 100), at: .zero)
        l.transform = CATransform3DMakeRotation(.pi / 4, 0, 0, 1)
        let r = 50 * 2.0.squareRoot()
        #expect(near(l.frame, CGRect(x: -r, y: -r, width: 2 * r, height: 2 * r)))
    }

    @Test("M2 setFrame (10,20,100,50) anchor (0.5,0.5) gives bounds (0,0,100,50), position (60,45)")
    func setFrameCentred() {
        let l = CALayer()
        l.frame = CGRect(x: 10, y: 20, width: 100, height: 50)
        #expect(near(l.bounds, CGRect(x: 0, y: 0, width: 100, height: 50)))
        #expect(near(l.position, CGPoint(x: 60, y: 45)))
        #expect(near(l.frame, CGRect(x: 10, y: 20, width: 100, height: 50)))
    }

    @Test("M2 setFrame with anchor (1,1) gives position (110,70)")
    func setFrameAnchorOne() {
        let l = CALayer()
        l.anchorPoint = CGPoint(x: 1, y: 1)
        l.frame = CGRect(x: 10, y: 20, width: 100, height: 50)
        #expect(near(l.position, CGPoint(x: 110, y: 70)))
    }

    @Test("M2 setFrame keeps bounds origin")
    func setFrameKeepsOrigin() {
        let l = CALayer()
        l.bounds = CGRect(x: 7, y: 9, width: 1, height: 1)
        l.frame = CGRect(x: 10, y: 20, width: 100, height: 50)
        #expect(near(l.bounds, CGRect(x: 7, y: 9, width: 100, height: 50)))
        #expect(near(l.position, CGPoint(x: 60, y: 45)))
    }

    @Test("M2 setFrame under scale(2,4) gives bounds (0,0,50,12.5), position (60,45)")
    func setFrameScaled() {
        let l = CALayer()
        l.transform = CATransform3DMakeScale(2, 4, 1)
        l.frame = CGRect(x: 10, y: 20, width: 100, height: 50)
        #expect(near(l.bounds, CGRect(x: 0, y: 0, width: 50, height: 12.5)))
        #expect(near(l.position, CGPoint(x: 60, y: 45)))
    }

    @Test("M2 setFrame under translate(10,20) gives position (50,25)")
    func setFrameTranslated() {
        let l = CALayer()
        l.transform = CATransform3DMakeTranslation(10, 20, 0)
        l.frame = CGRect(x: 10, y: 20, width: 100, height: 50)
        #expect(near(l.position, CGPoint(x: 50, y: 25)))
        #expect(near(l.bounds.size, CGSize(width: 100, height: 50)))
        #expect(near(l.frame, CGRect(x: 10, y: 20, width: 100, height: 50)))
    }

    @Test("M2 setFrame under scale 0.5 gives bounds = frame size / 0.5")
    func setFrameHalfScale() {
        let l = CALayer()
        l.transform = CATransform3DMakeScale(0.5, 0.5, 1)
        l.frame = CGRect(x: 0, y: 0, width: 40, height: 30)
        #expect(near(l.bounds.size, CGSize(width: 80, height: 60)))
    }

    @Test("M2 frame round-trips under anchor (0.1,0.1) and under scale (0.25,0.75)")
    func frameRoundTrips() {
        let f = CGRect(x: 13, y: -7, width: 120, height: 64)
        let a = CALayer()
        a.anchorPoint = CGPoint(x: 0.1, y: 0.1)
        a.frame = f
        #expect(near(a.frame, f))
        let s = CALayer()
        s.transform = CATransform3DMakeScale(0.25, 0.75, 1)
        s.frame = f
        #expect(near(s.frame, f))
        #expect(near(s.bounds.size, CGSize(width: 480, height: 64 / 0.75)))
    }

    @Test("M1 frame is derived, not stored: changing position moves it")
    func frameDerived() {
        let l = m2Layer()
        l.position = CGPoint(x: 0, y: 0)
        #expect(near(l.frame, CGRect(x: -50, y: -25, width: 100, height: 50)))
    }

    @Test("M3 changing bounds keeps position and anchorPoint; frame grows about the anchor")
    func boundsGrowAboutAnchor() {
        let l = m2Layer()
        l.bounds = CGRect(x: 0, y: 0, width: 200, height: 100)
        #expect(l.position == CGPoint(x: 200, y: 300))
        #expect(l.anchorPoint == CGPoint(x: 0.5, y: 0.5))
        #expect(near(l.frame, CGRect(x: 100, y: 250, width: 200, height: 100)))
        l.anchorPoint = CGPoint(x: 1.5, y: -0.25)
        #expect(l.anchorPoint == CGPoint(x: 1.5, y: -0.25))
    }

    // MARK: M4 point and rect conversion

    /// parent (0,0,200,200) at (100,100); child 50×50 at (100,50).
    private func m4Pair() -> (parent: CALayer, child: CALayer) {
        let p = layer(CGRect(x: 0, y: 0, width: 200, height: 200), at: CGPoint(x: 100, y: 100))
        let c = layer(CGRect(x: 0, y: 0, width: 50, height: 50), at: CGPoint(x: 100, y: 50))
        p.addSublayer(c)
        return (p, c)
    }

    @Test("M4 child (0,0) converts to parent (75,25)")
    func m4Origin() {
        let (p, c) = m4Pair()
        #expect(near(c.convert(CGPoint.zero, to: p), CGPoint(x: 75, y: 25)))
        #expect(near(p.convert(CGPoint.zero, from: c), CGPoint(x: 75, y: 25)))
    }

    @Test("M4 child (50,50) converts to parent (125,75)")
    func m4Corner() {
        let (p, c) = m4Pair()
        #expect(near(c.convert(CGPoint(x: 50, y: 50), to: p), CGPoint(x: 125, y: 75)))
    }

    @Test("M4 parent (0,0) converts to child (-75,-25)")
    func m4Inverse() {
        let (p, c) = m4Pair()
        #expect(near(p.convert(CGPoint.zero, to: c), CGPoint(x: -75, y: -25)))
        #expect(near(c.convert(CGPoint.zero, from: p), CGPoint(x: -75, y: -25)))
    }

    @Test("M4 rect (0,0,10,20) converts to (75,25,10,20)")
    func m4Rect() {
        let (p, c) = m4Pair()
        #expect(near(c.convert(CGRect(x: 0, y: 0, width: 10, height: 20), to: p), CGRect(x: 75, y: 25, width: 10, height: 20)))
        #expect(near(p.convert(CGRect(x: 0, y: 0, width: 10, height: 20), from: c), CGRect(x: 75, y: 25, width: 10, height: 20)))
    }

    @Test("M4 a layer converts to itself unchanged")
    func m4Self() {
        let (_, c) = m4Pair()
        c.transform = CATransform3DMakeRotation(0.3, 0, 0, 1)
        #expect(near(c.convert(CGPoint(x: 12, y: -3), to: c), CGPoint(x: 12, y: -3)))
        #expect(near(c.convert(CGRect(x: 1, y: 2, width: 3, height: 4), from: c), CGRect(x: 1, y: 2, width: 3, height: 4)))
    }

    @Test("M4 parent bounds origin (10,20) does not change the result (75,25)")
    func m4ParentOrigin() {
        let (p, c) = m4Pair()
        p.bounds.origin = CGPoint(x: 10, y: 20)
        #expect(near(c.convert(CGPoint.zero, to: p), CGPoint(x: 75, y: 25)))
    }

    @Test("M4 child scale(2,2): (0,0)->(50,0), (50,50)->(150,100), rect->(50,0,20,40)")
    func m4ChildScale() {
        let (p, c) = m4Pair()
        c.transform = CATransform3DMakeScale(2, 2, 1)
        #expect(near(c.convert(CGPoint.zero, to: p), CGPoint(x: 50, y: 0)))
        #expect(near(c.convert(CGPoint(x: 50, y: 50), to: p), CGPoint(x: 150, y: 100)))
        #expect(near(c.convert(CGRect(x: 0, y: 0, width: 10, height: 20), to: p), CGRect(x: 50, y: 0, width: 20, height: 40)))
    }

    @Test("M4 parent sublayerTransform translate(10,20): child (0,0)->(85,45)")
    func m4SublayerTranslate() {
        let (p, c) = m4Pair()
        p.sublayerTransform = CATransform3DMakeTranslation(10, 20, 0)
        #expect(near(c.convert(CGPoint.zero, to: p), CGPoint(x: 85, y: 45)))
    }

    @Test("M4 parent sublayerTransform scale(2,2) + child translate(5,6): (0,0)->(60,-38)")
    func m4SublayerScaleAboutAnchor() {
        let (p, c) = m4Pair()
        p.sublayerTransform = CATransform3DMakeScale(2, 2, 1)
        c.transform = CATransform3DMakeTranslation(5, 6, 0)
        #expect(near(c.convert(CGPoint.zero, to: p), CGPoint(x: 60, y: -38)))
        #expect(near(p.convert(CGPoint(x: 60, y: -38), to: c), CGPoint.zero))
    }

    @Test("M4 child 100x100 at (100,100) rotated 45 deg: rect bounding box, centre (50,50)->(100,100)")
    func m4Rotated() {
        let p = layer(CGRect(x: 0, y: 0, width: 200, height: 200), at: CGPoint(x: 100, y: 100))
        let c = layer(CGRect(x: 0, y: 0, width: 100, height: 100), at: CGPoint(x: 100, y: 100))
        p.addSublayer(c)
        c.transform = CATransform3DMakeRotation(.pi / 4, 0, 0, 1)
        let r = 50 * 2.0.squareRoot()
        #expect(near(c.convert(CGRect(x: 0, y: 0, width: 100, height: 100), to: p),
                     CGRect(x: 100 - r, y: 100 - r, width: 2 * r, height: 2 * r)))
        #expect(near(c.convert(CGPoint(x: 50, y: 50), to: p), CGPoint(x: 100, y: 100)))
    }

    @Test("M4 grand-child chain with zero offsets maps (0,0) to (0,0) both ways")
    func m4ZeroChain() {
        let a = CALayer(), b = CALayer(), c = CALayer()
        a.addSublayer(b)
        b.addSublayer(c)
        #expect(c.convert(CGPoint.zero, to: a) == .zero)
        #expect(a.convert(CGPoint.zero, to: c) == .zero)
    }

    @Test("M4 siblings at (25,25) and (125,25): (0,0) converts to (-100,0)")
    func m4Siblings() {
        let p = layer(CGRect(x: 0, y: 0, width: 200, height: 200), at: CGPoint(x: 100, y: 100))
        let s1 = layer(CGRect(x: 0, y: 0, width: 50, height: 50), at: CGPoint(x: 25, y: 25))
        let s2 = layer(CGRect(x: 0, y: 0, width: 50, height: 50), at: CGPoint(x: 125, y: 25))
        p.addSublayer(s1)
        p.addSublayer(s2)
        #expect(near(s1.convert(CGPoint.zero, to: s2), CGPoint(x: -100, y: 0)))
        #expect(near(s2.convert(CGPoint.zero, from: s1), CGPoint(x: -100, y: 0)))
    }

    @Test("M4 layers in different trees: u1 (0,0) -> u2 at (500,500) 50x50 = (-475,-475)")
    func m4DifferentTrees() {
        let u1 = CALayer()
        let u2 = layer(CGRect(x: 0, y: 0, width: 50, height: 50), at: CGPoint(x: 500, y: 500))
        #expect(near(u1.convert(CGPoint.zero, to: u2), CGPoint(x: -475, y: -475)))
        #expect(near(u2.convert(CGPoint.zero, from: u1), CGPoint(x: -475, y: -475)))
    }

    @Test("M4 a removed layer converts as a root")
    func m4Removed() {
        let (p, c) = m4Pair()
        let other = layer(CGRect(x: 0, y: 0, width: 50, height: 50), at: CGPoint(x: 500, y: 500))
        c.removeFromSuperlayer()
        // c is now a root: its (25,25) centre sits at its position (100,50) in root space.
        #expect(near(c.convert(CGPoint(x: 25, y: 25), to: other), CGPoint(x: 100 - 475, y: 50 - 475)))
        #expect(near(c.convert(CGPoint.zero, to: p), CGPoint(x: 75, y: 25)))
    }

    @Test("M4 nil layer converts to and from the root space")
    func m4Nil() {
        let (_, c) = m4Pair()
        #expect(near(c.convert(CGPoint.zero, to: nil), CGPoint(x: 75, y: 25)))
        #expect(near(c.convert(CGPoint(x: 75, y: 25), from: nil), .zero))
    }

    // MARK: M7 sublayer geometry

    @Test("M7 the superlayer's bounds origin scrolls its sublayers")
    func m7Scrolling() {
        let root = layer(CGRect(x: 0, y: 0, width: 400, height: 400), at: CGPoint(x: 200, y: 200))
        let (p, c) = m4Pair()
        root.addSublayer(p)
        #expect(near(c.convert(CGPoint.zero, to: root), CGPoint(x: 75, y: 25)))
        p.bounds.origin = CGPoint(x: 10, y: 20)
        #expect(near(c.convert(CGPoint.zero, to: root), CGPoint(x: 65, y: 5)))
        // Its frame in the parent's bounds space is unchanged.
        #expect(near(c.frame, CGRect(x: 75, y: 25, width: 50, height: 50)))
    }

    @Test("M7 the child's transform applies about its own anchor point")
    func m7ChildAnchor() {
        let (p, c) = m4Pair()
        c.anchorPoint = .zero   // position (100,50) is now the child's (0,0)
        c.transform = CATransform3DMakeRotation(.pi / 2, 0, 0, 1)
        // Row vectors: (10,0) rotated by +90° about z is (0,10).
        #expect(near(c.convert(CGPoint(x: 10, y: 0), to: p), CGPoint(x: 100, y: 60)))
        #expect(near(c.convert(CGPoint.zero, to: p), CGPoint(x: 100, y: 50)))
    }

    @Test("M7 the child's transform applies about its 3D anchor (anchorPointZ)")
    func m7AnchorZ() {
        let (p, c) = m4Pair()
        c.transform = CATransform3DMakeRotation(.pi / 2, 0, 1, 0)
        #expect(near(c.convert(CGPoint(x: 25, y: 25), to: p), CGPoint(x: 100, y: 50)))
        c.anchorPointZ = 10
        // The layer plane sits 10 behind the anchor: (0,0,-10) rotated +90° about y is (-10,0,0).
        #expect(near(c.convert(CGPoint(x: 25, y: 25), to: p), CGPoint(x: 90, y: 50)))
    }

    @Test("M7 perspective in the child's transform divides by w")
    func m7Perspective() {
        let (p, c) = m4Pair()
        var t = CATransform3DIdentity
        t.m34 = -1.0 / 500
        c.transform = CATransform3DTranslate(t, 0, 0, 100)
        // anchor (25,25) maps to position; (0,0) is (-25,-25,0) from it: w = 1 - 100/500 = 0.8.
        #expect(near(c.convert(CGPoint.zero, to: p), CGPoint(x: 100 - 25 / 0.8, y: 50 - 25 / 0.8)))
    }

    // MARK: M5 affineTransform

    @Test("M5 affineTransform is identity by default")
    func m5Default() {
        #expect(CALayer().affineTransform() == .identity)
    }

    @Test("M5 affineTransform reports 2D scale, translation and z rotation")
    func m5Affine() {
        let l = CALayer()
        l.transform = CATransform3DMakeScale(2, 3, 1)
        #expect(l.affineTransform() == CGAffineTransform(scaleX: 2, y: 3))
        l.transform = CATransform3DMakeTranslation(4, 5, 0)
        #expect(l.affineTransform() == CGAffineTransform(translationX: 4, y: 5))
        l.transform = CATransform3DMakeRotation(0.5, 0, 0, 1)
        let a = l.affineTransform()
        #expect(near(a.a, cos(0.5)) && near(a.b, sin(0.5)) && near(a.c, -sin(0.5)) && near(a.d, cos(0.5)))
        #expect(a.tx == 0 && a.ty == 0)
    }

    @Test("M5 non-affine transforms report identity and are not affine")
    func m5NonAffine() {
        var persp = CATransform3DIdentity
        persp.m34 = -1.0 / 500
        let cases = [CATransform3DMakeScale(1, 1, 2), CATransform3DMakeRotation(0.5, 1, 0, 0),
                     CATransform3DMakeTranslation(0, 0, 5), persp]
        for t in cases {
            let l = CALayer()
            l.transform = t
            #expect(l.affineTransform() == .identity)
            #expect(!CATransform3DIsAffine(t))
        }
        #expect(CATransform3DIsAffine(CATransform3DMakeRotation(0.5, 0, 0, 1)))
    }

    @Test("M5 setAffineTransform replaces the whole transform (m33 back to 1)")
    func m5SetAffine() {
        let l = CALayer()
        l.transform = CATransform3DMakeScale(5, 5, 7)
        l.setAffineTransform(CGAffineTransform(a: 1, b: 2, c: 3, d: 4, tx: 5, ty: 6))
        let t = l.transform
        #expect(t.m11 == 1 && t.m12 == 2 && t.m21 == 3 && t.m22 == 4 && t.m41 == 5 && t.m42 == 6)
        #expect(t.m33 == 1 && t.m44 == 1 && t.m34 == 0 && t.m43 == 0)
        #expect(l.affineTransform() == CGAffineTransform(a: 1, b: 2, c: 3, d: 4, tx: 5, ty: 6))
    }

    // MARK: C2 convertTime

    /// root → mid (beginTime 2, speed 3, timeOffset 0.25) → leaf (beginTime 1, speed 2, timeOffset 0.5).
    private func timeTree() -> (root: CALayer, mid: CALayer, leaf: CALayer) {
        let root = CALayer(), mid = CALayer(), leaf = CALayer()
        mid.beginTime = 2; mid.speed = 3; mid.timeOffset = 0.25
        leaf.beginTime = 1; leaf.speed = 2; leaf.timeOffset = 0.5
        root.addSublayer(mid)
        mid.addSublayer(leaf)
        return (root, mid, leaf)
    }

    @Test("C2 leaf convertTime(10, from: mid) = 18.5")
    func c2FromMid() {
        let (_, mid, leaf) = timeTree()
        #expect(near(leaf.convertTime(10, from: mid), 18.5))
    }

    @Test("C2 leaf convertTime(10, from: root) = 47")
    func c2FromRoot() {
        let (root, _, leaf) = timeTree()
        #expect(near(leaf.convertTime(10, from: root), 47))
    }

    @Test("C2 leaf convertTime(10, to: mid) = 5.75")
    func c2ToMid() {
        let (_, mid, leaf) = timeTree()
        #expect(near(leaf.convertTime(10, to: mid), 5.75))
    }

    @Test("C2 leaf convertTime(10, to: root) = 23/6; to nil the same")
    func c2ToRoot() {
        let (root, _, leaf) = timeTree()
        #expect(near(leaf.convertTime(10, to: root), 23.0 / 6, 1e-5))
        #expect(near(leaf.convertTime(10, to: nil), 23.0 / 6, 1e-5))
    }

    @Test("C2 converting to and from the same layer is the identity; from/to invert each other")
    func c2RoundTrip() {
        let (root, mid, leaf) = timeTree()
        #expect(near(leaf.convertTime(10, from: leaf), 10))
        #expect(near(leaf.convertTime(leaf.convertTime(10, to: mid), from: mid), 10))
        #expect(near(leaf.convertTime(leaf.convertTime(10, from: root), to: root), 10))
        #expect(near(root.convertTime(47, from: leaf), 10))
    }
}
