import CoreGraphics
import CoreAnimation
import CAFrame

/// Shadows (docs/BEHAVIOUR.md N1): one shadow for a layer and its sublayers together, under
/// them. The walk's compositing plan decides which route a layer's shadow takes (a `shadowPath`,
/// a plain box's implied shape, or the layer's own pixels blurred); this room draws each route.
final class ShadowEmitter {
    /// Shadow paths that are not a simple shape are filled through the shape pipeline.
    let shapes: ShapeEmitter

    init(shapes: ShapeEmitter) { self.shapes = shapes }

    /// The offscreen target a layer with a pixel-cast shadow draws into: its painted area,
    /// grown by the blur's reach so the blur has room on every side, limited to what can still
    /// reach the current pass (the content itself, or its shadow once offset).
    func contentRect(_ content: CGRect, _ shadow: ShadowSpec, h: Homography, in out: FrameWriter) -> CGRect {
        let pass = out.passRect
        let reach = shadow.reach(h) + 1
        let o = shadow.pixelOffset(h)
        let grown = content.insetBy(dx: -reach, dy: -reach)
        // Content left of the pass can still cast into it: keep what lies within reach of the
        // pass moved back by the offset.
        let useful = pass.union(pass.offsetBy(dx: -o.width, dy: -o.height)).insetBy(dx: -reach, dy: -reach)
        let rect = grown.intersection(useful)
        // An offset far larger than the frame would make that target huge (a bounding box
        // spanning both places): then only content inside the frame casts.
        var out = rect
        if rect.width > 2 * pass.width + 2 * reach || rect.height > 2 * pass.height + 2 * reach {
            RenderDiagnostics.warn("shadowOffset far beyond the frame: only content inside the frame casts a shadow")
            out = grown.intersection(pass.insetBy(dx: -reach, dy: -reach))
        }
        // A downscaled blur needs the texel grid aligned with the frame's pixels.
        let d = CGFloat(shadow.downscale(h))
        guard !out.isNull, d > 1 else { return out }
        let x0 = (out.minX / d).rounded(.down) * d, y0 = (out.minY / d).rounded(.down) * d
        let x1 = (out.maxX / d).rounded(.up) * d, y1 = (out.maxY / d).rounded(.up) * d
        return CGRect(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// The shadow of everything a layer and its sublayers paint (docs/BEHAVIOUR.md N1: one shadow for
    /// the layer and its sublayers together): their alpha, blurred (horizontal then vertical
    /// Gaussian passes), tinted and offset, under the content.
    /// Wide blurs run at reduced resolution (`ShadowSpec.downscale`): the content is halved
    /// (each texel the exact average of 2×2, through bilinear sampling) until small enough,
    /// blurred there, and scaled back up by the final composite's bilinear sampling.
    func emitBlurred(_ shadow: ShadowSpec, of content: TargetID, rect: CGRect, h: Homography, clip: Int32, opacity: Float,
                     into out: FrameWriter) {
        let sigma = shadow.sigma(h)
        var source = content
        if sigma >= 0.25 {
            let d = shadow.downscale(h)
            func target(_ scale: Int) -> TargetID { out.appendTarget(rect, downscale: scale) }
            var scale = 1
            while scale < d {
                scale *= 2
                let half = target(scale)
                out.frame.composites.append(CompositeInstance(dst: rect.simd, src: rect.simd, color: SIMD4(repeating: 1),
                                                          params: SIMD4(0, 0, 0, 0)))
                let i = out.frame.composites.count - 1
                out.frame.passes.append(RenderPass(target: half, kind: .draw([Batch(pipeline: .composite(source: source, mask: nil),
                                                                              range: i..<(i + 1))])))
                source = half
            }
            let texelSigma = sigma / Float(d)
            let across = target(d)
            out.frame.passes.append(RenderPass(target: across, kind: .blur(source: source, sigma: texelSigma, horizontal: true)))
            let down = target(d)
            out.frame.passes.append(RenderPass(target: down, kind: .blur(source: across, sigma: texelSigma, horizontal: false)))
            source = down
        }
        out.appendComposite(source: source, mask: nil, rect: rect, opacity: opacity, clip: clip,
                            offset: shadow.pixelOffset(h), color: shadow.color.premultiplied(shadow.opacity * opacity))
    }

    /// `shadowPath` set: the shadow comes from the path, not from the layer's pixels
    /// (`shadowPath` doc: it "improves performance" because the layer need not be rendered
    /// first): rectangles, rounded rectangles and ellipses are one analytically blurred box
    /// instance (`ShadowPathShape`), with no offscreen pass. Any other path is filled (non-zero
    /// rule, as Core Animation fills a shadow path) through the shape pipeline into an offscreen
    /// target, whose alpha is blurred, tinted and offset like a shadow cast from pixels.
    func emitPath(_ shadow: ShadowSpec, path: CGPath, h: Homography, clip: Int32, opacity: Float, into out: FrameWriter) {
        if let shape = ShadowPathShape(path) {
            emitShape(shadow, shape: shape, h: h, clip: clip, opacity: opacity, into: out)
            return
        }
        let box = path.boundingBox
        guard !box.isNull, let px = h.boundingBox(of: box) else { return }
        let rect = FrameWriter.pixelAligned(contentRect(px.insetBy(dx: -1, dy: -1), shadow, h: h, in: out))
        guard !rect.isNull, rect.width >= 1, rect.height >= 1 else { return }
        let target = out.beginOffscreen(rect)
        shapes.emitShape(ShapeEmitter.ShapeDrawSpec(path: path, fill: SIMD4(1, 1, 1, 1), evenOdd: false, stroke: nil, style: nil, trim: (0, 1),
                                gpuDash: [], dashPhase: 0), h: h, clip: 0, opacity: 1, into: out)
        out.endOffscreen()
        emitBlurred(shadow, of: target, rect: rect, h: h, clip: clip, opacity: opacity, into: out)
    }

    /// One analytically blurred shape (box.frag's blur branch), offset by `shadowOffset`.
    func emitShape(_ shadow: ShadowSpec, shape: ShadowPathShape, h: Homography, clip: Int32, opacity: Float, into out: FrameWriter) {
        guard !shape.rect.isNull, shape.rect.width > 0, shape.rect.height > 0 else { return }
        // σ in the layer's plane; at least about a third of a pixel so the edge is antialiased
        // (the blurred branch of box.frag also draws radius-0 shadows, ellipses included).
        let scale = max(h.linearScale, 1e-9)
        let sigma = max(Double(shadow.radius) * ShadowSpec.sigmaPerRadius, 0.35 / scale)
        let off = shadow.offset
        let p = h.packed(SIMD3(0, Float(clip), Float(15)))
        BoxEmitter.append(BoxInstance(h0: p.0, h1: p.1, h2: p.2, rect: shape.rect.offsetBy(dx: off.width, dy: off.height).simd,
                              radii: SIMD4(Float(shape.corner.width), Float(shape.corner.height), 0, 0),
                              fill: shadow.color.premultiplied(shadow.opacity * opacity), border: .zero,
                              params: SIMD4(0, Float(sigma), 0, 0)), into: out)
    }
}
