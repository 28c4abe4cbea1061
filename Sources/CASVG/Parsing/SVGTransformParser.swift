import Foundation

/// The `transform` attribute (SVG 1.1 §7.6, SVG 2 / CSS Transforms "transform-list"):
/// `matrix(a b c d e f)`, `translate(x [y])`, `scale(x [y])`, `rotate(a [cx cy])`, `skewX(a)`,
/// `skewY(a)`, separated by whitespace and/or commas. A list `A B` maps a point as A(B(p)).
/// Matrices use the same convention as `CGAffineTransform` (x' = a·x + c·y + tx), and angles
/// are degrees, positive turning +x toward +y (clockwise on a y-down display, as in SVG).
package enum SVGTransformParser {
    /// nil when the value does not parse; SVG 2 then ignores the attribute (identity).
    package static func parse(_ s: String) -> CGAffineTransform? {
        var sc = SVGScanner(s)
        var m = CGAffineTransform.identity
        sc.skipSpaces()
        while !sc.atEnd {
            let name = sc.word()
            sc.skipSpaces()
            guard sc.peek == UInt8(ascii: "(") else { return nil }
            sc.i += 1
            var args: [Double] = []
            sc.skipSpaces()
            while let v = sc.number() {
                guard v.isFinite else { return nil }
                args.append(v)
                sc.skipSeparator()
            }
            sc.skipSpaces()
            guard sc.peek == UInt8(ascii: ")") else { return nil }
            sc.i += 1
            guard let t = make(name, args) else { return nil }
            m = t.concatenating(m)
            sc.skipSeparator()
        }
        return m
    }

    static func make(_ name: String, _ a: [Double]) -> CGAffineTransform? {
        switch (name, a.count) {
        case ("matrix", 6):
            return CGAffineTransform(a: a[0], b: a[1], c: a[2], d: a[3], tx: a[4], ty: a[5])
        case ("translate", 1): return CGAffineTransform(translationX: a[0], y: 0)
        case ("translate", 2): return CGAffineTransform(translationX: a[0], y: a[1])
        case ("scale", 1): return CGAffineTransform(scaleX: a[0], y: a[0])
        case ("scale", 2): return CGAffineTransform(scaleX: a[0], y: a[1])
        case ("rotate", 1): return rotation(a[0])
        case ("rotate", 3):
            // translate(cx, cy) rotate(a) translate(−cx, −cy)
            return CGAffineTransform(translationX: -a[1], y: -a[2])
                .concatenating(rotation(a[0]))
                .concatenating(CGAffineTransform(translationX: a[1], y: a[2]))
        case ("skewX", 1): return CGAffineTransform(a: 1, b: 0, c: tan(a[0] * .pi / 180), d: 1, tx: 0, ty: 0)
        case ("skewY", 1): return CGAffineTransform(a: 1, b: tan(a[0] * .pi / 180), c: 0, d: 1, tx: 0, ty: 0)
        default: return nil
        }
    }

    /// Exact values at multiples of 90° (cos 90° is 6e-17 in floating point, which would leave
    /// hairline slivers at the edges of rotated rectangles).
    static func rotation(_ degrees: Double) -> CGAffineTransform {
        let r = degrees.truncatingRemainder(dividingBy: 360)
        let (c, s): (Double, Double)
        switch r {
        case 0: (c, s) = (1, 0)
        case 90, -270: (c, s) = (0, 1)
        case 180, -180: (c, s) = (-1, 0)
        case 270, -90: (c, s) = (0, -1)
        default: (c, s) = (cos(r * .pi / 180), sin(r * .pi / 180))
        }
        return CGAffineTransform(a: c, b: s, c: -s, d: c, tx: 0, ty: 0)
    }
}
