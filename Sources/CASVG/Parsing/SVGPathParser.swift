import Foundation

/// SVG path data (`d`, SVG 1.1 §8.3 and its BNF; SVG 2 §9.3.9 error handling) → `CGMutablePath`.
///
/// Every command is supported: M/m, L/l, H/h, V/v, C/c, S/s, Q/q, T/t, A/a, Z/z, with implicit
/// repeats (extra coordinate pairs after M are line-tos), relative forms and the number
/// syntax edge cases of `SVGScanner`. Elliptical arcs are converted to cubic Béziers of at
/// most 90° each through the endpoint-to-centre conversion of SVG 1.1 Appendix F.6.5, with
/// out-of-range radii scaled up (F.6.6) and zero radii drawn as lines (F.6.2).
///
/// Errors follow SVG 2 §9.5.4: the path is drawn up to the last complete command before the
/// error, and the error is reported (`error`).
package struct SVGPathParser {
    package struct Result {
        package var path: CGMutablePath
        /// Where parsing stopped early and why; nil when the whole string was read.
        package var error: String?
        /// True when coordinates were clamped to ±`maxCoordinate` (overflow or 1e30-style
        /// values) or segments past `maxSegments` were dropped.
        package var clamped = false
        package var truncated = false
        package var segments = 0
    }

    static let isPathCommand: [Bool] = (0..<256).map { "MmLlHhVvCcSsQqTtAaZz".utf8.contains(UInt8($0)) }

    static func incomplete(_ command: UInt8, _ offset: Int) -> String {
        "incomplete '\(Character(UnicodeScalar(command)))' command at offset \(offset)"
    }

    package static func parse(_ d: String, maxSegments: Int = 1_000_000, maxCoordinate: Double = 1e9) -> Result {
        var sc = SVGScanner(d)
        let path = CGMutablePath()
        var result = Result(path: path)
        var current = CGPoint.zero
        var start = CGPoint.zero
        var lastCubicCtrl: CGPoint? = nil
        var lastQuadCtrl: CGPoint? = nil
        var command: UInt8 = 0
        var needsMove = false   // after Z: the next drawing command starts at the subpath start
        var first = true
        var v = [Double](repeating: 0, count: 6)

        func clamp(_ v: Double) -> Double {
            if v.isNaN { result.clamped = true; return 0 }
            if v > maxCoordinate { result.clamped = true; return maxCoordinate }
            if v < -maxCoordinate { result.clamped = true; return -maxCoordinate }
            return v
        }

        sc.skipSpaces()
        while true {
            sc.skipSpaces()
            if sc.atEnd { break }
            let c = sc.peek!
            let isCommand = (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A)
            if isCommand {
                guard Self.isPathCommand[Int(c)] else {
                    result.error = "unknown command '\(Character(UnicodeScalar(c)))' at offset \(sc.i)"; break
                }
                command = c
                sc.i += 1
            } else {
                // An implicit repeat of the previous command (M repeats as L).
                guard command != 0, command != UInt8(ascii: "Z"), command != UInt8(ascii: "z") else {
                    result.error = first ? "path data must start with a moveto" : "number without a command at offset \(sc.i)"
                    break
                }
                if command == UInt8(ascii: "M") { command = UInt8(ascii: "L") }
                if command == UInt8(ascii: "m") { command = UInt8(ascii: "l") }
            }
            if first, command != UInt8(ascii: "M"), command != UInt8(ascii: "m") {
                result.error = "path data must start with a moveto"; break
            }
            if result.segments >= maxSegments {
                result.truncated = true
                result.error = "more than \(maxSegments) segments; the rest is dropped"
                break
            }
            let relative = command >= 0x61
            let upper = relative ? command - 0x20 : command
            let origin = relative ? current : .zero

            // Reads n numbers into `v` (no allocation per command); false if any is missing.
            // comma-wsp between numbers: whitespace and at most one comma; none before the
            // first number (after the command letter only whitespace).
            func nums(_ n: Int) -> Bool {
                sc.skipSpaces()
                for k in 0..<n {
                    guard let x = sc.number() else { return false }
                    v[k] = clamp(x)
                    sc.skipSeparator()
                }
                return true
            }
            func point(_ x: Double, _ y: Double) -> CGPoint { CGPoint(x: origin.x + x, y: origin.y + y) }
            func ensureStarted() {
                if needsMove { path.move(to: start); needsMove = false }
            }

            switch upper {
            case UInt8(ascii: "M"):
                guard nums(2) else { result.error = incomplete(command, sc.i); break }
                // A relative moveto at the very start is absolute (SVG 1.1 §8.3.2).
                let p = first ? CGPoint(x: v[0], y: v[1]) : point(v[0], v[1])
                path.move(to: p)
                current = p; start = p; needsMove = false
                lastCubicCtrl = nil; lastQuadCtrl = nil
            case UInt8(ascii: "Z"):
                path.closeSubpath()
                current = start; needsMove = true
                lastCubicCtrl = nil; lastQuadCtrl = nil
                sc.skipSeparator()
            case UInt8(ascii: "L"):
                guard nums(2) else { result.error = incomplete(command, sc.i); break }
                ensureStarted()
                let p = point(v[0], v[1])
                path.addLine(to: p); current = p
                lastCubicCtrl = nil; lastQuadCtrl = nil
            case UInt8(ascii: "H"):
                guard nums(1) else { result.error = incomplete(command, sc.i); break }
                ensureStarted()
                let p = CGPoint(x: clamp((relative ? current.x : 0) + v[0]), y: current.y)
                path.addLine(to: p); current = p
                lastCubicCtrl = nil; lastQuadCtrl = nil
            case UInt8(ascii: "V"):
                guard nums(1) else { result.error = incomplete(command, sc.i); break }
                ensureStarted()
                let p = CGPoint(x: current.x, y: clamp((relative ? current.y : 0) + v[0]))
                path.addLine(to: p); current = p
                lastCubicCtrl = nil; lastQuadCtrl = nil
            case UInt8(ascii: "C"):
                guard nums(6) else { result.error = incomplete(command, sc.i); break }
                ensureStarted()
                let c1 = point(v[0], v[1]), c2 = point(v[2], v[3]), p = point(v[4], v[5])
                path.addCurve(to: p, control1: c1, control2: c2)
                current = p; lastCubicCtrl = c2; lastQuadCtrl = nil
            case UInt8(ascii: "S"):
                guard nums(4) else { result.error = incomplete(command, sc.i); break }
                ensureStarted()
                let c1 = lastCubicCtrl.map { CGPoint(x: 2 * current.x - $0.x, y: 2 * current.y - $0.y) } ?? current
                let c2 = point(v[0], v[1]), p = point(v[2], v[3])
                path.addCurve(to: p, control1: c1, control2: c2)
                current = p; lastCubicCtrl = c2; lastQuadCtrl = nil
            case UInt8(ascii: "Q"):
                guard nums(4) else { result.error = incomplete(command, sc.i); break }
                ensureStarted()
                let c = point(v[0], v[1]), p = point(v[2], v[3])
                path.addQuadCurve(to: p, control: c)
                current = p; lastQuadCtrl = c; lastCubicCtrl = nil
            case UInt8(ascii: "T"):
                guard nums(2) else { result.error = incomplete(command, sc.i); break }
                ensureStarted()
                let c = lastQuadCtrl.map { CGPoint(x: 2 * current.x - $0.x, y: 2 * current.y - $0.y) } ?? current
                let p = point(v[0], v[1])
                path.addQuadCurve(to: p, control: c)
                current = p; lastQuadCtrl = c; lastCubicCtrl = nil
            case UInt8(ascii: "A"):
                sc.skipSpaces()
                guard let rx = sc.number() else { result.error = incomplete(command, sc.i); break }
                sc.skipSeparator()
                guard let ry = sc.number() else { result.error = incomplete(command, sc.i); break }
                sc.skipSeparator()
                guard let rot = sc.number() else { result.error = incomplete(command, sc.i); break }
                sc.skipSeparator()
                guard let large = sc.flag() else { result.error = incomplete(command, sc.i); break }
                sc.skipSeparator()
                guard let sweep = sc.flag() else { result.error = incomplete(command, sc.i); break }
                sc.skipSeparator()
                guard let x = sc.number() else { result.error = incomplete(command, sc.i); break }
                sc.skipSeparator()
                guard let y = sc.number() else { result.error = incomplete(command, sc.i); break }
                sc.skipSeparator()
                ensureStarted()
                let p = point(clamp(x), clamp(y))
                SVGArc.append(to: path, from: current, to: p, rx: clamp(rx), ry: clamp(ry),
                              xAxisRotation: rot.isFinite ? rot : 0, largeArc: large, sweep: sweep)
                current = p; lastCubicCtrl = nil; lastQuadCtrl = nil
            default:
                result.error = incomplete(command, sc.i)
            }
            if result.error != nil { break }
            result.segments += 1
            first = false
        }
        return result
    }
}

/// Elliptical arc → cubic Béziers (SVG 1.1 Appendix F.6.5 endpoint-to-centre conversion, F.6.6
/// radius correction). Each piece spans at most 90°, control points at 4/3·tan(Δ/4) along the
/// tangents of the unit circle, then scaled by the radii and rotated.
enum SVGArc {
    static func append(to path: CGMutablePath, from p0: CGPoint, to p1: CGPoint, rx rxIn: Double, ry ryIn: Double,
                       xAxisRotation: Double, largeArc: Bool, sweep: Bool) {
        // F.6.2: identical endpoints draw nothing; a zero radius draws a straight line.
        if p0 == p1 { return }
        var rx = abs(rxIn), ry = abs(ryIn)
        if rx == 0 || ry == 0 { path.addLine(to: p1); return }
        let phi = xAxisRotation * .pi / 180
        let cosPhi = cos(phi), sinPhi = sin(phi)
        let dx2 = (p0.x - p1.x) / 2, dy2 = (p0.y - p1.y) / 2
        let x1p = cosPhi * dx2 + sinPhi * dy2
        let y1p = -sinPhi * dx2 + cosPhi * dy2
        // F.6.6: radii too small to join the endpoints grow just enough.
        let lambda = (x1p * x1p) / (rx * rx) + (y1p * y1p) / (ry * ry)
        if lambda > 1 { let s = lambda.squareRoot(); rx *= s; ry *= s }
        let num = rx * rx * ry * ry - rx * rx * y1p * y1p - ry * ry * x1p * x1p
        let den = rx * rx * y1p * y1p + ry * ry * x1p * x1p
        var coef = den > 0 ? (max(num, 0) / den).squareRoot() : 0
        if largeArc == sweep { coef = -coef }
        let cxp = coef * rx * y1p / ry
        let cyp = -coef * ry * x1p / rx
        let cx = cosPhi * cxp - sinPhi * cyp + (p0.x + p1.x) / 2
        let cy = sinPhi * cxp + cosPhi * cyp + (p0.y + p1.y) / 2
        func angle(_ ux: Double, _ uy: Double, _ vx: Double, _ vy: Double) -> Double {
            atan2(ux * vy - uy * vx, ux * vx + uy * vy)
        }
        let theta1 = angle(1, 0, (x1p - cxp) / rx, (y1p - cyp) / ry)
        var dTheta = angle((x1p - cxp) / rx, (y1p - cyp) / ry, (-x1p - cxp) / rx, (-y1p - cyp) / ry)
        if !sweep, dTheta > 0 { dTheta -= 2 * .pi }
        if sweep, dTheta < 0 { dTheta += 2 * .pi }
        guard cx.isFinite, cy.isFinite, dTheta.isFinite else { path.addLine(to: p1); return }
        let pieces = max(1, Int((abs(dTheta) / (.pi / 2) - 1e-9).rounded(.up)))
        let delta = dTheta / Double(pieces)
        let k = 4.0 / 3.0 * tan(delta / 4)
        func map(_ ux: Double, _ uy: Double) -> CGPoint {
            let x = rx * ux, y = ry * uy
            return CGPoint(x: cosPhi * x - sinPhi * y + cx, y: sinPhi * x + cosPhi * y + cy)
        }
        var t = theta1
        for n in 0..<pieces {
            let t2 = t + delta
            let (c1x, c1y) = (cos(t) - k * sin(t), sin(t) + k * cos(t))
            let (c2x, c2y) = (cos(t2) + k * sin(t2), sin(t2) - k * cos(t2))
            // The last piece ends exactly on the given endpoint (no drift).
            let end = n == pieces - 1 ? p1 : map(cos(t2), sin(t2))
            path.addCurve(to: end, control1: map(c1x, c1y), control2: map(c2x, c2y))
            t = t2
        }
    }
}
