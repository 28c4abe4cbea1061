import CAFrame

/// Many instances of one pipeline and variant appended at once (a `CAEmitterLayer`'s 100,000
/// particles): the batches and the emission log are those of appending each (`appendBatch`),
/// made in one step rather than one call per instance.
extension FrameWriter {
    /// Instances `range` (already in their array, after everything appended so far) as a run
    /// of `pipeline` with `variant`.
    func appendBatch(_ pipeline: Batch.Pipeline, variant: ShaderVariant, range: Range<Int>) {
        guard !range.isEmpty else { return }
        if reemitting || depthPlane >= 0 {
            for i in range { appendBatch(pipeline, variant: variant, index: i) }
            return
        }
        emissionLog.append(contentsOf: repeatElement(Emission(pipeline: pipeline, variant: variant), count: range.count))
        let p = passStack.count - 1
        if let last = passStack[p].batches.last, last.pipeline == pipeline, last.variant == variant,
           last.range.upperBound == range.lowerBound {
            passStack[p].batches[passStack[p].batches.count - 1].range = last.range.lowerBound..<range.upperBound
        } else {
            passStack[p].batches.append(Batch(pipeline: pipeline, variant: variant, range: range))
        }
    }
}
