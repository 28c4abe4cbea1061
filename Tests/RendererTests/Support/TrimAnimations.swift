import Foundation

/// Stroke-only shape layers whose trims animate, for the trimmed-stroke tests
/// (`TrimmedStrokeRegionTests`, `StrokeTrimTests`).
enum TrimAnimations {
    /// Adds to `root` a 100-point shape layer at `position` stroking `path` (no fill) in `color`
    /// `lineWidth` wide, its strokeStart and strokeEnd animating from `from` to `to` over one
    /// second; `configure` adjusts it before the animations are added.
    static func add(_ path: CGPath, at position: CGPoint, to root: CALayer, lineWidth: CGFloat, color: CGColor,
                    from: (Double, Double), to: (Double, Double), _ configure: (CAShapeLayer) -> Void = { _ in }) {
        let s = CAShapeLayer()
        s.bounds = CGRect(x: 0, y: 0, width: 100, height: 100)
        s.position = position
        s.path = path
        s.fillColor = nil
        s.strokeColor = color
        s.lineWidth = lineWidth
        configure(s)
        for (key, a, b) in [("strokeStart", from.0, to.0), ("strokeEnd", from.1, to.1)] {
            let anim = CABasicAnimation(keyPath: key)
            anim.fromValue = a
            anim.toValue = b
            anim.duration = 1
            s.add(anim, forKey: key)
        }
        root.addSublayer(s)
    }

    /// Configures a stroke with round caps whose `lineWidth` narrows from 8 to 2 over one
    /// second (the trimmed-stroke suites' width-animated case).
    static func roundCapNarrowing(_ s: CAShapeLayer) {
        s.lineCap = .round
        let w = CABasicAnimation(keyPath: "lineWidth")
        w.fromValue = 8.0; w.toValue = 2.0; w.duration = 1
        s.add(w, forKey: "w")
    }

    /// A root of `size` (origin top-left, `background` if given) holding one shape layer as
    /// large, stroking `path` in black `lineWidth` wide with no fill, trimmed to
    /// `start`…`end` (not animated).
    static func still(_ path: CGPath, size: CGSize, lineWidth: CGFloat, start: CGFloat, end: CGFloat,
                      background: CGColor? = nil) -> CALayer {
        let root = CALayer()
        root.bounds = CGRect(origin: .zero, size: size)
        root.anchorPoint = .zero
        root.backgroundColor = background
        let s = CAShapeLayer()
        s.frame = root.bounds
        s.path = path
        s.fillColor = nil
        s.strokeColor = solid(0, 0, 0)
        s.lineWidth = lineWidth
        s.strokeStart = start
        s.strokeEnd = end
        root.addSublayer(s)
        return root
    }
}
