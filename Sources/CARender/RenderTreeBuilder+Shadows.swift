import CoreGraphics
import CoreAnimation

/// A layer's shadow settings, nil when it casts none (`shadowOpacity` 0 or a clear colour).
struct ShadowSpec {
    var color: CGColor
    var opacity: Float
    var offset: CGSize
    var radius: CGFloat

    init?(_ s: LayerState) {
        guard s.shadowOpacity > 0, let c = s.shadowColor, c.alpha > 0 else { return nil }
        color = c
        opacity = min(s.shadowOpacity, 1)
        offset = s.shadowOffset
        radius = max(0, s.shadowRadius.isFinite ? s.shadowRadius : 0)
    }

    /// Gaussian sigma in pixels: coverage ends near offset + 2·radius (catalogue N1), so
    /// σ = radius / 2 with the kernel cut at 4σ.
    func sigma(_ h: Homography) -> Float { Float(radius / 2 * h.linearScale) }

    /// The offset in target pixels: `shadowOffset` is in the layer's own space, so it turns
    /// and scales with the layer's transform.
    func pixelOffset(_ h: Homography) -> CGSize {
        let w = max(abs(h.r2.z), 1e-9)
        let dx = (Double(offset.width) * h.r0.x + Double(offset.height) * h.r1.x) / w
        let dy = (Double(offset.width) * h.r0.y + Double(offset.height) * h.r1.y) / w
        return CGSize(width: dx, height: dy)
    }

    /// Pixels the blurred, offset shadow of content inside `rect` can reach.
    func castBounds(of rect: CGRect, h: Homography) -> CGRect {
        let o = pixelOffset(h)
        let reach = CGFloat(4 * sigma(h)) + 1
        return rect.offsetBy(dx: o.width, dy: o.height).insetBy(dx: -reach, dy: -reach)
    }
}

extension RenderTreeBuilder {
    /// The shadow of everything a layer and its sublayers paint: their alpha, blurred
    /// (horizontal then vertical Gaussian passes), tinted and offset, under the content.
    /// `mask` (a target covering `rect`, like the content) masks the shadow where it lands, as
    /// a layer's mask covers its shadow too.
    func emitBlurredShadow(_ shadow: ShadowSpec, of content: TargetID, rect: CGRect, h: Homography, clip: Int32, opacity: Float,
                           mask: TargetID? = nil) {
        let sigma = shadow.sigma(h)
        var source = content
        if sigma >= 0.25 {
            let t = OffscreenTarget(x: Int(rect.minX), y: Int(rect.minY), width: Int(rect.width), height: Int(rect.height))
            frame.targets.append(t)
            let across = TargetID.offscreen(frame.targets.count - 1)
            frame.passes.append(RenderPass(target: across, kind: .blur(source: content, sigma: sigma, horizontal: true)))
            frame.targets.append(t)
            let down = TargetID.offscreen(frame.targets.count - 1)
            frame.passes.append(RenderPass(target: down, kind: .blur(source: across, sigma: sigma, horizontal: false)))
            source = down
        }
        appendComposite(source: source, mask: mask, rect: rect, opacity: opacity, clip: clip,
                        offset: shadow.pixelOffset(h), color: shadow.color.premultiplied(shadow.opacity * opacity))
    }

    /// `shadowPath` set: the shadow comes from the path, not from the layer's pixels, with no
    /// offscreen pass when the path is a rectangle (an analytically blurred box). Other shapes
    /// need path filling, which arrives with CAShapeLayer on the GPU: until then they fall
    /// back to the path's bounding box, with a warning.
    func emitPathShadow(_ shadow: ShadowSpec, path: CGPath, h: Homography, clip: Int32, opacity: Float) {
        var rect = CGRect.zero
        if !path.isRect(&rect) {
            RenderDiagnostics.warn("shadowPath other than a rectangle is drawn as its bounding box (path filling is not implemented yet)")
            rect = path.boundingBoxOfPath
        }
        guard !rect.isNull, rect.width > 0 || rect.height > 0 else { return }
        let off = shadow.offset
        let p = h.packed(SIMD3(0, Float(clip), Float(15)))
        appendBox(BoxInstance(h0: p.0, h1: p.1, h2: p.2, rect: rect.offsetBy(dx: off.width, dy: off.height).simd,
                              radii: .zero, fill: shadow.color.premultiplied(shadow.opacity * opacity), border: .zero,
                              params: SIMD4(0, Float(shadow.radius / 2), 0, 0)))
    }
}
