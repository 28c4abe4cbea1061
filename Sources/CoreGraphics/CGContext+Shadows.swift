// Shadows (CGContextSetShadow / SetShadowWithColor). Apple: "Shadow parameters are specified in
// base space … not affected by the current transformation matrix", the offset's height is up
// (y-up base space), and the blur is a Gaussian-like softening whose extent grows with `blur`.
// Here the blur is a Gaussian of standard deviation blur / 2, approximated by three box blurs
// (within a few percent of a true Gaussian), and the offset is rounded to whole pixels.

extension CGContext {
    /// The largest blur applied (device pixels); larger values are clamped to it with a warning
    /// (a blur of 1e9 would otherwise ask for a kernel wider than any bitmap).
    package static let maxShadowBlur: CGFloat = 256

    /// Draws a shadow under everything painted from now on (CGContextSetShadowWithColor):
    /// `offset` and `blur` are in base space (device pixels of the bitmap), unaffected by the
    /// CTM; nil `color` (or a transparent one) turns the shadow off. A negative or NaN blur
    /// counts as 0; NaN/infinite offsets as 0.
    public func setShadow(offset: CGSize, blur: CGFloat, color: CGColor?) {
        guard let color else { gstate.shadow = nil; return }
        var b = blur.isNaN ? 0 : Swift.max(blur, 0)
        if b > Self.maxShadowBlur {
            CGDiagnostics.warnOnce("CGContext.setShadow: blur \(blur) clamped to \(Self.maxShadowBlur)")
            b = Self.maxShadowBlur
        }
        let o = CGSize(width: offset.width.isFinite ? offset.width : 0, height: offset.height.isFinite ? offset.height : 0)
        gstate.shadow = ShadowStyle(offset: o, blur: b, color: color.premultipliedFloat)
    }

    /// A shadow in Apple's default colour, black at 1/3 alpha (CGContextSetShadow).
    public func setShadow(offset: CGSize, blur: CGFloat) {
        setShadow(offset: offset, blur: blur, color: CGColor(gray: 0, alpha: 1.0 / 3.0))
    }

    /// The shadow's offset in raster pixels (y down) and blur: box radius and reach.
    package func shadowGeometry(_ shadow: ShadowStyle) -> (dx: Int, dy: Int, radius: Int, pad: Int) {
        let dx = Int.clamped(shadow.offset.width.rounded()), dy = -Int.clamped(shadow.offset.height.rounded())
        let sigma = Double(shadow.blur) / 2
        // Three box blurs of width w give variance 3·(w² − 1)/12 = σ², w = √(4σ² + 1) (odd).
        let boxWidth = sigma < 0.5 ? 1 : max(1, Int((4 * sigma * sigma + 1).squareRoot().rounded()) | 1)
        let radius = boxWidth / 2
        return (dx, dy, radius, 3 * radius)
    }

    /// Paints the shadow of (mask × source alpha × alpha), offset, blurred and tinted.
    package func paintShadow(_ shadow: ShadowStyle, of mask: CoverageMask, _ source: PaintSource) {
        let (dx, dy, radius, pad) = shadowGeometry(shadow)
        // The shadow's alpha, over the mask's box grown by the blur reach.
        let w = mask.width + 2 * pad, h = mask.height + 2 * pad
        guard w > 0, h > 0, w.multipliedReportingOverflow(by: h).partialValue <= Self.maxByteCount / 4 else { return }
        var a = [Float](repeating: 0, count: w * h)
        let alpha = gstate.alpha
        for j in 0..<mask.height {
            for i in 0..<mask.width {
                let c = mask.values[j * mask.width + i]
                guard c > 0 else { continue }
                a[(j + pad) * w + i + pad] = c * source.color(mask.x0 + i, mask.y0 + j).w * alpha
            }
        }
        if radius > 0 {
            var tmp = [Float](repeating: 0, count: w * h)
            for _ in 0..<3 {
                Self.boxBlur(a, into: &tmp, count: w, lines: h, step: 1, lineStride: w, radius: radius)
                Self.boxBlur(tmp, into: &a, count: h, lines: w, step: w, lineStride: 1, radius: radius)
            }
        }
        let shadowMask = CoverageMask(x0: mask.x0 - pad + dx, y0: mask.y0 - pad + dy, width: w, height: h, values: a)
        composite(shadowMask, .solid(shadow.color), mode: gstate.blendMode, alpha: 1)
    }

    /// A moving-average blur of width 2·radius + 1 along lines of `count` samples (zero outside).
    private static func boxBlur(_ src: [Float], into dst: inout [Float], count: Int, lines: Int, step: Int,
                                lineStride: Int, radius: Int) {
        let norm = 1 / Float(2 * radius + 1)
        src.withUnsafeBufferPointer { s in
            dst.withUnsafeMutableBufferPointer { d in
                for line in 0..<lines {
                    let base = line * lineStride
                    var sum: Float = 0
                    for k in 0..<min(radius, count) { sum += s[base + k * step] }
                    for i in 0..<count {
                        let add = i + radius, sub = i - radius - 1
                        if add < count { sum += s[base + add * step] }
                        if sub >= 0 { sum -= s[base + sub * step] }
                        d[base + i * step] = max(0, sum * norm)
                    }
                }
            }
        }
    }
}
