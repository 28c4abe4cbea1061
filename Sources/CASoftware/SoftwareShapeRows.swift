import CAFrame

/// Shapes whose raster maps to the target without rotation or perspective (issue 22): every
/// texel of a row reads the same raster row, and a raster column is a linear function of the
/// target column, so the homography per texel and the closure of the per-texel path go; a
/// texel whose raster coverage is zero (fill and stroke) is skipped after one integer test,
/// which is most of a star's bounding box. The colour of a covered texel is shape.frag's
/// nearest-texel branch, shared with the per-texel path (`nearestColor`).
extension SoftwareShapePipeline {
    /// Raster column of target column x = ⌊ax·x + bx⌋, raster row of target row y =
    /// ⌊ay·y + by⌋, or nil where the instance is not axis-aligned and affine.
    static func rowMap(_ q: SoftwareQuad, projective: Bool) -> SIMD4<Float>? {
        guard !projective, q.x0 < q.x1, q.y0 < q.y1,
              q.i0.y == 0, q.i1.x == 0, q.i0.z == 0, q.i1.z == 0, q.i2.z != 0 else { return nil }
        let m = SIMD4(q.i0.x / q.i2.z, (0.5 * q.i0.x + q.i2.x) / q.i2.z, q.i1.y / q.i2.z, (0.5 * q.i1.y + q.i2.y) / q.i2.z)
        return m.x.isFinite && m.y.isFinite && m.z.isFinite && m.w.isFinite ? m : nil
    }

    /// shape.frag's colour (opacity and clip not applied) from raster texel (tx, ty) of the
    /// instance's region, for programs without CA_PROJECTIVE (every sample is the texel under
    /// the pixel).
    @inline(__always)
    func nearestColor(_ i: ShapeInstance, _ full: SIMD4<Float>, _ tx: Int, _ ty: Int, _ ox: Int, _ oy: Int) -> SIMD4<Float> {
        var cs = full.y
        if wideField {
            if cs > 0, let fp = field {
                let f = fp.texel(SoftwareClamp.int(i.trim.x) &+ tx, SoftwareClamp.int(i.trim.y) &+ ty)
                if widthField {
                    cs = min(SoftwareField.clamp01(i.params.x - f.z + 0.5),
                             capCoverage(f.w, f.z, i.params.x, SoftwareClamp.int(i.params.z + 0.5) & 3))
                }
                cs = min(cs, strokeCut(i, f.x, f.y, f.z))
            }
        } else if usesField {
            if cs > 0 {
                let s = Self.decode16(full.z, full.w) * i.trim.y + i.trim.x
                var ssub = s, d: Float = 0
                if (usesDash || roundCap), let a0 = aux {
                    let a = a0.texel(ox &+ tx, oy &+ ty)
                    ssub = Self.decode16(a.x, a.y) * i.trim.y + i.trim.x
                    d = Self.decode16(a.z, a.w) * (i.params.x + 2)
                }
                cs = min(cs, strokeCut(i, s, ssub, d))
            }
        }
        return i.stroke * cs + i.fill * (full.x * (1 - i.stroke.w * cs))
    }

    /// Draws instance `i` (row map `m` from `rowMap`) into the rows of `rows`.
    func drawRows(_ i: ShapeInstance, _ q: SoftwareQuad, _ m: SIMD4<Float>, _ ctx: SoftwarePassContext, _ rows: Range<Int>) {
        let ya = max(q.y0, rows.lowerBound), yb = min(q.y1, rows.upperBound)
        guard ya < yb else { return }
        let target = ctx.target
        let v = variant
        let rw = SoftwareClamp.int(i.region.z), rh = SoftwareClamp.int(i.region.w)
        guard rw > 0, rh > 0 else { return }
        let ox = SoftwareClamp.int(i.region.x), oy = SoftwareClamp.int(i.region.y)
        let regionW = i.region.z, regionH = i.region.w
        let clipped = v.clip && SoftwareClamp.int(i.h1.w + 0.5) > 0
        let opacity = i.h0.w
        let cov = coverage
        let unitStep = m.x == 1
        // Where a texel has fill coverage and no stroke coverage, shape.frag's colour depends on
        // the fill coverage byte alone (no field is read): the source word of the last such
        // byte is kept, so a filled interior costs one blend a texel (issue 23: cactus's bodies).
        let memoizes = !clipped && !additive
        var memoKey: UInt32 = .max, memoSource: UInt32 = 0
        for y in ya..<yb {
            let py = m.z * Float(y) + m.w
            // The quad is the region: texel centres outside it are not drawn.
            guard py >= 0, py < regionH else { continue }
            // py ≥ 0: truncation is the floor (`rounded(.down)` is a library call per texel).
            let ty = min(SoftwareClamp.int(py), rh - 1)
            let covRow = cov.pixels + (oy &+ ty) &* cov.width
            let covRowOK = oy &+ ty >= 0 && oy &+ ty < cov.height
            let row = target.pixels + y &* target.width
            let runRow = covRowOK ? cov.zeroRuns.map { $0 + (oy &+ ty) &* cov.width } : nil
            var x = q.x0
            while x < q.x1 {
                let px = m.x * Float(x) + m.y
                guard px >= 0, px < regionW else { x &+= 1; continue }
                let tx = min(SoftwareClamp.int(px), rw - 1)
                let cx = ox &+ tx
                let inPage = covRowOK && cx >= 0 && cx < cov.width
                // The page's texel, clamped to the edge as `SoftwareTarget.texel` reads it.
                let packed = inPage ? covRow[cx] : cov.pixels[min(max(oy &+ ty, 0), cov.height - 1) &* cov.width &+ min(max(cx, 0), cov.width - 1)]
                // No fill and no stroke coverage: shape.frag's colour is 0 whatever the field.
                if packed & 0xFFFF == 0 {
                    // One raster texel per target texel (the common, unscaled case): the
                    // texels of the run are the next target texels' (the clamp at the
                    // region's end stays inside the run), so the run is skipped whole.
                    if unitStep, inPage, let runRow { x &+= max(Int(runRow[cx]), 1) } else { x &+= 1 }
                    continue
                }
                defer { x &+= 1 }
                if memoizes, packed & 0xFF00 == 0 {
                    let key = packed & 0xFF
                    if key != memoKey {
                        memoKey = key
                        memoSource = SoftwareSpanBlend.source(nearestColor(i, SoftwarePixel.unpack(packed), tx, ty, ox, oy) * opacity)
                    }
                    row[x] = SoftwareSpanBlend.over(memoSource, row[x])
                    continue
                }
                var c = nearestColor(i, SoftwarePixel.unpack(packed), tx, ty, ox, oy) * opacity
                if clipped { c = c * ctx.clip(i.h1.w, x, y, v) }
                if additive {
                    row[x] = SoftwarePixel.blend(c, over: row[x], additive: true)
                } else {
                    // The 8-bit blend of the span paths (≤ 1 level from GL's float blend).
                    row[x] = SoftwareSpanBlend.over(SoftwareSpanBlend.source(c), row[x])
                }
            }
        }
    }
}
