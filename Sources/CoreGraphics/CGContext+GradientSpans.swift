// Axial gradients painted row by row (issue 19's drawing speed): the general painter builds a
// full-coverage mask of the clip's box and calls two closures a pixel (the shader, and in it the
// raster-to-user map); in the common case — normal blend mode, no shadow — this loop does the
// same arithmetic inline, in the same order, so the bytes are the general path's.

extension CGContext {
    /// Paints an axial gradient over the drawable box when the state allows the direct loop;
    /// false (nothing painted) otherwise. Arguments as `drawLinearGradient` has checked them.
    package func paintLinearGradientSpans(_ gradient: CGGradient, sx: Double, sy: Double, dx: Double, dy: Double,
                                          len2: Double, before: Bool, after: Bool) -> Bool {
        let st = gstate
        guard st.blendMode == .normal, st.shadow == nil || st.shadow!.color.w <= 0 else { return false }
        let ctm = st.ctm
        let det = ctm.a * ctm.d - ctm.b * ctm.c
        guard det.isFinite, abs(det) > 1e-12 else { return true }
        let inv = ctm.inverted()
        let (a, b, c, d, tx, ty) = (Double(inv.a), Double(inv.b), Double(inv.c), Double(inv.d), Double(inv.tx), Double(inv.ty))
        let H = Double(height)
        let surface = target
        let box = drawableBox.intersection(PixelBox(x0: 0, y0: 0, x1: surface.width, y1: surface.height))
        guard !box.isEmpty else { return true }
        let clip = st.clip
        let alpha = st.alpha
        for y in box.y0..<box.y1 {
            let py = H - (Double(y) + 0.5)
            for x in box.x0..<box.x1 {
                // composite(): coverage 1 × clip.
                var cov: Float = 1
                if let clip { cov *= clip.value(x, y) }
                guard cov > 0 else { continue }
                // The shader of drawLinearGradient, through rasterToUser().
                let px = Double(x) + 0.5
                let ux = a * px + c * py + tx, uy = b * px + d * py + ty
                let t = ((ux - sx) * dx + (uy - sy) * dy) / len2
                let color: SIMD4<Float>
                if t < 0, !before { color = .zero } else if t > 1, !after { color = .zero } else { color = gradient.color(at: Float(t)) }
                let s = color * alpha
                let dst = surface.load(x, y)
                let r = s + dst * (1 - s.w)
                surface.store(cov >= 1 ? r : dst + (r - dst) * cov, x, y)
            }
        }
        return true
    }
}
