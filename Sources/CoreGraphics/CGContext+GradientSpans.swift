// Axial gradients painted four pixels at a time (issue 19's drawing speed); the lanes that
// composite and store them (`CPixelKernels`' GradientLanes.h) serve radial gradients too
// (CGContext+RadialGradientSpans.swift). The general painter
// builds a full-coverage mask of the clip's box and calls two closures a pixel (the shader, and
// in it the raster-to-user map). In the common case — normal blend mode, no shadow, a 32-bit
// target with an alpha byte — the rows are painted by `CPixelKernels`' `ca_axial_rows`
// (AxialGradientRows.h), which does the same arithmetic in vector lanes, one lane a pixel: along
// a row the gradient parameter t is affine in x, so four consecutive pixels usually lie in one
// stop segment (or all before the first stop, or all after the last), and their colours are one
// multiply and a multiply-add per channel. Groups that straddle a stop, and a row's last pixels,
// take the general per-pixel expression; groups past an end the options leave unpainted are
// skipped (a clear source gives every pixel back its bytes). The rows were Swift until the
// 200-gradient-rect frame showed 40 % of its time in their per-row closures and retains.
//
// The colours are the general loop's expressions lane by lane (`CGGradient.color(at:)`'s
// interpolation, premultiplication, the context alpha, source-over, the coverage mix, the store's
// rounding; its clamp changes no byte there), so the bytes are the general loop's but for t: a
// row's t is stepped from its first pixel (in `Double` to each group, in `Float` across the
// group's lanes) instead of mapped through the inverse CTM per pixel, and between opaque stops
// the colour itself is stepped along the row from its exact value where the row enters the
// piece (AxialGradientRows.h), which moves a byte by one only where a value sits on a rounding
// boundary (CGGradientSpanTests compares the two, and both with exact colours).
//
// Under a clip path not yet resolved (`ClipMask.path`: a path clipped while nothing else was)
// the rows are not painted through a mask at all: the path is rasterised again and the gradient
// painted from its coverage runs (`ca_axial_walk`), as a solid fill is painted from its own.

import CPixelKernels

extension CGContext {
    /// Paints an axial gradient over the drawable box when the state allows the direct loops;
    /// false (nothing painted) otherwise. Arguments as `drawLinearGradient` has checked them.
    package func paintLinearGradientSpans(_ gradient: CGGradient, sx: Double, sy: Double, dx: Double, dy: Double,
                                          len2: Double, before: Bool, after: Bool) -> Bool {
        let st = gstate
        guard usesSpanLoops, st.blendMode == .normal, st.shadow == nil || st.shadow!.color.w <= 0 else { return false }
        let ctm = st.ctm
        let det = ctm.a * ctm.d - ctm.b * ctm.c
        guard det.isFinite, abs(det) > 1e-12 else { return true }
        let inv = ctm.inverted()
        let (a, b, c, d, tx, ty) = (Double(inv.a), Double(inv.b), Double(inv.c), Double(inv.d), Double(inv.tx), Double(inv.ty))
        let H = Double(height)
        let surface = target
        let box = drawableBox.intersection(PixelBox(x0: 0, y0: 0, x1: surface.width, y1: surface.height))
        guard !box.isEmpty else { return true }
        // t at the first pixel centre of row y, and its step from one pixel to the next.
        let dt = (a * dx + b * dy) / len2
        let rowStart = { (y: Int) -> Double in
            let px = Double(box.x0) + 0.5, py = H - (Double(y) + 0.5)
            let ux = a * px + c * py + tx, uy = b * px + d * py + ty
            return ((ux - sx) * dx + (uy - sy) * dy) / len2
        }
        let ramp = AxialRamp(gradient, alpha: st.alpha, before: before, after: after)
        let clip = st.clip
        guard case .rgba32(let ro, let go, let bo, let ao?) = surface.layout else {
            // Gray, alpha-only and alpha-less targets: one pixel at a time.
            for y in box.y0..<box.y1 {
                let t0 = rowStart(y)
                for x in box.x0..<box.x1 {
                    let cov = clip?.value(x, y) ?? 1
                    guard cov > 0 else { continue }
                    ramp.blend(surface, x, y, t: t0 + Double(x - box.x0) * dt, coverage: cov)
                }
            }
            return true
        }
        // The rows are C (AxialGradientRows.h): the four-pixel groups this file's Swift lanes
        // painted, operation for operation, without their per-row closures and retains; any
        // byte order (the channels' shifts are values there).
        var axis = ca_axial_axis(a: a, b: b, c: c, d: d, tx: tx, ty: ty, height: H, sx: sx, sy: sy, dx: dx, dy: dy,
                                 len2: len2, dt: dt)
        let pixels = surface.base.assumingMemoryBound(to: UInt8.self)
        gradient.withRamp(alpha: ramp.alpha, before: ramp.before, after: ramp.after, shifts: ca_channel_shifts(ro: ro, go: go, bo: bo, ao: ao),
                          wide: widePixelLoops) { stops in
            guard let clip else {
                ca_axial_rows(pixels, surface.bytesPerRow, box.x0, box.y0, box.x1, box.y1, &stops, &axis, nil)
                return
            }
            if let path = clip.path {
                // A clip path not yet resolved (`ClipMask.path`): painted through its
                // coverage runs, with no mask made (AxialGradientRows.h, `ca_axial_walk`).
                withScratchRasterizer { rast in
                    rast.holdsVerticalRunsAfterReset = true
                    guard let cells = rasterize(polygons: path.points, ends: path.ends[...], lo: path.lo, hi: path.hi,
                                                into: &rast, in: box) else { return }
                    let (w, h, stride, words) = (rast.width, rast.height, rast.stride, rast.wordsPerRow)
                    rast.clearingRows(holding: { acc, bits, written, runs, count in
                        var rows = ca_raster_rows(cells: acc, bits: bits, stride: stride, words: words, width: w, height: h,
                                                  evenOdd: path.evenOdd ? 1 : 0, written: written, verticals: runs,
                                                  verticalCount: count)
                        ca_axial_walk(&rows, pixels, surface.bytesPerRow, cells.x0, cells.y0, box.x0, box.y0, box.x1, box.y1,
                                      &stops, &axis)
                    })
                }
                return
            }
            clip.values.withUnsafeBufferPointer { values in
                func rows(_ fullRuns: UnsafePointer<Int32>?) {
                    var mask = ca_clip_mask(values: values.baseAddress, x0: clip.box.x0, y0: clip.box.y0,
                                            x1: clip.box.x1, y1: clip.box.y1, fullRuns: fullRuns)
                    ca_axial_rows(pixels, surface.bytesPerRow, box.x0, box.y0, box.x1, box.y1, &stops, &axis, &mask)
                }
                guard let runs = clip.fullRuns else { return rows(nil) }
                runs.withUnsafeBufferPointer { rows($0.baseAddress) }
            }
        }
        return true
    }
}

extension CGGradient {
    /// The stops as the C rows read them (`ca_axial_ramp`: locations and colours in place, four
    /// floats a colour in `SIMD4<Float>`'s layout), with the context alpha, the extend options,
    /// the target's channel shifts and whether the AVX2 loops may run, for the length of `body`.
    package func withRamp<R>(alpha: Float, before: Bool, after: Bool, shifts: ca_channel_shifts, wide: Bool,
                             _ body: (inout ca_axial_ramp) -> R) -> R {
        locations.withUnsafeBufferPointer { locations in
            colors.withUnsafeBytes { colors in
                var ramp = ca_axial_ramp(locations: locations.baseAddress, colors: colors.baseAddress?.assumingMemoryBound(to: Float.self),
                                         count: locations.count, alpha: alpha, before: before ? 1 : 0, after: after ? 1 : 0,
                                         shifts: shifts, wide: wide ? 1 : 0)
                return body(&ramp)
            }
        }
    }
}

/// A gradient's stops as the span loops read them, with the context alpha and the extend options.
private struct AxialRamp {
    let gradient: CGGradient
    let locations: [Float]
    let colors: [SIMD4<Float>]
    let alpha: Float
    let before: Bool, after: Bool

    init(_ gradient: CGGradient, alpha: Float, before: Bool, after: Bool) {
        self.gradient = gradient
        locations = gradient.locations
        colors = gradient.colors
        self.alpha = alpha
        self.before = before
        self.after = after
    }

    /// The premultiplied source colour (times the alpha) of one pixel: `drawLinearGradient`'s
    /// shader.
    @inline(__always) func source(_ t: Double) -> SIMD4<Float> {
        if t < 0, !before { return .zero }
        if t > 1, !after { return .zero }
        return gradient.color(at: Float(t)) * alpha
    }

    /// The general loop's pixel: source-over, mixed by the coverage, stored.
    @inline(__always) func blend(_ surface: BitmapSurface, _ x: Int, _ y: Int, t: Double, coverage cov: Float) {
        let s = source(t)
        let dst = surface.load(x, y)
        let r = s + dst * (1 - s.w)
        surface.store(cov >= 1 ? r : dst + (r - dst) * cov, x, y)
    }
}

extension ca_channel_shifts {
    /// The shifts of a 32-bit pixel whose r, g, b and a bytes are at these offsets (the word
    /// read little-endian).
    init(ro: Int, go: Int, bo: Int, ao: Int) {
        self.init(r: UInt32(ro * 8), g: UInt32(go * 8), b: UInt32(bo * 8), a: UInt32(ao * 8))
    }
}
