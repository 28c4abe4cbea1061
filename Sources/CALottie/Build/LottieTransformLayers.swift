import Foundation
import CoreGraphics

/// A Lottie transform (`ks`, a group's `tr`) as two layers, so that each part animates through
/// a key path Core Animation interpolates well:
/// - `outer`: `position` (or `position.x`/`position.y` for split dimensions) and `opacity`;
/// - `inner`: `bounds.origin` = the anchor point (its content is drawn shifted by −anchor),
///   and `transform` = rotation · skew · scale, animated through `transform.rotation.z` and
///   `transform.scale.x`/`.y` (Apple's key paths, docs/BEHAVIOUR.md E6).
/// Content goes into `inner`. Lottie's matrix is translate(p) · rotate(r) · skew · scale(s) ·
/// translate(−a), applied to points right to left.
struct LottieTransformLayers {
    let outer: CALayer
    let inner: CALayer

    init(_ t: LottieTransformModel, time: LottieLayerTime, includeOpacity: Bool,
         factory: LottieAnimationFactory, log: LottieIssueLog, what: String) {
        outer = CALayer()
        inner = CALayer()
        for l in [outer, inner] {
            l.anchorPoint = .zero
            l.bounds = .zero
            l.position = .zero
        }
        outer.addSublayer(inner)
        for (name, _) in t.expressions {
            log.add(.expression, "\(what) \(name)", "After Effects expressions are not run; the property's keyframes or static value are used")
        }

        // Position.
        if let p = t.position {
            let v = p.initial
            outer.position = CGPoint(x: v.x, y: v.y)
            factory.add(to: outer, keyPath: "position", track: p.track, time: time) { f in
                let v = p.value(at: f); return CGPoint(x: v.x, y: v.y)
            }
        } else {
            let x = t.positionX?.initial.x ?? 0, y = t.positionY?.initial.x ?? 0
            outer.position = CGPoint(x: x, y: y)
            if let px = t.positionX { factory.add(to: outer, keyPath: "position.x", track: px.track, time: time) { CGFloat(px.value(at: $0).x) } }
            if let py = t.positionY { factory.add(to: outer, keyPath: "position.y", track: py.track, time: time) { CGFloat(py.value(at: $0).x) } }
        }
        // Opacity (percent).
        if includeOpacity, let o = t.opacity {
            outer.opacity = Float(min(max(o.initial.x / 100, 0), 1))
            factory.add(to: outer, keyPath: "opacity", track: o.track, time: time) { Float(min(max(o.value(at: $0).x / 100, 0), 1)) }
        }
        // Anchor: the inner layer's bounds origin.
        if let a = t.anchor {
            let v = a.initial
            inner.bounds = CGRect(x: v.x, y: v.y, width: 0, height: 0)
            factory.add(to: inner, keyPath: "bounds.origin", track: a.track, time: time) { f in
                let v = a.value(at: f); return CGPoint(x: v.x, y: v.y)
            }
        }
        // Rotation, skew, scale.
        let s = t.scale?.initial ?? LottieVector([100, 100])
        let r = t.rotation?.initial.x ?? 0
        let sk = t.skew?.initial.x ?? 0, sa = t.skewAxis?.initial.x ?? 0
        inner.transform = Self.matrix(scale: s, rotation: r, skew: sk, skewAxis: sa)
        if t.skew?.isAnimated == true || t.skewAxis?.isAnimated == true {
            log.add(.approximated, "\(what) animated skew", "the skew's first value is used throughout")
        }
        if let rot = t.rotation, rot.isAnimated {
            if sk != 0 { log.add(.approximated, "\(what) rotation with skew", "animated through transform.rotation.z, which re-decomposes the skewed matrix") }
            factory.add(to: inner, keyPath: "transform.rotation.z", track: rot.track, time: time) { CGFloat(rot.value(at: $0).x * .pi / 180) }
        }
        if let sc = t.scale, sc.isAnimated {
            factory.add(to: inner, keyPath: "transform.scale.x", track: sc.track, time: time) { CGFloat(Self.safeScale(sc.value(at: $0).x)) }
            factory.add(to: inner, keyPath: "transform.scale.y", track: sc.track, time: time) { CGFloat(Self.safeScale(sc.value(at: $0).y)) }
        }
    }

    /// Percent → factor; an exact 0 would make the matrix singular (and the decomposition that
    /// component animations use undefined), so it becomes a tiny positive factor.
    static func safeScale(_ percent: Double) -> Double {
        let f = percent / 100
        return abs(f) < 1e-6 ? (f < 0 ? -1e-6 : 1e-6) : f
    }

    static func matrix(scale s: LottieVector, rotation r: Double, skew sk: Double, skewAxis sa: Double) -> CATransform3D {
        var m = CGAffineTransform(scaleX: safeScale(s.x), y: safeScale(s.y))
        if sk != 0 {
            let a = sa * .pi / 180
            let toAxis = CGAffineTransform(rotationAngle: a)
            let shear = CGAffineTransform(a: 1, b: 0, c: tan(-max(min(sk, 85), -85) * .pi / 180), d: 1, tx: 0, ty: 0)
            m = m.concatenating(toAxis).concatenating(shear).concatenating(CGAffineTransform(rotationAngle: -a))
        }
        if r != 0 { m = m.concatenating(CGAffineTransform(rotationAngle: r * .pi / 180)) }
        return CATransform3DMakeAffineTransform(m)
    }
}
