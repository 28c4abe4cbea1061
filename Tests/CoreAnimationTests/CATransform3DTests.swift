import Testing
@testable import CoreAnimation

/// Largest absolute difference between corresponding fields.
func maxFieldDifference(_ a: CATransform3D, _ b: CATransform3D) -> Double {
    zip(a.rowMajor, b.rowMajor).map { abs(Double($0) - Double($1)) }.max() ?? .infinity
}

func approxEqual(_ a: CATransform3D, _ b: CATransform3D, tolerance: Double = 1e-9) -> Bool {
    maxFieldDifference(a, b) <= tolerance
}

@Suite("M6 CATransform3D conventions")
struct CATransform3DConventionTests {
    @Test("M6 MakeRotation(π/2, 0,0,1) = [c s 0 0; −s c 0 0; 0 0 1 0; 0 0 0 1]")
    func rotationLayout() {
        let r = CATransform3DMakeRotation(.pi / 2, 0, 0, 1)
        let c = cos(CGFloat.pi / 2), s = sin(CGFloat.pi / 2)
        let expected = CATransform3D(
            m11: c, m12: s, m13: 0, m14: 0,
            m21: -s, m22: c, m23: 0, m24: 0,
            m31: 0, m32: 0, m33: 1, m34: 0,
            m41: 0, m42: 0, m43: 0, m44: 1)
        #expect(approxEqual(r, expected, tolerance: 1e-15))
        #expect(r.m12 == 1)
        #expect(r.m21 == -1)
        // A point on +x goes to +y (row vector · matrix).
        let p = r.apply(x: 1, y: 0)
        #expect(abs(p.x) < 1e-15 && abs(p.y - 1) < 1e-15)
    }

    @Test("M6 Concat(T(10,0,0), S(2)).m41 == 20: a first, then b")
    func concatTranslateThenScale() {
        let m = CATransform3DConcat(CATransform3DMakeTranslation(10, 0, 0), CATransform3DMakeScale(2, 2, 2))
        #expect(m.m41 == 20)
        #expect(m.m11 == 2)
    }

    @Test("M6 Concat(S(2), T(10,0,0)).m41 == 10")
    func concatScaleThenTranslate() {
        let m = CATransform3DConcat(CATransform3DMakeScale(2, 2, 2), CATransform3DMakeTranslation(10, 0, 0))
        #expect(m.m41 == 10)
    }

    @Test("M6 Translate(S(2), 10,0,0).m41 == 20: translation applied first")
    func translateOfScale() {
        let m = CATransform3DTranslate(CATransform3DMakeScale(2, 2, 2), 10, 0, 0)
        #expect(m.m41 == 20)
    }

    @Test("M6 Scale(T(10,0,0), 2,2,2).m41 == 10")
    func scaleOfTranslate() {
        let m = CATransform3DScale(CATransform3DMakeTranslation(10, 0, 0), 2, 2, 2)
        #expect(m.m41 == 10)
        #expect(m.m11 == 2)
    }

    @Test("M6 Invert round trip gives the identity")
    func invertRoundTrip() {
        var t = CATransform3DMakeRotation(0.7, 1, 2, 3)
        t = CATransform3DScale(t, 2, 3, 0.5)
        t = CATransform3DTranslate(t, 10, -20, 5)
        t.m34 = -1.0 / 500
        let inv = CATransform3DInvert(t)
        #expect(approxEqual(CATransform3DConcat(t, inv), CATransform3DIdentity))
        #expect(approxEqual(CATransform3DConcat(inv, t), CATransform3DIdentity))
        #expect(!approxEqual(inv, t))
    }

    @Test("M6 Invert of a singular matrix returns the input")
    func invertSingular() {
        let s = CATransform3DMakeScale(0, 1, 1)
        #expect(CATransform3DInvert(s) == s)
        let zero = CATransform3D()
        #expect(CATransform3DInvert(zero) == zero)
    }

    @Test("M6 perspective m34 = −1/d divides by w")
    func perspective() {
        var t = CATransform3DIdentity
        t.m34 = -1.0 / 500
        let p = t.apply(x: 100, y: 0, z: 250)
        // w = 1 + z·m34 = 0.5, so the projected x doubles.
        #expect(abs(p.w - 0.5) < 1e-15)
        #expect(abs(p.x / p.w - 200) < 1e-12)
    }
}

@Suite("M5 affine transforms")
struct CATransform3DAffineTests {
    @Test("M5 IsAffine false for x rotation, z scale, z translation, m34 ≠ 0")
    func isAffineFalse() {
        #expect(!CATransform3DIsAffine(CATransform3DMakeRotation(0.3, 1, 0, 0)))
        #expect(!CATransform3DIsAffine(CATransform3DMakeRotation(0.3, 0, 1, 0)))
        #expect(!CATransform3DIsAffine(CATransform3DMakeScale(1, 1, 2)))
        #expect(!CATransform3DIsAffine(CATransform3DMakeTranslation(0, 0, 5)))
        var p = CATransform3DIdentity
        p.m34 = -1.0 / 500
        #expect(!CATransform3DIsAffine(p))
    }

    @Test("M5 IsAffine true for 2D scale, translation and z rotation")
    func isAffineTrue() {
        #expect(CATransform3DIsAffine(CATransform3DIdentity))
        #expect(CATransform3DIsAffine(CATransform3DMakeRotation(0.3, 0, 0, 1)))
        #expect(CATransform3DIsAffine(CATransform3DMakeScale(2, 3, 1)))
        #expect(CATransform3DIsAffine(CATransform3DMakeTranslation(4, 5, 0)))
    }

    @Test("M5 GetAffineTransform of a non-affine transform is the identity")
    func nonAffineGivesIdentity() {
        #expect(CATransform3DGetAffineTransform(CATransform3DMakeScale(2, 2, 2)) == .identity)
        #expect(CATransform3DGetAffineTransform(CATransform3DMakeRotation(1, 1, 0, 0)) == .identity)
        var p = CATransform3DMakeScale(2, 2, 1)
        p.m34 = -0.002
        #expect(CATransform3DGetAffineTransform(p) == .identity)
    }

    @Test("M5 MakeAffineTransform puts a,b,c,d,tx,ty in m11,m12,m21,m22,m41,m42")
    func makeAffineFieldPlacement() {
        let a = CGAffineTransform(a: 1, b: 2, c: 3, d: 4, tx: 5, ty: 6)
        let t = CATransform3DMakeAffineTransform(a)
        let expected = CATransform3D(
            m11: 1, m12: 2, m13: 0, m14: 0,
            m21: 3, m22: 4, m23: 0, m24: 0,
            m31: 0, m32: 0, m33: 1, m34: 0,
            m41: 5, m42: 6, m43: 0, m44: 1)
        #expect(t == expected)
        #expect(CATransform3DIsAffine(t))
        #expect(CATransform3DGetAffineTransform(t) == a)
    }
}
