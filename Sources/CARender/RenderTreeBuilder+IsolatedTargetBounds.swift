import CoreGraphics
import CoreAnimation

/// How small an isolated layer's offscreen target may be (issue 23: a Lottie layer with two
/// masks cost four offscreen passes covering its whole layer bounds, most of them empty).
extension RenderTreeBuilder {
    /// `rect` (pixel-aligned, the subtree's bounds) cut to what can show: the current pass's
    /// rectangle (pixels outside it are never seen), and with a mask, the mask's own painted
    /// bounds — "the layer's content is only visible where the mask's alpha is non-zero"
    /// (CALayer.mask doc, docs/BEHAVIOUR.md M8), and a mask paints nothing outside the bounds
    /// of its subtree. Both the content and the mask target then cover only that rectangle.
    ///
    /// Kept as it was when the target's pixels are read beyond what shows: a shadow (blurred
    /// from the content, cast from outside the visible part), filters and background filters
    /// (they sample neighbours), `shouldRasterize` (the kept bitmap is reused when the layer
    /// moves), a compositing filter, and inside a replicator's delayed copy (the mask would be
    /// measured at another time than it is drawn).
    func tightIsolatedRect(_ rect: CGRect, cut: CGRect) -> CGRect {
        guard !rect.isNull, !rect.isInfinite, !cut.isInfinite else { return rect }
        let r = rect.intersection(cut)
        guard !r.isNull else { return .null }
        return FrameWriter.pixelAligned(r)
    }

    /// What of an isolated layer's target can show (the pass, and the mask's painted bounds;
    /// pixel-aligned), or the infinite rectangle where the target is kept whole (see above).
    func tightIsolatedCut(_ layer: CALayer, _ s: LayerState, world: CATransform3D, depth: Int,
                          _ plan: CompositingPlan) -> CGRect {
        guard plan.shadow == nil, plan.filters.isEmpty, plan.backgroundFilters.isEmpty, !plan.rasterize, plan.blend == nil,
              replicas.timeShift == 0 else { return .infinite }
        var r = out.passRect
        if let mask = plan.mask {
            let ms = mask.renderCopy.state
            let mw = CATransform3DConcat(LayerGeometry.localToParent(ms, parent: s, isMask: true), LayerGeometry.flattened(world))
            if Homography(mw).isFiniteInFloat, ms.bounds.fitsInFloat,
               let mb = subtreeBounds(mask, ms, world: mw, depth: depth + 1, transitions: false),
               !mb.isNull, !mb.isInfinite {
                r = r.intersection(FrameWriter.pixelAligned(mb))
            }
        }
        return r.isNull ? .null : FrameWriter.pixelAligned(r)
    }
}

/// The part of a content-sized isolated target (`Context.contentLimit`) a patched leaf must
/// stay in: `content`, the pixels its subtree painted at the last build (before a shadow's or
/// filter's reach), and `cut`, the pixels of the target that can show (`tightIsolatedCut`;
/// infinite when the whole target is kept). Nested targets intersect both.
struct ContentLimit {
    var content: CGRect
    var cut: CGRect

    func within(_ outer: ContentLimit?) -> ContentLimit {
        guard let outer else { return self }
        return ContentLimit(content: content.intersection(outer.content), cut: cut.intersection(outer.cut))
    }

    /// Whether a leaf painting `paint` (pixels, as `subtreeBounds` measures a plain leaf) is
    /// drawn whole where it shows: what of it can show lies inside what the target holds.
    func admits(_ paint: CGRect) -> Bool {
        let showing = cut.isInfinite ? paint : paint.intersection(cut)
        return showing.isNull || (!content.isNull && content.contains(showing))
    }
}

extension RenderTreeBuilder {
    /// Whether a layer may paint anywhere inside its own bounds (so `subtreeBounds` counts
    /// them): a visible background or border, contents, a shadow path (its shadow is placed
    /// from the bounds), filters of any kind (a background filter works on the backdrop under
    /// the bounds), or content some kind other than a shape claims (text, gradients, images,
    /// particles, video, tiles, GL). A shape layer paints its path, which its emitter's
    /// `overhang` measures; a plain layer with none of these paints nothing itself, however
    /// large its bounds — Lottie's layers are each as large as the composition.
    func paintsWithinBounds(_ copy: CALayer, _ s: LayerState) -> Bool {
        if s.backgroundColor.map({ $0.alpha > 0 }) ?? false { return true }
        if s.borderWidth > 0, s.borderColor.map({ $0.alpha > 0 }) ?? false { return true }
        if s.contents != nil || s.shadowPath != nil || s.filters != nil || s.backgroundFilters != nil || s.compositingFilter != nil {
            return true
        }
        return contentEmitters.contains { !($0 is ShapeEmitter) && $0.claims(copy) }
    }
}
