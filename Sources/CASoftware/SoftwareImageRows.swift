import Foundation
import CAFrame

/// Image instances drawn row by row (issue 22): image.frag's pixels without a homography, a
/// filter choice or a float texel fetch per texel.
///
/// Without perspective the texture-coordinate derivatives are constant over the instance
/// (`SoftwareAffineMap`), so image.frag's choice between the minification and magnification
/// filter — and trilinear's level of detail — is made once per instance instead of per texel.
/// Along a row the plane point is stepped (one multiply-add); the texture is sampled in fixed
/// point (bilinear weights in 1/256ths, the sub-texel precision GL implementations use,
/// llvmpipe's included); the layer's rounded shape is evaluated only outside the rows' interior
/// interval, where it is 1 exactly; the row is blended with the 8-bit span kernel, which stores
/// opaque texels without reading the target.
struct SoftwareImageRowPlan {
    /// How texels are read: image.frag's `sampleContents` with the mode fixed for the instance.
    enum Sampler {
        /// mode 1 (nearest): `texelFetch` of the texel under the point, clamped to the image.
        case fetch
        /// The batch's GL_NEAREST sampler (clamped to the texture's edge).
        case nearest
        /// Bilinear on level 0.
        case linear
        /// `textureGrad` with GL_LINEAR_MIPMAP_LINEAR: levels d0 and d1 mixed by f.
        case trilinear(Int, Int, Float)
    }

    let map: SoftwareAffineMap
    let sampler: Sampler
    /// Where the shape's coverage is 1 (the field is skipped there).
    let interior: SoftwareInterior
    /// The quad on the plane, widened by a texel's step for the row intervals.
    let outerLo: SIMD2<Float>, outerHi: SIMD2<Float>

    /// The plan of instance `i` drawn through `q`, or nil where the per-texel path must draw it
    /// (perspective, additive blending).
    init?(_ i: ImageInstance, _ q: SoftwareQuad, _ v: SoftwareVariant, additive: Bool, texture: SoftwareTexture, filter: TextureFilter) {
        guard !additive, !v.projective, let map = SoftwareAffineMap(q) else { return nil }
        self.map = map
        let flags = Int(SoftwareClamp.int(i.h2.w + 0.5))
        let continuous = flags & Int(InstanceFlags.continuousCorners) != 0
        let mask = Int(InstanceFlags.filterMask)
        let minMode = (flags >> Int(InstanceFlags.minificationFilterShift)) & mask
        let magMode = (flags >> Int(InstanceFlags.magnificationFilterShift)) & mask
        // image.frag's derivatives, constant here: d(uv)/d(texel) times the atlas cell size.
        let rsize = SIMD2(max(i.rect.z, 1e-9), max(i.rect.w, 1e-9))
        let duv = SIMD2(i.uv.z, i.uv.w) - SIMD2(i.uv.x, i.uv.y)
        let aSize = SIMD2(i.atlas.z, i.atlas.w)
        let size = SIMD2(Float(texture.width), Float(texture.height))
        let gx = map.dx / rsize * duv * aSize, gy = map.dy / rsize * duv * aSize
        let dx = gx * size, dy = gy * size
        let minified = max((dx * dx).sum(), (dy * dy).sum()) > 1 + 1e-4
        let mode = minified ? minMode : magMode
        if mode == 1 {
            sampler = .fetch
        } else {
            switch filter {
            case .nearest: sampler = .nearest
            case .linear: sampler = .linear
            case .trilinear:
                // SoftwareTexture.trilinear with the instance's constant gradients.
                let rho = max((dx * dx).sum(), (dy * dy).sum()).squareRoot()
                let lambda = rho > 0 ? log2(rho) : -1
                if mode == 2, lambda > 0, texture.levels.count > 1 {
                    let d = min(lambda, Float(texture.levels.count - 1))
                    let d0 = Int(d.softwareFloor)
                    sampler = .trilinear(d0, min(d0 + 1, texture.levels.count - 1), d - Float(d0))
                } else {
                    sampler = .linear
                }
            }
        }
        let ppu = softwarePlaneScale(i.h0, i.h1, i.h2)
        let r = i.shapeRadii
        let extent = max(max(r.x, r.y), max(r.z, r.w)) * (continuous && v.continuous ? 1.528665 : 1)
        interior = SoftwareInterior(rect: i.shape, extent: extent, ppu: ppu)
        let step = vabs(map.dx) + vabs(map.dy)
        outerLo = q.lo - step; outerHi = q.hi + step
    }
}

/// Texels of an RGBA8 texture in fixed point: four 16-bit lanes of a `UInt64` (R, B, G, A from
/// the low end), each a channel times 256, so one multiply weighs all four channels.
enum SoftwareFixedTexel {
    /// The texel's channels, each times 256 (8.8 fixed point).
    @inline(__always) static func spread(_ v: UInt32) -> UInt64 {
        (UInt64(v & 0x00FF_00FF) | UInt64((v >> 8) & 0x00FF_00FF) << 32) << 8
    }

    /// The lanes of `spread(v)` (without the ×256), before the weights.
    @inline(__always) static func lanes(_ v: UInt32) -> UInt64 {
        UInt64(v & 0x00FF_00FF) | UInt64((v >> 8) & 0x00FF_00FF) << 32
    }

    /// Bilinear sample at texel-space point (x, y) (texel centres at +0.5) of `t`, clamped to
    /// its edge: the four weights are the products of the 1/256ths along x and y, rounded so
    /// that they sum to 256 exactly (each lane stays ≤ 255·256).
    @inline(__always) static func bilinear(_ t: SoftwareTarget, _ x: Float, _ y: Float) -> UInt64 {
        let fx = x - 0.5, fy = y - 0.5
        let x0f = fx.softwareFloor, y0f = fy.softwareFloor
        let wx = UInt64(SoftwareClamp.int((fx - x0f) * 256 + 0.5)), wy = UInt64(SoftwareClamp.int((fy - y0f) * 256 + 0.5))
        let x0 = SoftwareClamp.int(x0f), y0 = SoftwareClamp.int(y0f)
        let w = t.width, h = t.height
        let xa = min(max(x0, 0), w - 1), xb = min(max(x0 &+ 1, 0), w - 1)
        let ya = min(max(y0, 0), h - 1), yb = min(max(y0 &+ 1, 0), h - 1)
        let top = t.pixels + ya &* w, bottom = t.pixels + yb &* w
        let w11 = (wx &* wy &+ 128) >> 8
        let w10 = wx &- w11, w01 = wy &- w11
        let w00 = 256 &- wx &- wy &+ w11
        return lanes(top[xa]) &* w00 &+ lanes(top[xb]) &* w10 &+ lanes(bottom[xa]) &* w01 &+ lanes(bottom[xb]) &* w11
    }

    /// The lanes as a colour (R, G, B, A), scaled by `k`.
    @inline(__always) static func color(_ s: UInt64, _ k: SIMD4<Float>) -> SIMD4<Float> {
        SIMD4(Float(UInt32(truncatingIfNeeded: s) & 0xFFFF), Float(UInt32(truncatingIfNeeded: s >> 32) & 0xFFFF),
              Float(UInt32(truncatingIfNeeded: s >> 16) & 0xFFFF), Float(UInt32(truncatingIfNeeded: s >> 48))) * k
    }
}

extension SoftwareImagePipeline {
    /// Draws instance `i` by its row plan into the rows of `rows`; `scratch` holds at least a
    /// target row of texels and three more (`SoftwareImageEdgeLanes.run` writes in fours).
    func drawRows(_ i: ImageInstance, _ plan: SoftwareImageRowPlan, _ q: SoftwareQuad, _ ctx: SoftwarePassContext,
                  _ rows: Range<Int>, _ scratch: UnsafeMutablePointer<UInt32>) {
        let ya = max(q.y0, rows.lowerBound), yb = min(q.y1, rows.upperBound)
        guard ya < yb else { return }
        let v = variant
        let target = ctx.target
        let tex = texture
        let map = plan.map
        let flags = Int(SoftwareClamp.int(i.h2.w + 0.5))
        let aa = flags & Int(InstanceFlags.edgeMask)
        let continuous = flags & Int(InstanceFlags.continuousCorners) != 0
        let ppu = softwarePlaneScale(i.h0, i.h1, i.h2)
        let lo = q.lo, hi = q.hi
        let rlo = SIMD2(i.rect.x, i.rect.y)
        let rsize = SIMD2(max(i.rect.z, 1e-9), max(i.rect.w, 1e-9))
        let uv0 = SIMD2(i.uv.x, i.uv.y), duv = SIMD2(i.uv.z, i.uv.w) - uv0
        // image.vert's uv = uv0 + (p − rect origin) / rect size · Δuv, with the division once.
        let uvScale = duv / rsize
        let aOrigin = SIMD2(i.atlas.x, i.atlas.y), aSize = SIMD2(i.atlas.z, i.atlas.w)
        let level0 = tex.levels[0]
        let size = SIMD2(Float(level0.width), Float(level0.height))
        // texelFetch's image rectangle within the texture (image.frag's mode 1).
        let imageSize = aSize * size
        let fetchW = SoftwareClamp.int(imageSize.x + 0.5) - 1, fetchH = SoftwareClamp.int(imageSize.y + 0.5) - 1
        let fetchX = SoftwareClamp.int(aOrigin.x * size.x + 0.5), fetchY = SoftwareClamp.int(aOrigin.y * size.y + 0.5)
        let clipped = v.clip && SoftwareClamp.int(i.h1.w + 0.5) > 0
        // Lanes hold channel × 256 (× 255 levels): to 0…1, times the tint.
        let k = i.tint * (1 / (255 * 256))
        let sampler = plan.sampler
        let interiorLoops = self.interiorLoops
        @inline(__always) func sample(_ uv: SIMD2<Float>) -> UInt64 {
            switch sampler {
            case .fetch:
                let tx = min(max(SoftwareClamp.int((uv.x * imageSize.x).softwareFloor), 0), fetchW)
                let ty = min(max(SoftwareClamp.int((uv.y * imageSize.y).softwareFloor), 0), fetchH)
                let x = min(max(tx &+ fetchX, 0), level0.width - 1), y = min(max(ty &+ fetchY, 0), level0.height - 1)
                return SoftwareFixedTexel.spread(level0.pixels[y &* level0.width &+ x])
            case .nearest:
                let tc = (aOrigin + uv * aSize) * size
                let x = min(max(SoftwareClamp.int(tc.x.softwareFloor), 0), level0.width - 1)
                let y = min(max(SoftwareClamp.int(tc.y.softwareFloor), 0), level0.height - 1)
                return SoftwareFixedTexel.spread(level0.pixels[y &* level0.width &+ x])
            case .linear:
                let tc = (aOrigin + uv * aSize) * size
                return SoftwareFixedTexel.bilinear(level0, tc.x, tc.y)
            case .trilinear:
                return 0 // mixed in float by the caller
            }
        }
        @inline(__always) func color(_ uv: SIMD2<Float>) -> SIMD4<Float> {
            if case .trilinear(let d0, let d1, let f) = sampler {
                let tc = aOrigin + uv * aSize
                let l0 = tex.levels[d0], l1 = tex.levels[d1]
                let a = SoftwareFixedTexel.color(SoftwareFixedTexel.bilinear(l0, tc.x * Float(l0.width), tc.y * Float(l0.height)), k)
                guard f > 0 else { return a }
                let b = SoftwareFixedTexel.color(SoftwareFixedTexel.bilinear(l1, tc.x * Float(l1.width), tc.y * Float(l1.height)), k)
                return a + (b - a) * f
            }
            return SoftwareFixedTexel.color(sample(uv), k)
        }
        // The interior loop (`SoftwareImageInteriorRows.swift`): bilinear, no clip, a tint within
        // 0…1; the edge lanes (`SoftwareImageEdgeLanes.swift`): the plain case's edge texels four
        // at a time. Values with a flag, not optionals: a row unwrapping an optional copied it.
        let lanesLevel = SoftwareBilinearLanes(level0)
        let tq = SoftwareImageInterior.tintFactor(i.tint)
        var useSpan = false, useLanes = false
        if interiorLoops, lanesLevel.fits, case .linear = sampler, !clipped {
            useSpan = tq != nil
            useLanes = SoftwareImageEdgeLanes.apply(sampler, clipped: clipped, variant: v, aaMask: aa)
        }
        let span = SoftwareImageInteriorSpan(dx: map.dx, lo: lo, hi: hi, rlo: rlo, uv0: uv0, uvScale: uvScale, aOrigin: aOrigin,
                                             aSize: aSize, size: size, level: lanesLevel,
                                             tq: tq ?? SoftwareImageInterior.Tint(factors: .zero, opaque: false))
        let edgeLanes = SoftwareImageEdgeLanes(i, plan: plan, quad: q, level: lanesLevel, k: k)
        // A sprite a few texels across (an emitter cell's image): its rows are mostly edge, so
        // the lanes draw them whole (coverage evaluated everywhere: 1 inside, as the scalar
        // loop takes it) instead of finding each row's interior.
        let wholeRows = useLanes && q.x1 &- q.x0 <= SoftwareImageEdgeLanes.wholeRowWidth
        // Their rows need only the texels the shape's coverage reaches (half a pixel beyond its
        // rectangle, plus a margin far above the interval's rounding) within the widened quad:
        // the quad's antialiasing outset (1.5 px) is wider, and every texel in it drawn.
        let rowLo: SIMD2<Float>, rowHi: SIMD2<Float>
        if wholeRows {
            let reach = 0.625 / max(ppu, 1e-6)
            let shapeLo = SIMD2(i.shape.x, i.shape.y), shapeHi = shapeLo + SIMD2(i.shape.z, i.shape.w)
            let a = shapeLo - reach, b = shapeHi + reach
            rowLo = SIMD2(max(plan.outerLo.x, a.x), max(plan.outerLo.y, a.y)); rowHi = SIMD2(min(plan.outerHi.x, b.x), min(plan.outerHi.y, b.y))
        } else {
            rowLo = plan.outerLo; rowHi = plan.outerHi
        }
        for y in ya..<yb {
            let base = map.rowBase(y)
            let (xa, xb) = map.interval(base, rowLo, rowHi, q.x0, q.x1)
            guard xa < xb else { continue }
            if wholeRows {
                edgeLanes.run(base, xa, xb, scratch)
                SoftwareSpanBlend.blend(target.pixels + (y &* target.width &+ xa), scratch, xb &- xa)
                continue
            }
            // The interior interval, where the span or the scalar loop uses it (the lanes do not).
            let (ia, ib) = useSpan || !useLanes ? plan.interior.interval(map, base, xa, xb) : (xa, xa)
            @inline(__always) func texels(_ from: Int, _ to: Int) {
                for x in from..<to {
                    let p = base + Float(x) * map.dx
                    // The per-texel path's quad test everywhere: a piece of a nine-part image is
                    // smaller than the shape whose interior the interval is.
                    guard p.x >= lo.x, p.y >= lo.y, p.x < hi.x, p.y < hi.y else { scratch[x &- xa] = 0; continue }
                    var cov: Float = 1
                    if x < ia || x >= ib {
                        cov = SoftwareField.shapeCoverage(p, map.dx, map.dy, pxPerUnit: ppu, rect: i.shape, radii: i.shapeRadii,
                                                          continuous: continuous, aaMask: aa, v)
                    }
                    if clipped { cov *= ctx.clip(i.h1.w, x, y, v) }
                    guard cov > 0 else { scratch[x &- xa] = 0; continue }
                    let raw = uv0 + (p - rlo) * uvScale
                    let uv = SIMD2(SoftwareField.clamp01(raw.x), SoftwareField.clamp01(raw.y))
                    scratch[x &- xa] = SoftwareSpanBlend.source(color(uv) * cov)
                }
            }
            // The left edge's lanes may write past it into the interior, which the span then
            // writes; the right edge's past the row's end, which is not blended.
            @inline(__always) func edge(_ from: Int, _ to: Int) {
                if useLanes { edgeLanes.run(base, from, to, scratch + (from &- xa)) } else { texels(from, to) }
            }
            if useSpan {
                let m0 = min(max(ia, xa), xb), m1 = min(max(ib, m0), xb)
                edge(xa, m0)
                span.draw(base, m0, m1, scratch + (m0 &- xa))
                edge(m1, xb)
            } else {
                edge(xa, xb)
            }
            SoftwareSpanBlend.blend(target.pixels + (y &* target.width &+ xa), scratch, xb &- xa)
        }
    }
}
