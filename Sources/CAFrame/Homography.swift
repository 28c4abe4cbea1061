import CoreGraphics

/// A layer's plane mapped to target pixels: `(x, y, 1) · H = (X, Y, W)`, pixel = (X/W, Y/W).
/// Every layer is flat in its own space (z = 0), so the rows and columns of its 4×4 world
/// matrix that touch z drop out and a 3×3 projective map is exact, perspective included.
/// Row-vector convention, as `CATransform3D`.
package struct Homography: Equatable, Sendable {
    package var r0: SIMD3<Double>
    package var r1: SIMD3<Double>
    package var r2: SIMD3<Double>

    /// The builder makes them from a layer's 4×4 world matrix (`Homography(_: CATransform3D)`,
    /// in CARender: this module knows no layer).
    @inlinable package init(r0: SIMD3<Double>, r1: SIMD3<Double>, r2: SIMD3<Double>) {
        self.r0 = r0; self.r1 = r1; self.r2 = r2
    }

    package static let identity = Homography(r0: [1, 0, 0], r1: [0, 1, 0], r2: [0, 0, 1])


    /// Homogeneous image of a point.
    @inlinable package func project(_ x: Double, _ y: Double) -> SIMD3<Double> { x * r0 + y * r1 + r2 }

    /// Pixel position of a point, nil where the plane passes behind the eye (W ≤ 0).
    @inlinable package func map(_ x: Double, _ y: Double) -> SIMD2<Double>? {
        let p = project(x, y)
        guard p.z > 1e-9 else { return nil }
        return SIMD2(p.x / p.z, p.y / p.z)
    }

    package var determinant: Double {
        r0.x * (r1.y * r2.z - r1.z * r2.y) - r0.y * (r1.x * r2.z - r1.z * r2.x) + r0.z * (r1.x * r2.y - r1.y * r2.x)
    }

    /// Maps pixels back onto the plane (nil when the plane is seen edge-on).
    package func inverted() -> Homography? {
        let d = determinant
        guard d.isFinite, abs(d) > 1e-12 else { return nil }
        let a = r0, b = r1, c = r2
        let i0 = SIMD3(b.y * c.z - b.z * c.y, a.z * c.y - a.y * c.z, a.y * b.z - a.z * b.y)
        let i1 = SIMD3(b.z * c.x - b.x * c.z, a.x * c.z - a.z * c.x, a.z * b.x - a.x * b.z)
        let i2 = SIMD3(b.x * c.y - b.y * c.x, a.y * c.x - a.x * c.y, a.x * b.y - a.y * b.x)
        return Homography(r0: i0 / d, r1: i1 / d, r2: i2 / d)
    }

    /// True when W is the same for every point (no perspective): the map is affine.
    package var isAffine: Bool { r0.z == 0 && r1.z == 0 && r2.z != 0 }

    /// True for a pure scale + translation (axis-aligned rectangles stay axis-aligned).
    package var isAxisAligned: Bool { isAffine && r0.y == 0 && r1.x == 0 }

    package var isFinite: Bool {
        r0.x.isFinite && r0.y.isFinite && r0.z.isFinite && r1.x.isFinite && r1.y.isFinite && r1.z.isFinite
            && r2.x.isFinite && r2.y.isFinite && r2.z.isFinite
    }

    /// True when every entry is finite as the shaders receive it: they get 32-bit floats, and a
    /// finite Double beyond ±3.4e38 (a scale of 1e39, two scales of 1e20 composed) arrives
    /// there as infinity.
    package var isFiniteInFloat: Bool {
        // Rows one by one, not a loop over `[r0, r1, r2]`: that array is allocated per call,
        // and this runs once per layer per frame. `<=` is false for NaN as well.
        let limit = Double(Float.greatestFiniteMagnitude)
        func fits(_ r: SIMD3<Double>) -> Bool { abs(r.x) <= limit && abs(r.y) <= limit && abs(r.z) <= limit }
        return fits(r0) && fits(r1) && fits(r2)
    }

    /// Bounding box in pixels of `rect` on the plane; nil if any corner is behind the eye.
    package func boundingBox(of rect: CGRect) -> CGRect? {
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        for (x, y) in [(rect.minX, rect.minY), (rect.maxX, rect.minY), (rect.maxX, rect.maxY), (rect.minX, rect.maxY)] {
            guard let p = map(Double(x), Double(y)) else { return nil }
            minX = min(minX, p.x); minY = min(minY, p.y); maxX = max(maxX, p.x); maxY = max(maxY, p.y)
        }
        return CGRect(x: minX, y: minY, width: maxX - minX, height: maxY - minY)
    }

    /// Approximate pixels per local unit (the square root of the affine part's area scale):
    /// what AA widths and blur radii scale by.
    package var linearScale: Double {
        let w = max(abs(r2.z), 1e-9)
        return (abs(r0.x * r1.y - r0.y * r1.x)).squareRoot() / w
    }

    /// `self` followed by a pixel-space translation.
    package func translatedInTarget(by dx: Double, _ dy: Double) -> Homography {
        // (X, Y, W) → (X + dx·W, Y + dy·W, W)
        func t(_ r: SIMD3<Double>) -> SIMD3<Double> { SIMD3(r.x + dx * r.z, r.y + dy * r.z, r.z) }
        return Homography(r0: t(r0), r1: t(r1), r2: t(r2))
    }

    /// Packs the rows for a shader: three vec4 whose w components carry `extra`.
    package func packed(_ extra: SIMD3<Float> = .zero) -> (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>) {
        (SIMD4(Float(r0.x), Float(r0.y), Float(r0.z), extra.x),
         SIMD4(Float(r1.x), Float(r1.y), Float(r1.z), extra.y),
         SIMD4(Float(r2.x), Float(r2.y), Float(r2.z), extra.z))
    }
}
