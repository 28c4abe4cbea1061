// Decomposition, recomposition and interpolation of CATransform3D values.
//
// Core Animation interpolates `transform` by decomposing both ends into translation, scale,
// skew, perspective and a rotation quaternion, interpolating those, and recomposing
// (docs/BEHAVIOUR.md E2: identity → 2π rotation shows no motion, so the matrix fields are not lerped).
// Apple does not publish its algorithm; we follow the published W3C algorithm, CSS Transforms
// Module Level 2, §"Decomposing a 3D matrix", §"Recomposing to a 3D matrix" and
// §"Interpolation of decomposed 3D matrix values" (itself derived from Graphics Gems II
// "unmatrix"). That pseudo-code indexes `matrix[row][column]` with translation in
// `matrix[3][0…2]`, i.e. the same row-vector layout as CATransform3D (m41…m43), so it applies
// to CA matrices without transposition. Differences from the pseudo-code are marked "Deviation".

// MARK: - Internal decomposition with the rotation kept as a matrix

/// The three rows of an orthonormal, right-handed 3×3 rotation matrix in CA's row-vector
/// convention (a point row p maps to p · R).
struct RotationRows: Equatable {
    var r0: SIMD3<Double>
    var r1: SIMD3<Double>
    var r2: SIMD3<Double>

    static let identity = RotationRows(r0: [1, 0, 0], r1: [0, 1, 0], r2: [0, 0, 1])

    /// The upper-left 3×3 of a CATransform3D.
    init(upperLeftOf t: CATransform3D) {
        r0 = [Double(t.m11), Double(t.m12), Double(t.m13)]
        r1 = [Double(t.m21), Double(t.m22), Double(t.m23)]
        r2 = [Double(t.m31), Double(t.m32), Double(t.m33)]
    }

    init(r0: SIMD3<Double>, r1: SIMD3<Double>, r2: SIMD3<Double>) {
        self.r0 = r0; self.r1 = r1; self.r2 = r2
    }

    subscript(_ i: Int, _ j: Int) -> Double {
        switch i {
        case 0: return r0[j]
        case 1: return r1[j]
        default: return r2[j]
        }
    }
}

/// `t.isFinite` without building the 16-element array (used on per-frame paths).
func fieldsAreFinite(_ t: CATransform3D) -> Bool {
    t.m11.isFinite && t.m12.isFinite && t.m13.isFinite && t.m14.isFinite
        && t.m21.isFinite && t.m22.isFinite && t.m23.isFinite && t.m24.isFinite
        && t.m31.isFinite && t.m32.isFinite && t.m33.isFinite && t.m34.isFinite
        && t.m41.isFinite && t.m42.isFinite && t.m43.isFinite && t.m44.isFinite
}

@inline(__always) func dot3(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double {
    (a * b).sum()
}

@inline(__always) func cross3(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> SIMD3<Double> {
    [a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x]
}

@inline(__always) func length3(_ a: SIMD3<Double>) -> Double {
    dot3(a, a).squareRoot()
}

/// A transform split as in CSS Transforms 2 "Decomposing a 3D matrix", with the rotation kept
/// as orthonormal rows rather than a quaternion. The rows are what Euler-angle reading
/// (TransformComponents.swift) works from, and keeping them avoids the precision loss of a
/// round trip through a quaternion.
///
/// Recomposition order (row vectors, so the leftmost factor acts first on a point):
/// `M = Scale · Skew · Rotation · Translation · Perspective`, where `Skew` is the unit
/// lower-triangular `[1 0 0; xy 1 0; xz yz 1]` and `Perspective` is the identity with its last
/// column replaced by `perspective`.
struct TransformParts {
    var translation: SIMD3<Double>
    var scale: SIMD3<Double>
    /// (xy, xz, yz)
    var skew: SIMD3<Double>
    var perspective: SIMD4<Double>
    var rotation: RotationRows

    static let identity = TransformParts(
        translation: .zero, scale: [1, 1, 1], skew: .zero, perspective: [0, 0, 0, 1],
        rotation: .identity)

    /// Decomposes `t`.
    ///
    /// - strict (`lenient == false`): the spec's failure rule — nil when the upper 3×3
    ///   ("perspectiveMatrix") is singular — plus nil when perspective.w is 0 (M singular;
    ///   covers the spec's m44 = 0) and for non-finite input or results.
    /// - lenient: used for key-path components (E6), where a model transform such as
    ///   `scale(0)` is an ordinary value and must still yield components. A zero row gets scale
    ///   0 and an orthonormal direction chosen to complete the frame (the missing axis' own unit
    ///   vector when possible). Only zero *rows* are reconstructed exactly; other singular
    ///   matrices lose information. Still nil when the input is non-finite or there is
    ///   perspective that cannot be solved for (singular upper 3×3).
    init?(_ t: CATransform3D, lenient: Bool) {
        guard fieldsAreFinite(t) else { return nil }
        // Deviation: the spec first divides the whole matrix by m44 ("Normalize the matrix")
        // and fails when m44 is 0. We keep the matrix as it is and let perspective.w absorb
        // m44 instead. Both describe the same projective map, but ours recomposes to the
        // *same* matrix (the spec's only up to the factor m44) and keeps the components CA
        // code builds with: Concat(T(0, 0, −50), perspective) has m44 = 1.1, and we read
        // translation.z = −50 rather than −50/1.1. For m44 = 1 the two agree exactly.
        let a0: SIMD3<Double> = [Double(t.m11), Double(t.m12), Double(t.m13)]
        let a1: SIMD3<Double> = [Double(t.m21), Double(t.m22), Double(t.m23)]
        let a2: SIMD3<Double> = [Double(t.m31), Double(t.m32), Double(t.m33)]
        let rhs: SIMD3<Double> = [Double(t.m14), Double(t.m24), Double(t.m34)]
        let trans: SIMD3<Double> = [Double(t.m41), Double(t.m42), Double(t.m43)]
        let m44 = Double(t.m44)

        // The spec's perspectiveMatrix is [A 0; translation 1]; its determinant is det(A).
        let c12 = cross3(a1, a2), c20 = cross3(a2, a0), c01 = cross3(a0, a1)
        let det = dot3(a0, c12)
        guard det.isFinite else { return nil }
        if !lenient && det == 0 { return nil }

        // "First, isolate perspective": solve perspectiveMatrix · p = (m14, m24, m34, m44).
        // With perspectiveMatrix = [A 0; tr 1] this is A·p.xyz = rhs and tr·p.xyz + p.w = m44;
        // A⁻¹ is applied by Cramer's rule (columns of A⁻¹ are the cross products / det).
        let persp: SIMD4<Double>
        if rhs != .zero {
            guard det != 0 else { return nil }
            let p3 = (rhs.x * c12 + rhs.y * c20 + rhs.z * c01) / det
            persp = [p3.x, p3.y, p3.z, m44 - dot3(trans, p3)]
        } else {
            persp = [0, 0, 0, m44]
        }
        // det(M) = det(A) · perspective.w, so a zero w is a singular matrix (the spec's m44 = 0
        // failure, generalised). The lenient mode keeps it: only the projection degenerates.
        if !lenient && persp.w == 0 { return nil }
        perspective = persp

        // "Next take care of translation."
        translation = trans

        // "Now get scale and shear": Gram–Schmidt on the rows, X first.
        var sc = SIMD3<Double>(0, 0, 0)
        var sk = SIMD3<Double>(0, 0, 0)
        var u0: SIMD3<Double>? = nil, u1: SIMD3<Double>? = nil, u2: SIMD3<Double>? = nil

        func unit(_ v: SIMD3<Double>, _ len: Double) -> SIMD3<Double>? {
            guard len > 0 else { return nil }
            let u = v / len
            return (u.x.isFinite && u.y.isFinite && u.z.isFinite) ? u : nil
        }

        sc.x = length3(a0)
        u0 = unit(a0, sc.x)

        var row1 = a1
        var xy = 0.0
        if let u0 { xy = dot3(u0, a1); row1 = a1 - xy * u0 }
        sc.y = length3(row1)
        u1 = unit(row1, sc.y)
        if u1 != nil { sk.x = xy / sc.y }

        var row2 = a2
        var xz = 0.0, yz = 0.0
        if let u0 { xz = dot3(u0, row2); row2 = row2 - xz * u0 }
        if let u1 { yz = dot3(u1, row2); row2 = row2 - yz * u1 }
        sc.z = length3(row2)
        u2 = unit(row2, sc.z)
        if u2 != nil { sk.y = xz / sc.z; sk.z = yz / sc.z }

        var r0: SIMD3<Double>, r1: SIMD3<Double>, r2: SIMD3<Double>
        if let u0, let u1, let u2 {
            r0 = u0; r1 = u1; r2 = u2
            // "Check for a coordinate system flip. If the determinant is -1, then negate the
            // matrix and the scaling factors."
            if dot3(r0, cross3(r1, r2)) < 0 {
                sc = -sc; r0 = -r0; r1 = -r1; r2 = -r2
            }
        } else {
            guard lenient else { return nil }
            // Complete the frame right-handedly (no flip is needed for rows we invent).
            switch (u0, u1, u2) {
            case let (x?, y?, nil): r0 = x; r1 = y; r2 = cross3(x, y)
            case let (x?, nil, z?): r0 = x; r2 = z; r1 = cross3(z, x)
            case let (nil, y?, z?): r1 = y; r2 = z; r0 = cross3(y, z)
            case let (x?, nil, nil):
                r0 = x; r1 = TransformParts.orthonormal(to: x, preferring: 1); r2 = cross3(r0, r1)
            case let (nil, y?, nil):
                r1 = y; r2 = TransformParts.orthonormal(to: y, preferring: 2); r0 = cross3(r1, r2)
            case let (nil, nil, z?):
                r2 = z; r0 = TransformParts.orthonormal(to: z, preferring: 0); r1 = cross3(r2, r0)
            default:
                r0 = [1, 0, 0]; r1 = [0, 1, 0]; r2 = [0, 0, 1]
            }
        }
        scale = sc
        skew = sk
        rotation = RotationRows(r0: r0, r1: r1, r2: r2)

        // x·0 is 0 for finite x and NaN for NaN/∞, so this is "every output is finite" without
        // building an array (this runs per animation frame).
        let zero3: SIMD3<Double> = translation * 0 + scale * 0 + skew * 0
        let zero4: SIMD4<Double> = perspective * 0
        guard zero3.sum() + zero4.sum() == 0 else { return nil }
    }

    init(translation: SIMD3<Double>, scale: SIMD3<Double>, skew: SIMD3<Double>,
         perspective: SIMD4<Double>, rotation: RotationRows) {
        self.translation = translation; self.scale = scale; self.skew = skew
        self.perspective = perspective; self.rotation = rotation
    }

    /// A unit vector orthogonal to the unit vector `v`, taken from the standard basis vector
    /// `preferring` when that is not (nearly) parallel to `v`, so that e.g. `scale(0, 0, 1)`
    /// decomposes with the identity rotation.
    static func orthonormal(to v: SIMD3<Double>, preferring axis: Int) -> SIMD3<Double> {
        for k in [axis, (axis + 1) % 3, (axis + 2) % 3] {
            var e = SIMD3<Double>(0, 0, 0)
            e[k] = 1
            let o = e - dot3(e, v) * v
            let len = length3(o)
            if len > 0.5 { return o / len }
        }
        return [1, 0, 0]  // unreachable for a unit v: some basis vector is ≥ 1/√3 away
    }

    /// "Recomposing to a 3D matrix": M = Scale · Skew · Rotation · Translation · Perspective.
    /// Written out instead of multiplied so that unit scale, zero skew and identity perspective
    /// reproduce the rotation rows bit for bit (x·1 and x + 0 are exact).
    func composed() -> CATransform3D {
        let r = rotation
        let u0 = scale.x * r.r0
        let u1 = scale.y * (r.r1 + skew.x * r.r0)
        let u2 = scale.z * (r.r2 + skew.y * r.r0 + skew.z * r.r1)
        let p3 = SIMD3<Double>(perspective.x, perspective.y, perspective.z)
        let hasPerspective = p3 != .zero
        // [U 0; t 1] · [I p3; 0 pw] = [U, U·p3; t, t·p3 + pw]
        let c0 = hasPerspective ? dot3(u0, p3) : 0
        let c1 = hasPerspective ? dot3(u1, p3) : 0
        let c2 = hasPerspective ? dot3(u2, p3) : 0
        let c3 = hasPerspective ? dot3(translation, p3) + perspective.w : perspective.w
        return CATransform3D(
            m11: CGFloat(u0.x), m12: CGFloat(u0.y), m13: CGFloat(u0.z), m14: CGFloat(c0),
            m21: CGFloat(u1.x), m22: CGFloat(u1.y), m23: CGFloat(u1.z), m24: CGFloat(c1),
            m31: CGFloat(u2.x), m32: CGFloat(u2.y), m33: CGFloat(u2.z), m34: CGFloat(c2),
            m41: CGFloat(translation.x), m42: CGFloat(translation.y),
            m43: CGFloat(translation.z), m44: CGFloat(c3))
    }
}

// MARK: - Quaternion ⇄ rotation rows

extension RotationRows {
    /// The unit quaternion (x, y, z, w) of these rows, in Apple's sense: the quaternion
    /// (axis·sin(θ/2), cos(θ/2)) corresponds to `CATransform3DMakeRotation(θ, axis)`; w ≥ 0.
    ///
    /// Deviation: the spec extracts each component as ½√(1 ± r00 ± r11 ± r22) and fixes signs
    /// by comparing off-diagonal pairs. That loses about half the significant digits for small
    /// components (cancellation under the square root), which would break a 1e-9 round trip.
    /// We use the equivalent largest-pivot form (Shepperd): the largest of w, x, y, z comes
    /// from the square root, the other three from off-diagonal sums/differences. Sign relations
    /// for row vectors (the transpose of the column-vector form): r12−r21 = 4wx,
    /// r20−r02 = 4wy, r01−r10 = 4wz, r01+r10 = 4xy, r02+r20 = 4xz, r12+r21 = 4yz.
    var quaternion: SIMD4<Double> {
        let m00 = r0.x, m01 = r0.y, m02 = r0.z
        let m10 = r1.x, m11 = r1.y, m12 = r1.z
        let m20 = r2.x, m21 = r2.y, m22 = r2.z
        let trace = m00 + m11 + m22
        var q: SIMD4<Double>
        if trace > 0 {
            let s = (trace + 1).squareRoot() * 2  // 4w
            q = [(m12 - m21) / s, (m20 - m02) / s, (m01 - m10) / s, s / 4]
        } else if m00 >= m11 && m00 >= m22 {
            let s = (1 + m00 - m11 - m22).squareRoot() * 2  // 4x
            q = [s / 4, (m01 + m10) / s, (m02 + m20) / s, (m12 - m21) / s]
        } else if m11 >= m22 {
            let s = (1 + m11 - m00 - m22).squareRoot() * 2  // 4y
            q = [(m01 + m10) / s, s / 4, (m12 + m21) / s, (m20 - m02) / s]
        } else {
            let s = (1 + m22 - m00 - m11).squareRoot() * 2  // 4z
            q = [(m02 + m20) / s, (m12 + m21) / s, s / 4, (m01 - m10) / s]
        }
        let n = (q * q).sum().squareRoot()
        if n > 0 && n.isFinite { q /= n } else { q = [0, 0, 0, 1] }
        return q.w < 0 ? -q : q
    }

    /// Rows of the rotation for quaternion (x, y, z, w), normalised first; a zero or
    /// non-finite quaternion gives the identity.
    ///
    /// Deviation: we keep the quaternion in Apple's sense —
    /// (0, 0, sin(θ/2), cos(θ/2)) ↦ CATransform3DMakeRotation(θ, 0, 0, 1), whose m12 = sin θ —
    /// which makes this table the transpose of the spec's "rotationMatrix" table (the spec's
    /// quaternion has the opposite handedness). Interpolated matrices are unaffected: slerp
    /// commutes with conjugating both ends.
    init(quaternion qIn: SIMD4<Double>) {
        let n = (qIn * qIn).sum().squareRoot()
        guard n > 0, n.isFinite else { self = .identity; return }
        let q = qIn / n
        let x = q.x, y = q.y, z = q.z, w = q.w
        r0 = [1 - 2 * (y * y + z * z), 2 * (x * y + z * w), 2 * (x * z - y * w)]
        r1 = [2 * (x * y - z * w), 1 - 2 * (x * x + z * z), 2 * (y * z + x * w)]
        r2 = [2 * (x * z + y * w), 2 * (y * z - x * w), 1 - 2 * (x * x + y * y)]
    }
}

// MARK: - DecomposedTransform

/// A CATransform3D split into translation, scale, skew, perspective and a rotation quaternion,
/// following CSS Transforms Module Level 2 §"Decomposing a 3D matrix" (docs/BEHAVIOUR.md E2).
///
/// `recomposed()` evaluates `Scale · Skew · Rotation · Translation · Perspective` in CA's
/// row-vector order, i.e. a point is scaled first, then skewed, rotated, translated and
/// finally projected; this is the spec's §"Recomposing to a 3D matrix" order.
///
/// Deviation from the spec: the matrix is not divided by m44 first; perspective.w carries
/// m44 instead, so every non-singular matrix recomposes to itself (to rounding), including
/// CA's common `Concat(T(…, z), perspective)` whose m44 ≠ 1.
package struct DecomposedTransform: Equatable, Sendable {
    package struct Vector3: Equatable, Sendable {
        package var x: CGFloat, y: CGFloat, z: CGFloat
        package init(x: CGFloat, y: CGFloat, z: CGFloat) { self.x = x; self.y = y; self.z = z }
    }

    /// Skew factors as the spec names them: XY (of y along x), XZ and YZ.
    package struct Skew: Equatable, Sendable {
        package var xy: CGFloat, xz: CGFloat, yz: CGFloat
        package init(xy: CGFloat, xz: CGFloat, yz: CGFloat) { self.xy = xy; self.xz = xz; self.yz = yz }
    }

    /// The last column of the perspective factor (identity: 0, 0, 0, 1). For the usual CA
    /// perspective `m34 = −1/d`, this is (0, 0, −1/d, 1).
    package struct Perspective: Equatable, Sendable {
        package var x: CGFloat, y: CGFloat, z: CGFloat, w: CGFloat
        package init(x: CGFloat, y: CGFloat, z: CGFloat, w: CGFloat) {
            self.x = x; self.y = y; self.z = z; self.w = w
        }
    }

    /// Unit quaternion; (axis·sin(θ/2), cos(θ/2)) is `CATransform3DMakeRotation(θ, axis)`.
    package struct Quaternion: Equatable, Sendable {
        package var x: CGFloat, y: CGFloat, z: CGFloat, w: CGFloat
        package init(x: CGFloat, y: CGFloat, z: CGFloat, w: CGFloat) {
            self.x = x; self.y = y; self.z = z; self.w = w
        }
    }

    package var translation: Vector3
    package var scale: Vector3
    package var skew: Skew
    package var perspective: Perspective
    package var rotation: Quaternion

    package static let identity = DecomposedTransform(parts: .identity)

    package init(translation: Vector3, scale: Vector3, skew: Skew, perspective: Perspective,
                 rotation: Quaternion) {
        self.translation = translation; self.scale = scale; self.skew = skew
        self.perspective = perspective; self.rotation = rotation
    }

    /// Decomposes `t`; nil when it cannot be decomposed: a field is NaN or infinite, or the
    /// matrix is singular — the upper-left 3×3 is singular (the spec's "return false" case) or
    /// the perspective factor's w is 0 (which includes the spec's m44 = 0 case for matrices
    /// without perspective).
    package init?(_ t: CATransform3D) {
        guard let parts = TransformParts(t, lenient: false) else { return nil }
        self.init(parts: parts)
    }

    init(parts p: TransformParts) {
        let q = p.rotation.quaternion
        translation = Vector3(x: CGFloat(p.translation.x), y: CGFloat(p.translation.y),
                              z: CGFloat(p.translation.z))
        scale = Vector3(x: CGFloat(p.scale.x), y: CGFloat(p.scale.y), z: CGFloat(p.scale.z))
        skew = Skew(xy: CGFloat(p.skew.x), xz: CGFloat(p.skew.y), yz: CGFloat(p.skew.z))
        perspective = Perspective(x: CGFloat(p.perspective.x), y: CGFloat(p.perspective.y),
                                  z: CGFloat(p.perspective.z), w: CGFloat(p.perspective.w))
        rotation = Quaternion(x: CGFloat(q.x), y: CGFloat(q.y), z: CGFloat(q.z), w: CGFloat(q.w))
    }

    var parts: TransformParts {
        TransformParts(
            translation: [Double(translation.x), Double(translation.y), Double(translation.z)],
            scale: [Double(scale.x), Double(scale.y), Double(scale.z)],
            skew: [Double(skew.xy), Double(skew.xz), Double(skew.yz)],
            perspective: [Double(perspective.x), Double(perspective.y), Double(perspective.z),
                          Double(perspective.w)],
            rotation: RotationRows(quaternion: [Double(rotation.x), Double(rotation.y),
                                                Double(rotation.z), Double(rotation.w)]))
    }

    /// The matrix `Scale · Skew · Rotation · Translation · Perspective` (spec §"Recomposing to a
    /// 3D matrix"). The quaternion is normalised first; a zero quaternion means no rotation.
    package func recomposed() -> CATransform3D { parts.composed() }

    /// Componentwise interpolation per spec §"Interpolation of decomposed 3D matrix values":
    /// translation, scale, skew and perspective are lerped, the quaternion is slerped.
    /// `t` is not clamped, so t < 0 or t > 1 extrapolates (spring overshoot).
    package func interpolated(to other: DecomposedTransform, _ t: Double) -> DecomposedTransform {
        func mix(_ a: CGFloat, _ b: CGFloat) -> CGFloat {
            CGFloat(Double(a) + (Double(b) - Double(a)) * t)
        }
        let q = slerpShortestArc(
            [Double(rotation.x), Double(rotation.y), Double(rotation.z), Double(rotation.w)],
            [Double(other.rotation.x), Double(other.rotation.y), Double(other.rotation.z),
             Double(other.rotation.w)], t)
        return DecomposedTransform(
            translation: Vector3(x: mix(translation.x, other.translation.x),
                                 y: mix(translation.y, other.translation.y),
                                 z: mix(translation.z, other.translation.z)),
            scale: Vector3(x: mix(scale.x, other.scale.x), y: mix(scale.y, other.scale.y),
                           z: mix(scale.z, other.scale.z)),
            skew: Skew(xy: mix(skew.xy, other.skew.xy), xz: mix(skew.xz, other.skew.xz),
                       yz: mix(skew.yz, other.skew.yz)),
            perspective: Perspective(x: mix(perspective.x, other.perspective.x),
                                     y: mix(perspective.y, other.perspective.y),
                                     z: mix(perspective.z, other.perspective.z),
                                     w: mix(perspective.w, other.perspective.w)),
            rotation: Quaternion(x: CGFloat(q.x), y: CGFloat(q.y), z: CGFloat(q.z),
                                 w: CGFloat(q.w)))
    }
}

/// Spherical linear interpolation along the shorter arc, with `t` unclamped.
///
/// Choice (docs/BEHAVIOUR.md O11 leaves it open for Apple): q and −q are the same rotation, so the
/// decomposition's sign is arbitrary; without a sign fix the path could take the long way
/// (e.g. 170° → −170° about z turning 340° back through 0° instead of 20° through 180°). We
/// negate `b` when a·b < 0 (the usual shortest-path slerp), so the interpolation always
/// follows the shorter great-circle arc.
/// The formula sin((1−t)θ)/sin θ · a + sin(tθ)/sin θ · b is the spec's
/// (cos(tθ) − cos θ · w)·a + w·b with w = sin(tθ)/sin θ, evaluated for any real t, so t > 1
/// continues rotating past b along the same great circle. When a and b (nearly) coincide,
/// sin θ → 0 and we use the normalised linear blend, which is the same limit.
func slerpShortestArc(_ a: SIMD4<Double>, _ bIn: SIMD4<Double>, _ t: Double) -> SIMD4<Double> {
    var b = bIn
    var d = (a * b).sum()
    if d < 0 { b = -b; d = -d }
    let q: SIMD4<Double>
    if d > 1 - 1e-12 {
        q = a + (b - a) * t
    } else {
        let theta = acos(min(d, 1))
        let s = sin(theta)
        q = a * (sin((1 - t) * theta) / s) + b * (sin(t * theta) / s)
    }
    let n = (q * q).sum().squareRoot()
    return (n > 0 && n.isFinite) ? q / n : a
}

// MARK: - Interpolation of CATransform3D values

/// Interpolates two transforms the way `transform` animations do (docs/BEHAVIOUR.md E2): decompose
/// both (CSS Transforms 2 §"Decomposing a 3D matrix"), lerp translation, scale, skew and
/// perspective, slerp the rotation quaternion along the shorter arc (see `slerpShortestArc`),
/// and recompose. Rotations therefore turn rather than shrink: identity → MakeRotation(π/2,
/// 0, 0, 1) passes through a 45° rotation at t = 0.5, and identity → a 2π rotation stays put.
///
/// - `t` is not clamped: values outside [0, 1] extrapolate every component (spring
///   overshoot), the rotation continuing along the same great circle.
/// - Fast paths: `a == b` returns `a`; `t == 0` returns `a` and `t == 1` returns `b`, exactly.
/// - Fallback: when either matrix cannot be decomposed (singular, e.g. `scale(0)`, or
///   non-finite fields) the 16 fields are lerped, as the spec does when decomposition
///   "returns false" (it falls back to discrete interpolation; we lerp so that scale(0) →
///   scale(1) still animates). Non-finite input can therefore give non-finite output, never a
///   crash.
package func interpolateTransform(_ a: CATransform3D, _ b: CATransform3D, _ t: Double) -> CATransform3D {
    if a == b || t == 0 { return a }
    if t == 1 { return b }
    guard t.isFinite,
          let da = DecomposedTransform(a),
          let db = DecomposedTransform(b) else {
        return lerpTransformFields(a, b, t)
    }
    let r = da.interpolated(to: db, t).recomposed()
    return fieldsAreFinite(r) ? r : lerpTransformFields(a, b, t)
}

/// The 16 fields lerped independently (fallback for non-decomposable transforms).
func lerpTransformFields(_ a: CATransform3D, _ b: CATransform3D, _ t: Double) -> CATransform3D {
    let x = a.rowMajor, y = b.rowMajor
    var out = [CGFloat](repeating: 0, count: 16)
    for i in 0..<16 {
        out[i] = CGFloat(Double(x[i]) + (Double(y[i]) - Double(x[i])) * t)
    }
    return CATransform3D(rowMajor: out)
}
