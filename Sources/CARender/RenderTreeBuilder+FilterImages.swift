import CoreGraphics
import CoreAnimation
import CoreImage
import CAFrame

extension RenderTreeBuilder {
    /// The pictures of the layer's filter graphs (feImage; `FilterGraph.images`): each layer
    /// subtree is drawn into an offscreen target covering `rect` (the graph's target) through
    /// the same path as a mask, placed in the filtered layer's own coordinates, before the
    /// graph's passes read it. Keyed by graph; nil where an entry is not a layer.
    func drawFilterImages(_ plan: CompositingPlan, rect: CGRect, world: CATransform3D, _ s: LayerState,
                          _ ctx: Context) -> [ObjectIdentifier: [TargetID?]] {
        var targets: [ObjectIdentifier: [TargetID?]] = [:]
        for case .graph(let g) in plan.filters where !g.images.isEmpty {
            targets[ObjectIdentifier(g)] = g.images.map { image -> TargetID? in
                guard let layer = image as? CALayer else { return nil }
                var ictx = Context(parentWorld: LayerGeometry.flattened(world), parentGeometry: keepParentGeometry(s), clip: 0, opacity: 1,
                                   depth: ctx.depth + 1, mirrored: ctx.mirrored, planeMirrored: ctx.planeMirrored,
                                   inTransition: ctx.inTransition)
                ictx.inReplica = ctx.inReplica
                let t = out.beginOffscreen(rect)
                visit(layer, ictx, isMask: true)
                out.endOffscreen()
                return t
            }
        }
        return targets
    }
}
