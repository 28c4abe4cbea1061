import CoreGraphics
import CoreAnimation

/// Layer-to-parent matrices computed from render states (presentation values), not from the
/// model tree: the renderer draws what the timing engine produced for this frame.
enum LayerGeometry {
    /// Catalogue M7 with presentation values: `((p − origin − anchor·size, −anchorZ) · transform
    /// + (position, zPosition) − A) · flip · S + A`, S the parent's sublayerTransform about its
    /// anchor A, flip the parent's `isGeometryFlipped` mirror about its bounds' mid-y.
    static func localToParent(_ s: LayerState, parent: LayerState?, isMask: Bool) -> CATransform3D {
        let b = s.bounds.standardized
        let ax = b.minX + s.anchorPoint.x * b.width
        let ay = b.minY + s.anchorPoint.y * b.height
        var m = CATransform3DMakeTranslation(-ax, -ay, -s.anchorPointZ)
        if !CATransform3DIsIdentity(s.transform) { m = CATransform3DConcat(m, s.transform) }
        m = CATransform3DConcat(m, CATransform3DMakeTranslation(s.position.x, s.position.y, s.zPosition))
        guard let ps = parent, !isMask else { return m }
        let pb = ps.bounds.standardized
        if ps.isGeometryFlipped {
            // y → minY + maxY − y: the sublayers' y axis runs up from the bottom edge.
            m = CATransform3DConcat(m, CATransform3DMakeScale(1, -1, 1))
            m = CATransform3DConcat(m, CATransform3DMakeTranslation(0, pb.minY + pb.maxY, 0))
        }
        if !CATransform3DIsIdentity(ps.sublayerTransform) {
            let px = pb.minX + ps.anchorPoint.x * pb.width
            let py = pb.minY + ps.anchorPoint.y * pb.height
            m = CATransform3DConcat(m, CATransform3DMakeTranslation(-px, -py, -ps.anchorPointZ))
            m = CATransform3DConcat(m, ps.sublayerTransform)
            m = CATransform3DConcat(m, CATransform3DMakeTranslation(px, py, ps.anchorPointZ))
        }
        return m
    }

    /// Drops z after a layer's transform chain: a layer renders its sublayers into its own
    /// plane (everything but `CATransformLayer` flattens, Core Animation Programming Guide,
    /// "Layer Trees Reflect Different Aspects of the Animation State" / CATransformLayer doc).
    static func flattened(_ m: CATransform3D) -> CATransform3D {
        var f = m
        f.m31 = 0; f.m32 = 0; f.m33 = 0; f.m34 = 0
        return f
    }

    /// Radii per corner (minXminY, maxXminY, maxXmaxY, minXmaxY), clamped to half the shorter
    /// side as Core Animation does, zero where `maskedCorners` leaves a corner square.
    static func cornerRadii(_ s: LayerState) -> SIMD4<Float> {
        let b = s.bounds.standardized
        let limit = max(0, min(b.width, b.height) / 2)
        let r = Float(min(max(0, s.cornerRadius), limit))
        guard r > 0 else { return .zero }
        let m = s.maskedCorners
        return SIMD4(m.contains(.layerMinXMinYCorner) ? r : 0, m.contains(.layerMaxXMinYCorner) ? r : 0,
                     m.contains(.layerMaxXMaxYCorner) ? r : 0, m.contains(.layerMinXMaxYCorner) ? r : 0)
    }
}

extension CGColor {
    /// sRGB premultiplied by alpha × `opacity`, as the GPU blends (premultiplied throughout).
    func premultiplied(_ opacity: Float) -> SIMD4<Float> {
        let c = rgba
        let a = Float(c.alpha) * opacity
        return SIMD4(Float(c.red) * a, Float(c.green) * a, Float(c.blue) * a, a)
    }
}

extension CGRect {
    /// Origin and size finite as 32-bit floats (what the shaders receive).
    var fitsInFloat: Bool {
        let limit = CGFloat(Float.greatestFiniteMagnitude)
        return abs(origin.x) <= limit && abs(origin.y) <= limit && abs(size.width) <= limit && abs(size.height) <= limit
            && abs(origin.x + size.width) <= limit && abs(origin.y + size.height) <= limit
    }

    var simd: SIMD4<Float> {
        let r = standardized
        return SIMD4(Float(r.minX), Float(r.minY), Float(r.width), Float(r.height))
    }
}
