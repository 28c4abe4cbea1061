/// One animation attached to a layer: the copy that `add(_:forKey:)` made (D1) and its compiled
/// evaluator.
package final class AnimationRecord {
    package let key: String?
    package let animation: CAAnimation
    /// Nil when the animation could not be compiled (unknown key path, wrong value types): it
    /// stays listed, as on Apple, but changes nothing.
    package let evaluator: AnimationEvaluator?
    // The flags below are read for every animation at every frame step, on the thread that
    // owns the layer tree's transactions, and never handed out while they change: unchecked
    // (issue 23, callgrind of TwitterHeart's burst: run-time exclusivity checks were a fifth
    // of the frame step's instructions).
    /// beginTime 0 is replaced by the commit time in the layer's time space (C9).
    @exclusivity(unchecked) package var beginPending: Bool
    @exclusivity(unchecked) package var didStart = false
    @exclusivity(unchecked) package var didFinish = false
    /// No start or end event can still happen (finished, or started and endless).
    @exclusivity(unchecked) package var eventsDone = false
    package var completion: CompletionGroup?
    @exclusivity(unchecked) package var isRemoved = false
    /// Whether an animated key makes the layer redisplay (`needsDisplay(forKey:)`), decided once.
    @exclusivity(unchecked) package var drivesDisplay = false
    /// `CALayer.animatedBounds(of:model:)` of this animation for the model value it was last
    /// asked with: the animation does not change once added, so the renderer's per-frame
    /// question is answered from here until the model value moves.
    package var scalarBounds: (model: Double, bounds: (Double, Double)?)?
    /// Cleared by the layer's deinit (unretained to keep layers free of weak-reference side tables).
    package unowned var layer: CALayer?

    init(key: String?, animation: CAAnimation, evaluator: AnimationEvaluator?) {
        self.key = key
        self.animation = animation
        self.evaluator = evaluator
        self.beginPending = animation.beginTime == 0
    }
}

/// The completion blocks of one committed transaction and how many of its animations are
/// still running (K4).
package final class CompletionGroup {
    package var pending: Int
    package var blocks: [() -> Void]
    init(pending: Int, blocks: [() -> Void]) { self.pending = pending; self.blocks = blocks }
}
