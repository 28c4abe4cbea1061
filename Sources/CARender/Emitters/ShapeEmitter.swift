import CoreGraphics
import CoreAnimation
import Foundation
import CAFrame

/// CAShapeLayer (issue 6): the path's fill and stroke, rasterised once per path and placement
/// into the shape atlas (`ShapeCache`) and drawn as one quad whose shader composites stroke
/// over fill with the colours, opacity, trims and dashes of this frame.
final class ShapeEmitter: ContentEmitter {
    /// Shape rasters kept across frames (`Shapes/ShapeCache.swift`).
    let cache = ShapeCache()
    /// Whether a stroke whose `lineWidth` animates between bounds its animations give is drawn
    /// from one width-free raster for the widest width rather than a raster per power-of-two
    /// bucket of its current width (`RenderTreeBuilder.widthRastersSpanAnimations`): the GL
    /// backend's choice, where a shape leaving its batch in the frame it re-rasterises costs
    /// a draw call.
    var widthRastersSpanAnimations = false
    /// Whether plain rasters are made as runs (`RenderTreeBuilder.makesShapeRuns`).
    var makesRuns = false
    /// Whether a trimmed stroke is drawn over only the part of its raster the trim can leave
    /// (`trimmedRegion`; `RenderTreeBuilder.cutsTrimmedStrokes`).
    var cutsTrimmedStrokes = true
    /// Whether a trimmed stroke without a fill or dashes is rasterised trimmed (`StrokeTrim`), a
    /// raster a frame while the trim animates, instead of from a raster of the whole stroke cut
    /// per pixel by its arc-length field: the CPU backend's choice
    /// (`RenderTreeBuilder.makesShapeRuns`), where a raster of the visible part, made beside the
    /// walk, costs less than a field's raster, its upload and the per-pixel cut (TwitterHeart's
    /// dots). Not with a fill, whose raster would then be made again each frame too (1,000
    /// filled stars whose strokeEnd animates keep one raster each), nor with dashes, which
    /// restart where each subpath starts, not where the trim does. The GL backend keeps the
    /// field, which animates without uploads.
    var trimsStrokeGeometry = false
    /// Paths of more elements keep the field's cut: flattening, trimming and stroking a long
    /// path every frame would cost more than one raster and a per-pixel cut.
    static let maxTrimmedElements = 256
    /// Threads that make a frame's plain rasters beside the walk (`ShapeCache+Deferred.swift`;
    /// `RenderTreeBuilder.shapeRasterThreads`); 1 makes each where the walk asks for it.
    var rasterThreads = 1 {
        didSet { cache.rasterQueue.helpers = rasterThreads - 1 }
    }
    /// Whether new plain rasters are placed now and made beside the walk (or the patch that
    /// re-emits shapes into a kept frame); `finishFrame` collects them.
    private var defersRasters: Bool {
        makesRuns && rasterThreads > 1 && (lastFrameRasters >= deferringRasters || cache.rasterQueue.hasLingeringDrain)
    }
    /// New rasters the last frame made. A frame defers its rasters only when the last made at
    /// least `deferringRasters` (4; tests lower it), or while a drain waits for work
    /// (`DeferredRasterQueue.hasLingeringDrain`): waking a thread for one or two small rasters
    /// costs more than it saves (PinJump: 0.20 → 0.22 ms a frame), handing them to one already
    /// awake does not. Whether a frame defers changes no pixel (`runsRasterBox`), so the choice
    /// may follow the frames before and the threads' timing.
    private var lastFrameRasters = 0
    var deferringRasters = 4
    /// The spec `paints` resolved last, for the `emit` that follows it: the walk asks whether a
    /// shape paints and then has it emitted, and the spec is resolved once for both. Held, not
    /// identified by address (a freed copy's address may be reused), and used once.
    private var lastSpec: (copy: CALayer, spec: ShapeDrawSpec?)?

    func claims(_ copy: CALayer) -> Bool { copy is CAShapeLayer }
    var claimRule: ContentClaimRule { .byClass }

    func paints(_ copy: CALayer) -> Bool {
        let spec = (copy as? CAShapeLayer).flatMap { shapeSpec($0) }
        lastSpec = (copy, spec)
        return spec != nil
    }

    func beginFrame(_ out: FrameWriter) {
        lastSpec = nil
        cache.beginFrame()
    }

    /// Draws a shape layer's path (N3: between its contents and its first sublayer), cut to
    /// its bounds under `masksToBounds`.
    func emit(_ layer: CALayer, _ copy: CALayer, at site: DrawSite, into out: FrameWriter) {
        let resolved = lastSpec.flatMap { $0.copy === copy ? $0.spec : nil } ?? (copy as? CAShapeLayer).flatMap { shapeSpec($0) }
        lastSpec = nil
        guard var spec = resolved else { return }
        if spec.style != nil {
            if trimsStrokeGeometry, spec.fill == nil, spec.trim.0 > 0 || spec.trim.1 < 1, spec.gpuDash.isEmpty, spec.style?.cpuDash == nil,
               spec.path.elements.count <= Self.maxTrimmedElements {
                // N3: strokeStart ≥ strokeEnd shows no stroke (and there is no fill).
                guard spec.trim.0 < spec.trim.1 else { return }
                // Each width is rasterised as it comes (not `widthAnimates`): the raster is made
                // again anyway.
                spec.geometricTrim = spec.trim
                spec.trim = (0, 1)
            } else {
                // Not where the path animates too: every frame then has a path of its own, so a
                // raster serving many widths would serve one frame, its field and the draw that
                // reads it costing several plain rasters (issue 23: TwitterHeart's growing ring).
                spec.widthAnimates = layer.hasAnimation(writing: "lineWidth") && !layer.hasAnimation(writing: "path")
                if spec.widthAnimates, widthRastersSpanAnimations, let model = layer as? CAShapeLayer {
                    spec.widthBounds = layer.animatedBounds(of: "lineWidth", model: Double(model.lineWidth))
                }
            }
        }
        emitShape(spec, h: site.h, clip: copy.state.masksToBounds ? out.boundsClip(of: copy, h: site.h, outer: site.clip).0 : site.clip,
                  opacity: site.opacity, into: out)
    }

    func overhang(_ copy: CALayer, h: Homography) -> CGRect? { shapeBounds(copy, h: h) }

    /// What a shape layer draws this frame, resolved from its presentation state.
    struct ShapeDrawSpec {
        var path: CGPath
        var fill: SIMD4<Float>?
        var evenOdd: Bool
        var stroke: SIMD4<Float>?
        var style: ShapeStrokeStyle?
        /// strokeStart, strokeEnd clamped to [0, 1].
        var trim: (Double, Double)
        /// Dash lengths the shader applies (at most four), and the phase.
        var gpuDash: [Double]
        var dashPhase: Double
        /// The layer's `lineWidth` animates and its `path` does not: the stroke is drawn from a
        /// width-free raster (a choice made from the layer alone, so a frame does not depend on
        /// the frames before).
        var widthAnimates = false
        /// The least and greatest `lineWidth` its animations reach, where known and the
        /// emitter draws such strokes from one raster (`widthRastersSpanAnimations`).
        var widthBounds: ClosedRange<Double>? = nil
        /// strokeStart and strokeEnd applied to the geometry (`trimsStrokeGeometry`): the
        /// raster holds only the trimmed stroke, and `trim` is then (0, 1).
        var geometricTrim: (Double, Double)? = nil
    }

    /// The most dash entries the shader takes (an odd pattern counts twice, as it repeats).
    static let maxShaderDashEntries = 4

    func shapeSpec(_ layer: CAShapeLayer) -> ShapeDrawSpec? {
        let st = layer
        guard let path = st.path, !path.elements.isEmpty else { return nil }
        let fill = st.fillColor.flatMap { $0.alpha > 0 ? $0.premultiplied(1) : nil }
        var stroke = st.strokeColor.flatMap { $0.alpha > 0 ? $0.premultiplied(1) : nil }
        let s0 = min(max(Double(st.strokeStart), 0), 1), s1 = min(max(Double(st.strokeEnd), 0), 1)
        if st.lineWidth < 0 {
            if stroke != nil { RenderDiagnostics.warn("CAShapeLayer.lineWidth \(st.lineWidth) is negative: no stroke is drawn") }
            stroke = nil
        }
        guard fill != nil || stroke != nil else { return nil }
        var style: ShapeStrokeStyle? = nil
        var gpuDash: [Double] = []
        if stroke != nil {
            let cap: CGLineCap = st.lineCap == .round ? .round : st.lineCap == .square ? .square : .butt
            let join: CGLineJoin = st.lineJoin == .round ? .round : st.lineJoin == .bevel ? .bevel : .miter
            style = ShapeStrokeStyle(halfWidth: Double(st.lineWidth) / 2, cap: cap, join: join,
                                     miterLimit: max(Double(st.miterLimit), 0))
            if let pattern = st.lineDashPattern, !pattern.isEmpty {
                let values = pattern.map { $0.doubleValue }
                if values.contains(where: { !$0.isFinite || $0 < 0 }) || values.reduce(0, +) <= 0 {
                    RenderDiagnostics.warn("CAShapeLayer.lineDashPattern \(values) has negative, non-finite or only zero lengths: the stroke is drawn solid")
                } else {
                    let full = values.count % 2 == 1 ? values + values : values
                    if full.count <= Self.maxShaderDashEntries {
                        gpuDash = full
                    } else {
                        style!.cpuDash = full
                        style!.cpuDashPhase = Double(st.lineDashPhase)
                    }
                }
            }
        }
        return ShapeDrawSpec(path: path, fill: fill, evenOdd: st.fillRule == .evenOdd, stroke: stroke, style: style,
                             trim: (s0, s1), gpuDash: gpuDash, dashPhase: Double(st.lineDashPhase))
    }

    /// Draws a resolved shape into the current pass (a layer's path, or a shadow path filled
    /// in one colour).
    func emitShape(_ spec: ShapeDrawSpec, h: Homography, clip: Int32, opacity: Float, into out: FrameWriter) {
        guard let placed = shapeRaster(spec, h: h, passRect: out.passRect) else { return }
        let entry = placed.entry, variant = placed.variant, needsField = placed.readsField
        let texelsPerUnit = placed.texelsPerUnit
        var stroke = spec.stroke ?? .zero
        // N3: strokeStart ≥ strokeEnd shows no stroke. The raster keeps it (and its field), so a
        // strokeEnd animation starting from 0 makes no new raster when the stroke appears.
        if spec.trim.0 >= spec.trim.1 { stroke = .zero }
        let L = entry.totalLength
        let trimStart: Float = spec.trim.0 <= 0 ? -1e30 : Float(spec.trim.0 * L)
        let trimEnd: Float = spec.trim.1 >= 1 ? 1e30 : Float(spec.trim.1 * L)
        var dash = SIMD4<Float>.zero
        for (i, v) in spec.gpuDash.prefix(4).enumerated() { dash[i] = Float(v) }
        let capCode: Float = spec.style?.cap == .round ? 1 : spec.style?.cap == .square ? 2 : 0
        let hwTexels = Float(spec.style.map { $0.texelHalfWidth(texelsPerUnit) } ?? 0)
        let phase = spec.dashPhase.isFinite ? spec.dashPhase : 0
        // The field's place (exact field) or decoding (compact field, in the coverage texel).
        var fieldXY = entry.compactField ? SIMD2(Float(entry.fieldScale.x), Float(entry.fieldScale.y)) : SIMD2(Float(entry.fx), Float(entry.fy))
        var region = SIMD4(Float(entry.x), Float(entry.y), Float(entry.width), Float(entry.height))
        var toPixels = placed.toPixels
        if cutsTrimmedStrokes, stroke != .zero, let cut = trimmedRegion(spec, placed, h: h) {
            // Drawn from texel (x, y) of the raster on: the quad, the coverage and an exact
            // field all start there; a compact field's decoding does not move.
            region = SIMD4(region.x + Float(cut.x), region.y + Float(cut.y), Float(cut.w), Float(cut.h))
            toPixels = Homography(r0: toPixels.r0, r1: toPixels.r1, r2: toPixels.r2 + Double(cut.x) * toPixels.r0 + Double(cut.y) * toPixels.r1)
            if !entry.compactField { fieldXY += SIMD2(Float(cut.x), Float(cut.y)) }
        }
        let p = toPixels.packed(SIMD3(opacity, Float(clip), 0))
        let inst = ShapeInstance(h0: p.0, h1: p.1, h2: p.2,
                                 region: region,
                                 fill: spec.fill ?? .zero, stroke: stroke,
                                 trim: SIMD4(fieldXY.x, fieldXY.y, trimStart, trimEnd), dash: dash,
                                 params: SIMD4(hwTexels, Float(texelsPerUnit), capCode + 4 * Float(spec.gpuDash.count), Float(phase)))
        out.frame.shapes.append(inst)
        let page = cache.pageIndex(id: entry.page) ?? 0
        // A raster made with a field also serves frames that cut nothing: those skip the field.
        var fieldPage = -1
        var v = variant
        if clip != 0 { v.insert(.clip) }
        if needsField {
            if entry.compactField {
                v.insert(.shapeField)
            } else if entry.fieldPage >= 0, let fp = cache.pageIndex(id: entry.fieldPage) {
                fieldPage = fp
                v.insert(.shapeWideField)
                if entry.widthFree != nil { v.insert(.shapeWidthField) }
            }
            // (A width-free raster whose field found no room in the atlas has no stroke to draw.)
            if entry.widthFree != nil, fieldPage < 0 { out.frame.shapes[out.frame.shapes.count - 1].stroke = .zero }
            if fieldPage >= 0 || entry.compactField {
                if !spec.gpuDash.isEmpty { v.insert(.shapeDash) }
                if spec.style?.cap == .round { v.insert(.shapeRoundCap) }
            }
        }
        out.appendBatch(.shape(page: page, fieldPage: fieldPage), variant: v, index: out.frame.shapes.count - 1)
    }

    /// A shape's raster as this frame draws it.
    struct PlacedRaster {
        var entry: ShapeCache.Entry
        /// The raster's texels → frame pixels.
        var toPixels: Homography
        /// Texels per layer unit (stroke widths and dash lengths are in layer units).
        var texelsPerUnit: Double
        var variant: ShaderVariant
        /// This frame's trims or dashes cut the stroke, or the raster is width-free: the shader
        /// reads the arc-length field.
        var readsField: Bool
    }

    /// The cached raster for a shape at this placement (made now if missing) and how it is drawn.
    func shapeRaster(_ spec: ShapeDrawSpec, h: Homography, passRect pass: CGRect) -> PlacedRaster? {
        // Keyed, measured and rasterised as the one object for its content (small paths).
        var spec = spec
        spec.path = cache.canonicalPath(spec.path)
        let needsField = spec.stroke != nil && (spec.trim.0 > 0 || spec.trim.1 < 1 || spec.trim.0 >= spec.trim.1 || !spec.gpuDash.isEmpty)
        var map: TexelMap
        var toPixels: Homography
        var subTexel = SIMD2<Double>.zero
        // Not `[]`: an array literal builds the option set through the standard library's
        // generic `SetAlgebra.init(_:)`, unspecialised across the module boundary (3 % of the
        // render tree's samples for 1,000 shapes, docs/PERFORMANCE.md).
        var variant = ShaderVariant(rawValue: 0)
        var limit: SIMD4<Int>? = nil
        var familyLimit: SIMD4<Int>? = nil
        /// The path's box in texels and the visible texel rectangle (affine placements).
        var visible: (lo: SIMD2<Double>, hi: SIMD2<Double>, rect: SIMD4<Int>)? = nil
        /// The visible texel rectangle when paint reaching this far (texels) beyond the path's
        /// box could leave it; nil when it cannot. (A local function, not a closure: this runs
        /// for every shape of every frame, and a closure's context is an allocation.)
        func limitFor(_ reach: Double) -> SIMD4<Int>? {
            guard let (lo, hi, l) = visible else { return nil }
            return lo.x - reach < Double(l.x) || lo.y - reach < Double(l.y) || hi.x + reach > Double(l.z) || hi.y + reach > Double(l.w) ? l : nil
        }
        var intOffset = SIMD2<Double>.zero
        let pathBox = cache.boundingBox(of: spec.path)   // control points included: a conservative bound
        guard !pathBox.isNull else { return nil }
        if h.isAffine {
            let w = h.r2.z
            let m = TexelMap(a: h.r0.x / w, b: h.r0.y / w, c: h.r1.x / w, d: h.r1.y / w, tx: h.r2.x / w, ty: h.r2.y / w)
            guard m.tx.isFinite, m.ty.isFinite, abs(m.tx) < 1e9, abs(m.ty) < 1e9 else { return nil }
            var ix = m.tx.rounded(.down), iy = m.ty.rounded(.down)
            subTexel = SIMD2(((m.tx - ix) * 4).rounded() / 4, ((m.ty - iy) * 4).rounded() / 4)
            // A quarter step that rounds up to a whole texel is the next texel's 0: one raster.
            if subTexel.x == 1 { subTexel.x = 0; ix += 1 }
            if subTexel.y == 1 { subTexel.y = 0; iy += 1 }
            intOffset = SIMD2(ix, iy)
            map = m
            map.tx = subTexel.x; map.ty = subTexel.y
            // Entries within 1e-12 of the scale are rounding (sin π is 1.2e-16, not 0): made 0,
            // so a turn by a multiple of 90° keys as the exact turn does (the raster moves by at
            // most 1e-12 texels across its width).
            let tiny = 1e-12 * max(abs(m.a), abs(m.b), abs(m.c), abs(m.d))
            if abs(map.a) < tiny { map.a = 0 }
            if abs(map.b) < tiny { map.b = 0 }
            if abs(map.c) < tiny { map.c = 0 }
            if abs(map.d) < tiny { map.d = 0 }
            // A path that is its own half turn covers the same texels under the map and its
            // negation: one raster for both, under the map whose first non-zero entry is
            // positive (`CGPath.pointSymmetryError`; within 1/64 texel, an eighth of what the
            // quarter-texel key already allows). Not where the stroke is cut along its length
            // (trims, dashes, the arc-length field), which starts elsewhere after the turn.
            if map.a < 0 || (map.a == 0 && map.b < 0), spec.geometricTrim == nil, spec.gpuDash.isEmpty, spec.style?.cpuDash == nil,
               !needsField, let error = cache.pointSymmetryError(spec.path), error * map.maxScale <= 1.0 / 64 {
                map.a = -map.a; map.b = -map.b; map.c = -map.c; map.d = -map.d
            }
            toPixels = Homography(r0: SIMD3(1, 0, 0), r1: SIMD3(0, 1, 0), r2: SIMD3(ix, iy, 1))
            // The visible part of the pass, relative to the integer translation; only part of
            // the key when the shape could reach outside it.
            let l = SIMD4(Int(pass.minX - ix) - 2, Int(pass.minY - iy) - 2, Int(pass.maxX - ix) + 2, Int(pass.maxY - iy) + 2)
            let q0 = map.apply(CGPoint(x: pathBox.minX, y: pathBox.minY)), q1 = map.apply(CGPoint(x: pathBox.maxX, y: pathBox.minY))
            let q2 = map.apply(CGPoint(x: pathBox.minX, y: pathBox.maxY)), q3 = map.apply(CGPoint(x: pathBox.maxX, y: pathBox.maxY))
            visible = (pointwiseMin(pointwiseMin(q0, q1), pointwiseMin(q2, q3)), pointwiseMax(pointwiseMax(q0, q1), pointwiseMax(q2, q3)), l)
            limit = limitFor(shapeReach(spec) * map.maxScale + 4)
        } else {
            // Perspective: rasterise in the layer's plane at about the largest on-screen scale
            // (quantised to quarter octaves so a moving camera does not re-rasterise every
            // frame), and let the quad's homography and bilinear sampling place it.
            let grown = pathBox.insetBy(dx: -CGFloat(shapeReach(spec)), dy: -CGFloat(shapeReach(spec)))
            guard let px = h.boundingBox(of: grown), grown.width > 0 || grown.height > 0 else { return nil }
            var sc = max(px.width / max(grown.width, 1e-9), px.height / max(grown.height, 1e-9))
            sc = pow(2, (log2(max(sc, 1e-6)) * 4).rounded(.up) / 4)
            sc = min(sc, 2048 / max(grown.width, grown.height, 1e-9))
            guard sc.isFinite, sc > 0 else { return nil }
            map = TexelMap(a: sc, b: 0, c: 0, d: sc, tx: 0, ty: 0)
            toPixels = Homography(r0: h.r0 / sc, r1: h.r1 / sc, r2: h.r2)
            variant.insert(.projective)
        }
        var key = ShapeCache.Key(path: ObjectIdentifier(spec.path), map: SIMD4(map.a, map.b, map.c, map.d), subTexel: subTexel,
                                 fill: spec.fill != nil, evenOdd: spec.evenOdd, stroke: spec.stroke == nil ? nil : spec.style,
                                 field: needsField, wideField: variant.contains(.projective), limit: limit,
                                 trim: spec.geometricTrim.map { SIMD2($0.0, $0.1) })
        var entry: ShapeCache.Entry
        var style = spec.stroke == nil ? nil : spec.style
        // Mitered corners: the raster depends on the miter limit only through which corners it
        // miters, so it is kept under a canonical limit (an animated miterLimit then rasterises
        // again only when a corner switches between miter and bevel). Made before the raster
        // is looked for, so one key finds it: the corners' ratios come from the cached
        // centreline (the same flattening, so the same ratios, in increasing order, which the
        // limit does not depend on).
        if var st = style, st.join == .miter, st.cpuDash == nil {
            let tol = ShapeRasterizer.tolerance / max(map.maxScale, 1e-12)
            st.miterLimit = PieceStroker.canonicalMiterLimit(st.miterLimit, ratios: cache.centreline(of: spec.path, tolerance: tol).miterRatios)
            style = st
            key.stroke = st
            // (The reach, and so whether the raster is cut to the visible part, follows.)
            var canonical = spec
            canonical.style = st
            key.limit = limitFor(shapeReach(canonical) * map.maxScale + 4)
            limit = key.limit
        }
        // A raster with the field serves untrimmed frames as well (trims at ±1e30), so the last
        // frame of a strokeEnd animation reuses it instead of rasterising without the field. (Not
        // a stroke trimmed in its geometry: no raster of it has a field.)
        var withField = key
        withField.field = spec.stroke != nil
        let asksWithField = withField.field != key.field && key.trim == nil
        let hwTexels = style.map { $0.texelHalfWidth(map.maxScale) } ?? 0
        var widthFree: Double? = nil
        var family: ShapeCache.Key? = nil
        // (While lineWidth animates, an exact raster that happens to exist for this width is not
        // used: the frame would then depend on what was rendered before.)
        if !spec.widthAnimates, let e = (asksWithField ? cache.lookup(withField) : nil) ?? cache.lookup(key) {
            entry = e
        } else {
            // A stroke whose lineWidth animates is drawn from a width-free raster (see
            // `ShapeRasterizer.widthFreeAllowed`) made for the power of two at or above its half
            // width in texels: a handful of rasters over a whole animation, and the same raster
            // whatever frames came before (a frame rendered alone, or by another shard, is the
            // same frame).
            if spec.widthAnimates, let st = style, st.halfWidth > 0, hwTexels > 0 {
                var bucket = pow(2, max(log2(hwTexels), 0).rounded(.up))
                // Known bounds: one raster for the widest width (to a quarter texel), so the
                // shape never re-rasterises, and never leaves its batch, while the width moves;
                // not where the widest is far past this frame's width (the band would cost more
                // than the rasters it saves).
                if let bounds = spec.widthBounds {
                    let widest = max(bounds.upperBound / 2 * map.maxScale, hwTexels)
                    if widest <= max(4 * hwTexels, 16) { bucket = max((widest * 4).rounded(.up) / 4, 1) }
                }
                // Its reach: the bucket's half width (a square cap's corner), no miter beyond it.
                familyLimit = limitFor(bucket * 2.0.squareRoot() + 4)
                family = ShapeCache.widthFamily(key, limit: familyLimit, bucket: bucket)
                if let family, cache.refusedWidthFamilies.isEmpty || !cache.refusedWidthFamilies.contains(family) { widthFree = bucket }
            }
            // (Without a width-free raster, the lookup above already missed.)
            if widthFree == nil, spec.widthAnimates, let e = (asksWithField ? cache.lookup(withField) : nil) ?? cache.lookup(key) {
                entry = e
            } else if widthFree != nil, let family, let e = cache.lookup(family) {
                entry = e
            } else {
                let lim = (widthFree != nil ? familyLimit : limit).map { ($0.x, $0.y, $0.z, $0.w) }
                    ?? (-1_000_000_000, -1_000_000_000, 1_000_000_000, 1_000_000_000)
                var request = ShapeRasterizer.Request(path: spec.path, fill: spec.fill != nil, evenOdd: spec.evenOdd,
                                                      stroke: style, field: needsField || widthFree != nil,
                                                      wideField: variant.contains(.projective), map: map, limit: lim,
                                                      widthFree: widthFree,
                                                      workLimit: max(cache.frameWorkBudget - cache.workThisFrame - cache.deferredWork, 0),
                                                      sparse: makesRuns)
                request.trim = spec.geometricTrim
                let runsBox = makesRuns && widthFree == nil && !needsField ? visible.flatMap { runsRasterBox(spec, style: style, map: map, visible: $0, limit: lim) } : nil
                request.box = runsBox?.box
                if defersRasters, let b = runsBox, let e = cache.reserve(key, path: spec.path, request: request, box: b.box, estimate: b.estimate) {
                    // (Made beside the walk; placed now by its box.)
                    entry = e
                } else {
                    let start = DispatchTime.now().uptimeNanoseconds
                    let result = ShapeRasterizer.rasterize(request, scratch: &cache.rasterScratch, resolveBuffer: &cache.resolveScratch,
                                                           pool: &cache.bytePool)
                    cache.rasterSecondsThisFrame += Double(DispatchTime.now().uptimeNanoseconds - start) * 1e-9
                    switch result {
                    case .failure(.tooComplex(let n)):
                        RenderDiagnostics.warn("a CAShapeLayer path with \(n) segments exceeds the limit of \(ShapeRasterizer.maxSegments): it is not drawn")
                        return nil
                    case .failure(.empty):
                        return nil
                    case .failure(.overBudget):
                        // Spent: what is left is the deferred rasters' (their limits).
                        cache.workThisFrame = cache.frameWorkBudget - cache.deferredWork
                        RenderDiagnostics.warn("a frame's shape rasterising work budget (\(cache.frameWorkBudget) cells) is spent: shapes whose raster does not fit are not drawn in that frame")
                        return nil
                    case .success(let r):
                        cache.rastersThisFrame += 1
                        cache.workThisFrame += r.work
                        cache.segmentsThisFrame += r.segments
                        if let family, widthFree != nil, r.widthFree == nil {
                            // A path or placement that cannot have a width-free raster is not asked again.
                            if cache.refusedWidthFamilies.count >= ShapeCache.maxWidthFamilies { cache.refusedWidthFamilies.removeAll() }
                            cache.refusedWidthFamilies.insert(family)
                        }
                        guard let e = cache.insert(r.widthFree != nil ? family! : key, path: spec.path, raster: r) else { return nil }
                        entry = e
                    }
                }
            }
        }
        let readsField = needsField || entry.widthFree != nil
        if variant.contains(.projective) {
            // texel → plane (÷ scale, then + origin / scale) → pixels
            let ox = Double(entry.originX), oy = Double(entry.originY)
            let t = toPixels
            return PlacedRaster(entry: entry, toPixels: Homography(r0: t.r0, r1: t.r1, r2: t.r2 + ox * t.r0 + oy * t.r1),
                                texelsPerUnit: map.a, variant: variant, readsField: readsField)
        }
        return placed(entry, variant: variant, toPixels: toPixels, intOffset: intOffset, texelsPerUnit: map.maxScale, readsField: readsField)
    }

    /// An affine placement's raster: texel (0, 0) sits at the entry's origin in the placement's
    /// texel space, which the integer translation puts on the target.
    private func placed(_ entry: ShapeCache.Entry, variant: ShaderVariant, toPixels: Homography, intOffset: SIMD2<Double>,
                        texelsPerUnit: Double, readsField: Bool) -> PlacedRaster {
        let placed = Homography(r0: toPixels.r0, r1: toPixels.r1, r2: SIMD3(intOffset.x + Double(entry.originX), intOffset.y + Double(entry.originY), 1))
        return PlacedRaster(entry: entry, toPixels: placed, texelsPerUnit: texelsPerUnit, variant: variant, readsField: readsField)
    }

    /// The box of a plain raster made as runs (affine placement, no field), fixed before it is
    /// made (`ShapeRasterizer.Request.box`), and its area work: the box
    /// `ShapeRasterizer.rasterize` would find from the flattened points, found from the path's
    /// control points instead (a curve lies inside its control points, so the box holds the
    /// raster): the fill's points grown by a texel, the stroke's by its reach and 2 texels, cut
    /// to `limit`; for a stroke trimmed in its geometry, from the trimmed pieces' own points.
    /// Such a raster can be placed before it is made, and made on another thread
    /// (`ShapeCache.reserve`); made here or there, it is the same raster in the same box, so
    /// whether a frame defers its rasters changes no pixel. Nil where the box is not usable
    /// (empty, not finite, wider than runs hold): the raster then finds its own.
    private func runsRasterBox(_ spec: ShapeDrawSpec, style: ShapeStrokeStyle?, map: TexelMap,
                               visible: (lo: SIMD2<Double>, hi: SIMD2<Double>, rect: SIMD4<Int>),
                               limit lim: (Int, Int, Int, Int)) -> (box: (Int, Int, Int, Int), estimate: Int)? {
        guard spec.path.elements.count <= ShapeRasterizer.maxSegments else { return nil }
        var pad = spec.fill != nil ? 1.0 : 0
        if let s = style {
            let hw = s.texelHalfWidth(max(map.maxScale, 1e-12))
            var reach = hw * (s.cap == .square ? 2.0.squareRoot() : 1)
            if s.join == .miter { reach = max(reach, hw * max(s.miterLimit, 1)) }
            pad = max(pad, reach + 2)
        }
        var lo = visible.lo - pad, hi = visible.hi + pad
        if let t = spec.geometricTrim, style != nil {
            // A stroke trimmed in its geometry: the box of the pieces its raster is made of
            // (`StrokeTrim`'s points over the cached centreline, the raster's own flattening),
            // grown as the rasteriser grows them: the box it would find itself, which is the
            // trim's part of the path's box (a dot travelling along a line rasterised, drew and
            // cleared its whole line's box every frame, issue 23).
            let line = cache.centreline(of: spec.path, tolerance: ShapeRasterizer.tolerance / max(map.maxScale, 1e-12))
            var l = SIMD2(Double.infinity, Double.infinity), h = -l
            StrokeTrim.forEachPoint(line.subpaths, from: t.0, to: t.1) { p in
                let q = map.apply(p)
                guard q.x.isFinite, q.y.isFinite else { return }
                l = pointwiseMin(l, q - pad); h = pointwiseMax(h, q + pad)
            }
            guard l.x <= h.x, l.y <= h.y else { return nil }
            (lo, hi) = (l, h)
        }
        guard lo.x.isFinite, lo.y.isFinite, hi.x.isFinite, hi.y.isFinite else { return nil }
        let x0 = max(Int(max(lo.x, -1e9).rounded(.down)), lim.0), y0 = max(Int(max(lo.y, -1e9).rounded(.down)), lim.1)
        let x1 = min(Int(min(hi.x, 1e9).rounded(.up)), lim.2), y1 = min(Int(min(hi.y, 1e9).rounded(.up)), lim.3)
        let w = x1 - x0, h = y1 - y0
        guard w > 0, h > 0, w <= ShapeCoverageSpans.maximumSide, h <= ShapeCoverageSpans.maximumSide else { return nil }
        return ((x0, y0, x1, y1), w * h * (1 + (spec.fill != nil ? 1 : 0) + (style != nil ? 1 : 0)))
    }

    /// How far a shape's paint can reach beyond its path's points, in layer units.
    func shapeReach(_ spec: ShapeDrawSpec) -> Double {
        guard spec.stroke != nil, let s = spec.style else { return 0 }
        var r = s.halfWidth * (s.cap == .square ? 2.0.squareRoot() : 1)
        if s.join == .miter { r = max(r, s.halfWidth * max(s.miterLimit, 1)) }
        return r
    }

    /// Pixel bounds of what a shape layer paints (isolated subtrees size their targets by it:
    /// a shape's path is not limited to the layer's bounds).
    func shapeBounds(_ copy: CALayer, h: Homography) -> CGRect? {
        guard let shape = copy as? CAShapeLayer, let spec = shapeSpec(shape) else { return nil }
        let box = spec.path.boundingBox
        guard !box.isNull else { return nil }
        let r = CGFloat(shapeReach(spec)) + 1
        return h.boundingBox(of: box.insetBy(dx: -r, dy: -r))
    }

    /// Attaches the atlas pages and this frame's uploads to the frame.
    func finishFrame(_ out: FrameWriter) {
        let start = DispatchTime.now().uptimeNanoseconds
        cache.makeDeferredRasters()
        cache.rasterSecondsThisFrame += Double(DispatchTime.now().uptimeNanoseconds - start) * 1e-9
        out.frame.shapePages = cache.livePages
        out.frame.shapeUploads = cache.takeUploads()
        out.stats.shapeRasters = cache.rastersThisFrame
        lastFrameRasters = cache.rastersThisFrame
        out.stats.shapeSegments = cache.segmentsThisFrame
        out.stats.shapeRasterSeconds = cache.rasterSecondsThisFrame
    }
}
