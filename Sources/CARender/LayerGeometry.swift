import CoreGraphics
import CoreAnimation

/// Layer-to-parent matrices computed from render states (presentation values), not from the
/// model tree: the renderer draws what the timing engine produced for this frame.
enum LayerGeometry {
    /// docs/BEHAVIOUR.md M7 with presentation values (the model's own formula, `LayerState`).
    static func localToParent(_ s: LayerState, parent: LayerState?, isMask: Bool) -> CATransform3D {
        LayerState.localToParentMatrix(s, parent: parent, isMask: isMask)
    }

    /// The same with the parent's part alone (`Context.parentState`).
    static func localToParent(_ s: LayerState, parent: SublayerGeometry?, isMask: Bool) -> CATransform3D {
        LayerState.localToParentMatrix(s, parentGeometry: parent, isMask: isMask)
    }

    /// A layer's world matrix: its local matrix (M7) followed by `parentWorld`, `general`
    /// computing it by the model's formula. `plainParent`: the parent's part of M7 is the
    /// identity (not geometry-flipped, identity `sublayerTransform`; or the layer is a mask, or
    /// the root), which `localToParentMatrix` then skips as well.
    ///
    /// A layer with an identity transform under such a parent is a translation by
    /// `position − anchor` (x, y) and `zPosition − anchorPointZ` (z): its world matrix is
    /// `parentWorld` with only the last row changed, 12 multiplications instead of the two
    /// 4×4 products of the general formula (most layers of most trees, and every layer of the
    /// benchmark's rect scenes). The translation's entries are summed in the order of
    /// `CATransform3DConcat`, so for a finite `parentWorld` both routes give the same values
    /// (a non-finite one, where 0 × ∞ of the product would turn finite entries into NaN,
    /// takes the general route).
    @inline(__always)
    static func world(_ p: Placement, transform: CATransform3D, plainParent: Bool, parentWorld w: CATransform3D,
                      parentWorldIsFinite: Bool, general: () -> CATransform3D) -> CATransform3D {
        guard parentWorldIsFinite, plainParent, CATransform3DIsIdentity(transform) else { return general() }
        return translationWorld(p, parentWorld: w)
    }

    /// `world` for a layer with an identity transform under a plain parent whose world matrix
    /// `w` is finite (the translation route; the leaf patch's cache calls it directly).
    @inline(__always)
    static func translationWorld(_ p: Placement, parentWorld w: CATransform3D) -> CATransform3D {
        // The anchor's offset exactly as the general formula forms it (standardised bounds).
        let b = p.bounds.standardized
        let tx = p.position.x + -(b.minX + p.anchorPoint.x * b.width)
        let ty = p.position.y + -(b.minY + p.anchorPoint.y * b.height)
        let tz = p.zPosition + -p.anchorPointZ
        var m = w
        m.m41 = tx * w.m11 + ty * w.m21 + tz * w.m31 + w.m41
        m.m42 = tx * w.m12 + ty * w.m22 + tz * w.m32 + w.m42
        m.m43 = tx * w.m13 + ty * w.m23 + tz * w.m33 + w.m43
        m.m44 = tx * w.m14 + ty * w.m24 + tz * w.m34 + w.m44
        return m
    }

    /// True when every entry is finite (the translation fast path of `world` needs it).
    static func isFinite(_ m: CATransform3D) -> Bool {
        m.m11.isFinite && m.m12.isFinite && m.m13.isFinite && m.m14.isFinite
            && m.m21.isFinite && m.m22.isFinite && m.m23.isFinite && m.m24.isFinite
            && m.m31.isFinite && m.m32.isFinite && m.m33.isFinite && m.m34.isFinite
            && m.m41.isFinite && m.m42.isFinite && m.m43.isFinite && m.m44.isFinite
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
        cornerRadii(bounds: s.bounds, cornerRadius: s.cornerRadius, maskedCorners: s.maskedCorners)
    }

    static func cornerRadii(bounds: CGRect, cornerRadius: CGFloat, maskedCorners m: CACornerMask) -> SIMD4<Float> {
        let b = bounds.standardized
        let limit = max(0, min(b.width, b.height) / 2)
        let r = Float(min(max(0, cornerRadius), limit))
        guard r > 0 else { return .zero }
        return SIMD4(m.contains(.layerMinXMinYCorner) ? r : 0, m.contains(.layerMaxXMinYCorner) ? r : 0,
                     m.contains(.layerMaxXMaxYCorner) ? r : 0, m.contains(.layerMinXMaxYCorner) ? r : 0)
    }
}

/// The state fields that place a layer in its parent (docs/BEHAVIOUR.md M7, less the transform), read
/// one by one from the layer: a whole `LayerState` copy retains its dozen references, which
/// for a layer whose box is re-emitted every frame cost more than the geometry itself.
struct Placement {
    var bounds: CGRect
    var position: CGPoint
    var zPosition: CGFloat
    var anchorPoint: CGPoint
    var anchorPointZ: CGFloat

    @inline(__always)
    init(_ layer: CALayer) {
        bounds = layer.state.bounds
        position = layer.state.position
        zPosition = layer.state.zPosition
        anchorPoint = layer.state.anchorPoint
        anchorPointZ = layer.state.anchorPointZ
    }

    /// From a state already read (the walk's copy): no access to the layer's stored state.
    @inline(__always)
    init(_ s: borrowing LayerState) {
        bounds = s.bounds
        position = s.position
        zPosition = s.zPosition
        anchorPoint = s.anchorPoint
        anchorPointZ = s.anchorPointZ
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
