// Putting colour on the target surface: coverage × clip × alpha, the blend mode, and the shadow.
// Every painting call (fills, strokes, clears aside; gradients, images, transparency layers)
// ends here.

/// What is painted through a coverage mask.
package enum PaintSource {
    /// One premultiplied colour.
    case solid(SIMD4<Float>)
    /// A premultiplied colour per raster pixel (x, y: the pixel's integer index, row 0 at the top).
    case shader((Int, Int) -> SIMD4<Float>)

    @inline(__always) func color(_ x: Int, _ y: Int) -> SIMD4<Float> {
        switch self {
        case .solid(let c): c
        case .shader(let f): f(x, y)
        }
    }
}

extension CGContext {
    /// Paints `source` onto the target with the current alpha, blend mode, clip and shadow (the
    /// shadow first, under the drawing, as Apple's). `coverage` gives the shape's coverage over
    /// a pixel box: the drawable box for the drawing itself, and, with a shadow, the box whose
    /// shape casts a shadow into the drawable box (which may lie outside the bitmap).
    package func paint(_ source: PaintSource, coverage: (PixelBox) -> CoverageMask?) {
        if let shadow = gstate.shadow, shadow.color.w > 0 {
            let g = shadowGeometry(shadow)
            let b = drawableBox
            let casting = PixelBox(x0: b.x0 &- g.dx &- g.pad, y0: b.y0 &- g.dy &- g.pad,
                                   x1: b.x1 &- g.dx &+ g.pad, y1: b.y1 &- g.dy &+ g.pad)
            if let m = coverage(casting) { paintShadow(shadow, of: m, source) }
        }
        guard let mask = coverage(drawableBox) else { return }
        composite(mask, source, mode: gstate.blendMode, alpha: gstate.alpha)
    }

    /// The compositing loop: for each covered pixel, R = mode(S·alpha, D), then
    /// D' = D + (R − D)·coverage·clip. Mixing by coverage is how Core Graphics limits every mode
    /// (the Porter-Duff ones included) to the shape being drawn: `copy` with a rect replaces the
    /// rect, not the bitmap.
    package func composite(_ mask: CoverageMask, _ source: PaintSource, mode: CGBlendMode, alpha: Float) {
        let surface = target
        let clip = gstate.clip
        let box = PixelBox(x0: mask.x0, y0: mask.y0, x1: mask.x0 + mask.width, y1: mask.y0 + mask.height)
            .intersection(PixelBox(x0: 0, y0: 0, x1: surface.width, y1: surface.height))
        guard !box.isEmpty else { return }
        if case .solid(let color) = source, mode == .normal, case .rgba32(let ro, let go, let bo, let ao) = surface.layout {
            compositeSolidOver(mask, box: box, color: color * alpha, surface: surface, clip: clip,
                               offsets: SIMD4(ro, go, bo, ao ?? -1))
            return
        }
        mask.values.withUnsafeBufferPointer { m in
            for y in box.y0..<box.y1 {
                let mrow = (y - mask.y0) * mask.width - mask.x0
                for x in box.x0..<box.x1 {
                    var c = m[mrow + x]
                    if let clip { c *= clip.value(x, y) }
                    guard c > 0 else { continue }
                    let s = source.color(x, y) * alpha
                    let d = surface.load(x, y)
                    let r = mode == .normal ? s + d * (1 - s.w) : mode.blend(s, d)
                    surface.store(c >= 1 ? r : d + (r - d) * c, x, y)
                }
            }
        }
    }

    /// The common case, a solid colour in `.normal` mode onto 32-bit RGB(A): D' = D·(1 − Sα·c) + S·c
    /// in the 0…255 domain, with the byte offsets read once (`offsets.w` < 0: no alpha byte).
    private func compositeSolidOver(_ mask: CoverageMask, box: PixelBox, color: SIMD4<Float>, surface: BitmapSurface,
                                    clip: ClipMask?, offsets: SIMD4<Int>) {
        let s255 = color * 255
        let sa = color.w
        let (ro, go, bo, ao) = (offsets.x, offsets.y, offsets.z, offsets.w)
        let opaque = sa >= 1
        let rounded = s255 + 0.5
        let solid = (UInt8(Swift.min(rounded.x, 255)), UInt8(Swift.min(rounded.y, 255)), UInt8(Swift.min(rounded.z, 255)))
        // Translucent fills of many pixels: where coverage is 1 the result depends on the
        // destination byte alone, so the formula below is tabulated once per channel (256
        // entries, the same float operations, so the same bytes) and fully covered pixels are
        // four table reads (issue 19's drawing benchmark: the per-pixel float blend was half of
        // 10,000 translucent rounded rects' time).
        let area = (box.x1 - box.x0) * (box.y1 - box.y0)
        let table: [UInt8]? = opaque || area < 2048 ? nil : (0..<4).flatMap { ch -> [UInt8] in
            (0..<256).map { d in
                let o = Float(d) * (1 - sa * 1) + s255[ch] * 1 + 0.5
                return UInt8(o)
            }
        }
        mask.values.withUnsafeBufferPointer { m in
            for y in box.y0..<box.y1 {
                let mrow = (y - mask.y0) * mask.width - mask.x0
                let row = (surface.base + y * surface.bytesPerRow).assumingMemoryBound(to: UInt8.self)
                for x in box.x0..<box.x1 {
                    var c = m[mrow + x]
                    if let clip { c *= clip.value(x, y) }
                    guard c > 0 else { continue }
                    let p = row + x * 4
                    if c >= 1, opaque {
                        p[ro] = solid.0; p[go] = solid.1; p[bo] = solid.2
                        if ao >= 0 { p[ao] = 255 }
                        continue
                    }
                    if c >= 1, let table {
                        p[ro] = table[Int(p[ro])]; p[go] = table[256 + Int(p[go])]; p[bo] = table[512 + Int(p[bo])]
                        if ao >= 0 { p[ao] = table[768 + Int(p[ao])] }
                        continue
                    }
                    let k = c < 1 ? c : 1
                    let d = SIMD4<Float>(Float(p[ro]), Float(p[go]), Float(p[bo]), ao >= 0 ? Float(p[ao]) : 255)
                    // Premultiplied S (S.rgb ≤ Sα) keeps every lane within 0…255: no clamp needed.
                    let o = d * (1 - sa * k) + s255 * k + 0.5
                    p[ro] = UInt8(o.x); p[go] = UInt8(o.y); p[bo] = UInt8(o.z)
                    if ao >= 0 { p[ao] = UInt8(o.w) }
                }
            }
        }
    }
}
