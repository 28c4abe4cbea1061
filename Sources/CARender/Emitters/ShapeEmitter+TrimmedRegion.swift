import CoreGraphics
import CAFrame

extension ShapeEmitter {
    /// The part of a trimmed stroke's raster that the trim can leave drawn, as texels
    /// (x, y, w, h) of the raster, or nil to draw it whole.
    ///
    /// A raster with the arc-length field holds the whole stroke; the draw cuts it to
    /// [strokeStart, strokeEnd] per pixel (`ArcLengthField`; shape.frag's `strokeCut`). A pixel
    /// it leaves drawn lies within the stroke's reach (half width, square cap or miter) of its
    /// nearest centreline point, whose arc length is within the range, widened by what a cap
    /// drawn at a cut adds. So the box of the centreline between those lengths, grown by the
    /// reach, holds every drawn pixel, and the rest of the raster need not be visited: a dot
    /// travelling along a long line (TwitterHeart's fourteen; Lottie's trim paths) drew its
    /// whole line's box every frame (issue 23).
    ///
    /// Only where nothing else is drawn from the raster (no fill, no dash, whose pieces restart
    /// per subpath) and the placement is affine (texels are pixels); and only when the part is
    /// well under the whole.
    func trimmedRegion(_ spec: ShapeDrawSpec, _ placed: PlacedRaster, h: Homography) -> (x: Int, y: Int, w: Int, h: Int)? {
        guard placed.readsField, spec.fill == nil, let style = spec.style, style.cpuDash == nil, spec.gpuDash.isEmpty,
              spec.trim.0 > 0 || spec.trim.1 < 1, spec.trim.0 < spec.trim.1,
              !placed.variant.contains(.projective), h.isAffine else { return nil }
        let entry = placed.entry
        let tpu = placed.texelsPerUnit
        let total = entry.totalLength
        guard tpu > 0, tpu.isFinite, total > 0, total.isFinite, entry.width > 0, entry.height > 0 else { return nil }
        let line = cache.centreline(of: spec.path, tolerance: ShapeRasterizer.tolerance / tpu)
        // Reach in texels: the widest the stroke can paint from its centreline (the width-free
        // raster's bucket included) times what a square cap or a mitered corner adds, and two
        // texels for the antialiased edge and the raster's quarter-texel placement.
        let hw = max(style.texelHalfWidth(tpu), entry.widthFree ?? 0)
        var factor = style.cap == .square ? 2.0.squareRoot() : 1
        if style.join == .miter, let r = line.miterRatios.last(where: { $0 <= style.miterLimit }) { factor = max(factor, r) }
        let reach = hw * factor + 2
        guard reach.isFinite else { return nil }
        // The range in layer units, widened by a cap drawn at each cut and by a hundredth of
        // the length for a centreline flattened a little differently from the raster's.
        let margin = (hw * (style.cap == .square ? 2.0.squareRoot() : 1) + 2) / tpu + 0.01 * total
        let lo = spec.trim.0 * total - margin, hi = spec.trim.1 * total + margin
        let w = h.r2.z
        let m = TexelMap(a: h.r0.x / w, b: h.r0.y / w, c: h.r1.x / w, d: h.r1.y / w, tx: h.r2.x / w, ty: h.r2.y / w)
        // Texel (0, 0) of the raster on the target.
        let origin = SIMD2(placed.toPixels.r2.x, placed.toPixels.r2.y)
        var bmin = SIMD2(Double.infinity, Double.infinity), bmax = -bmin
        func include(_ p: CGPoint) {
            let q = m.apply(p) - origin
            bmin = pointwiseMin(bmin, q); bmax = pointwiseMax(bmax, q)
        }
        // The centreline's pieces between the widened lengths (`StrokeTrim`, which measures
        // them as the raster's field does).
        for piece in StrokeTrim.trimmed(line.subpaths, from: max(lo / total, 0), to: min(hi / total, 1)) {
            for p in piece.points { include(p) }
        }
        guard bmin.x <= bmax.x, bmin.y <= bmax.y, bmin.x.isFinite, bmin.y.isFinite, bmax.x.isFinite, bmax.y.isFinite else { return nil }
        // (Saturating: a hostile width or coordinate can be any finite size.)
        let x0 = max(Int.clamped((bmin.x - reach).rounded(.down)), 0), y0 = max(Int.clamped((bmin.y - reach).rounded(.down)), 0)
        let x1 = min(Int.clamped((bmax.x + reach).rounded(.up)), entry.width), y1 = min(Int.clamped((bmax.y + reach).rounded(.up)), entry.height)
        guard x1 > x0, y1 > y0 else { return nil }
        // Not worth a different region for a small saving.
        guard (x1 - x0) * (y1 - y0) * 4 < entry.width * entry.height * 3 else { return nil }
        return (x0, y0, x1 - x0, y1 - y0)
    }
}
