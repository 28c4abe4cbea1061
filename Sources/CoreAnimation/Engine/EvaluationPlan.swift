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
    }
}
