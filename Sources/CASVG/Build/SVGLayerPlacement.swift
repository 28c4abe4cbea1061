import Foundation

/// Puts a layer into its parent so that the layer's own coordinates are an SVG user space:
/// a point p of the layer (its bounds space, where a `CAShapeLayer`'s path lives) lands at
/// `transform(p)` in the parent. Layer space and SVG user space are both y-down with the origin
/// top-left, so no flip is involved.
///
/// With `anchorPoint = (0, 0)` Core Animation maps p to `position + T·(p − bounds.origin)`
/// (CALayer `position`/`anchorPoint`/`bounds` docs), so `position = M(bounds.origin)` and
/// `T` = the linear part of M give exactly M(p). `bounds` is set to the content's extent so
/// that offscreen passes (group opacity, masks) cover everything the layer paints.
enum SVGLayerPlacement {
    /// Returns the extent of the placed layer in the parent's space (the bounding box of
    /// `M(rect)`).
    @discardableResult
    static func place(_ layer: CALayer, rect: CGRect, transform m: CGAffineTransform = .identity) -> CGRect {
        let r = rect.isNull || !rect.origin.x.isFinite ? .zero : rect
        layer.anchorPoint = .zero
        layer.bounds = r
        layer.position = r.origin.applying(m)
        let linear = CGAffineTransform(a: m.a, b: m.b, c: m.c, d: m.d, tx: 0, ty: 0)
        if !linear.isIdentity { layer.setAffineTransform(linear) }
        return boundingBox(r, m)
    }

    /// The axis-aligned bounding box of a transformed rectangle.
    static func boundingBox(_ r: CGRect, _ m: CGAffineTransform) -> CGRect {
        if r.isNull { return .null }
        let pts = [CGPoint(x: r.minX, y: r.minY), CGPoint(x: r.maxX, y: r.minY),
                   CGPoint(x: r.minX, y: r.maxY), CGPoint(x: r.maxX, y: r.maxY)].map { $0.applying(m) }
        let xs = pts.map(\.x), ys = pts.map(\.y)
        return CGRect(x: xs.min()!, y: ys.min()!, width: xs.max()! - xs.min()!, height: ys.max()! - ys.min()!)
    }

    static func determinant(_ m: CGAffineTransform) -> CGFloat { m.a * m.d - m.b * m.c }
}
