/// A layer's animation list flattened for the frame step: built when the list changes, read
/// every frame. Evaluating a layer used to walk the records twice through the evaluator
/// protocol, fetching each evaluator's binding array to reset properties (once per binding,
/// duplicates included) and asking each whether it acts additively; the plan answers all of
/// that from two arrays and two flags.
package final class EvaluationPlan {
    /// One binding per distinct property the animations write, in first-use order. Resetting a
    /// property twice from the same committed state changes nothing, so one reset suffices.
    let resets: [KeyPathBinding]
    /// The compiled animations, in the order added (E3: non-additive ones replace in order,
    /// then additive ones add on top).
    let evaluators: [AnimationEvaluator]
    let anyAdditive: Bool
    /// Whether an animated key makes the layer redisplay (`needsDisplay(forKey:)`).
    let drivesDisplay: Bool
    /// Every animation as a typed track, when every one compiles to one (`FastTrack`); the
    /// frame step then resets `trackResets` and runs these instead of `resets`/`evaluators`.
    let tracks: [FastTrack]?
    /// The stored properties the tracks write, each once.
    let trackResets: [LayerSlot]
    /// Whether a track reads or writes `CAShapeLayer`'s own state (`SlotTarget.shape`).
    let tracksTouchShape: Bool
    /// The earliest layer-local time at which one of the animations can start or end; until
    /// then the frame step skips their event checks. −∞: check at the next frame.
    // Measured (42fe970, with CALayer's frame-step fields): timing-benchmark 1000, callgrind.
    @exclusivity(unchecked) var nextEventTime = -Double.infinity
    /// Set when `StepTable.makeBlock` declined this plan, so the step does not ask again.
    var refusesBlock = false

    init(_ records: [AnimationRecord]) {
        var resets: [KeyPathBinding] = []
        var seen = Set<String>()
        var evaluators: [AnimationEvaluator] = []
        var anyAdditive = false
        for r in records {
            guard let e = r.evaluator else { continue }
            evaluators.append(e)
            anyAdditive = anyAdditive || e.hasAdditive
            for b in e.bindings where seen.insert(b.property).inserted { resets.append(b) }
        }
        self.resets = resets
        self.evaluators = evaluators
        self.anyAdditive = anyAdditive
        self.drivesDisplay = records.contains { $0.drivesDisplay }
        var tracks: [FastTrack]? = []
        var trackResets: [LayerSlot] = []
        for e in evaluators {
            guard let t = FastTrack(e) else { tracks = nil; break }
            tracks?.append(t)
            if !trackResets.contains(t.slot.root) { trackResets.append(t.slot.root) }
        }
        self.tracks = evaluators.isEmpty ? nil : tracks
        self.trackResets = tracks == nil ? [] : trackResets
        tracksTouchShape = self.trackResets.contains { $0.isShape }
    }
}

extension EvaluationPlan {
    /// When the next `animationDidStart`/`animationDidStop` can happen among `records`, in the
    /// layer's local time. An animation starts once its phase leaves `.before`, which for a
    /// positive speed is exactly local time ≥ beginTime, and ends once the elapsed time reaches
    /// the active duration, at `endTimeInParent`; both are thresholds on the local time however
    /// it moves. The result is moved a little earlier than the exact time, so rounding in the
    /// phase arithmetic can never make the exact checks run late.
    static func nextEventTime(_ records: [AnimationRecord]) -> Double {
        var next = Double.infinity
        for r in records where !r.eventsDone {
            if r.beginPending { return -.infinity }
            let timing = r.animation.timing
            let threshold: Double
            if !r.didStart {
                threshold = abs(timing.speed) > 0 ? timing.beginTime : -.infinity
            } else {
                threshold = timing.endTimeInParent
            }
            guard !threshold.isNaN else { return -.infinity }
            guard threshold.isFinite else {
                if threshold < 0 { return -.infinity }
                continue
            }
            next = min(next, threshold - 1e-9 * max(1, abs(threshold), abs(timing.beginTime)))
        }
        return next
    }
}
