import CoreGraphics
import CoreAnimation

/// A layer's shadow settings, nil when it casts none (`shadowOpacity` 0 or a clear colour).
///
/// How wide the blur is (docs/BEHAVIOUR.md N1, measured on Apple): a 40×40 layer with shadowOffset
/// (20, 20) and shadowRadius 5 paints up to 2·r = 10 points past its offset edge (pixel 149
/// painted) and nothing further (pixel 152 clear). Core Graphics gets a blur of 2·r for a
/// layer's r and spreads a hard edge by exactly that much, as box passes whose reaches add up
/// to it would. Our blur is a true Gaussian cut at the same reach: σ = 0.8·r (three boxes
/// spanning 2·r together have σ ≈ 0.77·r) with the kernel cut at 2·r = 2.5·σ, so the last
/// pixel inside 2·r still gets about 1/255 and everything beyond gets exactly 0. The discrete
/// blur (`Shaders/blur.frag`) and the analytic one for `shadowPath` shapes (`Shaders/box.frag`)
/// use the same kernel, so both routes paint the same pixels.
struct ShadowSpec {
    /// σ of the Gaussian per point of `shadowRadius`.
    static let sigmaPerRadius = 0.8
    /// Where the kernel ends, in σ (= 2·shadowRadius). The shaders hard-code the same 2.5.
    static let cutInSigmas = 2.5
    /// The farthest the pixel blur reaches, in pixels (`Shaders/blur.frag` takes at most 256
    /// texels each side): shadows with 2.5σ beyond it (σ > 102 pixels) end there, a little
    /// harder than the Gaussian would. The analytic `shadowPath` shapes have no such limit.
    static let maxBlurReach: CGFloat = 256

    var color: CGColor
    var opacity: Float
    var offset: CGSize
    var radius: CGFloat

    /// Whether a layer with these settings casts a shadow at all (what `init?` decides first).
    static func isCast(opacity: Float, color: CGColor?) -> Bool { opacity > 0 && (color?.alpha ?? 0) > 0 }

    init?(_ s: LayerState) {
        guard Self.isCast(opacity: s.shadowOpacity, color: s.shadowColor), let c = s.shadowColor else { return nil }
        color = c
        opacity = min(s.shadowOpacity, 1)
        // The setters reject non-finite values; a state built another way must not put NaN
        // into a frame.
        let o = s.shadowOffset
        offset = o.width.isFinite && o.height.isFinite ? o : .zero
        radius = max(0, s.shadowRadius.isFinite ? s.shadowRadius : 0)
    }

    /// Gaussian σ in target pixels. `shadowRadius` is in the layer's space, so the blur grows
    /// and shrinks with the layer's transform and the renderer's scale.
    func sigma(_ h: Homography) -> Float { Float(Double(radius) * Self.sigmaPerRadius * h.linearScale) }

    /// How far the blurred shadow reaches past the casting edge, in target pixels (2·r, at
    /// most `maxBlurReach`).
    func reach(_ h: Homography) -> CGFloat { min(CGFloat(Double(sigma(h)) * Self.cutInSigmas), Self.maxBlurReach) }

    /// The offset in target pixels: `shadowOffset` is in the layer's own space (y down here, so
    /// a positive height casts downward; the default (0, −3) casts upward, as on iOS), and it
    /// turns and scales with the layer's transform.
    func pixelOffset(_ h: Homography) -> CGSize {
        let w = max(abs(h.r2.z), 1e-9)
        let dx = (Double(offset.width) * h.r0.x + Double(offset.height) * h.r1.x) / w
        let dy = (Double(offset.width) * h.r0.y + Double(offset.height) * h.r1.y) / w
        guard dx.isFinite, dy.isFinite else { return .zero }
        return CGSize(width: dx, height: dy)
    }

    /// How many times smaller than the frame the blur runs: 1 below σ = 8 pixels, then 2, 4,
    /// 8, keeping at least 4 texels of σ. A wide Gaussian has no detail a quarter-resolution
    /// pass would lose, and it costs a sixteenth as much (the kernel shrinks too).
    func downscale(_ h: Homography) -> Int {
        let s = sigma(h)
        var d = 1
        while d < 8, s / Float(2 * d) >= 4 { d *= 2 }
        return d
    }

    /// Pixels the blurred, offset shadow of content inside `rect` can reach.
    func castBounds(of rect: CGRect, h: Homography) -> CGRect {
        let o = pixelOffset(h)
        let reach = self.reach(h) + 1
        return rect.offsetBy(dx: o.width, dy: o.height).insetBy(dx: -reach, dy: -reach)
    }
}

/// The shapes whose blurred shadow `Shaders/box.frag` computes analytically: a rectangle with
/// elliptical corners of one size (`corner` zero for a plain rectangle, half the size for an
/// ellipse).
struct ShadowPathShape: Equatable {
    var rect: CGRect
    var corner: CGSize

    init(rect: CGRect, corner: CGSize) {
        self.rect = rect
        self.corner = corner
    }

    /// Recognises `CGPath(rect:)`, `CGPath(roundedRect:cornerWidth:cornerHeight:)` and
    /// `CGPath(ellipseIn:)` (and the `add…` methods that make the same elements) by their
    /// element patterns: a rectangle by `isRect`; an ellipse as a move and four cubics; a rounded
    /// rectangle as a move and four line–cubic pairs. The candidate is rebuilt with Core
    /// Graphics' own constructor and must match element for element, so a hand-made path that
    /// only looks similar is not taken for one. Nil for anything else.
    init?(_ path: CGPath) {
        var r = CGRect.zero
        if path.isRect(&r) {
            rect = r.standardized
            corner = .zero
            return
        }
        let e = path.elements
        guard e.count == 6 || e.count == 10, case .move = e[0], case .close = e[e.count - 1] else { return nil }
        let box = path.boundingBox
        guard !box.isNull, box.width > 0, box.height > 0 else { return nil }
        let candidate: CGPath
        if e.count == 6 {
            candidate = CGPath(ellipseIn: box, transform: nil)
            corner = CGSize(width: box.width / 2, height: box.height / 2)
        } else {
            guard case .line(let a) = e[1], case .cubic(_, _, let b) = e[2] else { return nil }
            let cw = box.maxX - b.x, ch = box.maxY - a.y
            guard cw > 0, ch > 0 else { return nil }
            candidate = CGPath(roundedRect: box, cornerWidth: cw, cornerHeight: ch, transform: nil)
            corner = CGSize(width: min(cw, box.width / 2), height: min(ch, box.height / 2))
        }
        let tolerance = 1e-6 * max(1, box.width, box.height)
        guard candidate.elements.count == e.count else { return nil }
        for (x, y) in zip(candidate.elements, e) {
            let px = x.points, py = y.points
            guard px.count == py.count else { return nil }
            for (p, q) in zip(px, py) where abs(p.x - q.x) > tolerance || abs(p.y - q.y) > tolerance { return nil }
        }
        rect = box
    }
}

extension RenderTreeBuilder {
    /// Whether a layer paints anything that could cast a shadow: a layer that draws nothing
    /// casts none (docs/BEHAVIOUR.md N1), and skipping it saves its offscreen passes.
    func castsShadow(_ layer: CALayer, _ copy: CALayer, _ s: LayerState) -> Bool {
        if s.backgroundColor.map({ $0.alpha > 0 }) ?? false { return true }
        if s.contents != nil || copy is CAGradientLayer { return true }
        if let shape = copy as? CAShapeLayer, shapeSpec(shape) != nil { return true }
        if s.borderWidth > 0, s.borderColor.map({ $0.alpha > 0 }) ?? false { return true }
        return !(layer._sublayers?.isEmpty ?? true)
    }

    /// The offscreen target a layer with a pixel-cast shadow draws into: its painted area,
    /// grown by the blur's reach so the blur has room on every side, limited to what can still
    /// reach the current pass (the content itself, or its shadow once offset).
    func shadowContentRect(_ content: CGRect, _ shadow: ShadowSpec, h: Homography) -> CGRect {
        let pass = passStack.last!.rect
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
    func emitBlurredShadow(_ shadow: ShadowSpec, of content: TargetID, rect: CGRect, h: Homography, clip: Int32, opacity: Float) {
        let sigma = shadow.sigma(h)
        var source = content
        if sigma >= 0.25 {
            let d = shadow.downscale(h)
            func target(_ scale: Int) -> TargetID {
                frame.targets.append(OffscreenTarget(x: Int(rect.minX), y: Int(rect.minY), width: Int(rect.width),
                                                     height: Int(rect.height), downscale: scale))
                return .offscreen(frame.targets.count - 1)
            }
            var scale = 1
            while scale < d {
                scale *= 2
                let half = target(scale)
                frame.composites.append(CompositeInstance(dst: rect.simd, src: rect.simd, color: SIMD4(repeating: 1),
                                                          params: SIMD4(0, 0, 0, 0)))
                let i = frame.composites.count - 1
                frame.passes.append(RenderPass(target: half, kind: .draw([Batch(pipeline: .composite(source: source, mask: nil),
                                                                              range: i..<(i + 1))])))
                source = half
            }
            let texelSigma = sigma / Float(d)
            let across = target(d)
            frame.passes.append(RenderPass(target: across, kind: .blur(source: source, sigma: texelSigma, horizontal: true)))
            let down = target(d)
            frame.passes.append(RenderPass(target: down, kind: .blur(source: across, sigma: texelSigma, horizontal: false)))
            source = down
        }
        appendComposite(source: source, mask: nil, rect: rect, opacity: opacity, clip: clip,
                        offset: shadow.pixelOffset(h), color: shadow.color.premultiplied(shadow.opacity * opacity))
    }

    /// `shadowPath` set: the shadow comes from the path, not from the layer's pixels
    /// (`shadowPath` doc: it "improves performance" because the layer need not be rendered
    /// first): rectangles, rounded rectangles and ellipses are one analytically blurred box
    /// instance (`ShadowPathShape`), with no offscreen pass. Any other path is filled (non-zero
    /// rule, as Core Animation fills a shadow path) through the shape pipeline into an offscreen
    /// target, whose alpha is blurred, tinted and offset like a shadow cast from pixels.
    func emitPathShadow(_ shadow: ShadowSpec, path: CGPath, h: Homography, clip: Int32, opacity: Float) {
        if let shape = ShadowPathShape(path) {
            emitShadowShape(shadow, shape: shape, h: h, clip: clip, opacity: opacity)
            return
        }
        let box = path.boundingBox
        guard !box.isNull, let px = h.boundingBox(of: box) else { return }
        let rect = pixelAligned(shadowContentRect(px.insetBy(dx: -1, dy: -1), shadow, h: h))
        guard !rect.isNull, rect.width >= 1, rect.height >= 1 else { return }
        let target = beginOffscreen(rect)
        emitShape(ShapeDrawSpec(path: path, fill: SIMD4(1, 1, 1, 1), evenOdd: false, stroke: nil, style: nil, trim: (0, 1),
                                gpuDash: [], dashPhase: 0), h: h, clip: 0, opacity: 1)
        endOffscreen()
        emitBlurredShadow(shadow, of: target, rect: rect, h: h, clip: clip, opacity: opacity)
    }

    /// The shadow a plain layer casts when its pixels are one uniform rounded rectangle: no
    /// sublayers, contents, gradient or mask, equal circular corners, a visible background,
    /// a border that is absent or of the background's alpha (or over an opaque background),
    /// not `masksToBounds`, and a blur of at least half a point. The shadow of those pixels is
    /// then the analytically blurred shape (`box.frag`, the same kernel as the blur passes),
    /// with no offscreen pass: the common card-with-shadow case. Returns the shape and the
    /// alpha it casts with; nil when the layer's pixels must be blurred.
    func impliedShadowShape(_ layer: CALayer, _ copy: CALayer, _ s: LayerState) -> (ShadowPathShape, Float)? {
        guard layer._sublayers?.isEmpty ?? true, s.contents == nil, !(copy is CAGradientLayer), layer._mask == nil,
              !s.masksToBounds, s.shadowRadius >= 0.5 else { return nil }
        let r = LayerGeometry.cornerRadii(s)
        guard r.x == r.y, r.y == r.z, r.z == r.w else { return nil }
        // A continuous corner (n = 3.3 superellipse over 1.528665·r, as common.glsl draws it)
        // stays within 0.021·r of the circular corner of the same radius; once the blur's σ
        // (0.8·shadowRadius) is four times that, the difference is far below a pixel's worth of
        // shadow, so the circular shape casts it analytically (shadowRadius ≥ 0.105·r; 0.125·r
        // here). Where the corner's extent is cut short by a small side, the curve is no longer
        // near the circle: those keep the pixel-cast shadow.
        if s.cornerCurve == .continuous, r.x > 0 {
            let b = s.bounds.standardized
            guard Double(s.shadowRadius) >= 0.125 * Double(r.x),
                  1.528665 * Double(r.x) <= Double(min(b.width, b.height)) / 2 else { return nil }
        }
        let bg = Float(s.backgroundColor?.alpha ?? 0)
        guard bg > 0 else { return nil }
        let borderAlpha = s.borderWidth > 0 ? Float(s.borderColor?.alpha ?? 0) : 0
        if borderAlpha > 0, bg < 1, abs(borderAlpha - bg) > 1e-6 { return nil }
        let b = s.bounds.standardized
        guard b.width > 0, b.height > 0 else { return nil }
        return (ShadowPathShape(rect: b, corner: CGSize(width: CGFloat(r.x), height: CGFloat(r.x))), bg)
    }

    /// One analytically blurred shape (box.frag's blur branch), offset by `shadowOffset`.
    func emitShadowShape(_ shadow: ShadowSpec, shape: ShadowPathShape, h: Homography, clip: Int32, opacity: Float) {
        guard !shape.rect.isNull, shape.rect.width > 0, shape.rect.height > 0 else { return }
        // σ in the layer's plane; at least about a third of a pixel so the edge is antialiased
        // (the blurred branch of box.frag also draws radius-0 shadows, ellipses included).
        let scale = max(h.linearScale, 1e-9)
        let sigma = max(Double(shadow.radius) * ShadowSpec.sigmaPerRadius, 0.35 / scale)
        let off = shadow.offset
        let p = h.packed(SIMD3(0, Float(clip), Float(15)))
        appendBox(BoxInstance(h0: p.0, h1: p.1, h2: p.2, rect: shape.rect.offsetBy(dx: off.width, dy: off.height).simd,
                              radii: SIMD4(Float(shape.corner.width), Float(shape.corner.height), 0, 0),
                              fill: shadow.color.premultiplied(shadow.opacity * opacity), border: .zero,
                              params: SIMD4(0, Float(sigma), 0, 0)))
    }
}

extension RenderTreeBuilder {
    /// A clip of the layer's bounds, rounded as its corners, intersected with `outer`. The
    /// flag is false when the two cannot merge into one clip shape: the index is then the
    /// layer's own clip alone, and the caller must apply `outer` some other way.
    func boundsClip(_ s: LayerState, h: Homography, outer: Int32) -> (Int32, Bool) {
        guard let inv = h.inverted() else { return (outer, true) }
        let shape = ClipShape(inverse: inv, rect: s.bounds.simd, radii: LayerGeometry.cornerRadii(s),
                              continuous: s.cornerCurve == .continuous)
        if outer == 0 { return (appendClip(shape), true) }
        if let merged = intersectAxisAligned(frame.clips[Int(outer)], shape) { return (appendClip(merged), true) }
        return (appendClip(shape), false)
    }
}
