import CAFrame
import CPrefetch

/// Shapes whose raster maps to the target without rotation or perspective (issue 22): every
/// texel of a row reads the same raster row, and a raster column is a linear function of the
/// target column, so the homography per texel and the closure of the per-texel path go; a run
/// of texels whose raster coverage is zero (fill and stroke) is skipped in one step, which is
/// most of a star's bounding box, and a run of one fill byte without stroke (its interior) is
/// blended as one span. The colour of a covered texel is shape.frag's
/// nearest-texel branch (`nearestStroke`, `color`).
extension SoftwareShapePipeline {
    /// Raster column of target column x = ⌊ax·x + bx⌋, raster row of target row y =
    /// ⌊ay·y + by⌋, or nil where the instance is not axis-aligned and affine.
    static func rowMap(_ q: SoftwareQuad, projective: Bool) -> SIMD4<Float>? {
        guard !projective, q.x0 < q.x1, q.y0 < q.y1,
              q.i0.y == 0, q.i1.x == 0, q.i0.z == 0, q.i1.z == 0, q.i2.z != 0 else { return nil }
        let m = SIMD4(q.i0.x / q.i2.z, (0.5 * q.i0.x + q.i2.x) / q.i2.z, q.i1.y / q.i2.z, (0.5 * q.i1.y + q.i2.y) / q.i2.z)
        return m.x.isFinite && m.y.isFinite && m.z.isFinite && m.w.isFinite ? m : nil
    }

    /// shape.frag's final mix of fill coverage `f` and stroke coverage `cs`.
    @inline(__always)
    static func color(_ i: ShapeInstance, fill f: Float, stroke cs: Float) -> SIMD4<Float> {
        i.stroke * cs + i.fill * (f * (1 - i.stroke.w * cs))
    }

    /// shape.frag's stroke coverage at raster texel (tx, ty): the raster's, cut by the field
    /// (the width, trims, dashes and caps) where the program reads one.
    @inline(__always)
    func nearestStroke(_ i: ShapeInstance, _ full: SIMD4<Float>, _ tx: Int, _ ty: Int, _ ox: Int, _ oy: Int) -> Float {
        var cs = full.y
        if wideField {
            if cs > 0, let fp = fieldTexels {
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
                if (usesDash || roundCap), let a0 = auxTexels {
                    let a = a0.texel(ox &+ tx, oy &+ ty)
                    ssub = Self.decode16(a.x, a.y) * i.trim.y + i.trim.x
                    d = Self.decode16(a.z, a.w) * (i.params.x + 2)
                }
                cs = min(cs, strokeCut(i, s, ssub, d))
            }
        }
        return cs
    }

    /// The source words of four consecutive texels of a lineWidth-animated stroke's band
    /// (coverage words `words`, all with a stroke byte, raster column `tx` on, row `ty`): for
    /// each, what the per-texel branch computes — `SoftwareWidthStroke.coverage` of its field
    /// texel, `color(fill:stroke:)` times the opacity, `SoftwareSpanBlend.source` — with the same
    /// float operations lane by lane, so the same words.
    @inline(__always)
    static func widthStrokeSources(_ i: ShapeInstance, _ ws: SoftwareWidthStroke, _ fp: SoftwareFieldPage.Texels,
                                   _ words: SIMD4<UInt32>, _ tx: Int, _ ty: Int, _ opacity: Float) -> SIMD4<UInt32> {
        let y = ws.fieldY &+ ty, x0 = ws.fieldX &+ tx
        let f0 = fp.texel(x0, y), f1 = fp.texel(x0 &+ 1, y), f2 = fp.texel(x0 &+ 2, y), f3 = fp.texel(x0 &+ 3, y)
        let cs = ws.coverage(x: SIMD4(f0.x, f1.x, f2.x, f3.x), z: SIMD4(f0.z, f1.z, f2.z, f3.z), w: SIMD4(f0.w, f1.w, f2.w, f3.w))
        // `SoftwarePixel.unpack(packed).x`: the fill byte times 1/255.
        let f = SIMD4<Float>(words & 0xFF) * (1 / 255)
        // color: stroke · cs + fill · (f · (1 − stroke.a · cs)), then times the opacity.
        let k = f * (1 - i.stroke.w * cs)
        let r = (i.stroke.x * cs + i.fill.x * k) * opacity, g = (i.stroke.y * cs + i.fill.y * k) * opacity
        let b = (i.stroke.z * cs + i.fill.z * k) * opacity, a = (i.stroke.w * cs + i.fill.w * k) * opacity
        return SoftwareSpanBlend.sources(r, g, b, a)
    }

    /// How many target rows ahead `drawRows` asks for raster texels. A star's raster rows lie a
    /// page width apart, so the hardware prefetcher does not follow them, and the rasters of a
    /// frame's shapes (tens of MB for 1,000 stars) do not stay in the cache from one frame to the
    /// next: without the hint a third of the row loop's time was the first read of each row.
    static let prefetchRows = 2

    /// Asks for the coverage texels and runs of raster row `py` (a raster-space y) that the
    /// quad's columns read, and the wide field's texels there.
    @inline(__always)
    func prefetchRow(_ py: Float, _ q: SoftwareQuad, _ m: SIMD4<Float>, _ i: ShapeInstance, rw: Int, rh: Int) {
        guard py >= 0, py < i.region.w else { return }
        let cov = coverage
        let pageY = SoftwareClamp.int(i.region.y) &+ min(SoftwareClamp.int(py), rh - 1)
        guard pageY >= 0, pageY < cov.height else { return }
        let ox = SoftwareClamp.int(i.region.x)
        let a = max(ox &+ max(SoftwareClamp.int(m.x * Float(q.x0) + m.y), 0), 0)
        let b = min(ox &+ min(SoftwareClamp.int(m.x * Float(q.x1 &- 1) + m.y), rw - 1), cov.width - 1)
        guard a <= b else { return }
        ca_prefetch_range(cov.pixels + (pageY &* cov.width &+ a), (b &- a &+ 1) &* 4)
        if let runs = cov.coverageRuns { ca_prefetch_range(runs + (pageY &* cov.width &+ a), (b &- a &+ 1) &* 2) }
        // The width-free and projective-free wide field (16 bytes a texel, read where the
        // stroke's widest reach covers the texel) lies in its own page at the trim origin.
        if wideField, let fp = fieldTexels {
            let fy = SoftwareClamp.int(i.trim.y) &+ min(SoftwareClamp.int(py), rh - 1)
            guard fy >= 0, fy < fp.height else { return }
            let fx = SoftwareClamp.int(i.trim.x) &- ox
            let fa = max(a &+ fx, 0), fb = min(b &+ fx, fp.width - 1)
            guard fa <= fb else { return }
            ca_prefetch_range(fp.data + (fy &* fp.width &+ fa), (fb &- fa &+ 1) &* 16)
        }
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
        // byte is kept (issue 23: cactus's bodies), and a run of it is one span.
        let memoizes = !clipped && !additive
        var memoKey: UInt32 = .max, memoSource: UInt32 = 0
        // A lineWidth-animated stroke without dashes: its field's constants once per instance.
        let widthStroke = wideField && widthField && !usesDash && fieldTexels != nil ? SoftwareWidthStroke(i, roundCap: roundCap) : nil
        let fieldPage = fieldTexels
        for y in ya..<yb {
            let py = m.z * Float(y) + m.w
            // The quad is the region: texel centres outside it are not drawn.
            guard py >= 0, py < regionH else { continue }
            // py ≥ 0: truncation is the floor (`rounded(.down)` is a library call per texel).
            let ty = min(SoftwareClamp.int(py), rh - 1)
            let covRow = cov.pixels + (oy &+ ty) &* cov.width
            let covRowOK = oy &+ ty >= 0 && oy &+ ty < cov.height
            let row = target.pixels + y &* target.width
            let runRow = covRowOK ? cov.coverageRuns.map { $0 + (oy &+ ty) &* cov.width } : nil
            if unitStep { prefetchRow(m.z * Float(y &+ Self.prefetchRows) + m.w, q, m, i, rw: rw, rh: rh) }
            var x = q.x0
            while x < q.x1 {
                let px = m.x * Float(x) + m.y
                guard px >= 0, px < regionW else { x &+= 1; continue }
                let tx = min(SoftwareClamp.int(px), rw - 1)
                let cx = ox &+ tx
                let inPage = covRowOK && cx >= 0 && cx < cov.width
                // The page's texel, clamped to the edge as `SoftwareTarget.texel` reads it.
                let packed = inPage ? covRow[cx] : cov.pixels[min(max(oy &+ ty, 0), cov.height - 1) &* cov.width &+ min(max(cx, 0), cov.width - 1)]
                // One raster texel per target texel (the common, unscaled case): the texels of
                // the run (`SoftwareCoverageRuns`) from this one are the next target texels'.
                let runs = unitStep && inPage ? runRow : nil
                // No fill and no stroke coverage: shape.frag's colour is 0 whatever the field,
                // so the run is skipped whole (the clamp at the region's end stays inside it).
                if packed & 0xFFFF == 0 { x &+= max(runs.map { Int($0[cx]) } ?? 1, 1); continue }
                if memoizes, packed & 0xFF00 == 0 {
                    let key = packed & 0xFF
                    if key != memoKey {
                        memoKey = key
                        memoSource = SoftwareSpanBlend.source(Self.color(i, fill: SoftwarePixel.unpack(packed).x, stroke: 0) * opacity)
                    }
                    // A run of the same fill byte is one span (an interior: four texels at a
                    // time), up to the quad's and the region's last texel.
                    let n = min(max(runs.map { Int($0[cx]) } ?? 1, 1), q.x1 &- x, rw &- tx)
                    if n > 1 { SoftwareSpanBlend.fill(row + x, n, memoSource) } else { row[x] = SoftwareSpanBlend.over(memoSource, row[x]) }
                    x &+= max(n, 1)
                    continue
                }
                // Four texels of a lineWidth-animated stroke's band (every one reached by the
                // widest stroke) at once: the field's coverage, shape.frag's colour and the pack
                // one channel a vector, the blend four texels wide (`widthStrokeSources`).
                if interiorLoops, let ws = widthStroke, let fp = fieldPage, memoizes, unitStep, inPage, x &+ 4 <= q.x1, tx &+ 4 <= rw,
                   cx &+ 4 <= cov.width {
                    let words = UnsafeRawPointer(covRow + cx).loadUnaligned(as: SIMD4<UInt32>.self)
                    if all((words & 0xFF00) .!= 0) {
                        let src = Self.widthStrokeSources(i, ws, fp, words, tx, ty, opacity)
                        SoftwareSpanBlend.blend4(row + x, src)
                        x &+= 4
                        continue
                    }
                }
                defer { x &+= 1 }
                let full = SoftwarePixel.unpack(packed)
                let cs: Float
                if let ws = widthStroke, let fp = fieldPage {
                    cs = full.y > 0 ? ws.coverage(fp.texel(ws.fieldX &+ tx, ws.fieldY &+ ty)) : full.y
                } else {
                    cs = nearestStroke(i, full, tx, ty, ox, oy)
                }
                // The field cut the stroke away here (a texel of the widest stroke outside the
                // current width, or beyond a trim): the colour is the fill byte's alone, which
                // is nothing outside the fill and the kept source inside it.
                if memoizes, cs == 0 {
                    let key = packed & 0xFF
                    if key == 0 { continue }
                    if key != memoKey {
                        memoKey = key
                        memoSource = SoftwareSpanBlend.source(Self.color(i, fill: full.x, stroke: 0) * opacity)
                    }
                    row[x] = SoftwareSpanBlend.over(memoSource, row[x])
                    continue
                }
                var c = Self.color(i, fill: full.x, stroke: cs) * opacity
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
