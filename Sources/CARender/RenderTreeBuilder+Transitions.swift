import CoreGraphics
import CoreAnimation

/// How a running `CATransition` is drawn (docs/BEHAVIOUR.md I2). The timing engine gives the progress
/// p (startProgress … endProgress through the timing function) and the "before" picture: a
/// frozen copy of the layer and its subtree as the screen showed them when the transition was
/// added (`CALayer.transitionSnapshot`). The "after" picture is the layer as it is now.
///
/// - `fade`: the two pictures cross-dissolve (each rendered into its own offscreen target,
///   then mixed premultiplied: before·(1 − p) + after·p); subtype ignored.
/// - `moveIn`: the before picture stays; the after picture slides in over it from one
///   layer-width (or height) away on the subtype's side.
/// - `push`: both slide together: after from +W to 0, before from 0 to −W (fromRight).
/// - `reveal`: the before picture slides away toward the opposite side, uncovering the
///   after picture, which stays.
///
/// Directions (docs/BEHAVIOUR.md O12, our choice, documented): a subtype names the side of the layer's
/// own bounds the new content comes from, in the layer's own coordinates, where "top" is the
/// minimum-y edge as in iOS geometry. On an unflipped iOS-style screen fromTop therefore
/// comes down from the top; inside a geometry-flipped superlayer the motion flips with the
/// geometry, as everything drawn in it does. A directional type without a subtype moves as
/// fromLeft (docs/BEHAVIOUR.md I2, community reports). The slide is measured by the layer's current
/// bounds and happens within its plane, so it turns and scales with the layer's transform.
///
/// The moving pictures are clipped to the layer's bounds only when the layer (now) has
/// `masksToBounds` set; otherwise they show beside it while they move (developers' reports
/// of iOS suggest the same and set clipsToBounds to avoid it; not measured on Apple). Private
/// Apple types (`cube`, `pageCurl`, …) are drawn as `fade`, with a warning.
extension RenderTreeBuilder {
    /// Unit vector of the side the new content comes from, in the layer's plane.
    static func transitionDirection(_ subtype: CATransitionSubtype?) -> CGVector {
        switch subtype {
        case .fromRight?: return CGVector(dx: 1, dy: 0)
        case .fromTop?: return CGVector(dx: 0, dy: -1)
        case .fromBottom?: return CGVector(dx: 0, dy: 1)
        case .fromLeft?, nil: return CGVector(dx: -1, dy: 0)
        case let other?:
            RenderDiagnostics.warn("CATransition subtype \"\(other.rawValue)\" is unknown: moving as fromLeft")
            return CGVector(dx: -1, dy: 0)
        }
    }

    func emitTransition(_ layer: CALayer, _ t: TransitionEvaluator, progress: Double, _ outerContext: Context, slide: CGSize) {
        // The pictures' layers are not recorded as subtrees: when the transition ends, the
        // frame's structure changes (the layer is animated while it runs, so never patched).
        var ctx = outerContext
        ctx.inTransition = true
        let p = progress.isFinite ? min(max(progress, 0), 1) : 1
        let directional = t.type == .moveIn || t.type == .push || t.type == .reveal
        guard directional else {
            if t.type != .fade {
                RenderDiagnostics.warn("CATransition type \"\(t.type.rawValue)\" is not implemented (private on Apple): drawn as fade")
            }
            crossFade(layer, t.before, p: p, ctx, slide: slide)
            return
        }
        let s = layer.renderCopy.state
        let size = s.bounds.standardized.size
        let dir = Self.transitionDirection(t.subtype)
        // Where the new content starts: one layer-width (height) away on the subtype's side.
        let away = CGSize(width: dir.dx * size.width, height: dir.dy * size.height)
        var inner = ctx
        var isolated: (target: TargetID, rect: CGRect)? = nil
        if s.masksToBounds, !s.isHidden {
            // A layer that masks to its bounds keeps the moving pictures inside them.
            var local = LayerGeometry.localToParent(s, parent: parentState(of: ctx), isMask: false)
            if slide != .zero { local = CATransform3DConcat(CATransform3DMakeTranslation(slide.width, slide.height, 0), local) }
            let h = Homography(CATransform3DConcat(local, ctx.parentWorld))
            guard h.isFinite else { return }
            let (clip, merged) = out.boundsClip(s, h: h, outer: ctx.clip)
            inner.clip = clip
            if !merged {
                // The outer clip cannot merge with the bounds: cut by the bounds inside a
                // target, by the outer clip when it is composited.
                let pass = out.passRect
                let rect = FrameWriter.pixelAligned((h.boundingBox(of: s.bounds.standardized) ?? pass).intersection(pass))
                guard !rect.isNull, rect.width >= 1, rect.height >= 1 else { return }
                isolated = (out.beginOffscreen(rect), rect)
            }
        }
        func draw(_ l: CALayer?, _ d: CGSize) {
            if let l { visit(l, inner, isMask: false, slide: slide + d, transitions: false) }
        }
        switch t.type {
        case .moveIn:
            draw(t.before, .zero)
            draw(layer, away * (1 - p))
        case .push:
            draw(t.before, away * -p)
            draw(layer, away * (1 - p))
        default:  // reveal
            draw(layer, .zero)
            draw(t.before, away * -p)
        }
        if let isolated {
            out.endOffscreen()
            out.appendComposite(source: isolated.target, mask: nil, rect: isolated.rect, opacity: 1, clip: ctx.clip)
        }
    }

    /// Both pictures into targets of one rect, then one composite that mixes them (a layer
    /// that was not on screen before just fades in).
    func crossFade(_ layer: CALayer, _ before: CALayer?, p: Double, _ ctx: Context, slide: CGSize) {
        if p <= 0 {
            if let before { visit(before, ctx, isMask: false, slide: slide, transitions: false) }
            return
        }
        if p >= 1 {
            visit(layer, ctx, isMask: false, slide: slide, transitions: false)
            return
        }
        let pass = out.passRect
        var rect = CGRect.null
        for l in [before, layer].compactMap({ $0 }) {
            guard let b = placedBounds(l, ctx, slide: slide) else { rect = pass; break }
            rect = rect.union(b)
        }
        rect = FrameWriter.pixelAligned(rect.intersection(pass))
        guard !rect.isNull, rect.width >= 1, rect.height >= 1 else { return }
        var old: TargetID? = nil
        if let before {
            old = out.beginOffscreen(rect)
            visit(before, ctx, isMask: false, slide: slide, transitions: false)
            out.endOffscreen()
        }
        let new = out.beginOffscreen(rect)
        visit(layer, ctx, isMask: false, slide: slide, transitions: false)
        out.endOffscreen()
        guard let old else {
            out.appendComposite(source: new, mask: nil, rect: rect, opacity: Float(p), clip: 0)
            return
        }
        // Mode 2 of the composite pipeline: mix(mask target, source, colour.a).
        out.frame.composites.append(CompositeInstance(dst: rect.simd, src: rect.simd, color: SIMD4(repeating: Float(p)),
                                                  params: SIMD4(0, 0, 2, 0)))
        out.appendBatch(.composite(source: new, mask: old), variant: .mask, index: out.frame.composites.count - 1)
    }

    /// Pixels `layer` (its subtree and shadow) covers when drawn under `ctx`; nil when that
    /// cannot be bounded (part of it behind the eye), `.null` when it draws nothing.
    func placedBounds(_ layer: CALayer, _ ctx: Context, slide: CGSize) -> CGRect? {
        let s = layer.renderCopy.state
        guard !s.isHidden, s.opacity > 0 else { return .null }
        var local = LayerGeometry.localToParent(s, parent: parentState(of: ctx), isMask: false)
        if slide != .zero { local = CATransform3DConcat(CATransform3DMakeTranslation(slide.width, slide.height, 0), local) }
        let world = CATransform3DConcat(local, ctx.parentWorld)
        let h = Homography(world)
        guard h.isFinite else { return .null }
        return subtreeBounds(layer, s, world: world, depth: ctx.depth, transitions: false)
    }
}

private func + (a: CGSize, b: CGSize) -> CGSize { CGSize(width: a.width + b.width, height: a.height + b.height) }
private func * (a: CGSize, k: Double) -> CGSize { CGSize(width: a.width * k, height: a.height * k) }
