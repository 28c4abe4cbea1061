import Testing
import Foundation

/// Path data grammar (SVG 1.1 §8.3 BNF, SVG 2 §9.3/§9.5): exact elements for each command.
@Suite struct SVGPathDataTests {
    func parse(_ d: String) -> [String] { dump(SVGPathParser.parse(d).path) }

    @Test func absoluteCommands() {
        #expect(parse("M10 20 L30 40 H50 V60 Z") == ["M 10 20", "L 30 40", "L 50 40", "L 50 60", "Z"])
        #expect(parse("M0 0 C10 0 20 10 20 20 Q30 30 40 20") == ["M 0 0", "C 10 0 20 10 20 20", "Q 30 30 40 20"])
    }

    @Test func relativeCommandsAccumulate() {
        #expect(parse("m10 20 l5 5 h10 v-5 c1 1 2 2 3 3 q1 0 2 2 z") ==
                ["M 10 20", "L 15 25", "L 25 25", "L 25 20", "C 26 21 27 22 28 23", "Q 29 23 30 25", "Z"])
    }

    @Test func implicitRepeats() {
        // Extra pairs after M are lines (relative after m); other commands repeat themselves.
        #expect(parse("M0 0 10 0 10 10") == ["M 0 0", "L 10 0", "L 10 10"])
        #expect(parse("m5 5 10 0 0 10") == ["M 5 5", "L 15 5", "L 15 15"])
        #expect(parse("M0 0 H10 20 V5 6") == ["M 0 0", "L 10 0", "L 20 0", "L 20 5", "L 20 6"])
    }

    @Test func numberSyntaxEdgeCases() {
        // Signs separate numbers, a second '.' starts a new number, exponents, no separators.
        #expect(parse("M10-20L.5.5") == ["M 10 -20", "L 0.5 0.5"])
        #expect(parse("M1e1,2E+1 L-1.5e-1-2") == ["M 10 20", "L -0.15 -2"])
        #expect(parse("M 0,0 L +3 , 4") == ["M 0 0", "L 3 4"])
        #expect(parse("M0 0L10 10\n\t L 20 20") == ["M 0 0", "L 10 10", "L 20 20"])
    }

    @Test func smoothCurvesReflectThePreviousControlPoint() {
        #expect(parse("M0 0 C0 10 10 10 10 0 S20 -10 20 0") == ["M 0 0", "C 0 10 10 10 10 0", "C 10 -10 20 -10 20 0"])
        // S after a non-curve: the first control point is the current point.
        #expect(parse("M0 0 L10 0 S20 10 30 0") == ["M 0 0", "L 10 0", "C 10 0 20 10 30 0"])
        #expect(parse("M0 0 Q5 10 10 0 T20 0") == ["M 0 0", "Q 5 10 10 0", "Q 15 -10 20 0"])
        #expect(parse("M0 0 T10 0") == ["M 0 0", "Q 0 0 10 0"])
    }

    @Test func arcQuarterCircleIsOneCubic() {
        // From (10, 0) to (0, 10) on the circle r = 10 around the origin, sweep toward +y.
        // Control points at 4/3·tan(22.5°)·10 = 5.5228 along the tangents.
        #expect(parse("M10 0 A10 10 0 0 1 0 10") == ["M 10 0", "C 10 5.5228 5.5228 10 0 10"])
    }

    @Test func arcFlagsAndDirections() {
        // Half circle: two 90° pieces. Sweep 1 is the positive-angle direction (+x toward +y),
        // clockwise on a y-down screen: from 9 o'clock to 3 o'clock over the top (y = −10).
        let upper = parse("M0 0 A10 10 0 0 1 20 0")
        #expect(upper == ["M 0 0", "C 0 -5.5228 4.4772 -10 10 -10", "C 15.5228 -10 20 -5.5228 20 0"])
        let lower = parse("M0 0 A10 10 0 0 0 20 0")
        #expect(lower == ["M 0 0", "C 0 5.5228 4.4772 10 10 10", "C 15.5228 10 20 5.5228 20 0"])
        // Flags without separators ("a1 1 0 00 1 1" style).
        #expect(parse("M0 0a10 10 0 0120 0") == upper)
        // The large-arc flag picks the longer way round: a 270° arc (three pieces).
        #expect(parse("M10 0 A10 10 0 1 1 0 -10").count == 4)
        #expect(parse("M10 0 A10 10 0 0 1 0 -10").count == 2)
    }

    @Test func arcRadiiAreScaledUpAndZeroRadiusIsALine() {
        // r = 1 cannot reach 20 away: scaled to 10 (F.6.6), same as the half circle above.
        #expect(parse("M0 0 A1 1 0 0 1 20 0") == parse("M0 0 A10 10 0 0 1 20 0"))
        #expect(parse("M0 0 A0 10 0 0 1 20 0") == ["M 0 0", "L 20 0"])
        // Identical endpoints: no segment at all.
        #expect(parse("M5 5 A10 10 0 0 1 5 5") == ["M 5 5"])
        // Negative radii use their absolute value.
        #expect(parse("M0 0 A-10 -10 0 0 1 20 0") == parse("M0 0 A10 10 0 0 1 20 0"))
    }

    @Test func arcWithRotation() {
        // An ellipse rx 20, ry 10 rotated 90°: from (0, 0) to (0, 40) is half of it.
        let d = parse("M0 0 A20 10 90 0 1 0 40")
        #expect(d.count == 3)
        #expect(d.last?.hasSuffix(" 0 40") == true)
        // Sweep 1 turns toward +y from +x (clockwise on a y-down screen): going down from
        // (0, 0) to (0, 40) it passes the right side, one minor radius (10) out at (10, 20).
        #expect(d[1].hasSuffix(" 10 20"))
    }

    @Test func closePathThenDrawStartsAtTheSubpathStart() {
        #expect(parse("M10 10 L20 10 Z L30 30") == ["M 10 10", "L 20 10", "Z", "M 10 10", "L 30 30"])
        #expect(parse("M10 10 L20 10 z l5 5") == ["M 10 10", "L 20 10", "Z", "M 10 10", "L 15 15"])
    }

    @Test func errorsDrawUpToTheLastGoodCommand() {
        let r = SVGPathParser.parse("M0 0 L10 10 L20")
        #expect(dump(r.path) == ["M 0 0", "L 10 10"])
        #expect(r.error != nil)
        #expect(dump(SVGPathParser.parse("L10 10").path) == [])
        #expect(SVGPathParser.parse("L10 10").error == "path data must start with a moveto")
        #expect(dump(SVGPathParser.parse("M0 0 L10 10 X 5").path) == ["M 0 0", "L 10 10"])
        #expect(dump(SVGPathParser.parse("M0 0 L10,,10").path) == ["M 0 0"])
        #expect(dump(SVGPathParser.parse("M0 0 A10 10 0 2 1 5 5").path) == ["M 0 0"])
        #expect(SVGPathParser.parse("").error == nil)
    }

    @Test func hugeValuesAreClamped() {
        let r = SVGPathParser.parse("M0 0 L1e400 -1e30")
        #expect(r.clamped)
        #expect(dump(r.path) == ["M 0 0", "L 1000000000 -1000000000"])
    }
}
