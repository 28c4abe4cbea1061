import Testing

struct CGAffineTransformTests {
    @Test("concatenating applies the receiver first, then the argument")
    func concatenationOrder() {
        let translate = CGAffineTransform(translationX: 10, y: 0)
        let scale = CGAffineTransform(scaleX: 2, y: 3)
        let p = CGPoint(x: 1, y: 1)
        #expect(p.applying(translate.concatenating(scale)) == CGPoint(x: 22, y: 3))
        #expect(p.applying(scale.concatenating(translate)) == CGPoint(x: 12, y: 3))
    }

    @Test("translatedBy/scaledBy prepend to the existing transform, as CGAffineTransformTranslate")
    func prependingHelpers() {
        let t = CGAffineTransform(scaleX: 2, y: 2).translatedBy(x: 5, y: 0)
        // Translate first (in the scaled space), then scale: (0,0) → (5,0) → (10,0).
        #expect(CGPoint.zero.applying(t) == CGPoint(x: 10, y: 0))
        let s = CGAffineTransform(translationX: 5, y: 0).scaledBy(x: 2, y: 2)
        #expect(CGPoint(x: 1, y: 1).applying(s) == CGPoint(x: 7, y: 2))
    }

    @Test("rotation by π/2 maps (1,0) to (0,1)")
    func rotationQuarterTurn() {
        let p = CGPoint(x: 1, y: 0).applying(CGAffineTransform(rotationAngle: .pi / 2))
        #expect(close(p, CGPoint(x: 0, y: 1), 1e-15))
        let r = CGAffineTransform.identity.rotated(by: .pi / 2)
        #expect(close(CGPoint(x: 0, y: 2).applying(r), CGPoint(x: -2, y: 0), 1e-15))
    }

    @Test("inverted undoes the transform; a singular matrix comes back unchanged")
    func inverse() {
        let t = CGAffineTransform(a: 2, b: 0, c: 0, d: 4, tx: 6, ty: -8)
        let inv = t.inverted()
        #expect(inv == CGAffineTransform(a: 0.5, b: 0, c: 0, d: 0.25, tx: -3, ty: 2))
        #expect(CGPoint(x: 3, y: 5).applying(t).applying(inv) == CGPoint(x: 3, y: 5))
        #expect(t.concatenating(inv).isIdentity)
        let singular = CGAffineTransform(a: 1, b: 2, c: 2, d: 4, tx: 1, ty: 1)
        #expect(singular.inverted() == singular)
    }

    @Test("applying to a rect gives the bounding box of its transformed corners")
    func rectBoundingBox() {
        let r = CGRect(x: 0, y: 0, width: 2, height: 1)
        let rotated = r.applying(CGAffineTransform(rotationAngle: .pi / 2))
        #expect(close(rotated, CGRect(x: -1, y: 0, width: 1, height: 2), 1e-15))
        let rot45 = CGRect(x: -1, y: -1, width: 2, height: 2).applying(CGAffineTransform(rotationAngle: .pi / 4))
        let h = 2.0.squareRoot()
        #expect(close(rot45, CGRect(x: -h, y: -h, width: 2 * h, height: 2 * h), 1e-12))
        #expect(CGRect.null.applying(CGAffineTransform(scaleX: 2, y: 2)).isNull)
    }

    @Test("sizes ignore translation; init() is the zero matrix, not the identity")
    func sizesAndZero() {
        let t = CGAffineTransform(a: 2, b: 0, c: 0, d: 3, tx: 100, ty: 100)
        #expect(CGSize(width: 1, height: 1).applying(t) == CGSize(width: 2, height: 3))
        #expect(CGAffineTransform() == CGAffineTransform(a: 0, b: 0, c: 0, d: 0, tx: 0, ty: 0))
        #expect(!CGAffineTransform().isIdentity)
        #expect(CGAffineTransform.identity.isIdentity)
    }
}
