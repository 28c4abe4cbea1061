// Drawing images (CGContextDrawImage, CGContextDrawTiledImage). The image fills `rect` in user
// space upright: its first row (row 0, the top of the image) along the rect's top edge (maxY in
// Apple's y-up space). Each device pixel samples the image at its centre mapped back through
// the CTM: nearest pixel with `interpolationQuality == .none` (or an image made with
// `shouldInterpolate: false`), bilinear otherwise; edges clamp, tiles wrap.

extension CGContext {
    /// Draws `image` scaled to `rect` (CGContextDrawImage), or repeated in tiles of `rect`'s
    /// size across the whole clip with `byTiling: true` (CGContextDrawTiledImage), the first
    /// tile at `rect`.
    public func draw(_ image: CGImage, in rect: CGRect, byTiling: Bool = false) {
        guard let shader = imageShader(image, in: rect, tiled: byTiling) else { return }
        if byTiling {
            paint(.shader(shader)) { fullCoverage($0, in: $0) }
        } else {
            let p = CGMutablePath()
            p.addRect(rect, transform: gstate.ctm)
            paint(.shader(shader)) { coverage(ofDevicePath: p, evenOdd: false, in: $0) }
        }
    }

    /// The premultiplied colour of `image` drawn in `rect`, per raster pixel; nil when the rect
    /// is empty, not finite, or the CTM is singular.
    package func imageShader(_ image: CGImage, in rect: CGRect, tiled: Bool) -> ((Int, Int) -> SIMD4<Float>)? {
        let r = rect.standardized
        guard !r.isNull, r.width > 0, r.height > 0, r.minX.isFinite, r.minY.isFinite,
              r.width.isFinite, r.height.isFinite else { return nil }
        let ctm = gstate.ctm
        let det = ctm.a * ctm.d - ctm.b * ctm.c
        guard det.isFinite, abs(det) > 1e-12 else { return nil }
        // Raster pixel centre → user space → image pixel space (u right, v down from the top row).
        let inv = ctm.inverted()
        let iw = Double(image.width), ih = Double(image.height)
        let sx = iw / Double(r.width), sy = ih / Double(r.height)
        let H = Double(height)
        let (a, b, c, d, tx, ty) = (Double(inv.a), Double(inv.b), Double(inv.c), Double(inv.d), Double(inv.tx), Double(inv.ty))
        let minX = Double(r.minX), maxY = Double(r.maxY)
        let nearest = gstate.interpolationQuality == .none || !image.shouldInterpolate
        let pixels = image.rgba8Bytes
        let w = image.width, h = image.height
        return { px, py in
            let dx = Double(px) + 0.5, dy = H - (Double(py) + 0.5)
            let ux = a * dx + c * dy + tx, uy = b * dx + d * dy + ty
            var u = (ux - minX) * sx, v = (maxY - uy) * sy
            if tiled {
                u = u - iw * (u / iw).rounded(.down)
                v = v - ih * (v / ih).rounded(.down)
            }
            @inline(__always) func texel(_ i: Int, _ j: Int) -> SIMD4<Float> {
                var i = i, j = j
                if tiled {
                    i = ((i % w) + w) % w; j = ((j % h) + h) % h
                } else {
                    i = min(max(i, 0), w - 1); j = min(max(j, 0), h - 1)
                }
                let k = (j * w + i) * 4
                return SIMD4(Float(pixels[k]), Float(pixels[k + 1]), Float(pixels[k + 2]), Float(pixels[k + 3])) * (1 / 255)
            }
            guard u.isFinite, v.isFinite else { return .zero }
            if nearest {
                return texel(Int.clamped(u.rounded(.down)), Int.clamped(v.rounded(.down)))
            }
            let fu = u - 0.5, fv = v - 0.5
            let i0 = fu.rounded(.down), j0 = fv.rounded(.down)
            let tu = Float(fu - i0), tv = Float(fv - j0)
            let i = Int.clamped(i0), j = Int.clamped(j0)
            let top = texel(i, j) * (1 - tu) + texel(i &+ 1, j) * tu
            let bottom = texel(i, j &+ 1) * (1 - tu) + texel(i &+ 1, j &+ 1) * tu
            return top * (1 - tv) + bottom * tv
        }
    }
}
