/// A layer as it was at another time than the frame step's, in a copy of its own: what a
/// `CAReplicatorLayer` copy delayed by `instanceDelay` shows (copy k shows its subtree as it
/// was k × instanceDelay earlier; CAReplicatorLayer `instanceDelay`: "Specifies the delay, in
/// seconds, between replicated copies"), and what an emitter's timeline samples at a particle's
/// birth (`EmitterTimeline`). The frame step's presentation copy (`animatedCopy`) and its
/// step-table block are left as they are, so every other reader still sees the frame's own time.
extension TimingEngine {
    /// `base` with `layer`'s animations applied at local time `tl`, written into a fresh copy.
    /// An animation that has not begun at `tl`, or has ended and is removed, contributes nothing
    /// (the copy shows the model value there, as E1 says for any time outside the active span).
    package static func evaluateDetached(of layer: CALayer, base: CALayer, localTime tl: Double) -> CALayer {
        evaluateDetached(base: base, plan: evaluationPlan(of: layer), localTime: tl)
    }

    /// `base` with `plan`'s animations applied at local time `tl`, into a fresh copy of `base`
    /// (so no property needs resetting first).
    package static func evaluateDetached(base: CALayer, plan: EvaluationPlan, localTime tl: Double) -> CALayer {
        let out = makeCopy(of: base)
        if plan.tracks != nil {
            SlotTarget.with(base, shape: plan.tracksTouchShape) { bs in
                SlotTarget.with(out, shape: plan.tracksTouchShape) { os in applyTracks(plan, from: bs, into: os, localTime: tl) }
            }
            return out
        }
        for e in plan.evaluators { e.apply(to: out, parentTime: tl, additivePass: false) }
        if plan.anyAdditive {
            for e in plan.evaluators { e.apply(to: out, parentTime: tl, additivePass: true) }
        }
        return out
    }
}

extension CALayer {
    /// The layer as a renderer would draw it at media time `t` instead of the frame step's time
    /// (package API for the render module: `CAReplicatorLayer.instanceDelay`). A layer without
    /// animations is its `renderCopy`; an animated one is evaluated into a new copy.
    package func renderCopy(atMedia t: CFTimeInterval) -> CALayer {
        guard !animationRecords.isEmpty, let base = committedCopy else { return renderCopy }
        return TimingEngine.evaluateDetached(of: self, base: base, localTime: localTime(fromMedia: t))
    }

    /// Whether this layer or any layer below it (sublayers and masks) has animations: a
    /// replicator whose subtree has none looks the same at every instance delay. Iterative (a
    /// hostile tree may be far deeper than the stack allows recursion).
    package var subtreeHasAnimations: Bool {
        var pending: [CALayer] = [self]
        while let l = pending.popLast() {
            if !l.animationRecords.isEmpty { return true }
            if let m = l._mask { pending.append(m) }
            if let subs = l._sublayers { pending.append(contentsOf: subs) }
        }
        return false
    }
}
