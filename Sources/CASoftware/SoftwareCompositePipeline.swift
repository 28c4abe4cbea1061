import CAFrame

/// Offscreen results put back: Shaders/composite.vert and composite.frag on the CPU (group
/// opacity, shadow colour from the source's alpha, mask targets, the transition cross-fade).
struct SoftwareCompositePipeline: SoftwareQuadBatch {
    let instances: ArraySlice<CompositeInstance>
    let quads: [SoftwareQuad]
    /// The instances by the rows they touch (`SoftwareRowIndex`).
    let rowIndex: SoftwareRowIndex
    let variant: SoftwareVariant
    let additive: Bool
    /// `ShaderVariant.replace` (GL ONE, ZERO): the composite's colour replaces the texel (a
    /// compositing or background filter's result, which holds its backdrop already).
    let replace: Bool
    let source: SoftwareTarget
    let mask: SoftwareTarget?
    /// Whether the texel-aligned path (`drawAligned`) may draw the instances it fits.
    let rowPaths: Bool

    init(_ all: [CompositeInstance], _ b: Batch, _ map: SoftwareViewport, _ target: SoftwareTarget, source: SoftwareTarget,
         mask: SoftwareTarget?, rowPaths: Bool = true) {
        instances = all[b.range]
        variant = SoftwareVariant(b.variant)
        additive = b.variant.contains(.additive)
        replace = b.variant.contains(.replace)
        self.source = source
        self.mask = mask
        self.rowPaths = rowPaths
        // The plane is the frame itself (identity map).
        let id = map.planeToTexel(SIMD4(1, 0, 0, 0), SIMD4(0, 1, 0, 0), SIMD4(0, 0, 1, 0))
        quads = instances.map { i in
            SoftwareQuad(map: id, lo: SIMD2(i.dst.x, i.dst.y), hi: SIMD2(i.dst.x + i.dst.z, i.dst.y + i.dst.w),
                         width: target.width, height: target.height)
        }
        let pixelRows = quads.map { q in q.y0 < q.y1 ? q.y0..<q.y1 : 0..<0 }
        rowIndex = SoftwareRowIndex(count: pixelRows.count, height: target.height) { pixelRows[$0] }
    }

    func draw(_ ctx: SoftwarePassContext, _ rows: Range<Int>) {
        let v = variant
        let target = ctx.target
        let src = source
        let sSize = SIMD2(Float(src.width), Float(src.height))
        for k in rowIndex.candidates(rows) {
            let q = quads[k]
            if q.y1 <= rows.lowerBound || q.y0 >= rows.upperBound { continue }
            let i = instances[instances.startIndex + k]
            let mode = SoftwareClamp.int(i.params.z + 0.5)
            if rowPaths, mode == 0, drawAligned(i, q, ctx, rows) || drawTranslated(i, q, ctx, rows) { continue }
            let dlo = SIMD2(i.dst.x, i.dst.y), dsize = SIMD2(i.dst.z, i.dst.w)
            let slo = SIMD2(i.src.x, i.src.y), ssize = SIMD2(max(i.src.z, 1), max(i.src.w, 1))
            q.forEachTexel(rows: rows) { x, y, p, _, _ in
                let uv = (p - dlo) / dsize
                let s = src.bilinear(uv.x * sSize.x, uv.y * sSize.y)
                var c: SIMD4<Float>
                if mode == 2 {
                    if let m = mask {
                        let mv = m.bilinear(uv.x * Float(m.width), uv.y * Float(m.height))
                        c = mv + (s - mv) * i.color.w
                    } else {
                        c = s * i.color.w
                    }
                } else {
                    c = mode == 1 ? i.color * s.w : s * i.color.w
                    if let m = mask {
                        // Nothing of the mask exists outside its target (docs/BEHAVIOUR.md M8).
                        let muv = (p - slo) / ssize
                        let inside = muv.x >= 0 && muv.y >= 0 && muv.x <= 1 && muv.y <= 1
                        c *= inside ? m.bilinear(muv.x * Float(m.width), muv.y * Float(m.height)).w : 0
                    }
                }
                let out = c * ctx.clip(i.params.y, x, y, v)
                if replace { target.pixels[y * target.width + x] = SoftwarePixel.pack(out) } else { target.blend(x, y, out, additive: additive) }
            }
        }
    }

    /// A plain composite (mode 0) that puts a target back where it was drawn, one texel per
    /// pixel (destination = source rectangle, whole pixels, the source and any mask exactly
    /// that size): every pixel centre falls on a texel centre, where composite.frag's bilinear
    /// sample is that texel, so the texel is read directly; and a texel of zero source (or
    /// zero mask) alpha adds nothing to the pixel under source-over, so it is skipped — most
    /// of a masked Lottie layer's target (issue 23). Returns false, drawing nothing, for any
    /// other composite.
    func drawAligned(_ i: CompositeInstance, _ q: SoftwareQuad, _ ctx: SoftwarePassContext, _ rows: Range<Int>) -> Bool {
        let w = SoftwareClamp.int(i.dst.z), h = SoftwareClamp.int(i.dst.w)
        guard !additive, !replace, i.dst == i.src, i.dst.x == i.dst.x.rounded(.down), i.dst.y == i.dst.y.rounded(.down),
              w == source.width, h == source.height, w > 0, h > 0,
              mask.map({ $0.width == w && $0.height == h }) ?? true else { return false }
        let v = variant
        let target = ctx.target
        let vp = ctx.viewport
        // One target texel per frame pixel (not a downscaled target).
        guard Float(target.width) == vp.z, Float(target.height) == vp.w else { return false }
        // Target texel (x, y) is frame pixel (x + vx, y + vy); source texel (x + ox, y + oy).
        let ox = SoftwareClamp.int(vp.x - i.dst.x), oy = SoftwareClamp.int(vp.y - i.dst.y)
        let xa = max(q.x0, -ox, 0), xb = min(q.x1, w - ox, target.width)
        let ya = max(q.y0, -oy, rows.lowerBound), yb = min(q.y1, h - oy, rows.upperBound)
        guard xa < xb, ya < yb else { return true }
        let opacity = i.color.w
        let src = source.pixels
        let m = mask?.pixels
        let clipped = v.clip && SoftwareClamp.int(i.params.y + 0.5) > 0
        for y in ya..<yb {
            let srow = src + ((y &+ oy) &* w &+ ox)
            let mrow = m.map { $0 + ((y &+ oy) &* w &+ ox) }
            // Only the columns where the source and the mask can both be non-zero
            // (`SoftwareRowExtents.swift`; the mask is the source's size): a texel outside
            // them adds nothing.
            var span = source.rowRange(y &+ oy, within: xa &+ ox, xb &+ ox)
            if let mask { span = mask.rowRange(y &+ oy, within: span.lowerBound, span.upperBound) }
            guard !span.isEmpty else { continue }
            var x = span.lowerBound &- ox
            let xe = span.upperBound &- ox
            if !clipped {
                // Four texels at a time, one lane a texel: the loop below's float operations in
                // the same order, so the same bytes (`SoftwareTarget.blend`'s early outs, an
                // opaque source or a clear target, give what the blend expression gives there).
                let trow = target.pixels + y &* target.width
                while x &+ 4 <= xe {
                    // Runs of zero source skipped sixteen texels at a time; the mask is not read.
                    while x &+ 16 <= xe {
                        let r = UnsafeRawPointer(srow + x)
                        let any = r.loadUnaligned(as: SIMD4<UInt32>.self) | r.loadUnaligned(fromByteOffset: 16, as: SIMD4<UInt32>.self)
                            | r.loadUnaligned(fromByteOffset: 32, as: SIMD4<UInt32>.self) | r.loadUnaligned(fromByteOffset: 48, as: SIMD4<UInt32>.self)
                        guard any == .zero else { break }
                        x &+= 16
                    }
                    guard x &+ 4 <= xe else { break }
                    let packed = UnsafeRawPointer(srow + x).loadUnaligned(as: SIMD4<UInt32>.self)
                    if packed == .zero { x &+= 4; continue }
                    let ma = mrow.map { UnsafeRawPointer($0 + x).loadUnaligned(as: SIMD4<UInt32>.self) &>> 24 }
                    var skip = packed .== 0
                    if let ma { skip = skip .| (ma .== 0) }
                    if !all(skip) {
                        Self.blend4(trow + x, packed, mask: ma, opacity: opacity, skip: skip)
                    }
                    x &+= 4
                }
            }
            while x < xe {
                defer { x &+= 1 }
                // A texel of zero colour and alpha adds nothing under source-over.
                let packed = srow[x]
                guard packed != 0 else { continue }
                var c = SoftwarePixel.unpack(packed) * opacity
                if let mrow {
                    let ma = mrow[x] >> 24
                    guard ma != 0 else { continue }
                    c *= Float(ma) * (1 / 255)
                }
                if clipped { c = c * ctx.clip(i.params.y, x, y, v) }
                target.blend(x, y, c, additive: false)
            }
        }
        return true
    }

    /// Four texels of `drawAligned` from `p`: source texels `packed`, the mask's alpha bytes
    /// `mask` (nil: none), lanes in `skip` left as they are. `SoftwarePixel.unpack`, the
    /// opacity, the mask's alpha, `SoftwarePixel.blend`'s clamp and `s + d·(1 − s.a)`, and
    /// `pack` (`SoftwareSpanBlend.bytes` is its rounding), channel by channel in lanes.
    @inline(__always)
    static func blend4(_ p: UnsafeMutablePointer<UInt32>, _ packed: SIMD4<UInt32>, mask: SIMD4<UInt32>?, opacity: Float,
                       skip: SIMDMask<SIMD4<Int32>>) {
        let k: Float = 1 / 255
        var r = packed.lowByteAsFloat * k, g = (packed &>> 8).lowByteAsFloat * k
        var b = (packed &>> 16).lowByteAsFloat * k, a = (packed &>> 24).lowByteAsFloat * k
        r *= opacity; g *= opacity; b *= opacity; a *= opacity
        if let mask {
            let m = mask.lowByteAsFloat * k
            r *= m; g *= m; b *= m; a *= m
        }
        blendChannels4(p, r, g, b, a, skip: skip)
    }

    /// Four float source colours (one vector a channel) over the four target texels from `p`:
    /// `SoftwarePixel.blend`'s clamp, `s + d·(1 − s.a)` and `pack`, lane by lane; lanes in
    /// `skip` left as they are.
    @inline(__always)
    static func blendChannels4(_ p: UnsafeMutablePointer<UInt32>, _ r: SIMD4<Float>, _ g: SIMD4<Float>, _ b: SIMD4<Float>,
                               _ a: SIMD4<Float>, skip: SIMDMask<SIMD4<Int32>>) {
        let k: Float = 1 / 255
        var r = r, g = g, b = b, a = a
        @inline(__always) func unit(_ v: SIMD4<Float>) -> SIMD4<Float> {
            v.replacing(with: 0, where: .!(v .>= 0)).replacing(with: 1, where: v .> 1)
        }
        r = unit(r); g = unit(g); b = unit(b); a = unit(a)
        let raw = UnsafeMutableRawPointer(p)
        let old = raw.loadUnaligned(as: SIMD4<UInt32>.self)
        let keep = 1 - a
        let dr = old.lowByteAsFloat * k, dg = (old &>> 8).lowByteAsFloat * k
        let db = (old &>> 16).lowByteAsFloat * k, da = (old &>> 24).lowByteAsFloat * k
        let out = SoftwareSpanBlend.bytes(r + dr * keep) | SoftwareSpanBlend.bytes(g + dg * keep) &<< 8
            | SoftwareSpanBlend.bytes(b + db * keep) &<< 16 | SoftwareSpanBlend.bytes(a + da * keep) &<< 24
        raw.storeBytes(of: out.replacing(with: old, where: skip), as: SIMD4<UInt32>.self)
    }

    /// A plain composite (mode 0, no mask, no clip) placed by a translation and scale alone,
    /// such as a blurred layer's target put back at a fractional offset: composite.frag's
    /// bilinear sample with the vertical half found once a row, four texels at a time, each lane
    /// with the per-texel loop's float operations (the plane point as `SoftwareQuad.forEachTexel`
    /// makes it, `SoftwareTarget.bilinear`'s lerps, `SoftwareTarget.blend`), so the same bytes.
    /// Returns false, drawing nothing, for any other composite.
    func drawTranslated(_ i: CompositeInstance, _ q: SoftwareQuad, _ ctx: SoftwarePassContext, _ rows: Range<Int>) -> Bool {
        let v = variant
        guard mask == nil, !replace, !additive, !(v.clip && SoftwareClamp.int(i.params.y + 0.5) > 0),
              q.i0.y == 0, q.i0.z == 0, q.i1.x == 0, q.i1.z == 0 else { return false }
        let ya = max(q.y0, rows.lowerBound), yb = min(q.y1, rows.upperBound)
        guard ya < yb, q.x0 < q.x1 else { return true }
        let target = ctx.target
        let src = source.texels
        let w = source.width, h = source.height
        let sSize = SIMD2(Float(w), Float(h))
        let dlo = SIMD2(i.dst.x, i.dst.y), dsize = SIMD2(i.dst.z, i.dst.w)
        let opacity = i.color.w
        let k: Float = 1 / 255
        let lastX = SIMD4<Int32>(repeating: Int32(truncatingIfNeeded: w &- 1))
        let xEnd = min(q.x1, target.width)
        for y in ya..<yb {
            // forEachTexel's h = (x + ½)·i0 + base: with i0.y = i0.z = 0 its y and z are base's.
            let base = (Float(y) + 0.5) * q.i1 + q.i2
            guard base.z > 0 else { continue }
            let inv = 1 / base.z
            let py = base.y * inv
            guard py >= q.lo.y, py < q.hi.y else { continue }
            // SoftwareTarget.bilinear's vertical half.
            let fy = (py - dlo.y) / dsize.y * sSize.y - 0.5
            let y0f = fy.softwareFloor
            let ay = fy - y0f
            let y0 = SoftwareClamp.int(y0f)
            let top = src.pixels + min(max(y0, 0), h - 1) &* w, bottom = src.pixels + min(max(y0 &+ 1, 0), h - 1) &* w
            let trow = target.pixels + y &* target.width
            var x = q.x0
            while x &+ 4 <= xEnd {
                let xs = Float(x) + SIMD4<Float>(0, 1, 2, 3)  // exact: x < 2^24
                let px = ((xs + 0.5) * q.i0.x + base.x) * inv
                let inside = (px .>= q.lo.x) .& (px .< q.hi.x)
                if !any(inside) { x &+= 4; continue }
                let fx = (px - dlo.x) / dsize.x * sSize.x - 0.5
                let x0f = fx.softwareFloorLanes
                let ax = fx - x0f
                let x0 = x0f.wholeNumbers
                let xa = x0.held(.zero, lastX), xb = (x0 &+ 1).held(.zero, lastX)
                @inline(__always) func gather(_ row: UnsafeMutablePointer<UInt32>, _ i: SIMD4<Int32>) -> SIMD4<UInt32> {
                    SIMD4(row[Int(i.x)], row[Int(i.y)], row[Int(i.z)], row[Int(i.w)])
                }
                let ta = gather(top, xa), tb = gather(top, xb), ba = gather(bottom, xa), bb = gather(bottom, xb)
                @inline(__always) func channel(_ shift: UInt32) -> SIMD4<Float> {
                    let a = (ta &>> shift).lowByteAsFloat * k, b = (tb &>> shift).lowByteAsFloat * k
                    let c = (ba &>> shift).lowByteAsFloat * k, d = (bb &>> shift).lowByteAsFloat * k
                    let t = a + (b - a) * ax, u = c + (d - c) * ax
                    return (t + (u - t) * ay) * opacity
                }
                Self.blendChannels4(trow + x, channel(0), channel(8), channel(16), channel(24), skip: .!inside)
                x &+= 4
            }
            // The row's last texels one by one, as the per-texel loop draws them.
            while x < q.x1 {
                defer { x &+= 1 }
                let px = ((Float(x) + 0.5) * q.i0.x + base.x) * inv
                guard px >= q.lo.x, px < q.hi.x else { continue }
                let uv = (SIMD2(px, py) - dlo) / dsize
                target.blend(x, y, source.bilinear(uv.x * sSize.x, uv.y * sSize.y) * opacity, additive: false)
            }
        }
        return true
    }
}
