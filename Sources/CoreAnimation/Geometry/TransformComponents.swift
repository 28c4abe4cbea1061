// Reading and writing the "transform.*" key-path components.
//
// Apple, Core Animation Programming Guide, "Key-Value Coding Extensions", Table C-2
// (docs/BEHAVIOUR.md E6): transform.rotation.x|y|z (radians), transform.rotation (= rotation.z),
// transform.scale.x|y|z, transform.scale ("average of all three scale factors" when read;
// setting sets all three), transform.translation.x|y|z and transform.translation (a CGSize
// of x and y). "Component animations replace only that component of the decomposed
// transform." Apple does not publish how the matrix is decomposed; we use the CSS Transforms
// Level 2 decomposition (TransformDecomposition.swift) and, for the rotation, Euler angles
// read from its rotation rows as described on `EulerAngles`.

/// One scalar component of a CATransform3D, named after Apple's key paths (Table C-2).
package enum TransformComponent: CaseIterable, Hashable, Sendable {
    case rotationX, rotationY, rotationZ
    case scaleX, scaleY, scaleZ
    /// Read: the average of the three scale factors; set: all three.
    case scale
    case translationX, translationY, translationZ

    /// The key path below "transform." (`rotation` is an alias for `rotation.z`, Table C-2).
    package var keyPath: String {
        switch self {
        case .rotationX: return "rotation.x"
        case .rotationY: return "rotation.y"
        case .rotationZ: return "rotation.z"
        case .scaleX: return "scale.x"
        case .scaleY: return "scale.y"
        case .scaleZ: return "scale.z"
        case .scale: return "scale"
        case .translationX: return "translation.x"
        case .translationY: return "translation.y"
        case .translationZ: return "translation.z"
        }
    }

    /// Parses the part of a key path after "transform." — e.g. "rotation.z", "rotation",
    /// "scale". `translation` (a CGSize) is not a scalar component and gives nil; use
    /// `transformTranslation` / `settingTransformTranslation` for it.
    package init?(keyPath: String) {
        if keyPath == "rotation" { self = .rotationZ; return }
        guard let c = TransformComponent.allCases.first(where: { $0.keyPath == keyPath }) else {
            return nil
        }
        self = c
    }

    var rotationAxis: EulerAngles.Axis? {
        switch self {
        case .rotationX: return .x
        case .rotationY: return .y
        case .rotationZ: return .z
        default: return nil
        }
    }
}

// MARK: - Euler angles

/// Rotation angles (radians) about the x, y and z axes.
///
/// Order (the one choice that makes rotation.x/y/z combine): the rotation is
/// `Rx(x) · Ry(y) · Rz(z)` in CA's row-vector order, i.e.
/// `CATransform3DConcat(Rx, CATransform3DConcat(Ry, Rz))` — a point is turned about x first,
/// then about y, then about z (fixed axes). Equivalently
/// `CATransform3DRotate(CATransform3DRotate(Rz, y, 0, 1, 0), x, 1, 0, 0)`. We put z last so
/// that the in-plane angle reads as in 2D: for any matrix without x/y tilt,
/// rotation.z = atan2(m12, m11), the CGAffineTransform rotation angle.
///
/// Row-vector rows of Rx·Ry·Rz, with c/s of x = a, y = b, z = g:
/// r0 = (cb·cg, cb·sg, −sb), r1 = (…, …, sa·cb), r2 = (…, …, ca·cb); so
/// y = atan2(−r02, hypot(r00, r01)), z = atan2(r01, r00), x = atan2(r12, r22).
///
/// Every rotation has two such triples, (x, y, z) and (x + π, π − y, z + π). We report the one
/// whose |x| + |y| + |z| is smaller (ties: |y| ≤ π/2), all angles in (−π, π]: this reads a
/// pure rotation about any one axis by v ∈ (−π, π] as exactly that, keeps the other two
/// angles at 0, and reads Rx(a)·Rz(b) (small a, b) as (a, 0, b) rather than (a ± π, π, b ± π).
/// At gimbal lock (|y| = π/2) only x − z (or x + z) is determined; the combined angle is
/// given to the axis being read or written (to z when that is y).
struct EulerAngles: Equatable {
    enum Axis { case x, y, z }

    var x: Double, y: Double, z: Double

    subscript(axis: Axis) -> Double {
        get { switch axis { case .x: return x; case .y: return y; case .z: return z } }
        set { switch axis { case .x: x = newValue; case .y: y = newValue; case .z: z = newValue } }
    }

    var total: Double { abs(x) + abs(y) + abs(z) }

    /// The other triple describing the same rotation (not defined at gimbal lock).
    var alternate: EulerAngles {
        EulerAngles(x: wrapAngle(x + .pi), y: wrapAngle(.pi - y), z: wrapAngle(z + .pi))
    }

    /// Below this |cos y| the x and z axes are treated as aligned (gimbal lock). The rows are
    /// accurate to ~1e-16, so angles read from entries of size ~1e-10 are still meaningful to
    /// ~1e-6, and treating them as locked costs at most ~1e-10 in the rebuilt matrix.
    static let gimbalThreshold = 1e-10

    /// The preferred triple for `rows`, plus the alternate one unless at gimbal lock.
    static func representations(of r: RotationRows, favoring axis: Axis)
        -> (preferred: EulerAngles, alternate: EulerAngles?) {
        let cy = (r[0, 0] * r[0, 0] + r[0, 1] * r[0, 1]).squareRoot()
        let y = atan2(-r[0, 2], cy)
        if cy < gimbalThreshold {
            // r10 = sin(x − z), r11 = cos(x − z) when y = +π/2;
            // r10 = −sin(x + z), r11 = cos(x + z) when y = −π/2.
            let up = -r[0, 2] > 0
            let combined = up ? atan2(r[1, 0], r[1, 1]) : atan2(-r[1, 0], r[1, 1])
            let e: EulerAngles
            if axis == .x {
                e = EulerAngles(x: wrapAngle(combined), y: y, z: 0)
            } else {
                e = EulerAngles(x: 0, y: y, z: wrapAngle(up ? -combined : combined))
            }
            return (e, nil)
        }
        let primary = EulerAngles(x: wrapAngle(atan2(r[1, 2], r[2, 2])), y: y,
                                  z: wrapAngle(atan2(r[0, 1], r[0, 0])))
        let other = primary.alternate
        if other.total < primary.total - 1e-12 { return (other, primary) }
        return (primary, other)
    }

    /// Rows of Rx(x) · Ry(y) · Rz(z), built from CATransform3DMakeRotation so that a single
    /// non-zero angle reproduces MakeRotation(angle, axis) exactly. Angles are not reduced, so
    /// 2π gives MakeRotation(2π, …) (a full turn), as key-path animations need.
    var rotationRows: RotationRows {
        var m = CATransform3DIdentity
        if z != 0 { m = CATransform3DMakeRotation(CGFloat(z), 0, 0, 1) }
        if y != 0 { m = CATransform3DConcat(CATransform3DMakeRotation(CGFloat(y), 0, 1, 0), m) }
        if x != 0 { m = CATransform3DConcat(CATransform3DMakeRotation(CGFloat(x), 1, 0, 0), m) }
        return RotationRows(upperLeftOf: m)
    }
}

/// `a` reduced to (−π, π].
func wrapAngle(_ a: Double) -> Double {
    var r = remainder(a, 2 * Double.pi)
    if r <= -Double.pi { r += 2 * Double.pi }
    if r > Double.pi { r -= 2 * Double.pi }
    return r
}

// MARK: - Reading components

/// Parts used for reading: the lenient decomposition, or — for perspective on a singular
/// matrix, which it cannot solve — that of the affine part (perspective column ignored,
/// m44 taken as 1).
/// Nil only for non-finite input.
private func readableParts(_ t: CATransform3D) -> TransformParts? {
    if let p = TransformParts(t, lenient: true) { return p }
    var affine = t
    affine.m14 = 0; affine.m24 = 0; affine.m34 = 0; affine.m44 = 1
    return TransformParts(affine, lenient: true)
}

private func componentValue(_ p: TransformParts, _ c: TransformComponent) -> Double {
    switch c {
    case .rotationX, .rotationY, .rotationZ:
        let axis = c.rotationAxis ?? .z
        return EulerAngles.representations(of: p.rotation, favoring: axis).preferred[axis]
    case .scaleX: return p.scale.x
    case .scaleY: return p.scale.y
    case .scaleZ: return p.scale.z
    case .scale: return (p.scale.x + p.scale.y + p.scale.z) / 3
    case .translationX: return p.translation.x
    case .translationY: return p.translation.y
    case .translationZ: return p.translation.z
    }
}

/// The value of `valueForKeyPath:"transform.<c>"` for `t` (docs/BEHAVIOUR.md E6).
///
/// Rotation angles are the Euler angles of `EulerAngles` (order Rx·Ry·Rz, z applied last), in
/// (−π, π]; e.g. rotation.z of any 2D rotation+scale is atan2(m12, m11). Scale and
/// translation are those of the CSS decomposition (translation = m41…m43; unlike the spec we
/// do not divide by m44, see `TransformParts`, so Concat(T(0, 0, −50), perspective) reads
/// translation.z = −50). A singular
/// transform still has components (scale(0) reads scale 0). Non-finite input reads NaN.
package func transformComponentValue(_ t: CATransform3D, _ c: TransformComponent) -> CGFloat {
    guard let p = readableParts(t) else { return .nan }
    return CGFloat(componentValue(p, c))
}

/// `transform.translation`: the x and y translation as a CGSize (Table C-2).
package func transformTranslation(_ t: CATransform3D) -> CGSize {
    guard let p = readableParts(t) else { return CGSize(width: CGFloat.nan, height: CGFloat.nan) }
    return CGSize(width: CGFloat(p.translation.x), height: CGFloat(p.translation.y))
}

// MARK: - Writing components

/// `p` with component `c` set to `v` (rotation via Euler triple `e`).
private func replacing(_ p: TransformParts, _ c: TransformComponent, _ v: Double,
                       euler e: EulerAngles?) -> TransformParts {
    var q = p
    switch c {
    case .rotationX, .rotationY, .rotationZ:
        var angles = e ?? EulerAngles(x: 0, y: 0, z: 0)
        angles[c.rotationAxis ?? .z] = v
        q.rotation = angles.rotationRows
    case .scaleX: q.scale.x = v
    case .scaleY: q.scale.y = v
    case .scaleZ: q.scale.z = v
    case .scale: q.scale = [v, v, v]
    case .translationX: q.translation.x = v
    case .translationY: q.translation.y = v
    case .translationZ: q.translation.z = v
    }
    return q
}

/// `t` with one component replaced, for `setValue:forKeyPath:"transform.<c>"` (docs/BEHAVIOUR.md E6):
/// decompose (lenient, so scale(0) works), replace, recompose
/// (Scale · Skew · Rotation · Translation · Perspective).
///
/// - Identity-exact: on the identity, rotation.z = a gives exactly
///   CATransform3DMakeRotation(a, 0, 0, 1) (likewise x, y); translation.x = 10 on scale(2)
///   gives m41 == 10 and keeps the scale (translation is applied after scale).
/// - Round trip: `transformComponentValue(settingTransformComponent(t, c, v), c) == v` (to
///   rounding) for angles v ∈ (−π, π) whenever t's rotation has no part about the other two
///   axes, and more generally whenever |v| + |other angle 1| + |other angle 2| < 3π/2. Beyond
///   that it cannot hold with a reading that keeps Rx(a)·Rz(b) at rotation.y = 0: e.g.
///   Rx(3.1)·Ry(2.2) is the same rotation as Rx(−0.04)·Ry(0.94)·Rz(π) and reads x = −0.04
///   (the matrix set is still Rx(3.1)·Ry(2.2)). Because a rotation has two Euler triples, we
///   first replace the angle in the preferred triple and, if that would read back
///   differently, in the alternate one (both describe t's rotation, so "only that
///   component" changes either way), which widens the domain somewhat.
/// - Returns `t` unchanged when `v` is not finite or `t` cannot be decomposed (non-finite,
///   or perspective on a singular matrix).
package func settingTransformComponent(_ t: CATransform3D, _ c: TransformComponent,
                                       to v: CGFloat) -> CATransform3D {
    let value = Double(v)
    guard value.isFinite, let p = TransformParts(t, lenient: true) else { return t }
    guard let axis = c.rotationAxis else {
        return checkedCompose(replacing(p, c, value, euler: nil), else: t)
    }
    let reps = EulerAngles.representations(of: p.rotation, favoring: axis)
    let first = replacing(p, c, value, euler: reps.preferred)
    if abs(value) < .pi, let alt = reps.alternate {
        let readBack = EulerAngles.representations(of: first.rotation, favoring: axis).preferred[axis]
        if abs(readBack - value) > 1e-9 {
            let second = replacing(p, c, value, euler: alt)
            let readBack2 = EulerAngles.representations(of: second.rotation, favoring: axis).preferred[axis]
            if abs(readBack2 - value) <= 1e-9 { return checkedCompose(second, else: t) }
        }
    }
    return checkedCompose(first, else: t)
}

/// `base` with component `c` replaced by `v`, for non-additive key-path animations such as
/// `transform.rotation.z` from 0 to 2π (docs/BEHAVIOUR.md E2, E6).
///
/// Unlike `settingTransformComponent`, nothing is chosen by reading back: the base's preferred
/// decomposition is kept and `v` is used as given, unreduced — rotation builds the matrix for
/// angle v itself, so 2π is a full turn and 3π/2 a three-quarter turn, and the result is
/// continuous in v (what an animation needs frame to frame). Returns `base` when `v` is not
/// finite or `base` cannot be decomposed.
package func applyingTransformComponent(_ base: CATransform3D, _ c: TransformComponent,
                                        value v: CGFloat) -> CATransform3D {
    let value = Double(v)
    guard value.isFinite else { return base }
    if let fast = applyingComponentToScaleTranslation(base, c, value) { return fast }
    guard let p = TransformParts(base, lenient: true) else { return base }
    var euler: EulerAngles? = nil
    if let axis = c.rotationAxis {
        euler = EulerAngles.representations(of: p.rotation, favoring: axis).preferred
    }
    return checkedCompose(replacing(p, c, value, euler: euler), else: base)
}

/// `base` combined with a component delta, for additive key-path animations (docs/BEHAVIOUR.md E3:
/// "the addition function is type-dependent … for affine transforms the two matrices are
/// concatenated").
///
/// - rotation: `CATransform3DRotate(base, v, axis)` = Concat(R(v), base) — the rotation acts
///   first, in the layer's local space, then `base`; about the same axis as base's own
///   rotation this adds the angles.
/// - scale: `CATransform3DScale(base, …)` = Concat(S(v), base), which multiplies the
///   decomposed scale factors (all three for `.scale`).
/// - translation: adds v to the decomposed translation (a shift in the parent's space, like
///   E6's "shifts by 10"): Concat(base, T(v)) when base has no perspective, otherwise through
///   the decomposition.
/// Returns `base` when `v` is not finite.
package func addingTransformComponent(_ base: CATransform3D, _ c: TransformComponent,
                                      delta v: CGFloat) -> CATransform3D {
    guard v.isFinite else { return base }
    switch c {
    case .rotationX: return CATransform3DRotate(base, v, 1, 0, 0)
    case .rotationY: return CATransform3DRotate(base, v, 0, 1, 0)
    case .rotationZ: return CATransform3DRotate(base, v, 0, 0, 1)
    case .scaleX: return CATransform3DScale(base, v, 1, 1)
    case .scaleY: return CATransform3DScale(base, 1, v, 1)
    case .scaleZ: return CATransform3DScale(base, 1, 1, v)
    case .scale: return CATransform3DScale(base, v, v, v)
    case .translationX, .translationY, .translationZ:
        let d: (CGFloat, CGFloat, CGFloat) =
            c == .translationX ? (v, 0, 0) : c == .translationY ? (0, v, 0) : (0, 0, v)
        return addingTranslation(base, d.0, d.1, d.2)
    }
}

private func addingTranslation(_ base: CATransform3D, _ x: CGFloat, _ y: CGFloat,
                               _ z: CGFloat) -> CATransform3D {
    let noPerspective = base.m14 == 0 && base.m24 == 0 && base.m34 == 0
    if !noPerspective, var p = TransformParts(base, lenient: true) {
        p.translation += [Double(x), Double(y), Double(z)]
        return checkedCompose(p, else: CATransform3DConcat(base, CATransform3DMakeTranslation(x, y, z)))
    }
    return CATransform3DConcat(base, CATransform3DMakeTranslation(x, y, z))
}

/// `setValue:forKeyPath:"transform.translation"`: sets the x and y translation, keeping z and
/// every other component. Returns `t` unchanged for non-finite sizes or a non-decomposable t.
package func settingTransformTranslation(_ t: CATransform3D, _ size: CGSize) -> CATransform3D {
    let x = Double(size.width), y = Double(size.height)
    guard x.isFinite, y.isFinite, var p = TransformParts(t, lenient: true) else { return t }
    p.translation.x = x
    p.translation.y = y
    return checkedCompose(p, else: t)
}

private func checkedCompose(_ p: TransformParts, else fallback: CATransform3D) -> CATransform3D {
    let r = p.composed()
    return fieldsAreFinite(r) ? r : fallback
}

/// The common case without a decomposition: `base` is only a positive scale and a translation
/// (an untransformed layer, or one animated in scale), whose decomposition is exactly its
/// diagonal and last row. Gives the same matrix as the general path (Scale · Rotation ·
/// Translation), with no allocation — this runs every frame of a `transform.scale` or
/// `transform.rotation.z` animation. Nil when `base` is anything else.
@inline(__always)
private func applyingComponentToScaleTranslation(_ b: CATransform3D, _ c: TransformComponent, _ v: Double) -> CATransform3D? {
    guard b.m12 == 0, b.m13 == 0, b.m14 == 0, b.m21 == 0, b.m23 == 0, b.m24 == 0,
          b.m31 == 0, b.m32 == 0, b.m34 == 0, b.m44 == 1,
          b.m11 > 0, b.m22 > 0, b.m33 > 0 else { return nil }
    var r = b
    switch c {
    case .scaleX: r.m11 = v
    case .scaleY: r.m22 = v
    case .scaleZ: r.m33 = v
    case .scale: r.m11 = v; r.m22 = v; r.m33 = v
    case .translationX: r.m41 = v
    case .translationY: r.m42 = v
    case .translationZ: r.m43 = v
    case .rotationZ:
        let cs = cos(v), sn = sin(v)
        r.m11 = b.m11 * cs; r.m12 = b.m11 * sn
        r.m21 = -b.m22 * sn; r.m22 = b.m22 * cs
    case .rotationX, .rotationY:
        return nil
    }
    return r
}
