import CoreGraphics
import CAFrame

extension FrameWriter {
    /// Ends what the current pass has drawn so far as a pass of its own and lets the rest of
    /// it continue the same target without clearing (`RenderPass.clears`), so that passes in
    /// between can read what is below a layer: the backdrop of a compositing filter or of
    /// background filters. Returns the target and its rectangle.
    func splitCurrentPass() -> (target: TargetID, rect: CGRect) {
        let i = passStack.count - 1
        let p = passStack[i]
        frame.passes.append(RenderPass(target: p.target, kind: .draw(p.batches), clears: p.clears))
        passStack[i].batches = []
        passStack[i].clears = false
        return (p.target, p.rect)
    }

    /// A copy of the current pass's pixels under `rect` (frame pixels, within the pass), taken
    /// now: the pass is split here.
    func copyBackdrop(_ rect: CGRect) -> TargetID {
        let (source, _) = splitCurrentPass()
        let t = appendTarget(rect, downscale: 1)
        frame.passes.append(RenderPass(target: t, kind: .copy(source: source)))
        return t
    }

    /// A filter step from `source` into a new target of `rect` (same downscale as `source`).
    func appendFilter(_ op: FilterOp, source: TargetID, rect: CGRect, downscale: Int) -> TargetID {
        let t = appendTarget(rect, downscale: downscale)
        frame.passes.append(RenderPass(target: t, kind: .filter(source: source, op)))
        return t
    }

    /// Composites `source` (covering `rect`) so that it replaces what is under it
    /// (`ShaderVariant.replace`): its pixels already hold the backdrop where they should.
    func appendReplacingComposite(source: TargetID, rect: CGRect) {
        frame.composites.append(CompositeInstance(dst: rect.simd, src: rect.simd, color: SIMD4(repeating: 1), params: SIMD4(0, 0, 0, 0)))
        appendBatch(.composite(source: source, mask: nil), variant: [.replace], index: frame.composites.count - 1)
    }
}
