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
        bounds = layer.state.bounds.standardized
        radii = LayerGeometry.cornerRadii(bounds: bounds, cornerRadius: layer.state.cornerRadius,
                                          maskedCorners: layer.state.maskedCorners)
        let aa: UInt32 = layer.state.allowsEdgeAntialiasing ? UInt32(layer.state.edgeAntialiasingMask.rawValue) & InstanceFlags.edgeMask : 0
        let continuous: UInt32 = layer.state.cornerCurve == .continuous ? InstanceFlags.continuousCorners : 0
        shapeFlags = aa | continuous
        borderWidth = layer.state.borderWidth
        allowsGroupOpacity = layer.state.allowsGroupOpacity
        fill = layer.state.backgroundColor.map { $0.premultiplied(opacity) } ?? .zero
        border = borderWidth > 0 ? (layer.state.borderColor.map { $0.premultiplied(opacity) } ?? .zero) : .zero
    }
}
