import CoreGraphics
import CoreAnimation
import CoreImage
import CAFrame

extension RenderTreeBuilder {
    /// Reads a layer's `filters`, `backgroundFilters` and `compositingFilter` into its plan
    /// (docs/FILTERS.md). What cannot be applied warns once, naming it.
    func planFilters(_ plan: inout CompositingPlan, _ s: LayerState) {
        if let list = s.filters, !list.isEmpty { plan.filters = FilterEmitter.steps(list, what: "filters") }
        if let list = s.backgroundFilters, !list.isEmpty { plan.backgroundFilters = FilterEmitter.steps(list, what: "backgroundFilters") }
        if let value = s.compositingFilter {
            if let mode = CIBlendMode(compositingFilter: value) {
                plan.blend = mode == .sourceOver ? nil : mode
            } else {
                let name = (value as? CIFilter)?.filterName ?? (value as? String) ?? "a \(type(of: value))"
                RenderDiagnostics.warn("CALayer.compositingFilter \(name) is not a blend mode or compositing filter: the layer composites normally")
            }
        }
    }

    /// An isolated layer's offscreen rectangle, grown so its filters have room (a blur's reach)
    /// and aligned for a downscaled blur.
    func filterRect(_ rect: CGRect, _ plan: CompositingPlan, h: Homography) -> CGRect {
        // A filter graph draws its whole filter region, whatever the content covers.
        for case .graph(let g) in plan.filters {
            return FilterEmitter.graphRect(g, h: h, pass: out.passRect, downscale: FilterEmitter.downscale(plan.filters, h: h))
        }
        guard !plan.filters.isEmpty, !rect.isNull else { return rect.intersection(out.passRect) }
        let reach = FilterEmitter.reach(plan.filters, h: h)
        let grown = rect.insetBy(dx: -reach, dy: -reach).intersection(out.passRect.insetBy(dx: -reach, dy: -reach))
        return FilterEmitter.aligned(FrameWriter.pixelAligned(grown), to: FilterEmitter.downscale(plan.filters, h: h))
    }

    /// The isolated layer's last step: its background filters, then its pixels composited
    /// (blended, with a compositing filter).
    func compositeIsolated(_ source: TargetID, mask: TargetID?, rect: CGRect, opacity: Float, clip: Int32,
                           _ plan: CompositingPlan, _ s: LayerState, h: Homography) {
        if !plan.backgroundFilters.isEmpty {
            filterPasses.emitBackground(plan.backgroundFilters, s, h: h, outer: clip, mask: mask.map { ($0, rect) }, into: out)
        }
        guard let mode = plan.blend else {
            out.appendComposite(source: source, mask: mask, rect: rect, opacity: opacity, clip: clip)
            return
        }
        var src = source
        if let mask {
            src = out.beginOffscreen(rect)
            out.appendComposite(source: source, mask: mask, rect: rect, opacity: 1, clip: 0)
            out.endOffscreen()
        }
        filterPasses.emitBlend(mode, source: src, rect: rect, opacity: opacity, clip: clip, into: out)
    }
}
