import CAFrame
import CFloatLanes

/// The image row path's interior loop (issue 22): the texels of a row where the layer's shape
/// covers the pixel fully and no clip applies, sampled bilinearly (`.linear`) with a tint within
/// 0…1 on every channel (a layer's opacity makes a grey tint; a particle's colour any tint).
///
/// The general row loop (`SoftwareImagePipeline.drawRows`) turns the fixed-point bilinear
/// sample into a float colour, multiplies by the tint and the coverage, and packs it back to
/// bytes. Here coverage is 1, so the sample stays in integers: each 16-bit lane (channel ×
/// 256 × 255-levels) times its channel's tint in 1/65536ths, rounded to the byte — for an
/// opaque tint (65536/65536) that is `(lane + 128) >> 8`, which is exactly what the float path
/// gives for every lane value 0…65280 (checked over all of them by `SoftwareInteriorLoopTests`),
/// so opaque images are bit-identical; any other tint rounds once in fixed point instead of
/// twice in float and may differ from the float path by one level where the exact value is
/// within 1/500 level of a half.
///
/// Where the texture row does not change along the target row (no rotation: the step's y is
/// 0), the vertical half of the bilinear filter — the two texture rows and their weight — is
/// found once a row; the same integer weights as `SoftwareFixedTexel.bilinear` are used, so the
/// sample is the same.
enum SoftwareImageInterior {
    /// A tint as the interior loop's fixed-point factors (1/65536ths, R, G, B, A).
    struct Tint {
        let factors: SIMD4<UInt32>
        /// All four factors 65536: the pack is `(lane + 128) >> 8`.
        let opaque: Bool
        /// The factors for `ca_bilinear_pack4`: their low 16 bits as eight 16-bit lanes (R, G,
        /// B, A twice), and all ones in the lanes whose factor is 65536.
        let lanes16: SIMD4<Int32>, whole16: SIMD4<Int32>

        init(factors: SIMD4<UInt32>, opaque: Bool) {
            self.factors = factors
            self.opaque = opaque
            let low = SIMD4<UInt16>(truncatingIfNeeded: factors)
            let whole = SIMD4<UInt16>(UInt16(factors.x >= 65536 ? 0xFFFF : 0), UInt16(factors.y >= 65536 ? 0xFFFF : 0),
                                      UInt16(factors.z >= 65536 ? 0xFFFF : 0), UInt16(factors.w >= 65536 ? 0xFFFF : 0))
            lanes16 = unsafeBitCast(SIMD8(lowHalf: low, highHalf: low), to: SIMD4<Int32>.self)
            whole16 = unsafeBitCast(SIMD8(lowHalf: whole, highHalf: whole), to: SIMD4<Int32>.self)
        }
    }

    /// The tint as the interior loop's factors, or nil where the loop does not apply (a channel
    /// outside 0…1, NaN included).
    static func tintFactor(_ tint: SIMD4<Float>) -> Tint? {
        guard all(tint .>= 0), all(tint .<= 1) else { return nil }
        let f = SIMD4<UInt32>(UInt32((tint.x * 65536).rounded()), UInt32((tint.y * 65536).rounded()),
                              UInt32((tint.z * 65536).rounded()), UInt32((tint.w * 65536).rounded()))
        return Tint(factors: f, opaque: f == SIMD4(repeating: 65536))
    }

    /// Fixed-point lanes (`SoftwareFixedTexel` layout: R, B, G, A from the low end, each a
    /// channel × 256) times the tint, rounded to bytes and packed as an RGBA8 source with each
    /// colour byte held to the alpha byte (as `SoftwareSpanBlend.source`).
    @inline(__always) static func pack(_ s: UInt64, _ tint: Tint) -> UInt32 {
        let lanes = SIMD4<UInt16>(UInt16(truncatingIfNeeded: s), UInt16(truncatingIfNeeded: s >> 32),
                                  UInt16(truncatingIfNeeded: s >> 16), UInt16(truncatingIfNeeded: s >> 48))
        return pack(lanes, tint)
    }

    /// `SoftwareFixedTexel.bilinear`'s sum with its four weights, in eight 16-bit lanes: `upper`
    /// and `lower` hold the two texture rows' texel pairs (the left texel in the low word).
    /// Each lane (a channel times its weights, which sum to 256) stays ≤ 255·256, as in the
    /// 64-bit lanes, so the sums are the same; the channels come out as (R, G, B, A).
    @inline(__always) static func bilinear(_ upper: UInt64, _ lower: UInt64, _ w00: Int32, _ w10: Int32, _ w01: Int32,
                                           _ w11: Int32) -> SIMD4<UInt16> {
        // SSE2's byte unpack and 16-bit multiplies (`CFloatLanes`): the generic SIMD8 widening
        // was a call per sample.
        unsafeBitCast(ca_bilinear_pairs(upper, lower, w00, w10, w01, w11), to: SIMD4<UInt16>.self)
    }

    /// `pack` of (R, G, B, A) 16-bit lanes: each times its channel's factor/65536, rounded to
    /// the byte, each colour byte held to the alpha byte.
    @inline(__always) static func pack(_ s: SIMD4<UInt16>, _ tint: Tint) -> UInt32 {
        let r: SIMD4<UInt16>
        if tint.opaque {
            r = (s &+ 128) &>> 8
        } else {
            // lane · factor + 2^23 < 2^32 (65280 · 65536 + 2^23).
            r = SIMD4(truncatingIfNeeded: (SIMD4<UInt32>(truncatingIfNeeded: s) &* tint.factors &+ 0x80_0000) &>> 24)
        }
        // Lane by lane: a byte-vector min compiled to stack round trips.
        let a = UInt32(r.w)
        return min(UInt32(r.x), a) | min(UInt32(r.y), a) << 8 | min(UInt32(r.z), a) << 16 | a << 24
    }

    /// The vertical half of `SoftwareFixedTexel.bilinear` at texel-space y: the two rows' first
    /// texels and the weight of the lower row in 1/256ths.
    @inline(__always) static func rows(_ t: SoftwareBilinearLanes, _ y: Float) -> (UnsafeMutablePointer<UInt32>, UnsafeMutablePointer<UInt32>, UInt64) {
        let fy = y - 0.5
        let y0f = fy.softwareFloor
        let wy = UInt64(SoftwareClamp.int((fy - y0f) * 256 + 0.5))
        let y0 = SoftwareClamp.int(y0f), h = t.height
        let ya = min(max(y0, 0), h - 1), yb = min(max(y0 &+ 1, 0), h - 1)
        return (t.texels + ya &* t.width, t.texels + yb &* t.width, wy)
    }

    /// `SoftwareFixedTexel.bilinear` at texel-space x between rows `top` and `bottom` (of
    /// width `w`) weighed by `wy`: the same weights, so the same lanes.
    @inline(__always) static func bilinear(_ top: UnsafeMutablePointer<UInt32>, _ bottom: UnsafeMutablePointer<UInt32>,
                                           _ wy: UInt64, _ w: Int, _ x: Float) -> UInt64 {
        let fx = x - 0.5
        let x0f = fx.softwareFloor
        let wx = UInt64(SoftwareClamp.int((fx - x0f) * 256 + 0.5))
        let x0 = SoftwareClamp.int(x0f)
        let xa = min(max(x0, 0), w - 1), xb = min(max(x0 &+ 1, 0), w - 1)
        let w11 = (wx &* wy &+ 128) >> 8
        let w10 = wx &- w11, w01 = wy &- w11
        let w00 = 256 &- wx &- wy &+ w11
        return SoftwareFixedTexel.lanes(top[xa]) &* w00 &+ SoftwareFixedTexel.lanes(top[xb]) &* w10
            &+ SoftwareFixedTexel.lanes(bottom[xa]) &* w01 &+ SoftwareFixedTexel.lanes(bottom[xb]) &* w11
    }
}

/// What the interior loop needs of an instance, fixed for all its rows: image.vert's map from
/// the plane point to uv and the atlas cell's texel rectangle.
struct SoftwareImageInteriorSpan {
    let dx: SIMD2<Float>
    /// The quad on the plane (the per-texel path's test, kept: a piece of a nine-part image is
    /// smaller than the shape whose interior the interval is).
    let lo: SIMD2<Float>, hi: SIMD2<Float>
    let rlo: SIMD2<Float>, uv0: SIMD2<Float>, uvScale: SIMD2<Float>
    let aOrigin: SIMD2<Float>, aSize: SIMD2<Float>, size: SIMD2<Float>
    /// The level, by pointer: the texture holds it for the draw, and a counted reference was
    /// retained and released with every row (5 % of the images scene, 8 % of the particles').
    let level: SoftwareBilinearLanes
    let tq: SoftwareImageInterior.Tint

    /// Texels `a..<b` of the row at plane point `base + x·dx`, written from `out[0]` on: what
    /// the general loop computes there with coverage 1 and no clip, in integers.
    func draw(_ base: SIMD2<Float>, _ a: Int, _ b: Int, _ out: UnsafeMutablePointer<UInt32>) {
        guard a < b else { return }
        let w = level.width
        if dx.y == 0 {
            // The texture rows are the row's: p.y = base.y for every x.
            guard base.y >= lo.y, base.y < hi.y else { out.update(repeating: 0, count: b &- a); return }
            let rawY = uv0.y + (base.y - rlo.y) * uvScale.y
            let tcY = (aOrigin.y + SoftwareField.clamp01(rawY) * aSize.y) * size.y
            let (top, bottom, wy) = SoftwareImageInterior.rows(level, tcY)
            // One texel by the float path (the per-texel quad test and clamps).
            @inline(__always) func texel(_ x: Int) {
                let px = base.x + Float(x) * dx.x
                guard px >= lo.x, px < hi.x else { out[x &- a] = 0; return }
                let rawX = uv0.x + (px - rlo.x) * uvScale.x
                let tcX = (aOrigin.x + SoftwareField.clamp01(rawX) * aSize.x) * size.x
                out[x &- a] = SoftwareImageInterior.pack(SoftwareImageInterior.bilinear(top, bottom, wy, w, tcX), tq)
            }
            var x = a
            // Four texels at a time where the quad test holds at both ends of the run (the plane
            // x is monotone along the row): the texture x of each is the same float as the
            // texel's, its floor and weight by truncation where every lane is within
            // 0 ..< 2^22 (else those four take the float path).
            let firstX = base.x + Float(a) * dx.x, lastX = base.x + Float(b &- 1) * dx.x
            // (The run's texel pairs need a level at least two texels wide.)
            if w > 1, firstX >= lo.x, firstX < hi.x, lastX >= lo.x, lastX < hi.x {
                while x &+ 4 <= b {
                    x = unrotatedRun(base, x, b, top, bottom, wy, out + (x &- a))
                    // Four whose texture x is not all within 0.5 ..< 2^22 (the image's left or
                    // right edge): the float path.
                    let end = min(x &+ 4, b)
                    while x < end { texel(x); x &+= 1 }
                }
            }
            while x < b { texel(x); x &+= 1 }
            return
        }
        // Turned: four texels at a time (`rotatedRun`), past `b` into the texels the caller
        // writes next or does not blend.
        rotatedRun(base, a, b, out)
    }

    /// The turned interior `a..<b` (written from `out[0]`), four texels at a time: a texel's
    /// quad test, uv and bilinear sample in lanes (`SoftwareBilinearLanes`, the same floors and
    /// weights as `SoftwareFixedTexel.bilinear`), each packed by `SoftwareImageInterior.pack`.
    /// The last four may write up to three texels past `b` (`SoftwareImageEdgeLanes.run`'s rule).
    @inline(never)
    func rotatedRun(_ base: SIMD2<Float>, _ a: Int, _ b: Int, _ out: UnsafeMutablePointer<UInt32>) {
        var x = a
        while x < b {
            let (px, py, inside) = SoftwareLanePoints.at(base, dx, x, lo: lo, hi: hi)
            let u = (uv0.x + (px - rlo.x) * uvScale.x).clampedToUnit, v = (uv0.y + (py - rlo.y) * uvScale.y).clampedToUnit
            let fx = (aOrigin.x + u * aSize.x) * size.x - 0.5, fy = (aOrigin.y + v * aSize.y) * size.y - 0.5
            let packed = level.packed(fx, fy, tq)
            UnsafeMutableRawPointer(out + (x &- a)).storeBytes(of: packed.replacing(with: 0, where: .!inside), as: SIMD4<UInt32>.self)
            x &+= 4
        }
    }

    /// The unrotated interior from texel `a` on (written from `out[0]`), four texels at a time,
    /// as long as every lane of a four has its texture x within 0.5 ..< 2^22 (the floor and
    /// weight by truncation are then the float path's). Returns where it stopped.
    /// Its own function: inlined into `draw`, the lanes were spilled to the stack.
    @inline(never)
    func unrotatedRun(_ base: SIMD2<Float>, _ a: Int, _ b: Int, _ top: UnsafeMutablePointer<UInt32>,
                      _ bottom: UnsafeMutablePointer<UInt32>, _ wy: UInt64, _ out: UnsafeMutablePointer<UInt32>) -> Int {
        let w = level.width
        var x = a
        let full = SIMD4<Int32>(repeating: 256)
        let penult = SIMD4<Int32>(repeating: Int32(w &- 2))
        let wy32 = SIMD4<Int32>(repeating: Int32(truncatingIfNeeded: wy))
        let opaque: Int32 = tq.opaque ? 1 : 0
        let delta = bottom - top
        while x &+ 4 <= b {
            let xs = Float(x) + SIMD4<Float>(0, 1, 2, 3)  // exact: x < 2^24
            let px = base.x + xs * dx.x
            let rawX = uv0.x + (px - rlo.x) * uvScale.x
            let fx = (aOrigin.x + SoftwareField.clamp01(rawX) * aSize.x) * size.x - 0.5
            guard all(fx .>= 0), all(fx .< 4_194_304) else { break }
            let x0f = fx.floorOfNonNegative
            var wx = ((fx - x0f) * 256 + 0.5).floorOfNonNegative.wholeNumbers
            var x0 = x0f.wholeNumbers
            // The pair starts one texel in at the right edge, the weight all on the edge texel
            // (`SoftwareBilinearLanes.pairs`: the same sums), so each pair is one load.
            wx = wx.replacing(with: full, where: x0 .> penult)
            x0 = x0.replacing(with: penult, where: x0 .> penult)
            // SoftwareImageInterior.bilinear's weights, four at a time.
            let w11 = (wx &* wy32 &+ 128) &>> 8
            let w10 = wx &- w11, w01 = wy32 &- w11
            let w00 = 256 &- wx &- wy32 &+ w11
            let packed = ca_bilinear_pack4(top, x0, delta, w00, w10, w01, w11, tq.lanes16, tq.whole16, opaque)
            UnsafeMutableRawPointer(out + (x &- a)).storeBytes(of: packed, as: SIMD4<Int32>.self)
            x &+= 4
        }
        return x
    }
}
