import CoreGraphics
import CoreAnimation

/// What a layer's background-and-border box takes from its render state: the one reading of
/// those fields that both a whole build (`drawLayer`) and a leaf patch (`leafBox`) use, so the
/// two emit the same instance.
///
/// Read field by field from the layer rather than from a copied `LayerState`: a copy retains
/// and releases the dozen references the state holds (colours, contents, paths, names), which
/// for a leaf whose box is re-emitted every frame cost more than the box itself.
struct BoxLook {
    /// Standardised bounds: the box's rectangle in the layer's plane.
    var bounds: CGRect
    /// Corner radii, clamped and masked (`LayerGeometry.cornerRadii`).
    var radii: SIMD4<Float>
    /// Antialiased edges (`edgeAntialiasingMask` when `allowsEdgeAntialiasing`) and continuous
    /// corners, as `InstanceFlags` defines them for the shaders.
    var shapeFlags: UInt32
    var borderWidth: CGFloat
    var allowsGroupOpacity: Bool
    /// Background and border colours premultiplied with the layer's effective opacity; the
    /// border is clear when `borderWidth` is 0.
    var fill: SIMD4<Float>
    var border: SIMD4<Float>

    @inline(__always)
    init(_ layer: CALayer, opacity: Float) {
        self.init(bounds: layer.state.bounds, cornerRadius: layer.state.cornerRadius, maskedCorners: layer.state.maskedCorners,
                  allowsEdgeAntialiasing: layer.state.allowsEdgeAntialiasing, edges: layer.state.edgeAntialiasingMask,
                  cornerCurve: layer.state.cornerCurve, borderWidth: layer.state.borderWidth,
                  allowsGroupOpacity: layer.state.allowsGroupOpacity, backgroundColor: layer.state.backgroundColor,
                  borderColor: layer.state.borderColor, opacity: opacity)
    }

    /// From a state the walk has already read (`visit`'s copy): a read of the layer's stored
    /// state from this module is checked for exclusivity at run time, field by field.
    @inline(__always)
    init(_ s: borrowing LayerState, opacity: Float) {
        self.init(bounds: s.bounds, cornerRadius: s.cornerRadius, maskedCorners: s.maskedCorners,
                  allowsEdgeAntialiasing: s.allowsEdgeAntialiasing, edges: s.edgeAntialiasingMask, cornerCurve: s.cornerCurve,
                  borderWidth: s.borderWidth, allowsGroupOpacity: s.allowsGroupOpacity, backgroundColor: s.backgroundColor,
                  borderColor: s.borderColor, opacity: opacity)
    }

    @inline(__always)
    private init(bounds b: CGRect, cornerRadius: CGFloat, maskedCorners: CACornerMask, allowsEdgeAntialiasing: Bool,
                 edges: CAEdgeAntialiasingMask, cornerCurve: CALayerCornerCurve, borderWidth: CGFloat, allowsGroupOpacity: Bool,
                 backgroundColor: CGColor?, borderColor: CGColor?, opacity: Float) {
        bounds = b.standardized
        radii = LayerGeometry.cornerRadii(bounds: bounds, cornerRadius: cornerRadius, maskedCorners: maskedCorners)
        let aa: UInt32 = allowsEdgeAntialiasing ? UInt32(edges.rawValue) & InstanceFlags.edgeMask : 0
        let continuous: UInt32 = cornerCurve == .continuous ? InstanceFlags.continuousCorners : 0
        shapeFlags = aa | continuous
        self.borderWidth = borderWidth
        self.allowsGroupOpacity = allowsGroupOpacity
        fill = backgroundColor.map { $0.premultiplied(opacity) } ?? .zero
        border = borderWidth > 0 ? (borderColor.map { $0.premultiplied(opacity) } ?? .zero) : .zero
    }
}
