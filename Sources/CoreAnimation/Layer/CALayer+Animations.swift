// Attaching animations to layers (docs/BEHAVIOUR.md D1–D5).

extension CALayer {
    /// Adds a copy of `anim` (D1) under `key`, replacing (and stopping, `finished == false`)
    /// any animation with the same key (D3). A duration ≤ 0 becomes the transaction's
    /// `animationDuration`, 0.25 s by default (D2); transitions always use the key
    /// `"transition"` (D3). A beginTime of 0 is replaced by the commit time (C9).
    package func addImpl(_ anim: CAAnimation, forKey key: String?) {
        guard !isPresentationCopy else { return }
        CrossThreadRelease.excluding { addExcluding(anim, forKey: key) }
    }

    private func addExcluding(_ anim: CAAnimation, forKey key: String?) {
        guard let copy = anim.copy() as? CAAnimation else { return }
        Self.sanitize(copy)
        if !(copy.duration > 0) { copy.duration = CATransaction.animationDuration() }
        if !(copy.duration > 0) { copy.duration = 0.25 }
        if let g = copy as? CAAnimationGroup { Self.giveGroupDuration(to: g) }
        if copy.timingFunction == nil, let tf = CATransaction.animationTimingFunction() { copy.timingFunction = tf }
        let key = copy is CATransition ? kCATransition : key
        let implicitFrom = (copy as? CAPropertyAnimation)?.keyPath.flatMap { implicitFromValues[$0] }
        let evaluator = AnimationCompiler.compile(copy, for: self, implicitFrom: implicitFrom)
        if let t = evaluator as? TransitionEvaluator {
            // The "before" picture of a transition is what the screen shows now (I2). It is of
            // the last commit, so it cannot change within a transaction: one replacing a
            // transition added earlier in the same transaction keeps that picture (adding
            // sublayers one by one, each implying a transition, copies the subtree once).
            let pending = animationRecords.last { $0.key == kCATransition && $0.beginPending }
            t.before = (pending?.evaluator as? TransitionEvaluator)?.before ?? transitionSnapshot(at: CACurrentMediaTime())
        }
        if let key { removeRecords { $0.key == key } }
        let record = AnimationRecord(key: key, animation: copy, evaluator: evaluator)
        record.layer = self
        record.drivesDisplay = (evaluator?.bindings ?? []).contains { type(of: self).needsDisplay(forKey: $0.property) }
        if record.beginPending {
            // Until the commit stamps it (C9), it starts now in the layer's time.
            let now = localTime(fromMedia: CACurrentMediaTime())
            evaluator?.setBeginTime(now)
            copy.beginTime = now
        }
        animationRecords.append(record)
        let stack = TransactionStack.current
        stack.touch(self)
        stack.top.addedAnimations.append(record)
        // A layer another thread stepped until now leaves that thread's set (it would otherwise
        // keep an entry this layer's `deinit` no longer removes).
        if let old = animationStack, old !== stack { old.queueForeignChange(ObjectIdentifier(self), removes: true) }
        stack.beginSetUse()
        stack.animatedLayers.insert(self)
        stack.endSetUse()
        animationStack = stack
    }

    /// The animation stored under `key` (the copy; don't modify it, as Apple warns).
    package func animationImpl(forKey key: String) -> CAAnimation? {
        animationRecords.last { $0.key == key }?.animation
    }

    /// Keys of the attached animations in the order added; nil when there are none (Apple
    /// answers nil then, D4).
    package func animationKeysImpl() -> [String]? {
        let keys = animationRecords.compactMap(\.key)
        return keys.isEmpty ? nil : keys
    }

    package func removeAnimationImpl(forKey key: String) {
        CrossThreadRelease.excluding { removeRecords { $0.key == key } }
    }

    /// The transition showing on this layer at media time `t` and its progress (I2), nil when
    /// none shows (not begun, or ended and removed). The renderer's question each frame; a
    /// layer without animations answers at the cost of one check.
    /// `runningTransition(atMedia:)` with the time asked only when the layer has a transition
    /// record: the renderer's walk asks every layer, and reading the frame's clock (a task-local
    /// lookup) cost more than the rest of the question (issue 23).
    package func runningTransition(atMedia t: () -> CFTimeInterval) -> (transition: TransitionEvaluator, progress: Double)? {
        hasTransitionRecord ? runningTransition(atMedia: t()) : nil
    }

    package func runningTransition(atMedia t: CFTimeInterval) -> (transition: TransitionEvaluator, progress: Double)? {
        guard hasTransitionRecord else { return nil }
        var local: Double? = nil
        for r in animationRecords.reversed() {
            guard let e = r.evaluator as? TransitionEvaluator else { continue }
            let tl = local ?? localTime(fromMedia: t)
            local = tl
            if let p = e.progress(at: tl) { return (e, p) }
        }
        return nil
    }

    /// Idempotent (D4). Removed animations' delegates hear `finished == false`.
    package func removeAllAnimationsImpl() {
        CrossThreadRelease.excluding { removeRecords { _ in true } }
    }

    private func removeRecords(where match: (AnimationRecord) -> Bool) {
        let removed = animationRecords.filter(match)
        guard !removed.isEmpty else { return }
        animationRecords.removeAll(where: match)
        TransactionStack.current.touch(self)
        for r in removed { TimingEngine.recordRemoved(r, finished: false) }
    }

    /// Bad timing values are clamped with a warning rather than breaking evaluation.
    private static func sanitize(_ a: CAAnimation) {
        func warn(_ what: String) { Diagnostics.warnOnce("\(type(of: a)).\(what); clamped") }
        if a.duration.isNaN { warn("duration is NaN"); a.duration = 0 }
        if a.duration.isInfinite { warn("duration is infinite"); a.duration = 0 }
        if !a.speed.isFinite { warn("speed is not finite"); a.speed = 1 }
        if a.repeatCount.isNaN || a.repeatCount < 0 { warn("repeatCount is NaN or negative"); a.repeatCount = 0 }
        if !(a.repeatDuration >= 0) || a.repeatDuration.isInfinite && a.repeatDuration < 0 { warn("repeatDuration is invalid"); a.repeatDuration = 0 }
        if !a.beginTime.isFinite { warn("beginTime is not finite"); a.beginTime = 0 }
        if !a.timeOffset.isFinite { warn("timeOffset is not finite"); a.timeOffset = 0 }
        if let g = a as? CAAnimationGroup {
            for c in g.animations ?? [] { sanitize(c) }
        }
    }

    /// A child left at duration 0 runs over its group's duration (H7), nested groups included.
    /// The Core Animation Programming Guide gives the group's duration and timing precedence
    /// over its children's, and Apple's own `CAAnimationGroup` example sets no child duration;
    /// iOS code relies on it (a child given the 0.25-s default instead would finish early).
    private static func giveGroupDuration(to g: CAAnimationGroup) {
        for c in g.animations ?? [] {
            if !(c.duration > 0) { c.duration = g.duration }
            if let inner = c as? CAAnimationGroup { giveGroupDuration(to: inner) }
        }
    }
}

extension CALayer {
    /// Whether an animation attached to this layer writes `property` (a whole key such as
    /// "lineWidth", also inside a group). Extension beyond Apple's API, for the renderer: a
    /// shape whose `lineWidth` animates is drawn from a raster that serves every width.
    package func hasAnimation(writing property: String) -> Bool {
        // The plan lists each written property once (its resets); it exists for every layer the
        // frame step has evaluated since its animations last changed.
        if let plan = evaluationPlan { return plan.resets.contains { $0.property == property } }
        return animationRecords.contains { r in
            !r.isRemoved && (r.evaluator?.bindings.contains { $0.property == property } ?? false)
        }
    }
}
