import CoreGraphics
import CAFrame
import CFloatLanes

/// The image row path's edge texels four at a time (issue 22: the particles scene).
///
/// Outside a row's interior interval the general loop (`SoftwareImagePipeline.drawRows`)
/// evaluates, per texel, image.frag's quad test, the shape's coverage (`SoftwareField`'s
/// rounded-rectangle distance, clamped half a pixel either side of the edge), the clamped uv,
/// a fixed-point bilinear sample, the tint and the pack to bytes. A small image — an emitter
/// cell's 8×8 sprite, turned by its spin — is mostly such texels: in the 100,000-particle scene
/// they were half of the frame, each a chain of scalar branches and a square root.
///
/// Here the same formulas run on four consecutive texels at once, each lane with the scalar
/// path's float operations in the scalar path's order (`SoftwareField.shape`'s branch-free
/// field for programs without CA_PROJECTIVE or CA_CONTINUOUS, `coverage` with its unit
/// gradient, `SoftwareFixedTexel.bilinear`'s weights, `SoftwareSpanBlend.source`'s rounding),
/// so the bytes are the scalar loop's (`SoftwareImageEdgeLaneTests`). It applies where that loop
/// would take the plain case: bilinear sampling, no clip, no perspective, no continuous-corner
/// program, and every edge antialiased.
struct SoftwareImageEdgeLanes {
    let dx: SIMD2<Float>
    /// The quad on the plane (image.frag's discard outside it).
    let lo: SIMD2<Float>, hi: SIMD2<Float>
    /// The shape: centre, half size, radii (minXminY, maxXminY, maxXmaxY, minXmaxY), pixels per
    /// plane unit.
    let centre: SIMD2<Float>, half: SIMD2<Float>, radii: SIMD4<Float>, ppu: Float
    /// image.vert's uv map and the atlas cell.
    let rlo: SIMD2<Float>, uv0: SIMD2<Float>, uvScale: SIMD2<Float>
    let aOrigin: SIMD2<Float>, aSize: SIMD2<Float>, size: SIMD2<Float>
    /// Level 0, held by the batch's texture for the draw.
    let level: SoftwareBilinearLanes
    /// The tint over 255 · 256 (the fixed-point lanes' scale), as `drawRows`' `k`.
    let k: SIMD4<Float>

    /// The widest quad (in texels) whose rows the lanes draw whole, interior included: a sprite
    /// (the emitter scene's quads are 11–15 texels across); wider images keep the interior loop,
    /// whose integer texels cost less than the lanes' field and float colour.
    static let wholeRowWidth = 24

    /// Whether the lanes draw the edges of an instance with this sampler, clip, program and
    /// edge mask (the scalar loop's plain case); the caller checks `SoftwareBilinearLanes.fits`.
    static func apply(_ sampler: SoftwareImageRowPlan.Sampler, clipped: Bool, variant v: SoftwareVariant, aaMask: Int) -> Bool {
        guard case .linear = sampler else { return false }
        return !clipped && !v.projective && !v.continuous && (!v.edgeMask || aaMask == 15)
    }

    /// The lanes for instance `i` drawn by `plan` through `q` (whether they apply is
    /// `apply`'s answer: a value, not an optional, so no row copies it to unwrap it).
    init(_ i: ImageInstance, plan: SoftwareImageRowPlan, quad q: SoftwareQuad, level: SoftwareBilinearLanes, k: SIMD4<Float>) {
        dx = plan.map.dx
        lo = q.lo; hi = q.hi
        half = SIMD2(i.shape.z, i.shape.w) * 0.5
        centre = SIMD2(i.shape.x, i.shape.y) + half
        radii = i.shapeRadii
        ppu = softwarePlaneScale(i.h0, i.h1, i.h2)
        rlo = SIMD2(i.rect.x, i.rect.y)
        uv0 = SIMD2(i.uv.x, i.uv.y)
        uvScale = (SIMD2(i.uv.z, i.uv.w) - uv0) / SIMD2(max(i.rect.z, 1e-9), max(i.rect.w, 1e-9))
        aOrigin = SIMD2(i.atlas.x, i.atlas.y); aSize = SIMD2(i.atlas.z, i.atlas.w)
        size = SIMD2(Float(level.width), Float(level.height))
        self.level = level
        self.k = k
    }

    /// Texels `a..<b` of the row at plane point `base + x·dx`, four at a time, written from
    /// `out[0]` on; the last four may run past `b` (up to three texels more are written, which
    /// `out` must have room for: the caller's row scratch has, and what they hold is drawn
    /// over or not blended). An edge is a few texels a row, so a scalar tail would be most of it.
    @inline(never)
    func run(_ base: SIMD2<Float>, _ a: Int, _ b: Int, _ out: UnsafeMutablePointer<UInt32>) {
        var x = a
        while x < b {
            let (px, py, inside) = SoftwareLanePoints.at(base, dx, x, lo: lo, hi: hi)
            // SoftwareField.shape without CA_PROJECTIVE / CA_CONTINUOUS: the quadrant's radius,
            // q = |d| − e + r, field = |max(q, 0)| + min(max(q.x, q.y), 0) − r.
            let dX = px - centre.x, dY = py - centre.y
            let up = dY .< 0
            let left = SIMD4(repeating: radii.w).replacing(with: radii.x, where: up)
            let right = SIMD4(repeating: radii.z).replacing(with: radii.y, where: up)
            let rad = right.replacing(with: left, where: dX .< 0)
            let qx = (dX.absoluteLanes - half.x) + rad, qy = (dY.absoluteLanes - half.y) + rad
            let mx = qx.lanesMax(.zero), my = qy.lanesMax(.zero)
            // |m|: where one component is 0 the square root of the other's square is that
            // component exactly (a correctly rounded root of a correctly rounded square, short of
            // underflow below 2^-126, far under any plane distance drawn), so the
            // root is taken only where some lane lies beyond a corner.
            let length = any((mx .> 0) .& (my .> 0)) ? (mx * mx + my * my).squareRoot() : mx.lanesMax(my)
            let field = (length + qx.lanesMax(qy).lanesMin(.zero)) - rad
            // SoftwareField.coverage with the branch-free field's unit gradient.
            let cov = (0.5 - field * ppu).clampedToUnit
            let keep = inside .& (cov .> 0)
            if !any(keep) {
                UnsafeMutableRawPointer(out + (x &- a)).storeBytes(of: SIMD4<UInt32>.zero, as: SIMD4<UInt32>.self)
                x &+= 4
                continue
            }
            // image.vert's uv, clamped; the texel-space point of the atlas cell.
            let u = (uv0.x + (px - rlo.x) * uvScale.x).clampedToUnit, v = (uv0.y + (py - rlo.y) * uvScale.y).clampedToUnit
            let fx = (aOrigin.x + u * aSize.x) * size.x - 0.5, fy = (aOrigin.y + v * aSize.y) * size.y - 0.5
            // Channel by channel across the four texels: `SoftwareFixedTexel.color` (lane × k)
            // times the coverage, then `SoftwareSpanBlend.source`'s bytes.
            let c = level.channels(fx, fy)
            let packed = SoftwareSpanBlend.sources(c.r * k.x * cov, c.g * k.y * cov, c.b * k.z * cov, c.a * k.w * cov)
            let kept = packed.replacing(with: 0, where: .!keep)
            UnsafeMutableRawPointer(out + (x &- a)).storeBytes(of: kept, as: SIMD4<UInt32>.self)
            x &+= 4
        }
    }
}

/// The plane points of four consecutive texels of a row, as the scalar loops make them.
enum SoftwareLanePoints {
    /// Texels x … x + 3 of the row at `base`: each point `base + Float(x)·dx` per component
    /// (the counter exact: x < 2^24), and which lie in the quad `lo` ..< `hi`.
    @inline(__always) static func at(_ base: SIMD2<Float>, _ dx: SIMD2<Float>, _ x: Int, lo: SIMD2<Float>, hi: SIMD2<Float>)
        -> (x: SIMD4<Float>, y: SIMD4<Float>, inside: SIMDMask<SIMD4<Int32>>) {
        let xs = Float(x) + SIMD4<Float>(0, 1, 2, 3)
        let px = base.x + xs * dx.x, py = base.y + xs * dx.y
        return (px, py, (px .>= lo.x) .& (py .>= lo.y) .& (px .< hi.x) .& (py .< hi.y))
    }
}

/// `SoftwareFixedTexel.bilinear` at four texel-space points: the same floors, weights in
/// 1/256ths and edge clamps, computed four lanes at a time, and the four texels of each point
/// weighed in 16-bit lanes (`CFloatLanes`' bilinear helpers, whose sums are the same).
struct SoftwareBilinearLanes {
    /// The level's texels: a pointer, not a counted reference (retained and released per row,
    /// that was 8 % of the particles scene); the texture holds the level for the draw.
    let texels: UnsafeMutablePointer<UInt32>
    let width: Int, height: Int
    let lastX: SIMD4<Int32>, lastY: SIMD4<Int32>

    init(_ level: SoftwareTarget) {
        texels = level.pixels; width = level.width; height = level.height
        lastX = SIMD4(repeating: Int32(truncatingIfNeeded: width &- 1)); lastY = SIMD4(repeating: Int32(truncatingIfNeeded: height &- 1))
    }

    /// Whether the level is small enough for the lanes' 32-bit indices and weights.
    var fits: Bool { width < 1 << 22 && height < 1 << 22 }

    /// The floors and 1/256th weights of four texel-space points (fx + ½, fy + ½) — `fx`, `fy`
    /// are the coordinates less ½, as `SoftwareFixedTexel.bilinear` takes them — with its
    /// floors and rounding.
    @inline(__always) func grid(_ fx: SIMD4<Float>, _ fy: SIMD4<Float>)
        -> (x0: SIMD4<Int32>, y0: SIMD4<Int32>, wx: SIMD4<Int32>, wy: SIMD4<Int32>) {
        let x0f = fx.softwareFloorLanes, y0f = fy.softwareFloorLanes
        return (x0f.wholeNumbers, y0f.wholeNumbers, ((fx - x0f) * 256 + 0.5).wholeNumbers, ((fy - y0f) * 256 + 0.5).wholeNumbers)
    }

    /// The bilinear sums at the four points of `grid` as floats, one vector per channel (R, G,
    /// B, A; lane k: point k), each a channel × 256: the pairs weighed and transposed in SSE2
    /// (`ca_bilinear_rgba4`). Every lane reads texels of the level (indices clamped), so masked
    /// lanes are harmless.
    @inline(__always) func channels(_ fx: SIMD4<Float>, _ fy: SIMD4<Float>) -> ca_rgba4 {
        let g = grid(fx, fy)
        guard width > 1, height > 1 else {
            let (s0, s1, s2, s3) = clampedSamples(g.x0, g.y0, g.wx, g.wy)
            @inline(__always) func channel(_ c: Int) -> SIMD4<Float> {
                SIMD4<UInt32>(UInt32(s0[c]), UInt32(s1[c]), UInt32(s2[c]), UInt32(s3[c])).exactFloats
            }
            return ca_rgba4(r: channel(0), g: channel(1), b: channel(2), a: channel(3))
        }
        let p = pairs(g.x0, g.y0, g.wx, g.wy)
        return ca_bilinear_rgba4(texels, p.offsets, width, p.w00, p.w10, p.w01, p.w11)
    }

    /// The bilinear samples at the four points of `grid` packed by
    /// `SoftwareImageInterior.pack` with tint `tq` (`ca_bilinear_pack4`): lane k is point k's
    /// source texel.
    @inline(__always) func packed(_ fx: SIMD4<Float>, _ fy: SIMD4<Float>, _ tq: SoftwareImageInterior.Tint) -> SIMD4<UInt32> {
        let g = grid(fx, fy)
        guard width > 1, height > 1 else {
            let (s0, s1, s2, s3) = clampedSamples(g.x0, g.y0, g.wx, g.wy)
            return SIMD4(SoftwareImageInterior.pack(s0, tq), SoftwareImageInterior.pack(s1, tq),
                         SoftwareImageInterior.pack(s2, tq), SoftwareImageInterior.pack(s3, tq))
        }
        let p = pairs(g.x0, g.y0, g.wx, g.wy)
        return unsafeBitCast(ca_bilinear_pack4(texels, p.offsets, width, p.w00, p.w10, p.w01, p.w11,
                                               tq.lanes16, tq.whole16, tq.opaque ? 1 : 0),
                             to: SIMD4<UInt32>.self)
    }

    /// The first texel of each point's pair (an offset into the level) and the four weights,
    /// for a level at least 2 × 2.
    ///
    /// Where a point lies past the last texel centre, `SoftwareFixedTexel.bilinear` clamps both
    /// indices to the edge texel, which then takes all four weights. Here the pair starts one
    /// texel in and the weight along that axis is 256 (0 before the first centre): the inner
    /// texel gets weight 0 and the edge texel the rest, the same integer sums. So each pair of
    /// texels is one 64-bit load from a row, and the lower row is the next one.
    @inline(__always) func pairs(_ x0: SIMD4<Int32>, _ y0: SIMD4<Int32>, _ wx: SIMD4<Int32>, _ wy: SIMD4<Int32>)
        -> (offsets: SIMD4<Int32>, w00: SIMD4<Int32>, w10: SIMD4<Int32>, w01: SIMD4<Int32>, w11: SIMD4<Int32>) {
        let zero = SIMD4<Int32>.zero, full = SIMD4<Int32>(repeating: 256)
        let penultX = lastX &- 1, penultY = lastY &- 1
        let wx = wx.replacing(with: zero, where: x0 .< zero).replacing(with: full, where: x0 .> penultX)
        let wy = wy.replacing(with: zero, where: y0 .< zero).replacing(with: full, where: y0 .> penultY)
        let x = x0.held(zero, penultX), y = y0.held(zero, penultY)
        let w11 = (wx &* wy &+ 128) &>> 8
        let w10 = wx &- w11, w01 = wy &- w11
        let w00 = 256 &- wx &- wy &+ w11
        return (y &* Int32(truncatingIfNeeded: width) &+ x, w00, w10, w01, w11)
    }

    /// The 16-bit sums (R, G, B, A) for a level one texel wide or high: both indices clamped,
    /// as `SoftwareFixedTexel.bilinear` clamps them.
    func clampedSamples(_ x0: SIMD4<Int32>, _ y0: SIMD4<Int32>, _ wx: SIMD4<Int32>, _ wy: SIMD4<Int32>)
        -> (SIMD4<UInt16>, SIMD4<UInt16>, SIMD4<UInt16>, SIMD4<UInt16>) {
        let zero = SIMD4<Int32>.zero
        let xa = x0.held(zero, lastX), xb = (x0 &+ 1).held(zero, lastX)
        let ya = y0.held(zero, lastY), yb = (y0 &+ 1).held(zero, lastY)
        let w11 = (wx &* wy &+ 128) &>> 8
        let w10 = wx &- w11, w01 = wy &- w11
        let w00 = 256 &- wx &- wy &+ w11
        func sample(_ k: Int) -> SIMD4<UInt16> {
            let top = texels + Int(ya[k]) &* width, bottom = texels + Int(yb[k]) &* width
            let ia = Int(xa[k]), ib = Int(xb[k])
            let upper = UInt64(top[ia]) | UInt64(top[ib]) << 32, lower = UInt64(bottom[ia]) | UInt64(bottom[ib]) << 32
            return SoftwareImageInterior.bilinear(upper, lower, w00[k], w10[k], w01[k], w11[k])
        }
        return (sample(0), sample(1), sample(2), sample(3))
    }
}

extension SIMD4 where Scalar == Float {
    /// `softwareFloor` of each lane in −2^31 … 2^31: truncated, and one less where that rounded
    /// up (a negative non-integer).
    @inline(__always) var softwareFloorLanes: SIMD4<Float> {
        let t = floorOfNonNegative
        return t.replacing(with: t - 1, where: t .> self)
    }
}

extension SIMD4 where Scalar == Float {
    /// |v| of each lane (the sign bit cleared).
    @inline(__always) var absoluteLanes: SIMD4<Float> {
        unsafeBitCast(unsafeBitCast(self, to: SIMD4<UInt32>.self) & 0x7FFF_FFFF, to: SIMD4<Float>.self)
    }
}

extension SIMD4 where Scalar == Int32 {
    /// Each lane held to lo…hi by compares and selects (the generic `clamped` is a call).
    @inline(__always) func held(_ lo: SIMD4<Int32>, _ hi: SIMD4<Int32>) -> SIMD4<Int32> {
        replacing(with: lo, where: self .< lo).replacing(with: hi, where: self .> hi)
    }
}

extension SIMD4 where Scalar == UInt32 {
    /// Lanes below 2^23 as floats, exactly: the value's bits in the mantissa of 2^23, less 2^23.
    @inline(__always) var exactFloats: SIMD4<Float> {
        unsafeBitCast(self | 0x4B00_0000, to: SIMD4<Float>.self) - 8_388_608
    }
}
