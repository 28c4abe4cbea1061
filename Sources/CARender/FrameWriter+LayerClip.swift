import CoreGraphics
import CoreAnimation
import CAFrame

extension FrameWriter {
    /// A clip of the layer's bounds, rounded as its corners (docs/BEHAVIOUR.md N5b), intersected
    /// with `outer`. The flag is false when the two cannot merge into one clip shape: the index
    /// is then the layer's own clip alone, and the caller must apply `outer` some other way.
    func boundsClip(_ s: LayerState, h: Homography, outer: Int32) -> (Int32, Bool) {
        guard let inv = h.inverted() else { return (outer, true) }
        let shape = ClipShape(inverse: inv, rect: s.bounds.simd, radii: LayerGeometry.cornerRadii(s),
                              continuous: s.cornerCurve == .continuous)
        return appendClip(shape, within: outer)
    }

    /// The same, read from a layer's render copy field by field (no copy of its state).
    func boundsClip(of copy: CALayer, h: Homography, outer: Int32) -> (Int32, Bool) {
        guard let inv = h.inverted() else { return (outer, true) }
        let bounds = copy.state.bounds
        let radii = LayerGeometry.cornerRadii(bounds: bounds, cornerRadius: copy.state.cornerRadius,
                                              maskedCorners: copy.state.maskedCorners)
        let shape = ClipShape(inverse: inv, rect: bounds.simd, radii: radii, continuous: copy.state.cornerCurve == .continuous)
        return appendClip(shape, within: outer)
    }
}
