import CoreGraphics

/// One emission run of a top-level cell at a constant rate, described instead of simulated:
/// particles `first`, `first ± 1`, … (`count` of them, in the order `renderMode` draws them) of
/// one cell, each of which `EmitterSimulation.born` would make from its key alone. A backend
/// that can evaluate `born` itself (the GL backend's particle pipeline, Shaders/particle.vert)
/// draws a run from this one record, so the CPU cost of a frame is O(runs), not O(particles)
/// (issue 21). Everything is folded so the evaluator needs no layer state: the layer's
/// multipliers are multiplied into the cell's values, and ages are relative to the run's first
/// particle, worked out here in Double (the layer time t itself can be large).
package struct EmitterRun {
    /// The cell's node in the current tree (`EmitterSimulation.tree`), as `EmitterParticle.node`.
    package var node: Int
    /// The hash input of instance 0: cell key &+ its particle number. Instance i's key is
    /// `EmitterHash.mix(firstKey &+ i)` when `step` is +1, `mix(firstKey &- i)` when −1.
    package var firstKey: UInt64
    /// +1: instance i is particle first + i (oldest first); −1: first − i (youngest first).
    package var step: Int
    /// Instances to draw (births in the window that may be alive; some may be dead or drawn
    /// as nothing, as the CPU path skips them).
    package var count: Int
    /// The age at t of instance 0, and how much older each next instance is (± 1/rate).
    package var firstAge: Double
    package var ageStep: Double
    /// Lifetime and its range, × the layer's `lifetime`.
    package var lifetime: Double, lifetimeRange: Double
    /// Velocity and its range, × the layer's `velocity`.
    package var velocity: Double, velocityRange: Double
    package var longitude: Double, emissionRange: Double, latitude: Double
    package var acceleration: SIMD3<Double>
    /// Scale, its range and speed, × the layer's `scale`.
    package var scale: Double, scaleRange: Double, scaleSpeed: Double
    /// Spin and its range, × the layer's `spin`.
    package var spin: Double, spinRange: Double
    package var color: SIMD4<Double>, colorRange: SIMD4<Double>, colorSpeed: SIMD4<Double>
    /// The emitter shape (`EmitterSimulation.emitterPoint`): its centre, its width, height and
    /// depth, and codes for the shape (0 point or unknown, 1 line, 2 rectangle, 3 cuboid,
    /// 4 circle, 5 sphere) and the mode (0 points, 1 outline, 2 surface, 3 volume or unknown).
    package var centre: SIMD3<Double>
    package var size: SIMD3<Double>
    package var shapeCode: Int, modeCode: Int
}

extension EmitterSimulation {
    /// The particles at `t` as runs (`EmitterRun`) instead of particles, or nil when the layer
    /// is not all runs: sub-cells, an era with animations, `backToFront`, `oldestFirst` or
    /// `oldestLast` with more than one run (their order interleaves cells), or a cap reached
    /// (the CPU simulation then draws it, with its warnings).
    package static func runs(model: CAEmitterLayer?, current: EmitterLayerState, at t: Double) -> (EmitterSimulation, [EmitterRun])? {
        if current.renderMode == .backToFront { return nil }
        var sim: EmitterSimulation
        if let model {
            sim = EmitterSimulation(model: model, current: current, at: t, collectingRuns: true)
        } else {
            sim = EmitterSimulation(current, at: t, collectingRuns: true)
        }
        guard !sim.runsRefused, sim.particles.isEmpty else { return nil }
        if sim.runs.count > 1, current.renderMode == .oldestFirst || current.renderMode == .oldestLast { return nil }
        return (sim, sim.runs)
    }

    /// In run mode, records the births k…kLo of a top-level cell without sub-cells as one run
    /// (false: the cell is not a run; the caller refuses the layer).
    mutating func appendRun(node: Int, tree: EmitterCellTree, src: EmitterSnapshot, start: Double, rate: Double,
                            from k: Double, to kLo: Double, cellKey: UInt64, at t: Double) {
        let count = k - kLo + 1
        candidates += Int(count)
        let total = runs.reduce(0) { $0 + $1.count } + Int(count)
        guard candidates <= Self.maxCandidates, total <= Self.maxParticles else { runsRefused = true; return }
        guard let current = currentIndex[tree.nodes[node].pathKey] else { return }
        let v = src.values[node], st = src.state
        let oldestFirst = st.renderMode == .oldestFirst
        let n0 = oldestFirst ? kLo : k
        let lt = Double(st.lifetime), vel = Double(st.velocity), sc = Double(st.scale), sp = Double(st.spin)
        let shapeCodes: [CAEmitterLayerEmitterShape: Int] = [.line: 1, .rectangle: 2, .cuboid: 3, .circle: 4, .sphere: 5]
        let modeCodes: [CAEmitterLayerEmitterMode: Int] = [.points: 0, .outline: 1, .surface: 2]
        runs.append(EmitterRun(
            node: current, firstKey: cellKey &+ UInt64(n0), step: oldestFirst ? 1 : -1, count: Int(count),
            firstAge: t - (start + n0 / rate), ageStep: oldestFirst ? -1 / rate : 1 / rate,
            lifetime: v.lifetime * lt, lifetimeRange: v.lifetimeRange * lt,
            velocity: v.velocity * vel, velocityRange: v.velocityRange * vel,
            longitude: v.emissionLongitude, emissionRange: v.emissionRange, latitude: v.emissionLatitude,
            acceleration: v.acceleration,
            scale: v.scale * sc, scaleRange: v.scaleRange * sc, scaleSpeed: v.scaleSpeed * sc,
            spin: v.spin * sp, spinRange: v.spinRange * sp,
            color: v.color, colorRange: v.colorRange, colorSpeed: v.colorSpeed,
            centre: SIMD3(Double(st.emitterPosition.x), Double(st.emitterPosition.y), Double(st.emitterZPosition)),
            size: SIMD3(Double(st.emitterSize.width), Double(st.emitterSize.height), Double(st.emitterDepth)),
            shapeCode: shapeCodes[st.emitterShape] ?? 0, modeCode: modeCodes[st.emitterMode] ?? 3))
    }
}
