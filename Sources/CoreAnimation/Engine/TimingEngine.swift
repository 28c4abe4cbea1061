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
    package static func animatedLayers() -> [CALayer] { TransactionStack.current.animatedLayers.members() }

    package static func hasActiveAnimations() -> Bool { TransactionStack.current.animatedLayers.count > 0 }

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
        let out: CALayer
        if let c = layer.animatedCopy { out = c } else { out = makeCopy(of: base); layer.animatedCopy = out }
        if plan.tracks != nil {
            // Typed tracks: plain stores into the copy's state (see `FastTrack`).
            withUnsafeMutablePointer(to: &base.state) { bs in
                withUnsafeMutablePointer(to: &out.state) { os in applyTracks(plan, from: bs, into: os, localTime: tl) }
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
    /// frame after its first), without retaining the copies: at 100k layers the step is bound
    /// by cache misses, and a retain touches each object's header line on top of the state
    /// lines the tracks read and write. The layer holds both copies for the whole call.
    @inline(__always)
    private static func applyTracks(_ layer: CALayer, plan: EvaluationPlan, localTime tl: Double) {
        Unmanaged.passUnretained(layer.committedCopy!)._withUnsafeGuaranteedRef { base in
            Unmanaged.passUnretained(layer.animatedCopy!)._withUnsafeGuaranteedRef { out in
                withUnsafeMutablePointer(to: &base.state) { bs in
                    withUnsafeMutablePointer(to: &out.state) { os in
                        applyTracks(plan, from: bs, into: os, localTime: tl)
                    }
                }
            }
        }
    }

    @inline(__always)
    private static func applyTracks(_ plan: EvaluationPlan, from base: UnsafeMutablePointer<LayerState>,
                                    into out: UnsafeMutablePointer<LayerState>, localTime tl: Double) {
        for slot in plan.trackResets { slot.reset(out, from: base) }
        plan.tracks!.withUnsafeBufferPointer { ts in
            for t in ts { t.apply(into: &out.pointee, parentTime: tl) }
        }
    }

    /// The layer's plan, rebuilt after its animation list changed.
    @inline(__always) static func evaluationPlan(of layer: CALayer) -> EvaluationPlan {
        if let p = layer.evaluationPlan { return p }
        let p = EvaluationPlan(layer.animationRecords)
        layer.evaluationPlan = p
        return p
    }

    // MARK: Frame step

    /// Advances this thread's animations to media time `t`: delivers `animationDidStart`,
    /// `animationDidStop(_:finished: true)`, removals (`isRemovedOnCompletion`) and completion
    /// blocks, sorted by the media time at which each happened; then evaluates every animated
    /// layer's presentation and redisplays layers whose animated keys need display.
    package static func step(to t: Double) {
        let stack = TransactionStack.current
        var events: [(time: Double, seq: Int, run: () -> Void)] = []
        for (i, e) in stack.pendingEvents.enumerated() { events.append((e.time, i, e.run)) }
        stack.pendingEvents = []
        var seq = events.count
        func add(_ time: Double, _ run: @escaping () -> Void) { events.append((time, seq, run)); seq += 1 }

        // Siblings share their parent's local time: compute it once per parent, not per layer.
        var cachedParent: ObjectIdentifier? = nil
        var cachedParentTime = t
        for layer in stack.animatedLayers.members() {
            let tl: Double
            if let p = layer._superlayer {
                let id = ObjectIdentifier(p)
                if id != cachedParent { cachedParent = id; cachedParentTime = p.localTime(fromMedia: t) }
                tl = layer.localTime(parentTime: cachedParentTime)
            } else {
                tl = layer.localTime(parentTime: t)
            }
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
                        if let d = anim.delegate { add(start) { d.animationDidStart(anim) } }
                    }
                    if !r.didFinish, phase == .after {
                        r.didFinish = true
                        let end = layer.mediaTime(fromLocal: timing.endTimeInParent)
                        if let d = anim.delegate { add(end) { d.animationDidStop(anim, finished: true) } }
                        if let g = completionDone(r) { add(end, g) }
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
            }
            if layer.animationRecords.isEmpty {
                stack.animatedLayers.remove(ObjectIdentifier(layer))
                continue
            }
            if finishedAndRemoved.isEmpty, plan.tracks != nil, layer.committedCopy != nil, layer.animatedCopy != nil {
                applyTracks(layer, plan: plan, localTime: tl)
                if plan.drivesDisplay { layer.animatedCopy?.display() }
                continue
            }
            if let base = layer.committedCopy {
                // A removal above replaced the plan: evaluate with the current one.
                let current = finishedAndRemoved.isEmpty ? plan : evaluationPlan(of: layer)
                let out = evaluate(layer, base: base, localTime: tl, plan: current)
                if current.drivesDisplay { out.display() }
            }
        }
        events.sort { $0.time != $1.time ? $0.time < $1.time : $0.seq < $1.seq }
        for e in events { e.run() }
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
