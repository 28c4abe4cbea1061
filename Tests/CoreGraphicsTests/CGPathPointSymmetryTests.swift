import Testing
import Foundation

/// `CGPath.pointSymmetryError` (issue 23): how far a closed path is from its own half turn
/// about the origin, which lets a shape raster serve a layer turned by 180°.
struct CGPathPointSymmetryTests {
    @Test("an ellipse and a rectangle centred at the origin are their own half turn")
    func centredShapesAreSymmetric() {
        let shapes: [CGPath] = [
            CGPath(ellipseIn: CGRect(x: -30, y: -12.5, width: 60, height: 25), transform: nil),
            CGPath(rect: CGRect(x: -7, y: -3, width: 14, height: 6), transform: nil),
        ]
        for p in shapes { #expect(p.pointSymmetryError == 0, "\(p.elements)") }
        // A rounded rectangle starts halfway along a side (`CGPathAddRoundedRect`'s order), a
        // point with no partner across the origin: not found symmetric (a documented miss).
        let rounded = CGPath(roundedRect: CGRect(x: -20, y: -10, width: 40, height: 20), cornerWidth: 5, cornerHeight: 4, transform: nil)
        #expect(rounded.pointSymmetryError == nil)
    }

    @Test("moved off the origin by (dx, dy), a centred shape is 2·max(|dx|, |dy|) from its half turn")
    func offsetShapesMeasureTheirOffset() throws {
        let p = CGPath(ellipseIn: CGRect(x: -30 + 0.25, y: -12.5 - 0.125, width: 60, height: 25), transform: nil)
        let e = try #require(p.pointSymmetryError)
        #expect(abs(e - 0.5) < 1e-12, "\(e)")
    }

    @Test("open subpaths, odd point counts and asymmetric outlines are not symmetric")
    func asymmetricPaths() {
        // A closed triangle: three points.
        let tri = CGMutablePath()
        tri.move(to: CGPoint(x: 0, y: 1)); tri.addLine(to: CGPoint(x: 1, y: -1)); tri.addLine(to: CGPoint(x: -1, y: -1)); tri.closeSubpath()
        #expect(tri.pointSymmetryError == nil)
        // A diamond's outline left open: its stroke has caps at (−1, 0), none at (1, 0).
        let open = CGMutablePath()
        open.move(to: CGPoint(x: -1, y: 0)); open.addLine(to: CGPoint(x: 0, y: 1)); open.addLine(to: CGPoint(x: 1, y: 0)); open.addLine(to: CGPoint(x: 0, y: -1))
        #expect(open.pointSymmetryError == nil)
        // A kite: four points, closed, not its own half turn (|(0, 2) + (0, −1)| = 1).
        let kite = CGMutablePath()
        kite.move(to: CGPoint(x: -1, y: 0)); kite.addLine(to: CGPoint(x: 0, y: 2)); kite.addLine(to: CGPoint(x: 1, y: 0)); kite.addLine(to: CGPoint(x: 0, y: -1)); kite.closeSubpath()
        #expect(kite.pointSymmetryError == 1)
        #expect(CGMutablePath().pointSymmetryError == nil)
    }

    @Test("each closed subpath is measured on its own: two centred rings are symmetric, a ring and a moved one are not")
    func subpaths() throws {
        let two = CGMutablePath()
        two.addEllipse(in: CGRect(x: -10, y: -10, width: 20, height: 20))
        two.addEllipse(in: CGRect(x: -6, y: -6, width: 12, height: 12))
        #expect(two.pointSymmetryError == 0)
        let moved = CGMutablePath()
        moved.addEllipse(in: CGRect(x: -10, y: -10, width: 20, height: 20))
        moved.addEllipse(in: CGRect(x: -3, y: -6, width: 12, height: 12))
        #expect(try #require(moved.pointSymmetryError) == 6)
    }
}
