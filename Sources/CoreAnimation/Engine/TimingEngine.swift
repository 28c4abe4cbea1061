/// The timing engine: commits transactions into the animation state, evaluates presentation
/// values (a pure function of the committed model, the animation list and the time) and runs
/// the frame step that delivers callbacks and removes finished animations in time order.
package enum TimingEngine {
    package static func hasAnimations(_ layer: CALayer) -> Bool { !layer.animationRecords.isEmpty }

    /// Whether any layer of this thread still has animations attached (a renderer's
    /// `nextFrameTime()` is "now" while this holds).
    /// This thread's commit generation (see `TransactionStack.commitGeneration`).
    package static var commitGeneration: UInt64 { TransactionStack.current.commitGeneration }

    /// The layers this thread's commits changed after commit generation `generation`; nil when
    /// that is too long ago to say (see `CommitLog`).
    package static func layersCommitted(since generation: UInt64) -> [ObjectIdentifier]? {
        TransactionStack.current.commitLog.layers(since: generation)
    }

    /// This thread's layers with animations attached (what a frame step changes).
    package static func animatedLayers() -> [CALayer] {
        let stack = TransactionStack.current
        stack.beginSetUse()
        defer { stack.endSetUse() }
        return stack.animatedLayers.members()
    }

    package static func hasActiveAnimations() -> Bool {
        let stack = TransactionStack.current
        // Layers freed on other threads leave this set at its next use.
        if stack.hasForeignChanges.load(ordering: .relaxed) { stack.beginSetUse(); stack.endSetUse() }
        return stack.animatedLayers.count > 0
    }

    // MARK: Commit

    /// The outermost commit of a transaction (K2): snapshots changed layers (L1), stamps begin
    /// times (C9) and arranges the completion block (K4).
    package static func commit(_ frame: TransactionFrame) {
        let now = CACurrentMediaTime()
        if !frame.touchedLayers.isEmpty || !frame.addedAnimations.isEmpty {
            TransactionStack.current.commitGeneration &+= 1
        }
        let generation = TransactionStack.current.commitGeneration
        for layer in frame.touchedLayers where !layer.isPresentationCopy {
            TransactionStack.current.commitLog.append(layer, generation: generation)
            // Copies handed out earlier stop pointing at the model (their reference is
            // unretained, and only the current copies are cleared by the model's deinit):
            // their `model()` answers themselves from now on (don't keep presentations, L2).
            layer.committedCopy?.modelRef = nil
            layer.animatedCopy?.modelRef = nil
            layer.committedCopy = makeCopy(of: layer)
            layer.animatedCopy = nil
            layer.implicitFromValues = [:]
            layer.sublayersBeforeChange = nil
            layer.sublayersChangedInTransaction = false
            layer.touchedInTransaction = 0
        }
        CrossThreadRelease.forwardCommits(frame.touchedLayers, from: TransactionStack.current)
        var live: [AnimationRecord] = []
        for r in frame.addedAnimations where !r.isRemoved {
            guard let layer = r.layer else { continue }
            if r.beginPending {
                let t = layer.localTime(fromMedia: now)
                r.animation.beginTime = t
                r.evaluator?.setBeginTime(t)
                r.beginPending = false
                // The plan's typed tracks copied the timing: rebuild them with the stamped time.
                layer.evaluationPlan = nil
            }
            live.append(r)
        }
        guard !frame.completionBlocks.isEmpty else { return }
        let blocks = frame.completionBlocks
        if live.isEmpty {
            // No animations: the block runs at the next frame step, not inside commit (K4).
            TransactionStack.current.pendingEvents.append((now, { blocks.forEach { $0() } }))
        } else {
            let group = CompletionGroup(pending: live.count, blocks: blocks)
            for r in live { r.completion = group }
        }
    }

    /// A presentation copy: the layer's class, its state, flagged so it never runs actions.
    package static func makeCopy(of layer: CALayer) -> CALayer {
        let c = type(of: layer).init(layer: layer)
        c.isPresentationCopy = true
        c.modelRef = layer.isPresentationCopy ? layer.modelRef : layer
        return c
    }

    // MARK: Evaluation

    /// `base` with every animation of `layer` applied at media time `t`: non-additive ones
    /// replace in the order added, then additive ones add on top (E3). Writes into a reused
    /// copy, so a frame allocates nothing per layer.
    package static func evaluatePresentation(of layer: CALayer, base: CALayer, at t: Double) -> CALayer {
        evaluatePresentation(of: layer, base: base, localTime: layer.localTime(fromMedia: t))
    }

    package static func evaluatePresentation(of layer: CALayer, base: CALayer, localTime tl: Double) -> CALayer {
        guard !layer.animationRecords.isEmpty else { return base }
        return evaluate(layer, base: base, localTime: tl, plan: evaluationPlan(of: layer))
    }

    /// The evaluation itself, with the layer's current plan (the frame step has it in hand).
    private static func evaluate(_ layer: CALayer, base: CALayer, localTime tl: Double, plan: EvaluationPlan) -> CALayer {
        // These values replace whatever the copy held: a later `renderCopy` stores the last
        // step's table outputs again (the render tree shows the frame step's time).
        layer.appliedStep = 0
        let out: CALayer
        if let c = layer.animatedCopy { out = c } else { out = makeCopy(of: base); layer.animatedCopy = out }
        if plan.tracks != nil {
            // Typed tracks: plain stores into the copy's state (see `FastTrack`).
            SlotTarget.with(base, shape: plan.tracksTouchShape) { bs in
                SlotTarget.with(out, shape: plan.tracksTouchShape) { os in applyTracks(plan, from: bs, into: os, localTime: tl) }
            }
            return out
        }
        for b in plan.resets { b.reset(out, base) }
        for e in plan.evaluators { e.apply(to: out, parentTime: tl, additivePass: false) }
        if plan.anyAdditive {
            for e in plan.evaluators { e.apply(to: out, parentTime: tl, additivePass: true) }
        }
        return out
    }

    /// `evaluate` for a layer whose plan has typed tracks and whose output copy exists (every
    /// frame after its first). Plain references: the unretained (`Unmanaged`) form it had made no
    /// measurable difference (timing-benchmark 1000, callgrind: step 49.34 → 49.30 M, whole run +0.1%).
    @inline(__always)
    private static func applyTracks(_ layer: CALayer, plan: EvaluationPlan, localTime tl: Double) {
        let base = layer.committedCopy!, out = layer.animatedCopy!
        SlotTarget.with(base, shape: plan.tracksTouchShape) { bs in
            SlotTarget.with(out, shape: plan.tracksTouchShape) { os in
                applyTracks(plan, from: bs, into: os, localTime: tl)
            }
        }
    }

    @inline(__always)
    static func applyTracks(_ plan: EvaluationPlan, from base: SlotTarget, into out: SlotTarget, localTime tl: Double) {
        for slot in plan.trackResets { slot.reset(out, from: base) }
        plan.tracks!.withUnsafeBufferPointer { ts in
            for t in ts { t.apply(into: out, parentTime: tl) }
        }
    }

    /// The layer's plan, rebuilt after its animation list changed.
    @inline(__always) static func evaluationPlan(of layer: CALayer) -> EvaluationPlan {
        if let p = layer.evaluationPlan { return p }
        let p = EvaluationPlan(layer.animationRecords)
        // A plan resets only the properties its own animations write, so the presentation copy
        // must not carry what an earlier plan's animations wrote: an animation removed at its
        // end while another ran on left its last value on screen and in `presentation()` until
        // the next commit. The list changes rarely (adding one also commits, which drops the
        // copy anyway), so the next evaluation starts from a fresh copy of the committed state.
        if let stale = layer.animatedCopy {
            stale.modelRef = nil  // as a commit does: an outdated copy answers itself (L2)
            layer.animatedCopy = nil
        }
        layer.evaluationPlan = p
        return p
    }

    // MARK: Frame step

    /// Advances this thread's animations to media time `t`: delivers `animationDidStart`,
    /// `animationDidStop(_:finished: true)`, removals (`isRemovedOnCompletion`) and completion
    /// blocks, sorted by the media time at which each happened; then evaluates every animated
    /// layer's presentation and redisplays layers whose animated keys need display.
    ///
    /// Layers with a current block in the `StepTable` and no event due are evaluated there, in
    /// runs, into the table's outputs; every other layer takes `stepLayer`, which then gives it
    /// a block when its plan allows one.
    package static func step(to t: Double) {
        let stack = TransactionStack.current
        var events = EventQueue()
        for e in stack.pendingEvents { events.add(e.time, e.run) }
        stack.pendingEvents = []

        // The walk holds the set shared against layers freed on other threads; what it would
        // release or call out to (finished animations and their delegates, `display()`) waits
        // until it ends, as such code may release layers itself (`CrossThreadRelease`).
        stack.beginSetUse()
        var after = AfterWalk()
        stack.animatedLayers.table.stepCount &+= 1
        let stepCount = stack.animatedLayers.table.stepCount
        // Siblings share their parent's local time: compute it once per parent, not per layer.
        var parents = ParentTimeCache(mediaTime: t)
        stack.animatedLayers.isWalking = true
        let n = stack.animatedLayers.entries.count
        var i = 0
        while i < n {
            i = stack.animatedLayers.runBlocks(from: i, to: n, step: stepCount, parents: &parents)
            guard i < n else { break }
            defer { i += 1 }
            guard let u = stack.animatedLayers.entries[i].layer else { continue }
            // Its last reference went on another thread, whose `deinit` waits for this walk to
            // end and then queues its removal: leave it alone.
            if CrossThreadRelease.isDeallocating(u.toOpaque()) { continue }
            let layer = u.takeUnretainedValue()
            stepLayer(layer, localTime: parents.localTime(of: layer), events: &events, after: &after)
            // Still a member (a layer whose last animation ended was removed): keep its block
            // current, or build one for the next frames.
            guard stack.animatedLayers.entries[i].layer != nil, let plan = layer.evaluationPlan else { continue }
            if let b = stack.animatedLayers.entries[i].block, b.isCurrent(for: layer) {
                stack.animatedLayers.entries[i].block!.refresh(from: layer, nextEventTime: plan.nextEventTime)
            } else if !plan.refusesBlock, let base = layer.committedCopy, let out = layer.animatedCopy {
                var block = stack.animatedLayers.table.makeBlock(plan: plan, base: base, out: out)
                block?.refresh(from: layer, nextEventTime: plan.nextEventTime)
                if block == nil { plan.refusesBlock = true }
                stack.animatedLayers.setBlock(block, at: i)
            } else {
                stack.animatedLayers.setBlock(nil, at: i)
            }
        }
        stack.animatedLayers.isWalking = false
        stack.animatedLayers.compactIfSparse()
        stack.endSetUse()
        for c in after.displays { c.display() }
        after = AfterWalk()
        for e in events.sorted() { e() }
    }

    /// What the walk of `step` leaves for after it: presentation copies to redisplay, and the
    /// finished animations it removed, released only then.
    struct AfterWalk {
        var displays: [CALayer] = []
        var removed: [AnimationRecord] = []
    }

    /// One layer's frame on the per-layer path: its events (start, stop, removal, completion),
    /// then its presentation values written into its presentation copy.
    private static func stepLayer(_ layer: CALayer, localTime tl: Double, events: inout EventQueue, after: inout AfterWalk) {
        var finishedAndRemoved: [AnimationRecord] = []
        let plan = evaluationPlan(of: layer)
        if tl >= plan.nextEventTime {
            for r in layer.animationRecords where !r.beginPending && !r.eventsDone {
                let anim = r.animation
                let timing = anim.timing
                let phase = timing.phase(tl)
                // Nothing more can happen to a started animation that never ends (∞ repeats):
                // later frames skip it here without touching the animation object.
                if r.didStart, !timing.activeDuration.isFinite || timing.speed == 0 { r.eventsDone = true }
                if !r.didStart, phase != .before {
                    r.didStart = true
                    let start = layer.mediaTime(fromLocal: timing.beginTime)
                    if let d = anim.delegate { events.add(start) { d.animationDidStart(anim) } }
                }
                if !r.didFinish, phase == .after {
                    r.didFinish = true
                    let end = layer.mediaTime(fromLocal: timing.endTimeInParent)
                    if let d = anim.delegate { events.add(end) { d.animationDidStop(anim, finished: true) } }
                    if let g = completionDone(r) { events.add(end, g) }
                    r.eventsDone = true
                    if anim.isRemovedOnCompletion { finishedAndRemoved.append(r) }
                }
            }
            // (A removal below replaces the plan; the new one checks events at the next frame.)
            plan.nextEventTime = EvaluationPlan.nextEventTime(layer.animationRecords)
        }
        if !finishedAndRemoved.isEmpty {
            layer.animationRecords.removeAll { r in finishedAndRemoved.contains { $0 === r } }
            for r in finishedAndRemoved { r.isRemoved = true }
            after.removed += finishedAndRemoved
        }
        if layer.animationRecords.isEmpty {
            TransactionStack.current.animatedLayers.remove(ObjectIdentifier(layer))
            return
        }
        if finishedAndRemoved.isEmpty, plan.tracks != nil, layer.committedCopy != nil, layer.animatedCopy != nil {
            applyTracks(layer, plan: plan, localTime: tl)
            if plan.drivesDisplay, let c = layer.animatedCopy { after.displays.append(c) }
            return
        }
        if let base = layer.committedCopy {
            // A removal above replaced the plan: evaluate with the current one.
            let current = finishedAndRemoved.isEmpty ? plan : evaluationPlan(of: layer)
            let out = evaluate(layer, base: base, localTime: tl, plan: current)
            if current.drivesDisplay { after.displays.append(out) }
        }
    }

    /// Stores the values the last frame step left in the `StepTable` for `layer` into its
    /// presentation copy, once per step (what `renderCopy` reads). The stack is used unretained
    /// and the set in place: a renderer calls this for every animated layer of every frame.
    /// Returns whether the layer's block is current (its values are this step's).
    @inline(__always)
    package static func storeStepOutputs(of layer: CALayer) -> Bool {
        // Kept: timing-benchmark 1000, callgrind: a retained stack costs renderCopy's stores 8% (2.85 → 3.09 M).
        guard let raw = unsafeBitCast(layer.animationStack, to: UnsafeMutableRawPointer?.self) else { return false }
        return Unmanaged<TransactionStack>.fromOpaque(raw)._withUnsafeGuaranteedRef { $0.animatedLayers.storeOutputs(of: layer) }
    }

    /// A removed or replaced animation: its delegate hears `finished == false` at the next
    /// step (D3), and its transaction's completion count drops (K4).
    package static func recordRemoved(_ r: AnimationRecord, finished: Bool) {
        guard !r.isRemoved else { return }
        r.isRemoved = true
        let stack = TransactionStack.current
        let now = CACurrentMediaTime()
        if !r.didFinish {
            r.didFinish = true
            let anim = r.animation
            if let d = anim.delegate { stack.pendingEvents.append((now, { d.animationDidStop(anim, finished: finished) })) }
            if let g = completionDone(r) { stack.pendingEvents.append((now, g)) }
        }
    }

    /// Counts `r` as done for its transaction; returns the completion blocks when it was the last.
    private static func completionDone(_ r: AnimationRecord) -> (() -> Void)? {
        guard let g = r.completion else { return nil }
        r.completion = nil
        g.pending -= 1
        guard g.pending == 0 else { return nil }
        let blocks = g.blocks
        g.blocks = []
        return { blocks.forEach { $0() } }
    }


}
