import Testing
import Foundation

/// The transform attribute (SVG 1.1 §7.6): every form, lists, separators, errors.
@Suite struct SVGTransformTests {
    func t(_ s: String) -> [Double]? {
        SVGTransformParser.parse(s).map { [$0.a, $0.b, $0.c, $0.d, $0.tx, $0.ty].map { (Double($0) * 1e6).rounded() / 1e6 + 0 } }
    }

    @Test func eachForm() {
        #expect(t("matrix(1 2 3 4 5 6)") == [1, 2, 3, 4, 5, 6])
        #expect(t("translate(10)") == [1, 0, 0, 1, 10, 0])
        #expect(t("translate(10, 20)") == [1, 0, 0, 1, 10, 20])
        #expect(t("scale(2)") == [2, 0, 0, 2, 0, 0])
        #expect(t("scale(2 3)") == [2, 0, 0, 3, 0, 0])
        #expect(t("rotate(90)") == [0, 1, -1, 0, 0, 0])
        #expect(t("rotate(30)") == [0.866025, 0.5, -0.5, 0.866025, 0, 0])
        #expect(t("skewX(45)") == [1, 0, 1, 1, 0, 0])
        #expect(t("skewY(45)") == [1, 1, 0, 1, 0, 0])
    }

    @Test func rotateAboutAPoint() {
        // rotate(90, 10, 10) maps (20, 10) to (10, 20).
        let m = SVGTransformParser.parse("rotate(90 10 10)")!
        let p = CGPoint(x: 20, y: 10).applying(m)
        #expect(abs(p.x - 10) < 1e-9 && abs(p.y - 20) < 1e-9)
    }

    @Test func listsApplyRightToLeft() {
        // "translate(10 0) scale(2)": scale first, then translate: (1, 1) → (12, 2).
        let m = SVGTransformParser.parse("translate(10 0) scale(2)")!
        #expect(CGPoint(x: 1, y: 1).applying(m) == CGPoint(x: 12, y: 2))
        #expect(t("translate(10,0),scale(2)") == t("translate(10 0) scale(2)"))
        #expect(t("  translate( 10 , 0 )  scale( 2 )  ") == [2, 0, 0, 2, 10, 0])
        #expect(t("") == [1, 0, 0, 1, 0, 0])
    }

    @Test func invalidListsAreRejected() {
        #expect(t("translate(10") == nil)
        #expect(t("rotate(1 2)") == nil)
        #expect(t("matrix(1 2 3)") == nil)
        #expect(t("scale(1e400)") == nil)
        #expect(t("foo(1)") == nil)
        #expect(t("translate(10) 5") == nil)
    }
}
