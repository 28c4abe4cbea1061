/// The depth of an opaque `CATransformLayer` plane (issue 21: "opaque ones use the depth
/// buffer"), for the backend to test where intersecting planes cross instead of splitting them.
///
/// At a point (x, y) of the plane's box instance (its layer's own coordinates, as `BoxInstance.rect`),
/// `(numerator · (x, y, 1)) / (denominator · (x, y, 1))` is its depth in the transform layer's
/// 3D space after the perspective divide, scaled so that 0 is the farthest and 1 the nearest
/// point of any plane of its `group` (the planes of one transform layer). Within the group a
/// backend maps it onto the paint-order depths the group's instances span, so the planes stay
/// behind everything painted after them and in front of everything painted before.
package struct DepthPlane: Sendable, Equatable {
    /// x, y, 1 coefficients (w unused).
    package var numerator: SIMD4<Float>
    package var denominator: SIMD4<Float>
    /// The planes of one transform layer share a group; numbered from 0 in each frame.
    package var group: Int32

    @inlinable package init(numerator: SIMD4<Float>, denominator: SIMD4<Float>, group: Int32) {
        self.numerator = numerator; self.denominator = denominator; self.group = group
    }

    /// The scaled depth at plane point (x, y); nil where the plane is at or behind the eye.
    @inlinable package func depth(x: Float, y: Float) -> Float? {
        let n = numerator.x * x + numerator.y * y + numerator.z
        let d = denominator.x * x + denominator.y * y + denominator.z
        guard d > 1e-9, n.isFinite else { return nil }
        return n / d
    }
}
