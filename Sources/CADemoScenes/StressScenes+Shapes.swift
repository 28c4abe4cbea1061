import QuartzCore

/// The `shapes` scenes (issue 6): 1,000 filled and stroked cubic-Bézier stars at 1920×1080, the
/// same stars `tools/benchmarks/peers/shapes_scene.py` draws with Cairo and Blend2D (xorshift32,
/// seed 12345; see that file for the construction). `animated`: strokeEnd and fillColor animate
/// on every star.
public enum ShapeScene {
    public static let count = 1000
    static let lineWidth: CGFloat = 3
    static let fillAlpha: CGFloat = 0.8

    static func star(_ rng: inout StressScenes.Random) -> (CGPath, CGColor, CGColor) {
        let cx = rng.unit() * 1920, cy = rng.unit() * 1080
        let r = 20 + rng.unit() * 40
        let rot = rng.unit() * 2 * Double.pi
        let fill = CGColor(red: rng.unit(), green: rng.unit(), blue: rng.unit(), alpha: fillAlpha)
        let stroke = CGColor(red: rng.unit(), green: rng.unit(), blue: rng.unit(), alpha: 1)
        var pts: [CGPoint] = []
        for k in 0..<10 {
            let a = rot + Double(k) * Double.pi / 5
            let rr = k % 2 == 0 ? r : 0.45 * r
            pts.append(CGPoint(x: cx + rr * cos(a), y: cy + rr * sin(a)))
        }
        let path = CGMutablePath()
        path.move(to: pts[0])
        for k in 0..<10 {
            let p = pts[k], q = pts[(k + 1) % 10]
            let mx = (p.x + q.x) / 2 - cx, my = (p.y + q.y) / 2 - cy
            let ml = max((mx * mx + my * my).squareRoot(), 1e-300)
            let nx = mx / ml * 0.15 * r, ny = my / ml * 0.15 * r
            path.addCurve(to: q, control1: CGPoint(x: p.x + (q.x - p.x) / 3 + nx, y: p.y + (q.y - p.y) / 3 + ny),
                          control2: CGPoint(x: p.x + 2 * (q.x - p.x) / 3 + nx, y: p.y + 2 * (q.y - p.y) / 3 + ny))
        }
        path.closeSubpath()
        return (path, fill, stroke)
    }

    /// `widths`: `lineWidth` animates too, from its width to three times it and back (drawn
    /// from width-free rasters, a handful per star over the whole animation).
    public static func make(animated: Bool, widths: Bool = false) -> CALayer {
        let root = StressScenes.root()
        var rng = StressScenes.Random(state: 12345)
        for i in 0..<count {
            let (path, fill, stroke) = star(&rng)
            let s = CAShapeLayer()
            s.frame = root.bounds
            s.path = path
            s.fillColor = fill
            s.strokeColor = stroke
            s.lineWidth = lineWidth
            s.lineJoin = .round
            if animated {
                let e = CABasicAnimation(keyPath: "strokeEnd")
                e.fromValue = 0.0; e.toValue = 1.0; e.duration = 1 + Double(i % 5) * 0.1
                e.autoreverses = true; e.repeatCount = .infinity
                s.add(e, forKey: "draw")
                let f = CABasicAnimation(keyPath: "fillColor")
                f.fromValue = fill; f.toValue = CGColor(red: 1, green: 1, blue: 1, alpha: fillAlpha); f.duration = 1.5
                f.autoreverses = true; f.repeatCount = .infinity
                s.add(f, forKey: "tint")
            }
            if widths {
                let w = CABasicAnimation(keyPath: "lineWidth")
                w.fromValue = lineWidth; w.toValue = lineWidth * 3; w.duration = 1.2 + Double(i % 3) * 0.1
                w.autoreverses = true; w.repeatCount = .infinity
                s.add(w, forKey: "widen")
            }
            root.addSublayer(s)
        }
        return root
    }
}
