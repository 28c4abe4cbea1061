import Testing
import Foundation

/// Issue 18, cause 6: butt and square caps are cut perpendicular to the curve's true tangent at
/// the subpath's ends (Core Graphics' caps, `CGLineCap`: "the line ends exactly at the end
/// point", squared off across the path), not across the last flattened chord, whose direction is
/// off by half the chord's turn — a visible wedge when the stroke is wide.
@Suite struct StrokeEndTangentTests {
    /// A full-circle arc (the iOS circle idiom in Core Graphics' terms) stroked `width` wide.
    static func ring(radius: CGFloat, width: CGFloat, cap: CAShapeLayerLineCap) throws -> CGImage {
        let root = ShapeLayerTests.scene(100, 100) { s in
            let p = CGMutablePath()
            p.addArc(center: CGPoint(x: 50, y: 50), radius: radius, startAngle: 0, endAngle: 2 * .pi, clockwise: true)
            s.path = p
            s.fillColor = nil
            s.strokeColor = ShapeLayerTests.black
            s.lineWidth = width
            s.lineCap = cap
        }
        return try ShapeLayerTests.render(root)
    }

    /// The lightest pixel whose centre lies inside the annulus `inner…outer` about (50, 50).
    static func lightestInside(_ img: CGImage, inner: Double, outer: Double) -> (value: Int, x: Int, y: Int) {
        var worst = (value: 0, x: -1, y: -1)
        for y in 0..<100 {
            for x in 0..<100 {
                let d = hypot(Double(x) + 0.5 - 50, Double(y) + 0.5 - 50)
                guard d >= inner, d <= outer else { continue }
                let v = ShapeLayerTests.v(img, x, y)
                if v > worst.value { worst = (v, x, y) }
            }
        }
        return worst
    }

    @Test("18.6: a full-circle arc stroked twice its radius wide with butt caps is a solid disc (no wedge at the seam)")
    func buttCappedRingHasNoWedge() throws {
        let img = try Self.ring(radius: 20, width: 40, cap: .butt)
        // Pixels fully inside the disc (away from the antialiased rim and the centre, where
        // the inner edge of the stroke shrinks to a point) are black.
        let worst = Self.lightestInside(img, inner: 1.5, outer: 38.5)
        #expect(worst.value <= 8, "pixel (\(worst.x), \(worst.y)) is \(worst.value), not black")
        // And nothing outside the disc is painted.
        #expect(ShapeLayerTests.v(img, 50 + 42, 50) == 255 && ShapeLayerTests.v(img, 50, 50 - 42) == 255)
    }

    @Test("18.6: narrower rings and square caps close exactly too; an open arc's butt end lies on the radius")
    func otherWidthsAndCaps() throws {
        for (radius, width) in [(CGFloat(30), CGFloat(30)), (25, 44)] {
            let img = try Self.ring(radius: radius, width: width, cap: .butt)
            let worst = Self.lightestInside(img, inner: Double(radius - width / 2) + 1.5, outer: Double(radius + width / 2) - 1.5)
            #expect(worst.value <= 8, "r \(radius) w \(width): pixel (\(worst.x), \(worst.y)) is \(worst.value)")
        }
        let square = try Self.ring(radius: 20, width: 40, cap: .square)
        #expect(Self.lightestInside(square, inner: 1.5, outer: 38.5).value <= 8)
        // Half a ring, 0 → π (y down here: through the bottom), 30 wide: each butt end is cut along
        // the horizontal diameter, so the rows just above the diameter stay white at the ends.
        let root = ShapeLayerTests.scene(100, 100) { s in
            let p = CGMutablePath()
            p.addArc(center: CGPoint(x: 50, y: 50), radius: 25, startAngle: 0, endAngle: .pi, clockwise: false)
            s.path = p
            s.fillColor = nil
            s.strokeColor = ShapeLayerTests.black
            s.lineWidth = 30
        }
        let half = try ShapeLayerTests.render(root)
        for x in [14, 20, 30, 70, 80, 86] {
            #expect(ShapeLayerTests.v(half, x, 48) == 255, "above the cut at x \(x)")
            #expect(ShapeLayerTests.v(half, x, 51) <= 8, "below the cut at x \(x)")
        }
    }
}
