import CoreGraphics
import CoreAnimation
import CAFrame
import CoreImage

extension RenderTreeBuilder {
    /// How one layer composites, decided in one place: what it casts, what masks it, and whether
    /// its subtree must be isolated — drawn into an offscreen target and composited once —
    /// because a mask cuts it, group opacity fades it as one (`allowsGroupOpacity`, N4), or a
    /// shadow is cast from its pixels (N1). `visit` follows the plan; nothing else decides.
    struct CompositingPlan {
        /// The mask layer, unless hidden (a hidden mask does not mask).
        var mask: CALayer?
        /// The shadow drawn, if any: a `shadowPath` shadow always, one cast from the layer's
        /// pixels only where it paints some.
        var shadow: ShadowSpec?
        /// A plain rounded box casts an analytically blurred copy of itself (no offscreen pass):
        /// the shape and its alpha.
        var impliedShadow: (ShadowPathShape, Float)?
        /// Several overlapping pieces faded as one group.
        var groupOpacity: Bool
        /// A shadow that needs the layer's rendered pixels (blurred from an offscreen target).
        var offscreenShadow: Bool

        /// `shouldRasterize`: drawn into a kept, possibly smaller target (`RenderTreeBuilder+Rasterization.swift`).
        var rasterize = false
        /// Core Image filters (`RenderTreeBuilder+Filters.swift`): the layer's `filters`, its
        /// `backgroundFilters`, its `compositingFilter` as a blend mode (nil: source-over).
        var filters: [FilterEmitter.Step] = []
        var backgroundFilters: [FilterEmitter.Step] = []
        var blend: CIBlendMode? = nil

        /// The subtree draws into an offscreen target first.
        var isolated: Bool {
            mask != nil || groupOpacity || offscreenShadow || rasterize || !filters.isEmpty || !backgroundFilters.isEmpty || blend != nil
        }
    }

    /// The plan for a visible layer. A `CATransformLayer` has none of it: "mask and shadow are
    /// ignored", and opacity "is applied to each sublayer individually" (CATransformLayer doc).
    @inline(__always)
    /// `claims`: the kinds of content that claim the layer (bit i: `contentEmitters[i]`).
    func compositingPlan(_ layer: CALayer, _ copy: CALayer, _ s: LayerState, isTransformLayer: Bool, claims: UInt32) -> CompositingPlan {
        if isTransformLayer {
            return CompositingPlan(mask: nil, shadow: nil, impliedShadow: nil, groupOpacity: false, offscreenShadow: false)
        }
        let mask = layer.maskUnchecked.flatMap { $0.renderCopy.state.isHidden ? nil : $0 }
        let shadow = ShadowSpec(s).flatMap { s.shadowPath != nil || castsShadow(layer, copy, s, claims: claims) ? $0 : nil }
        let groupOpacity = s.opacity < 1 && s.allowsGroupOpacity && drawsSeveralPieces(layer, copy, s, claims: claims)
        let implied = shadow != nil && s.shadowPath == nil ? impliedShadowShape(layer, copy, s, claims: claims) : nil
        let offscreenShadow = shadow != nil && s.shadowPath == nil && implied == nil
        var plan = CompositingPlan(mask: mask, shadow: shadow, impliedShadow: implied, groupOpacity: groupOpacity,
                                   offscreenShadow: offscreenShadow, rasterize: s.shouldRasterize)
        if s.filters != nil || s.backgroundFilters != nil || s.compositingFilter != nil { planFilters(&plan, s) }
        return plan
    }

    /// Whether a layer paints more than one overlapping piece, so that group opacity
    /// (allowsGroupOpacity, docs/BEHAVIOUR.md N4) needs the pieces composited before the fade: any
    /// sublayers, or two of background, border and the kinds of content it has. A background
    /// with a border and nothing else is one box instance whose shader composites the border
    /// over the background before the fade (box.frag), so it stays in the batch; so is a
    /// shape's fill and stroke (its shader composites them).
    func drawsSeveralPieces(_ layer: CALayer, _ copy: CALayer, _ s: LayerState, claims: UInt32) -> Bool {
        if !(layer.sublayersUnchecked?.isEmpty ?? true) { return true }
        let content = claims.nonzeroBitCount
        guard content > 0 else { return false }
        let hasBorder = s.borderWidth > 0 && (s.borderColor?.alpha ?? 0) > 0
        return (s.backgroundColor != nil ? 1 : 0) + (hasBorder ? 1 : 0) + content >= 2
    }

    /// Whether a layer paints anything that could cast a shadow: a layer that draws nothing
    /// casts none (docs/BEHAVIOUR.md N1), and skipping it saves its offscreen passes.
    func castsShadow(_ layer: CALayer, _ copy: CALayer, _ s: LayerState, claims: UInt32) -> Bool {
        if s.backgroundColor.map({ $0.alpha > 0 }) ?? false { return true }
        if paintsContent(copy, claims: claims) { return true }
        if s.borderWidth > 0, s.borderColor.map({ $0.alpha > 0 }) ?? false { return true }
        return !(layer.sublayersUnchecked?.isEmpty ?? true)
    }

    /// The shadow a plain layer casts when its pixels are one uniform rounded rectangle: no
    /// sublayers, mask or content of any kind (`contentEmitters`), equal circular corners, a visible background,
    /// a border that is absent or of the background's alpha (or over an opaque background),
    /// not `masksToBounds`, and a blur of at least half a point. The shadow of those pixels is
    /// then the analytically blurred shape (`box.frag`, the same kernel as the blur passes),
    /// with no offscreen pass: the common card-with-shadow case. Returns the shape and the
    /// alpha it casts with; nil when the layer's pixels must be blurred.
    func impliedShadowShape(_ layer: CALayer, _ copy: CALayer, _ s: LayerState, claims: UInt32) -> (ShadowPathShape, Float)? {
        guard layer.sublayersUnchecked?.isEmpty ?? true, layer.maskUnchecked == nil, !s.masksToBounds, s.shadowRadius >= 0.5 else { return nil }
        if paintsContent(copy, claims: claims) { return nil }
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

    /// Whether one of the kinds that claim the layer paints now (only claimants are asked).
    func paintsContent(_ copy: CALayer, claims: UInt32) -> Bool {
        guard claims != 0 else { return false }
        for i in 0..<contentEmitters.count where claims & (1 << UInt32(i)) != 0 && contentEmitters[i].paints(copy) { return true }
        return false
    }
}
