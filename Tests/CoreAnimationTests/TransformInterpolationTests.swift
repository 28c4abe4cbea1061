import Testing
@testable import CoreAnimation

private func T(_ x: CGFloat, _ y: CGFloat, _ z: CGFloat) -> CATransform3D {
    CATransform3DMakeTranslation(x, y, z)
}
private func S(_ x: CGFloat, _ y: CGFloat, _ z: CGFloat) -> CATransform3D {
    CATransform3DMakeScale(x, y, z)
}
private func R(_ a: CGFloat, _ x: CGFloat, _ y: CGFloat, _ z: CGFloat) -> CATransform3D {
    CATransform3DMakeRotation(a, x, y, z)
}
/// a, then b, then c …
private func chain(_ ms: CATransform3D...) -> CATransform3D {
    ms.dropFirst().reduce(ms[0]) { CATransform3DConcat($0, $1) }
}
private func perspective(_ d: CGFloat) -> CATransform3D {
    var p = CATransform3DIdentity
    p.m34 = -1 / d
    return p
}

/// Deterministic pseudo-random numbers (SplitMix64) so failures reproduce.
struct SeededRandom {
    var state: UInt64
    mutating func next() -> Double {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        z ^= z >> 31
        return Double(z >> 11) / Double(1 << 53)
    }
    mutating func uniform(_ lo: Double, _ hi: Double) -> CGFloat { CGFloat(lo + (hi - lo) * next()) }
}

/// Checks that the upper 3×3 is a rotation (orthonormal rows, determinant +1).
private func isRotation(_ t: CATransform3D) -> Bool {
    let r = RotationRows(upperLeftOf: t)
    let rows = [r.r0, r.r1, r.r2]
    for i in 0..<3 {
        for j in 0..<3 where abs(dot3(rows[i], rows[j]) - (i == j ? 1 : 0)) > 1e-9 { return false }
    }
    return abs(dot3(r.r0, cross3(r.r1, r.r2)) - 1) < 1e-9
}

// MARK: - Decomposition (E2)

@Suite("E2 transform decomposition")
struct TransformDecompositionTests {
    static let roundTripCases: [CATransform3D] = [
        CATransform3DIdentity,
        T(10, -20, 30),
        S(2, 3, 4),
        S(-1, 1, 1),
        S(0.001, 1000, 1),
        R(.pi / 2, 0, 0, 1),
        R(1e-7, 0, 0, 1),
        R(.pi, 0, 1, 0),
        R(-2.5, 1, 2, 3),
        R(3.1, 1, 0, 0),
        chain(S(2, 3, 4), R(0.7, 1, -1, 0.5), T(5, 6, 7)),
        chain(R(0.3, 0, 0, 1), S(2, 0.5, 1)),  // rotation then non-uniform scale: skew
        chain(R(1.2, 0, 1, 0), perspective(500)),
        chain(S(1.5, 1.5, 1), R(-0.4, 1, 1, 0), T(100, 200, -50), perspective(800)),  // m44 ≠ 1
        chain(perspective(300), R(0.9, 0, 1, 0), T(3, 4, 5)),
        CATransform3D(rowMajor: [1, 0.2, 0.1, 0.001, 0.3, 1.1, -0.2, 0.002,
                                 0.05, 0.4, 0.9, -0.003, 12, -7, 3, 1]),
    ]

    @Test("E2 decompose then recompose reproduces the matrix within 1e-9",
          arguments: roundTripCases)
    func roundTrip(_ m: CATransform3D) throws {
        let d = try #require(DecomposedTransform(m))
        let back = d.recomposed()
        #expect(maxFieldDifference(back, m) <= 1e-9, "\(m) → \(back)")
    }

    @Test("E2 round trip within 1e-9 on 2000 random scale · rotation · translation · perspective")
    func randomRoundTrip() throws {
        var rng = SeededRandom(state: 42)
        var worst = 0.0
        for _ in 0..<2000 {
            let sx = rng.uniform(0.2, 3) * (rng.next() < 0.2 ? -1 : 1)
            var m = chain(
                S(sx, rng.uniform(0.2, 3), rng.uniform(0.2, 3)),
                R(rng.uniform(-4, 4), rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(-1, 1)),
                T(rng.uniform(-300, 300), rng.uniform(-300, 300), rng.uniform(-100, 100)))
            if rng.next() < 0.5 { m = chain(m, perspective(rng.uniform(200, 2000))) }
            let d = try #require(DecomposedTransform(m))
            worst = max(worst, maxFieldDifference(d.recomposed(), m))
        }
        #expect(worst <= 1e-9, "worst \(worst)")
    }

    @Test("E2 decomposition of scale · rotation · translation gives the parts")
    func parts() throws {
        let theta: CGFloat = 0.8
        let m = chain(S(2, 3, 4), R(theta, 0, 0, 1), T(10, 20, 30))
        let d = try #require(DecomposedTransform(m))
        #expect(abs(d.scale.x - 2) < 1e-12 && abs(d.scale.y - 3) < 1e-12 && abs(d.scale.z - 4) < 1e-12)
        #expect(d.translation == .init(x: 10, y: 20, z: 30))
        #expect(abs(d.skew.xy) < 1e-12 && abs(d.skew.xz) < 1e-12 && abs(d.skew.yz) < 1e-12)
        // Apple's sense: MakeRotation(θ, 0,0,1) ↔ (0, 0, sin θ/2, cos θ/2).
        #expect(abs(d.rotation.z - sin(theta / 2)) < 1e-12)
        #expect(abs(d.rotation.w - cos(theta / 2)) < 1e-12)
        #expect(d.perspective == .init(x: 0, y: 0, z: 0, w: 1))
    }

    @Test("E2 perspective m34 = −1/500 decomposes to perspective.z = −0.002")
    func perspectiveComponent() throws {
        let d = try #require(DecomposedTransform(perspective(500)))
        #expect(abs(d.perspective.z + 0.002) < 1e-15)
        #expect(d.perspective.w == 1)
        #expect(d.recomposed() == perspective(500))
    }

    @Test("E2 translation before perspective keeps its value although m44 ≠ 1")
    func translationBeforePerspective() throws {
        let m = chain(S(1.5, 1.5, 1), T(0, 0, -50), perspective(500))
        #expect(abs(m.m44 - 1.1) < 1e-15)
        let d = try #require(DecomposedTransform(m))
        #expect(abs(d.translation.z + 50) < 1e-12)
        #expect(abs(d.scale.x - 1.5) < 1e-12)
        #expect(abs(d.perspective.z + 0.002) < 1e-15)
        #expect(abs(d.perspective.w - 1) < 1e-12)
    }

    @Test("E2 recomposing the identity decomposition gives the identity exactly")
    func identity() throws {
        #expect(DecomposedTransform.identity.recomposed() == CATransform3DIdentity)
        #expect(try #require(DecomposedTransform(CATransform3DIdentity)) == .identity)
    }

    @Test("E2 singular, m44 = 0 and non-finite matrices do not decompose")
    func failures() {
        #expect(DecomposedTransform(S(0, 1, 1)) == nil)
        #expect(DecomposedTransform(CATransform3D()) == nil)
        var w0 = CATransform3DIdentity
        w0.m44 = 0
        #expect(DecomposedTransform(w0) == nil)
        var nan = CATransform3DIdentity
        nan.m22 = .nan
        #expect(DecomposedTransform(nan) == nil)
        var inf = CATransform3DIdentity
        inf.m41 = .infinity
        #expect(DecomposedTransform(inf) == nil)
    }
}

// MARK: - Interpolation (E2)

@Suite("E2 transform interpolation")
struct TransformInterpolationTests {
    @Test("E2 identity → MakeRotation(π/2,0,0,1) at t = 0.5 is a 45° rotation, not a shrunken matrix")
    func halfRotation() {
        let m = interpolateTransform(CATransform3DIdentity, R(.pi / 2, 0, 0, 1), 0.5)
        let c45 = cos(CGFloat.pi / 4)
        #expect(abs(m.m11 - c45) < 1e-9)  // a field lerp would give 0.5
        #expect(abs(m.m12 - c45) < 1e-9)
        #expect(approxEqual(m, R(.pi / 4, 0, 0, 1)))
    }

    @Test("E2 identity → 2π rotation shows no motion", arguments: [0.1, 0.25, 0.5, 0.75, 0.9])
    func fullTurnNoMotion(_ t: Double) {
        let m = interpolateTransform(CATransform3DIdentity, R(2 * .pi, 0, 0, 1), t)
        #expect(approxEqual(m, CATransform3DIdentity))
    }

    @Test("E2 translate + scale interpolate componentwise")
    func translateScale() throws {
        let a = chain(S(1, 1, 1), T(0, 0, 0))
        let b = chain(S(3, 5, 1), T(100, 50, -20))
        let m = interpolateTransform(a, b, 0.25)
        #expect(approxEqual(m, chain(S(1.5, 2, 1), T(25, 12.5, -5))))
    }

    @Test("E2 rotation and translation interpolate independently")
    func rotateTranslate() {
        let a = chain(R(0.2, 0, 0, 1), T(10, 0, 0))
        let b = chain(R(1.0, 0, 0, 1), T(30, 40, 0))
        let m = interpolateTransform(a, b, 0.5)
        #expect(approxEqual(m, chain(R(0.6, 0, 0, 1), T(20, 20, 0))))
    }

    @Test("E2 fast paths: t = 0 → a, t = 1 → b, a == b → a, exactly")
    func fastPaths() {
        let a = chain(S(2, 2, 2), R(0.3, 1, 1, 0), T(1, 2, 3))
        let b = chain(R(2, 0, 1, 0), perspective(400))
        #expect(interpolateTransform(a, b, 0) == a)
        #expect(interpolateTransform(a, b, 1) == b)
        #expect(interpolateTransform(a, a, 0.37) == a)
    }

    @Test("E2 t outside [0, 1] extrapolates (spring overshoot)")
    func extrapolation() {
        let b = R(.pi / 4, 0, 0, 1)
        #expect(approxEqual(interpolateTransform(CATransform3DIdentity, b, 2), R(.pi / 2, 0, 0, 1)))
        #expect(approxEqual(interpolateTransform(CATransform3DIdentity, b, -1), R(-.pi / 4, 0, 0, 1)))
        #expect(approxEqual(interpolateTransform(S(1, 1, 1), S(2, 2, 2), 1.5), S(2.5, 2.5, 2.5)))
        #expect(approxEqual(interpolateTransform(T(0, 0, 0), T(10, 0, 0), 1.2), T(12, 0, 0)))
    }

    @Test("E2 slerp takes the shorter arc: 0° → 350° passes −5°, 170° → −170° passes 180°")
    func shortestArc() {
        let m = interpolateTransform(CATransform3DIdentity, R(350 * .pi / 180, 0, 0, 1), 0.5)
        #expect(approxEqual(m, R(-5 * .pi / 180, 0, 0, 1)))
        // 170° → −170° goes through 180° (20° of travel), not back through 0° (340°).
        let deg = CGFloat.pi / 180
        let h = interpolateTransform(R(170 * deg, 0, 0, 1), R(-170 * deg, 0, 0, 1), 0.5)
        #expect(approxEqual(h, R(180 * deg, 0, 0, 1)))
        let q = interpolateTransform(R(170 * deg, 0, 0, 1), R(-170 * deg, 0, 0, 1), 0.25)
        #expect(approxEqual(q, R(175 * deg, 0, 0, 1)))
    }

    @Test("E2 rotation about different axes stays a rigid rotation halfway")
    func mixedAxes() {
        let a = R(.pi / 2, 1, 0, 0), b = R(.pi / 2, 0, 1, 0)
        let m = interpolateTransform(a, b, 0.5)
        #expect(isRotation(m))
        // Equal angular distance from both ends: angle(a⁻¹·m) == angle(m⁻¹·b).
        func angle(_ t: CATransform3D) -> Double { acos(max(-1, min(1, (Double(t.m11 + t.m22 + t.m33) - 1) / 2))) }
        let da = angle(CATransform3DConcat(m, CATransform3DInvert(a)))
        let db = angle(CATransform3DConcat(b, CATransform3DInvert(m)))
        #expect(abs(da - db) < 1e-9)
        #expect(da > 0.1)
    }

    @Test("E2 perspective is lerped")
    func perspectiveLerp() {
        let m = interpolateTransform(CATransform3DIdentity, perspective(500), 0.5)
        #expect(abs(m.m34 + 0.001) < 1e-12)
    }

    @Test("E2 a singular end falls back to lerping the 16 fields")
    func singularFallback() {
        let m = interpolateTransform(S(0, 0, 0), CATransform3DIdentity, 0.5)
        #expect(approxEqual(m, S(0.5, 0.5, 0.5)))
    }

    @Test("E2 NaN input does not crash")
    func nanInput() {
        var bad = CATransform3DIdentity
        bad.m11 = .nan
        let m = interpolateTransform(bad, R(1, 0, 0, 1), 0.5)
        #expect(m.m11.isNaN)
        #expect(interpolateTransform(CATransform3DIdentity, R(1, 0, 0, 1), .nan).rowMajor.count == 16)
    }
}

// MARK: - Key-path components (E6)

@Suite("E6 transform key-path components")
struct TransformComponentTests {
    @Test("E6 rotation.z of a 2D rotation + scale is atan2(m12, m11)")
    func readRotationZ() {
        for m in [chain(S(2, 2, 1), R(0.8, 0, 0, 1)), chain(R(-2.9, 0, 0, 1), S(2, 3, 1)),
                  chain(S(0.5, 4, 1), R(2.2, 0, 0, 1), T(5, 6, 0))] {
            let v = transformComponentValue(m, .rotationZ)
            #expect(abs(v - atan2(m.m12, m.m11)) < 1e-12)
            #expect(abs(transformComponentValue(m, .rotationX)) < 1e-12)
            #expect(abs(transformComponentValue(m, .rotationY)) < 1e-12)
        }
        #expect(abs(transformComponentValue(R(1.1, 0, 0, 1), .rotationZ) - 1.1) < 1e-12)
    }

    @Test("E6 rotation.x / rotation.y read single-axis rotations")
    func readRotationXY() {
        #expect(abs(transformComponentValue(R(0.9, 1, 0, 0), .rotationX) - 0.9) < 1e-12)
        #expect(abs(transformComponentValue(R(0.9, 1, 0, 0), .rotationY)) < 1e-12)
        #expect(abs(transformComponentValue(R(-2.5, 0, 1, 0), .rotationY) + 2.5) < 1e-12)
        #expect(abs(transformComponentValue(R(-2.5, 0, 1, 0), .rotationX)) < 1e-12)
        #expect(abs(transformComponentValue(R(-2.5, 0, 1, 0), .rotationZ)) < 1e-12)
    }

    @Test("E6 setting rotation.x/y/z on the identity gives exactly MakeRotation")
    func setRotationExact() {
        for a: CGFloat in [0.3, -1.2, 2.9, .pi / 2] {
            #expect(settingTransformComponent(CATransform3DIdentity, .rotationZ, to: a) == R(a, 0, 0, 1))
            #expect(settingTransformComponent(CATransform3DIdentity, .rotationX, to: a) == R(a, 1, 0, 0))
            #expect(settingTransformComponent(CATransform3DIdentity, .rotationY, to: a) == R(a, 0, 1, 0))
        }
    }

    static let roundTripBases: [CATransform3D] = [
        CATransform3DIdentity,
        chain(S(2, 3, 0.5), T(10, -4, 2)),
        chain(R(0.4, 0, 0, 1), T(1, 2, 3)),
        chain(R(-1.3, 1, 0, 0), S(2, 2, 2)),
        chain(R(1.2, 0, 1, 0), perspective(500)),
        chain(R(0.3, 1, 0, 0), R(-0.2, 0, 1, 0), R(0.5, 0, 0, 1)),
    ]

    @Test("E6 read(set(t, rotation.c, v)) == v for v in (−π, π)", arguments: roundTripBases)
    func rotationRoundTrip(_ base: CATransform3D) {
        let angles: [CGFloat] = [-3.1, -2.5, -.pi / 2, -1, -1e-6, 0, 0.5, .pi / 2, 2, 3.1]
        for c in [TransformComponent.rotationX, .rotationY, .rotationZ] {
            for v in angles {
                let s = settingTransformComponent(base, c, to: v)
                let back = transformComponentValue(s, c)
                #expect(abs(back - v) < 1e-9, "\(c) \(v) read \(back)")
            }
        }
    }

    @Test("E6 read(set(t, rotation.c, v)) == v for v in (−π, π) when t rotates about c only")
    func rotationRoundTripSameAxis() {
        let axes: [(TransformComponent, CGFloat, CGFloat, CGFloat)] =
            [(.rotationX, 1, 0, 0), (.rotationY, 0, 1, 0), (.rotationZ, 0, 0, 1)]
        for (c, x, y, z) in axes {
            for start: CGFloat in [-3, -2, 0.7, 2.9] {
                let base = chain(S(2, 1, 0.5), R(start, x, y, z), T(1, 2, 3))
                #expect(abs(transformComponentValue(base, c) - start) < 1e-9)
                for v: CGFloat in [-3.1, -2, -0.4, 0.4, 2, 3.1] {
                    let back = transformComponentValue(settingTransformComponent(base, c, to: v), c)
                    #expect(abs(back - v) < 1e-9, "\(c) from \(start) to \(v) read \(back)")
                }
            }
        }
    }

    @Test("E6 read(set(t, rotation.c, v)) == v on random t inside the documented domain")
    func randomRotationRoundTrip() {
        var rng = SeededRandom(state: 7)
        for _ in 0..<500 {
            // Euler angles with |x| + |y| + |z| small enough that |v| + others < 3π/2.
            let ax = rng.uniform(-0.7, 0.7), ay = rng.uniform(-0.7, 0.7), az = rng.uniform(-0.7, 0.7)
            let t = chain(S(rng.uniform(0.5, 2), rng.uniform(0.5, 2), 1),
                          R(ax, 1, 0, 0), R(ay, 0, 1, 0), R(az, 0, 0, 1),
                          T(rng.uniform(-50, 50), rng.uniform(-50, 50), 0))
            #expect(abs(transformComponentValue(t, .rotationX) - ax) < 1e-9)
            #expect(abs(transformComponentValue(t, .rotationY) - ay) < 1e-9)
            #expect(abs(transformComponentValue(t, .rotationZ) - az) < 1e-9)
            for c in [TransformComponent.rotationX, .rotationY, .rotationZ] {
                let v = rng.uniform(-3.1, 3.1)
                let back = transformComponentValue(settingTransformComponent(t, c, to: v), c)
                #expect(abs(back - v) < 1e-9, "\(c) \(v) read \(back)")
            }
        }
    }

    @Test("E6 outside the round-trip domain the matrix is still set as asked")
    func rotationOutsideDomain() {
        // Rx(3.1)·Ry(2.2) ≡ Rx(−0.04)·Ry(0.94)·Rz(π); the reading picks the smaller triple.
        let s = settingTransformComponent(R(2.2, 0, 1, 0), .rotationX, to: 3.1)
        #expect(approxEqual(s, chain(R(3.1, 1, 0, 0), R(2.2, 0, 1, 0))))
        #expect(abs(transformComponentValue(s, .rotationX) - (3.1 - .pi)) < 1e-9)
        #expect(abs(transformComponentValue(s, .rotationY) - (.pi - 2.2)) < 1e-9)
    }

    @Test("E6 setting one rotation angle keeps the others")
    func setKeepsOtherAngles() {
        let base = chain(R(0.3, 1, 0, 0), R(-0.2, 0, 1, 0), R(0.5, 0, 0, 1), T(7, 8, 9))
        let s = settingTransformComponent(base, .rotationY, to: 0.6)
        #expect(abs(transformComponentValue(s, .rotationX) - 0.3) < 1e-9)
        #expect(abs(transformComponentValue(s, .rotationY) - 0.6) < 1e-9)
        #expect(abs(transformComponentValue(s, .rotationZ) - 0.5) < 1e-9)
        #expect(transformTranslation(s) == CGSize(width: 7, height: 8))
        // Euler order: Rx applied first, then Ry, then Rz.
        #expect(approxEqual(s, chain(R(0.3, 1, 0, 0), R(0.6, 0, 1, 0), R(0.5, 0, 0, 1), T(7, 8, 9))))
    }

    @Test("E6 transform.scale reads the average of the three and sets all three")
    func scaleAverage() {
        #expect(abs(transformComponentValue(S(1, 2, 6), .scale) - 3) < 1e-12)
        #expect(transformComponentValue(S(1, 2, 6), .scaleY) == 2)
        let s = settingTransformComponent(chain(S(1, 2, 6), T(4, 5, 0)), .scale, to: 5)
        #expect(approxEqual(s, chain(S(5, 5, 5), T(4, 5, 0))))
        let sx = settingTransformComponent(S(1, 2, 6), .scaleX, to: 3)
        #expect(approxEqual(sx, S(3, 2, 6)))
    }

    @Test("E6 scale(0) still has components and can be set back")
    func zeroScale() {
        #expect(transformComponentValue(S(0, 0, 0), .scale) == 0)
        #expect(transformComponentValue(chain(S(0, 0, 1), T(3, 0, 0)), .translationX) == 3)
        #expect(settingTransformComponent(S(0, 0, 0), .scale, to: 1) == CATransform3DIdentity)
        #expect(applyingTransformComponent(S(0, 0, 1), .scaleX, value: 0.5) == S(0.5, 0, 1))
    }

    @Test("E6 translation.x = 10 shifts by 10 and keeps the scale")
    func translationX() {
        #expect(settingTransformComponent(CATransform3DIdentity, .translationX, to: 10) == T(10, 0, 0))
        let s = settingTransformComponent(S(2, 2, 2), .translationX, to: 10)
        #expect(s.m41 == 10)
        #expect(s.m11 == 2 && s.m22 == 2 && s.m33 == 2)
        #expect(transformComponentValue(s, .translationX) == 10)
        #expect(transformComponentValue(chain(S(3, 3, 3), T(1, 2, 3)), .translationZ) == 3)
    }

    @Test("E6 transform.translation is a CGSize of x and y")
    func translationSize() {
        let m = chain(R(0.5, 0, 0, 1), T(11, -22, 33))
        #expect(transformTranslation(m) == CGSize(width: 11, height: -22))
        let s = settingTransformTranslation(m, CGSize(width: 1, height: 2))
        #expect(approxEqual(s, chain(R(0.5, 0, 0, 1), T(1, 2, 33))))
    }

    @Test("E6 applying rotation.z beyond ±π builds the matrix for that angle")
    func applyUnclamped() {
        #expect(applyingTransformComponent(CATransform3DIdentity, .rotationZ, value: 2 * .pi) == R(2 * .pi, 0, 0, 1))
        let three = applyingTransformComponent(CATransform3DIdentity, .rotationZ, value: 3 * .pi / 2)
        #expect(three == R(3 * .pi / 2, 0, 0, 1))
        #expect(abs(three.m12 + 1) < 1e-12)  // three-quarter turn: sin(3π/2) = −1
        let moved = applyingTransformComponent(T(5, 6, 0), .rotationZ, value: 4 * .pi + 0.5)
        #expect(approxEqual(moved, chain(R(0.5, 0, 0, 1), T(5, 6, 0))))
    }

    @Test("E6 applying a component at the base's own value leaves the base unchanged")
    func applyContinuity() {
        let base = chain(R(0.5, 1, 0, 0), R(2.8, 0, 0, 1), T(3, 4, 5))
        let y0 = applyingTransformComponent(base, .rotationY, value: 0)
        #expect(approxEqual(y0, base))
        let small = applyingTransformComponent(base, .rotationY, value: 0.001)
        #expect(maxFieldDifference(small, base) < 0.01)
    }

    @Test("E3 additive components: rotation concatenates, scale multiplies, translation adds")
    func additive() {
        let r = addingTransformComponent(R(0.4, 0, 0, 1), .rotationZ, delta: 0.3)
        #expect(approxEqual(r, R(0.7, 0, 0, 1)))
        let base = chain(S(2, 2, 2), T(10, 0, 0))
        #expect(addingTransformComponent(base, .rotationZ, delta: 0.3) == CATransform3DRotate(base, 0.3, 0, 0, 1))
        let s = addingTransformComponent(base, .scale, delta: 1.5)
        #expect(approxEqual(s, chain(S(3, 3, 3), T(10, 0, 0))))
        let t = addingTransformComponent(base, .translationX, delta: -4)
        #expect(t == chain(S(2, 2, 2), T(6, 0, 0)))
        let withP = chain(S(2, 2, 2), T(10, 0, 0), perspective(500))
        let tp = addingTransformComponent(withP, .translationY, delta: 7)
        #expect(approxEqual(tp, chain(S(2, 2, 2), T(10, 7, 0), perspective(500))))
    }

    @Test("E6 key paths map to components; rotation is rotation.z")
    func keyPaths() {
        #expect(TransformComponent(keyPath: "rotation") == .rotationZ)
        #expect(TransformComponent(keyPath: "rotation.x") == .rotationX)
        #expect(TransformComponent(keyPath: "scale") == .scale)
        #expect(TransformComponent(keyPath: "translation.z") == .translationZ)
        #expect(TransformComponent(keyPath: "translation") == nil)
        #expect(TransformComponent(keyPath: "bogus") == nil)
        for c in TransformComponent.allCases { #expect(TransformComponent(keyPath: c.keyPath) == c) }
    }

    @Test("E6 non-finite input reads NaN and setting leaves it unchanged")
    func nonFinite() {
        var bad = CATransform3DIdentity
        bad.m12 = .nan
        #expect(transformComponentValue(bad, .rotationZ).isNaN)
        #expect(settingTransformComponent(bad, .scale, to: 2).m12.isNaN)
        #expect(settingTransformComponent(CATransform3DIdentity, .rotationZ, to: .nan) == CATransform3DIdentity)
        #expect(applyingTransformComponent(CATransform3DIdentity, .scale, value: .infinity) == CATransform3DIdentity)
        #expect(addingTransformComponent(CATransform3DIdentity, .rotationX, delta: .nan) == CATransform3DIdentity)
    }
}

// MARK: - Value functions (E5)

@Suite("E5 value functions")
struct ValueFunctionTests {
    @Test("E5 rotate functions build MakeRotation about their axis")
    func rotations() {
        #expect(valueFunctionTransform(name: "rotateX", values: [0.5]) == R(0.5, 1, 0, 0))
        #expect(valueFunctionTransform(name: "rotateY", values: [0.5]) == R(0.5, 0, 1, 0))
        #expect(valueFunctionTransform(name: "rotateZ", values: [0.5]) == R(0.5, 0, 0, 1))
        // 2π is a full turn, not reduced away before building.
        #expect(valueFunctionTransform(name: "rotateZ", values: [2 * .pi]) == R(2 * .pi, 0, 0, 1))
    }

    @Test("E5 scale functions")
    func scales() {
        #expect(valueFunctionTransform(name: "scale", values: [2, 3, 4]) == S(2, 3, 4))
        #expect(valueFunctionTransform(name: "scaleX", values: [2]) == S(2, 1, 1))
        #expect(valueFunctionTransform(name: "scaleY", values: [2]) == S(1, 2, 1))
        #expect(valueFunctionTransform(name: "scaleZ", values: [2]) == S(1, 1, 2))
    }

    @Test("E5 translate functions")
    func translations() {
        #expect(valueFunctionTransform(name: "translate", values: [2, 3, 4]) == T(2, 3, 4))
        #expect(valueFunctionTransform(name: "translateX", values: [2]) == T(2, 0, 0))
        #expect(valueFunctionTransform(name: "translateY", values: [2]) == T(0, 2, 0))
        #expect(valueFunctionTransform(name: "translateZ", values: [2]) == T(0, 0, 2))
    }

    @Test("E5 wrong value count, unknown name or non-finite value gives nil")
    func invalid() {
        #expect(valueFunctionTransform(name: "scale", values: [2]) == nil)
        #expect(valueFunctionTransform(name: "translate", values: [1, 2]) == nil)
        #expect(valueFunctionTransform(name: "rotateZ", values: [1, 2, 3]) == nil)
        #expect(valueFunctionTransform(name: "rotateZ", values: []) == nil)
        #expect(valueFunctionTransform(name: "rotate", values: [1]) == nil)
        #expect(valueFunctionTransform(name: "scaleX", values: [.nan]) == nil)
        #expect(valueFunctionNames.count == 11)
        for name in valueFunctionNames {
            let n = (name == "scale" || name == "translate") ? 3 : 1
            #expect(valueFunctionTransform(name: name, values: Array(repeating: 1, count: n)) != nil)
        }
    }
}
