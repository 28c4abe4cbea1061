import CAFrame

/// CAShapeLayer fills and strokes: Shaders/shape.vert and shape.frag on the CPU (the coverage
/// raster, the compact and exact arc-length fields, strokeStart/End, dashes, caps, the
/// width-free field).
struct SoftwareShapePipeline: SoftwareQuadBatch {
    let instances: ArraySlice<ShapeInstance>
    let quads: [SoftwareQuad]
    /// The instances by the rows they touch (`SoftwareRowIndex`).
    let rowIndex: SoftwareRowIndex
    let variant: SoftwareVariant
    let additive: Bool
    let coverage: SoftwareTarget
    let field: SoftwareFieldPage?
    let aux: SoftwareTarget?
    let usesField: Bool, usesDash: Bool, roundCap: Bool, wideField: Bool, widthField: Bool
    /// Per instance, its row map where the raster is drawn without rotation or perspective
    /// (`SoftwareShapeRows`).
    let rowMaps: [SIMD4<Float>?]
    /// `field`'s and `aux`'s texels by pointer, for the row path's reads: a class reference
    /// bound per texel is retained and released per texel (6 % of a `lineWidth`-animated frame).
    let fieldTexels: SoftwareFieldPage.Texels?, auxTexels: SoftwareTarget.Texels?
    /// Whether the rows draw a lineWidth-animated stroke's band four texels at a time
    /// (`SoftwareRenderer.usesInteriorLoops`; the same words either way).
    let interiorLoops: Bool
    /// Per instance, the runs it draws from (`SoftwareShapeRunRows`): rasters uploaded as runs
    /// that the instance maps one texel per pixel, without a clip, field or additive blend.
    let runs: [ShapeCoverageSpans?]
    /// Per instance drawn from runs with one of its two colours zero, the source word of every
    /// byte of the other channel (`runSources(_:_:)`).
    let runSources: [SoftwareRunSources?]

    init(_ all: [ShapeInstance], _ b: Batch, _ map: SoftwareViewport, _ target: SoftwareTarget, coverage: SoftwareTarget,
         field: SoftwareFieldPage?, aux: SoftwareTarget?, rowPaths: Bool = true, interiorLoops: Bool = true,
         runs pageRuns: [SIMD2<Int>: ShapeCoverageSpans] = [:], densify: (SIMD2<Int>) -> Void = { _ in },
         runSourceCache: SoftwareRunSourceCache = SoftwareRunSourceCache()) {
        instances = all[b.range]
        self.interiorLoops = interiorLoops
        variant = SoftwareVariant(b.variant)
        additive = b.variant.contains(.additive)
        self.coverage = coverage
        self.field = field
        self.aux = aux
        fieldTexels = field?.texels
        auxTexels = aux?.texels
        usesField = b.variant.contains(.shapeField)
        usesDash = b.variant.contains(.shapeDash)
        roundCap = b.variant.contains(.shapeRoundCap)
        wideField = b.variant.contains(.shapeWideField)
        widthField = b.variant.contains(.shapeWidthField)
        quads = instances.map { i in
            SoftwareQuad(map: map.planeToTexel(i.h0, i.h1, i.h2), lo: .zero, hi: SIMD2(i.region.z, i.region.w),
                         width: target.width, height: target.height)
        }
        let pixelRows = quads.map { q in q.y0 < q.y1 ? q.y0..<q.y1 : 0..<0 }
        rowIndex = SoftwareRowIndex(count: pixelRows.count, height: target.height) { pixelRows[$0] }
        let projective = variant.projective
        let maps = quads.map { rowPaths ? Self.rowMap($0, projective: projective) : nil }
        rowMaps = maps
        // Rasters uploaded as runs: drawn from them where the instance can be, else their
        // texels are written into the page now, before any band reads it.
        if pageRuns.isEmpty {
            runs = Array(repeating: nil, count: instances.count)
        } else {
            let plainColour = !additive && !(wideField || usesField)
            let clipVariant = variant.clip
            let slice = instances
            runs = slice.indices.map { k in
                let i = slice[k], n = k - slice.startIndex
                let origin = SIMD2(SoftwareClamp.int(i.region.x), SoftwareClamp.int(i.region.y))
                guard let s = pageRuns[origin] else { return nil }
                let clipped = clipVariant && SoftwareClamp.int(i.h1.w + 0.5) > 0
                if plainColour, !clipped, let m = maps[n], m.x == 1,
                   s.width == SoftwareClamp.int(i.region.z), s.height == SoftwareClamp.int(i.region.w) {
                    return s
                }
                densify(origin)
                return nil
            }
        }
        runSources = zip(instances, runs).map { Self.runSources($0, $1, cache: runSourceCache) }
    }

    /// Where one of an instance's two colours is zero (a stroke without a fill, a fill without
    /// a stroke), shape.frag's colour of a texel depends on the other channel's byte alone
    /// (`color`: the zero colour's term is +0 whatever its byte), so a raster of many runs gets
    /// the 256 source words of that byte once, shared by every band: along a thin ring's
    /// antialiased edges almost every run has a byte of its own, and the per-band cache of
    /// `drawRunRows` missed on 60 % of 9squares' runs (issue 23). The same words the cache
    /// computes.
    static func runSources(_ i: ShapeInstance, _ s: ShapeCoverageSpans?, cache: SoftwareRunSourceCache? = nil) -> SoftwareRunSources? {
        guard let s, s.runs.count >= 256 else { return nil }
        let byStroke = i.fill == .zero
        guard byStroke || i.stroke == .zero else { return nil }
        func make() -> SoftwareRunSources {
            let opacity = i.h0.w
            let words = (0..<256).map { v -> UInt32 in
                let full = SoftwarePixel.unpack(byStroke ? UInt32(v) << 8 : UInt32(v))
                return SoftwareSpanBlend.source(color(i, fill: full.x, stroke: full.y) * opacity)
            }
            return SoftwareRunSources(words: words, byStroke: byStroke)
        }
        return cache?.table(for: i, make: make) ?? make()
    }

    /// `capCoverage` of shape.frag.
    @inline(__always) func capCoverage(_ e0: Float, _ d: Float, _ hw: Float, _ cap: Int) -> Float {
        if roundCap { return e0 <= 0 ? 1 : SoftwareField.clamp01(0.5 - ((e0 * e0 + d * d).squareRoot() - hw)) }
        let e = cap == 2 ? e0 - hw : e0
        return SoftwareField.clamp01(0.5 - e)
    }

    /// `strokeCut` of shape.frag: trims and (with CA_SHAPE_DASH) the dash pattern.
    @inline(__always) func strokeCut(_ i: ShapeInstance, _ s: Float, _ ssub: Float, _ d: Float) -> Float {
        var e = max(i.trim.z - s, s - i.trim.w)
        let code = SoftwareClamp.int(i.params.z + 0.5)
        if usesDash {
            let n = code >> 2
            let period = i.dash.x + i.dash.y + i.dash.z + i.dash.w
            let xv = ssub + i.params.w
            let u = xv - period * (xv / period).softwareFloor
            var best: Float = 1e30
            var a: Float = 0
            var k = 0
            while k < 4 && k < n {
                let len = i.dash[k]
                for j in -1...1 {
                    let o = a + Float(j) * period
                    best = min(best, max(o - u, u - (o + len)))
                }
                a += len + i.dash[k + 1]
                k += 2
            }
            e = max(e, best)
        }
        return capCoverage(e * i.params.y, d, i.params.x, code & 3)
    }

    @inline(__always) static func decode16(_ h: Float, _ l: Float) -> Float { h * (65280.0 / 65535.0) + l * (255.0 / 65535.0) }

    /// Each quad's columns, but for instances drawn from their runs (`drawRunRows` notes the
    /// runs' columns as it draws them).
    func noteRowExtents(_ target: SoftwareTarget, _ rows: Range<Int>) {
        noteQuadColumns(target, rows, rowIndex.candidates(rows).lazy.filter { !(rowMaps[$0] != nil && runs[$0] != nil) })
    }

    func draw(_ ctx: SoftwarePassContext, _ rows: Range<Int>) {
        let v = variant
        let target = ctx.target
        let projective = v.projective
        for k in rowIndex.candidates(rows) {
            let q = quads[k]
            if q.y1 <= rows.lowerBound || q.y0 >= rows.upperBound { continue }
            let i = instances[instances.startIndex + k]
            if let m = rowMaps[k] {
                if let s = runs[k] { drawRunRows(i, q, m, s, runSources[k], ctx, rows) } else { drawRows(i, q, m, ctx, rows) }
                continue
            }
            let origin = SIMD2(i.region.x, i.region.y)
            let rw = SoftwareClamp.int(i.region.z), rh = SoftwareClamp.int(i.region.w)
            let ox = SoftwareClamp.int(origin.x), oy = SoftwareClamp.int(origin.y)
            q.forEachTexel(rows: rows) { x, y, p, _, _ in
                // atlasSample: bilinear under perspective, else the texel under the pixel.
                @inline(__always) func sample(_ t: SoftwareTarget, _ o: SIMD2<Float>) -> SIMD4<Float> {
                    if projective { return t.bilinear(o.x + p.x, o.y + p.y) }
                    let tx = min(max(SoftwareClamp.int(p.x.softwareFloor), 0), rw - 1)
                    let ty = min(max(SoftwareClamp.int(p.y.softwareFloor), 0), rh - 1)
                    return t.texel(SoftwareClamp.int(o.x) + tx, SoftwareClamp.int(o.y) + ty)
                }
                let full: SIMD4<Float>
                if projective { full = coverage.bilinear(origin.x + p.x, origin.y + p.y) } else {
                    let tx = min(max(SoftwareClamp.int(p.x.softwareFloor), 0), rw - 1)
                    let ty = min(max(SoftwareClamp.int(p.y.softwareFloor), 0), rh - 1)
                    full = coverage.texel(ox + tx, oy + ty)
                }
                var cs = full.y
                if wideField {
                    if cs > 0, let fp = field {
                        let fo = SIMD2(i.trim.x, i.trim.y)
                        let f: SIMD4<Float>
                        if projective { f = fp.bilinear(fo.x + p.x, fo.y + p.y) } else {
                            let tx = min(max(SoftwareClamp.int(p.x.softwareFloor), 0), rw - 1)
                            let ty = min(max(SoftwareClamp.int(p.y.softwareFloor), 0), rh - 1)
                            f = fp.texel(SoftwareClamp.int(fo.x) + tx, SoftwareClamp.int(fo.y) + ty)
                        }
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
                            // The auxiliary texture is bound with nearest filtering.
                            let a: SIMD4<Float>
                            if projective {
                                a = a0.texel(SoftwareClamp.int((origin.x + p.x).softwareFloor), SoftwareClamp.int((origin.y + p.y).softwareFloor))
                            } else { a = sample(a0, origin) }
                            ssub = Self.decode16(a.x, a.y) * i.trim.y + i.trim.x
                            d = Self.decode16(a.z, a.w) * (i.params.x + 2)
                        }
                        cs = min(cs, strokeCut(i, s, ssub, d))
                    }
                }
                let c = i.stroke * cs + i.fill * (full.x * (1 - i.stroke.w * cs))
                target.blend(x, y, c * (i.h0.w * ctx.clip(i.h1.w, x, y, v)), additive: additive)
            }
        }
    }
}
