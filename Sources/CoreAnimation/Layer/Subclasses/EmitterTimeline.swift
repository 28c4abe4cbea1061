import CoreGraphics

/// What an emitter's values are at one instant: the layer's state and its cells' values, read
/// from the presentation timeline (the committed model with the layer's animations applied).
package struct EmitterSnapshot {
    package var state: EmitterLayerState
    /// One per node of the era's `EmitterCellTree`, in its order.
    package var values: [EmitterCellValues]

    init(state: EmitterLayerState, tree: EmitterCellTree) {
        self.state = state
        values = tree.nodes.map(\.values)
    }

    init(_ layer: CAEmitterLayer, tree: EmitterCellTree) {
        state = layer.emitter
        let cells = EmitterCellTree(cells: layer.emitter.emitterCells, lifetimeScale: 1)
        // The animated copies have the era's tree shape (animations change values, not
        // structure); a mismatch (should not happen) falls back to the era's own values.
        values = cells.nodes.count == tree.nodes.count ? cells.nodes.map(\.values) : tree.nodes.map(\.values)
    }

    /// The birth rate of node `i`: cell rate × layer multiplier, 0 when negative or not finite.
    func rate(_ i: Int) -> Double {
        let r = values[i].birthRate * Double(state.birthRate) * values[i].rateScale
        return r.isFinite && r > 0 ? r : 0
    }
}

/// The timeline of a `CAEmitterLayer`'s values, kept on the model layer so that the births of
/// frame t are a pure function of the seed, t and the timeline, whatever frames were rendered
/// before (docs/BEHAVIOUR.md Q4).
///
/// - **Eras.** The timeline is a list of eras, each one committed state of the layer with one
///   animation list: a new era starts at the frame where the renderer first sees a new commit
///   or a changed animation list. Births of an era happen only inside it, so setting a birth
///   rate to 0 stops births from then on while the particles already born live their lives
///   (as on Apple).
/// - **Births under animation.** In an era with animations, the rates are sampled on a fixed
///   grid of `step` (1/240 s) from the era's start; the birth count at grid point i is the sum
///   of rate × step over the earlier steps, always added in the same order from the era's
///   start (checkpoints every 240 steps are cached), so every frame sees the same counts.
///   Particle n is born inside the step where the count passes n, at the step's rate.
/// - **Sampling at birth.** A particle's cell values (velocity, scale, colour, emission angles,
///   lifetime and their ranges and speeds, accelerations) and the layer's values (emitter
///   position, size, depth, shape, mode and the multipliers) are those at the start of the grid
///   step it is born in; a sub-cell's values are those its parent was born with.
///
/// Bounded: at most `maxAnimatedSteps` grid steps of births are examined per frame (older
/// births of animated eras are not simulated, with a warning), snapshots are kept for those
/// steps only, and at most `maxEras` eras are kept.
package final class EmitterTimeline {
    /// The grid on which animated values are sampled.
    package static let step = 1.0 / 240
    /// Checkpoints of the birth counts are kept every this many steps.
    static let checkpointEvery = 240
    /// The counts restart from 0 every this many steps (60 s) of an animated era, so a frame
    /// rendered alone sums at most one epoch of steps (bounded time however late it is); the
    /// particles of each epoch have keys of their own.
    package static let epochSteps = 240 * 60
    /// Grid steps of an animated era examined per frame (2 minutes of births).
    package static let maxAnimatedSteps = 240 * 120
    /// Eras kept; older ones are forgotten (their particles are not drawn).
    package static let maxEras = 64

    package final class Era {
        package let start: Double
        package var end = Double.infinity
        /// A number mixed into the era's particle keys (0 for the first era, whose keys are the
        /// model's without eras).
        package let salt: UInt64
        let base: CAEmitterLayer
        let plan: EvaluationPlan?
        /// The era's cells as a tree (the shape every snapshot of the era has).
        package let tree: EmitterCellTree
        /// The values when there are no animations.
        package let constant: EmitterSnapshot?
        /// The grid step from which the values can change (before it they are constant and the
        /// counts are closed-form).
        let firstAnimatedStep: Int
        var pre: EmitterSnapshot?
        /// Birth counts per root node at steps firstAnimatedStep + k × checkpointEvery (by k).
        var checkpoints: [Int: [Double]] = [:]
        var snapshots: [Int: EmitterSnapshot] = [:]

        init(start: Double, salt: UInt64, base: CAEmitterLayer, plan: EvaluationPlan?, records: [AnimationRecord]) {
            self.start = start
            self.salt = salt
            self.base = base
            self.plan = plan
            tree = EmitterCellTree(cells: base.emitter.emitterCells, lifetimeScale: max(Double(base.emitter.lifetime), 0))
            if plan == nil {
                constant = EmitterSnapshot(base, tree: tree)
                firstAnimatedStep = 0
            } else {
                constant = nil
                // Before the earliest animation begins, the values are constant (the base's, or
                // an animation's backward fill): a sample there serves every earlier step.
                var a0 = Double.infinity
                for r in records {
                    let b = r.animation.timing.beginTime
                    a0 = b.isFinite ? min(a0, b) : -.infinity
                }
                let steps = ((a0 - start) / EmitterTimeline.step).rounded(.down)
                firstAnimatedStep = steps.isFinite ? Int(max(0, min(steps, 1e15))) : (a0 > 0 ? Int(1e15) : 0)
            }
        }

        /// The values at grid step i (its start time).
        func snapshot(_ i: Int) -> EmitterSnapshot {
            if let constant { return constant }
            if i < firstAnimatedStep {
                if let pre { return pre }
                let s = evaluate(start)
                pre = s
                return s
            }
            if let s = snapshots[i] { return s }
            return evaluate(start + Double(i) * EmitterTimeline.step)
        }

        func evaluate(_ tl: Double) -> EmitterSnapshot {
            guard let plan, let l = TimingEngine.evaluateDetached(base: base, plan: plan, localTime: tl) as? CAEmitterLayer
            else { return EmitterSnapshot(base, tree: tree) }
            return EmitterSnapshot(l, tree: tree)
        }

        /// The birth counts of every root at the start (`begin`) and end (`end`) of each grid
        /// step lo...hi, the epoch of each step (its particles' keys are salted by it) and the
        /// steps' snapshots; snapshots outside lo...hi are dropped.
        func counts(from lo: Int, to hi: Int) -> (begin: [[Double]], end: [[Double]], epoch: [Int], snaps: [EmitterSnapshot]) {
            let roots = tree.roots
            let h = EmitterTimeline.step
            let every = EmitterTimeline.checkpointEvery
            var kept: [Int: EmitterSnapshot] = [:]
            var snaps: [EmitterSnapshot] = []
            snaps.reserveCapacity(hi - lo + 1)
            for i in lo...hi {
                let s = snapshot(i)
                snaps.append(s)
                if constant == nil, i >= firstAnimatedStep { kept[i] = s }
            }
            snapshots = kept
            var begin: [[Double]] = [], end: [[Double]] = [], epochs: [Int] = []
            begin.reserveCapacity(hi - lo + 1); end.reserveCapacity(hi - lo + 1); epochs.reserveCapacity(hi - lo + 1)
            var chain: [Double]? = nil
            for i in lo...hi {
                let s = snaps[i - lo]
                if constant != nil || i < firstAnimatedStep {
                    // Constant rates: closed form.
                    begin.append(roots.map { Double(i) * h * s.rate($0) })
                    end.append(roots.map { Double(i + 1) * h * s.rate($0) })
                    epochs.append(0)
                    chain = nil
                    continue
                }
                let rel = i - firstAnimatedStep
                var c: [Double]
                if let ch = chain, rel % every != 0 {
                    c = ch
                } else {
                    c = checkpoint(rel / every)
                    for j in (firstAnimatedStep + (rel / every) * every)..<i {
                        let sj = j >= lo ? snaps[j - lo] : snapshot(j)
                        for r in roots.indices { c[r] += sj.rate(roots[r]) * h }
                    }
                }
                begin.append(c)
                for r in roots.indices { c[r] += s.rate(roots[r]) * h }
                end.append(c)
                epochs.append(rel / EmitterTimeline.epochSteps)
                chain = c
            }
            // Checkpoints of epochs before the previous one are not needed again by frames
            // near this one (and are recomputed identically if they are).
            let perEpoch = EmitterTimeline.epochSteps / every
            let keepFrom = (max(lo - firstAnimatedStep, 0) / EmitterTimeline.epochSteps - 1) * perEpoch
            if checkpoints.count > 2 * perEpoch + 2 { checkpoints = checkpoints.filter { $0.key >= keepFrom } }
            return (begin, end, epochs, snaps)
        }

        /// The counts at checkpoint g (grid step firstAnimatedStep + g × checkpointEvery): summed
        /// step by step from its epoch's start, where they are the closed-form count of the
        /// constant values before the animations (epoch 0) or 0 (later epochs).
        func checkpoint(_ g: Int) -> [Double] {
            if let c = checkpoints[g] { return c }
            let roots = tree.roots
            let h = EmitterTimeline.step
            let every = EmitterTimeline.checkpointEvery
            let perEpoch = EmitterTimeline.epochSteps / every
            let first = g - g % perEpoch
            var k = g
            while k > first, checkpoints[k] == nil { k -= 1 }
            var c: [Double]
            if let got = checkpoints[k] {
                c = got
            } else {
                let p = snapshot(0)
                c = k == 0 ? roots.map { Double(firstAnimatedStep) * h * p.rate($0) } : [Double](repeating: 0, count: roots.count)
                checkpoints[k] = c
            }
            while k < g {
                let from = firstAnimatedStep + k * every
                for j in from..<(from + every) {
                    let s = snapshot(j)
                    for r in roots.indices { c[r] += s.rate(roots[r]) * h }
                }
                k += 1
                checkpoints[k] = c
            }
            return c
        }
    }

    package private(set) var eras: [Era] = []
    private var serial: UInt64 = 0

    /// Brings the eras up to the model's committed state and animation list at layer-local time
    /// `t`, and drops eras whose particles can no longer show (`reach` seconds).
    func update(model: CAEmitterLayer, base: CAEmitterLayer, at t: Double, reach: Double) {
        let plan = model.animationRecords.isEmpty ? nil : TimingEngine.evaluationPlan(of: model)
        if let last = eras.last, last.base === base, last.plan === plan { return }
        let start: Double
        if let last = eras.last {
            start = max(t, last.start)
            last.end = start
        } else {
            start = 0
        }
        let records = model.animationRecords
        eras.append(Era(start: start, salt: serial == 0 ? 0 : EmitterHash.mix(0xE7A0_0000 &+ serial), base: base,
                        plan: plan, records: records))
        serial &+= 1
        eras.removeAll { $0.end < t - reach && $0 !== eras.last }
        if eras.count > Self.maxEras {
            Diagnostics.warnOnce("CAEmitterLayer: more than \(Self.maxEras) committed changes within the particles' lifetime: the oldest changes' particles are not drawn")
            eras.removeFirst(eras.count - Self.maxEras)
        }
    }
}

extension CAEmitterLayer {
    /// The timeline of this model layer (created at its first render).
    package func emitterTimeline() -> EmitterTimeline {
        if let t = timelineStore { return t }
        let t = EmitterTimeline()
        timelineStore = t
        return t
    }
}
