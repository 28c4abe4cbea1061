import CoreGraphics
import CoreAnimation

/// Layer-to-parent matrices computed from render states (presentation values), not from the
/// model tree: the renderer draws what the timing engine produced for this frame.
enum LayerGeometry {
    /// Catalogue M7 with presentation values (the model's own formula, `LayerState`).
    static func localToParent(_ s: LayerState, parent: LayerState?, isMask: Bool) -> CATransform3D {
        LayerState.localToParentMatrix(s, parent: parent, isMask: isMask)
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
